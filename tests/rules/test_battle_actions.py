"""The Battle rule by rule: the pick and each action legal and refused with its code, the space
and asteroid bonuses, stored astronaut symbols, planet control and its ties, what a neighbour's
play changes on the other side, missions on both sheets, the end of the game, scores and
tie-breaks, setup modifiers, the view of a shared sheet, the solo game refused, and what the
greedy bot weighs."""

import random
from typing import Any

import pytest

from games.rules import engine
from games.rules.play import bots
from tests.rules import playing
from tests.rules.battle_helpers import (
    LAYOUT,
    RULES,
    THE_BATTLE,
    battle,
    draw,
    ended,
    game,
    marks_of,
    refused,
    refused_use,
    reveal,
    set_sheet,
    side_score,
    start_turn,
    total,
    use,
)
from tests.rules.playing import confirm, options, skip, system_error

ALICE, BOB, CAROL = 0, 1, 2
FULL = {planet: "N" * len(LAYOUT.planets[planet].spaces) for planet in LAYOUT.planets}


def full_but(*planets: str) -> dict[str, str]:
    """Every planet filled (by side N) but those named."""
    return {planet: owners for planet, owners in FULL.items() if planet not in planets}


def play_along(state: engine.GameState, seat: int) -> list[engine.Event]:
    """A seat plays its first option at every decision of its turn, then confirms (claiming
    what phase 6 offers)."""
    played = []
    while options(state, seat):
        played += playing.move(state, seat, options(state, seat)[0])
    return played + confirm(state, seat)


def after_draw(sheet: dict[str, Any], *cards: tuple[int, str], planet: str, seat: int = ALICE,
               turn: int = 1, **extra: Any) -> engine.GameState:  # fmt: skip
    """A 2-player game at ``turn`` with the sheet the seat plays given, the cards revealed
    (three by default) and the seat's insignia drawn on ``planet`` with the first."""
    state = game()
    if turn != 1:
        start_turn(state, turn)
    set_sheet(state, state.seats[seat].sheet, sheet)
    reveal(state, *(*cards, (12, "energy"), (8, "plant"), (3, "water"))[:3])
    draw(state, seat, 0, planet, **extra)
    return state


# --- the pick -----------------------------------------------------------------------------------


def test_each_seat_draws_its_own_insignia_on_the_sheet_of_the_turn() -> None:
    state = game(3)
    reveal(state, (7, "plant"), (12, "energy"), (3, "astronaut"))
    for seat in (ALICE, BOB, CAROL):
        draw(state, seat, 0, "pl3")
        assert marks_of(state, seat)["pl3.s1"] == "S"  # turn 1: each on its left sheet
        play_along(state, seat)
    assert state.turn == 2
    reveal(state, (7, "plant"), (12, "energy"), (3, "astronaut"))
    draw(state, ALICE, 0, "pl3")
    assert marks_of(state, 2)["pl3.s2"] == "N"  # turn 2: alice on her right sheet, after Carol


@pytest.mark.parametrize(
    ("choice", "code"),
    [
        ({"combination": 3, "planet": "pl4"}, "unknown_combination"),
        ({"combination": 0, "planet": "pl8"}, "unknown_planet"),
        ({"combination": 0, "planet": "pl1"}, "planet_full"),
        ({"combination": 0, "planet": "pl4", "space": "pl4.s2"}, "space_not_next"),
        ({"combination": 0, "planet": "pl5", "number": 7}, "number_not_on_planet"),
        ({"combination": 0, "planet": "pl4", "number": True}, "invalid_choice"),
        ({"combination": 0, "planet": "pl6"}, "planet_out_of_reach"),
        ({"combination": 1, "planet": "pl5", "number": 9}, "number_out_of_reach"),
        ({"combination": 0, "planet": "pl4", "sheet": 1}, "sheet_not_played_this_turn"),
    ],
)
def test_a_draw_is_refused_with_the_rule_it_breaks(choice: dict[str, Any], code: str) -> None:
    """Cards (7, plant) and (15, astronaut); one circled symbol; pl1 full."""
    state = game(sheets={0: battle({"pl1": "SSS"}, S={"circled": 1})})
    reveal(state, (7, "plant"), (15, "astronaut"), (3, "water"))
    assert refused(state, ALICE, action="draw", **choice) == code
    assert refused(state, ALICE, action="write", combination=0, space="pl4.s1", number=7) == "illegal_choice"


def test_an_astronaut_may_bring_a_one_down_to_zero_on_pl1_but_never_below() -> None:
    state = game()
    reveal(state, (1, "astronaut"), (12, "energy"), (8, "plant"))
    assert refused(state, ALICE, action="draw", combination=0, planet="pl1", number=-1) == (
        "number_not_on_planet"
    )
    draw(state, ALICE, 0, "pl1", number=0)
    assert (marks_of(state, 0)["pl1.s1"], marks_of(state, 0)["S.astro.a1"]) == ("S", "circle")


def test_a_stored_symbol_is_spent_only_as_far_as_the_planet_needs() -> None:
    """(15, astronaut) with two circled symbols: pl6 takes the action alone, pl5 one symbol,
    pl4 both; pl5 with 9 would need the second, so 9 is out of reach there."""
    sheet = battle(S={"circled": 2})
    for planet, spent in (("pl6", 0), ("pl5", 1), ("pl4", 2)):
        state = after_draw(sheet, (15, "astronaut"), planet=planet)
        symbols = [marks_of(state, 0).get(symbol) for symbol in LAYOUT.astronauts["S"]]
        # the action was used by changing the number: the next blank symbol circled at once
        assert symbols[:3] == ["cross"] * spent + ["circle"] * (3 - spent), planet
        assert all(frame != ["action.astronaut"] for frame in state.seats[ALICE].pending)


def test_an_astronaut_pick_of_the_cards_own_number_leaves_the_action_as_a_step() -> None:
    state = after_draw(battle(), (10, "astronaut"), planet="pl5")
    assert options(state, ALICE) == [{"action": "astronaut", "effect": "action.astronaut"},
                                     skip("action.astronaut")]  # fmt: skip
    use(state, ALICE, "action.astronaut")
    assert marks_of(state, 0)["S.astro.a1"] == "circle"
    skipped = after_draw(battle(), (10, "astronaut"), planet="pl5")
    playing.move(skipped, ALICE, skip("action.astronaut"))
    assert "S.astro.a1" not in marks_of(skipped, 0)


def test_with_every_symbol_used_the_astronaut_still_modifies() -> None:
    state = after_draw(battle(S={"spent": 6}), (8, "astronaut"), planet="pl5", number=10)
    assert marks_of(state, 0)["pl5.s1"] == "S"
    assert engine.options(state, ALICE).kind == "confirm"


def test_the_other_sides_symbols_never_serve() -> None:
    state = game(sheets={0: battle(N={"circled": 3})})
    reveal(state, (15, "plant"), (15, "energy"), (15, "water"))
    assert {o["planet"] for o in options(state, ALICE)} == {"pl7"}


def test_undo_gives_back_the_symbols_spent_and_the_space() -> None:
    state = after_draw(battle(S={"circled": 1}), (15, "plant"), planet="pl6")
    assert marks_of(state, 0)["S.astro.a1"] == "cross"
    playing.undo(state, ALICE)
    assert marks_of(state, 0)["S.astro.a1"] == "circle" and "pl6.s1" not in marks_of(state, 0)


# --- System Errors -------------------------------------------------------------------------------


def test_a_system_error_only_when_no_planet_can_be_reached() -> None:
    state = game(sheets={0: battle(full_but("pl4"))})
    reveal(state, (1, "plant"), (15, "energy"), (3, "water"))
    assert options(state, ALICE) == [system_error("S.error.e1")]
    assert refused(state, ALICE, **system_error("S.error.e2")) == "error_box_not_next"
    playing.move(state, ALICE, system_error("S.error.e1"))
    assert marks_of(state, 0)["S.error.e1"] == "circle" and "N.error.e1" not in marks_of(state, 0)
    reachable = game(sheets={0: battle(full_but("pl4"))})
    reveal(reachable, (9, "plant"), (15, "energy"), (3, "water"))
    assert refused(reachable, ALICE, **system_error("S.error.e1")) == "insignia_must_be_drawn"


def test_one_error_on_each_side_does_not_end_the_game_both_on_one_do() -> None:
    state = game(sheets={0: battle(S={"error": 1}), 1: battle(N={"error": 1})})
    assert RULES.end_reasons(state) == []
    set_sheet(state, 0, battle(S={"error": 2}))
    assert RULES.end_reasons(state) == [{"reason": "all_system_errors", "seats": [ALICE]}]


# --- the actions -------------------------------------------------------------------------------


def test_plant_crosses_a_symbol_of_the_planet_and_the_next_box() -> None:
    state = after_draw(battle(), (7, "plant"), planet="pl4")
    playing.move(state, ALICE, skip("bonus.plant"))  # pl4.s1 shows a plant bonus
    assert refused_use(state, ALICE, "action.plant", symbol="pl3.plant1") == "plant_symbol_not_on_planet"
    use(state, ALICE, "action.plant", symbol="pl4.plant2")  # either of the planet's two
    assert {marks_of(state, 0)[e] for e in ("pl4.plant2", "S.plant.b01")} == {"cross"}
    crossed = after_draw(battle(marks={"pl4.plant1": "cross"}), (7, "plant"), planet="pl4")
    playing.move(crossed, ALICE, skip("bonus.plant"))
    assert refused_use(crossed, ALICE, "action.plant", symbol="pl4.plant1") == "plant_symbol_crossed"


def test_plant_with_a_full_track_still_crosses_the_symbol_and_none_left_does_nothing() -> None:
    state = after_draw(battle(S={"plant": 11}), (6, "plant"), planet="pl3")
    use(state, ALICE, "action.plant")
    assert marks_of(state, 0)["pl3.plant1"] == "cross"
    assert side_score(state, 0, "S")["plants"] == 40
    none_left = after_draw(battle(marks={"pl1.plant1": "cross"}), (1, "plant"), planet="pl1")
    assert engine.options(none_left, ALICE).kind == "confirm"


def test_water_crosses_the_planets_water_symbol_and_the_next_box() -> None:
    state = after_draw(battle(), (6, "water"), planet="pl3")
    assert options(state, ALICE) == [{"action": "water", "effect": "action.water", "symbol": "pl3.water1"},
                                     skip("action.water")]  # fmt: skip
    use(state, ALICE, "action.water")
    assert {marks_of(state, 0)[e] for e in ("pl3.water1", "S.water.b1")} == {"cross"}
    assert side_score(state, 0, "S")["water"] == 3


def test_robot_claims_from_the_sides_own_end_and_applies_the_asteroids_bonuses() -> None:
    state = after_draw(battle(asteroids={"S": 1, "N": 3}), (6, "robot"), planet="pl3")
    assert options(state, ALICE)[0] == {"action": "robot", "effect": "action.robot", "asteroid": "ast02"}
    use(state, ALICE, "action.robot")
    assert (marks_of(state, 0)["ast02"], marks_of(state, 0)["S.plant.b01"]) == ("S", "cross")
    north = after_draw(battle(asteroids={"S": 1, "N": 3}), (6, "robot"), planet="pl3", seat=BOB, turn=2)
    use(north, BOB, "action.robot")  # Bob plays sheet 0 on side N in turn 2: ast10 down
    assert (marks_of(north, 0)["ast10"], marks_of(north, 0)["N.plant.b01"]) == ("N", "cross")
    unknown = after_draw(battle(), (6, "robot"), planet="pl3")
    assert refused_use(unknown, ALICE, "action.robot", asteroid="ast14") == "unknown_asteroid"


def test_an_asteroids_energy_applies_at_once_and_cannot_be_skipped() -> None:
    state = after_draw(battle(asteroids={"S": 4}), (6, "robot"), planet="pl3")
    use(state, ALICE, "action.robot")  # ast05: water at once, then its energy
    assert marks_of(state, 0)["S.water.b1"] == "cross"
    assert [o["column"] for o in options(state, ALICE)] == ["green", "blue", "grey"]
    assert refused(state, ALICE, **skip("ast05.energy")) == "effect_not_optional"
    use(state, ALICE, "ast05.energy", column="blue")
    assert marks_of(state, 0)["S.blue.b1"] == "cross"


def test_with_every_asteroid_claimed_robot_does_nothing() -> None:
    state = after_draw(battle(asteroids={"S": 6, "N": 7}), (6, "robot"), planet="pl3")
    assert engine.options(state, ALICE).kind == "confirm"


def test_energy_crosses_the_next_box_of_a_column_not_full() -> None:
    state = after_draw(battle(S={"grey": 4}), (6, "energy"), planet="pl3")
    assert [o["column"] for o in options(state, ALICE) if "column" in o] == ["green", "blue"]
    assert refused_use(state, ALICE, "action.energy", column="grey") == "column_full"
    assert refused_use(state, ALICE, "action.energy", column="red") == "unknown_column"
    use(state, ALICE, "action.energy", column="green")
    assert side_score(state, 0, "S")["multipliers"] == {"green": 3, "blue": 2, "grey": 12}


def test_energy_with_every_column_full_does_nothing_and_an_asteroids_energy_is_lost() -> None:
    full = {"green": 4, "blue": 4, "grey": 4}
    state = after_draw(battle(S=full), (6, "energy"), planet="pl3")
    assert engine.options(state, ALICE).kind == "confirm"
    claimed = after_draw(battle(S=full, asteroids={"S": 4}), (6, "robot"), planet="pl3")
    use(claimed, ALICE, "action.robot")  # ast05: its water crossed, its energy lost
    marks = marks_of(claimed, 0)
    assert (marks["ast05"], marks["ast05.energy"], marks["S.water.b1"]) == ("S", "cross", "cross")
    assert engine.options(claimed, ALICE).kind == "confirm"


def test_planning_draws_on_a_moon_of_an_incomplete_planet_and_costs_a_box() -> None:
    sheet = battle({"pl1": "NNN"}, {"pl3": "N"}, flags={"pl1": "N"})
    state = after_draw(sheet, (6, "planning"), planet="pl3")
    moons = [o["moon"] for o in options(state, ALICE) if "moon" in o]
    assert moons == ["pl2.moon1", "pl3.moon2", "pl4.moon1", "pl5.moon1", "pl6.moon1", "pl7.moon1"]
    assert refused_use(state, ALICE, "action.planning", moon="pl1.moon1") == "planet_complete"
    assert refused_use(state, ALICE, "action.planning", moon="pl3.moon1") == "moon_space_taken"
    assert refused_use(state, ALICE, "action.planning", moon="pl9.moon1") == "unknown_moon"
    use(state, ALICE, "action.planning", moon="pl5.moon2")  # any free space of the moon
    assert (marks_of(state, 0)["pl5.moon2"], marks_of(state, 0)["S.planning.b1"]) == ("S", "cross")
    assert side_score(state, 0, "S")["planning"] == -3


def test_planning_with_a_full_track_still_draws_on_the_moon() -> None:
    state = after_draw(battle(S={"planning": 7}), (6, "planning"), planet="pl3")
    use(state, ALICE, "action.planning", moon="pl4.moon1")
    assert marks_of(state, 0)["pl4.moon1"] == "S"
    assert side_score(state, 0, "S")["planning"] == -36


def test_the_planning_bonus_of_ast07_draws_on_moons_without_a_box() -> None:
    state = after_draw(battle(asteroids={"S": 6}), (6, "robot"), planet="pl3")
    use(state, ALICE, "action.robot")
    use(state, ALICE, "ast07.planning1", moon="pl1.moon1")
    use(state, ALICE, "ast07.planning2", moon="pl1.moon2")
    marks = marks_of(state, 0)
    assert (marks["pl1.moon1"], marks["pl1.moon2"]) == ("S", "S")
    assert "S.planning.b1" not in marks


def test_with_no_moon_space_open_planning_and_its_bonus_do_nothing() -> None:
    """Every moon full: the Planning action crosses no box, ast07's planning bonuses are lost."""
    moons = {planet: "NN" for planet in LAYOUT.planets}
    state = after_draw(battle(moons=moons), (6, "planning"), planet="pl3")
    assert engine.options(state, ALICE).kind == "confirm"
    claimed = after_draw(battle(moons=moons, asteroids={"S": 6}), (6, "robot"), planet="pl3")
    use(claimed, ALICE, "action.robot")
    assert engine.options(claimed, ALICE).kind == "confirm"
    marks = marks_of(claimed, 0)
    assert marks["ast07"] == "S" and "S.planning.b1" not in marks


def test_space_bonuses_cross_only_the_track_and_may_be_skipped() -> None:
    state = after_draw(battle({"pl3": "NN"}), (6, "energy"), planet="pl3")  # pl3.s3: robot
    assert options(state, ALICE)[0] == {"action": "bonus_robot", "effect": "bonus.robot", "asteroid": "ast01"}
    water = after_draw(battle({"pl3": "NNNN"}), (6, "energy"), planet="pl3")  # pl3.s5: water
    use(water, ALICE, "bonus.water")
    assert marks_of(water, 0)["S.water.b1"] == "cross" and "pl3.water1" not in marks_of(water, 0)
    skipped = after_draw(battle({"pl1": "NN"}), (1, "energy"), planet="pl1")  # pl1.s3: plant
    playing.move(skipped, ALICE, skip("bonus.plant"))
    assert "S.plant.b01" not in marks_of(skipped, 0)


# --- control -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spaces", "moon", "flag"),
    [("SSN", "", "S"), ("SNN", "", "N"), ("SNN", "S", "SN"), ("SSN", "NN", "N"), ("SNN", "SS", "S")],
)
def test_completing_a_planet_flags_the_majority_of_spaces_and_moon_both_when_tied(
    spaces: str, moon: str, flag: str
) -> None:
    """pl1 (three spaces): the last one drawn by Alice (S), the others as given."""
    sheet = battle({"pl1": spaces[:2]}, {"pl1": moon})
    draws_last = "S" if spaces[2] == "S" else "N"
    seat, turn = (ALICE, 1) if draws_last == "S" else (BOB, 2)
    state = after_draw(sheet, (1, "energy"), planet="pl1", seat=seat, turn=turn)
    marks = marks_of(state, 0)
    assert (marks["pl1.flag"], marks["pl1.done"]) == (flag, "circle")


def test_control_is_resolved_before_the_spaces_bonus_reaches_the_planning_of_ast07() -> None:
    """pl4.s7 shows a robot: its asteroid is ast07, whose planning bonuses cannot go on the
    moon of pl4, complete the moment its last space was filled (spec 10.3)."""
    sheet = battle({"pl4": "SNSNSN"}, asteroids={"S": 6})
    state = after_draw(sheet, (8, "energy"), planet="pl4")
    assert marks_of(state, 0)["pl4.flag"] == "S"
    use(state, ALICE, "bonus.robot")
    moons = {o["moon"] for o in options(state, ALICE) if "moon" in o}
    assert moons and not moons & set(LAYOUT.planets["pl4"].moon)


def test_the_neighbour_completing_a_planet_flags_the_other_owner_who_may_claim_a_mission() -> None:
    """Turn 2: Bob plays sheet 0 on side N and fills the last space of pl2, where Alice (side S)
    leads; her flags on sheet 0 now show one planet of each type: mission 107 is offered to
    her in phase 6 and written on her left sheet, though she played sheet 1 that turn."""
    state = game(missions={"A": 107, "B": 108, "C": 110})
    start_turn(state, 2)
    set_sheet(state, 0, battle({"pl2": "SSSN"}, flags={"pl1": "S", "pl3": "S"}))
    reveal(state, (5, "energy"), (12, "energy"), (8, "plant"))
    grey = side_score(state, 0, "S")["grey"]
    draw(state, BOB, 0, "pl2")
    assert marks_of(state, 0)["pl2.flag"] == "S"
    assert side_score(state, 0, "S")["grey"] == grey + 4  # one grey planet, multiplier 4
    for seat in (ALICE, BOB):
        while options(state, seat):
            playing.move(state, seat, options(state, seat)[0])
        confirm(state, seat, claim=False)
    assert state.phase == "missions"
    assert options(state, ALICE) == [{"action": "claim_mission", "letter": "A"}]
    claimed = playing.move(state, ALICE, options(state, ALICE)[0]) + confirm(state, ALICE)
    written = next(e for e in claimed if e["kind"] == "mission_accomplished")
    assert written["data"] == {"sheet": 0, "letter": "A", "card": 107, "value": 9, "box": "S.mission.A"}
    assert marks_of(state, 0)["S.mission.A"] == 9 and state.turn == 3
    assert total(state, ALICE)["missions"] == 9


def test_final_resolution_of_planets_without_a_flag() -> None:
    sheet = battle({"pl1": "SSN", "pl2": "SN", "pl3": "N"}, {"pl2": "S"}, flags={"pl1": "N"})
    state = game(sheets={0: sheet})
    assert side_score(state, 0, "S")["controlled"] == {"green": 0, "blue": 0, "grey": 0}
    ended(state)
    assert side_score(state, 0, "S")["controlled"] == {"green": 2, "blue": 1, "grey": 2}
    assert side_score(state, 0, "N")["controlled"] == {"green": 3, "blue": 2, "grey": 1}


# --- missions ----------------------------------------------------------------------------------

MISSION_SHEETS = {
    106: battle(flags={"pl1": "S", "pl2": "SN", "pl3": "S", "pl4": "S", "pl5": "N"}),
    107: battle(flags={"pl1": "S", "pl3": "SN", "pl4": "S", "pl2": "N"}),
    108: battle(asteroids={"S": 7, "N": 6}),
    109: battle(S={"green": 2, "blue": 2, "grey": 2}, N={"green": 4, "blue": 4, "grey": 1}),
    110: battle(S={"plant": 6, "water": 4}, N={"plant": 11, "water": 3}),
    111: battle({"pl1": "SSS"}, {"pl1": "S", "pl2": "NS", "pl3": "S", "pl4": "N", "pl5": "S"},
                flags={"pl1": "S"}),
}  # fmt: skip


@pytest.mark.parametrize("card", sorted(MISSION_SHEETS))
def test_each_mission_holds_for_the_side_that_meets_it_on_either_sheet(card: int) -> None:
    """Each sheet meets the card for its side S only (just short of it for side N)."""
    letter = "ABC"[(card - 106) // 2]
    for sheet in (0, 1):  # alice's left sheet (she owns S), then bob's (alice owns N)
        state = game(missions={letter: card}, sheets={sheet: MISSION_SHEETS[card]})
        owner_s = int(state.sheets[sheet].sides["S"])
        assert RULES.mission_holds(state, owner_s, card)
        assert not RULES.mission_holds(state, 1 - owner_s, card)


def test_a_mission_met_by_both_seats_in_its_first_turn_gives_both_the_high_value() -> None:
    sheets = {0: battle(S={"plant": 6, "water": 4}), 1: battle(S={"plant": 6, "water": 4})}
    state = game(missions={"A": 106, "B": 108, "C": 110}, sheets=sheets)
    reveal(state, (7, "energy"), (12, "energy"), (8, "energy"))
    for seat in (ALICE, BOB):
        play_along(state, seat)
    assert [marks_of(state, sheet)["S.mission.C"] for sheet in (0, 1)] == [10, 10]
    assert "C" in state.flipped_missions


# --- the end of the game ----------------------------------------------------------------------


def test_three_missions_on_the_home_sheet_end_the_game() -> None:
    missions = {"S.mission.A": 12, "S.mission.B": 9, "S.mission.C": 10}
    state = game(3, sheets={1: battle(marks=missions)})
    assert RULES.end_reasons(state) == [{"reason": "all_missions", "seats": [BOB]}]
    assert total(state, BOB)["missions"] == 31


def test_a_sheet_with_every_planet_space_filled_ends_the_game_naming_both_owners() -> None:
    state = game(4, sheets={3: battle(FULL)})
    assert RULES.end_reasons(state) == [{"reason": "sheet_full", "seats": [0, 3], "sheets": [3]}]


def test_the_game_ends_at_the_end_of_the_round_scored_by_each_players_total() -> None:
    state = game(sheets={0: battle(full_but("pl7") | {"pl7": "SS"})})
    reveal(state, (15, "energy"), (14, "energy"), (13, "energy"))
    for seat in (ALICE, BOB):
        play_along(state, seat)
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "sheet_full", "seats": [ALICE, BOB], "sheets": [0]}]}
    result = engine.result_event(state)["data"]
    assert [score["total"] for score in result["scores"]] == [total(state, seat)["total"] for seat in (0, 1)]


# --- scores and ties -----------------------------------------------------------------------------


def test_equal_totals_go_to_fewer_system_errors_over_both_sheets_then_are_shared() -> None:
    """At the end every empty planet is shared (0-0): each side holds all seven, 36 points a
    player with no box crossed."""
    even = ended(game(3))
    assert [total(even, seat)["total"] for seat in (ALICE, BOB, CAROL)] == [36, 36, 36]
    assert RULES.standings(even)["winners"] == [ALICE, BOB, CAROL]
    # Alice: 3 plants (+7) and an error (-5); Bob: 1 plant (+2); both 38, Bob with no error
    sheets = {0: battle(S={"plant": 3, "error": 1}), 1: battle(S={"plant": 1})}
    state = ended(game(3, sheets=sheets))
    standings = RULES.standings(state)
    assert [score["total"] for score in standings["scores"]] == [38, 38, 36]
    assert [score["rank"] for score in standings["scores"]] == [2, 1, 3]
    assert standings["winners"] == [BOB]


def test_a_players_total_adds_its_two_sides_missions_and_campaign_points() -> None:
    bonus = {1: [{"kind": "bonus_points", "points": 6}]}
    state = engine.replay(engine.new_game(adventure=THE_BATTLE, players=2, seed=1, modifiers=bonus))
    set_sheet(state, 1, {**marks_of(state, 1), **battle(S={"water": 2}, N={"plant": 3}), "S.mission.B": 5})
    set_sheet(state, 0, {**marks_of(state, 0), **battle(N={"water": 1})})
    bob = total(state, BOB)
    assert (bob["missions"], bob["left"], bob["right"], bob["campaign"], bob["total"]) == (5, 6, 3, 6, 20)
    assert total(state, ALICE)["total"] == 7  # her N side of Bob's sheet: 3 plants


# --- setup -------------------------------------------------------------------------------------


def test_each_ship_carries_its_sides_insignia_from_the_setup_on() -> None:
    opening = engine.new_game(adventure=THE_BATTLE, players=3, seed=1)[0]["data"]
    for sheet in opening["sheets"]:
        assert (sheet["marks"]["S.ship"], sheet["marks"]["N.ship"]) == ("S", "N")


def test_start_marks_go_on_the_side_they_name_of_the_seats_sheets() -> None:
    marks = [{"element": "S.astro.a1", "mark": "circle"}, {"element": "N.green.b1", "mark": "cross"}]
    modifiers: dict[int, list[dict[str, Any]]] = {
        0: [{"kind": "start_marks", "marks": marks}, {"kind": "system_errors", "delta": -1}]
    }
    opening = engine.new_game(adventure=THE_BATTLE, players=3, seed=1, modifiers=modifiers)[0]["data"]
    sheets = {sheet["id"]: sheet for sheet in opening["sheets"]}
    assert sheets[0]["marks"]["S.astro.a1"] == "circle" and "N.green.b1" not in sheets[0]["marks"]
    assert sheets[2]["marks"]["N.green.b1"] == "cross" and "S.astro.a1" not in sheets[2]["marks"]
    assert sheets[0]["error_boxes"] == ["S.error.e1", "N.error.e1", "N.error.e2"]
    assert sheets[2]["error_boxes"] == ["S.error.e1", "S.error.e2", "N.error.e1"]
    assert sheets[1]["sides"] == {"S": 1, "N": 2} and opening["seats"][0] == {"sheets": [0, 2]}
    for element in ("pl1.s1", "ast01", "S.mission.A", "S.ship"):
        bad = {0: [{"kind": "start_marks", "marks": [{"element": element, "mark": "circle"}]}]}
        with pytest.raises(engine.RuleViolation) as refusal:
            engine.new_game(adventure=THE_BATTLE, players=2, seed=1, modifiers=bad)
        assert refusal.value.code == "invalid_modifier", element


# --- what a viewer sees ----------------------------------------------------------------------


def test_the_game_view_lists_each_sheet_with_its_owners_and_the_decision_names_the_sheet() -> None:
    state = game(3)
    view = engine.game_view(state, viewer=ALICE)
    assert view["sheets"] == [
        {"sheet": 0, "seats": [0, 1], "sides": {"S": 0, "N": 1}},
        {"sheet": 1, "seats": [1, 2], "sides": {"S": 1, "N": 2}},
        {"sheet": 2, "seats": [2, 0], "sides": {"S": 2, "N": 0}},
    ]
    assert [seat["sheets"] for seat in view["seats"]] == [[0, 2], [1, 0], [2, 1]]
    assert [engine.options(state, seat).sheet for seat in range(3)] == [0, 1, 2]


def test_a_shared_sheet_shows_both_panels_the_planets_and_the_field_from_both_ends() -> None:
    sheet = battle({"pl2": "SSNN"}, {"pl2": "N"}, flags={"pl1": "SN"}, asteroids={"S": 2, "N": 1},
                   S={"green": 1, "circled": 2, "spent": 1}, N={"water": 3, "error": 1})  # fmt: skip
    state = game(3, sheets={0: sheet})
    view = engine.sheet_view(state, 0, viewer=ALICE)
    assert (view["sides"], view["active_seat"], view["seats"]) == ({"S": 0, "N": 1}, ALICE, [0, 1])
    assert set(view["score"]) == {"S", "N"}
    derived = view["derived"]
    pl2 = derived["planets"]["pl2"]
    assert (pl2["type"], pl2["filled"], pl2["spaces"], pl2["next_space"]) == ("grey", 4, 5, "pl2.s5")
    assert (pl2["insignias"], pl2["leader"], pl2["control"]) == ({"S": 2, "N": 3}, "N", "")
    assert pl2["moon_open"]
    pl1 = derived["planets"]["pl1"]
    assert (pl1["complete"], pl1["flag"], pl1["control"], pl1["moon_open"]) == (True, "SN", "SN", False)
    assert derived["asteroids"] == {
        "claimed": {"S": ["ast01", "ast02"], "N": ["ast13"]}, "next": {"S": "ast03", "N": "ast12"}, "free": 10
    }  # fmt: skip
    south, north = derived["panels"]["S"], derived["panels"]["N"]
    assert (south["seat"], south["green"], south["astronauts"]) == (
        ALICE, {"crossed": 1, "value": 3}, {"blank": 3, "circled": 2, "crossed": 1}
    )  # fmt: skip
    assert (north["seat"], north["water"], north["system_errors"]) == (
        BOB, {"crossed": 3, "value": 10}, {"crossed": 1, "usable": 2, "penalty": 5}
    )  # fmt: skip
    assert south["missions"] == {"A": None, "B": None, "C": None} and "missions" not in north


def test_the_other_owner_sees_the_sheet_as_the_turn_began_until_it_resolves() -> None:
    state = game(3)
    reveal(state, (7, "plant"), (12, "energy"), (3, "astronaut"))
    draw(state, BOB, 0, "pl3")  # sheet 1: Bob's side S, Carol's side N
    assert engine.sheet_view(state, 1, viewer=BOB)["marks"]["pl3.s1"] == "S"
    for viewer in (CAROL, ALICE):
        assert "pl3.s1" not in engine.sheet_view(state, 1, viewer=viewer)["marks"]
    hidden = [e for e in play_along(state, BOB) if e["kind"] != "confirmed"]
    assert hidden and all(engine.redact(e, state, viewer=CAROL) is None for e in hidden)
    assert all(engine.redact(e, state, viewer=BOB) == e for e in hidden)


# --- the greedy bot ----------------------------------------------------------------------------


def test_the_greedy_bot_completes_a_planet_it_wins_and_weighs_the_action_its_draw_brings() -> None:
    state = game(sheets={0: battle({"pl1": "SS"})})
    reveal(state, (1, "energy"), (9, "energy"), (12, "energy"))
    pick = bots.greedy_bot(random.Random(1))(state, ALICE)["choice"]
    assert (pick["combination"], pick["planet"]) == (0, "pl1")  # green under her flag: 2 points

    state = game()
    reveal(state, (3, "plant"), (6, "water"), (10, "robot"))  # 2 plant points, 3 water, nothing
    for seed in range(5):
        pick = bots.greedy_bot(random.Random(seed))(state, ALICE)["choice"]
        assert (pick["combination"], pick["planet"]) == (1, "pl3")
