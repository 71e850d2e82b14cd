"""Shapes of the campaign requests and answers. They validate and document; no campaign logic."""

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api import contract
from api.serializers import (
    VISIBILITIES,
    PageQuerySerializer,
    QueryChoiceField,
    SeatSerializer,
    StrictCharField,
    StrictIntegerField,
    TimeField,
    TranslatedCharField,
    WinnerField,
    WinningSerializer,
    turn_seconds_field,
    visibility_field,
)
from games.i18n import text

# --- requests ----------------------------------------------------------------------------------


class CreateCampaignSerializer(serializers.Serializer):
    max_players = StrictIntegerField(min_value=1, max_value=6)
    astra_level = StrictIntegerField(
        min_value=1,
        max_value=8,
        required=False,
        help_text="ASTRA's starting level, for a solo campaign (max_players 1) only; 1 by default.",
    )
    pack = StrictCharField(
        max_length=64, required=False, help_text="The content pack's id; `open` by default."
    )
    visibility = visibility_field()
    turn_seconds = turn_seconds_field(what=" of each chapter's game")


class CampaignsQuerySerializer(PageQuerySerializer):
    status = QueryChoiceField(choices=["lobby", "playing", "between", "finished"], required=False)


@extend_schema_field(contract.ref(contract.CAMPAIGN_OPTION))
class CampaignOptionField(serializers.DictField):
    """One of a campaign decision's options (the schema's `CampaignOption`)."""


class CampaignMoveSerializer(serializers.Serializer):
    choice = CampaignOptionField(
        help_text="One element of `options` from GET /decision, sent back unchanged (its text, "
        "in the language it was read in, is not compared).",
        error_messages={"not_a_dict": "choice must be one of the decision's options (an object)."},
    )


# --- answers -----------------------------------------------------------------------------------


class PackRefSerializer(serializers.Serializer):
    id = serializers.CharField()
    version = serializers.CharField()
    hash = serializers.CharField(help_text="sha256 of the pack's content when the campaign was created.")
    title = TranslatedCharField(help_text="In the reader's language when the catalogs have it.")


class CampaignSeatSerializer(SeatSerializer):
    stars = serializers.IntegerField(help_text="Stars so far, over the attempts that count.")


class CampaignSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    max_players = serializers.IntegerField()
    astra_level = serializers.IntegerField(
        allow_null=True,
        help_text="A solo campaign's starting ASTRA level (cards move it chapter by chapter); "
        "null for several players.",
    )
    status = serializers.ChoiceField(choices=["lobby", "playing", "between", "finished"])
    visibility = serializers.ChoiceField(choices=VISIBILITIES)
    turn_seconds = serializers.IntegerField(
        allow_null=True, help_text="Seconds each seat has for a phase of a chapter's game; null: none."
    )
    creator = serializers.CharField()
    created_at = TimeField()
    pack = PackRefSerializer()
    seats = SeatSerializer(many=True)


class CampaignsPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="How many campaigns match, over every page.")
    next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The previous page; null on the first.")
    results = CampaignSummarySerializer(many=True)


class ChapterScoreSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    total = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 for the winners; tied seats share a rank.")
    missions = serializers.ListField(
        child=serializers.CharField(), help_text="The letters of the missions accomplished."
    )
    system_errors = serializers.IntegerField(help_text="System Error boxes marked.")


class ChapterResultSerializer(serializers.Serializer):
    scores = ChapterScoreSerializer(many=True)
    winners = serializers.ListField(
        child=WinnerField(),
        help_text='The winning seats, and `"astra"` when ASTRA wins or shares the victory. Kept as '
        "it always was: `winning` says the same in typed fields.",
    )
    winning = WinningSerializer(help_text="Who won: `winners` as typed fields.")


class AstraChapterSerializer(serializers.Serializer):
    total = serializers.IntegerField(help_text="ASTRA's score in the chapter's game.")
    rank = serializers.IntegerField(help_text="1 when ASTRA won or drew the chapter, else 2.")
    stars = serializers.IntegerField(allow_null=True, help_text="The stars its rank took.")


class AstraTallySerializer(serializers.Serializer):
    stars = serializers.IntegerField(help_text="ASTRA's stars so far, over the attempts that count.")
    totals = serializers.IntegerField(help_text="The sum of ASTRA's chapter totals (the tie-break).")


class StarReasonSerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=["rank", "star_goal"])
    stars = serializers.IntegerField()
    rank = serializers.IntegerField(required=False, help_text="The rank the stars are for.")
    card = serializers.CharField(required=False, help_text="The card whose goal was met.")


class StarAwardSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    stars = serializers.IntegerField()
    reasons = StarReasonSerializer(many=True)


class AttemptSerializer(serializers.Serializer):
    attempt = serializers.IntegerField(help_text="1 for the first play, 2 for the first replay...")
    game = serializers.IntegerField(allow_null=True, help_text="Its game, at /games/{id}.")
    status = serializers.ChoiceField(choices=["preparing", "playing", "finished"])
    missions = serializers.DictField(
        child=serializers.IntegerField(), help_text="Mission cards chosen through campaign cards, by letter."
    )
    cards = serializers.ListField(
        child=serializers.CharField(), help_text="The campaign cards that applied to its setup."
    )
    astra_level = serializers.IntegerField(
        allow_null=True,
        help_text="Solo: ASTRA's level in its game (the starting level moved by the cards in "
        "effect, 1 to 8); null for several players or before its game starts.",
    )
    result = ChapterResultSerializer(allow_null=True)
    stars = StarAwardSerializer(many=True, allow_null=True)
    astra = AstraChapterSerializer(
        allow_null=True,
        help_text="Solo, rules version 2: ASTRA as the other player of the chapter (its total, "
        "rank and stars); null otherwise.",
    )
    kept = serializers.BooleanField(
        help_text="Rules version 2: the captain kept this result (cards are offered only then)."
    )


class ChapterSerializer(serializers.Serializer):
    chapter = serializers.IntegerField()
    adventure = serializers.IntegerField()
    name = TranslatedCharField(help_text="The adventure's name, in the reader's language.")
    available = serializers.BooleanField(
        help_text="Whether its adventure is playable on this server, for this campaign's players "
        "(solo: against ASTRA)."
    )
    unavailable = serializers.CharField(allow_null=True, help_text="Why it cannot be played yet.")
    counts = serializers.IntegerField(
        allow_null=True, help_text="The attempt whose stars and cards count (the last one played)."
    )
    attempts = AttemptSerializer(many=True)


class CardSerializer(serializers.Serializer):
    card = serializers.CharField()
    title = TranslatedCharField(help_text="In the reader's language when the catalogs have it.")
    story = TranslatedCharField(help_text="In the reader's language when the catalogs have it.")
    after = serializers.IntegerField(help_text="The chapter after which it is offered.")
    chooser = serializers.ChoiceField(
        choices=["each", "captain"], help_text="`each` player chooses one, or the `captain` for the group."
    )
    applies_to = serializers.ChoiceField(choices=["chooser", "all", "opponent"])
    chapters = serializers.ListField(
        child=serializers.IntegerField(), help_text="The chapters it applies to."
    )
    effects = serializers.ListField(
        child=serializers.JSONField(), help_text="Its effects, each with its `kind` (see the README)."
    )


class HeldCardSerializer(CardSerializer):
    chosen_by = serializers.IntegerField(help_text="The seat that chose it.")
    holders = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats it applies to."
    )
    until = serializers.IntegerField(help_text="The last chapter it applies to.")


class CampaignSerializer(CampaignSummarySerializer):
    rules_version = serializers.IntegerField(
        help_text="The version of the campaign rules it plays for its whole life: 2 for campaigns "
        "created now (keep-or-replay before cards, a personal card draft, ASTRA a rival in solo), "
        "1 for those created before."
    )
    astra = AstraTallySerializer(
        allow_null=True,
        help_text="Solo, rules version 2: ASTRA's star tally beside the player's; null otherwise.",
    )
    seats = CampaignSeatSerializer(many=True)
    seat = serializers.IntegerField(allow_null=True, help_text="The caller's seat, if any.")
    invite = serializers.CharField(
        allow_null=True,
        help_text="The invite code that lets someone join the campaign in the lobby: shown to its "
        "seated players only.",
    )
    captain = serializers.IntegerField(allow_null=True, help_text="The seat holding the captain card.")
    chapter = serializers.IntegerField(
        allow_null=True, help_text="The chapter in play, being prepared or last played."
    )
    chapters = ChapterSerializer(many=True)
    cards = HeldCardSerializer(many=True, help_text="The cards in effect now or for a later chapter.")
    offered = CardSerializer(many=True, help_text="The cards offered after the chapter just played.")
    version = serializers.IntegerField(help_text="How many events the campaign's log holds.")
    winners = serializers.ListField(
        child=WinnerField(),
        allow_null=True,
        help_text="Once the campaign is finished: seats, and in a solo campaign of rules version 2 "
        '`"astra"` when ASTRA wins or shares the victory (`[0]`, `["astra"]` or `[0, "astra"]`). '
        "Kept as it always was: `winning` says the same in typed fields.",
    )
    winning = WinningSerializer(
        allow_null=True, help_text="Once the campaign is finished: `winners` as typed fields."
    )


# The fields of a campaign option that only show it (its text), in the reader's language.
SHOWN_TEXT = ("condition", "title", "story")


@extend_schema_field({"type": "array", "items": contract.ref(contract.CAMPAIGN_OPTION)})

class CampaignOptionsField(serializers.ListField):
    """A campaign decision's options; a mission card's condition, a campaign card's title and
    story in the reader's language (fields that only show the choice: the choice fields never
    change)."""

    def to_representation(self, data: Any) -> list[Any]:
        return [
            {name: _shown(name, value) for name, value in option.items()}
            if isinstance(option, dict)
            else option
            for option in data
        ]


def _shown(name: str, value: Any) -> Any:
    """An option's field as the reader reads it: its text in their language."""
    if name == "effects":  # a card's effects: each a Text (template and params)
        return [text(effect) for effect in value]
    return gettext(value) if name in SHOWN_TEXT and value else value


class CampaignDecisionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["card", "aim", "chapter", "keep_or_replay", "mission", "wait"],
        help_text="`card`: choose a campaign card; `aim`: name the opponent a card is aimed at; "
        "`keep_or_replay` (captain, rules version 2): keep the chapter's result and go on, or "
        "replay it; `chapter` (captain, rules version 1): the next chapter or a replay; "
        "`mission`: a mission card; `wait`.",
    )
    options = CampaignOptionsField(
        child=serializers.JSONField(), help_text="Every legal choice, for POST /moves."
    )
    can_undo = serializers.BooleanField(help_text="Always false: campaign choices are final.")
    can_confirm = serializers.BooleanField(help_text="Always false: campaign choices are final.")


class CampaignEventSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="The event's position in the campaign's log (from 1).")
    seat = serializers.IntegerField(allow_null=True, help_text="The seat whose choice it records.")
    kind = serializers.CharField()
    v = serializers.IntegerField(help_text="The version of the kind's schema.")
    data = serializers.JSONField()  # type: ignore[assignment]
    created_at = TimeField()


class CampaignEventsPageSerializer(serializers.Serializer):
    events = CampaignEventSerializer(many=True)
    next = serializers.IntegerField(
        allow_null=True, help_text="`after` for the next page; null at the end of the log."
    )
    version = serializers.IntegerField()


class CampaignCommandResultSerializer(serializers.Serializer):
    events = CampaignEventSerializer(many=True, help_text="The events this choice appended.")
    decision = CampaignDecisionSerializer(help_text="The caller's next decision.")
    status = serializers.ChoiceField(choices=["lobby", "playing", "between", "finished"])
    version = serializers.IntegerField()
