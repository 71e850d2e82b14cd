"""The worked examples of The Battle's rules (spec section 12), with the numbers they give: the
scoring examples S1 and S3, then turn examples T1-T4 played move by move. The solo examples S2
and T5 are in ``test_battle_solo``."""

from games.rules import engine
from tests.rules import playing
from tests.rules.battle_helpers import (
    LAYOUT,
    RULES,
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

ALICE, BOB = 0, 1
ANA, BEN, CY = 0, 1, 2
SHEET_A, SHEET_B = 0, 1
LINES = ("plants", "water", "green", "blue", "grey", "planning", "system_errors", "total")


def play_along(state: engine.GameState, seat: int) -> None:
    """A seat plays its first option at every decision of its turn, then confirms."""
    while options(state, seat):
        playing.move(state, seat, options(state, seat)[0])
    confirm(state, seat)


def insignias_by_side(marks: dict, side: str) -> int:
    return sum(1 for space in LAYOUT.spaces if marks.get(space) == side)


# --- S1: two players, both totals -----------------------------------------------------------


def example_s1() -> engine.GameState:
    """Alice (seat 0) owns side S of sheet A and side N of sheet B; Bob the other two sides. The
    planets and panels as the example's tables give them, the missions written."""
    sheet_a = battle(
        {"pl1": "SSN", "pl2": "SSSNN", "pl3": "SSNNN", "pl4": "SSSSN", "pl5": "NNNNN", "pl6": "SSSNN"},
        {"pl1": "NN", "pl2": "S", "pl3": "S", "pl4": "N", "pl5": "S"},
        flags={"pl1": "N", "pl2": "S", "pl3": "SN", "pl5": "N", "pl6": "S"},
        S={"plant": 6, "water": 4, "green": 1, "blue": 2, "grey": 1, "planning": 3, "error": 1},
        N={"plant": 2, "water": 2, "green": 2, "planning": 3},
        marks={"S.mission.A": 4, "S.mission.C": 10},
    )  # fmt: skip
    sheet_b = battle(
        {"pl1": "NNS", "pl2": "NNNSS", "pl3": "NNNNS", "pl4": "NNNNSSS", "pl5": "SSSS", "pl6": "SS",
         "pl7": "N"},
        {"pl3": "S", "pl4": "N", "pl6": "S", "pl7": "S"},
        flags={"pl1": "N", "pl2": "N", "pl3": "N", "pl4": "N"},
        asteroids={"S": 7},
        S={"plant": 4, "water": 5, "green": 1, "blue": 3, "planning": 1, "error": 2},
        N={"plant": 3, "water": 1, "grey": 3, "planning": 1},
        marks={"S.mission.B": 9},
    )  # fmt: skip
    return game(missions={"A": 107, "B": 108, "C": 110}, sheets={SHEET_A: sheet_a, SHEET_B: sheet_b})


def test_s1_seating_two_players_share_two_sheets_side_by_side() -> None:
    state = example_s1()
    assert [sheet.sides for sheet in state.sheets] == [{"S": ALICE, "N": BOB}, {"S": BOB, "N": ALICE}]
    assert [seat.sheets for seat in state.seats] == [(SHEET_A, SHEET_B), (SHEET_B, SHEET_A)]
    a, b = marks_of(state, SHEET_A), marks_of(state, SHEET_B)
    assert (insignias_by_side(a, "S"), insignias_by_side(a, "N")) == (14, 14)
    assert (insignias_by_side(b, "N"), insignias_by_side(b, "S")) == (14, 13)


def test_s1_the_missions_held_where_the_example_says() -> None:
    state = example_s1()
    assert RULES.mission_holds(state, ALICE, 110)  # 6 plant and 4 water boxes on sheet A
    assert RULES.mission_holds(state, ALICE, 107)  # pl1, pl3 and pl2 flagged on sheet B
    assert RULES.mission_holds(state, BOB, 108)  # ast01-ast07 on sheet B
    assert not RULES.mission_holds(state, BOB, 107)  # no grey planet flagged for Bob
    assert not RULES.mission_holds(state, ALICE, 108)


def test_s1_each_side_scores_as_the_table_gives() -> None:
    state = ended(example_s1())
    alice_a = side_score(state, SHEET_A, "S")
    assert [alice_a[line] for line in LINES] == [17, 14, 3, 12, 10, -10, -5, 41]
    assert alice_a["controlled"] == {"green": 1, "blue": 2, "grey": 2}  # pl7 0-0 shared, pl4 4 v 2
    alice_b = side_score(state, SHEET_B, "N")
    assert [alice_b[line] for line in LINES] == [7, 3, 4, 2, 18, -3, 0, 31]
    bob_a = side_score(state, SHEET_A, "N")
    assert [bob_a[line] for line in LINES] == [4, 6, 12, 2, 0, -10, 0, 14]
    bob_b = side_score(state, SHEET_B, "S")
    assert [bob_b[line] for line in LINES] == [10, 19, 6, 8, 0, -3, -10, 30]


def test_s1_totals_winner_and_the_end() -> None:
    state = example_s1()
    assert RULES.end_reasons(state) == [{"reason": "all_system_errors", "seats": [BOB]}]
    ended(state)
    alice, bob = total(state, ALICE), total(state, BOB)
    assert (alice["missions"], alice["left"], alice["right"], alice["total"]) == (14, 41, 31, 86)
    assert (bob["missions"], bob["left"], bob["right"], bob["total"]) == (9, 30, 14, 53)
    assert (alice["left_sheet"], alice["right_sheet"]) == (SHEET_A, SHEET_B)
    assert (bob["left_sheet"], bob["right_sheet"]) == (SHEET_B, SHEET_A)
    standings = RULES.standings(state)
    assert [score["total"] for score in standings["scores"]] == [86, 53]
    assert standings["winners"] == [ALICE]


# --- S3: three players, maximum values ----------------------------------------------------------


def test_s3_ana_scores_the_maximum_values_of_her_two_sides() -> None:
    sheet0 = battle(
        moons={"pl1": "S", "pl2": "S", "pl3": "S", "pl5": "S"},
        flags={"pl1": "S", "pl5": "S", "pl7": "S", "pl3": "SN", "pl2": "N", "pl4": "N", "pl6": "N"},
        asteroids={"S": 7},
        S={"plant": 11, "green": 4, "planning": 4},
        marks={"S.mission.A": 12, "S.mission.B": 5, "S.mission.C": 10},
    )  # fmt: skip
    sheet2 = battle(
        flags={"pl6": "N", "pl2": "N", "pl4": "N", "pl1": "S", "pl3": "S", "pl5": "S", "pl7": "S"},
        N={"plant": 1, "water": 9, "grey": 4, "planning": 7, "error": 1},
    )
    state = game(3, missions={"A": 106, "B": 108, "C": 111}, sheets={0: sheet0, 2: sheet2})
    assert [sheet.sides for sheet in state.sheets] == [
        {"S": ANA, "N": BEN}, {"S": BEN, "N": CY}, {"S": CY, "N": ANA}
    ]  # fmt: skip
    assert state.seats[ANA].sheets == (0, 2)
    for card in (106, 108, 111):  # 106 counts the shared pl3
        assert RULES.mission_holds(state, ANA, card)
    ended(state)
    left = side_score(state, 0, "S")
    assert [left[line] for line in LINES] == [40, 0, 24, 2, 0, -15, 0, 51]
    right = side_score(state, 2, "N")
    assert [right[line] for line in LINES] == [2, 45, 0, 2, 24, -36, -5, 32]
    ana = total(state, ANA)
    assert (ana["missions"], ana["left"], ana["right"], ana["total"]) == (27, 51, 32, 110)


# --- T1: a placement with its bonus, and what is illegal ------------------------------------


def t1() -> engine.GameState:
    state = game(3)
    reveal(state, (7, "plant"), (12, "energy"), (3, "astronaut"))
    return state


def test_t1_seven_on_pl4_with_its_plant_bonus_then_the_plant_action() -> None:
    state = t1()
    assert engine.options(state, ANA).sheet == 0 and side_score(state, 0, "S")["seat"] == ANA
    drawn = {(o["combination"], o["planet"]) for o in options(state, ANA) if o["combination"] == 0}
    assert drawn == {(0, "pl3"), (0, "pl4")}  # 7 fits 5-6-7 and 7-8-9
    draw(state, ANA, 0, "pl4")
    assert marks_of(state, 0)["pl4.s1"] == "S"
    assert options(state, ANA) == [{"action": "bonus_plant", "effect": "bonus.plant"}, skip("bonus.plant")]
    use(state, ANA, "bonus.plant")
    assert marks_of(state, 0)["S.plant.b01"] == "cross"
    assert side_score(state, 0, "S")["plants"] == 2
    assert options(state, ANA)[0] == {"action": "plant", "effect": "action.plant", "symbol": "pl4.plant1"}
    use(state, ANA, "action.plant", symbol="pl4.plant1")
    assert {marks_of(state, 0)[e] for e in ("pl4.plant1", "S.plant.b02")} == {"cross"}
    assert side_score(state, 0, "S")["plants"] == 4
    assert RULES.derived(state, state.sheets[0], marks=marks_of(state, 0))["planets"]["pl4"]["filled"] == 1
    confirm(state, ANA)
    for seat in (BEN, CY):
        play_along(state, seat)
    assert (state.turn, state.phase) == (2, "actions")  # no mission met


def test_t1_seven_is_not_in_the_range_of_pl5() -> None:
    state = t1()
    assert refused(state, ANA, action="draw", combination=0, planet="pl5", number=7) == "number_not_on_planet"
    assert refused(state, ANA, action="draw", combination=0, planet="pl5") == "planet_out_of_reach"


def test_t1_only_the_first_empty_space_of_a_planet() -> None:
    state = game(3, sheets={0: battle({"pl4": "S"})})
    reveal(state, (7, "plant"), (12, "energy"), (3, "astronaut"))
    assert refused(state, ANA, action="draw", combination=0, planet="pl4", space="pl4.s3") == "space_not_next"
    draw(state, ANA, 0, "pl4", space="pl4.s2")
    assert marks_of(state, 0)["pl4.s2"] == "S"


def test_t1_in_round_two_ana_plays_sheet2_side_n() -> None:
    state = t1()
    for seat in (ANA, BEN, CY):
        play_along(state, seat)
    assert state.turn == 2
    assert engine.options(state, ANA).sheet == 2
    first = options(state, ANA)[0]
    assert refused(state, ANA, **first, sheet=0) == "sheet_not_played_this_turn"
    draw(state, ANA, first["combination"], first["planet"], sheet=2)
    assert marks_of(state, 2)[first["space"]] == "N"


def test_t1_thirteen_water_on_pl7_draws_but_its_water_does_nothing() -> None:
    state = game(3)
    reveal(state, (13, "water"), (12, "energy"), (3, "astronaut"))
    draw(state, ANA, 0, "pl7")
    assert engine.options(state, ANA).kind == "confirm"  # pl7 has no water symbol
    other = game(3)
    reveal(other, (13, "water"), (12, "energy"), (3, "astronaut"))
    draw(other, ANA, 0, "pl6")
    assert options(other, ANA)[0] == {"action": "water", "effect": "action.water", "symbol": "pl6.water1"}


# --- T2: stored astronaut symbols -------------------------------------------------------------


def test_t2_a_stored_symbol_serves_only_on_its_sheet_and_must_be_spent_to_avoid_an_error() -> None:
    state = game(3)
    start_turn(state, 3)
    reveal(state, (3, "astronaut"), (12, "energy"), (8, "plant"))
    draw(state, ANA, 0, "pl2", number=3)  # modification 0: the action waits
    use(state, ANA, "action.astronaut")
    assert marks_of(state, 0)["S.astro.a1"] == "circle"

    start_turn(state, 4)  # sheet2, side N: nothing circled there (the cards of round 5 again)
    set_sheet(state, 2, battle({"pl1": "SSS", "pl7": "SSS"}))
    reveal(state, (15, "energy"), (1, "robot"), (2, "water"))
    assert options(state, ANA) == [system_error("N.error.e1")]

    start_turn(state, 5)  # sheet0 again: pl1 and pl7 full, pl2 and pl6 with room
    full = {p: "N" * len(LAYOUT.planets[p].spaces) for p in ("pl1", "pl3", "pl4", "pl5", "pl7")}
    set_sheet(state, 0, {**marks_of(state, 0), **battle(full)})
    reveal(state, (15, "energy"), (1, "robot"), (2, "water"))
    assert {(o["combination"], o["planet"], o["number"]) for o in options(state, ANA)} == {
        (0, "pl6", 13), (1, "pl2", 3), (2, "pl2", 3)
    }  # fmt: skip
    assert RULES.check_draw(state, ANA, {"action": "draw", "combination": 2, "planet": "pl2", "number": 4})
    draw(state, ANA, 0, "pl6")
    sheet0 = marks_of(state, 0)
    assert (sheet0["S.astro.a1"], sheet0["pl6.s1"]) == ("cross", "S")
    use(state, ANA, "action.energy", column="blue")
    assert side_score(state, 0, "S")["multipliers"]["blue"] == 4
    assert "S.astro.a2" not in marks_of(state, 0)  # spending circles nothing


def test_t2_two_symbols_and_an_astronaut_reach_nine_to_seventeen() -> None:
    state = game(3, sheets={0: battle(S={"circled": 2})})
    reveal(state, (15, "astronaut"), (1, "robot"), (2, "water"))
    reached = {o["planet"] for o in options(state, ANA) if o["combination"] == 0}
    assert reached == {"pl4", "pl5", "pl6", "pl7"}  # 9 to 17
    assert refused(state, ANA, action="draw", combination=0, planet="pl3") == "planet_out_of_reach"
    assert RULES.check_draw(state, ANA, {"action": "draw", "combination": 0, "planet": "pl7", "number": 17})
    draw(state, ANA, 0, "pl4", number=9)
    symbols = [marks_of(state, 0)[s] for s in ("S.astro.a1", "S.astro.a2", "S.astro.a3")]
    assert symbols == ["cross", "cross", "circle"]


# --- T3: a robot chain and immediate control ------------------------------------------------


def t3(action: str) -> engine.GameState:
    sheet_a = battle({"pl2": "SNSN"}, {"pl2": "N"}, asteroids={"S": 4, "N": 6})
    state = game(sheets={SHEET_A: sheet_a})
    start_turn(state, 9)
    reveal(state, (5, action), (12, "energy"), (8, "plant"))
    return state


def test_t3_the_last_space_of_pl2_ties_then_two_asteroids_are_claimed() -> None:
    state = t3("robot")
    draw(state, ALICE, 0, "pl2")
    a = marks_of(state, SHEET_A)
    assert (a["pl2.s5"], a["pl2.flag"], a["pl2.done"]) == ("S", "SN", "circle")  # 3 v 2 + 1
    assert options(state, ALICE) == [
        {"action": "bonus_robot", "effect": "bonus.robot", "asteroid": "ast05"}, skip("bonus.robot")
    ]  # fmt: skip
    assert refused_use(state, ALICE, "bonus.robot", asteroid="ast07") == "asteroid_not_next"
    use(state, ALICE, "bonus.robot", asteroid="ast05")
    assert a["ast05"] == "S"
    assert {a[e] for e in ("ast05.water", "ast05.energy", "S.water.b1")} == {"cross"}
    use(state, ALICE, "ast05.energy", column="grey")
    assert a["S.grey.b1"] == "cross"
    use(state, ALICE, "action.robot")
    use(state, ALICE, "ast06.energy1", column="green")
    use(state, ALICE, "ast06.energy2", column="green")
    assert (a["ast06"], a["S.green.b1"], a["S.green.b2"]) == ("S", "cross", "cross")
    field = RULES.derived(state, state.sheets[SHEET_A], marks=a)["asteroids"]
    assert (field["next"], field["free"]) == ({"S": "ast07", "N": "ast07"}, 1)
    assert engine.options(state, ALICE).kind == "confirm"


def test_t3_the_moon_of_the_planet_just_completed_is_closed() -> None:
    state = t3("planning")
    draw(state, ALICE, 0, "pl2")
    playing.move(state, ALICE, skip("bonus.robot"))
    moons = {option.get("moon") for option in options(state, ALICE)}
    assert "pl2.moon2" not in moons and "pl1.moon1" in moons
    assert refused_use(state, ALICE, "action.planning", moon="pl2.moon2") == "planet_complete"


# --- T4: a System Error -------------------------------------------------------------------------


def t4(errors: int) -> engine.GameState:
    sheet_a = battle({"pl1": "SSS", "pl7": "NNN"}, N={"error": errors})
    state = game(sheets={SHEET_A: sheet_a})
    start_turn(state, 10)
    reveal(state, (1, "plant"), (2, "water"), (14, "robot"))
    return state


def test_t4_bob_can_place_nothing_and_crosses_his_first_error_box() -> None:
    state = t4(0)
    assert engine.options(state, BOB).sheet == SHEET_A
    assert options(state, BOB) == [system_error("N.error.e1")]
    playing.move(state, BOB, system_error("N.error.e1"))
    assert marks_of(state, SHEET_A)["N.error.e1"] == "circle"
    assert engine.options(state, BOB).kind == "confirm"  # nothing else that turn


def test_t4_his_second_box_ends_the_game_at_the_end_of_the_round() -> None:
    state = t4(1)
    playing.move(state, BOB, system_error("N.error.e2"))
    confirm(state, BOB)
    play_along(state, ALICE)
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "all_system_errors", "seats": [BOB]}]}
