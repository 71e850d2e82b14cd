"""Adventure 6 shorthands on top of ``tests.rules.playing``: moves by keyword, and sheets
built floor by floor or quarter by quarter."""

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.adventures import PLAYABLE
from games.rules.adventures.virus.rules import INFECTED_BY, VirusRules, quarter_points
from games.rules.core.events import Recorder
from games.rules.core.sheet import Mark, Marks
from games.rules.engine import Event, GameState
from tests.rules import playing
from tests.rules.playing import circled, crossed, reveal, send, set_sheet, start_game

_PLAYED = PLAYABLE[6]
assert isinstance(_PLAYED, VirusRules)
# The instance the engine plays with (a test may watch its calls).
RULES: VirusRules = _PLAYED
LAYOUT = RULES.layout
INF = "inf"  # a space infected (by the grey virus, unless a colour is named)
GREY = INFECTED_BY["grey"]


def game(
    players: int = 1,
    *,
    seed: int = 6,
    missions: Mapping[str, int] | None = None,
    sheet: Mapping[str, Mark] | None = None,
) -> GameState:
    """A freshly started Adventure 6 game, every seat given ``sheet`` when one is named."""
    return start_game(6, players, seed=seed, missions=missions, sheet=sheet)


def blank() -> Marks:
    """A sheet as printed: the first energy of every quarter circled, nothing else."""
    return dict(LAYOUT.printed_marks)


def floors(spec: Mapping[str, Sequence[Any]]) -> Marks:
    """Marks of a floor's spaces from the left (``{"floor3": [2, "X", INF, None, 6]}``):
    a number, X, ``INF`` (grey infection) or an infection mark, None for an empty space."""
    marks: Marks = {}
    for floor, values in spec.items():
        for position, value in enumerate(values, start=1):
            if value is not None:
                marks[f"{floor}.s{position}"] = GREY if value == INF else value
    return marks


def quarter(name: str, *, numbered: int = 0, infected: int = 0, energies: int = 1, xs: int = 0) -> Marks:
    """A quarter with ``numbered`` spaces (the first ``xs`` of them X, the others numbered
    by their place on the floor), then ``infected`` spaces, and its first ``energies`` energies circled."""
    q = LAYOUT.quarters[name]
    marks: Marks = {}
    for index, space in enumerate(q.spaces[:numbered]):
        marks[space] = "X" if index < xs else int(space.rsplit("s", 1)[1])
    for space in q.spaces[numbered : numbered + infected]:
        marks[space] = GREY
    marks.update(circled(*q.energies[:energies]))
    return marks


def evacuated(marks: Marks) -> Marks:
    """The sheet with every complete quarter evacuated (score box and circle)."""
    done = dict(marks)
    for q in LAYOUT.quarters.values():
        if all(space in done for space in q.spaces):
            done[q.score_box] = quarter_points(done, q)
            done[q.evacuated] = "circle"
    return done


def active(*quarters: str) -> Marks:
    """The viruses of these quarters active (targets circled, activation symbols crossed)."""
    marks: Marks = {}
    for name in quarters:
        target = LAYOUT.quarters[name].target
        assert target is not None
        marks[target] = "circle"
        marks.update(
            crossed(*(act for act, t in LAYOUT.activation_target.items() if t == target))
        )
    return marks


def infected(marks: Marks) -> list[str]:
    return [space for space in LAYOUT.spaces if str(marks.get(space, "")).startswith("infected")]


def move(state: GameState, seat: int, **choice: Any) -> list[Event]:
    return playing.move(state, seat, choice)


def refused(state: GameState, seat: int, **choice: Any) -> str:
    return playing.refused(state, seat, choice)


def write(state: GameState, seat: int, combination: int, space: str, number: int, **more: Any) -> list[Event]:
    return move(
        state, seat, action="write", combination=combination, space=space, number=number, **more
    )


def propagate(
    state: GameState, seat: int = 0, times: int = 1, *, choose: Sequence[str] = ()
) -> GameState:
    """Resolve propagations on a seat's sheet, as phase 5 does: where a virus leaves the seat
    a choice, it infects the next space of ``choose``, then the space the greedy bot takes."""
    rec = Recorder(state)
    RULES.propagate(rec, seat, times=times)
    chosen = iter(choose)
    while rec.seat(seat).pending:
        step = rec.seat(seat).pending[-1][0]
        space = next(chosen, None) or RULES.infection_space(
            rec.sheet(seat).marks, LAYOUT.quarters[step.split(".")[1]]
        )
        RULES.play_effect(rec, seat, {"action": "infect", "effect": step, "space": space})
    return rec.state


def score(state: GameState, seat: int = 0) -> dict[str, Any]:
    return playing.score(state, seat)


__all__ = [
    "GREY", "INF", "LAYOUT", "RULES", "active", "blank", "circled", "crossed", "evacuated",
    "floors", "game", "infected", "move", "propagate", "refused", "reveal", "score", "send",
    "set_sheet", "write",
]  # fmt: skip
