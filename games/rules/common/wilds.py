"""Wild actions (common.md §5, phase 4), for the sheets that have them: a wild circled
earlier turns the action of the combination picked into any other action, at most one a turn,
chosen with the pick (``wild`` and ``wild_action`` in it) and crossed once used."""

from collections.abc import Sequence
from typing import Any, TypeVar

from games.rules.common.base import ASTRONAUT, ASTRONAUT_SHIFTS, Adventure
from games.rules.common.options import Choice, Option, WriteOption
from games.rules.core.cards import ACTIONS, Combination
from games.rules.core.errors import N_, RuleViolation, shown
from games.rules.core.events import Recorder, Written
from games.rules.core.layout import WildLayout
from games.rules.core.sheet import CIRCLE, CROSS, MAX_NUMBER, MIN_NUMBER, Marks
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
                N_("No wild action is circled and unused on your sheet at the start of this turn.")
                if wild is None
                else N_("%(wild)s is not circled and unused on your sheet at the start of this turn."),
                wild=shown(wild),
            )
        if action not in ACTIONS:
            return RuleViolation(
                "unknown_action",
                "A wild action becomes one of %(actions)s, not %(action)s.",
                actions=shown(list(ACTIONS)),
                action=shown(action),
            )
        return None

    def choice_options(self, state: GameState, seat: int) -> Sequence[Option]:
        """The writes as dealt (or the System Error), and the writes a wild action allows."""
        options = list(super().choice_options(state, seat))
        marks = state.sheet_of(seat).marks
        wilds = self.available_wilds(marks)
        if wilds:
            candidates = self.open_spaces(marks, self.numbering_zones(marks))
            options.extend(self.wild_writes(state, candidates, wilds[0]))
        return options

    def wild_writes(
        self, state: GameState, candidates: list[tuple[str, int, int]], wild: str
    ) -> list[WriteOption]:
        """Every write of a dealt combination whose action ``wild`` turns into another, in the
        ``candidates`` (empty spaces with the open range of the numbers they take)."""
        raise NotImplementedError

    def wild_and_action(
        self, marks: Marks, combination: Combination, choice: Choice
    ) -> tuple[str | None, str]:
        """The wild a pick spends (None: none) and the action it plays: the card's own, or the
        ``wild_action`` a wild turns it into (refused when no such wild can be used)."""
        wild, action = choice.get("wild"), choice.get("wild_action")
        if wild is None and action is None:
            return None, combination.action
        problem = self.wild_problem(marks, wild, action)
        if problem is not None:
            raise problem
        assert isinstance(action, str) and (wild is None or isinstance(wild, str))
        return wild or self.available_wilds(marks)[0], action

    def modified_number(
        self, index: int, combination: Combination, action: str, choice: Choice
    ) -> tuple[int | None, int]:
        """The Astronaut modifier a pick of combination ``index`` playing ``action`` carries
        (None: none) and the number it writes; refused when the modifier does not fit or the pick
        names another number."""
        modifier = choice.get("modifier")
        problem = self.modifier_problem(combination.number, action, modifier)
        if problem is not None:
            raise problem
        assert modifier is None or isinstance(modifier, int)
        number = combination.number + (modifier or 0)
        if choice.get("number", number) != number:
            raise RuleViolation(
                "number_not_in_combination",
                "Combination %(index)s with this pick writes %(number)s, not %(value)s.",
                index=index,
                number=number,
                value=shown(choice.get('number')),
            )
        return modifier, number

    @staticmethod
    def modifier_problem(number: int, action: str, modifier: Any) -> RuleViolation | None:
        """Why ``modifier`` cannot change ``number`` with ``action`` (None: no modifier)."""
        if modifier is None:
            return None
        if action != ASTRONAUT:
            return RuleViolation(
                "modifier_not_allowed",
                "Only an Astronaut action modifies the number, not %(action)s.",
                action=action,
            )
        if not isinstance(modifier, int) or modifier not in ASTRONAUT_SHIFTS:
            return RuleViolation(
                "modifier_out_of_range",
                "The Astronaut modifier goes from -2 to +2, not %(modifier)s.",
                modifier=shown(modifier),
            )
        if not MIN_NUMBER <= number + modifier <= MAX_NUMBER:
            return RuleViolation(
                "number_out_of_range",
                "%(number)s %(modifier)s = %(value)s is not a number you can write (%(min_number)s to "
                "%(max_number)s).",
                number=number,
                modifier=format(modifier, '+d'),
                value=number + modifier,
                min_number=MIN_NUMBER,
                max_number=MAX_NUMBER,
            )
        return None

    @staticmethod
    def written(
        index: int, space: str, number: int, action: str, *, modifier: int | None, wild: str | None
    ) -> Written:
        """What a write records: its combination, space, number and action, with the Astronaut's
        ``modifier`` and the ``wild`` spent when it has them."""
        written: Written = {"combination": index, "space": space, "number": number, "action": action}
        if modifier is not None:
            written["modifier"] = modifier
        if wild is not None:
            written["wild"] = wild
        return written

    def cross_next(self, rec: Recorder, seat: int, track: tuple[str, ...]) -> str | None:
        """Cross the next symbol of a track; a symbol the layout ties to a wild action
        (``wild_reward``: every second astronaut or planning symbol) circles it."""
        symbol = super().cross_next(rec, seat, track)
        wild = self.layout.wild_reward.get(symbol) if symbol is not None else None
        if wild is not None:
            rec.mark(seat, element=wild, mark=CIRCLE)
        return symbol

    def listed_write(self, state: GameState, option: WriteOption) -> Written:
        written: Written = {
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

    def after_write(self, rec: Recorder, seat: int, written: Written, combination: Any) -> None:
        """A wild used is crossed; the Astronaut action is used (or not) at the pick; the other
        actions wait as their steps."""
        if "wild" in written:
            rec.mark(seat, element=written["wild"], mark=CROSS)
        action = written["action"]
        if action == ASTRONAUT:
            if "modifier" in written:
                self.cross_next(rec, seat, self.layout.astronaut_track)
            return
        rec.effects_pending(seat, source=action, effects=[f"action.{action}"])
