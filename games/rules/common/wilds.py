"""Wild actions (common.md §5, phase 4), for the sheets that have them: a wild circled
earlier turns the action of the combination picked into any other action, at most one a turn,
chosen with the pick (``wild`` and ``wild_action`` in it) and crossed once used."""

from typing import Any, TypeVar

from games.rules.common.base import ASTRONAUT, Adventure, Option
from games.rules.core.cards import ACTIONS
from games.rules.core.errors import RuleViolation
from games.rules.core.events import Recorder
from games.rules.core.layout import WildLayout
from games.rules.core.sheet import CIRCLE, CROSS, Marks
from games.rules.core.state import GameState

W = TypeVar("W", bound=WildLayout)


class WildActions(Adventure[W]):
    """What every sheet with wild actions shares. By default a pick records the action it
    plays (``action``: the card's, or the wild's) and an Astronaut is used at the pick by
    changing the number; a sheet whose write does more overrides ``listed_write`` and
    ``after_write``."""

    def available_wilds(self, marks: Marks) -> list[str]:
        """Wild actions circled and not crossed yet."""
        return [wild for wild in self.layout.wilds if marks.get(wild) == CIRCLE]

    def wild_problem(self, marks: Marks, wild: Any, action: Any) -> RuleViolation | None:
        """Why ``wild`` (None: the first available) cannot turn this turn's action into
        ``action``, or None."""
        available = self.available_wilds(marks)
        chosen = wild if wild is not None else next(iter(available), None)
        if chosen is None or chosen not in available:
            return RuleViolation(
                "wild_not_available",
                f"{wild or 'A wild action'} is not circled and unused on your sheet at the "
                "start of this turn.",
            )
        if action not in ACTIONS:
            return RuleViolation(
                "unknown_action", f"A wild action becomes one of {list(ACTIONS)}, not {action!r}."
            )
        return None

    def listed_write(self, state: GameState, option: Option) -> dict[str, Any]:
        written: dict[str, Any] = {
            "combination": option["combination"],
            "space": option["space"],
            "number": option["number"],
            "action": option.get("wild_action") or state.combinations[option["combination"]].action,
        }
        if "modifier" in option:
            written["modifier"] = option["modifier"]
        if "wild" in option:
            written["wild"] = option["wild"]
        return written

    def after_write(self, rec: Recorder, seat: int, written: dict[str, Any], combination: Any) -> None:
        """A wild used is crossed; the Astronaut action is used (or not) at the pick; the other
        actions wait as their steps."""
        if "wild" in written:
            rec.emit("mark", seat, element=written["wild"], mark=CROSS)
        action = written["action"]
        if action == ASTRONAUT:
            if "modifier" in written:
                self.cross_next(rec, seat, self.layout.astronaut_track)
            return
        rec.emit("effects_pending", seat, source=action, effects=[f"action.{action}"])
