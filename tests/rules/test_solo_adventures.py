"""ASTRA in each adventure 1-7 (the ASTRA section of each spec): what an Effect card does on the
first and the second pass, what earns ASTRA bonuses, ASTRA's score and the solo result, with
the ASTRA worked examples of the specs and of the common rules."""

from typing import Any, cast

import pytest

from games.rules import engine
from games.rules.adventures import rules_for
from games.rules.adventures.virus.rules import PROPAGATION
from games.rules.common import astra
from games.rules.core.cards import ACTIONS
from games.rules.core.events import AstraResult, AstraTrackBreakdown, Recorder
from games.rules.core.sheet import CIRCLE, CROSS, X
from games.rules.core.state import GameState
from games.rules.turn import solo
from tests.rules.playing import (
    astra_part,
    confirm,
    move,
    options,
    pick,
    refused,
    score,
    send,
    set_deck,
    set_hand,
    set_sheet,
    start_solo,
)

A, B, C = 112, 113, 114


def draw_effect(state: GameState, card: int, *, deck_pass: int = 1) -> list[Any]:
    """End the player's turn (the first card of the hand left over for ASTRA) with ``card`` on
    top of the deck, and play ASTRA's part up to where it stops."""
    assert state.astra is not None
    set_deck(state, card)
    state.astra.deck_pass = deck_pass
    state.astra.given = state.astra.hand[0]
    state.seats[0].confirmed = True
    state.decisions.clear()
    return astra_part(state)


def targets(state: GameState) -> list[str]:
    decision = engine.options(state, 0)
    assert decision.kind == "effect"
    return [cast(engine.AstraEffectOption, option)["target"] for option in decision.options]


def choose(state: GameState, card: int, target: str) -> list[Any]:
    return move(state, 0, {"action": "astra_effect", "card": card, "target": target})


def infect_as_listed(state: GameState) -> list[Any]:
    """The spaces a propagation set off by ASTRA's effect infects, each the first listed: ASTRA's
    part waits for them, then goes on."""
    events: list[Any] = []
    while (decision := engine.options(state, 0)).kind == "effect":
        assert {option["action"] for option in decision.options} == {"infect"}
        assert not solo.astra_due(state)
        events += move(state, 0, decision.options[0])
    return events + astra_part(state)


def kinds(events: list[Any]) -> list[str]:
    return [event["kind"] for event in events]


def marks(state: GameState) -> dict[str, Any]:
    return state.sheets[0].marks


def pile(robot: int, energy: int, plant: int, water: int, astronaut: int, planning: int) -> dict[str, int]:
    return dict(zip(ACTIONS, (robot, energy, plant, water, astronaut, planning), strict=True))


# --- the level table and ASTRA's score (common rules 10.2, 10.7) --------------------------


@pytest.mark.parametrize("level", range(1, 9))
def test_each_level_plays_its_opponent_card(level: int) -> None:
    state = start_solo(3, level)
    foe = astra.opponent(level)
    assert state.astra is not None
    assert (state.astra.level, state.astra.name, state.astra.multipliers) == (
        level, foe.name, dict(foe.multipliers)
    )
    state.astra.pile = pile(1, 1, 1, 1, 1, 1)
    assert solo.astra_score(state)["total"] == sum(foe.multipliers.values()) + 10 + 3 * level


@pytest.mark.parametrize(
    ("adventure", "level", "cards", "total"),
    [
        (3, 3, pile(5, 3, 4, 2, 3, 4), 86),  # common C-S1
        (2, 1, pile(6, 7, 5, 2, 1, 2), 64),  # common C-S5
        (6, 3, pile(4, 3, 5, 2, 2, 3), 76),  # adventure 6, 14.8
    ],
)
def test_astra_score_examples(adventure: int, level: int, cards: dict[str, int], total: int) -> None:
    state = start_solo(adventure, level)
    assert state.astra is not None
    state.astra.pile = cards
    breakdown = solo.astra_score(state)["breakdown"]
    assert breakdown["total"] == total
    assert engine.game_view(state, viewer=0)["astra"]["score"] == total


def test_c_s1_every_part_of_margarets_score() -> None:
    state = start_solo(3, 3)
    assert state.astra is not None
    state.astra.pile = pile(5, 3, 4, 2, 3, 4)
    assert solo.astra_score(state)["breakdown"] == {
        "robot": 25, "energy": 12, "plant": 8, "water": 4, "astronaut": 6, "planning": 12,
        "fixed": 10, "level": 9, "total": 86,
    }


# --- adventure 1: the rocket track, sabotages ----------------------------------------------


def test_a1_t5_astra_crosses_its_track_by_the_multiplier_of_each_card() -> None:
    state = start_solo(1, 1)
    assert state.astra is not None

    def track() -> tuple[int, int]:
        breakdown = cast(AstraTrackBreakdown, solo.astra_score(state)["breakdown"])
        return breakdown["boxes_crossed"], breakdown["total"]

    assert track() == (15, 10)
    for action, expected in (("planning", (19, 20)), ("astronaut", (20, 20)), ("water", (23, 30))):
        state.astra.pile[action] += 1
        assert track() == expected


@pytest.mark.parametrize(
    ("level", "crossed"), [(1, 15), (2, 12), (3, 10), (4, 8), (5, 6), (6, 4), (7, 2), (8, 0)]
)
def test_a1_track_setup_by_level(level: int, crossed: int) -> None:
    breakdown = cast(AstraTrackBreakdown, solo.astra_score(start_solo(1, level))["breakdown"])
    assert breakdown["boxes_crossed"] == crossed


def test_a1_astra_launches_at_its_81st_box_and_the_game_ends_with_the_turn() -> None:
    state = start_solo(1, 8)
    assert state.astra is not None
    state.astra.pile = pile(16, 0, 0, 0, 0, 0)  # 80 boxes: one more robot launches
    robot = 3  # 2 / robot: Peggy's robot multiplier is 5
    set_hand(state, robot, 4, 5)
    state.astra.given, state.seats[0].confirmed = robot, True
    events = astra_part(state)
    assert kinds(events) == ["astra_took", "game_ended"]
    assert events[-1]["data"]["reasons"] == [{"reason": "astra_launched", "seats": []}]
    result = solo.standings(state)
    assert result["astra"]["total"] == 150 and result["winners"] == ["astra"]


@pytest.mark.parametrize(
    ("player_launched", "tiebreak", "astra_launched", "player_total", "astra_total", "winner"),
    [
        (True, 0, False, 150, 140, "player"),
        (False, 0, True, 145, 150, "astra"),
        (True, 1, True, 150, 150, "player"),
        (True, 0, True, 150, 150, None),
        (False, 0, False, 60, 50, "player"),
        (False, 0, False, 50, 50, None),
    ],
)
def test_a1_winner_table(
    player_launched: bool, tiebreak: int, astra_launched: bool, player_total: int,
    astra_total: int, winner: str | None,
) -> None:
    player = {"launched": player_launched, "tiebreak_rockets": tiebreak, "total": player_total}
    track: AstraTrackBreakdown = {"boxes_crossed": 0, "launched": astra_launched, "total": astra_total}
    theirs: AstraResult = {"total": astra_total, "breakdown": track}
    assert rules_for(1).solo_winner(start_solo(1), player, theirs) == winner


@pytest.mark.parametrize("deck_pass", [1, 2])
def test_a1_effect_crosses_a_sabotage_of_the_players_choice_and_circles_an_error(deck_pass: int) -> None:
    state = start_solo(1)
    events = draw_effect(state, B, deck_pass=deck_pass)
    assert ("mission_flipped" in kinds(events)) == (deck_pass == 2)
    assert len(targets(state)) == 8
    assert engine.options(state, 0).options[0] == {
        "action": "astra_effect", "card": B, "target": targets(state)[0]
    }
    assert refused(state, 0, {"action": "astra_effect", "target": "f1.q1.sabotage"}) == (
        "astra_target_not_available"
    )
    with pytest.raises(engine.OutOfTurn):
        engine.decide(state, 0, {"type": "confirm"})
    choose(state, B, "f3.q1.sabotage1")
    assert marks(state)["f3.q1.sabotage1"] == CROSS
    assert sum(1 for box in state.sheets[0].error_boxes if marks(state).get(box) == CIRCLE) == 1
    assert engine.options(state, 0).kind == "wait"  # ASTRA's part goes on: the hand is drawn
    assert kinds(astra_part(state))[-1] == "turn_started"
    assert engine.options(state, 0).kind == "choose"
    assert ("B" in state.flipped_missions) == (deck_pass == 2)


def test_a1_effect_with_no_sabotage_left_still_circles_an_error() -> None:
    """Adventure 1 D7: the error is circled even with every sabotage gone."""
    state = start_solo(1)
    set_sheet(state, 0, {symbol: CROSS for symbol in rules_for(1).sabotages})  # type: ignore[attr-defined]
    events = draw_effect(state, C)
    assert kinds(events)[-1] == "turn_started"  # nothing to choose: resolved by ASTRA
    assert [e["data"]["cause"] for e in events if e["kind"] == "system_error"] == ["astra_effect"]


def test_a1_a_sabotage_triggered_circles_one_bonus_and_hits_nobody() -> None:
    state = start_solo(1)
    rec = Recorder(state)
    rec.mark(0, element="f7.q1.sabotage", mark="triggered")
    solo.circle_bonuses(rec, 0, since=0)
    rules_for(1).incidents(rec)
    assert kinds(rec.events) == ["mark", "astra_bonus", "mark"]
    assert rec.events[-1]["data"]["mark"] == CROSS
    assert rec.state.astra is not None and rec.state.astra.bonuses_circled == 1


# --- adventures 2, 3, 4: Effect cards A and B only -----------------------------------------


def test_a2_effect_crosses_a_big_multiplier_and_card_c_acts_only_by_its_flip() -> None:
    state = start_solo(2)
    draw_effect(state, A)
    bigs = [station.mult_big for station in rules_for(2).layout.stations]
    assert targets(state) == bigs
    choose(state, A, bigs[1])
    assert marks(state)[bigs[1]] == CROSS
    astra_part(state)

    before = dict(marks(state))
    events = draw_effect(state, C)
    assert kinds(events)[-1] == "turn_started" and "mission_flipped" not in kinds(events)
    assert marks(state) == before
    events = draw_effect(state, C, deck_pass=2)
    flipped = [e["data"] for e in events if e["kind"] == "mission_flipped"]
    assert flipped == [{"letter": "C", "card": state.missions["C"]}]
    assert marks(state) == before


def test_a3_effect_example_tl_circled_br_crossed_leaves_tr_and_bl_to_choose() -> None:
    state = start_solo(3)
    set_sheet(state, 0, {"qbonus.TL.15": CIRCLE, "qbonus.BR.15": CROSS})
    draw_effect(state, B)
    assert targets(state) == ["qbonus.TR.15", "qbonus.BL.15"]
    choose(state, B, "qbonus.TR.15")
    assert marks(state)["qbonus.TR.15"] == CROSS
    rules = rules_for(3)
    assert rules.astra_bonuses("qbonus.TR.5", CIRCLE) == 0  # a quarter for 5 earns nothing
    assert rules.astra_bonuses("qbonus.BL.15", CIRCLE) == 2


def test_a4_a_single_filling_bonus_left_is_crossed_by_astra_itself() -> None:
    state = start_solo(4)
    bonuses = rules_for(4).race_elements()
    set_sheet(state, 0, {bonus: CIRCLE for bonus in bonuses[1:]})
    events = draw_effect(state, A)
    assert kinds(events)[-1] == "turn_started"
    assert [e["data"]["target"] for e in events if e["kind"] == "astra_effect"] == [bonuses[0]]
    assert marks(state)[bonuses[0]] == CROSS
    assert rules_for(4).astra_bonuses(bonuses[0], CIRCLE) == 2


# --- adventure 5: the Dome -------------------------------------------------------------------


def test_a5_card_c_crosses_a_high_skyscraper_bonus_too() -> None:
    state = start_solo(5)
    draw_effect(state, C)
    assert targets(state) == list(rules_for(5).race_elements())
    choose(state, C, "sk4.bottom.high")
    assert marks(state)["sk4.bottom.high"] == CROSS


def _sk3_below_its_top(state: GameState, **extra: str) -> None:
    """Skyscraper 3 numbered up to its 6th level above ground, 13 left for its top."""
    run = dict(zip(rules_for(5).layout.skyscrapers["sk3"][2:-1], (4, 5, 6, 7, 9, 10, 12), strict=True))
    set_sheet(state, 0, {**run, **extra})


@pytest.mark.parametrize("by_planning", [False, True])
def test_a5_a_high_skyscraper_bonus_circles_two_astra_bonuses(by_planning: bool) -> None:
    """13 on the top of skyscraper 3, or a Planning X there after 11 on another level."""
    state = start_solo(5)
    _sk3_below_its_top(state)
    set_hand(state, 59, 8, 49)  # 13 / planning, 4 / energy, 11 / robot
    if by_planning:
        move(state, 0, pick(state, 49, 59, space="sk1.u1"))
        move(state, 0, {"action": "planning", "effect": "action.planning", "space": "sk3.u7"})
    else:
        move(state, 0, pick(state, 59, 8, space="sk3.u7"))
    assert marks(state)["sk3.top.high"] == CIRCLE
    assert state.astra is not None and state.astra.bonuses_circled == 2


def test_a5_the_low_value_of_a_skyscraper_end_earns_no_astra_bonus() -> None:
    state = start_solo(5)
    _sk3_below_its_top(state, **{"sk3.top.high": CROSS})
    set_hand(state, 59, 8, 49)
    move(state, 0, pick(state, 59, 8, space="sk3.u7"))
    assert marks(state)["sk3.top.low"] == CIRCLE
    assert state.astra is not None and state.astra.bonuses_circled == 0


def test_a5_effect_with_every_high_bonus_taken_or_lost_does_nothing() -> None:
    state = start_solo(5)
    highs = rules_for(5).race_elements()
    set_sheet(state, 0, {high: CIRCLE if index % 2 else CROSS for index, high in enumerate(highs)})
    before = dict(marks(state))
    events = draw_effect(state, B)
    assert [e["data"]["target"] for e in events if e["kind"] == "astra_effect"] == [None]
    assert kinds(events)[-1] == "turn_started" and marks(state) == before


def test_a5_second_pass_effect_flips_the_mission_so_the_player_circles_its_eight_pointed_star() -> None:
    state = start_solo(5, missions={"A": 89, "B": 90, "C": 92})
    _sk3_below_its_top(state, **{"sk1.u3": "X"})
    draw_effect(state, A, deck_pass=2)
    choose(state, A, "sk4.bottom.high")
    assert "A" in state.flipped_missions and marks(state)["sk4.bottom.high"] == CROSS
    astra_part(state)
    set_hand(state, 59, 8, 49)
    move(state, 0, pick(state, 59, 8, space="sk3.u7"))  # a second top level: mission 89
    move(state, 0, {"action": "skip", "effect": "action.energy"})
    move(state, 0, {"action": "give", "card": 49})
    confirm(state, 0, claim=False)
    move(state, 0, {"action": "claim_mission", "letter": "A"})
    send(state, 0, {"type": "confirm"})
    assert marks(state)["mission.A.later"] == CIRCLE and "mission.A.first" not in marks(state)
    assert score(state, 0)["missions"] == 4


@pytest.mark.parametrize(("crossed", "astra_cards", "points"), [(0, 0, 0), (1, 0, -10), (2, 3, 0)])
def test_a5_the_player_leads_the_astronauts_with_as_many_as_astra_holds(
    crossed: int, astra_cards: int, points: int
) -> None:
    state = start_solo(5)
    astronauts = rules_for(5).layout.astronaut_symbols[:crossed]
    set_sheet(state, 0, {symbol: CROSS for symbol in astronauts})
    assert state.astra is not None
    state.astra.pile["astronaut"] = astra_cards
    assert score(state, 0)["astronauts"] == points


# --- adventure 6: the Virus --------------------------------------------------------------------


def test_a6_first_pass_wakes_green_or_blue_then_one_propagation() -> None:
    """14.8: card B on the first pass, neither green nor blue active: the player picks blue."""
    state = start_solo(6)
    draw_effect(state, B)
    assert targets(state) == ["act.green", "act.blue"]
    infected_before = _infected(state)
    events = choose(state, B, "act.blue")
    assert marks(state)["act.blue"] == CROSS and marks(state)["q4M.target"] == CIRCLE
    events += infect_as_listed(state)  # grey in q1L and blue in q4M: the player's spaces
    assert len(_infected(state)) == len(infected_before) + 2  # one propagation at once
    assert "astra_bonus" not in kinds(events)  # what ASTRA wakes earns no bonus
    assert kinds(events)[-1] == "turn_started"


def test_a6_first_pass_with_both_awake_crosses_a_propagation_symbol_then_propagates() -> None:
    state = start_solo(6)
    set_sheet(state, 0, {**marks(state), "act.green": CROSS, "q2M.target": CIRCLE,
                         "act.blue": CROSS, "q4M.target": CIRCLE})  # fmt: skip
    draw_effect(state, A)
    symbols = list(rules_for(6).layout.propagation_symbols)
    assert targets(state) == symbols
    before = _infected(state)
    choose(state, A, symbols[2])
    infect_as_listed(state)
    assert marks(state)[symbols[2]] == CROSS and len(_infected(state)) > len(before)


def test_a6_second_pass_flips_the_mission_and_wakes_its_virus_unless_awake() -> None:
    """14.8: card C on the second pass flips mission C and wakes yellow with a propagation."""
    state = start_solo(6)
    before = _infected(state)
    events = draw_effect(state, C, deck_pass=2)
    assert "C" in state.flipped_missions
    assert marks(state)["act.yellow"] == CROSS and marks(state)["q5M.target"] == CIRCLE
    assert kinds(events)[-1] != "turn_started"  # the player chooses where grey and yellow infect
    events += infect_as_listed(state)
    assert len(_infected(state)) > len(before)
    assert kinds(events)[-1] == "turn_started"

    again = _infected(state)
    events = draw_effect(state, C, deck_pass=2)  # yellow already awake: nothing more
    assert _infected(state) == again and "mission_flipped" not in kinds(events)


def test_a6_bonuses_for_the_players_own_activations_and_propagation_symbols() -> None:
    rules = rules_for(6)
    assert rules.astra_bonuses("act.green", CROSS) == 1
    assert rules.astra_bonuses("prop.water1", CROSS) == 1
    assert rules.astra_bonuses("q2M.target", CIRCLE) == 0


def _infected(state: GameState) -> list[str]:
    return sorted(e for e, mark in marks(state).items() if str(mark).startswith("infected"))


# Cards of the solo hands below: 7 / Plant, 5 / Robot, 14 / Robot.
PLANT7, ROBOT5, ROBOT14 = 26, 12, 60
PLANT_ROWS_1_2 = {f"plant.t0{n}": CROSS for n in range(1, 5)} | {
    f"plant.{box}{n}": CROSS for box in ("box", "bonus") for n in (1, 2)
}


def a6_turn(state: GameState, choice: dict[str, Any]) -> list[Any]:
    """A solo turn of the Virus up to ASTRA's part: the pick, its steps with their first
    options, the card left over given to ASTRA, the confirmation, then phase 5's infections and
    phase 6's claims with the first options (every mission offered is claimed)."""
    events = move(state, 0, choice)
    while engine.options(state, 0).kind == "effect":
        events += move(state, 0, options(state, 0)[0])
    events += move(state, 0, options(state, 0)[0])  # the card left over, to ASTRA
    events += send(state, 0, {"type": "confirm"})
    while state.status == "playing" and (decision := engine.options(state, 0)).kind in ("effect", "mission"):
        if decision.options:
            events += move(state, 0, decision.options[0])
        else:
            events += send(state, 0, {"type": "confirm"})
    return events


def propagations(events: list[Any]) -> int:
    """The propagations the events leave the player to suffer."""
    return sum(
        event["data"]["effects"].count(PROPAGATION) for event in events if event["kind"] == "effects_pending"
    )


def bonuses(events: list[Any]) -> list[str]:
    return [event["data"]["element"] for event in events if event["kind"] == "astra_bonus"]


def test_a6_a_propagation_symbol_of_the_player_earns_a_bonus_and_costs_no_propagation() -> None:
    """Spec 11: the symbol only hits the others, of whom there are none in solo."""
    state = start_solo(6)
    set_sheet(state, 0, marks(state) | PLANT_ROWS_1_2 | {
        "plant.t05": CROSS, "plant.t06": CROSS, "plant.t07": CROSS, "plant.box3": CROSS,
        "plant.bonus3": CROSS, "act.green": CROSS, "q2M.target": CIRCLE,
    })  # fmt: skip
    set_hand(state, PLANT7, ROBOT5, ROBOT14)
    events = a6_turn(state, pick(state, ROBOT5, PLANT7, space="floor3.s5"))
    assert marks(state)["plant.t08"] == CROSS and marks(state)["prop.plant1"] == CROSS
    assert bonuses(events) == ["prop.plant1"]
    assert propagations(events) == 0


def test_a6_a_virus_the_player_wakes_earns_a_bonus_and_one_propagation() -> None:
    state = start_solo(6)
    set_sheet(state, 0, marks(state) | PLANT_ROWS_1_2)
    set_hand(state, PLANT7, ROBOT5, ROBOT14)
    events = a6_turn(state, pick(state, ROBOT5, PLANT7, space="floor3.s5"))
    assert marks(state)["plant.t05"] == CROSS and marks(state)["q2M.target"] == CIRCLE
    assert bonuses(events) == ["act.green"]
    assert propagations(events) == 1


def test_a6_a_first_claim_earns_a_bonus_and_its_virus_one_propagation() -> None:
    state = start_solo(6, missions={"A": 94, "B": 96, "C": 98})
    full = {space: X for space in (*_spaces("q2R"), *_spaces("q5R"))}
    set_sheet(state, 0, marks(state) | full)
    set_hand(state, PLANT7, ROBOT5, ROBOT14)
    events = a6_turn(state, pick(state, ROBOT5, PLANT7, space="floor3.s5"))
    assert marks(state)["mission.A"] == 8 and marks(state)["q1M.target"] == CIRCLE
    assert bonuses(events) == ["act.red"]
    assert propagations(events) == 1


def test_a6_a_virus_astra_woke_costs_no_propagation_in_the_next_phase_5() -> None:
    """Spec 6.3: the Effect card's single propagation is all that virus costs."""
    state = start_solo(6)
    draw_effect(state, B)
    choose(state, B, "act.blue")
    infect_as_listed(state)
    set_hand(state, PLANT7, ROBOT5, ROBOT14)
    events = a6_turn(state, pick(state, PLANT7, ROBOT5, space="floor3.s8"))
    assert propagations(events) == 0 and bonuses(events) == []


def test_a6_a_mission_astra_flipped_gives_its_later_value_wakes_nothing_and_earns_nothing() -> None:
    state = start_solo(6, missions={"A": 94, "B": 96, "C": 98})
    draw_effect(state, A, deck_pass=2)
    infect_as_listed(state)
    assert "A" in state.flipped_missions and marks(state)["q1M.target"] == CIRCLE
    full = {space: X for space in (*_spaces("q2R"), *_spaces("q5R"))}
    set_sheet(state, 0, marks(state) | full)
    set_hand(state, PLANT7, ROBOT5, ROBOT14)
    events = a6_turn(state, pick(state, ROBOT5, PLANT7, space="floor3.s5"))
    assert marks(state)["mission.A"] == 3
    assert propagations(events) == 0 and bonuses(events) == []


def test_a6_error_2_gives_one_propagation_and_no_bonus() -> None:
    """Spec 8 and 12.2: the System Error's propagation is the player's own, and earns nothing."""
    state = start_solo(6)
    # 16 leftmost on every floor (grey infected floor1.s1): the hand's 5, 7 and 14 fit nowhere
    high = {"floor1.s2": 16} | {f"floor{n}.s1": 16 for n in range(2, 6)}
    set_sheet(state, 0, marks(state) | high | {"error.1": CIRCLE})
    set_hand(state, PLANT7, ROBOT5, ROBOT14)
    (error,) = options(state, 0)
    events = a6_turn(state, error)
    assert marks(state)["error.2"] == CIRCLE
    assert propagations(events) == 1 and bonuses(events) == []


@pytest.mark.parametrize("awake", ["act.green", "act.blue"])
def test_a6_first_pass_wakes_the_one_of_green_and_blue_still_asleep_without_asking(awake: str) -> None:
    layout = rules_for(6).layout
    asleep = next(act for act in layout.track_activations if act != awake)
    state = start_solo(6)
    set_sheet(state, 0, marks(state) | {awake: CROSS, layout.activation_target[awake]: CIRCLE})
    events = draw_effect(state, A)
    assert "astra_effect" in kinds(events)
    assert marks(state)[asleep] == CROSS and marks(state)[layout.activation_target[asleep]] == CIRCLE


def test_a6_first_pass_with_nothing_left_to_wake_or_cross_still_propagates() -> None:
    """Spec 12.6, the recommended reading."""
    layout = rules_for(6).layout
    state = start_solo(6)
    woken = {act: CROSS for act in layout.track_activations}
    woken |= {layout.activation_target[act]: CIRCLE for act in layout.track_activations}
    set_sheet(state, 0, marks(state) | woken | {s: CROSS for s in layout.propagation_symbols})
    before = _infected(state)
    events = draw_effect(state, C)
    events += infect_as_listed(state)
    assert "astra_effect" in kinds(events) and propagations(events) == 1
    assert len(_infected(state)) == len(before) + 3  # grey, green and blue each infect once


def _spaces(quarter: str) -> tuple[str, ...]:
    return rules_for(6).layout.quarters[quarter].spaces


# --- adventure 7: the Escape ---------------------------------------------------------------------


@pytest.mark.parametrize("deck_pass", [1, 2])
def test_a7_effect_crosses_a_greenhouse_x2_and_on_the_second_pass_flips_its_mission(deck_pass: int) -> None:
    state = start_solo(7)
    draw_effect(state, A, deck_pass=deck_pass)
    assert targets(state) == list(rules_for(7).race_elements())
    choose(state, A, "x2.3")
    assert marks(state)["x2.3"] == CROSS
    assert ("A" in state.flipped_missions) == (deck_pass == 2)
    assert rules_for(7).astra_bonuses("x2.3", CIRCLE) == 1


def test_a_mission_flipped_by_astra_gives_only_its_later_value() -> None:
    state = start_solo(7)
    draw_effect(state, B, deck_pass=2)
    choose(state, B, "x2.1")
    astra_part(state)
    values = state.mission_values["B"]
    from games.rules.common.missions import gives_first_value

    assert not gives_first_value(state, "B") and values["later"] < values["first"]
    assert options(state, 0)  # the next turn is the player's


def test_a7_each_x2_circled_by_a_number_or_an_x_circles_an_astra_bonus() -> None:
    planning_12, water_7, robot_5 = 56, 28, 12
    state = start_solo(7)
    greenhouses_open = {f"airlock.{code}": "line" for code in ("1A-1G", "1A-2A", "2A-2B", "2B-2G")}
    set_sheet(state, 0, {**rules_for(7).layout.printed_marks, **greenhouses_open})
    set_hand(state, planning_12, water_7, robot_5)
    move(state, 0, pick(state, water_7, planning_12, space="ship1.s5"))
    assert state.astra is not None and state.astra.bonuses_circled == 1
    move(state, 0, {"action": "planning", "effect": "action.planning", "space": "ship2.s7"})
    assert (marks(state)["x2.1"], marks(state)["x2.2"]) == (CIRCLE, CIRCLE)
    assert state.astra.bonuses_circled == 2
    assert rules_for(7).astra_card["bonus_boxes"] == len(rules_for(7).race_elements()) == 6


@pytest.mark.parametrize("deck_pass", [1, 2])
def test_a7_effect_with_no_x2_left_crosses_nothing_but_still_flips_its_mission(deck_pass: int) -> None:
    state = start_solo(7)
    every_x2 = {x2: CROSS for x2 in rules_for(7).race_elements()}
    set_sheet(state, 0, {**rules_for(7).layout.printed_marks, **every_x2})
    before = dict(marks(state))
    draw_effect(state, A, deck_pass=deck_pass)
    assert marks(state) == before
    assert ("A" in state.flipped_missions) == (deck_pass == 2)
    assert engine.options(state, 0).kind == "choose"


def test_a1_effect_on_the_last_error_box_leaves_a_system_error_that_marks_no_box() -> None:
    """ASTRA's Effect card circles the player's last System Error box before their pick; with
    no pair to write, the System Error is still theirs to take (marking nothing), a card is
    given, and the game ends with that turn."""
    state = start_solo(1)
    rules = rules_for(1)
    boxes = state.sheets[0].error_boxes
    # One empty space left, before a 0: no number can go there.
    first, second = list(rules.layout.floors["f1"]["spaces"])[:2]
    filled: dict[str, Any] = {space: X for space in rules.layout.spaces if space != first}
    set_sheet(state, 0, filled | {second: 0} | {box: CIRCLE for box in boxes[:-1]})
    draw_effect(state, C)
    choose(state, C, targets(state)[0])
    assert marks(state)[boxes[-1]] == CIRCLE
    astra_part(state)
    assert options(state, 0) == [{"action": "system_error", "box": None}]
    assert refused(state, 0, {"action": "system_error", "box": boxes[0]}) == "error_box_not_free"
    before = dict(marks(state))
    (error,) = move(state, 0, {"action": "system_error", "box": None})
    assert error["kind"] == "system_error" and error["data"]["box"] is None
    assert marks(state) == before
    move(state, 0, options(state, 0)[0])
    events = confirm(state, 0, claim=False)
    while (offered := engine.options(state, 0)).kind == "mission":  # the sheet's missions
        if offered.options:
            events += move(state, 0, offered.options[0])
        else:
            events += send(state, 0, {"type": "confirm"})
    (ended,) = [event for event in events + astra_part(state) if event["kind"] == "game_ended"]
    assert "all_system_errors" in {reason["reason"] for reason in ended["data"]["reasons"]}
