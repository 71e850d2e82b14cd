"""Mission cards: which are in play, what they are worth, and phase 6.

A mission's high value goes to every player who accomplishes it in the first turn anyone
does; the card then flips and later accomplishments get the low value.
"""

import random
from typing import TYPE_CHECKING, Any

from games.rules import data
from games.rules.errors import RuleViolation
from games.rules.events import Recorder

if TYPE_CHECKING:
    from games.rules.adventures.base import AdventureRules

LETTERS = ("A", "B", "C")

MISSIONS: dict[int, dict[str, Any]] = {raw["card"]: raw for raw in data.common()["missions"]}


def candidates(adventure: int, letter: str) -> list[int]:
    return sorted(
        card
        for card, raw in MISSIONS.items()
        if raw["adventure"] == adventure and raw["letter"] == letter
    )


def choose(adventure: int, seed: int, imposed: dict[str, int] | None) -> dict[str, int]:
    """One card per letter: the imposed one when given, else drawn with the game's seed."""
    imposed = imposed or {}
    unknown = set(imposed) - set(LETTERS)
    if unknown:
        raise RuleViolation(
            "invalid_missions", f"Missions are chosen by letter A, B or C, not {sorted(unknown)}."
        )
    rng = random.Random(f"{seed}/missions")
    chosen = {}
    for letter in LETTERS:
        options = candidates(adventure, letter)
        card = imposed.get(letter)
        if card is None:
            card = rng.choice(options)
        elif card not in options:
            raise RuleViolation(
                "invalid_missions",
                f"Card {card} is not a mission {letter} of adventure {adventure}: "
                f"choose one of {options}.",
            )
        chosen[letter] = card
    return chosen


def value(card: int, *, first: bool) -> int:
    raw = MISSIONS[card]
    return int(raw["first"] if first else raw["later"])


def accomplish(rec: Recorder, rules: "AdventureRules") -> None:
    """Phase 6: every seat accomplishes each mission whose condition its sheet meets.

    All conditions are read before any reward is given, so a reward (adventure 1 rockets
    crossing errors) cannot undo another mission of the same turn.
    """
    state = rec.state
    achieved: dict[str, list[int]] = {letter: [] for letter in state.missions}
    for seat in range(state.players):
        marks = state.seats[seat].marks
        for letter, card in state.missions.items():
            if f"mission.{letter}" not in marks and rules.mission_holds(state, seat, card):
                achieved[letter].append(seat)
    for letter, seats in achieved.items():
        card = state.missions[letter]
        first = letter not in state.flipped_missions
        for seat in seats:
            reward = value(card, first=first)
            rec.emit("mission_accomplished", seat, letter=letter, card=card, value=reward)
            rules.reward_mission(rec, seat, reward)
        if seats and first:
            rec.emit("mission_flipped", letter=letter, card=card)
