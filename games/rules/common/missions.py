"""Mission cards (common.md §8): which are in play, what they are worth, and phase 6.

Phase 6 is optional: once phase 5 is resolved, every seat whose sheet meets the condition of a
mission it has not accomplished is offered it, and claims it or not.
Conditions are read once, after phase 5 and before any reward is given, so a reward (adventure 1
rockets crossing errors) cannot undo another mission of the same turn. A mission declined stays
claimable in a later turn while its condition holds then.

A mission's high value goes to every seat that claims it in the first turn anyone does; the card
then flips and later claims get the low value. The value is written on the seat's home sheet
(its only sheet, or in adventure 8 its left one), whichever sheet it plays this turn.
"""

import random
from typing import Any, Protocol

from games.rules.core import data
from games.rules.core.errors import RuleViolation, shown
from games.rules.core.events import MissionValues, Recorder
from games.rules.core.state import GameState


class MissionRules(Protocol):
    """What phase 6 asks of an adventure."""

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool: ...

    def mission_box(self, letter: str) -> str: ...

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None: ...

LETTERS = ("A", "B", "C")
# The box of each mission on a sheet, where its value is written once accomplished.
MISSION_BOX = {letter: f"mission.{letter}" for letter in LETTERS}
MISSION_BOXES = tuple(MISSION_BOX.values())

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
            "invalid_missions",
            "Missions are chosen by letter A, B or C, not %(unknown)s.",
            unknown=shown(sorted(unknown)),
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
                "Card %(card)s is not a mission %(letter)s of adventure %(adventure)s: choose one of "
                "%(options)s.",
                card=card,
                letter=letter,
                adventure=adventure,
                options=shown(options),
            )
        chosen[letter] = card
    return chosen


def values_of(chosen: dict[str, int]) -> dict[str, MissionValues]:
    """The high (first) and low (later) value of each chosen card: 0 for a card that prints
    none (adventure 5 scores its missions on the sheet)."""
    return {
        letter: {
            "first": int(MISSIONS[card]["first"] or 0),
            "later": int(MISSIONS[card]["later"] or 0),
        }
        for letter, card in chosen.items()
    }


def claimable(state: GameState, rules: MissionRules, seat: int) -> list[str]:
    """The missions ``seat`` may claim now: not accomplished (no value in its box on the seat's
    home sheet), their condition met."""
    marks = state.home_sheet(seat).marks
    return [
        letter
        for letter, card in state.missions.items()
        if rules.mission_box(letter) not in marks and rules.mission_holds(state, seat, card)
    ]


def offer(rec: Recorder, rules: MissionRules) -> bool:
    """Phase 6 begins: offer every seat the missions it may claim. False when none may."""
    state = rec.state
    offers = {}
    for seat in range(state.players):
        letters = claimable(state, rules, seat)
        if letters:
            offers[str(seat)] = letters
    if not offers:
        return False
    rec.missions_offered(offers=offers)
    return True


def gives_first_value(state: GameState, letter: str) -> bool:
    """Whether a claim of mission ``letter`` now gets the high value: its card is not flipped,
    or flipped during this very turn (a later phase 6 of the turn, as Adventure 6 runs)."""
    return letter not in state.flipped_missions or state.flipped_on.get(letter) == state.turn


def reward(rec: Recorder, rules: MissionRules) -> None:
    """Phase 6 ends: every claim of the turn is accomplished, the first turn's at the high
    value (a card flipped earlier in this same turn still gives it), and a card claimed for the
    first time flips."""
    state = rec.state
    for letter, card in state.missions.items():
        seats = [seat for seat in range(state.players) if letter in state.seats[seat].claimed]
        first = gives_first_value(state, letter)
        values = state.mission_values[letter]
        value = values["first"] if first else values["later"]
        box = rules.mission_box(letter)
        named = None if box == MISSION_BOX[letter] else box
        for seat in seats:
            home = state.home_sheet(seat).id
            rec.mission_accomplished(seat, sheet=home, letter=letter, card=card, value=value, box=named)
            rules.reward_mission(rec, seat, value)
        if seats and letter not in state.flipped_missions:
            rec.mission_flipped(letter=letter, card=card)
