"""What a seat must or may do now (``Decision``, as ``options`` answers it for the common turn and
the solo turn), and its options listed by groups, each option made only when it is read.

A pick on a large sheet offers hundreds of options that differ in one field (the space a number
goes in); a player reads them all, but a random player reads one. ``Options`` holds groups (a
function making one option from one value, and the values) and behaves as the list of every
option, in order: its length, an option by position, iteration, membership and equality with a
list are those of that list. An option read by position is made once and kept, so the option a
player picked is found again at once (``choice in options``) by identity.

An option is a plain dict of one of the shapes below (``Option`` is their union), built as a
dict display where its shape is known, so the type checker checks every one made at no cost
when it runs. A move sends one back; until it is found among the options listed it is only a
``Choice``: fields of the same names whose values the rules check in full.
"""

from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from operator import itemgetter
from typing import Any, Literal, NotRequired, TypedDict, cast, overload

# The key under which a step's use names its target, by what the step acts on.
Target = Literal[
    "airlock", "arrow", "asteroid", "box", "column", "element", "greenhouse", "moon", "plant",
    "quarter", "reactor", "robot", "section", "space", "symbol", "tank", "track", "tunnel",
    "walkway", "wall",
]


class WriteOption(TypedDict):
    """A combination's number written in a space: changed by the Astronaut's ``modifier``, or
    its action turned into ``wild_action`` by a circled ``wild``; in solo naming its two cards."""

    action: Literal["write"]
    combination: int
    space: str
    number: int
    modifier: NotRequired[int]
    wild: NotRequired[str]
    wild_action: NotRequired[str]
    number_card: NotRequired[int]
    action_card: NotRequired[int]


class DrawOption(TypedDict):
    """Adventure 8: a combination's insignia drawn on a planet's next space, as ``number``."""

    action: Literal["draw"]
    combination: int
    planet: str
    space: str
    number: int
    number_card: NotRequired[int]
    action_card: NotRequired[int]


class SystemErrorOption(TypedDict):
    """A System Error taken, marking ``box`` (None: no box is left)."""

    action: Literal["system_error"]
    box: str | None


class StepOption(TypedDict):
    """A use of the waiting step ``effect`` with its ``action``, naming its target (if it has a
    choice of one) under one of the ``Target`` keys; Adventure 6's grey virus names two."""

    action: str
    effect: str
    airlock: NotRequired[str]
    arrow: NotRequired[str]
    asteroid: NotRequired[str]
    box: NotRequired[str]
    column: NotRequired[str]
    element: NotRequired[str]
    greenhouse: NotRequired[str]
    moon: NotRequired[str]
    plant: NotRequired[str]
    quarter: NotRequired[str]
    reactor: NotRequired[str]
    robot: NotRequired[str]
    multiplier: NotRequired[str]
    section: NotRequired[str]
    space: NotRequired[str]
    symbol: NotRequired[str]
    tank: NotRequired[str]
    track: NotRequired[str]
    tunnel: NotRequired[str]
    walkway: NotRequired[str]
    wall: NotRequired[str]


class SkipOption(TypedDict):
    """The optional step ``effect`` left unused."""

    action: Literal["skip"]
    effect: str


class ClaimOption(TypedDict):
    """Phase 6: mission ``letter`` claimed."""

    action: Literal["claim_mission"]
    letter: str


class GiveOption(TypedDict):
    """Solo: the card left over given to ASTRA, or removed from the game with a circled bonus."""

    action: Literal["give", "remove"]
    card: int


class AstraEffectOption(TypedDict):
    """Solo: what ASTRA's Effect card ``card`` applies to."""

    action: Literal["astra_effect"]
    card: int
    target: str


class AstraPlaceOption(TypedDict):
    """Solo, Adventure 8: the planet ASTRA's card of the round goes to."""

    action: Literal["astra_place"]
    card: int
    planet: str


Option = (
    WriteOption | DrawOption | SystemErrorOption | StepOption | SkipOption | ClaimOption | GiveOption
    | AstraEffectOption | AstraPlaceOption
)


class Choice(TypedDict, total=False):
    """A choice as a client sends it back: one of the options listed, or fields of the same
    names, whatever their values, that the rules check in full."""

    action: object
    effect: object
    combination: object
    space: object
    number: object
    modifier: object
    wild: object
    wild_action: object
    number_card: object
    action_card: object
    planet: object
    sheet: object
    box: object
    letter: object
    card: object
    target: object
    airlock: object
    arrow: object
    asteroid: object
    column: object
    element: object
    greenhouse: object
    moon: object
    plant: object
    quarter: object
    reactor: object
    robot: object
    multiplier: object
    section: object
    symbol: object
    tank: object
    track: object
    tunnel: object
    walkway: object
    wall: object


def posted(choice: object) -> Choice:
    """A move's choice read as a ``Choice`` (an empty one when it is not an object)."""
    return cast(Choice, choice) if isinstance(choice, dict) else {}


# What a decision asks (see ``Decision``).
DecisionKind = Literal["choose", "effect", "give", "confirm", "mission", "wait"]

Make = Callable[[Any], Option]
# One option per value: ``make(value)``.
Group = tuple[Make, Sequence[Any]]


@dataclass(slots=True)  # made at every change of state a seat is asked about
class Decision:
    """What a seat must or may do now. Every option, sent back as a move, is legal.

    Kinds: ``choose`` (a combination and where its number goes, or a System Error), ``effect``
    (a waiting step, also at setup and in phase 5, or in solo the target of an ASTRA effect),
    ``give`` (solo: the card left over goes to ASTRA, or leaves the game with a circled ASTRA
    bonus), ``confirm`` (the turn is played), ``mission`` (phase 6: claim a mission, or confirm
    to claim no more), ``wait``. ``sheet`` is the sheet the seat plays this turn (None outside
    a game being played).
    """

    kind: DecisionKind
    options: Sequence[Option] = field(default_factory=list)
    can_undo: bool = False
    can_confirm: bool = False
    sheet: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "sheet": self.sheet,
            "options": list(self.options),
            "can_undo": self.can_undo,
            "can_confirm": self.can_confirm,
        }


class Options(Sequence[Option]):
    """Every option of some groups, in group order."""

    __slots__ = ("_all", "_ends", "_groups", "_made")

    def __init__(self, groups: Iterable[Group] = ()) -> None:
        self._groups = [group for group in groups if group[1]]
        self._ends = list(accumulate(map(len, map(_values, self._groups))))  # at C speed: every pick
        self._made: dict[int, Option] = {}
        self._all: list[Option] | None = None

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def groups(self) -> list[Group]:
        """The groups, in order: what a reader of every option that knows how a group's
        options differ reads without making them all."""
        return self._groups

    @overload
    def __getitem__(self, index: int) -> Option: ...

    @overload
    def __getitem__(self, index: slice) -> list[Option]: ...

    def __getitem__(self, index: int | slice) -> Option | list[Option]:
        if isinstance(index, slice):
            return self.as_list()[index]
        if self._all is not None:
            return self._all[index]
        ends = self._ends
        size = ends[-1] if ends else 0  # ``len(self)``, with no call
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError("option index out of range")
        made = self._made.get(position)
        if made is None:
            at = bisect_right(ends, position)
            make, values = self._groups[at]
            start = ends[at - 1] if at else 0
            made = self._made[position] = make(values[position - start])
        return made

    def __iter__(self) -> Iterator[Option]:
        return iter(self.as_list())

    def __contains__(self, option: object) -> bool:
        if any(made is option for made in self._made.values()):
            return True
        return option in self.as_list()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Options | list):
            return self.as_list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: "Options") -> "Options":
        return Options([*self._groups, *other._groups])

    def mapped(self, change: Callable[[Option], Option]) -> "Options":
        """These options, each made through ``change`` too (as lazily: a bot reads one)."""
        return Options([(_then(make, change), values) for make, values in self._groups])

    def __repr__(self) -> str:
        return repr(self.as_list())

    def as_list(self) -> list[Option]:
        """Every option, made once (those already read by position kept as they were made)."""
        if self._all is None:
            made = self._made
            everything: list[Option] = []
            for make, values in self._groups:
                if made:
                    start = len(everything)
                    everything += [
                        made.get(start + offset) or make(value) for offset, value in enumerate(values)
                    ]
                else:
                    everything += map(make, values)
            self._all = everything
        return self._all


_values = itemgetter(1)  # a group's values


def _then(make: Make, change: Callable[[Option], Option]) -> Make:
    """``make``, its option then passed through ``change``."""
    return lambda value: change(make(value))
