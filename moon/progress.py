"""Progress and summaries for the long management commands (``simulate``, ``import_game``,
``verify_events``) and the soak: a bar with its rate and an estimate of the time left on a
terminal (rich), a plain line every few seconds otherwise (a CI log, a file), and a table at the
end."""

import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

T = TypeVar("T")

# Without a terminal, a line at most this often (seconds), and one at the end.
PLAIN_EVERY = 5.0


def _stream(out: Any) -> TextIO:
    """The file under a Django command's OutputWrapper, which would add a newline to every
    write (and so break a bar redrawn in place)."""
    return getattr(out, "_out", out)


def is_terminal(out: Any) -> bool:
    stream = _stream(out)
    return bool(getattr(stream, "isatty", lambda: False)())


class Bar:
    """How far along a long piece of work is, shown on ``out``: a bar with the count, the rate
    (``unit`` per second) and the time left on a terminal; elsewhere a plain line every few
    seconds and one at the end. ``advance`` as the work goes, inside ``with``."""

    def __init__(self, *, total: int | None, label: str, unit: str, out: Any) -> None:
        self.total, self.label, self.unit = total, label, unit
        self.stream = _stream(out)
        self.done = 0
        self.start = self.last = time.monotonic()
        self.rich: Progress | None = None
        if is_terminal(out):
            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
            )
            self.rich = Progress(*columns, console=Console(file=self.stream))
            self.task = self.rich.add_task(label, total=total, rate="")

    def __enter__(self) -> "Bar":
        if self.rich is not None:
            self.rich.start()
        return self

    def advance(self, count: int = 1) -> None:
        self.at(self.done + count)

    def at(self, done: int) -> None:
        """``done`` of the total are done."""
        self.done = done
        if self.rich is not None:
            speed = self.rich.tasks[0].speed
            self.rich.update(self.task, completed=done, rate=f"{speed:.1f} {self.unit}/s" if speed else "")
            return
        now = time.monotonic()
        if now - self.last >= PLAIN_EVERY:
            self.last = now
            self._line()

    def __exit__(self, *exc: object) -> None:
        if self.rich is not None:
            self.rich.stop()
        else:
            self._line()

    def _line(self) -> None:
        elapsed = time.monotonic() - self.start
        self.stream.write(_plain_line(self.label, self.done, self.total, self.unit, elapsed) + "\n")
        self.stream.flush()


def track(items: Iterable[T], *, total: int | None, label: str, unit: str, out: Any) -> Iterator[T]:
    """Yield ``items`` while a ``Bar`` shows how far along they are."""
    with Bar(total=total, label=label, unit=unit, out=out) as bar:
        for item in items:
            yield item
            bar.advance()


def _plain_line(label: str, done: int, total: int | None, unit: str, elapsed: float) -> str:
    rate = done / elapsed if elapsed > 0 else 0.0
    line = f"{label}: {done}" + (f"/{total} ({100 * done // total}%)" if total else "")
    line += f" {unit}, {rate:.1f} {unit}/s, {elapsed:.0f} s"
    if total and rate and done < total:
        line += f", about {(total - done) / rate:.0f} s left"
    return line


def print_table(*, title: str, columns: Sequence[str], rows: Iterable[Sequence[object]], out: Any) -> None:
    """A summary table: drawn with rich on a terminal, plain aligned text elsewhere."""
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*(str(cell) for cell in row))
    terminal = is_terminal(out)
    Console(file=_stream(out), width=None if terminal else 120, no_color=not terminal).print(table)
