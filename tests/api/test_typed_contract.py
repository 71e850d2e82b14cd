"""The typed contract holds for what games really produce: every option a bot game of each
adventure lists (multiplayer and solo against ASTRA) and every event it records, every option and
event of the recorded campaigns, validates against its branch of the served schema (picked by
its discriminator, `action` or `kind`), and every branch is produced by some game (a step's
use is one branch whatever the step: some steps are rarely offered, a bot game may not reach
them)."""

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from rest_framework.test import APIClient

from api.campaign_serializers import CampaignOptionsField
from campaigns import library, simulation
from campaigns.rules import decider, packs
from campaigns.rules.events import evolve as campaign_evolve
from campaigns.rules.events import upcast as campaign_upcast
from campaigns.rules.state import CampaignState
from games.rules import engine
from games.rules.engine import GameState, bots
from tests.api.openapi_check import _strict as strict

RECORDED = Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1"
CREATED_AT = datetime(2026, 1, 1, tzinfo=UTC).isoformat()


class Branches:
    """The schema's unions, each value of their discriminator validated against its branch."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.components = strict(schema["components"])
        self.seen: dict[str, set[str]] = {}
        self._validators: dict[str, jsonschema.Draft7Validator] = {}

    def mapping(self, union: str) -> dict[str, str]:
        mapping: dict[str, str] = self.components["schemas"][union]["discriminator"]["mapping"]
        return mapping

    def check(self, union: str, key: str, value: dict[str, Any]) -> None:
        ref = self.mapping(union).get(value[key])
        assert ref is not None, f"{union} has no branch for {key} {value[key]!r}"
        errors = [error.message for error in self._validator(ref).iter_errors(value)]
        assert not errors, f"{union} {value}: {errors[:3]}"
        union_validator = jsonschema.Draft7Validator(
            {"$ref": f"#/components/schemas/{union}", "components": self.components}
        )
        # the union too: exactly one branch fits (oneOf), so a client can read it by shape alone
        if ref not in self.seen.get(union, set()):
            union_validator.validate(value)
        self.seen.setdefault(union, set()).add(ref)

    def check_shape(self, union: str, value: dict[str, Any]) -> None:
        """``value`` fits exactly one branch of ``union`` (a ``oneOf`` of closed shapes with no
        discriminator), noted as seen."""
        branches = [branch["$ref"] for branch in self.components["schemas"][union]["oneOf"]]
        fits = [ref for ref in branches if self._validator(ref).is_valid(value)]
        assert len(fits) == 1, f"{union} {value}: fits {fits or 'no branch'}"
        self.seen.setdefault(union, set()).add(fits[0])

    def _validator(self, ref: str) -> jsonschema.Draft7Validator:
        validator = self._validators.get(ref)
        if validator is None:
            validator = jsonschema.Draft7Validator({"$ref": ref, "components": self.components})
            self._validators[ref] = validator
        return validator

    def unseen(self, union: str) -> set[str]:
        """The branches of ``union`` no value checked so far was of."""
        schema = self.components["schemas"][union]
        branches = {branch["$ref"] for branch in schema["oneOf"]}
        return branches - self.seen.get(union, set())


@pytest.fixture(scope="module")
def branches(django_db_blocker: Any) -> Branches:
    with django_db_blocker.unblock():
        schema = APIClient().get("/api/v1/schema", {"format": "json"}).json()
    return Branches(schema)


class Recording:
    """Wraps a bot: the options it is offered are kept, by shape (one option of each key set),
    and it takes its first move back once (an undo)."""

    def __init__(self, bot: bots.Bot, shapes: dict[tuple[str, ...], Any]) -> None:
        self.bot, self.shapes, self.undone = bot, shapes, False

    def __call__(self, state: GameState, seat: int) -> Any:
        decision = engine.options(state, seat)
        if decision.can_undo and not self.undone:
            self.undone = True
            return {"type": "undo"}
        for option in decision.options:
            self.shapes.setdefault((option["action"], *sorted(option)), dict(option))
        return self.bot(state, seat)


# (adventure, players, ASTRA's level): every adventure in company, and alone against ASTRA
GAMES = [(adventure, 2, None) for adventure in sorted(engine.PLAYABLE)] + [
    (adventure, 1, level) for adventure, level in ((1, 8), (2, 1), (6, 8), (8, 5))
]


Played = tuple[GameState, list[engine.Event], dict[tuple[str, ...], Any]]


@pytest.fixture(scope="module")
def games() -> list[Played]:
    return list(_games())


def _games() -> Iterator[Played]:
    for adventure, players, level in GAMES:
        rng = random.Random(f"contract/{adventure}/{players}")
        shapes: dict[tuple[str, ...], Any] = {}
        seated: list[bots.Bot] = [Recording(bots.random_bot(rng), shapes) for _ in range(players)]
        state, events = bots.play_game(
            adventure=adventure, bots=seated, seed=adventure * 10 + players, astra_level=level
        )
        yield state, [*events, engine.result_event(state)], shapes


def _api_event(seq: int, event: dict[str, Any]) -> dict[str, Any]:
    """An event as the feed sends it (a game's has its turn, a campaign's none)."""
    turn = {"turn": event["turn"]} if "turn" in event else {}
    return {
        "seq": seq, **turn, "seat": event["seat"], "kind": event["kind"], "v": event["v"],
        "data": event["data"], "created_at": CREATED_AT,
    }  # fmt: skip


def test_every_option_and_event_of_bot_games_fits_its_branch_and_every_branch_is_played(
    branches: Branches, games: list[Played]
) -> None:
    for state, events, shapes in games:
        for option in shapes.values():
            branches.check("Option", "action", option)
        for seq, event in enumerate(events, start=1):
            readable = engine.redact(engine.upcast(event), state, viewer=0)
            assert readable is not None  # the game is over: every event is readable
            branches.check("Event", "kind", _api_event(seq, dict(readable)))
    # a seat whose deadlines passed three times in a row, then handed to a bot
    state = engine.replay(engine.new_game(adventure=1, players=2, seed=5))
    absent, _ = engine.autopilot(state, 1, in_a_row=engine.TIMEOUTS_TO_RESIGN)
    for seq, event in enumerate(absent, start=1):
        if event["kind"] in {"autopilot", "seat_resigned"}:
            branches.check("Event", "kind", _api_event(seq, dict(engine.upcast(event))))
    for union in ("Option", "Event"):
        assert not branches.unseen(union), union


def test_every_score_and_sheet_of_bot_games_fits_its_adventure_shape_and_every_shape_is_given(
    branches: Branches, games: list[Played]
) -> None:
    """The final scores (and ASTRA's) and every sheet's score and drawing, at the end of each
    game and half way through it, fit one shape of their union; every shape is given."""
    for state, events, _ in games:
        result = engine.result_event(state)["data"]
        for score in result["scores"]:
            branches.check_shape("ScoreBreakdown", score["breakdown"])
        if "astra" in result:
            branches.check_shape("AstraBreakdown", dict(result["astra"]["breakdown"]))
        for moment in (engine.replay(events[: len(events) // 2]), state):
            for sheet in range(len(moment.sheets)):
                view = engine.sheet_view(moment, sheet, viewer=0)
                branches.check_shape("SheetScore", view["score"])
                branches.check_shape("SheetDerived", view["derived"])
    for union in ("ScoreBreakdown", "AstraBreakdown", "SheetScore", "SheetDerived"):
        assert not branches.unseen(union), union


def _campaign_shapes(events: list[Any], pack: packs.Pack) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Each campaign event of a log as the feed shows it, and every option offered on the way."""
    state = CampaignState()
    for seq, event in enumerate(events, start=1):
        campaign_evolve(state, event)
        yield "CampaignEvent", "kind", _api_event(seq, dict(campaign_upcast(event)))
        for seat in range(state.max_players or 0):
            for option in decider.options(state, pack, seat).options:
                # as the API shows it: its text written out (a card's effects are Texts)
                (shown,) = CampaignOptionsField().to_representation([dict(option)])
                yield "CampaignOption", "action", shown


def _recorded_campaign(path: Path) -> Iterator[tuple[str, str, dict[str, Any]]]:
    recorded = json.loads(path.read_text(encoding="utf-8"))
    # the pack as version 1 campaigns checked it (these campaigns play version 1)
    pack = packs.parse(packs.read(RECORDED / "pack-open-1.json"), rules_version=1)
    yield from _campaign_shapes(recorded["events"], pack)
    for game in recorded["games"].values():
        replayed = engine.replay(game["events"])
        for seq, event in enumerate(game["events"], start=1):
            readable = engine.redact(engine.upcast(event), replayed, viewer=0)
            assert readable is not None
            yield "Event", "kind", _api_event(seq, dict(readable))


def _version_2_campaigns() -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Campaigns of the current rules played by bots: two seats, and solo against ASTRA."""
    pack = library.get(library.DEFAULT_PACK)
    for players, level in ((2, None), (1, 4)):
        log: list[Any] = []
        simulation.play_campaign(pack=pack, players=players, bot="random", seed=3, astra_level=level, log=log)
        yield from _campaign_shapes(log, pack)


def test_every_option_and_event_of_recorded_and_version_2_campaigns_fits_its_branch(
    branches: Branches,
) -> None:
    for path in sorted(RECORDED.glob("campaign-*.json")):
        for union, key, value in _recorded_campaign(path):
            branches.check(union, key, value)
    for union, key, value in _version_2_campaigns():
        branches.check(union, key, value)
    for union in ("CampaignOption", "CampaignEvent"):
        assert not branches.unseen(union), union


def test_the_schemas_examples_are_real_answers_that_fit_their_own_schemas(branches: Branches) -> None:
    """The examples a reader of the schema sees are what a game answered: a decision, its first
    option, the event it records and a refusal, each valid against its component."""
    schemas = branches.components["schemas"]
    for name in ("Decision", "Option", "Event", "Error"):
        validator = jsonschema.Draft7Validator(
            {"$ref": f"#/components/schemas/{name}", "components": branches.components}
        )
        errors = [error.message for error in validator.iter_errors(schemas[name]["example"])]
        assert not errors, f"{name}'s example: {errors[:3]}"
    decision, option, event = (schemas[name]["example"] for name in ("Decision", "Option", "Event"))
    assert option == decision["options"][0]
    assert event["kind"] == "number_written" and event["data"]["space"] == option["space"]
    assert schemas["Error"]["example"]["code"] in schemas["ErrorCodeEnum"]["enum"]


def _inline_shapes(node: Any, path: str) -> Iterator[str]:
    """Where an object shape is written inside another schema instead of referred to."""
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from _inline_shapes(item, f"{path}/{index}")
    elif isinstance(node, dict):
        if "properties" in node and "/" in path:
            yield path
        for key, value in node.items():
            if key != "properties" or not isinstance(value, dict):
                yield from _inline_shapes(value, f"{path}/{key}")
            else:  # the keys of `properties` are field names, not keywords
                for field, schema in value.items():
                    yield from _inline_shapes(schema, f"{path}/properties/{field}")


def test_every_shape_nested_in_another_is_a_component_named_as_the_engine_names_it(
    branches: Branches,
) -> None:
    """No object shape is written inline in another (a client's generator would name its model
    after the place it was found): a Journey zone, a Battle panel, an event's data are the
    components of their TypedDicts' names, where they are used; a name two schemas would share
    takes its engine's prefix on both sides."""
    schemas = branches.components["schemas"]
    assert [path for name, schema in schemas.items() for path in _inline_shapes(schema, name)] == []
    zones = schemas["JourneyDerived"]["properties"]["zones"]["items"]
    assert zones == {"$ref": "#/components/schemas/JourneyZone"}
    panels = schemas["BattleDerived"]["properties"]["panels"]
    assert panels == {"$ref": "#/components/schemas/BattlePanels"}
    assert schemas["BattlePanels"]["properties"]["S"] == {"$ref": "#/components/schemas/BattlePanel"}
    started = schemas["GameStartedEvent"]["properties"]["data"]
    assert started == {"$ref": "#/components/schemas/GameStarted"}
    assert "seed" not in schemas["GameStarted"]["properties"]  # hidden from every reader
    # the game's and a campaign's AstraResult are two shapes, and the API's own Result is a third
    game_astra = schemas["GameResult"]["properties"]["astra"]
    assert game_astra == {"$ref": "#/components/schemas/GameAstraResult"}
    assert {"AstraResult", "GameAstraResult", "CampaignAstraResult"} <= set(schemas)
