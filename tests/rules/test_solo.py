"""The solo game against ASTRA through the engine (common rules section 10): the deck and its
two passes, the solo turn (pairs of the hand, compulsory placement over the six, the card left
over), ASTRA bonuses earned and used, ASTRA's part of the turn, and the result."""

import random
from typing import Any

import pytest

from games.rules import engine
from games.rules.adventures import rules_for
from games.rules.core import cards
from games.rules.core.events import Recorder
from games.rules.core.sheet import X
from games.rules.play import bots
from games.rules.read import views
from games.rules.turn import solo
from tests.rules import journey_helpers as journey
from tests.rules.playing import (
    astra_part,
    move,
    options,
    pick,
    refused,
    send,
    set_hand,
    set_sheet,
    start_solo,
)

CONFIRM = {"type": "confirm"}


def kinds(events: list[Any]) -> list[str]:
    return [event["kind"] for event in events]


def decision(state: engine.GameState) -> str:
    return engine.options(state, 0).kind


def play_steps(state: engine.GameState) -> None:
    """Use (or skip) the steps a pick left waiting, taking the first option each time."""
    while decision(state) == "effect":
        move(state, 0, options(state, 0)[0])


# --- the deck ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_solo_deck_is_66_cards_with_the_effect_cards_in_its_bottom_24(seed: int) -> None:
    deck = cards.solo_deck(seed)
    assert sorted(deck) == [*range(1, 64), 112, 113, 114]
    assert min(deck.index(card) for card in cards.EFFECT_CARDS) >= 66 - 24
    assert deck == cards.solo_deck(seed) and deck != cards.solo_deck(seed + 1)

    state = start_solo(2, seed=seed)
    assert state.astra is not None
    assert state.astra.hand == deck[:3] and state.astra.deck == deck[3:]
    assert [(c.number_card, c.action_card) for c in state.combinations] == [
        (a, b) for a in deck[:3] for b in deck[:3] if a != b
    ]
    view = engine.game_view(state, viewer=0)
    assert set(view["astra"]) == {"level", "name", "pile", "bonuses", "pass", "score"}
    assert [card["card"] for card in view["hand"]] == deck[:3]
    assert str(deck[3:]) not in str(view)


def test_a_solo_game_lasts_35_turns_and_ends_when_the_deck_runs_out_twice() -> None:
    """The player's sheet is wiped every turn so that only the deck can end the game: 21 turns
    on the first pass, 14 on the second, every Effect card resolved once per pass, the second
    pass flipping each mission, and nothing drawn once the deck is empty again."""
    state = start_solo(4, seed=5)
    blank = dict(rules_for(4).layout.printed_marks)
    player = bots.random_bot(random.Random(0))
    log: list[Any] = []
    turn = 0
    while state.status == "playing":
        if state.turn != turn:
            turn = state.turn
            set_sheet(state, 0, blank)
        if decision(state) == "wait":
            log += astra_part(state)
        else:
            log += send(state, 0, player(state, 0))
    assert state.astra is not None
    assert state.turn == 35
    assert state.end == {"reasons": [{"reason": "deck_exhausted", "seats": []}]}
    assert sum(state.astra.pile.values()) + len(state.astra.removed) == 35
    assert kinds(log).count("deck_reshuffled") == 1
    effects = [event["data"] for event in log if event["kind"] == "astra_effect"]
    assert sorted((e["deck_pass"], e["letter"]) for e in effects) == [
        (1, "A"), (1, "B"), (1, "C"), (2, "A"), (2, "B"), (2, "C")
    ]
    assert state.flipped_missions == {"A", "B", "C"}
    assert kinds(log)[kinds(log).index("game_ended") - 1] == "astra_took"


def test_the_first_exhaustion_reshuffles_the_discards_with_the_effect_cards() -> None:
    state = start_solo(2, seed=3)
    assert state.astra is not None
    given, *used = state.astra.hand
    discarded = [card for card in range(1, 64) if card not in state.astra.hand][:4]
    state.astra.discard = list(discarded)
    state.astra.deck = []
    state.astra.given, state.seats[0].confirmed = given, True
    events = astra_part(state)
    assert kinds(events)[:2] == ["astra_took", "deck_reshuffled"]
    assert state.astra.deck_pass == 2
    drawn = [event["data"]["card"] for event in events if event["kind"] == "card_drawn"]
    second_pass = [*drawn, *state.astra.deck]
    assert sorted(second_pass) == sorted([*discarded, *used, 112, 113, 114])
    assert second_pass == cards.second_pass_deck(3, [*discarded, *used])
    assert given not in second_pass  # a card given to ASTRA never comes back


def test_the_second_exhaustion_ends_the_game_at_once_with_nothing_drawn() -> None:
    state = start_solo(2, seed=3)
    assert state.astra is not None
    state.astra.deck_pass = 2
    state.astra.deck = [40, 41]  # not enough for a hand: D8, the game ends there
    state.astra.given, state.seats[0].confirmed = state.astra.hand[0], True
    events = astra_part(state)
    assert kinds(events) == ["astra_took", "card_drawn", "card_drawn", "game_ended"]
    assert state.status == "ended"
    assert events[-1]["data"]["reasons"] == [{"reason": "deck_exhausted", "seats": []}]


# --- the player's turn ---------------------------------------------------------------------


def test_c_t5_a_solo_turn_pairs_two_different_cards_and_gives_the_third_to_astra() -> None:
    """Common C-T5 (adventure 3): P = 12/planning, W = 7/water, R = 5/robot; the player writes
    the 7 of W with the Planning of P and gives R to ASTRA."""
    p, w, r = 56, 28, 12
    state = start_solo(3, level=3)
    set_hand(state, p, w, r)
    listed = {(o["number_card"], o["action_card"]) for o in options(state, 0)}
    assert listed == {(p, w), (p, r), (w, p), (w, r), (r, p), (r, w)}
    seven = pick(state, w, p)
    own_card = {**seven, "action_card": w}
    del own_card["combination"]
    assert refused(state, 0, own_card) == "same_card_for_number_and_action"
    assert refused(state, 0, {**seven, "action_card": 999}) == "card_not_in_hand"
    assert refused(state, 0, {**seven, "combination": (seven["combination"] + 1) % 6}) == (
        "combination_not_these_cards"
    )

    by_cards = {key: value for key, value in seven.items() if key != "combination"}
    move(state, 0, by_cards)  # a pick naming its two cards only is the same pick
    assert state.sheets[0].marks[seven["space"]] == 7
    assert decision(state) == "effect"  # the Planning X
    play_steps(state)
    assert engine.options(state, 0).as_dict() == {
        "kind": "give", "options": [{"action": "give", "card": r}], "can_undo": True,
        "can_confirm": False, "sheet": 0,
    }
    with pytest.raises(engine.OutOfTurn) as early:
        engine.decide(state, 0, CONFIRM)
    assert early.value.code == "card_not_given"
    move(state, 0, {"action": "give", "card": r})
    send(state, 0, CONFIRM)
    assert decision(state) == "wait"
    with pytest.raises(engine.OutOfTurn) as waiting:
        engine.decide(state, 0, {"type": "move", "choice": {}})
    assert waiting.value.code == "astra_playing"
    events = astra_part(state)
    assert events[0]["data"] == {"card": r, "removed": False}
    assert state.astra is not None and state.astra.pile["robot"] == 1
    assert {p, w} <= set(state.astra.discard)
    assert state.turn == 2 and decision(state) == "choose"
    assert engine.astra_turn(state) == []  # asked again, ASTRA has nothing left to play


def test_compulsory_placement_over_the_six_pairs_counts_the_astronaut_modifier() -> None:
    """Only 12 fits (between 11 and 13): 14 of one card with the Astronaut of another, -2."""
    water3, robot14, astronaut8 = 5, 60, 34
    state = start_solo(2)
    others = {order: "X" for order in range(4, 37)}
    journey.set_sheet(
        state, 0, journey.trajectory(s01=11, s03=13), {journey.s(o): X for o in others}
    )
    set_hand(state, water3, robot14, astronaut8)
    writes = options(state, 0)
    assert writes and all(
        (o["number_card"], o["action_card"], o["number"], o["space"])
        == (robot14, astronaut8, 12, "traj.s02")
        for o in writes
    )
    assert refused(state, 0, journey.system_error("error.1")) == "number_must_be_written"


def test_with_no_writable_pair_a_system_error_then_any_card_may_be_given() -> None:
    water3, robot14, robot8 = 5, 60, 29
    state = start_solo(2)
    others = {order: "X" for order in range(4, 37)}
    journey.set_sheet(
        state, 0, journey.trajectory(s01=11, s03=13), {journey.s(o): X for o in others}
    )
    set_hand(state, water3, robot14, robot8)
    (error,) = options(state, 0)
    assert error["action"] == "system_error"
    move(state, 0, error)
    play_steps(state)  # the Journey's first error gives an energy
    assert decision(state) == "give"
    assert [o["card"] for o in options(state, 0)] == [water3, robot14, robot8]
    move(state, 0, {"action": "give", "card": robot8})
    send(state, 0, CONFIRM)
    astra_part(state)
    assert state.astra is not None and state.astra.pile["robot"] == 1
    assert {water3, robot14} <= set(state.astra.discard)


# --- ASTRA bonuses -------------------------------------------------------------------------


def test_a_big_multiplier_earns_two_bonuses_one_removes_the_card_and_undo_gives_them_back() -> None:
    state = start_solo(2, level=2)
    station1 = journey.LAYOUT.stations[0]
    journey.set_sheet(state, 0, journey.circled(*station1.robots[:-1]))
    robot5, plant4, water6 = 12, 9, 20
    set_hand(state, robot5, plant4, water6)
    move(state, 0, pick(state, plant4, robot5))
    move(state, 0, journey.use("action.robot", robot=station1.robots[-1]))
    assert state.sheets[0].marks[station1.mult_big] == "circle"
    assert state.astra is not None and state.astra.bonuses_circled == 2
    assert options(state, 0) == [
        {"action": "give", "card": water6}, {"action": "remove", "card": water6}
    ]
    send(state, 0, {"type": "undo"})
    assert state.astra.bonuses_circled == 0 and state.astra.given is None

    move(state, 0, pick(state, plant4, robot5))
    move(state, 0, journey.use("action.robot", robot=station1.robots[-1]))
    move(state, 0, {"action": "remove", "card": water6})
    send(state, 0, CONFIRM)
    astra_part(state)
    assert (state.astra.bonuses_circled, state.astra.bonuses_used) == (2, 1)
    assert state.astra.removed == [water6] and sum(state.astra.pile.values()) == 0
    assert water6 not in state.astra.discard
    assert engine.game_view(state, viewer=0)["astra"]["bonuses"] == {
        "boxes": 10, "circled": 2, "used": 1
    }


def test_a_card_is_removed_only_with_a_bonus_left() -> None:
    state = start_solo(7)
    hand = list(state.astra.hand) if state.astra else []
    move(state, 0, options(state, 0)[0])
    play_steps(state)
    assert all(option["action"] == "give" for option in options(state, 0))
    left = options(state, 0)[0]["card"]
    assert left in hand
    assert refused(state, 0, {"action": "remove", "card": left}) == "no_astra_bonus"
    assert refused(state, 0, {"action": "give", "card": -1}) == "card_not_left_over"


def test_bonuses_stop_at_the_printed_boxes() -> None:
    state = start_solo(4)
    rules = rules_for(4)
    assert state.astra is not None
    state.astra.bonuses_circled = 7
    bonus = rules.race_elements()[0]
    recorder = Recorder(state)
    recorder.mark(0, element=bonus, mark="circle")
    solo.circle_bonuses(recorder, 0, since=0)
    assert kinds(recorder.events) == ["mark", "astra_bonus"]
    assert recorder.state.astra is not None and recorder.state.astra.bonuses_circled == 8


# --- the result ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "astra_total", "winners", "rank"),
    [(90, 80, [0], 1), (80, 90, ["astra"], 2), (85, 85, [0, "astra"], 1)],
)
def test_the_higher_total_wins_and_equal_totals_draw(
    player: int, astra_total: int, winners: list[Any], rank: int
) -> None:
    state = start_solo(7, level=1)
    assert state.astra is not None
    fixed_and_level = 15 + 1
    state.astra.pile["planning"] = (astra_total - fixed_and_level) // 4
    state.astra.pile["astronaut"] = (astra_total - fixed_and_level) % 4
    state.sheets[0].bonus_points = player
    result = solo.standings(state)
    assert result["astra"]["total"] == astra_total
    assert result["scores"][0]["total"] == player
    assert (result["winners"], result["scores"][0]["rank"]) == (winners, rank)


# --- what the staff who review a solo game see ----------------------------------------------


def test_the_referee_sees_astra_its_hand_and_its_card_with_the_bonuses_circled_and_used() -> None:
    state = start_solo(2, level=2)
    assert state.astra is not None
    assert engine.referee_astra(engine.replay(engine.new_game(adventure=2, players=2, seed=1))) is None
    state.astra.pile.update(robot=2, water=1)
    state.astra.bonuses_circled, state.astra.bonuses_used = 3, 1
    seen = engine.referee_astra(state)
    assert seen is not None
    assert {key: seen[key] for key in views.astra_view(state)} == views.astra_view(state)
    assert seen["hand"] == views.hand_view(state) and len(seen["hand"]) == 3
    assert seen["breakdown"] == solo.astra_score(state)["breakdown"]
    assert seen["breakdown"]["robot"] == 2 * state.astra.multipliers["robot"]
    bonus_boxes = [row.cells for area in seen["schematic"].areas for row in area.rows]
    assert bonus_boxes == [tuple(f"astra.bonus{n}" for n in range(1, 11))]  # ASTRA card 2: 10 boxes
    assert seen["marks"] == {"astra.bonus1": "cross", "astra.bonus2": "circle", "astra.bonus3": "circle"}


def test_a1_t5_the_referee_sees_astras_rocket_track_crossed_as_the_cards_cross_it() -> None:
    state = start_solo(1, level=1)  # Katherine: b01-b15 crossed at setup
    assert state.astra is not None
    state.astra.pile["planning"] = 1  # her planning multiplier is 4: b16 (the "10" box) to b19
    seen = engine.referee_astra(state)
    assert seen is not None
    _, track = seen["schematic"].areas
    assert [row.label for row in track.rows] == [f"row {row}" for row in range(1, 7)]  # top row first
    assert track.rows[0].captions[:3] == ("level 8", "level 8", "level 7")
    assert track.rows[1].cells[0] == "astra.b16" and track.rows[1].captions[0] == "10"
    crossed = [box for row in track.rows for box in row.cells if seen["marks"].get(box) == "cross"]
    assert crossed == [f"astra.b{n:02d}" for n in range(1, 20)]
    assert seen["score"] == 20 and seen["breakdown"]["boxes_crossed"] == 19
    state.astra.pile["astronaut"] = 1  # multiplier 1: b20
    again = engine.referee_astra(state)
    assert again is not None and again["marks"].get("astra.b20") == "cross"
