"""The worked examples of the common rules (common.md §15), one test each."""

from typing import cast

import pytest

from games.rules import engine
from games.rules.adventures import rules_for
from games.rules.adventures.launch.rules import LaunchRules
from games.rules.common import astra, missions
from games.rules.common.base import astronaut_numbers, rank_awards
from games.rules.core.cards import CARDS, Combination, Stack, chosen_combination, flip
from games.rules.core.sheet import Marks, X, placement_problem
from games.rules.turn import solo
from tests.rules import journey_helpers as journey
from tests.rules import playing
from tests.rules.launch_helpers import (
    LAYOUT,
    build,
    circled,
    confirm,
    errors,
    floor_spaces,
    move,
    numbers,
    reveal,
    set_sheet,
    start,
    system_error,
    write,
    xs,
)

# --- scoring examples --------------------------------------------------------------------


def test_c_s1_astra_final_score_adventure_3_against_margaret() -> None:
    pile = {"robot": 5, "energy": 3, "plant": 4, "water": 2, "astronaut": 3, "planning": 4}

    score = astra.astra_score(3, 3, pile)

    assert astra.opponent(3).name == "Margaret"
    assert score.by_action == {
        "robot": 25, "energy": 12, "plant": 8, "water": 4, "astronaut": 6, "planning": 12
    }
    assert (score.fixed, score.level, score.total) == (10, 9, 86)
    # 4 astronauts crossed off against 3 Astronaut cards given to ASTRA: first, 20 points.
    assert astra.solo_rank_award(4, pile["astronaut"], (20, 10)) == 20
    assert astra.solo_rank_award(2, pile["astronaut"], (20, 10)) == 10
    assert astra.solo_winner(84, score.total) == "astra"


def test_c_s1_removed_cards_are_not_in_the_pile_and_adventure_1_has_no_formula() -> None:
    pile = {"robot": 5, "energy": 3, "plant": 4, "water": 2, "astronaut": 3, "planning": 4}
    # Two more robots in the pile would be 10 more points: removed cards must be left out.
    assert astra.astra_score(3, 3, {**pile, "robot": 7}).total == 96
    with pytest.raises(engine.RuleViolation) as refused:
        astra.astra_score(1, 3, pile)
    assert refused.value.code == "astra_scores_on_track"
    with pytest.raises(engine.RuleViolation) as refused:
        astra.astra_score(3, 9, pile)
    assert refused.value.code == "unknown_opponent"


def test_c_s2_final_standings_tie_break_on_system_errors_then_shared(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ana, Ben, Chloé, Dev: their totals, and the System Error boxes marked on their sheets.
    totals, system_errors = [78, 78, 78, 71], [1, 1, 2, 0]
    state = playing.start_game(4, 4, seed=1)  # The Mine: ranked by the common rule
    for seat, count in enumerate(system_errors):
        playing.set_sheet(state, seat, {box: "circle" for box in state.sheets[seat].error_boxes[:count]})
    rules = rules_for(4)
    monkeypatch.setattr(rules, "seat_score", lambda state, seat: {"total": totals[seat]})

    standings = rules.standings(state)

    assert [score["rank"] for score in standings["scores"]] == [1, 1, 2, 3]
    assert standings["winners"] == [0, 1]


def test_c_s3_rank_award_with_ties_is_dense_and_nothing_at_zero() -> None:
    awards = (20, 10, 5)

    assert rank_awards([6, 6, 4, 2, 0], awards, zero_scores=False) == [20, 20, 10, 5, 0]
    # The common note's example, and a count of 0 that does score when the award allows it.
    assert rank_awards([6, 6, 4, 2], awards, zero_scores=False) == [20, 20, 10, 5]
    assert rank_awards([3, 0], awards, zero_scores=True) == [20, 10]
    # Positions past the printed awards earn nothing.
    assert rank_awards([4, 3, 2, 1], awards, zero_scores=False) == [20, 10, 5, 0]


def test_c_s4_mission_values_over_time_first_turn_high_later_low_kept_once_won() -> None:
    """Adventure 2, mission B card 72 (two complete zones of exactly 6 spaces), 11 then 6."""
    assert missions.values_of({"B": 72}) == {"B": {"first": 11, "later": 6}}
    ana, ben, chloe, dev = range(4)
    state = journey.start(4, missions={"A": 70, "B": 72, "C": 74})
    # Walls after s06 and s12 (two energy pairs spent). Ana and Chloé lack s12 only, Ben s11
    # and s12, Dev has not finished his first zone.
    walls = journey.walls(6, 12)
    for seat in (ana, chloe):
        journey.set_sheet(state, seat, walls, journey.energies(5), journey.fill(*range(1, 12)))
    journey.set_sheet(state, ben, walls, journey.energies(4), journey.fill(*range(1, 11)))
    journey.set_sheet(state, dev, walls, journey.energies(4), journey.fill(*range(1, 6)))

    def turn(moves: dict[int, list[dict[str, object]]]) -> None:
        journey.reveal(state, (5, "energy"), (6, "robot"), (7, "robot"))
        for seat, choices in moves.items():
            for choice in choices:
                journey.move(state, seat, choice)
        journey.confirm_all(state)

    def mission_b() -> list[object]:
        return [state.sheets[seat].marks.get("mission.B") for seat in range(4)]

    robot = journey.skip("action.robot")
    energy = journey.skip("action.energy")
    # "Turn 9": Ana and Chloé both complete their second zone of 6: 11 each; the card flips.
    turn({
        ana: [journey.write(1, "traj.s12", 6), robot],
        ben: [journey.write(1, "traj.s11", 6), robot],
        chloe: [journey.write(1, "traj.s12", 6), robot],
        dev: [journey.write(1, "traj.s30", 6), robot],
    })
    assert mission_b() == [11, None, 11, None]
    assert engine.game_view(state, viewer=None)["missions"][1]["flipped"] is True

    # "Turn 10": Ben accomplishes it: the later value.
    turn({
        ana: [journey.write(1, "traj.s20", 6), robot],
        ben: [journey.write(2, "traj.s12", 7), robot],
        chloe: [journey.write(1, "traj.s20", 6), robot],
        dev: [journey.write(2, "traj.s31", 7), robot],
    })
    assert mission_b() == [11, 6, 11, None]

    # "Turn 12": a new wall splits one of Ana's zones of 6; she keeps her 11.
    turn({
        ana: [
            journey.write(0, "traj.s13", 5),
            journey.use("action.energy"),
            journey.draw_wall("energy.w3", "wall.03"),
        ],
        ben: [journey.write(0, "traj.s13", 5), energy],
        chloe: [journey.write(0, "traj.s13", 5), energy],
        dev: [journey.write(0, "traj.s29", 5), energy],
    })
    assert not journey.RULES.mission_holds(state, ana, 72)
    assert mission_b() == [11, 6, 11, None]
    assert [journey.score(state, seat)["missions"] for seat in range(4)] == [11, 6, 11, 0]


def test_c_s5_solo_comparison_adventure_2_against_katherine() -> None:
    pile = {"robot": 6, "energy": 7, "plant": 5, "water": 2, "astronaut": 1, "planning": 2}

    score = astra.astra_score(2, 1, pile)

    assert astra.opponent(1).name == "Katherine"
    assert score.by_action == {
        "robot": 12, "energy": 21, "plant": 10, "water": 6, "astronaut": 1, "planning": 8
    }
    assert sum(score.by_action.values()) == 58
    assert (score.fixed, score.level, score.total) == (5, 1, 64)
    assert astra.solo_winner(92, score.total) == "player"
    assert 92 - score.total == 28
    assert astra.solo_winner(64, score.total) is None  # an exact tie is a draw


# --- turn-by-turn examples ---------------------------------------------------------------


def _stacks_with_41_then_6_on_stack_2() -> list[Stack]:
    """Three hand-built stacks of 21: stack 2 starts with card 41 (9/water), then card 6
    (3/astronaut)."""
    rest = [card for card in sorted(CARDS) if card not in (41, 6)]
    return [
        Stack(rest[0:21]),
        Stack([41, 6, *rest[21:40]]),
        Stack(rest[40:61]),
    ]


def test_c_t1_flipping_and_the_first_reshuffle() -> None:
    stacks = _stacks_with_41_then_6_on_stack_2()
    originals = [list(stack.draw) for stack in stacks]
    assert (CARDS[41].number, CARDS[41].action) == (9, "water")
    assert (CARDS[6].number, CARDS[6].action) == (3, "astronaut")

    combinations, reshuffled = flip(stacks, seed=5, turn=1)

    assert combinations[1] == Combination(1, 3, "water")  # the 9 of card 41 is never used
    assert stacks[1].discard == [41]
    assert reshuffled == []
    combinations, _ = flip(stacks, seed=5, turn=2)
    assert combinations[1].action == "astronaut"
    assert combinations[1].number == CARDS[originals[1][2]].number
    for turn in range(3, 21):
        _, reshuffled = flip(stacks, seed=5, turn=turn)
        assert reshuffled == []

    combinations, reshuffled = flip(stacks, seed=5, turn=21)

    assert reshuffled == [0, 1, 2]
    for index, stack in enumerate(stacks):
        last = originals[index][20]
        assert stack.discard == [last]  # the 21st card stays out, its action in play
        assert sorted(stack.draw) == sorted(originals[index][:20])  # its own pile only
        assert combinations[index] == Combination(
            index, CARDS[stack.draw[0]].number, CARDS[last].action
        )
    # Then every 20 turns.
    for turn in range(22, 41):
        assert flip(stacks, seed=5, turn=turn)[1] == []
    assert flip(stacks, seed=5, turn=41)[1] == [0, 1, 2]


ZONE = [f"z.s{index}" for index in range(1, 8)]
ZONE_MARKS: Marks = {"z.s1": 2, "z.s3": X, "z.s4": 5, "z.s7": 9}


def _problem(space: int, number: int) -> str | None:
    problem = placement_problem(ZONE_MARKS, ZONE, f"z.s{space}", number, zone_name="the zone")
    return None if problem is None else problem.code


def test_c_t2_ordering_inside_a_zone() -> None:
    assert _problem(2, 3) is None and _problem(2, 4) is None  # 2 < n < 5, X ignored
    for space in (2, 5, 6):
        assert _problem(space, 5) == "number_already_in_zone"
    for space in (5, 6):
        for number in (6, 7, 8):
            assert _problem(space, number) is None
        assert _problem(space, 10) == "space_not_ascending"
    assert _problem(2, 6) == "space_not_ascending"
    assert _problem(1, 1) == "space_not_empty"
    # 8 in space 5 leaves space 6 for an X only: no number fits between 8 and 9.
    after = {**ZONE_MARKS, "z.s5": 8}
    assert all(
        placement_problem(after, ZONE, "z.s6", n, zone_name="the zone") is not None
        for n in range(0, 18)
    )


def test_c_t2_an_x_goes_in_any_empty_space_of_the_zone() -> None:
    """The X part, played on a sheet: floor 3 holds the example's zone in its first seven
    spaces, and a Building X is offered in exactly its empty spaces."""
    state = start(1)
    f3 = numbers("f3", 2, None, X, 5, None, None, 9)
    set_sheet(state, 0, {**f3, **numbers("f1", 1)})
    reveal(state, (4, "robot"), (3, "energy"), (10, "energy"))
    on_f3 = [o for o in playing.options(state, 0) if o["space"].startswith("f3.")]
    assert {(o["number"], o["space"]) for o in on_f3} == {
        (3, "f3.s2"), (10, "f3.s8"), (10, "f3.s9"), (10, "f3.s10")
    }

    move(state, 0, write(0, "f1.s2"))  # completes f1.q1: rocket 2, building

    built = {o["space"] for o in engine.options(state, 0).options if o["action"] == "build"}
    assert {"f3.s2", "f3.s5", "f3.s6"} <= built
    assert not built & {"f3.s1", "f3.s3", "f3.s4", "f3.s7"}
    move(state, 0, build("f1.q1.building", "f3.s6"))
    assert state.sheets[0].marks["f3.s6"] == X
    with pytest.raises(engine.RuleViolation) as refused:
        move(state, 0, build("f1.q1.building", "f3.s5"))
    assert refused.value.code == "turn_complete"  # the one building is spent


def test_c_t3_astronaut_modifier_limits() -> None:
    assert astronaut_numbers(1) == [0, 1, 2, 3]
    assert astronaut_numbers(15) == [13, 14, 15, 16, 17]
    assert astronaut_numbers(8) == [6, 7, 8, 9, 10]
    # A 17 is an ordinary number for ordering: it must be the largest of its zone.
    zone = ["z.s1", "z.s2", "z.s3"]
    assert placement_problem({"z.s3": 16}, zone, "z.s2", 17, zone_name="z") is not None
    assert placement_problem({"z.s1": 16}, zone, "z.s2", 17, zone_name="z") is None
    assert placement_problem({}, zone, "z.s1", 18, zone_name="z") is not None
    assert placement_problem({}, zone, "z.s1", -1, zone_name="z") is not None


def one_open_space(low: int, high: int) -> Marks:
    """Adventure 1's sheet filled but f1.s2 (the floor any action writes in), between ``low``
    and ``high``."""
    full: Marks = {space: X for floor in LAYOUT.floors for space in floor_spaces(floor)}
    del full["f1.s2"]
    return {**full, "f1.s1": low, "f1.s3": high}


def with_astronaut_modifier() -> LaunchRules:
    """Adventure 1's rules with the Astronaut's -2 to +2, which its sheet alone leaves out."""
    rules = LaunchRules()
    rules.astronaut_modifies = True
    return rules


def test_c_t4_compulsory_placement_with_the_astronaut_modifier() -> None:
    state = start(1)
    set_sheet(state, 0, one_open_space(8, 12))  # the only legal space takes 9 to 11
    reveal(state, (3, "water"), (14, "robot"), (8, "astronaut"))
    modified = with_astronaut_modifier()

    assert {option.get("combination") for option in modified.choice_options(state, 0)} == {2}
    # Without the modifier (adventure 1) the 8 is not writable either.
    assert {option["action"] for option in engine.options(state, 0).options} == {"system_error"}
    reveal(state, (3, "water"), (14, "robot"), (8, "robot"))
    assert {option["action"] for option in modified.choice_options(state, 0)} == {"system_error"}


def test_c_t4_system_error_only_when_nothing_is_writable_and_phase_6_still_applies() -> None:
    state = start(1, missions={"A": 64, "B": 66, "C": 69})
    blocked = {**xs(*floor_spaces("f1")), **numbers("f7", None, None, None, None, 1)}
    set_sheet(state, 0, {**blocked, **numbers("f5", 2), **numbers("f6", 1), **circled(4)})

    # 14/robot fits in f5/f6 above their numbers: a System Error is refused.
    reveal(state, (3, "water"), (14, "robot"), (1, "robot"))
    assert {o["action"] for o in engine.options(state, 0).options} == {"write"}
    with pytest.raises(engine.RuleViolation) as refused:
        move(state, 0, system_error("err.5"))
    assert refused.value.code == "number_must_be_written"

    # Nothing writable: the only options are System Error boxes; phase 6 still runs.
    set_sheet(state, 0, {**blocked, **numbers("f5", 15), **numbers("f6", 15), **circled(4)})
    reveal(state, (3, "water"), (14, "robot"), (1, "robot"))
    offered = engine.options(state, 0).options
    assert offered == [system_error(f"err.{i}") for i in range(5, 9)]
    with pytest.raises(engine.RuleViolation) as refused:
        move(state, 0, write(1, "f5.s2"))
    assert refused.value.code == "space_not_ascending"
    move(state, 0, system_error("err.5"))
    assert engine.options(state, 0).kind == "confirm"
    confirm(state, 0)

    assert state.sheets[0].marks["mission.C"] == 3
    assert len(errors(state, 0)) == 5


def test_c_t5_a_solo_turn_pairs_a_number_with_another_cards_action() -> None:
    """The pairs a solo turn deals from a hand (adventure 3), the picks it refuses, and the
    card left over for ASTRA."""
    planning, water, robot = 56, 28, 12
    assert [(CARDS[c].number, CARDS[c].action) for c in (planning, water, robot)] == [
        (12, "planning"), (7, "water"), (5, "robot")
    ]
    state = playing.start_solo(3, level=3)
    playing.set_hand(state, planning, water, robot)

    legal = {(c.number, c.action) for c in state.combinations}

    assert legal == {
        (12, "water"), (12, "robot"), (7, "planning"), (7, "robot"), (5, "planning"),
        (5, "water"),
    }
    _, chosen = chosen_combination(state.combinations, {"number_card": water, "action_card": planning})
    assert (chosen.number, chosen.action) == (7, "planning")
    with pytest.raises(engine.RuleViolation) as refused:
        chosen_combination(state.combinations, {"number_card": planning, "action_card": planning})
    assert refused.value.code == "same_card_for_number_and_action"
    with pytest.raises(engine.RuleViolation) as refused:
        chosen_combination(state.combinations, {"number_card": water, "action_card": 1})
    assert refused.value.code == "card_not_in_hand"
    playing.move(state, 0, playing.pick(state, water, planning))
    assert solo.left_over(state, 0) == [robot]


def test_c_t5_compulsory_placement_over_the_six_solo_pairs() -> None:
    state = playing.start_solo(1)
    set_sheet(state, 0, one_open_space(8, 10))  # only a 9 can be written
    playing.set_hand(state, 56, 28, 55)  # 12/planning, 7/water, 12/astronaut
    modified = with_astronaut_modifier()

    picks = cast("list[engine.WriteOption]", modified.choice_options(state, 0))
    pairs = [state.combinations[option["combination"]] for option in picks]
    writable = {(pair.number_card, pair.action_card) for pair in pairs}

    # Only the 7 can become 9, and only with the astronaut card's action.
    assert writable == {(28, 55)}
    assert {option["action"] for option in engine.options(state, 0).options} == {"system_error"}
