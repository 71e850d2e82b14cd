"""``engine.reenact``: a log from outside is accepted only when every event in it is what the
engine appends at that point: the opening it deals, then runs of events each caused by one
command of a seat, then the result it scores."""

import copy
import random
from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.engine import Event
from games.rules.play import bots
from tests.rules.playing import move, options, send, start_game


def finished_log(adventure: int, players: int = 3, seed: int = 1) -> list[Event]:
    rng = random.Random(f"audit/{adventure}/{seed}")
    state, events = bots.play_game(
        adventure=adventure, bots=[bots.random_bot(rng) for _ in range(players)], seed=seed
    )
    return [*events, engine.result_event(state)]


def refusal(log: list[Event]) -> engine.LogRefused:
    with pytest.raises(engine.LogRefused) as caught:
        engine.reenact(log)
    return caught.value


def first(log: list[Event], kind: str, nth: int = 0) -> int:
    return [index for index, event in enumerate(log) if event["kind"] == kind][nth]


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_a_log_the_engine_appended_is_reenacted_to_its_replay(adventure: int) -> None:
    log = finished_log(adventure)
    state = engine.reenact(log)
    assert state == engine.replay(log)
    assert state.status == "finished" and state.result == log[-1]["data"]


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_a_solo_battle_is_reenacted_with_the_players_choices_for_astra(kind: str) -> None:
    """In a solo Battle the player's choice of the planet ASTRA's card goes to (and of the moons
    of its effect) is recorded as ASTRA's events, of no seat: each is what that choice causes."""
    for seed in range(3):
        rng = random.Random(f"audit/solo/{kind}/{seed}")
        state, events = bots.play_game(adventure=8, bots=[bots.KINDS[kind](rng)], seed=seed, astra_level=4)
        log = [*events, engine.result_event(state)]
        assert engine.reenact(log) == engine.replay(log)
    chosen = first(log, "astra_played", 1)
    log = copy.deepcopy(log)
    log[chosen]["data"] = {**log[chosen]["data"], "space": "pl7.s3"}
    assert refusal(log).index == chosen


def test_undone_moves_are_what_an_undo_causes() -> None:
    state = start_game(1, 2, seed=5)
    log = engine.new_game(adventure=1, players=2, seed=5)
    log += move(state, 0, options(state, 0)[0])
    log += send(state, 0, {"type": "undo"})
    log += move(state, 0, options(state, 0)[-1])
    while state.status == "playing":
        for seat in range(2):
            while engine.options(state, seat).kind != "wait":
                decision = engine.options(state, seat)
                command: dict[str, Any] = {"type": "confirm"}
                if decision.options:
                    command = {"type": "move", "choice": decision.options[0]}
                log += send(state, seat, command)
    log.append(engine.result_event(state))
    assert [event["kind"] for event in log[2:5]] == ["number_written", "undo", "number_written"]
    assert engine.reenact(log).result == log[-1]["data"]


def test_another_deck_is_refused_at_the_first_flip() -> None:
    log = copy.deepcopy(finished_log(1))
    log[0]["data"] = {**log[0]["data"], "seed": log[0]["data"]["seed"] + 1}
    caught = refusal(log)
    assert caught.index == 1
    assert "is not the opening of the game it names" in caught.detail


def test_a_forged_write_is_refused_where_it_stands() -> None:
    log = copy.deepcopy(finished_log(2))
    index = first(log, "number_written", 4)
    log[index]["data"] = {**log[index]["data"], "number": (log[index]["data"]["number"] + 1) % 18}
    caught = refusal(log)
    assert caught.index == index
    assert caught.detail.startswith("the number_written event of turn")


def test_events_of_one_command_out_of_order_are_refused() -> None:
    log = copy.deepcopy(finished_log(1))
    index = next(i for i, e in enumerate(log) if e["kind"] == "mark" and log[i + 1]["kind"] == "mark"
                 and log[i]["data"] != log[i + 1]["data"])
    log[index], log[index + 1] = log[index + 1], log[index]
    assert refusal(log).index <= index + 1


def test_a_log_must_open_end_and_stop_with_the_game() -> None:
    log = finished_log(3)
    assert refusal(log[1:]).detail == "a game's log begins with its game_started event."
    cut = refusal(log[:-1])
    assert (cut.index, cut.detail) == (len(log) - 2, "the log ends before the game's result.")
    extra = refusal([*log, log[-1]])
    assert (extra.index, extra.detail) == (len(log), "nothing follows a game's result.")


def test_a_result_that_is_not_the_engines_is_refused() -> None:
    log = copy.deepcopy(finished_log(5))
    log[-1]["data"] = {**log[-1]["data"], "winners": [9]}
    caught = refusal(log)
    assert caught.index == len(log) - 1 and caught.detail.startswith("the result differs from the replay")


def test_an_event_of_no_seat_cannot_begin_a_command() -> None:
    log = copy.deepcopy(finished_log(4))
    index = first(log, "confirmed", 2)
    log[index]["seat"] = None
    caught = refusal(log)
    assert caught.index == index and "cannot begin a player's command" in caught.detail
