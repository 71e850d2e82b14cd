"""Steps waiting for a seat's choice: the stack of effects a pick or a bonus leaves behind.

A step on top of the stack that can change nothing resolves by itself, so a seat is only asked
about steps it can really use.
"""

from collections.abc import Callable
from typing import Any, Protocol

from games.rules.core.events import Recorder
from games.rules.core.state import GameState

Usable = Callable[[GameState, int, str], bool]


class Resolve(Protocol):
    def __call__(self, rec: Recorder, seat: int, step: str, *, outcome: str, target: Any) -> None: ...


def resolve(rec: Recorder, seat: int, step: str, *, outcome: str, target: Any) -> None:
    """Record that a waiting step is done with, and how."""
    rec.emit("effect_resolved", seat, effect=step, outcome=outcome, target=target)


def settle(
    rec: Recorder,
    seat: int,
    *,
    usable: Usable,
    outcome: str = "no_effect",
    resolve_step: Resolve = resolve,
) -> None:
    """Resolve, with ``outcome``, every step on top of the stack that has no use, until the
    top holds a step the seat can use or the stack is empty."""
    while rec.seat(seat).pending:
        top = rec.seat(seat).pending[-1]
        useless = [step for step in top if not usable(rec.state, seat, step)]
        if not useless:
            return
        for step in useless:
            resolve_step(rec, seat, step, outcome=outcome, target=None)
