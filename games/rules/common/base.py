"""The rules every adventure shares, as one concrete base with default hooks.

An adventure's rules subclass ``Adventure`` (as python-chess's variant boards subclass its
``Board``) and hold only what its sheet does differently: its layout data, its actions as a
table of steps, its missions as a table of conditions, its reactions and its scoring. What is the
same on every sheet lives here once, as common.md states it:

- setup (§4): a sheet per seat, modifiers checked against the sheet, a sheet's opening setup;
- phases 2-3 (§5): every legal write listed from the open range of each empty space, a pick
  checked and written, the Astronaut's -2 to +2, the System Error when nothing can be written
  (§7; marking no box when none is left: an ASTRA Effect card can circle the last one before
  the player's pick, and the game then ends with that turn);
- phase 4 (§5): steps waiting for a choice, offered with their uses (and a skip when
  optional), settled by themselves when they can change nothing;
- phase 5: races (§6); phase 6: mission conditions by card (§8);
- the general end conditions, the score and final ranks by score then fewer System Errors,
  and "most ..." awards by dense ranking (§9);
- solo (§10): what an Effect card crosses on the sheet (by default one of the race bonuses
  still unmarked, the player's choice), what earns ASTRA bonuses (by default circling a race
  bonus), the result against ASTRA's total, and (adventure 8 only) the card ASTRA places on the
  sheets itself each round.
"""

from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Generic, TypedDict, TypeVar, cast

from games.rules.common import astra
from games.rules.common import modifiers as modifiers_rules
from games.rules.common.missions import LETTERS, MISSION_BOX, MISSION_BOXES
from games.rules.common.modifiers import SheetSetup
from games.rules.common.options import (
    Choice,
    Option,
    SkipOption,
    StepOption,
    Target,
    WriteOption,
)
from games.rules.core import cards, data
from games.rules.core.cards import Combination
from games.rules.core.errors import N_, RuleViolation, Text, shown
from games.rules.core.events import (
    MARK,
    AstraResult,
    Event,
    Recorder,
    Result,
    SeatSetup,
    Written,
    marked_elements,
)
from games.rules.core.events import SheetSetup as SheetOpening
from games.rules.core.layout import SheetLayout
from games.rules.core.sheet import (
    CIRCLE,
    CROSS,
    MAX_NUMBER,
    MIN_NUMBER,
    Mark,
    Marks,
    X,
    all_filled,
    first_unmarked,
    open_ranges,
    open_runs,
    placement_problem,
)
from games.rules.core.state import GameState, Sheet

Uses = Callable[[GameState, int, str], Iterable[StepOption]]
Use = Callable[[Recorder, int, str, Choice], None]
Condition = Callable[[Sheet], bool]
# A part of a sheet's areas: the elements it reads, and its points from the sheet's marks.
AreaPart = tuple[Collection[str], Callable[[Marks], int]]
# How the prospects change to the sheets a decision's options lead to (``Adventure.prospects_change``).
Prospects = Callable[["GameState", "Sheet", Marks, Collection[str] | None, Option | None], int]
L = TypeVar("L", bound=SheetLayout)


def parts_index(parts: Sequence[AreaPart]) -> dict[str, list[int]]:
    """The indexes in ``parts`` of the parts each element is read by."""
    parts_of: dict[str, list[int]] = {}
    for index, (elements, _) in enumerate(parts):
        for element in elements:
            parts_of.setdefault(element, []).append(index)
    return parts_of


def parts_change(
    parts: Sequence[AreaPart],
    parts_of: dict[str, list[int]],
    elements: Iterable[str],
    before: Marks,
    after: Marks,
    known: dict[int, int],
) -> int:
    """How much the points of the parts reading ``elements`` (``parts_of``: ``parts_index``)
    change from the marks ``before`` to those ``after``; ``known`` keeps each part's points
    before, by index, as they are first worked out (a bot weighs many options of one state)."""
    change = 0
    for index in {index for element in elements for index in parts_of.get(element, ())}:
        value = parts[index][1]
        old = known.get(index)
        if old is None:
            old = known[index] = value(before)
        change += value(after) - old
    return change


def plain_marks(option: Mapping[str, Any]) -> Marks | None:
    """The marks of the options every adventure makes alike (``Adventure.listed_marks``): a
    write's number in its space, a Planning X, nothing for a skip; None for any other action."""
    action = option["action"]
    if action == "write":
        return {option["space"]: option["number"]}
    if action == "skip":
        return {}
    if action == "planning":
        return {option["space"]: X}
    return None


ASTRONAUT = "astronaut"
ASTRONAUT_SHIFTS = (-2, -1, 0, 1, 2)
END_REASONS = ("all_missions", "all_system_errors", "sheet_full")
MISSION_BOX_SET = frozenset(MISSION_BOXES)


def astronaut_numbers(number: int) -> list[int]:
    """The numbers an Astronaut action can make of ``number``: -2 to +2, within 0-17."""
    return [
        number + shift
        for shift in ASTRONAUT_SHIFTS
        if MIN_NUMBER <= number + shift <= MAX_NUMBER
    ]


def dense_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Rank 1 for the best key; equal keys share a rank; the next key takes the next rank.

    Keys must sort best-first in ascending order.
    """
    ordered = sorted(set(keys))  # type: ignore[type-var]
    position = {key: index + 1 for index, key in enumerate(ordered)}
    return [position[key] for key in keys]


def rank_awards(counts: Sequence[int], awards: Sequence[int], *, zero_scores: bool) -> list[int]:
    """The points each player earns in a "most ..." award (e.g. 20/10/5).

    The highest count is first; tied players all take the points of the position they tie
    for and the next count takes the next position's points (dense ranking). Positions past
    the printed awards earn nothing, and neither does a count of 0 unless ``zero_scores``.
    """
    ranks = dense_ranks([-count for count in counts])
    return [
        awards[rank - 1] if rank <= len(awards) and (count > 0 or zero_scores) else 0
        for count, rank in zip(counts, ranks, strict=True)
    ]


def standard_end_reasons(state: GameState, *, spaces: Collection[str]) -> list[dict[str, Any]]:
    """The general end conditions (common.md §9) met now, each with the seats that met it.

    A seat ends the game when it has all three missions, has marked every usable System Error
    box, or has filled every numbering space in ``spaces``.
    """
    met: dict[str, list[int]] = {reason: [] for reason in END_REASONS}
    for seat in range(state.players):
        sheet = state.sheet_of(seat)
        marks: Marks = sheet.marks
        if all_filled(marks, MISSION_BOXES):
            met["all_missions"].append(seat)
        if all_filled(marks, sheet.error_boxes):
            met["all_system_errors"].append(seat)
        if all_filled(marks, spaces):  # a frozenset or the keys of the layout's spaces
            met["sheet_full"].append(seat)
    return [{"reason": reason, "seats": seats} for reason, seats in met.items() if seats]


def number_changed(state: GameState, write: WriteOption) -> bool:
    """Whether a write option changes its combination's number (an Astronaut action used)."""
    return write["number"] != state.combinations[write["combination"]].number


def error_choices(free: Sequence[str]) -> list[str | None]:
    """The boxes a System Error may mark: those ``free`` now, or, with none left, no box."""
    return list(free) or [None]


class Accomplished(TypedDict):
    """What a seat accomplished in a finished game, as a campaign's chapter result reads it."""

    missions: list[str]  # the letters of the missions written on its sheet
    system_errors: int  # the System Error boxes it marked


@dataclass(frozen=True)
class Step:
    """How one kind of waiting step is used: every way to use it now (empty: it can change
    nothing), and how a chosen use is checked and recorded."""

    uses: Uses
    use: Use


def not_a_mark_for(element: str, mark: Any) -> RuleViolation:
    """The refusal of a starting mark that ``element`` cannot take."""
    return RuleViolation(
        "invalid_modifier", "%(mark)s is not a mark for %(element)s.", mark=shown(mark), element=element
    )


class Adventure(Generic[L]):
    """The rules of one adventure. Subclasses name their layout class (which names its data
    file), give their step and mission tables, and override the hooks their sheet needs."""

    layout_class: type[L]
    # How a refusal names a numbering space of this sheet (with its article: a Text param).
    space_word = N_("a space")
    # The words a setup modifier may mark on an element that is not a numbering space.
    start_mark_words: tuple[str, ...] = (CIRCLE, CROSS)
    # Whether an Astronaut combination may write its number changed by -2 to +2.
    astronaut_modifies = True
    # Whether a combination's action waits as a step once its number is written.
    action_steps = True
    # How a step with no possible use is resolved when it settles by itself.
    settle_outcome = "no_effect"
    # Whether the steps of one frame are alike, the first standing for all (listed once).
    frame_steps_alike = False
    # The fewest seats a game of this adventure is dealt for without ASTRA (fewer: one player
    # against ASTRA only); ``players_problem`` says which counts are not played at all.
    min_players = 1
    # The TypedDicts of what ``seat_score`` and ``derived`` give (and ``sheet_score``, when a
    # sheet is scored otherwise than a seat): the API's schema is made of them, and a test holds
    # what each adventure gives to them.
    score_shape: Any
    derived_shape: Any

    @property
    def sheet_score_shape(self) -> Any:
        """The TypedDict of ``sheet_score``'s answer: by default a seat's score's."""
        return self.score_shape

    def __init__(self) -> None:
        self.layout: L = self.layout_class(data.adventure(self.layout_class.adventure))
        self.steps = self.step_table()
        self.missions = self.mission_table()
        # Whether a space belongs to two numbering zones at once (as the Colony's grid does).
        spaces = [space for zone in self.layout.zone_spaces for space in zone]
        self.zones_overlap = len(spaces) != len(set(spaces))

    @property
    def number(self) -> int:
        return self.layout_class.adventure

    @property
    def key(self) -> str:
        return str(self.layout.raw["key"])

    @property
    def name(self) -> str:
        return str(self.layout.raw["name"])

    def step_table(self) -> dict[str, Step]:
        """How each kind of waiting step is used, by action (``step_action``)."""
        return {}

    def mission_table(self) -> dict[int, Condition]:
        """The condition of each mission card of the adventure, on one sheet."""
        return {}

    def astronaut_step(self, use: Use | None = None) -> Step:
        """The Astronaut action as a step: usable while an astronaut symbol is left; by default
        its use crosses the next symbol (``cross_astronaut``)."""
        return Step(
            uses=self.while_left("astronaut", self.astronaut_track), use=use or self.cross_astronaut
        )

    def cross_astronaut(self, rec: Recorder, seat: int, step: str, choice: Choice) -> None:
        """The Astronaut step used: its next symbol crossed, and named as the step's target."""
        symbol = first_unmarked(rec.sheet(seat).marks, self.astronaut_track)
        self.resolve_step(rec, seat, step, outcome="crossed", target=symbol)
        self.cross_next(rec, seat, self.astronaut_track)

    def planning_step(self, use: Use) -> Step:
        """The Planning action as a step: an X in any empty numbering space."""
        return Step(uses=self.each_unmarked("planning", "space", tuple(self.layout.spaces)), use=use)

    # --- setup ---------------------------------------------------------------------------

    def players_problem(self, players: int) -> RuleViolation | None:
        """Why a game of this adventure cannot be dealt for ``players`` seats (1 to 6, checked
        before), or None: by default every count is played."""
        return None

    def seating(
        self, players: int, modifiers: dict[int, list[dict[str, Any]]]
    ) -> tuple[list[SheetOpening], list[SeatSetup]]:
        """The sheets of a game with who plays on each, and each seat's sheets: by default
        sheet n is seat n's alone, set up with its (validated) modifiers."""
        sheets = [self.own_sheet(seat, modifiers.get(seat, [])) for seat in range(players)]
        return sheets, [{"sheets": [seat]} for seat in range(players)]

    def own_sheet(self, seat: int, modifiers: list[dict[str, Any]]) -> SheetOpening:
        """Sheet ``seat``, seat ``seat``'s alone, as the game opens with its setup modifiers."""
        setup = self.sheet_setup(modifiers)
        return {
            "id": seat,
            "seats": [seat],
            "error_boxes": setup["error_boxes"],
            "marks": setup["marks"],
            "bonus_points": setup["bonus_points"],
        }

    def mark_problem(self, element: Any, mark: Any) -> RuleViolation | None:
        """Why a setup modifier cannot put ``mark`` on ``element``, or None: an X in a
        numbering space, or one of ``start_mark_words`` on another element of the sheet."""
        if not isinstance(element, str) or (
            element not in self.layout.spaces and element not in self.layout.markable
        ):
            return RuleViolation(
                "invalid_modifier", "%(element)s is not an element of this sheet.", element=shown(element)
            )
        if element in self.layout.spaces:
            return None if mark == X else RuleViolation(
                "invalid_modifier", "A starting mark in space %(space)s can only be X.", space=element
            )
        return None if mark in self.start_mark_words else not_a_mark_for(element, mark)

    def validate_modifiers(self, modifiers: list[dict[str, Any]]) -> list[tuple[str, Any]]:
        """Refuse a modifier this sheet cannot take (RuleViolation); return the start marks."""
        return modifiers_rules.validate(
            modifiers, error_boxes=len(self.layout.error_boxes), mark_problem=self.mark_problem
        )

    def sheet_setup(self, modifiers: list[dict[str, Any]]) -> SheetSetup:
        """A blank sheet with the seat's (validated) setup modifiers applied."""
        return modifiers_rules.sheet_from(
            modifiers, error_boxes=self.layout.error_boxes, marks=self.layout.printed_marks
        )

    def begin_setup(self, rec: Recorder, seat: int) -> None:
        """Leave the steps a seat resolves before the first turn, if its sheet has any to
        choose at setup (none by default)."""

    # --- phases 2-3: pick a combination and write its number -----------------------------

    def play_pick(self, rec: Recorder, seat: int, choice: Choice, *, listed: bool) -> None:
        """Phases 2-3: write a combination's number, or take a System Error (``listed``: the
        choice is one of the seat's options, so already known to be legal)."""
        action = choice.get("action")
        if action == "write":
            self.play_write(rec, seat, choice, listed=listed)
        elif action == "system_error":
            self.play_system_error(rec, seat, choice, listed=listed)
        else:
            raise RuleViolation(
                "illegal_choice",
                "Pick a combination and a space to write its number (action \"write\"), or take a "
                "System Error when no number can be written.",
            )

    def numbering_zones(self, marks: Marks) -> list[tuple[str, ...]]:
        """The zones in which numbers must ascend now, each as its spaces in order (by default
        the zones of the layout, whatever the marks)."""
        return self.layout.zone_spaces

    def zone_name(self, zone: Sequence[str]) -> str:
        """How a player names a zone, in a refusal."""
        return f"the zone of {zone[0]}"

    def zones_of(self, marks: Marks, space: str) -> list[tuple[str, ...]]:
        """The numbering zones ``space`` belongs to now."""
        return [zone for zone in self.numbering_zones(marks) if space in zone]

    def zones_for(self, marks: Marks, action: str) -> list[tuple[str, ...]]:
        """The zones a number of ``action`` may go in (by default every zone)."""
        return self.numbering_zones(marks)

    def numbers_of(self, combination: Combination) -> list[int]:
        """The numbers a combination can write: its own, or with an Astronaut action (where
        the adventure allows it) every number -2 to +2 away within 0-17."""
        if self.astronaut_modifies and combination.action == ASTRONAUT:
            return astronaut_numbers(combination.number)
        return [combination.number]

    def write_options(self, state: GameState, seat: int) -> Sequence[Option]:
        """Every legal write of the dealt combinations."""
        marks = state.sheet_of(seat).marks
        options: list[WriteOption] = []
        # The open spaces of each set of zones, worked out once however many actions share it.
        open_in: dict[int, list[tuple[str, int, int]]] = {}
        for index, combination in enumerate(state.combinations):
            zones = self.zones_for(marks, combination.action)
            candidates = open_in.get(id(zones))
            if candidates is None:
                candidates = open_in[id(zones)] = self.open_spaces(marks, zones)
            for number in self.numbers_of(combination):
                options += [
                    {"action": "write", "combination": index, "space": space, "number": number}
                    for space, low, high in candidates
                    if low < number < high
                ]
        return options

    def open_spaces(
        self, marks: Marks, zones: list[tuple[str, ...]]
    ) -> list[tuple[str, int, int]]:
        """Every empty space of ``zones`` with the open range of the numbers it takes now
        (a space in two zones takes what both allow)."""
        if self.zones_overlap:
            return [(space, low, high) for space, (low, high) in open_ranges(marks, zones).items()]
        return [run for zone in zones for run in open_runs(marks, zone)]

    def choice_options(self, state: GameState, seat: int) -> Sequence[Option]:
        """Phases 2-3: every legal write, or the System Error boxes when none."""
        writes = self.write_options(state, seat)
        if writes:
            return writes
        return [
            {"action": "system_error", "box": box}
            for box in error_choices(self.error_boxes_to_mark(state.sheet_of(seat)))
        ]

    def placement_problem(self, marks: Marks, space: str, number: int) -> RuleViolation | None:
        """Why ``number`` cannot go in ``space``: the ascending rule of each of its zones."""
        for zone in self.zones_of(marks, space):
            problem = placement_problem(marks, zone, space, number, zone_name=self.zone_name(zone))
            if problem is not None:
                return problem
        return None

    def space_problem(self, marks: Marks, space: Any) -> RuleViolation | None:
        """Why ``space`` cannot take a number or an X, or None."""
        if not isinstance(space, str) or space not in self.layout.spaces:
            return RuleViolation(
                "unknown_space",
                "%(space)s is not %(space_word)s of this sheet.",
                space=shown(space),
                space_word=Text(self.space_word),
            )
        if space in marks:
            return RuleViolation(
                "space_not_empty",
                "Space %(space)s is already filled.",
                space=space,
            )
        return None

    def number_problem(
        self, index: int, combination: Combination, number: Any
    ) -> RuleViolation | None:
        """Why a pick of ``combination`` cannot write ``number``, or None."""
        if isinstance(number, int) and number in self.numbers_of(combination):
            return None
        if self.astronaut_modifies and combination.action == ASTRONAUT:
            return RuleViolation(
                "astronaut_modifier_out_of_range",
                "The Astronaut action changes %(number)s by -2 to +2 within %(min_number)s-%(max_number)s: "
                "%(number2)s is out of reach.",
                number=combination.number,
                min_number=MIN_NUMBER,
                max_number=MAX_NUMBER,
                number2=shown(number),
            )
        return RuleViolation(
            "number_not_in_combination",
            "Combination %(index)s shows %(number)s, not %(number2)s; only an Astronaut combination "
            "changes its number.",
            index=index,
            number=combination.number,
            number2=shown(number),
        )

    def check_write(self, state: GameState, seat: int, choice: Choice) -> Written:
        """The data of the number_written event a pick makes, or the RuleViolation it breaks."""
        index, combination = cards.chosen_combination(state.combinations, choice)
        number = choice.get("number", combination.number)
        space = choice.get("space")
        marks = state.sheet_of(seat).marks
        problem = self.number_problem(index, combination, number) or self.space_problem(marks, space)
        if problem is not None:
            raise problem
        assert isinstance(space, str) and isinstance(number, int)
        problem = self.action_space_problem(combination.action, space) or self.placement_problem(
            marks, space, number
        )
        if problem is not None:
            raise problem
        written: Written = {"combination": index, "space": space, "number": number}
        if self.astronaut_modifies and combination.action == ASTRONAUT:
            written["modifier"] = number - combination.number
        return written

    def score_effect(self, state: GameState, seat: int, option: Option) -> Any:
        """What a listed option changes that the score can see: options of one decision with
        the same effect leave the same score (the greedy bot scores one option per effect);
        None when not known, to score the option on its own.

        By default a write's effect is its space and whether an Astronaut action was used by
        changing the number: a number's value only orders its zone, it scores nothing."""
        if option["action"] != "write":
            return None
        write = cast(WriteOption, option)
        return (write["space"], number_changed(state, write))

    def score_effects(self, state: GameState, seat: int, options: Sequence[Option]) -> list[Any]:
        """``score_effect`` of each of ``options`` (a decision's): an adventure whose effects
        cost a look at the sheet works out what they share once."""
        return [self.score_effect(state, seat, option) for option in options]

    def prospects(self, state: GameState, sheet: Sheet, marks: Marks) -> int:
        """What a player weighs that the score cannot see yet, compared only between options
        that score alike (the greedy bot's second criterion): 0 unless a sheet says more."""
        return 0

    def action_space_problem(self, action: str, space: str) -> RuleViolation | None:
        """Why a number of ``action`` cannot go in ``space`` (adventures tying zones to
        actions), or None."""
        return None

    def listed_write(self, state: GameState, option: WriteOption) -> Written:
        """The data of the number_written event of a listed write option (known legal): what
        ``check_write`` gives for it, without checking again."""
        combination = state.combinations[option["combination"]]
        written: Written = {
            "combination": option["combination"],
            "space": option["space"],
            "number": option["number"],
        }
        if self.astronaut_modifies and combination.action == ASTRONAUT:
            written["modifier"] = option["number"] - combination.number
        return written

    def play_write(self, rec: Recorder, seat: int, choice: Choice, *, listed: bool) -> None:
        """Check and record a pick: a combination and where its number goes (``listed``: the
        choice is one of the write options, so already known to be legal)."""
        if listed:
            written = self.listed_write(rec.state, cast(WriteOption, choice))
        else:
            written = self.check_write(rec.state, seat, choice)
        rec.number_written(seat, written)
        combination = rec.state.combinations[written["combination"]]
        self.after_write(rec, seat, written, combination)
        self.settle(rec, seat)

    def after_write(
        self, rec: Recorder, seat: int, written: Written, combination: Combination
    ) -> None:
        """The reactions of a number just written, and the action it leaves to use: by
        default the action waits as its step, except an Astronaut action already used by
        changing the number (its next symbol is crossed at once)."""
        self.after_fill(rec, seat, written["space"])
        action = combination.action
        if not self.action_steps:
            return
        if action == ASTRONAUT and written.get("modifier", 0) != 0:
            self.cross_next(rec, seat, self.astronaut_track)
            return
        rec.effects_pending(seat, source=action, effects=[f"action.{action}"])

    def after_fill(self, rec: Recorder, seat: int, space: str) -> None:
        """The reactions of a space just filled, by a number or an X (none by default)."""

    # --- System Errors ---------------------------------------------------------------------

    def error_boxes_to_mark(self, sheet: Sheet) -> list[str]:
        """The System Error boxes a seat may mark now: the next one, top to bottom."""
        box = first_unmarked(sheet.marks, sheet.error_boxes)
        return [box] if box is not None else []

    def error_box_refusal(self, sheet: Sheet, box: Any) -> RuleViolation:
        free = self.error_boxes_to_mark(sheet)
        return RuleViolation(
            "error_box_not_next",
            "System Error boxes are crossed top to bottom: the next one is %(value)s.",
            value=free[0] if free else None,
        )

    def play_system_error(self, rec: Recorder, seat: int, choice: Choice, *, listed: bool) -> None:
        """Check and record a System Error taken because no number can be written
        (``listed``: the choice is one of the options, so already known to be legal)."""
        sheet = rec.sheet(seat)
        if not listed and self.write_options(rec.state, seat):
            raise RuleViolation(
                "number_must_be_written",
                "At least one combination can be written: you must write one.",
            )
        free = self.error_boxes_to_mark(sheet)
        box = choice.get("box", free[0] if free else None)
        if box not in error_choices(free):
            raise self.error_box_refusal(sheet, box)
        assert box is None or isinstance(box, str)  # one of the choices
        rec.system_error(seat, box=box, cause="no_writable_number")
        if isinstance(box, str):
            self.after_system_error(rec, seat, box)

    def after_system_error(self, rec: Recorder, seat: int, box: str) -> None:
        """What marking a System Error box gives (some sheets compensate)."""

    # --- tracks crossed symbol by symbol -----------------------------------------------------

    @property
    def astronaut_track(self) -> tuple[str, ...]:
        """The astronaut symbols crossed one by one as the action is used."""
        return ()

    def cross_next(self, rec: Recorder, seat: int, track: tuple[str, ...]) -> str | None:
        """Cross the next symbol of a track; past the last, nothing. Returns what it crossed."""
        symbol = first_unmarked(rec.sheet(seat).marks, track)
        if symbol is not None:
            rec.mark(seat, element=symbol, mark=CROSS)
        return symbol

    # --- phase 4 and reactions: steps waiting for a choice ---------------------------------

    @staticmethod
    def each_unmarked(action: str, key: Target, elements: Sequence[str]) -> Uses:
        """Uses of a step: one for each of ``elements`` not marked yet, named under ``key``."""

        def uses(state: GameState, seat: int, step: str) -> Iterable[StepOption]:
            marks = state.sheet_of(seat).marks
            # each option a dict display, with no call an option (a Planning step lists every
            # empty space); cast once, its key a ``Target``
            found = (
                {"action": action, "effect": step, key: element}
                for element in elements
                if element not in marks
            )
            return cast(Iterable[StepOption], found)

        return uses

    @staticmethod
    def each_of(action: str, key: Target, candidates: Callable[[Marks], Iterable[str]]) -> Uses:
        """Uses of a step: one for each element ``candidates`` finds on the sheet now."""

        def uses(state: GameState, seat: int, step: str) -> Iterable[StepOption]:
            found = candidates(state.sheet_of(seat).marks)
            made = ({"action": action, "effect": step, key: element} for element in found)
            return cast(Iterable[StepOption], made)

        return uses

    @staticmethod
    def while_left(action: str, track: Sequence[str]) -> Uses:
        """Uses of a step: one while a symbol of ``track`` is left to cross, none past it."""

        def uses(state: GameState, seat: int, step: str) -> Iterable[StepOption]:
            if first_unmarked(state.sheet_of(seat).marks, track) is None:
                return ()
            return ({"action": action, "effect": step},)

        return uses

    def write_x(
        self, rec: Recorder, seat: int, step: str, choice: Choice, *, outcome: str = "x_written"
    ) -> str:
        """Resolve ``step`` by an X in the empty space the choice names (Planning, a building
        effect...), with the reactions of the filled space; returns the space."""
        space = choice.get("space")
        problem = self.space_problem(rec.sheet(seat).marks, space)
        if problem is not None:
            raise problem
        assert isinstance(space, str)
        self.resolve_step(rec, seat, step, outcome=outcome, target=space)
        rec.mark(seat, element=space, mark=X)
        self.after_fill(rec, seat, space)
        return space

    def step_action(self, step: str) -> str:
        """The action a waiting step is used with (its key in ``steps``)."""
        return step.removeprefix("action.")

    def step_optional(self, step: str) -> bool:
        """Whether a seat may skip the step."""
        return step.startswith("action.")

    def skip_refusal(self, step: str) -> RuleViolation:
        return RuleViolation(
            "effect_not_optional",
            "%(step)s must be used while it can be.",
            step=step,
        )

    def uses_of(self, state: GameState, seat: int, step: str) -> list[StepOption]:
        """Every way to use ``step`` now (empty: it can change nothing)."""
        return list(self.steps[self.step_action(step)].uses(state, seat, step))

    def usable(self, state: GameState, seat: int, step: str) -> bool:
        """Whether ``step`` can change anything now (its first use is enough to know)."""
        uses = self.steps[self.step_action(step)].uses(state, seat, step)
        return next(iter(uses), None) is not None

    def effect_options(self, state: GameState, seat: int) -> list[Option]:
        """Every legal choice for the step(s) waiting on top of the seat's stack."""
        pending = state.seats[seat].pending
        if not pending:
            return []
        frame = pending[-1][:1] if self.frame_steps_alike else pending[-1]
        options: list[Option] = []
        for step in frame:
            options.extend(self.uses_of(state, seat, step))
            if self.step_optional(step):
                skip: SkipOption = {"action": "skip", "effect": step}
                options.append(skip)
        return options

    def play_effect(self, rec: Recorder, seat: int, choice: Choice) -> None:
        """Check and record the use (or skip) of a waiting step."""
        step = choice.get("effect")
        pending = rec.seat(seat).pending
        if not isinstance(step, str) or step not in pending[-1]:
            raise RuleViolation(
                "effect_not_pending",
                "%(step)s is not waiting for your choice; resolve one of %(value)s first.",
                step=shown(step),
                value=shown(pending[-1]),
            )
        action = choice.get("action")
        expected = self.step_action(step)
        if action == "skip":
            if not self.step_optional(step):
                raise self.skip_refusal(step)
            self.resolve_step(rec, seat, step, outcome="skipped", target=None)
        elif action == expected:
            self.steps[expected].use(rec, seat, step, choice)
        else:
            raise RuleViolation(
                "illegal_choice",
                "%(step)s is resolved with %(expected)s or a skip, not %(action)s.",
                step=step,
                expected=shown(expected),
                action=shown(action),
            )
        self.settle(rec, seat)

    def use_on(
        self, rec: Recorder, seat: int, step: str, target: object, problem: RuleViolation | None, *,
        outcome: str, mark: Mark,
    ) -> None:
        """A step used on ``target``: refused with ``problem`` when there is one, else resolved
        naming ``target``, which is marked with ``mark``."""
        if problem is not None:
            raise problem
        assert isinstance(target, str)  # with no problem, one of the sheet's elements
        self.resolve_step(rec, seat, step, outcome=outcome, target=target)
        rec.mark(seat, element=target, mark=mark)

    def resolve_step(self, rec: Recorder, seat: int, step: str, *, outcome: str, target: Any) -> None:
        """Record that a waiting step is done with, and how."""
        rec.effect_resolved(seat, effect=step, outcome=outcome, target=target)

    def settle(self, rec: Recorder, seat: int) -> None:
        """Resolve by themselves (with ``settle_outcome``) the steps on top of the stack that
        can change nothing, until the top holds a step the seat can use or the stack is empty:
        a seat is only asked about steps it can really use."""
        state = rec.state  # the recorder's state for good: only its seats and sheets are replaced
        usable = self.usable
        while pending := state.seats[seat].pending:
            useless = [step for step in pending[-1] if not usable(state, seat, step)]
            if not useless:
                return
            for step in useless:
                self.resolve_step(rec, seat, step, outcome=self.settle_outcome, target=None)

    # --- phase 5: incidents and races ------------------------------------------------------

    def race_elements(self) -> tuple[str, ...]:
        """The bonuses that go to the first players to circle them (in the same turn)."""
        return ()

    def incidents(self, rec: Recorder) -> None:
        """Phase 5, for all seats at once: by default, the races."""
        self.settle_races(rec)

    def settle_races(self, rec: Recorder) -> None:
        """A race bonus circled this turn on any sheet is crossed on every sheet where it is
        still unmarked; all who circled it this turn keep it."""
        sheets = rec.state.sheets
        for element in self.race_elements():
            if not any(
                sheet.marks.get(element) == CIRCLE and element not in sheet.turn_start_marks
                for sheet in sheets
            ):
                continue
            for sheet in sheets:
                if element not in sheet.marks:
                    rec.mark(sheet.seats[0], sheet=sheet.id, element=element, mark=CROSS)

    # --- phase 6: missions -------------------------------------------------------------------

    def mission_holds(self, state: GameState, seat: int, card: int) -> bool:
        """Whether the seat's sheet meets the mission's condition now."""
        return self.mission_holds_on(state.sheet_of(seat), card)

    def mission_box(self, letter: str) -> str:
        """The box of the home sheet where the value of mission ``letter`` is written."""
        return MISSION_BOX[letter]

    def mission_holds_on(self, sheet: Sheet, card: int) -> bool:
        """Whether ``sheet`` meets the mission's condition now."""
        condition = self.missions.get(card)
        if condition is None:
            raise ValueError(f"card {card} is not a mission of adventure {self.number}")
        return condition(sheet)

    def mission_worth(self, state: GameState, sheet: Sheet | None, letter: str) -> dict[str, int]:
        """What accomplishing mission ``letter`` is worth on ``sheet`` (None: a sheet not named,
        as someone without a seat sees the game): its ``first`` and ``later`` values. By
        default the values printed on the card, whatever the sheet."""
        return state.mission_values[letter]

    def reward_mission(self, rec: Recorder, seat: int, value: int) -> None:
        """The reward beyond the value written in the mission box (none by default)."""

    def after_missions(self, rec: Recorder) -> bool:
        """What the claims of a phase 6 set off once rewarded; True when it ran phase 5 again,
        so that missions are offered again (nothing by default)."""
        return False

    def claim_cost(self, state: GameState, seat: int, letter: str) -> int:
        """Points a claim of mission ``letter`` would cost the seat's sheet beyond its value,
        as a bot weighs it (none by default)."""
        return 0

    # --- end of game and scoring -------------------------------------------------------------

    def end_reasons(self, state: GameState) -> list[dict[str, Any]]:
        """The end conditions met at the end of this turn (empty: the game goes on)."""
        return standard_end_reasons(state, spaces=self.layout.spaces.keys())

    @staticmethod
    def errors_marked(sheet: Sheet, marks: Marks) -> int:
        """System Error boxes marked on the sheet."""
        return sum(map(marks.__contains__, sheet.error_boxes))

    @staticmethod
    def missions_points(marks: Marks) -> int:
        """The values written in the mission boxes."""
        return sum(value for box in MISSION_BOXES if isinstance(value := marks.get(box), int))

    def error_penalty(self, sheet: Sheet, marks: Marks) -> int:
        """Points lost for the System Error boxes marked."""
        return int(self.layout.error_penalty[self.errors_marked(sheet, marks)])

    @staticmethod
    def seen_marks(state: GameState, sheet: Sheet) -> Marks:
        """A sheet as the other seats see it: as it began the turn while a turn is played."""
        return sheet.turn_start_marks if state.status == "playing" else sheet.marks

    def areas(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, int]:
        """The points of the sheet's scoring areas between its missions and its System Errors."""
        raise NotImplementedError

    def details(self, state: GameState, sheet: Sheet, marks: Marks) -> dict[str, Any]:
        """Counts shown beside the score that are not points (complete zones, ...)."""
        return {}

    def sheet_score(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        """The live score breakdown of one sheet, with ``total``: missions, the adventure's
        areas, System Errors and campaign points."""
        score: dict[str, Any] = {
            "missions": self.missions_points(marks),
            **self.areas(state, sheet, marks),
            "system_errors": -self.error_penalty(sheet, marks),
            "campaign": sheet.bonus_points,
        }
        total = sum(score.values())
        score.update(self.details(state, sheet, marks))
        score["total"] = total
        return score

    def seat_score(self, state: GameState, seat: int) -> dict[str, Any]:
        """A player's score breakdown, with ``total``, from every mark made: by default the
        score of the one sheet the seat plays."""
        sheet = state.sheet_of(seat)
        return self.sheet_score(state, sheet, marks=sheet.marks)

    def sheet_total(self, state: GameState, sheet: Sheet, *, marks: Marks) -> int:
        """``sheet_score(...)["total"]`` without the details shown beside it (an adventure that
        scores its own way overrides both)."""
        if type(self).sheet_score is not Adventure.sheet_score:
            return int(self.sheet_score(state, sheet, marks=marks)["total"])
        areas = self.areas(state, sheet, marks)
        return (
            self.missions_points(marks)
            + sum(areas.values())
            - self.error_penalty(sheet, marks)
            + sheet.bonus_points
        )

    def seat_total(self, state: GameState, seat: int) -> int:
        """``seat_score(state, seat)["total"]``, without the details: what the bots weigh for
        each option they consider."""
        if type(self).seat_score is not Adventure.seat_score:
            return int(self.seat_score(state, seat)["total"])
        sheet = state.sheet_of(seat)
        return self.sheet_total(state, sheet, marks=sheet.marks)

    def area_parts(self) -> list[AreaPart]:
        """The points of ``areas`` as a sum of parts, each with the elements of the sheet whose
        marks decide it (empty: the areas are not split so): what lets a bot rescore only the
        parts an option marks (``score_change``). A part that reads more than the sheet's marks (the
        other sheets) is bound to what it reads in a state by ``bound_parts``."""
        return []

    def bound_parts(self, state: GameState, seat: int) -> list[AreaPart] | None:
        """``area_parts`` for the seat's sheet in ``state``, in the same order with the same
        elements, each part's points from the sheet's marks alone (by default the parts as they
        are); None where they cannot be so bound (the whole total is worked out)."""
        return self._area_parts

    def score_change(self, state: GameState, seat: int) -> Callable[[GameState, Sequence[Event]], int]:
        """How much ``seat_total`` changes from ``state`` to the states a decision's options
        lead to, for a bot weighing them: called with such a state and the events that led
        there from ``state``. Where ``area_parts`` splits the areas, only the parts the events
        marked are counted (``marks_change``), and when the events change the sheet in another
        way the whole totals are worked out. Where the areas are not split, the total after
        itself (the same order and ties: a bot then plays every option)."""
        sheet_id = state.sheet_of(seat).id
        status = state.status
        changes: list[Callable[[Marks, Collection[str]], int] | None] = []  # once an option needs it
        start: list[int] = []  # ``seat_total`` now, once an option needs it

        def change(after: GameState, events: Sequence[Event]) -> int:
            if not changes:
                changes.append(self.marks_change(state, seat))
            by_marks = changes[0]
            if by_marks is None:
                return self.seat_total(after, seat)
            marked = marked_elements(events)
            now = after.sheet_of(seat)
            # a part may read the other sheets as the game's status shows them (``bound_parts``)
            if (
                marked is not None
                and now.id == sheet_id
                and after.status == status
                and not marked.keys() - {sheet_id}
            ):
                return by_marks(now.marks, marked.get(sheet_id, ()))
            if not start:
                start.append(self.seat_total(state, seat))
            return self.seat_total(after, seat) - start[0]

        return change

    def marks_change(self, state: GameState, seat: int) -> Callable[[Marks, Collection[str]], int] | None:
        """How much ``seat_total`` changes once the seat's sheet holds the marks given instead of
        its marks now, which differ from them in the elements given alone (nothing else of the
        state changed): only the parts of ``area_parts`` reading those elements are counted, as
        they are then and now (and the missions and System Errors when they are those boxes).
        None where the areas are not split so, or the adventure scores its own way."""
        own = type(self)
        scored_alike = own.seat_score is Adventure.seat_score and own.sheet_score is Adventure.sheet_score
        parts = self.bound_parts(state, seat) if scored_alike else None
        if not parts:
            return None
        sheet = state.sheet_of(seat)
        before_marks = sheet.marks
        errors = frozenset(sheet.error_boxes)
        before_parts: dict[int, int] = {}  # each part's points now, by index, once needed

        def change(marks: Marks, elements: Collection[str]) -> int:
            if not elements:
                return 0
            points = parts_change(parts, self._parts_of, elements, before_marks, marks, before_parts)
            if not MISSION_BOX_SET.isdisjoint(elements):
                points += self.missions_points(marks) - self.missions_points(before_marks)
            if not errors.isdisjoint(elements):
                points -= self.error_penalty(sheet, marks) - self.error_penalty(sheet, before_marks)
            return points

        return change

    def listed_marks(self, state: GameState, seat: int, option: Option) -> Marks | None:
        """The marks a listed ``option`` makes on the seat's sheet, by element, when nothing
        else it sets off changes what the score (``marks_change``) and the prospects read: a bot
        then weighs it without playing it. None (the default) when only playing it tells."""
        return None

    def prospect_parts(self) -> list[AreaPart]:
        """``prospects`` as a sum of parts, each with the elements whose marks alone decide it
        (empty: not split so): what lets a bot weigh only the parts an option marks
        (``prospects_change``)."""
        return []

    def prospects_change(self, state: GameState, seat: int) -> Prospects:
        """How much ``prospects`` change from the seat's sheet now to the sheets a decision's
        options lead to, for a bot weighing them: called with the state, the seat's sheet and
        its marks there, the elements that differ from the seat's marks now (None: unknown) and
        the option when it is weighed unplayed (``listed_marks``; None: played, the state is the
        one it leads to). Where ``prospect_parts`` splits the prospects and the elements are
        known, only the parts reading them are counted."""
        parts = self._prospect_parts
        before_marks = state.sheet_of(seat).marks
        played = self.played_prospects(state, seat)
        if not parts:
            return lambda after, sheet, marks, elements, option: played(after, sheet, marks)
        before_parts: dict[int, int] = {}  # each part's points now, by index, once needed

        def change(
            after: GameState,
            sheet: Sheet,
            marks: Marks,
            elements: Collection[str] | None,
            option: Option | None,
        ) -> int:
            if elements is None:
                return played(after, sheet, marks)
            return parts_change(parts, self._prospect_parts_of, elements, before_marks, marks, before_parts)

        return change

    def played_prospects(self, state: GameState, seat: int) -> Callable[[GameState, Sheet, Marks], int]:
        """How much ``prospects`` change from the seat's sheet now to a sheet an option played
        leads to (the state, the sheet and its marks there), the prospects now worked out once,
        when first needed: what ``prospects_change`` falls back on where parts cannot tell."""
        now = state.sheet_of(seat)
        start: list[int] = []

        def played(after: GameState, sheet: Sheet, marks: Marks) -> int:
            if not start:
                start.append(self.prospects(state, now, now.marks))
            return self.prospects(after, sheet, marks) - start[0]

        return played

    @cached_property
    def _area_parts(self) -> list[AreaPart]:
        return self.area_parts()

    @cached_property
    def _parts_of(self) -> dict[str, list[int]]:
        return parts_index(self._area_parts)

    @cached_property
    def _prospect_parts(self) -> list[AreaPart]:
        return self.prospect_parts()

    @cached_property
    def _prospect_parts_of(self) -> dict[str, list[int]]:
        return parts_index(self._prospect_parts)

    def rank_keys(self, state: GameState, scores: list[dict[str, Any]]) -> list[Any]:
        """Keys sorting seats best first: by score, then fewer System Errors."""
        return [
            (-score["total"], self.errors_marked(state.sheet_of(seat), state.sheet_of(seat).marks))
            for seat, score in enumerate(scores)
        ]

    def accomplished(self, state: GameState, seat: int) -> Accomplished:
        """The missions the seat accomplished (their values written on its home sheet, common.md
        §8) and the System Error boxes it marked (§7): by default on the one sheet it plays."""
        home = state.home_sheet(seat)
        return {
            "missions": [letter for letter in LETTERS if self.mission_box(letter) in home.marks],
            "system_errors": self.errors_marked(home, home.marks),
        }

    def standings(self, state: GameState) -> Result:
        """Final scores with breakdowns and ranks (shared when equal), and the winning seats."""
        scores = [self.seat_score(state, seat) for seat in range(state.players)]
        ranks = dense_ranks(self.rank_keys(state, scores))
        return {
            "scores": [
                {"seat": seat, "total": s["total"], "rank": ranks[seat], "breakdown": s}
                for seat, s in enumerate(scores)
            ],
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
        }

    def derived(self, state: GameState, sheet: Sheet, *, marks: Marks) -> dict[str, Any]:
        """What a front end needs to draw that is not a mark (complete zones, ...)."""
        return {}

    # --- solo: ASTRA ---------------------------------------------------------------------------

    @property
    def astra_card(self) -> dict[str, Any]:
        """The ASTRA Adventure card of this adventure (points, bonus boxes, bonuses per
        trigger, the Effect cards that act on the sheet)."""
        return astra.adventure_card(self.number)

    def astra_acts(self, letter: str) -> bool:
        """Whether Effect card ``letter`` applies the ASTRA effect on this sheet."""
        return letter in self.astra_card["effect_cards_with_effect"]

    def astra_targets(self, state: GameState, sheet: Sheet, letter: str, deck_pass: int) -> list[str]:
        """What the ASTRA effect of Effect card ``letter`` may cross on the sheet now, the
        player choosing one; empty when nothing can be crossed. By default the race bonuses
        still unmarked (a station's big multiplier, a quarter's 15, a filling bonus, a high
        skyscraper bonus, a greenhouse x2): with no opponent, only ASTRA takes them away."""
        return [element for element in self.race_elements() if element not in sheet.marks]

    def astra_effect(
        self, rec: Recorder, seat: int, letter: str, deck_pass: int, target: str | None
    ) -> None:
        """Apply the ASTRA effect to the seat's sheet, on ``target`` (one of ``astra_targets``,
        or None when there was none): by default the target is crossed."""
        if target is not None:
            rec.mark(seat, element=target, mark=CROSS)

    def astra_bonuses(self, element: str, mark: Any) -> int:
        """ASTRA bonuses the player circles for marking ``element`` with ``mark`` during their
        own turn (by default, for circling a race bonus)."""
        if mark == CIRCLE and element in self.race_elements():
            return int(self.astra_card["bonuses_per_trigger"])
        return 0

    def astra_bonuses_earned(
        self, state: GameState, seat: int, events: Sequence[Event]
    ) -> list[tuple[int, str]]:
        """The ASTRA bonuses ``events`` (just recorded, ``state`` after them) earn the player,
        each as its count and the element that earned it: by default what ``astra_bonuses``
        gives each mark on the sheet the seat plays."""
        sheet = state.seats[seat].sheet
        earned = []
        for event in events:
            data = MARK.data_of(event)
            if data is None or data["sheet"] != sheet:
                continue
            count = self.astra_bonuses(data["element"], data["mark"])
            if count:
                earned.append((count, data["element"]))
        return earned

    # Whether ASTRA plays a card of its own on the sheets each round (adventure 8): it draws
    # one card first, plays it (``astra_placements``, ``astra_play``), then the hand is completed.
    astra_places_cards = False

    def astra_sheet(self, state: GameState) -> Sheet:
        """The sheet ASTRA's part of the turn acts on (its Effect cards): the player's (adventure
        8: the sheet of the round being dealt)."""
        return state.sheet_of(0)

    def astra_placements(self, state: GameState) -> list[str]:
        """Where ASTRA's card of the round may go (the player chooses when there are several;
        empty: nowhere). Only for an adventure whose ASTRA places cards."""
        return []

    def astra_play(self, rec: Recorder, target: str | None) -> None:
        """ASTRA plays its card of the round on ``target`` (one of ``astra_placements``, or
        None when there was none). Only for an adventure whose ASTRA places cards."""
        raise NotImplementedError

    def solo_end_reasons(self, state: GameState, astra_score: AstraResult) -> list[dict[str, Any]]:
        """End conditions of a solo game beyond the common ones, met at the end of a turn
        (none by default; adventure 1: ASTRA's launch)."""
        return []

    def solo_winner(
        self, state: GameState, player: dict[str, Any], astra_score: AstraResult
    ) -> str | None:
        """``"player"``, ``"astra"``, or None for a draw: the higher total wins."""
        return astra.solo_winner(int(player["total"]), int(astra_score["total"]))
