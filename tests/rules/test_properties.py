"""Properties of the engine over random games (1-6 players, 2-6 in The Battle; random moves): of
every playable adventure where the property is the common turn's, of Adventure 1 where it is a
sheet rule."""

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.adventures.battle.rules import BattleRules
from games.rules.common.base import astronaut_numbers, rank_awards
from games.rules.common.options import posted
from games.rules.core import cards
from games.rules.engine import Event, GameState
from tests.rules.launch_helpers import LAYOUT, apply

SETTINGS = settings(max_examples=40, deadline=None)

seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=1, max_value=6)
# An adventure with a number of players it is dealt for.
deals = st.sampled_from(sorted(PLAYABLE)).flatmap(
    lambda adventure: st.tuples(
        st.just(adventure), st.integers(min_value=PLAYABLE[adventure].min_players, max_value=6)
    )
)


def _random_command(state: GameState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal command: a listed option, now and then an undo, else a confirm."""
    decision = engine.options(state, seat)
    if decision.can_undo and rng.random() < 0.1:
        return {"type": "undo"}
    if decision.options:
        return {"type": "move", "choice": rng.choice(decision.options)}
    return {"type": "confirm"}


def _steps(
    seed: int, players: int, rng: random.Random, *, max_turns: int = 60, adventure: int = 1
) -> Iterator[tuple[GameState, int, list[Event]]]:
    """Play a random game; before each command, yield (state, seat to act, events so far).

    The consumer may inspect the state (and must leave it as it found it)."""
    events = engine.new_game(adventure=adventure, players=players, seed=seed)
    state = engine.replay(events)
    while state.status == "playing" and state.turn <= max_turns:
        waiting = [s for s in range(players) if engine.options(state, s).kind != "wait"]
        seat = rng.choice(waiting)
        yield state, seat, events
        events += apply(state, engine.decide(state, seat, _random_command(state, seat, rng)))
    yield state, -1, events


def _views(state: GameState) -> list[Any]:
    viewers = [None, *range(state.players)]
    return [engine.game_view(state, viewer=v) for v in viewers] + [
        engine.sheet_view(state, sheet.id, viewer=v) for sheet in state.sheets for v in viewers
    ]


@SETTINGS
@given(deal=deals, seed=seeds, moves=seeds)
def test_every_listed_option_is_accepted(deal: tuple[int, int], seed: int, moves: int) -> None:
    adventure, players = deal
    steps = _steps(seed, players, random.Random(moves), max_turns=25, adventure=adventure)
    for state, seat, _ in steps:
        if seat < 0:
            break
        decision = engine.options(state, seat)
        assert decision.options or decision.can_confirm  # a seat to act is never stuck
        rules = PLAYABLE[adventure]
        for option in decision.options:
            events = engine.decide(state, seat, {"type": "move", "choice": option})
            assert events, option
            # A listed pick is recorded without a second check: the full check agrees.
            if option["action"] == "write":
                write = cast(engine.WriteOption, option)
                assert rules.check_write(state, seat, posted(write)) == rules.listed_write(state, write)
            if option["action"] == "draw":
                assert isinstance(rules, BattleRules)
                draw = cast(engine.DrawOption, option)
                assert rules.check_draw(state, seat, posted(draw)) == rules.listed_draw(state, seat, draw)
        if decision.can_confirm:
            assert engine.decide(state, seat, {"type": "confirm"})


@SETTINGS
@given(deal=deals, seed=seeds, moves=seeds)
def test_replaying_the_events_rebuilds_the_evolved_state(
    deal: tuple[int, int], seed: int, moves: int
) -> None:
    """At any step of a game, undos included, the replay of its log so far, whole or carried on
    from the replay of a part of it, is the state applying each event in turn reached (a replay
    skips the events whose changes a later turn's start overwrites, and only those)."""
    adventure, players = deal
    turn = 0
    steps = _steps(seed, players, random.Random(moves), adventure=adventure)
    for step, (state, _, events) in enumerate(steps):
        if state.turn != turn or state.status != "playing" or step % 7 == 0:
            turn = state.turn
            replayed = engine.replay(events)
            assert replayed == state
            assert _views(replayed) == _views(state)
            cut = len(events) // 2
            assert engine.replay(events[cut:], engine.replay(events[:cut])) == state
    if state.status == "ended":
        result = engine.result_event(state)
        assert engine.result_event(engine.replay(events)) == result


@SETTINGS
@given(deal=deals, seed=seeds, moves=seeds)
def test_undo_restores_the_sheet_as_it_was_at_the_start_of_the_turn(
    deal: tuple[int, int], seed: int, moves: int
) -> None:
    adventure, players = deal
    at_turn_start: dict[tuple[int, int], tuple[Any, list[Any]]] = {}
    for state, seat, _ in _steps(seed, players, random.Random(moves), adventure=adventure):
        if seat < 0:
            break
        key = (state.turn, seat)
        played = state.seats[seat].sheet
        if state.seats[seat].chosen is None and key not in at_turn_start:
            at_turn_start[key] = (
                engine.sheet_view(state, played, viewer=seat),
                list(engine.options(state, seat).options),
            )
        if engine.options(state, seat).can_undo:
            after_undo = state.copy()
            apply(after_undo, engine.decide(state, seat, {"type": "undo"}))
            sheet, options = at_turn_start[key]
            assert engine.sheet_view(after_undo, played, viewer=seat) == sheet
            assert engine.options(after_undo, seat).options == options


def _assert_floors_ascend(state: GameState) -> None:
    for sheet in state.sheets:
        for floor in LAYOUT.floors.values():
            written = [sheet.marks[s] for s in floor["spaces"] if isinstance(sheet.marks.get(s), int)]
            assert written == sorted(set(written)), (floor["id"], written)


@SETTINGS
@given(seed=seeds, players=player_counts, moves=seeds)
def test_numbers_in_every_floor_stay_strictly_ascending(
    seed: int, players: int, moves: int
) -> None:
    for state, _, _ in _steps(seed, players, random.Random(moves)):
        _assert_floors_ascend(state)


ELEMENT_IDS = sorted(LAYOUT.spaces) + sorted(LAYOUT.elements) + ["f1.q1", "f9", ""]
odd_values = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
FIELDS = ["combination", "space", "number", "effect", "arrow", "box"]
# Near misses: each field holds a value of the right kind, most often one of the sheet's.
plausible_fields = st.fixed_dictionaries(
    {},
    optional={
        "combination": st.integers(min_value=-1, max_value=3),
        "space": st.sampled_from(ELEMENT_IDS),
        "number": st.integers(min_value=-1, max_value=18),
        "effect": st.sampled_from(ELEMENT_IDS),
        "arrow": st.sampled_from(ELEMENT_IDS),
        "box": st.sampled_from(ELEMENT_IDS),
    },
)
plausible_choices = st.builds(
    lambda action, fields: {"action": action, **fields},
    st.sampled_from(["write", "build", "activate", "skip", "system_error", "cross", ""]),
    plausible_fields,
)
junk_choices = st.one_of(
    plausible_choices,
    st.dictionaries(st.sampled_from(["action", *FIELDS]), odd_values, max_size=4),
    st.lists(st.integers(), max_size=2),
    st.text(max_size=5),
    st.none(),
)
other_commands = st.one_of(
    st.sampled_from([{"type": "undo"}, {"type": "confirm"}, {}, {"choice": {}}]),
    st.builds(lambda kind: {"type": kind}, st.one_of(st.text(max_size=6), st.integers())),
    st.lists(st.integers(), max_size=2),
)


def _weighted(plausible_share: float) -> st.SearchStrategy[Any]:
    """Mostly moves of near-miss choices, the rest malformed choices and commands."""
    return st.floats(min_value=0, max_value=1).flatmap(
        lambda draw: st.builds(lambda c: {"type": "move", "choice": c}, plausible_choices)
        if draw < plausible_share
        else st.one_of(st.builds(lambda c: {"type": "move", "choice": c}, junk_choices),
                       other_commands)
    )


junk_commands = _weighted(0.7)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _is_listed(choice: Any, options: Sequence[Mapping[str, object]]) -> bool:
    """Whether a move names a listed option (a write may leave out its number, and a System
    Error its box, the next one; fields that the option does not have are ignored, as an API
    ignores unknown fields)."""
    if not isinstance(choice, dict):
        return False
    optional = {"number", "box"} - set(choice)
    for option in options:
        needed = {k: v for k, v in option.items() if k not in optional}
        if set(needed) <= set(choice) and all(_same(choice[k], v) for k, v in needed.items()):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    seed=seeds,
    players=player_counts,
    turns=st.integers(min_value=0, max_value=8),
    moves=seeds,
    command=junk_commands,
)
def test_a_refused_command_raises_a_rule_violation_and_changes_nothing(
    seed: int, players: int, turns: int, moves: int, command: Any
) -> None:
    rng = random.Random(moves)
    for state, seat, _ in _steps(seed, players, random.Random(moves)):
        mid_effects = seat >= 0 and bool(state.seats[seat].pending)
        if seat < 0 or (state.turn > turns and (mid_effects or rng.random() < 0.2)):
            break
    if seat < 0:
        seat = 0
    before = state.copy()
    listed = engine.options(state, seat)
    try:
        events = engine.decide(state, seat, command)
    except engine.RuleViolation:
        assert state == before
        return
    assert state == before  # decide never changes the state it is given
    assert command.get("type") in {"move", "undo", "confirm"}
    if command["type"] == "move":
        assert _is_listed(command["choice"], listed.options), command
    elif command["type"] == "confirm":
        assert listed.can_confirm
    else:
        assert listed.can_undo
    assert events


def _assert_each_card_dealt_once_per_pass(stacks: list[cards.Stack]) -> None:
    everything = [card for stack in stacks for card in stack.draw + stack.discard]
    assert sorted(everything) == sorted(cards.CARDS)
    for stack in stacks:
        assert len(stack.draw) + len(stack.discard) == 21


@SETTINGS
@given(seed=seeds, players=player_counts, moves=seeds)
def test_the_deck_in_play_holds_each_card_once(
    seed: int, players: int, moves: int
) -> None:
    for state, _, _ in _steps(seed, players, random.Random(moves)):
        _assert_each_card_dealt_once_per_pass(state.stacks)


@settings(max_examples=50, deadline=None)
@given(seed=seeds)
def test_the_deck_never_deals_a_card_twice_within_a_pass(seed: int) -> None:
    stacks = cards.deal(seed)
    dealt: list[list[int]] = [[] for _ in stacks]
    passes = [0, 0, 0]
    for turn in range(1, 102):
        shown_before = [stack.draw[0] for stack in stacks]
        combinations, reshuffled = cards.flip(stacks, seed=seed, turn=turn)
        for index, stack in enumerate(stacks):
            flipped = stack.discard[-1]
            assert flipped == shown_before[index]  # the number shown is the next card flipped
            assert flipped not in dealt[index]
            dealt[index].append(flipped)
            assert combinations[index].action == cards.CARDS[flipped].action
            assert combinations[index].number == cards.CARDS[stack.draw[0]].number
            if index in reshuffled:
                assert len(dealt[index]) == (21 if passes[index] == 0 else 20)
                assert flipped not in stack.draw
                dealt[index] = []
                passes[index] += 1
        _assert_each_card_dealt_once_per_pass(stacks)
    assert passes == [5, 5, 5]  # turns 21, 41, 61, 81, 101


@settings(max_examples=50, deadline=None)
@given(seed=seeds, size=st.integers(min_value=0, max_value=66))
def test_a_seed_shuffles_the_cards_as_the_standard_library_shuffled_them(seed: int, size: int) -> None:
    """The engine's own shuffle deals what ``random.Random.shuffle`` dealt when the recorded
    logs were played: the cards a seed gives are part of what a log means."""
    ours, library = list(range(size)), list(range(size))
    cards.shuffle(random.Random(f"{seed}/deal"), ours)
    random.Random(f"{seed}/deal").shuffle(library)
    assert ours == library


@settings(max_examples=200, deadline=None)
@given(counts=st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=6))
def test_rank_awards_never_give_a_higher_count_fewer_points(counts: list[int]) -> None:
    points = rank_awards(counts, (20, 10, 5), zero_scores=False)
    for a, b in itertools.combinations(range(len(counts)), 2):
        if counts[a] == counts[b]:
            assert points[a] == points[b]
        elif counts[a] > counts[b]:
            assert points[a] >= points[b]
    assert max(points) == (20 if max(counts) > 0 else 0)
    assert all(p == 0 for c, p in zip(counts, points, strict=True) if c == 0)


@settings(max_examples=200, deadline=None)
@given(hand=st.lists(st.sampled_from(sorted(cards.CARDS)), min_size=3, max_size=3, unique=True))
def test_a_solo_pair_writes_its_number_cards_numbers_with_its_action_cards_action(hand: list[int]) -> None:
    rules = PLAYABLE[2]  # an adventure with the Astronaut modifier
    for pair in cards.hand_combinations(hand):
        assert pair.number_card is not None and pair.action_card is not None
        assert pair.number_card != pair.action_card
        number, action = cards.CARDS[pair.number_card], cards.CARDS[pair.action_card]
        assert (pair.number, pair.action) == (number.number, action.action)
        reachable = astronaut_numbers(pair.number) if pair.action == "astronaut" else [pair.number]
        assert rules.numbers_of(pair) == reachable
