"""What a seat must or may do now, as ``options`` answers it (shared by the common turn and
the solo turn)."""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

Option = dict[str, Any]


@dataclass
class Decision:
    """What a seat must or may do now. Every option, sent back as a move, is legal.

    Kinds: ``choose`` (a combination and where its number goes, or a System Error), ``effect``
    (a waiting step, also at setup and in phase 5, or in solo the target of an ASTRA effect),
    ``give`` (solo: the card left over goes to ASTRA, or leaves the game with a circled ASTRA
    bonus), ``confirm`` (the turn is played), ``mission`` (phase 6: claim a mission, or confirm
    to claim no more), ``wait``. ``sheet`` is the sheet the seat plays this turn (None outside
    a game being played).
    """

    kind: str
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
