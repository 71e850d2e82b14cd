"""Every error leaves the API as JSON `{code, detail}` (validation errors add `errors`)."""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response

from api.authentication import TicketRefused, TokenExpired
from eventstore.errors import Conflict, Forbidden, GameError, Invalid, NotFound, TooMany, Unprocessable
from games.i18n import translated

logger = logging.getLogger(__name__)

# A database that cannot be reached, or a transaction it gave up on (a deadlock, a lost
# connection): its transaction rolled back, and the same request may well succeed again.
DatabaseUnavailable = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5

REFUSAL_STATUS: dict[type[GameError], int] = {
    Invalid: status.HTTP_400_BAD_REQUEST,
    Forbidden: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    Unprocessable: status.HTTP_422_UNPROCESSABLE_ENTITY,
    TooMany: status.HTTP_429_TOO_MANY_REQUESTS,
}

API_ERROR_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (TokenExpired, "token_expired"),
    (TicketRefused, "invalid_ticket"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
    (exceptions.ParseError, "malformed_request"),
    (exceptions.ValidationError, "invalid_request"),
]

# Every `code` an error answer can carry, as the schema's `ErrorCodeEnum` lists them: the API's
# own and every refusal the services and the rules engine raise (tests/api/test_error_codes.py
# finds each code the sources raise here).
ERROR_CODES: tuple[str, ...] = (
    "adventure_not_available", "airlock_already_active", "airlock_not_reachable", "already_seated",
    "arrow_not_available", "asteroid_not_next", "astra_effect_pending", "astra_level_solo_only",
    "astra_needs_one_player", "astra_placement_pending", "astra_planet_not_available",
    "astra_playing", "astra_scores_on_track", "astra_target_not_available",
    "astronaut_modifier_out_of_range", "authentication_failed", "block_not_accessible",
    "bot_games_per_hour_exceeded", "box_already_crossed", "box_not_next", "campaign_finished",
    "campaign_full", "campaign_not_finished", "campaign_not_in_lobby", "campaign_not_started",
    "card_not_given", "card_not_in_hand", "card_not_left_over", "chapter_in_play",
    "chapter_not_available", "chapter_not_in_play", "column_full", "combination_not_these_cards",
    "concurrent_command", "creator_seat", "database_unavailable", "effect_not_optional",
    "effect_not_pending", "effects_pending", "element_already_built", "element_not_buildable",
    "error_box_not_free", "error_box_not_next", "game_full", "game_not_ended", "game_not_finished",
    "game_not_in_lobby", "game_not_playing", "game_not_started", "games_per_hour_exceeded",
    "greenhouse_not_next", "greenhouse_wrong_quarter", "idempotency_key_reused", "illegal_choice",
    "insignia_must_be_drawn", "internal_error", "invalid_astra_level", "invalid_bot_kind",
    "invalid_choice", "invalid_command", "invalid_credentials", "invalid_hand",
    "invalid_idempotency_key", "invalid_max_players", "invalid_missions", "invalid_modifier",
    "invalid_player_count", "invalid_request", "invalid_ticket", "invalid_turn_seconds",
    "invalid_username", "invalid_visibility", "level_not_reachable", "lobby_expired",
    "malformed_request", "method_not_allowed", "mission_not_claimable", "modifier_not_allowed",
    "modifier_out_of_range", "modifier_required", "moon_space_taken", "multiplier_crossed",
    "no_astra_bonus", "no_legal_placement", "no_tank_on_space", "not_a_solo_game", "not_acceptable",
    "not_authenticated", "not_creator", "not_enough_players", "not_found", "not_seated",
    "not_this_astra_card", "not_this_effect_card", "not_your_choice", "nothing_to_undo",
    "number_already_in_zone", "number_must_be_written", "number_not_in_combination",
    "number_not_on_planet", "number_out_of_range", "number_out_of_reach", "payload_too_large",
    "permission_denied", "planet_complete", "planet_full", "planet_out_of_reach",
    "plant_already_circled", "plant_not_in_ship", "plant_symbol_crossed",
    "plant_symbol_not_on_planet", "quarter_not_eligible", "reactor_already_circled",
    "reactor_not_in_ship", "robot_already_circled", "same_card_for_number_and_action",
    "seat_not_found", "seat_resigned", "section_already_split", "section_built", "sheet_not_found",
    "sheet_not_played_this_turn", "solo_needs_astra", "space_not_ascending", "space_not_empty",
    "space_not_in_quarter", "space_not_next", "space_prenumbered", "station_not_connected",
    "symbol_already_crossed", "symbol_already_marked", "symbol_not_reachable",
    "tank_already_circled", "tank_not_on_space", "throttled", "token_expired",
    "too_many_open_lobbies", "track_complete", "tunnel_already_drawn", "tunnel_not_connected",
    "turn_already_confirmed", "turn_complete", "turn_not_played", "unavailable",
    "undo_limit_reached", "unknown_action", "unknown_adventure", "unknown_airlock",
    "unknown_asteroid", "unknown_box", "unknown_column", "unknown_combination",
    "unknown_dome_element", "unknown_field", "unknown_filter", "unknown_greenhouse", "unknown_moon",
    "unknown_opponent", "unknown_pack", "unknown_planet", "unknown_plant", "unknown_reactor",
    "unknown_robot", "unknown_seat", "unknown_section", "unknown_space", "unknown_symbol",
    "unknown_tank", "unknown_track", "unknown_tunnel", "unknown_walkway", "unknown_wall",
    "unsupported_media_type", "username_taken", "walkway_closed", "wall_already_drawn",
    "wall_required", "water_symbol_crossed", "water_symbol_not_on_planet", "weak_password",
    "wild_not_available", "wrong_floor_for_action", "wrong_multiplier", "wrong_parity",
    "wrong_symbol_kind",
)


def error_body(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "detail": detail, **extra}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: map our refusals and DRF's own errors to `{code, detail}`."""
    if isinstance(exc, GameError):
        http_status = next(
            (code for cls, code in REFUSAL_STATUS.items() if isinstance(exc, cls)),
            status.HTTP_400_BAD_REQUEST,
        )
        # the detail in the reader's language; the code never changes with it
        return Response(error_body(exc.code, translated(exc.template, exc.params)), status=http_status)

    if isinstance(exc, DatabaseUnavailable):
        logger.warning("database unavailable in %s", context.get("view"), exc_info=exc)
        return Response(
            error_body(
                "database_unavailable", gettext("The database cannot be reached just now; try again shortly.")
            ),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )

    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body(
                "payload_too_large", gettext("The body is larger than %(limit)s bytes.") % {"limit": limit}
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )

    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()

    if isinstance(exc, exceptions.APIException):
        headers = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        if getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(exc.wait))  # type: ignore[attr-defined]
        if isinstance(exc, exceptions.ValidationError):
            body = error_body(
                "invalid_request", _validation_sentence(exc.detail), errors=exc.detail
            )
        else:
            code = next(
                (name for cls, name in API_ERROR_CODES if isinstance(exc, cls)),
                str(exc.default_code),
            )
            body = error_body(code, str(exc.detail))
        return Response(body, status=exc.status_code, headers=headers)

    logger.exception("Unhandled error in %s", context.get("view"), exc_info=exc)
    return Response(
        error_body("internal_error", gettext("Something went wrong on our side.")),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _validation_sentence(detail: Any) -> str:
    """The first message of a validation error, prefixed by its field."""
    if isinstance(detail, dict):
        for field, messages in detail.items():
            first = _validation_sentence(messages)
            return first if field == "non_field_errors" else f"{field}: {first}"
    if isinstance(detail, list) and detail:
        return _validation_sentence(detail[0])
    return str(detail) or gettext("The request is not valid.")


@csrf_exempt
def not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Django's handler404 and the API's catch-all route: JSON even outside DRF views, whatever
    the method (exempt from CSRF, so that a POST to no address is a 404, not an HTML 403)."""
    return JsonResponse(error_body("not_found", gettext("There is nothing at this address.")), status=404)


def server_error(request: HttpRequest) -> JsonResponse:
    return JsonResponse(
        error_body("internal_error", gettext("Something went wrong on our side.")), status=500
    )
