"""Phase 6 is optional: a mission whose condition holds is offered, and the player claims it or
not (common rules, section 8). Played on adventure 3 with missions 76 / 78 / 80, where the
issue that made claims optional was seen: a seat holding A and B and reaching 10 plants was
forced into mission C, which ended a game it was losing."""

import random

import pytest

from games.rules import engine
from games.rules.common import missions
from games.rules.core.sheet import Marks
from games.rules.engine import GameState
from games.rules.play import bots
from tests.rules import playing
from tests.rules.colony_helpers import RULES, move, reveal, set_sheet, start
from tests.rules.playing import Choice, circled, claim_all, confirm, refused

MISSIONS = {"A": 76, "B": 78, "C": 80}
TEN_PLANTS = circled(*(f"greenhouse.{quarter}.{n}" for quarter in ("TL", "TR") for n in (1, 2, 3, 4)))
CLAIM_C: Choice = {"action": "claim_mission", "letter": "C"}
MISSION_C_FIRST, MISSION_C_LATER = missions.MISSIONS[80]["first"], missions.MISSIONS[80]["later"]


def claim(state: GameState, seat: int) -> None:
    playing.move(state, seat, CLAIM_C)


def after_phase_5(*sheets: Marks) -> GameState:
    """Each seat starts the turn with its sheet, writes a number, skips its action and confirms
    (phase 6 is left to the test)."""
    state = start(len(sheets), missions=MISSIONS)
    for seat, marks in enumerate(sheets):
        set_sheet(state, seat, marks)
    reveal(state, (1, "robot"), (2, "robot"), (3, "robot"))
    for seat in range(len(sheets)):
        move(state, seat, action="write", combination=seat, space="bld.r1c2", number=seat + 1)
        move(state, seat, action="skip", effect="action.robot")
        confirm(state, seat, claim=False)
    return state


def test_a_met_mission_is_offered_to_its_seat_and_not_given() -> None:
    state = after_phase_5({"mission.A": 9, "mission.B": 7, **TEN_PLANTS}, {})

    assert state.phase == "missions"
    decision = engine.options(state, 0)
    assert decision.kind == "mission"
    assert decision.options == [CLAIM_C]
    assert decision.can_confirm and not decision.can_undo
    assert engine.options(state, 1).kind == "wait"
    assert "mission.C" not in state.sheets[0].marks
    assert state.status == "playing"


def test_declining_the_third_mission_keeps_the_game_going_and_the_mission_claimable() -> None:
    state = after_phase_5({"mission.A": 9, "mission.B": 7, **TEN_PLANTS}, {})
    turn = state.turn

    confirm(state, 0)  # claims nothing

    assert state.status == "playing"
    assert state.turn == turn + 1
    assert "mission.C" not in state.sheets[0].marks
    reveal(state, (4, "robot"), (5, "robot"), (6, "robot"))
    for seat in (0, 1):
        move(state, seat, action="write", combination=seat, space="bld.r1c3", number=seat + 4)
        move(state, seat, action="skip", effect="action.robot")
        confirm(state, seat, claim=False)
    assert engine.options(state, 0).options == [CLAIM_C]


def test_claiming_the_third_mission_ends_the_game() -> None:
    state = after_phase_5({"mission.A": 9, "mission.B": 7, **TEN_PLANTS}, {})

    claim(state, 0)
    assert engine.options(state, 0) == engine.Decision("mission", [], can_confirm=True, sheet=0)
    confirm(state, 0)

    assert state.sheets[0].marks["mission.C"] == MISSION_C_FIRST
    assert state.status == "ended"
    assert state.end == {"reasons": [{"reason": "all_missions", "seats": [0]}]}


def test_the_high_value_goes_to_every_seat_claiming_in_the_first_turn_and_later_claims_get_the_low() -> None:
    assert engine.game_view(start(1, missions=MISSIONS), viewer=0)["missions"][2]["first"] == MISSION_C_FIRST
    state = after_phase_5(TEN_PLANTS, TEN_PLANTS, TEN_PLANTS)
    claim(state, 0)
    claim(state, 1)
    for seat in range(3):  # seat 2 declines
        confirm(state, seat, claim=False)

    assert [sheet.marks.get("mission.C") for sheet in state.sheets] == [MISSION_C_FIRST] * 2 + [None]
    assert "C" in state.flipped_missions

    reveal(state, (4, "robot"), (5, "robot"), (6, "robot"))
    for seat in range(3):
        move(state, seat, action="write", combination=seat, space="bld.r1c3", number=seat + 4)
        move(state, seat, action="skip", effect="action.robot")
        confirm(state, seat, claim=False)
    assert [engine.options(state, seat).kind for seat in range(3)] == ["wait", "wait", "mission"]
    claim_all(state)
    assert state.sheets[2].marks["mission.C"] == MISSION_C_LATER


def test_a_claim_and_the_offers_stay_hidden_from_the_other_seats_until_the_turn_resolves() -> None:
    state = start(2, missions=MISSIONS)
    for seat in (0, 1):
        set_sheet(state, seat, TEN_PLANTS)
    reveal(state, (1, "robot"), (2, "robot"), (3, "robot"))
    log = []
    for seat in (0, 1):
        log += move(state, seat, action="write", combination=seat, space="bld.r1c2", number=seat + 1)
        log += move(state, seat, action="skip", effect="action.robot")
        log += confirm(state, seat, claim=False)
    offered = next(event for event in log if event["kind"] == "missions_offered")
    claimed = engine.decide(state, 0, {"type": "move", "choice": CLAIM_C})

    assert offered["data"] == {"offers": {"0": ["C"], "1": ["C"]}}
    assert engine.redact(offered, state, viewer=1)["data"] == {"offers": {"1": ["C"]}}  # type: ignore[index]
    assert engine.redact(claimed[0], state, viewer=1) is None
    assert engine.redact(claimed[0], state, viewer=0) == claimed[0]


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ({"type": "move", "choice": {"action": "claim_mission", "letter": "A"}}, "mission_not_claimable"),
        ({"type": "move", "choice": {"action": "claim_mission", "letter": "Z"}}, "mission_not_claimable"),
        ({"type": "move", "choice": {"action": "write", "combination": 0}}, "illegal_choice"),
        ({"type": "move", "choice": "C"}, "illegal_choice"),
        ({"type": "undo"}, "nothing_to_undo"),
    ],
)
def test_phase_6_refuses_what_is_not_a_claim_of_an_offered_mission(
    command: dict[str, object], code: str
) -> None:
    state = after_phase_5(TEN_PLANTS, {})
    with pytest.raises(engine.RuleViolation) as caught:
        engine.decide(state, 0, command)
    assert caught.value.code == code
    claim(state, 0)
    assert refused(state, 0, CLAIM_C) == "mission_not_claimable"
    with pytest.raises(engine.OutOfTurn):
        engine.decide(state, 1, {"type": "move", "choice": CLAIM_C})


@pytest.mark.parametrize(("leading", "claims"), [(True, True), (False, False)])
def test_the_greedy_bot_declines_a_game_ending_mission_only_while_it_trails(
    leading: bool, claims: bool
) -> None:
    mine = {"mission.A": 9, "mission.B": 7, **TEN_PLANTS}
    theirs: Marks = {"mission.A": 9 if leading else 60}
    state = after_phase_5(mine, theirs)
    command = bots.greedy_bot(random.Random(1))(state, 0)
    assert (command == {"type": "move", "choice": CLAIM_C}) is claims
    if not claims:
        assert command == {"type": "confirm"}


def test_conditions_are_read_after_phase_5_and_before_any_reward() -> None:
    assert RULES.mission_holds(after_phase_5(TEN_PLANTS, {}), 0, 80)
    assert not RULES.mission_holds(after_phase_5({}, {}), 0, 80)
