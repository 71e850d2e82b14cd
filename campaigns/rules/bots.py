"""Bot seats' choices between chapters: like the games' bots (``games.rules.play.bots``) they only
ever pick one of the options their decision lists, and know no rule of their own.

- ``random``: any listed card, opponent or mission card, uniformly;
- ``greedy``: the card worth most to itself by a rough reading of its effects (``card_worth``:
  points as they are, a star goal's stars or a chosen mission as a few points, a System Error
  box fewer or a stronger ASTRA as a few points lost; a card aimed at an opponent is worth to
  the chooser what it costs them), aimed at the opponent with the most stars; mission cards at
  random.

Both, as captain, open the next chapter (rules version 2: keep the chapter's result) whenever
it is listed: a replay is a story choice left
to players (a bot replaying at random would drag its table through chapters again), so a bot
replays only a chapter whose next one cannot be played. Remaining ties are broken with the
random generator the caller seeds (by the campaign and the position in its log, so a replay of
the log makes the same choices).
"""

import copy
import random
from collections.abc import Callable
from typing import Any

from campaigns.rules.decider import Decision, Option
from campaigns.rules.packs import Card, Pack
from campaigns.rules.state import CampaignState

Chooser = Callable[[CampaignState, Pack, int, Decision], Option]

# What a card's effect is worth to its holder, in points of a chapter's score (a guess: a star
# is about a rank's worth of points, a usable System Error box a few turns of play).
STAR_WORTH = 4
MISSION_CHOICE_WORTH = 2
START_MARK_WORTH = 3
ERROR_BOX_WORTH = 5
ASTRA_LEVEL_WORTH = 4


def _effect_worth(effect: dict[str, Any]) -> int:
    kind = effect["kind"]
    if kind == "bonus_points":
        return int(effect["points"])
    if kind == "star_goal":
        return STAR_WORTH * int(effect["stars"])
    if kind == "mission_choice":
        return MISSION_CHOICE_WORTH * len(effect["letters"])
    if kind == "start_marks":
        return START_MARK_WORTH * len(effect["marks"])
    if kind == "system_errors":
        return ERROR_BOX_WORTH * int(effect["delta"])
    if kind == "astra_level":
        return -ASTRA_LEVEL_WORTH * int(effect["delta"])
    raise ValueError(f"unknown effect kind {kind!r}")


def card_worth(card: Card) -> int:
    """What a card is worth to the seat choosing it: its effects over every chapter it reaches,
    to the chooser's credit, or its debit for a card aimed at an opponent."""
    worth = sum(_effect_worth(effect) for effect in card.effects) * len(card.chapters)
    return -worth if card.applies_to == "opponent" else worth


GOING_ON = ("next_chapter", "keep_chapter")
CHAPTER_DECISIONS = ("chapter", "keep_or_replay")


def _chapter_choice(decision: Decision) -> Option:
    """The next chapter (rules version 2: keeping the result) when listed, else the one option
    left (a replay)."""
    return next(
        (option for option in decision.options if option["action"] in GOING_ON),
        decision.options[0],
    )


def random_bot(rng: random.Random) -> Chooser:
    """Any listed option, uniformly (the next chapter as captain)."""

    def choose(state: CampaignState, pack: Pack, seat: int, decision: Decision) -> Option:
        if decision.kind in CHAPTER_DECISIONS:
            return _chapter_choice(decision)
        return copy.copy(rng.choice(decision.options))

    return choose


def greedy_bot(rng: random.Random) -> Chooser:
    """The card worth most to itself, aimed at the leader in stars (the next chapter as
    captain; mission cards at random)."""

    def choose(state: CampaignState, pack: Pack, seat: int, decision: Decision) -> Option:
        if decision.kind in CHAPTER_DECISIONS:
            return _chapter_choice(decision)
        cards = [o for o in decision.options if o["action"] == "choose_card"]
        if cards:
            worth = {option["card"]: card_worth(pack.card(option["card"])) for option in cards}
            best = max(worth.values())
            return copy.copy(rng.choice([o for o in cards if worth[o["card"]] == best]))
        aims = [o for o in decision.options if o["action"] == "aim_card"]
        if aims:
            stars = state.stars()
            most = max(stars[option["target"]] for option in aims)
            return copy.copy(rng.choice([o for o in aims if stars[o["target"]] == most]))
        return copy.copy(rng.choice(decision.options))

    return choose


KINDS: dict[str, Callable[[random.Random], Chooser]] = {"random": random_bot, "greedy": greedy_bot}
