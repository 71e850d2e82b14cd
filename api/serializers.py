"""Shapes of requests and responses. They validate and document; they hold no game logic."""

import datetime
from collections.abc import Mapping
from typing import Any, get_args

from django.conf import settings
from django.core.validators import RegexValidator
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings

from api import contract
from api.errors import ERROR_CODES
from games.models import MAX_TURN_SECONDS, MIN_TURN_SECONDS
from games.rules.engine import ACTIONS_PHASE, INCIDENTS_PHASE, MISSIONS_PHASE, SETUP_PHASE, DecisionKind

# --- requests ----------------------------------------------------------------------------------


# The phases of a turn, as the engine records them.
PHASES = [SETUP_PHASE, ACTIONS_PHASE, INCIDENTS_PHASE, MISSIONS_PHASE]

_NO_OFFSET = datetime.timedelta(0)


class TimeField(serializers.DateTimeField):
    """DRF's DateTimeField, writing a time the database gives (aware, in UTC) directly when the
    project's timezone is UTC, as it is (nothing activates another): the field's own path
    looks the current timezone up in a context-local for each time it writes, which cost
    more than the writing in the feeds and answers that write them by the dozen. Any other
    time, format or timezone takes the field's own path."""

    def to_representation(self, value: Any) -> Any:
        if (
            isinstance(value, datetime.datetime)
            and value.utcoffset() == _NO_OFFSET
            and settings.TIME_ZONE == "UTC"
            and getattr(self, "format", api_settings.DATETIME_FORMAT) == ISO_8601
            and not hasattr(self, "timezone")
        ):
            return value.replace(tzinfo=None).isoformat() + "Z"
        return super().to_representation(value)


class StrictIntegerField(serializers.IntegerField):
    """A whole number as JSON writes one: `"1"`, `1.0` and `true` are refused, not converted."""

    default_error_messages = {"invalid": "A JSON integer is required (not a string or a float)."}

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, int) or isinstance(data, bool):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictCharField(serializers.CharField):
    """A JSON string: numbers are refused, not turned into text."""

    default_error_messages = {"invalid": "A JSON string is required."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


# A name's characters as the schema declares them. Python's \w is every script's letters and
# digits, a JSON Schema pattern's (ECMA-262's) ASCII's only: declared as it is, it called "ã"
# refused. This pattern refuses only what the field refuses in any script too, whitespace
# (but around the name, which the field trims) and the ASCII punctuation but @ . + - _, and
# lets the field's check (then the one of the normalised name, accounts' services) refuse the
# rest, with their own codes.
USERNAME_SCHEMA_PATTERN = r"""^\s*[^\s!"#$%&'()*,/:;<=>?\[\\\]^`{|}~]+\s*$"""


@extend_schema_field({"type": "string", "maxLength": 150, "pattern": USERNAME_SCHEMA_PATTERN})
class UsernameField(StrictCharField):
    """1 to 150 letters (of any script), digits and @ . + - _."""

    def __init__(self) -> None:
        super().__init__(
            max_length=150,
            validators=[
                RegexValidator(r"^[\w.@+-]+\Z", message="Use letters, digits and @ . + - _ only.")
            ],
        )


class CredentialsSerializer(serializers.Serializer):
    username = UsernameField()
    password = StrictCharField(min_length=6, max_length=128, trim_whitespace=False)


VISIBILITIES = ["private", "public"]


def visibility_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(
        choices=VISIBILITIES,
        default="private",
        help_text="`private` (the default): joined with the invite code the creation returns, "
        "found by no one else; `public`: listed in GET /lobby and joined by anyone.",
    )


def turn_seconds_field(*, what: str) -> StrictIntegerField:
    return StrictIntegerField(
        min_value=MIN_TURN_SECONDS,
        max_value=MAX_TURN_SECONDS,
        required=False,
        help_text=f"Seconds each seat has for a turn{what} (and for a phase 5 or phase 6 "
        "choice): once they pass, a worker plays its part as the greedy bot would (an "
        "`autopilot` event); 3 in a row hand the seat to the bot. Left out: no deadline.",
    )


class CreateGameSerializer(serializers.Serializer):
    adventure = StrictIntegerField(min_value=1, max_value=8)
    max_players = StrictIntegerField(min_value=1, max_value=6)
    visibility = visibility_field()
    turn_seconds = turn_seconds_field(what="")
    astra_level = StrictIntegerField(
        min_value=1,
        max_value=8,
        required=False,
        help_text="A solo game's ASTRA opponent, 1 (Katherine, easiest) to 8 (Peggy); 1 when "
        "left out. Only for max_players 1: a multiplayer game refuses it.",
    )


class JoinSerializer(serializers.Serializer):
    invite = StrictCharField(
        max_length=64,
        required=False,
        help_text="A private table's invite code (the `invite` its seated players read); a "
        "public table needs none.",
    )


class AddBotSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["random", "greedy"],
        help_text="`random` picks any legal option; `greedy` the one that most raises its score.",
    )


@extend_schema_field(contract.ref(contract.OPTION))
class OptionField(serializers.DictField):
    """One of a game decision's options (the schema's `Option`, one branch per `action`)."""


@extend_schema_field({"type": "array", "items": contract.ref(contract.OPTION)})
class OptionsField(serializers.ListField):
    """A game decision's options."""


class MoveSerializer(serializers.Serializer):
    choice = OptionField(
        help_text="One element of `options` from GET /decision, sent back unchanged.",
        error_messages={"not_a_dict": "choice must be one of the decision's options (an object)."},
    )


class SentEmpty(serializers.Field):
    """A query parameter sent empty (``limit=``) is a value missing, refused, not a parameter
    left out (as DRF reads an empty form field)."""

    def get_value(self, dictionary: Any) -> Any:
        if dictionary.get(self.field_name) == "":
            return ""
        return super().get_value(dictionary)


class QueryChoiceField(SentEmpty, serializers.ChoiceField):
    """One of the choices, in a query string."""


class QueryCharField(SentEmpty, serializers.CharField):
    """Some text, in a query string (never empty)."""


class QueryIntegerField(SentEmpty, serializers.IntegerField):
    """A whole number in a query string: plain ASCII digits only (no sign, spaces, underscores
    or other scripts' digits, all of which ``int()`` would take)."""

    default_error_messages = {"invalid": "A whole number written with the digits 0-9 is required."}

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not (data.isascii() and data.isdigit()):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class EventsQuerySerializer(serializers.Serializer):
    after = QueryIntegerField(min_value=0, max_value=2**31, default=0)
    limit = QueryIntegerField(min_value=1, max_value=100_000, default=100)
    wait = QueryIntegerField(
        min_value=0,
        max_value=30,
        default=0,
        help_text="Long-poll: when nothing follows `after` yet, answer as soon as something does, "
        "or with no events after this many seconds (0: at once).",
    )


class StreamQuerySerializer(serializers.Serializer):
    after = QueryIntegerField(
        min_value=0,
        max_value=2**31,
        default=0,
        help_text="Start after this position of your feed; the `Last-Event-ID` header, sent by "
        "EventSource when it reconnects, takes precedence.",
    )
    ticket = serializers.CharField(
        required=False,
        max_length=100,
        help_text="A one-use ticket from `POST .../stream-ticket`, instead of the Authorization "
        "header (which EventSource cannot send). A token never goes in a URL.",
    )


class InviteQuerySerializer(serializers.Serializer):
    invite = QueryCharField(
        max_length=64, required=False, help_text="A private lobby's invite code, to read it unseated."
    )


class PageQuerySerializer(serializers.Serializer):
    page = QueryIntegerField(min_value=1, max_value=2**31, default=1)
    page_size = QueryIntegerField(min_value=1, max_value=100, default=20)


class GamesQuerySerializer(PageQuerySerializer):
    status = QueryChoiceField(choices=["lobby", "playing", "scoring", "finished"], required=False)
    adventure = QueryIntegerField(min_value=1, max_value=8, required=False)


class ReplayQuerySerializer(serializers.Serializer):
    seq = QueryIntegerField(min_value=1, max_value=2**31)


class SheetSvgQuerySerializer(serializers.Serializer):
    seq = QueryIntegerField(
        min_value=1,
        max_value=2**31,
        required=False,
        help_text="A finished game's sheet as it was at this position of your feed (as /replay).",
    )


GAME_STATUSES = ["lobby", "playing", "scoring", "finished"]


@extend_schema_field({"type": "object", "additionalProperties": contract.ref(contract.MARK)})
class MarksField(serializers.JSONField):
    """Marks keyed by sheet element id."""


# --- responses ---------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=ERROR_CODES, help_text="Stable machine-readable code, e.g. `illegal_choice`."
    )
    detail = serializers.CharField(help_text="A sentence for people.")
    errors = serializers.JSONField(  # type: ignore[assignment]
        required=False, help_text="Per-field messages (400 only)."
    )


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True, help_text="Null for a bot seat.")
    bot = serializers.ChoiceField(
        choices=["random", "greedy"],
        allow_null=True,
        help_text="The kind of bot in this seat (a worker plays its turns); null for a player.",
    )


class PlayingSeatSerializer(SeatSerializer):
    confirmed = serializers.BooleanField(
        required=False,
        help_text="Whether the seat has confirmed the turn in play (public); absent in the lobby.",
    )
    sheets = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The sheets the seat plays on; absent in the lobby.",
    )
    sheet = serializers.IntegerField(
        required=False, help_text="The sheet it plays this turn; absent in the lobby."
    )
    resigned = serializers.BooleanField(
        required=False,
        help_text="Handed to a bot for the rest of the game (its player resigned, or let 3 "
        "deadlines pass in a row); the player keeps the seat and reads the game.",
    )


class EngineSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    confirmed = serializers.BooleanField()
    sheets = serializers.ListField(child=serializers.IntegerField())
    sheet = serializers.IntegerField()
    resigned = serializers.BooleanField(help_text="Played by a bot for the rest of the game.")


class JoinedSerializer(serializers.Serializer):
    seat = serializers.IntegerField()


class BotSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The seat the bot fills.")
    bot = serializers.ChoiceField(choices=["random", "greedy"])


@extend_schema_field(
    {"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["astra"]}]}
)
class WinnerField(serializers.Field):
    """A winning seat, or "astra" when ASTRA wins a solo game."""

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(
    {"oneOf": [{"type": "integer"}, {"type": "string", "enum": ["astra"]}]}
)
class OwnerField(serializers.Field):
    """The seat owning a side of a shared sheet, or "astra" for ASTRA's side in a solo game."""

    def to_representation(self, value: Any) -> Any:
        return value


@extend_schema_field(contract.ref(contract.SCORE_BREAKDOWN))
class ScoreBreakdownField(serializers.JSONField):
    """A seat's score line by line (its adventure's shape)."""


@extend_schema_field(contract.ref(contract.ASTRA_BREAKDOWN))
class AstraBreakdownField(serializers.JSONField):
    """ASTRA's score line by line."""


@extend_schema_field(contract.ref(contract.SHEET_SCORE))
class SheetScoreField(serializers.JSONField):
    """A sheet's live score (its adventure's shape)."""


@extend_schema_field(contract.ref(contract.SHEET_DERIVED))
class DerivedField(serializers.JSONField):
    """What a sheet draws that is not a mark (its adventure's shape)."""


class ScoreSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 for the winners; tied seats share a rank.")
    breakdown = ScoreBreakdownField(help_text="The score area by area, as `/sheets` shows it.")


class AstraResultSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    breakdown = AstraBreakdownField(
        help_text="Points per action of its pile, `fixed`, `level` and `total` (adventure 1: "
        "`boxes_crossed` on its rocket track, `launched`, `total`)."
    )


class WinningSerializer(serializers.Serializer):
    """Who won, in typed fields (``winners`` mixes seats and ``"astra"`` in one list)."""

    seats = serializers.ListField(child=serializers.IntegerField(), help_text="The winning seats.")
    astra = serializers.BooleanField(
        help_text="Solo: whether ASTRA won, alone (`seats` empty) or on a draw (`seats` `[0]`)."
    )


class ResultSerializer(serializers.Serializer):
    scores = ScoreSerializer(many=True)
    winners = serializers.ListField(
        child=WinnerField(),
        help_text='The winning seats; in a solo game `[0]` (the player), `["astra"]`, or '
        '`[0, "astra"]` on a draw. Kept as it always was: `winning` says the same in typed fields.',
    )
    winning = WinningSerializer(help_text="Who won: `winners` as typed fields.")
    astra = AstraResultSerializer(required=False, help_text="Solo: ASTRA's final score.")
    resigned = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats a bot played to the end (resigned)."
    )


class EndSerializer(serializers.Serializer):
    reasons = serializers.ListField(
        child=serializers.JSONField(), help_text="Why the game ended (each with its `kind`)."
    )


class CombinationSerializer(serializers.Serializer):
    stack = serializers.IntegerField(required=False, help_text="Its stack (multiplayer).")
    number_card = serializers.IntegerField(
        required=False, help_text="Solo: the card of the hand giving the number."
    )
    action_card = serializers.IntegerField(
        required=False, help_text="Solo: the card of the hand giving the action."
    )
    number = serializers.IntegerField()
    action = serializers.CharField()


class HandCardSerializer(serializers.Serializer):
    card = serializers.IntegerField()
    number = serializers.IntegerField()
    action = serializers.CharField()


class PileSerializer(serializers.Serializer):
    robot = serializers.IntegerField()
    energy = serializers.IntegerField()
    plant = serializers.IntegerField()
    water = serializers.IntegerField()
    astronaut = serializers.IntegerField()
    planning = serializers.IntegerField()


class AstraBonusesSerializer(serializers.Serializer):
    boxes = serializers.IntegerField(help_text="The bonus boxes of the adventure's ASTRA card.")
    circled = serializers.IntegerField(help_text="Bonuses earned so far.")
    used = serializers.IntegerField(help_text="Bonuses crossed off to remove a card.")


class TranslatedCharField(serializers.CharField):
    """Text of the game's data for people (an adventure's name, a mission's condition), shown in
    the reader's language: its English is a msgid of the catalogs (moon.catalogs extracts the
    data's texts)."""

    def to_representation(self, value: Any) -> str:
        text = str(value)
        return gettext(text) if text else text  # gettext("") is the catalog's header


class AstraSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    name = TranslatedCharField()
    pile = PileSerializer(help_text="ASTRA's cards by action.")
    bonuses = AstraBonusesSerializer()
    score = serializers.IntegerField(
        help_text="ASTRA's live score: its pile at the opponent's multipliers plus the adventure "
        "card's points (adventure 1: its rocket track)."
    )

    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()
        # `pass` is a Python keyword: it cannot be declared as a class attribute.
        fields["pass"] = serializers.ChoiceField(
            choices=[1, 2], help_text="The pass through the solo deck (2 after its reshuffle)."
        )
        return fields


class MissionSerializer(serializers.Serializer):
    letter = serializers.CharField()
    card = serializers.IntegerField()
    text = TranslatedCharField(help_text="Its condition, in the reader's language.")
    first = serializers.IntegerField(
        help_text="Points for those who accomplish it first. In The Dome (adventure 5) the cards "
        "print no points: this is the current 'first' value of your sheet's missions track."
    )
    later = serializers.IntegerField(
        help_text="Points once the card is flipped (The Dome: your missions track's 'later' value)."
    )
    flipped = serializers.BooleanField()


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    adventure = serializers.IntegerField()
    max_players = serializers.IntegerField()
    astra_level = serializers.IntegerField(
        allow_null=True, help_text="A solo game's ASTRA level (null: no ASTRA)."
    )
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    visibility = serializers.ChoiceField(choices=VISIBILITIES)
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Seconds each seat has for a phase; null: no deadline."
    )
    creator = serializers.CharField()
    created_at = TimeField()
    seats = SeatSerializer(many=True)


class GamesPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="How many games match, over every page.")
    next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page; null on the first.")
    results = GameSummarySerializer(many=True)


class LobbyEntrySerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=["game", "campaign"])
    id = serializers.IntegerField(help_text="The game's or the campaign's id.")
    adventure = serializers.IntegerField(allow_null=True, help_text="A game's adventure (campaign: null).")
    max_players = serializers.IntegerField()
    seats_taken = serializers.IntegerField(help_text="Seats taken, by players and bots.")
    seats_free = serializers.IntegerField()
    creator = serializers.CharField()
    created_at = TimeField()
    turn_seconds = serializers.IntegerField(allow_null=True)


class LobbyPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LobbyEntrySerializer(many=True)


class SidesSerializer(serializers.Serializer):
    S = serializers.IntegerField(help_text="The seat owning side S (its left sheet; missions).")
    N = OwnerField(
        help_text='The seat owning side N (its right sheet); "astra" in a solo game, where ASTRA '
        "owns side N of both sheets."
    )


class SheetRefSerializer(serializers.Serializer):
    sheet = serializers.IntegerField(help_text="The sheet's id, for GET /sheets/{sheet}.")
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats that play on it."
    )
    sides = SidesSerializer(
        required=False,
        help_text="On a sheet shared by two seats (adventure 8): the seat owning each side.",
    )


class GameSerializer(GameSummarySerializer):
    seats = PlayingSeatSerializer(many=True)
    seat = serializers.IntegerField(allow_null=True, help_text="The caller's seat, if any.")
    invite = serializers.CharField(
        allow_null=True,
        help_text="The invite code that lets someone join the game (POST /join) while it is "
        "in the lobby: shown to its seated players only.",
    )
    deadline = TimeField(
        allow_null=True,
        help_text="With `turn_seconds`: when the phase in play stops waiting; a seat that has "
        "not finished it by then is played for (null: no deadline, or not being played).",
    )
    version = serializers.IntegerField(
        help_text="How many events of the game you can read: the end of your feed (0 before the "
        "start). It never moves with what another seat did in the turn being played."
    )
    players = serializers.IntegerField(
        required=False, help_text="How many seats were dealt in: absent in the lobby."
    )
    turn = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(
        choices=PHASES,
        required=False,
        help_text="`setup` while seats make the choices a sheet asks for before the first turn "
        "(The Virus: where its grey virus goes); `actions` while seats play phases 2-4; "
        "`incidents` while seats make the choices phase 5 asks of them (The Virus: which space "
        "a virus infects); `missions` while the seats offered a mission choose whether to claim "
        "it (phase 6). In every phase the seats asked nothing get the decision `wait`. Absent in the lobby.",
    )
    sheets = SheetRefSerializer(
        many=True,
        required=False,
        help_text="Every sheet and the seats that play on it: absent in the lobby.",
    )
    combinations = CombinationSerializer(
        many=True,
        help_text="The three combinations of this turn (solo: the six pairs of the hand).",
    )
    missions = MissionSerializer(many=True)
    end = EndSerializer(allow_null=True, help_text="Why the game ended, once it has (else null).")
    result = ResultSerializer(allow_null=True, help_text="Once the game is finished.")
    astra = AstraSerializer(allow_null=True, help_text="Solo: ASTRA, once started (else null).")
    hand = HandCardSerializer(
        many=True, allow_null=True, help_text="Solo: the cards in hand (else null)."
    )


class ReplayGameSerializer(serializers.Serializer):
    adventure = serializers.IntegerField()
    players = serializers.IntegerField()
    turn = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(choices=PHASES)
    combinations = CombinationSerializer(many=True)
    missions = MissionSerializer(many=True)
    sheets = SheetRefSerializer(many=True)
    seats = EngineSeatSerializer(many=True, help_text="Seats as the engine knows them (no names).")
    end = EndSerializer(allow_null=True)
    result = ResultSerializer(allow_null=True)
    astra = AstraSerializer(allow_null=True)
    hand = HandCardSerializer(many=True, allow_null=True)


class DecisionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=get_args(DecisionKind),
        help_text="What is to decide: `choose`, `effect` (a waiting step, also at setup and in "
        "phase 5, where it is not undone; in solo, the target of an ASTRA effect card, and in "
        "adventure 8 the planet ASTRA's own card goes to), `give` (solo: the card left over "
        "goes to ASTRA or, with a circled bonus, leaves the game), `confirm`, `mission` (phase "
        "6: claim a listed "
        "mission or confirm to claim no more), or `wait` when nothing (in solo, also while ASTRA "
        "plays its part of the turn)."
    )
    sheet = serializers.IntegerField(
        allow_null=True,
        help_text="The sheet your seat plays this turn (adventure 8 alternates between two; "
        "in a solo game of adventure 8, while ASTRA's part waits for your choice, the sheet of "
        "the coming turn, where it plays); null when the game is not being played.",
    )
    options = OptionsField(
        child=serializers.JSONField(), help_text="Every legal choice, for POST /moves."
    )
    can_undo = serializers.BooleanField()
    can_confirm = serializers.BooleanField()


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(
        help_text="The event's position in your feed (from 1, no gaps; your feed only grows at "
        "its end). Another seat's moves of a turn join it when the turn resolves."
    )
    turn = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    kind = serializers.CharField()
    v = serializers.IntegerField(help_text="The version of the kind's schema (older ones upcast).")
    data = serializers.JSONField()  # type: ignore[assignment]
    created_at = TimeField()


# a time as the serializers write it, for the shapes written out below
DATETIME = TimeField()


def shown_event(event: Mapping[str, Any]) -> dict[str, Any]:
    """An event of a feed as ``EventSerializer`` shapes it, written out field by field: every
    command's answer and every stream's messages shape events by the many, and the
    serializer's walk over its fields cost more than the values (its values are JSON's already,
    but the datetime)."""
    return {
        "seq": event["seq"],
        "turn": event["turn"],
        "seat": event["seat"],
        "kind": event["kind"],
        "v": event["v"],
        "data": event["data"],
        "created_at": DATETIME.to_representation(event["created_at"]),
    }


def shown_decision(decision: Mapping[str, Any]) -> dict[str, Any]:
    """A decision as ``DecisionSerializer`` shapes it, written out likewise (its kind is one of
    its choices as it is)."""
    return {
        "kind": decision["kind"],
        "sheet": decision["sheet"],
        "options": list(decision["options"]),
        "can_undo": decision["can_undo"],
        "can_confirm": decision["can_confirm"],
    }


class EventsPageSerializer(serializers.Serializer):
    events = EventSerializer(many=True)
    next = serializers.IntegerField(
        allow_null=True, help_text="`after` for the next page; null at the end of your feed."
    )
    version = serializers.IntegerField()


class CommandResultSerializer(serializers.Serializer):
    events = EventSerializer(
        many=True, help_text="The events this command appended that you can read, in your feed."
    )
    decision = DecisionSerializer(help_text="The caller's next decision.")
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField()


class SheetSerializer(serializers.Serializer):
    sheet = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="Who plays on it.")
    seat = serializers.IntegerField(required=False, help_text="Its seat, when only one plays it.")
    sides = SidesSerializer(
        required=False,
        help_text="On a sheet shared by two seats (adventure 8): the seat owning each side.",
    )
    active_seat = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text="On a shared sheet: the seat playing it this turn (null once the game is over).",
    )
    marks = MarksField(help_text="Every mark, keyed by sheet element id.")
    error_boxes = serializers.ListField(child=serializers.CharField())
    score = SheetScoreField(help_text="The live score breakdown.")
    derived = DerivedField(help_text="What is drawn that is not a mark (zones, ...).")


class ReplaySerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    version = serializers.IntegerField()
    game = ReplayGameSerializer()
    sheets = SheetSerializer(many=True)


class HealthCheckSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["ok", "eager", "down"],
        help_text="`eager`: the embedded mode, where tasks run in the web process (counts as up).",
    )
    detail = serializers.CharField()


class FollowUpsCheckSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["ok", "late", "down"],
        help_text="`late`: the oldest follow-up not done was due more than HEALTH_FOLLOWUP_AGE "
        "seconds ago; `down`: the database is.",
    )
    detail = serializers.CharField()
    age = serializers.FloatField(
        allow_null=True, help_text="Seconds since the oldest follow-up not done was due; null: none."
    )
    unfinished = serializers.IntegerField(
        allow_null=True, help_text="Follow-ups due and not done (ASTRA's turns, bots, scoring...)."
    )


class HealthChecksSerializer(serializers.Serializer):
    database = HealthCheckSerializer()
    broker = HealthCheckSerializer()
    worker = HealthCheckSerializer()
    followups = FollowUpsCheckSerializer()


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=["ok", "degraded", "unavailable"],
        help_text="`degraded` (200): everything answers but follow-ups are late.",
    )
    checks = HealthChecksSerializer()
    code = serializers.CharField(required=False, help_text="`unavailable` (503 only).")
    detail = serializers.CharField(required=False, help_text="What is down (503) or late (degraded).")


class HistoryPublicKeySerializer(serializers.Serializer):
    key_id = serializers.CharField(help_text="The first 16 hex digits of the sha256 of the raw public key.")
    public_key = serializers.CharField(help_text="Base64 of the raw 32-byte Ed25519 public key.")
    current = serializers.BooleanField(help_text="Whether it signs the histories that finish now.")


class HistoryKeySerializer(serializers.Serializer):
    algorithm = serializers.ChoiceField(choices=["Ed25519"])
    key_id = serializers.CharField(help_text="The id of the key that signs the histories that finish now.")
    public_key = serializers.CharField(help_text="Base64 of its raw 32-byte Ed25519 public key.")
    keys = HistoryPublicKeySerializer(
        many=True,
        help_text="Every key whose seals this server accepts: the current one first, then earlier "
        "ones (after a rotation) and other servers' it trusts.",
    )


class IndexSerializer(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.CharField()
    docs = serializers.URLField(help_text="Interactive docs (Swagger UI, served with no CDN).")
    schema = serializers.URLField(help_text="The OpenAPI 3 schema.")
    resources = serializers.DictField(
        child=serializers.CharField(),
        help_text="Each resource's URL; `{id}`, `{sheet}` and `{seat}` stand for a game or campaign "
        "id, a sheet id and a seat number.",
    )


class StreamTicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(
        help_text="Send it once as `?ticket=` on this stream's URL, within a minute: it is used up "
        "by that request (an EventSource reconnecting needs a new one, and `?after=` or "
        "`Last-Event-ID` to resume)."
    )
    expires = TimeField(help_text="When the ticket stops working if unused.")
