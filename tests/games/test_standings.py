"""A finished game's standings as a campaign reads its stars from them (``standings_of``): in The
Battle a seat's missions are those written on side S of its left sheet, and its System Errors the
boxes of its own sides only, never those of the neighbour who shares a sheet with it
(adventure-8-battle.md §2.2, §2.4, §4.8, §7)."""

import pytest

from games.rules import engine
from games.rules.engine import LETTERS, GameState
from games.selectors import standings_of
from tests.rules.battle_helpers import LAYOUT, THE_BATTLE, battle, finished, game, set_sheet

MISSION_VALUE = 9


def missions_of(seat: int) -> list[str]:
    """The missions seat ``seat`` writes on its side S: none, A, A and B, all three, none..."""
    return list(LETTERS[: seat % 4])


def written(letters: list[str]) -> dict[str, int]:
    return {LAYOUT.mission_boxes[letter]: MISSION_VALUE for letter in letters}


def read(state: GameState) -> list[dict[str, object]]:
    standings = standings_of(state=state)
    assert standings is not None and state.result is not None
    assert standings["winners"] == list(state.result["winners"])
    assert [(s["seat"], s["total"], s["rank"]) for s in standings["scores"]] == [
        (s["seat"], s["total"], s["rank"]) for s in state.result["scores"]
    ]
    return [{"missions": s["missions"], "system_errors": s["system_errors"]} for s in standings["scores"]]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_battle_seat_has_the_missions_of_its_side_s_and_its_own_system_errors(players: int) -> None:
    state = game(players)
    for sheet in range(players):  # sheet k: seat k on side S, its left neighbour k+1 on side N
        left_neighbour = (sheet + 1) % players
        marks = battle(
            S={"error": sheet % 3}, N={"error": (left_neighbour + 1) % 2}, marks=written(missions_of(sheet))
        )
        set_sheet(state, sheet, marks)

    assert read(finished(state)) == [
        {"missions": missions_of(seat), "system_errors": seat % 3 + (seat + 1) % 2} for seat in range(players)
    ]


def test_the_player_against_astra_has_the_missions_of_sheet_l_and_its_errors_on_both_sheets() -> None:
    opening = engine.new_game(adventure=THE_BATTLE, players=1, seed=3, astra_level=4)
    state = engine.replay(opening)
    left, right = state.seats[0].sheets
    set_sheet(state, left, battle(S={"error": 1}, marks=written(["A", "C"])))
    set_sheet(state, right, battle(S={"error": 2}))

    assert read(finished(state)) == [{"missions": ["A", "C"], "system_errors": 3}]
