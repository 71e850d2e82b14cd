"""The Battle against ASTRA (adventure 8 spec, sections 2.4 and 9): the two sheets, ASTRA's own
card each round (placement, the player's choice between two planets, the cyclic fallback,
control against ASTRA, the action substitutions), its Effect cards, the ASTRA bonuses the
player's flags earn, the end of the game, and the worked examples S2 and T5."""

from typing import Any

import pytest

from games.rules import engine
from games.rules.core.sheet import CIRCLE, CROSS
from games.rules.engine import GameState
from games.rules.turn import solo
from tests.rules.battle_helpers import LAYOUT, RULES, battle, marks_of, set_sheet, start_turn, total
from tests.rules.playing import astra_part, confirm, move, options, pick, refused, set_deck, set_hand, skip

L, R = 0, 1
EFFECT_A, EFFECT_B, EFFECT_C = 112, 113, 114
# Cards by what they show (the card ids of the starship deck).
SEVEN_PLANT, EIGHT_PLANT, EIGHT_WATER, THREE_WATER = 26, 31, 33, 5
ELEVEN_ENERGY, SIX_ASTRONAUT, SIX_PLANNING, SIX_ROBOT = 50, 21, 22, 17
FOURTEEN_PLANT, FOURTEEN_ROBOT, FIFTEEN_ROBOT, FIFTEEN_ENERGY = 61, 60, 62, 63
THIRTEEN_WATER, TWELVE_ENERGY, TWO_PLANT = 57, 53, 4


def solo_battle(level: int = 3, seed: int = 1, missions: dict[str, int] | None = None) -> GameState:
    """A solo Battle at the start of turn 1 (ASTRA's first card placed on the first planet
    offered when the player had to choose)."""
    opening = engine.new_game(adventure=8, players=1, seed=seed, astra_level=level, missions=missions or {})
    state = engine.replay(opening)
    if options(state, 0):
        move(state, 0, options(state, 0)[0])
        astra_part(state)
    assert state.turn == 1
    return state


def end_turn(state: GameState, *top: int, rest: list[int] | None = None) -> list[Any]:
    """End the player's turn (a hand with none of ``top``, its first card given to ASTRA) with
    ``top`` on the deck (the whole deck with ``rest`` under it), and play ASTRA's part up to
    where it stops."""
    assert state.astra is not None
    spare = (FOURTEEN_PLANT, FOURTEEN_ROBOT, FIFTEEN_ROBOT, FIFTEEN_ENERGY)
    hand = [card for card in spare if card not in top]
    set_hand(state, *hand[:3])
    set_deck(state, *top)
    if rest is not None:
        state.astra.deck = [*top, *rest]
    state.astra.given = state.astra.hand[0]
    state.seats[0].confirmed = True
    state.decisions.clear()
    return astra_part(state)


def played(events: list[Any]) -> dict[str, Any]:
    (event,) = [event for event in events if event["kind"] == "astra_played"]
    return dict(event["data"])


def astra_marks(events: list[Any]) -> list[tuple[str, Any]]:
    """What ASTRA's card marked after its insignia, in order."""
    return [
        (event["data"]["element"], event["data"]["mark"])
        for event in events
        if event["kind"] == "mark" and event["seat"] is None
    ]


def effect_targets(state: GameState) -> list[str]:
    decision = engine.options(state, 0)
    assert decision.kind == "effect"
    return [option["target"] for option in options(state, 0)]


# --- setup -------------------------------------------------------------------------------------


def test_the_player_owns_side_s_of_both_sheets_and_astra_side_n() -> None:
    state = solo_battle()
    assert [sheet.sides for sheet in state.sheets] == [{"S": 0, "N": "astra"}] * 2
    assert state.seats[0].sheets == (L, R)
    assert state.sheets[L].marks["N.ship"] == "N" and state.sheets[R].marks["S.ship"] == "S"
    assert state.seats[0].sheet == L  # round 1 on L
    first = next(option for option in options(state, 0) if option["action"] == "draw")
    assert {"number_card", "action_card"} <= set(first)


def test_a_one_player_battle_without_astra_is_refused() -> None:
    with pytest.raises(engine.RuleViolation) as refusal:
        engine.new_game(adventure=8, players=1, seed=1)
    assert refusal.value.code == "solo_needs_astra"


# --- ASTRA's card: where it goes ---------------------------------------------------------------


def test_astra_draws_one_card_plays_it_then_the_hand_is_completed() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl4": "SS"}))
    events = end_turn(state, EIGHT_PLANT, SIX_ROBOT, SIX_PLANNING)
    kinds = [event["kind"] for event in events]
    assert kinds[:3] == ["astra_took", "card_drawn", "astra_played"]
    assert kinds[-3:] == ["card_drawn", "card_drawn", "turn_started"]
    assert played(events) == {
        "sheet": R, "card": EIGHT_PLANT, "number": 8, "action": "plant", "planet": "pl4", "space": "pl4.s3",
    }  # fmt: skip
    marks = marks_of(state, R)
    assert marks["pl4.s3"] == "N"
    assert astra_marks(events) == [("pl4.plant1", CROSS)]  # a symbol, no track
    assert not any(box in marks for box in LAYOUT.track("N", "plant").boxes)
    assert state.astra is not None and state.astra.hand == [EIGHT_PLANT, SIX_ROBOT, SIX_PLANNING]
    assert (state.turn, state.seats[0].sheet) == (2, R)


def test_the_player_chooses_when_both_accepting_planets_have_room() -> None:
    state = solo_battle()
    events = end_turn(state, SEVEN_PLANT, SIX_ROBOT, SIX_PLANNING)
    assert [event["kind"] for event in events][-1] == "card_drawn"  # ASTRA's part waits
    decision = engine.options(state, 0)
    assert (decision.kind, decision.sheet) == ("effect", R)
    assert decision.options == [
        {"action": "astra_place", "card": SEVEN_PLANT, "planet": "pl3"},
        {"action": "astra_place", "card": SEVEN_PLANT, "planet": "pl4"},
    ]
    assert not solo.astra_due(state)
    assert refused(state, 0, {"action": "astra_place", "card": SEVEN_PLANT, "planet": "pl5"}) == (
        "astra_planet_not_available"
    )
    with pytest.raises(engine.OutOfTurn) as waiting:
        engine.decide(state, 0, {"type": "confirm"})
    assert waiting.value.code == "astra_placement_pending"
    chosen = move(state, 0, {"action": "astra_place", "card": SEVEN_PLANT, "planet": "pl4"})
    assert played(chosen)["space"] == "pl4.s1" and marks_of(state, R)["pl4.s1"] == "N"
    assert solo.astra_due(state) and engine.options(state, 0).kind == "wait"
    rest = astra_part(state)
    assert [event["kind"] for event in rest] == ["card_drawn", "card_drawn", "turn_started"]
    assert engine.astra_turn(state) == []  # played once


def test_with_no_room_on_the_accepting_planets_astra_walks_on_cyclically() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl1": "SSS", "pl2": "SSNNS"}))
    events = end_turn(state, THREE_WATER, SIX_ROBOT, SIX_PLANNING)
    assert (played(events)["planet"], played(events)["space"]) == ("pl3", "pl3.s1")  # card 3 -> pl3
    assert astra_marks(events) == [("pl3.water1", CROSS)]


def test_the_bonus_of_the_space_astra_fills_is_ignored() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl4": "SSSS"}))  # pl4.s5 shows a plant bonus
    events = end_turn(state, EIGHT_WATER, SIX_ROBOT, SIX_PLANNING)
    assert played(events)["space"] == "pl4.s5"
    assert not any(box in marks_of(state, R) for box in LAYOUT.track("N", "plant").boxes)


# --- control against ASTRA ---------------------------------------------------------------------


def test_astra_takes_the_flag_with_strictly_more_and_its_planning_finds_the_moon_closed() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl3": "SNNN"}, {"pl3": "S"}))
    events = end_turn(state, SIX_PLANNING, SIX_ROBOT, EIGHT_PLANT)
    assert played(events)["space"] == "pl3.s5"
    # 4 v 1 + 1 on the moon: the planet is ASTRA's, its moon closed to ASTRA's planning (10.5)
    assert astra_marks(events) == [("pl3.flag", "N"), ("pl3.done", CIRCLE)]


def test_a_tie_is_the_players_alone_and_may_earn_an_astra_bonus() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl3": "SSSN"}, {"pl3": "N"}, flags={"pl1": "S"}))
    events = end_turn(state, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    # 3 v 3: only the player's insignia on the flag
    assert astra_marks(events) == [("pl3.flag", "S"), ("pl3.done", CIRCLE), ("ast13", "N")]
    bonus = [event["data"] for event in events if event["kind"] == "astra_bonus"]
    assert bonus == [{"count": 1, "element": "pl3.flag"}]  # the player's 2nd flag in play
    assert state.astra is not None and state.astra.bonuses_circled == 1


# --- ASTRA's actions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        (SIX_ASTRONAUT, [("pl3.moon1", "N")]),  # astronaut is played as planning
        (SIX_PLANNING, [("pl3.moon1", "N")]),
        (SIX_ROBOT, [("ast13", "N")]),  # ast13 has no bonus
        (20, [("pl3.water1", CROSS)]),  # 6 water
        (19, [("pl3.plant1", CROSS)]),  # 6 plant
        (18, [("ast13", "N")]),  # 6 energy is played as robot
    ],
)
def test_each_action_as_astra_plays_it(card: int, expected: list[tuple[str, Any]]) -> None:
    state = solo_battle()
    events = end_turn(state, card, SIX_ROBOT if card != SIX_ROBOT else SIX_PLANNING, EIGHT_PLANT)
    assert played(events)["planet"] == "pl3"
    assert astra_marks(events) == expected


def test_astras_robot_takes_its_next_asteroid_and_its_bonuses_are_lost() -> None:
    state = solo_battle()
    set_sheet(state, R, battle(asteroids={"N": 1}))
    end_turn(state, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    marks = marks_of(state, R)
    assert marks["ast12"] == "N" and marks["ast12.plant"] == CROSS
    assert not any(box in marks for box in LAYOUT.track("N", "plant").boxes)


def test_an_impossible_action_does_nothing() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl6": "SSSSS"}, flags={"pl6": "S"}))  # 13: pl6 full, pl7
    events = end_turn(state, THIRTEEN_WATER, SIX_ROBOT, EIGHT_PLANT)
    assert played(events)["planet"] == "pl7"
    assert astra_marks(events) == []  # pl7 has no water symbol
    state = solo_battle()
    set_sheet(state, R, battle(asteroids={"S": 6, "N": 7}))
    events = end_turn(state, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    assert astra_marks(events) == []  # every asteroid claimed
    state = solo_battle()
    set_sheet(state, R, battle({"pl3": "S"}, {"pl3": "SN"}))
    events = end_turn(state, SIX_PLANNING, SIX_ROBOT, EIGHT_PLANT)
    assert (played(events)["space"], astra_marks(events)) == ("pl3.s2", [])  # its moon is full
    state = solo_battle()
    set_sheet(state, R, battle({"pl3": "S"}, marks={"pl3.plant1": CROSS, "pl3.plant2": CROSS}))
    events = end_turn(state, 19, SIX_ROBOT, EIGHT_PLANT)  # 6 plant: both symbols crossed
    assert (played(events)["space"], astra_marks(events)) == ("pl3.s2", [])


# --- T5: ASTRA's turn and the ASTRA effect ---------------------------------------------------


def test_t5_round_7_the_fallback_wraps_to_pl1_a_tie_flag_is_the_humans_and_circles_a_bonus() -> None:
    state = solo_battle()
    start_turn(state, 6)
    assert state.astra is not None
    state.astra.bonuses_circled = 1  # for his 2nd flag
    full = {"pl5": "SSNNS", "pl6": "NNNNN", "pl7": "SNS"}
    set_sheet(state, L, battle({"pl1": "SN", **full}, {"pl1": "S"}, flags={"pl5": "S", "pl7": "S"}))
    set_sheet(state, R, battle({"pl2": "SSSNN"}, flags={"pl2": "S", "pl6": "N"}))
    events = end_turn(state, ELEVEN_ENERGY, SIX_ROBOT, EIGHT_PLANT)
    assert played(events) == {
        "sheet": L, "card": ELEVEN_ENERGY, "number": 11, "action": "energy", "planet": "pl1",
        "space": "pl1.s3",
    }  # fmt: skip
    # pl1: human 1 + moon 1 = 2, ASTRA 2: only the human's insignia; then energy as robot
    assert astra_marks(events) == [("pl1.flag", "S"), ("pl1.done", CIRCLE), ("ast13", "N")]
    assert "S.plant.b01" not in marks_of(state, L) and "N.plant.b01" not in marks_of(state, L)
    bonus = [event["data"] for event in events if event["kind"] == "astra_bonus"]
    assert bonus == [{"count": 1, "element": "pl1.flag"}]  # his 4th flag in play
    assert state.astra.bonuses_circled == 2


def t5_round_12(deck_pass: int) -> tuple[GameState, list[Any]]:
    """Round 12 on R: effect card B drawn first, on ``deck_pass``."""
    state = solo_battle()
    start_turn(state, 11)
    assert state.astra is not None
    state.astra.deck_pass = deck_pass
    set_sheet(
        state, R,
        battle({"pl1": "SNN", "pl2": "SSNNN", "pl3": "SSSN", "pl4": "SSN", "pl5": "SS", "pl6": "SS"},
               {"pl3": "S", "pl4": "SN"}, flags={"pl1": "N", "pl2": "N"}),
    )  # fmt: skip
    return state, end_turn(state, EFFECT_B, TWELVE_ENERGY, SIX_ROBOT, EIGHT_PLANT)


@pytest.mark.parametrize("deck_pass", [1, 2])
def test_t5_round_12_the_effect_fills_pl3s_moon_then_pl5_or_pl6_at_the_humans_choice(deck_pass: int) -> None:
    state, events = t5_round_12(deck_pass)
    flipped = [event["data"] for event in events if event["kind"] == "mission_flipped"]
    assert flipped == ([{"letter": "B", "card": state.missions["B"]}] if deck_pass == 2 else [])
    assert engine.options(state, 0).sheet == R
    assert effect_targets(state) == ["pl3.moon2,pl5.moon1", "pl3.moon2,pl6.moon1"]
    chosen = move(state, 0, {"action": "astra_effect", "card": EFFECT_B, "target": "pl3.moon2,pl6.moon1"})
    assert [e["kind"] for e in chosen] == ["mark", "mark", "astra_effect"]
    marks = marks_of(state, R)
    assert (marks["pl3.moon2"], marks["pl6.moon1"]) == ("N", "N") and "pl5.moon1" not in marks
    rest = astra_part(state)  # then ASTRA's own card (12: pl6) and the two other cards
    assert played(rest)["space"] == "pl6.s3"
    assert [event["kind"] for event in rest][-1] == "turn_started"


def test_the_effect_puts_both_insignias_on_the_top_moon_when_it_has_room() -> None:
    state = solo_battle()
    set_sheet(state, R, battle({"pl4": "SSS", "pl5": "SS"}))
    events = end_turn(state, EFFECT_A, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    effect = [event["data"] for event in events if event["kind"] == "astra_effect"]
    assert effect == [{"card": EFFECT_A, "letter": "A", "deck_pass": 1, "target": "pl4.moon1,pl4.moon2"}]
    assert not any(event["kind"] == "astra_bonus" for event in events)


def test_an_insignia_of_the_effect_with_no_candidate_left_is_lost() -> None:
    state = solo_battle()
    moons = {planet: "SN" for planet in ("pl1", "pl2", "pl3", "pl4", "pl5", "pl7")}
    set_sheet(state, R, battle({"pl6": "S"}, {**moons, "pl6": "S"}))
    events = end_turn(state, EFFECT_C, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    effect = [event["data"]["target"] for event in events if event["kind"] == "astra_effect"]
    assert effect == ["pl6.moon2"]


# --- ASTRA bonuses: earned by flags, used to remove a card ------------------------------------


def test_the_players_second_flag_circles_a_bonus_which_removes_the_card_left_over() -> None:
    state = solo_battle()
    set_sheet(state, L, battle({"pl1": "SS"}, flags={"pl2": "S"}))
    set_hand(state, TWO_PLANT, SIX_ROBOT, EIGHT_PLANT)
    events = move(state, 0, pick(state, TWO_PLANT, SIX_ROBOT, planet="pl1"))  # pl1's last space
    assert [event["data"] for event in events if event["kind"] == "astra_bonus"] == [
        {"count": 1, "element": "pl1.flag"}
    ]
    move(state, 0, skip("bonus.plant"))
    move(state, 0, skip("action.robot"))
    give = engine.options(state, 0)
    assert give.kind == "give"
    assert give.options == [
        {"action": "give", "card": EIGHT_PLANT},
        {"action": "remove", "card": EIGHT_PLANT},
    ]
    move(state, 0, {"action": "remove", "card": EIGHT_PLANT})
    confirm(state, 0)
    taken = [event["data"] for event in astra_part(state) if event["kind"] == "astra_took"]
    assert taken == [{"card": EIGHT_PLANT, "removed": True}]
    assert state.astra is not None
    solo_state = state.astra
    assert (solo_state.bonuses_circled, solo_state.bonuses_used, solo_state.removed) == (1, 1, [EIGHT_PLANT])
    assert sum(state.astra.pile.values()) == 0


def test_flags_of_the_final_resolution_give_no_bonus_and_ties_are_the_players() -> None:
    state = solo_battle()
    set_sheet(state, L, battle({"pl1": "SN", "pl3": "SNN"}))
    state.status = "ended"
    left = RULES.side_score(state.sheets[L], "S", marks_of(state, L), final=True)
    # pl1 1 v 1 and the untouched planets are the player's; pl3 is ASTRA's
    assert left["controlled"] == {"green": 3, "blue": 1, "grey": 2}
    assert state.astra is not None and state.astra.bonuses_circled == 0


# --- missions ----------------------------------------------------------------------------------


def test_a_mission_met_on_r_in_an_even_round_is_written_on_l() -> None:
    state = solo_battle(missions={"C": 110})
    end_turn(state, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    assert (state.turn, state.seats[0].sheet) == (2, R)
    set_sheet(state, R, {**marks_of(state, R), **battle(S={"plant": 6, "water": 4})})
    set_hand(state, SIX_ROBOT, SIX_PLANNING, EIGHT_PLANT)
    move(state, 0, pick(state, EIGHT_PLANT, SIX_ROBOT, planet="pl4"))
    move(state, 0, skip("bonus.plant"))  # pl4.s1 shows a plant
    move(state, 0, skip("action.robot"))
    move(state, 0, {"action": "give", "card": SIX_PLANNING})
    events = confirm(state, 0, claim=False)
    while (offered := engine.options(state, 0)).kind == "mission":
        events += move(state, 0, offered.options[0]) if offered.options else confirm(state, 0, claim=False)
    written = [event["data"] for event in events if event["kind"] == "mission_accomplished"]
    assert written == [{"sheet": L, "letter": "C", "card": 110, "value": 10, "box": "S.mission.C"}]
    assert marks_of(state, L)["S.mission.C"] == 10 and "S.mission.C" not in marks_of(state, R)
    assert total(state, 0)["missions"] == 10


# --- the end -----------------------------------------------------------------------------------


def test_the_players_three_missions_on_l_or_both_errors_of_one_sheet_end_the_game() -> None:
    state = solo_battle()
    set_sheet(state, L, battle(marks={"S.mission.A": 12, "S.mission.B": 9, "S.mission.C": 10}))
    assert RULES.end_reasons(state) == [{"reason": "all_missions", "seats": [0]}]
    state = solo_battle()
    set_sheet(state, L, battle(S={"error": 1}))
    set_sheet(state, R, battle(S={"error": 1}))
    assert RULES.end_reasons(state) == []  # one box on each sheet
    set_sheet(state, R, battle(S={"error": 2}))
    assert RULES.end_reasons(state) == [{"reason": "all_system_errors", "seats": [0]}]


def test_the_deck_running_out_a_second_time_ends_the_game_at_once() -> None:
    state = solo_battle()
    assert state.astra is not None
    state.astra.deck_pass = 2
    events = end_turn(state, SIX_ROBOT, rest=[])
    assert [event["kind"] for event in events] == [
        "astra_took", "card_drawn", "astra_played", "mark", "game_ended"
    ]  # fmt: skip
    assert events[-1]["data"] == {"reasons": [{"reason": "deck_exhausted", "seats": []}]}
    assert state.status == "ended"


def test_astra_filling_the_last_space_of_the_sheet_leaves_a_system_error_and_ends_the_round() -> None:
    state = solo_battle()
    full = {"pl1": "SSS", "pl2": "SSSSS", "pl3": "NNNNN", "pl4": "SSSSNNN", "pl5": "SSNNN", "pl6": "SSSSS"}
    set_sheet(state, R, battle({**full, "pl7": "SN"}))
    events = end_turn(state, FOURTEEN_ROBOT, SIX_ROBOT, SIX_PLANNING, rest=[EIGHT_PLANT, SEVEN_PLANT])
    assert played(events)["space"] == "pl7.s3"
    assert [event["kind"] for event in events][-1] == "turn_started"
    assert options(state, 0) == [{"action": "system_error", "box": "S.error.e1"}]
    move(state, 0, options(state, 0)[0])
    assert marks_of(state, R)["S.error.e1"] == CIRCLE
    give = engine.options(state, 0)
    assert give.kind == "give" and len(give.options) == 3  # any of the three cards
    move(state, 0, give.options[0])
    confirm(state, 0)
    ended = astra_part(state)
    assert ended[-1]["kind"] == "game_ended"
    assert ended[-1]["data"]["reasons"] == [{"reason": "sheet_full", "seats": [0], "sheets": [R]}]


# --- S2: the solo example, scored ---------------------------------------------------------------


def test_s2_the_human_scores_104_and_margaret_106() -> None:
    state = solo_battle(level=3)
    sheet_l = battle(
        {"pl1": "SSN", "pl2": "SSNNN", "pl3": "SNNNN", "pl4": "SSSSNNN", "pl5": "SSSNN", "pl6": "SSN"},
        {"pl2": "S", "pl5": "NN", "pl6": "S"},
        flags={"pl1": "S", "pl2": "S", "pl3": "N", "pl4": "S", "pl5": "N"},
        S={"plant": 8, "water": 6, "green": 3, "blue": 2, "grey": 2, "planning": 2},
        marks={"S.mission.A": 11, "S.mission.C": 4},
    )  # fmt: skip
    sheet_r = battle(
        {"pl1": "SNN", "pl2": "SSSNN", "pl3": "SSSNN", "pl4": "SNNNN", "pl5": "SN", "pl6": "SSSNN",
         "pl7": "N"},
        {"pl3": "S"},
        flags={"pl1": "N", "pl2": "S", "pl3": "S", "pl6": "S"},
        S={"plant": 2, "water": 2, "blue": 2, "grey": 1, "planning": 1, "error": 2},
    )  # fmt: skip
    set_sheet(state, L, sheet_l)
    set_sheet(state, R, sheet_r)
    assert state.astra is not None
    state.astra.pile = {"robot": 5, "energy": 4, "plant": 4, "water": 4, "astronaut": 4, "planning": 4}
    state.status = "ended"
    player = total(state, 0)
    assert (player["missions"], player["left"], player["right"], player["total"]) == (15, 73, 16, 104)
    result = solo.standings(state)
    assert result["astra"]["total"] == 106
    assert result["astra"]["breakdown"] == {
        "robot": 25, "energy": 16, "plant": 8, "water": 8, "astronaut": 8, "planning": 12,
        "fixed": 20, "level": 9, "total": 106,
    }  # fmt: skip
    assert result["winners"] == ["astra"] and result["scores"][0]["rank"] == 2
    # pl2 of L (3 v 3), pl7 of L (0 v 0) and pl5 of R (1 v 1): ties, the human's
    assert RULES.control(marks_of(state, L), LAYOUT.planets["pl7"], final=True, tie="S") == "S"
    assert RULES.side_score(state.sheets[R], "S", sheet_r, final=True)["controlled"]["green"] == 1
