"""The 63 starship cards (common.md §3): the three stacks, flips and per-stack reshuffles (§5,
phase 1), and the solo deck with its hands of three (§10.4-10.5).

The deck order is derived from the game's seed alone, so replaying the events of a game
rebuilds exactly the same stacks without the order ever being stored.
"""

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import NamedTuple

from games.rules.core import data
from games.rules.core.errors import RuleViolation, shown

STACKS = 3
ACTIONS: tuple[str, ...] = tuple(data.common()["actions"])


@dataclass(frozen=True)
class Card:
    id: int
    number: int
    action: str


CARDS: dict[int, Card] = {
    raw["id"]: Card(raw["id"], raw["number"], raw["action"])
    for raw in data.common()["starship_cards"]
}
# The numbers some starship card shows (the others only an Astronaut shift writes).
CARD_NUMBERS: frozenset[int] = frozenset(card.number for card in CARDS.values())
# Solo: the ASTRA Effect cards by id, and the letter of the mission each flips on the second pass.
EFFECT_CARDS: dict[int, str] = {
    int(card): letter
    for card, letter in data.common()["card_id_ranges"]["astra_effect_cards"].items()
}
HAND_SIZE = 3
PILES = 3


@dataclass
class Stack:
    """One stack: cards still to flip (top first) and its discard pile (top last)."""

    draw: list[int]
    discard: list[int] = field(default_factory=list)

    def copy(self) -> "Stack":
        return Stack(list(self.draw), list(self.discard))


class Combination(NamedTuple):
    """A number shown on a stack paired with the action of the card just flipped from it.

    In a solo game a combination is a pair of the hand instead: the number of one card with
    the action of another (``number_card``, ``action_card``), and ``stack`` is the pair's index.
    """

    stack: int
    number: int
    action: str
    number_card: int | None = None
    action_card: int | None = None

    def as_dict(self) -> dict[str, int | str]:
        if self.number_card is None or self.action_card is None:
            return {"stack": self.stack, "number": self.number, "action": self.action}
        return {
            "number_card": self.number_card,
            "action_card": self.action_card,
            "number": self.number,
            "action": self.action,
        }


# Every combination a flip can show, made once: each turn looks up three (a NamedTuple made
# anew costs a call of its Python ``__new__``, the larger part of a flip).
_SHOWN: dict[tuple[int, int, str], Combination] = {
    (stack, number, action): Combination(stack, number, action)
    for stack in range(STACKS)
    for number in CARD_NUMBERS
    for action in ACTIONS
}


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place as ``rng.shuffle(items)`` does (its algorithm, step for step,
    so a seed deals the same cards): without its call of a Python method per card, and pinned
    here, since the cards a seed gives are part of what a game's log means."""
    getrandbits = rng.getrandbits
    for last in range(len(items) - 1, 0, -1):
        # ``Random._randbelow(last + 1)``: draws of as many bits as the bound has, until one fits.
        bound = last + 1
        bits = bound.bit_length()
        other = getrandbits(bits)
        while other >= bound:
            other = getrandbits(bits)
        items[last], items[other] = items[other], items[last]


def deal(seed: int) -> list[Stack]:
    """Shuffle the 63 cards with the game's seed and deal three stacks of 21."""
    ids = sorted(CARDS)
    shuffle(random.Random(f"{seed}/deal"), ids)
    size = len(ids) // STACKS
    return [Stack(ids[i * size : (i + 1) * size]) for i in range(STACKS)]


def peek(stacks: list[Stack], *, seed: int, turn: int) -> tuple[list[Combination], list[int]]:
    """What ``flip`` would show and reshuffle, leaving the stacks as they are."""
    if all(len(stack.draw) > 1 for stack in stacks):
        return [
            _SHOWN[index, CARDS[stack.draw[1]].number, CARDS[stack.draw[0]].action]
            for index, stack in enumerate(stacks)
        ], []
    return flip([stack.copy() for stack in stacks], seed=seed, turn=turn)


def flip(stacks: list[Stack], *, seed: int, turn: int) -> tuple[list[Combination], list[int]]:
    """Phase 1: flip the top card of each stack, in place.

    Returns the three combinations and the stacks that had to be reshuffled (``pass_turn``):
    each stack's flipped card, last on its discard pile, shows its action, and the card now on
    top of its draw pile its number.
    """
    reshuffled = pass_turn(stacks, seed=seed, turn=turn)
    return [
        _SHOWN[index, CARDS[stack.draw[0]].number, CARDS[stack.discard[-1]].action]
        for index, stack in enumerate(stacks)
    ], reshuffled


def pass_turn(stacks: list[Stack], *, seed: int, turn: int) -> list[int]:
    """The stacks of ``flip``, in place, without what they show: the stacks that had to be
    reshuffled (a replay passes every turn but the last so). A stack left with no card to show
    a number is rebuilt from its own discard pile minus the card just flipped, whose action is
    in play this turn."""
    reshuffled = []
    for index, stack in enumerate(stacks):
        draw = stack.draw
        flipped = draw.pop(0)
        stack.discard.append(flipped)
        if not draw:
            draw = stack.discard[:-1]
            shuffle(random.Random(f"{seed}/reshuffle/{index}/{turn}"), draw)
            stack.draw = draw
            stack.discard = [flipped]
            reshuffled.append(index)
    return reshuffled


def chosen_combination(
    combinations: list[Combination], choice: Mapping[str, object]
) -> tuple[int, Combination]:
    """The combination a pick names by its index (in solo, or by its two cards), or a
    RuleViolation."""
    index = choice.get("combination")
    if "number_card" in choice or "action_card" in choice:
        index = _pair_index(combinations, choice, index)
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(combinations):
        raise RuleViolation(
            "unknown_combination",
            "Choose combination 0 to %(value)s.",
            value=len(combinations) - 1,
        )
    return index, combinations[index]


def _pair_index(combinations: list[Combination], choice: Mapping[str, object], named: object) -> int:
    """The index of the solo pair a pick names by its cards (and by its index, if it names one
    too: both must agree)."""
    number_card, action_card = choice.get("number_card"), choice.get("action_card")
    hand = {c.number_card for c in combinations if c.number_card is not None}
    if not hand:
        raise RuleViolation(
            "not_a_solo_game", "Only a solo game picks cards: name a combination by its index."
        )
    if number_card not in hand or action_card not in hand:
        raise RuleViolation(
            "card_not_in_hand",
            "Both cards must come from your hand %(hand)s.",
            hand=shown(sorted(hand)),
        )
    if number_card == action_card:
        raise RuleViolation(
            "same_card_for_number_and_action",
            "The number and the action must come from two different cards, not both from card "
            "%(number_card)s.",
            number_card=number_card,
        )
    index = next(
        i
        for i, c in enumerate(combinations)
        if (c.number_card, c.action_card) == (number_card, action_card)
    )
    if named is not None and named != index:
        raise RuleViolation(
            "combination_not_these_cards",
            "Combination %(named)s is not the number of card %(number_card)s with the action of card "
            "%(action_card)s (that is combination %(index)s).",
            named=shown(named),
            number_card=number_card,
            action_card=action_card,
            index=index,
        )
    return index


# --- solo: the deck and the hand ---------------------------------------------------------


def solo_deck(seed: int) -> list[int]:
    """The deck of a solo game, top card first, derived from the game's seed: the 63 starship
    cards shuffled into three piles of 21, the 3 Effect cards shuffled into the last pile,
    which goes under the two others (so they are among the bottom 24 of the 66)."""
    ids = sorted(CARDS)
    rng = random.Random(f"{seed}/solo/deal")
    shuffle(rng, ids)
    size = len(ids) // PILES
    bottom = [*ids[(PILES - 1) * size :], *EFFECT_CARDS]
    shuffle(rng, bottom)
    return [*ids[: (PILES - 1) * size], *bottom]


def second_pass_deck(seed: int, discard: Sequence[int]) -> list[int]:
    """The deck of the second pass: the discard pile and the 3 Effect cards shuffled together
    (cards given to ASTRA or removed from the game never come back)."""
    cards = sorted({*discard, *EFFECT_CARDS})
    shuffle(random.Random(f"{seed}/solo/reshuffle"), cards)
    return cards


def hand_combinations(hand: Sequence[int]) -> list[Combination]:
    """The six ordered pairs of a hand of three different cards, as combinations: the number
    of one card with the action of another."""
    if len(hand) != HAND_SIZE or len(set(hand)) != HAND_SIZE:
        raise RuleViolation("invalid_hand", "A solo hand holds 3 different starship cards.")
    return [
        _PAIRS.get((index, number, action)) or _pair(index, number, action)
        for index, (number, action) in enumerate(permutations(hand, 2))
    ]


# The solo pairs made so far, by index and cards: a turn's start reads six (twice: as the event
# is made and as it is applied), and a NamedTuple made anew costs a call of its Python __new__.
_PAIRS: dict[tuple[int, int, int], Combination] = {}


def _pair(index: int, number: int, action: int) -> Combination:
    """The combination of pair ``index``: the number of card ``number`` with the action of card
    ``action``, made and kept (at most 6 x 63 x 62 of them)."""
    pair = _PAIRS[index, number, action] = Combination(
        index, CARDS[number].number, CARDS[action].action, number, action
    )
    return pair
