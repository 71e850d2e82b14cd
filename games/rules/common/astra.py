"""ASTRA's cards (common.md §10.2-10.3, §10.7; adventure-1-launch.md §9.1): its opponents, its
final score (adventures 2-8) and its rocket track (adventure 1).

Pure functions over the rules data; the solo deck is dealt with the starship cards
(``games.rules.core.cards``), and the solo turn is ``games.rules.turn.solo``.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.rules.core import data
from games.rules.core.cards import ACTIONS
from games.rules.core.errors import RuleViolation, shown

TRACK_ADVENTURE = 1


# --- opponents ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Opponent:
    """An ASTRA Opponent card: a difficulty level and a multiplier per action."""

    level: int
    name: str
    multipliers: Mapping[str, int]


@cache
def opponents() -> dict[int, Opponent]:
    """The 8 opponents by level (1 = easiest)."""
    return {
        raw["level"]: Opponent(raw["level"], raw["name"], dict(raw["multipliers"]))
        for raw in data.common()["astra"]["opponents"]
    }


def opponent(level: int) -> Opponent:
    """The opponent of a level, or a RuleViolation naming the levels."""
    found = opponents().get(level) if isinstance(level, int) else None
    if found is None:
        raise RuleViolation("unknown_opponent", "ASTRA opponents have levels 1 to 8.")
    return found


# --- final score, adventures 2-8 ---------------------------------------------------------


@dataclass(frozen=True)
class AstraScore:
    """ASTRA's score by part: points per action, fixed points, level points, total."""

    by_action: Mapping[str, int]
    fixed: int
    level: int
    total: int


def adventure_card(adventure: int) -> dict[str, Any]:
    for raw in data.common()["astra"]["adventures"]:
        if raw["adventure"] == adventure:
            return dict(raw)
    raise RuleViolation("unknown_adventure", "Adventures are numbered 1 to 8.")


def astra_score(
    adventure: int, opponent_level: int, pile_counts_by_action: Mapping[str, int]
) -> AstraScore:
    """ASTRA's final score: each card of its pile scores the opponent's multiplier for its
    action, plus the adventure's fixed points, plus level x the adventure's points per level.

    Cards removed from the game with ASTRA bonuses are not in the pile and do not count.
    Adventure 1 scores ASTRA on its rocket track instead (see ``RocketTrack``).
    """
    if adventure == TRACK_ADVENTURE:
        raise RuleViolation(
            "astra_scores_on_track", "In adventure 1 ASTRA scores on its rocket track."
        )
    card = adventure_card(adventure)
    foe = opponent(opponent_level)
    unknown = set(pile_counts_by_action) - set(ACTIONS)
    if unknown:
        raise RuleViolation(
            "unknown_action",
            "%(unknown)s are not actions.",
            unknown=shown(sorted(unknown)),
        )
    by_action = {
        action: pile_counts_by_action.get(action, 0) * foe.multipliers[action]
        for action in ACTIONS
    }
    fixed = int(card["fixed_points"])
    level = foe.level * int(card["points_per_level"])
    return AstraScore(by_action, fixed, level, sum(by_action.values()) + fixed + level)


def solo_rank_award(player_count: int, astra_count: int, awards: Sequence[int]) -> int:
    """A "most ..." award in solo: the player is first when their count is at least ASTRA's,
    otherwise second. ASTRA never scores the award itself."""
    return awards[0] if player_count >= astra_count else awards[1]


def solo_winner(player_total: int, astra_total: int) -> str | None:
    """``"player"``, ``"astra"``, or None for an exact tie (a draw)."""
    if player_total == astra_total:
        return None
    return "player" if player_total > astra_total else "astra"


# --- the rocket track of adventure 1 -----------------------------------------------------


@cache
def _track_data() -> dict[str, Any]:
    return dict(data.adventure(TRACK_ADVENTURE)["astra"])


def track() -> tuple[dict[str, Any], ...]:
    """The 81 boxes of ASTRA's track as its card prints them, in crossing order: each box's
    ``id``, ``row`` (1 at the top), ``kind`` (``level_box``, ``rocket``, ``score_box``) and
    its blue number (``label``) or score (``value``)."""
    return tuple(dict(box) for box in _track_data()["track"])


def track_boxes() -> tuple[str, ...]:
    """The 81 boxes of ASTRA's track, in crossing order."""
    return tuple(box["id"] for box in _track_data()["track"])


def precrossed(level: int) -> int:
    """Boxes crossed at setup: every level box whose blue number exceeds the level."""
    opponent(level)
    return sum(
        1
        for box in _track_data()["track"]
        if box["kind"] == "level_box" and box["label"] > level
    )


@dataclass(frozen=True)
class RocketTrack:
    """ASTRA's rocket track in adventure 1: how many of its boxes are crossed, in order."""

    level: int
    crossed: int

    @classmethod
    def start(cls, level: int) -> "RocketTrack":
        """The track at setup for an opponent of ``level``."""
        return cls(level, precrossed(level))

    def give(self, action: str) -> "RocketTrack":
        """The track after ASTRA receives a card of ``action``: as many boxes crossed as
        the opponent's multiplier for it, continuing in track order (never past the end)."""
        if action not in ACTIONS:
            raise RuleViolation(
                "unknown_action",
                "%(action)s is not an action.",
                action=shown(action),
            )
        steps = opponent(self.level).multipliers[action]
        return RocketTrack(self.level, min(self.crossed + steps, len(track_boxes())))

    @property
    def crossed_boxes(self) -> tuple[str, ...]:
        return track_boxes()[: self.crossed]

    @property
    def launched(self) -> bool:
        """ASTRA launches when the last box (the 81st) is crossed."""
        return self.crossed >= len(track_boxes())

    @property
    def score(self) -> int:
        """The lowest score box not crossed (10 ... 140), or 150 once launched."""
        thresholds = _track_data()["score_thresholds"]
        return max(int(t["score"]) for t in thresholds if self.crossed >= t["crossed_at_least"])

