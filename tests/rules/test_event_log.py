"""The event log describes itself: every kind has a declared schema and a version, the opening
event carries the whole setup, older versions are upcast on read, and a command never changes
the state it was decided on."""

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.core import events
from games.rules.engine import Event
from games.rules.play import bots
from games.rules.turn import turn

RECORDED = sorted((Path(__file__).parent.parent / "fixtures" / "logs_v1").glob("*.json"))


def bot_game(adventure: int, players: int, seed: int) -> list[Event]:
    rng = random.Random(seed)
    make = [bots.random_bot, bots.greedy_bot]
    _, log = bots.play_game(
        adventure=adventure,
        bots=[make[(seed + seat) % 2](rng) for seat in range(players)],
        seed=seed,
    )
    return log


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_every_event_a_game_appends_fits_the_schema_of_its_kind(adventure: int) -> None:
    for players, seed in ((PLAYABLE[adventure].min_players, 1), (3, 2), (4, 3)):
        log = bot_game(adventure, players, seed)
        log.append(engine.result_event(engine.replay(log)))
        for event in log:
            assert engine.schema_problem(event) is None, event
        assert {event["kind"] for event in log} >= {"game_started", "turn_started", "confirmed"}


def test_every_kind_has_a_version_and_a_schema() -> None:
    for name, kind in events.KINDS.items():
        assert kind.name == name
        assert kind.version >= 1
        assert kind.schema.__annotations__ or name in ("undo", "confirmed")


@pytest.mark.parametrize(
    ("event", "problem"),
    [
        ({"kind": "teleport", "v": 1, "seat": 0, "turn": 1, "data": {}}, "unknown event kind"),
        ({"kind": "mark", "v": 1, "seat": 0, "turn": 1, "data": {}}, "version 2"),
        ({"kind": "mark", "v": 2, "seat": 0, "turn": 1, "data": {"element": "f1.s1", "mark": "X"}},
         "lacks ['sheet']"),
        ({"kind": "mark", "v": 2, "seat": 0, "turn": 1,
          "data": {"sheet": 0, "element": "f1.s1", "mark": "X", "colour": "red"}}, "unknown fields"),
        ({"kind": "mark", "v": 2, "seat": 0, "turn": 1,
          "data": {"sheet": "0", "element": "f1.s1", "mark": "X"}}, "mark.sheet"),
        ({"kind": "number_written", "v": 2, "seat": 0, "turn": 1,
          "data": {"sheet": 0, "combination": 0, "space": "f1.s1", "number": True}}, "whole number"),
    ],
)
def test_an_event_off_its_schema_is_named_with_what_is_wrong(event: Any, problem: str) -> None:
    found = engine.schema_problem(event)
    assert found is not None and problem in found


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_log_of_version_1_reads_as_the_current_versions(path: Path) -> None:
    recorded = json.loads(path.read_text(encoding="utf-8"))
    stored = recorded["events"]
    assert all("v" not in event for event in stored)

    upcast = [engine.upcast(event) for event in stored]

    for event in upcast:
        assert engine.schema_problem(event) is None, event
    opening = upcast[0]["data"]
    today = engine.new_game(
        adventure=recorded["adventure"],
        players=recorded["players"],
        seed=recorded["seed"],
        missions=stored[0]["data"]["missions"],
        modifiers={int(seat): mods for seat, mods in recorded["modifiers"].items()},
    )[0]["data"]
    assert opening == today
    marks = [event for event in upcast if event["kind"] == "mark"]
    assert all(event["data"]["sheet"] == event["seat"] for event in marks)


def test_a_system_error_of_version_2_reads_as_version_3_unchanged() -> None:
    """Version 3 only lets ``box`` be None (no box left to mark): a stored v2 reads as it was."""
    stored: Event = {"kind": "system_error", "v": 2, "seat": 1, "turn": 4,
              "data": {"sheet": 1, "box": "error.2", "cause": "no_writable_number"}}
    read = engine.upcast(stored)
    assert read == {**stored, "v": 3}
    assert engine.schema_problem(read) is None


def test_a_setup_of_version_2_reads_as_version_3_unchanged() -> None:
    """Version 3 only lets a shared sheet's side be owned by ASTRA: a stored v2 reads as it was."""
    opening = engine.new_game(adventure=8, players=3, seed=4)[0]
    stored: Event = {**opening, "v": 2}
    read = engine.upcast(stored)
    assert read == {**opening, "v": 3}
    assert engine.schema_problem(read) is None


def test_a_current_event_is_read_as_it_is() -> None:
    opening = engine.new_game(adventure=1, players=2, seed=5)
    assert all(engine.upcast(event) is event for event in opening)


def test_replay_takes_the_setup_from_the_opening_event_not_from_the_data_files() -> None:
    opening, flip = engine.new_game(adventure=3, players=2, seed=5)
    setup = opening["data"]["sheets"][1]
    setup["error_boxes"] = setup["error_boxes"][:1]
    setup["marks"] = {"bld.r2c2": "X"}
    setup["bonus_points"] = 11

    state = engine.replay([opening, flip])

    assert state.sheets[1].error_boxes == tuple(setup["error_boxes"])
    assert state.sheets[1].marks == {"bld.r2c2": "X"}
    assert engine.sheet_view(state, 1, viewer=1)["score"]["campaign"] == 11
    assert state.sheets[0].error_boxes == tuple(opening["data"]["sheets"][0]["error_boxes"])


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_deciding_a_command_leaves_the_state_it_was_decided_on_unchanged(adventure: int) -> None:
    rng = random.Random(adventure)
    players = [bots.random_bot(rng) for _ in range(3)]
    state = engine.replay(engine.new_game(adventure=adventure, players=3, seed=adventure))
    while state.status == "playing" and state.turn <= 12:
        for seat, bot in enumerate(players):
            while engine.options(state, seat).kind != "wait":
                before = state.copy()
                command = bot(state, seat)
                new = engine.decide(state, seat, command)
                assert state == before
                for event in new:
                    engine.evolve(state, event)


def test_the_rules_engine_state_lists_sheets_apart_from_seats() -> None:
    state = engine.replay(engine.new_game(adventure=2, players=3, seed=2))
    view = engine.game_view(state, viewer=0)
    assert view["sheets"] == [{"sheet": n, "seats": [n]} for n in range(3)]
    assert [seat["sheet"] for seat in view["seats"]] == [0, 1, 2]
    assert state.astra is None
    sheet = engine.sheet_view(state, 2, viewer=0)
    assert (sheet["sheet"], sheet["seats"], sheet["seat"]) == (2, [2], 2)


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_options_of_the_same_score_effect_leave_the_same_score(adventure: int) -> None:
    """The greedy bot scores one option per ``score_effect``: options of a decision with the
    same effect must score the same."""
    rules = PLAYABLE[adventure]
    log = bot_game(adventure, 3, adventure)
    for cut in range(2, len(log), max(1, len(log) // 40)):
        state = engine.replay(log[:cut])
        for seat in range(state.players):
            totals: dict[Any, int] = {}
            for option in engine.options(state, seat).options:
                effect = rules.score_effect(state, seat, option)
                if effect is None:
                    continue
                _, after = turn.advance(state, seat, {"type": "move", "choice": option})
                total = rules.seat_score(after, seat)["total"]
                assert totals.setdefault(effect, total) == total, (option, effect)
