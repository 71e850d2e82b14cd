"""A sheet drawn as inline SVG from its schematic (``SheetLayout.schematic``), its marks and its
live score, for the staff's replay viewer.

Numbering spaces are boxes showing their number (or X); every other element is a small round
symbol that a mark changes: circled (a blue ring), crossed (a red X over it), a line drawn
through it, filled, or written in. Each element carries its id and mark as ``data-element`` /
``data-mark`` attributes and a hover title, and is captioned with what its row prints under it
or the last part of its id. The score area at the bottom shows each line of the live score,
total last. Long rows wrap.

A sheet shared by two owners (adventure 8) is drawn with each side's panel apart: tinted in
that side's colour, headed with its owner (and with "plays this sheet now" for the side being
played at that moment), that side's part of the live score at its foot. An insignia (a mark
naming a side, ``S`` or ``N``, or both on a shared flag) is drawn in its side's colour.

Drawing only: what the marks and the score are comes from the engine's sheet view.
"""

from collections.abc import Iterable, Iterator, Mapping
from html import escape
from typing import Any

from games.rules.engine import CIRCLE, CROSS, LINE, ZONE, Area, Mark, Row, Schematic, X

CELL = 30  # a box's side
PITCH = 34  # from one cell to the next
LABEL_WIDTH = 130
PER_LINE = 20  # cells on one line before a row wraps
LINE_HEIGHT = CELL + 24  # a cell and its caption (two short lines at most)
CAPTION = 8  # characters of a caption line
CAPTION_CHAR = 4.6  # pixels a caption's character takes at most, about (font size 8)
TITLE_HEIGHT = 24
AREA_GAP = 10
WIDTH = LABEL_WIDTH + PER_LINE * PITCH + 10
SCORE_CELL = 64  # a score box is wider: its caption names a score line
INFECTED = "infected."
PANEL_PAD = 6  # a side panel's tint reaches this far around its rows
COLOURS = {
    "ink": "#1d2330",
    "muted": "#8a93a6",
    "paper": "#fdfcf7",
    "circle": "#1f5fbf",
    "cross": "#c62828",
    "fill": "#555e70",
}
# Each side of a shared sheet: its insignia's colour and its panel's tint.
SIDE_COLOURS = {"S": "#00897b", "N": "#8e44ad"}
SIDE_TINTS = {"S": "#e4f4f1", "N": "#f3eaf8"}
SIDE_WORDS = ("seat",)  # what a side's score names besides points: its owner, in the heading


def sheet_svg(
    *,
    title: str,
    schematic: Schematic,
    marks: Mapping[str, Mark],
    score: Mapping[str, Any],
    owners: Mapping[str, str] | None = None,
    active: str | None = None,
) -> str:
    """The SVG markup of one sheet: a title, the schematic's areas with the marks on them, any
    marked element the schematic does not place, and the live score. ``owners``: on a shared
    sheet, who owns each side (``{"S": "seat 0 (ann)", "N": "seat 1 (ben)"}``), whose panels
    then show their part of the score (``score[side]``); ``active``: the side being played."""
    owners = owners or {}
    areas = list(schematic.areas)
    unplaced = tuple(sorted(set(marks) - schematic.ids()))
    if unplaced:
        areas.append(Area("Other marks", (Row("elsewhere", unplaced),)))
    body: list[str] = [
        f'<text x="8" y="20" class="sheet-title" font-size="16" font-weight="bold" '
        f'fill="{COLOURS["ink"]}">{escape(title)}</text>'
    ]
    y = 34
    if owners:
        y = _owners(body, owners, active, y)
    for area in areas:
        if area.side is not None and area.side in owners:
            side_score = score.get(area.side, {})
            y = _panel(body, area, marks, y, owners=owners, score=side_score, active=active)
        else:
            y = _area(body, area, marks, y, owners)
    rest = {key: value for key, value in score.items() if key not in owners}
    if rest or not owners:
        y = _score(body, rest, y, "LIVE SCORE")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="sheet" width="{WIDTH}" height="{y + 8}" '
        f'viewBox="0 0 {WIDTH} {y + 8}" font-family="DejaVu Sans, Verdana, sans-serif" role="img" '
        f'aria-label="{escape(title)}">'
        f'<rect x="0" y="0" width="{WIDTH}" height="{y + 8}" rx="8" fill="{COLOURS["paper"]}" '
        f'stroke="{COLOURS["muted"]}"/>' + "".join(body) + "</svg>"
    )


def drawn_sheet(
    *,
    sheet: int,
    view: Mapping[str, Any],
    schematic: Schematic,
    seats: Iterable[int],
    players: Mapping[int, str],
) -> str:
    """A sheet as an engine's sheet view gives it (``marks``, ``score``, on a shared sheet
    ``sides`` and ``active_seat``), titled with who plays it: ``seats`` are the seats playing
    on it, ``players`` names each seat of the game (what owns a side without being a seat is
    ASTRA's, in a solo game)."""
    sides: Mapping[str, Any] = view.get("sides") or {}
    active = view.get("active_seat")
    played = ", ".join(player(index, players) for index in seats)
    return sheet_svg(
        title=f"Sheet {sheet}: shared" if sides else f"Sheet {sheet}: {played}",
        schematic=schematic,
        marks=view["marks"],
        score=view["score"],
        owners={side: player(owner, players) for side, owner in sides.items()},
        active=next((side for side, owner in sides.items() if active is not None and owner == active), None),
    )


def player(seat: Any, players: Mapping[int, str]) -> str:
    """A seat as a reader names it ("seat 1 (ann)", "seat 2 (greedy bot)"); what owns a side
    of a sheet without being a seat is ASTRA's (a solo game)."""
    return f"seat {seat} ({players[seat]})" if seat in players else "ASTRA"


def _owners(body: list[str], owners: Mapping[str, str], active: str | None, y: int) -> int:
    """The key to a shared sheet: each side's insignia and owner, and who plays it now."""
    x = 8
    for side, owner in owners.items():
        body.append(_token(x + 9, y + 9, side, 9))
        text = f"side {side}: {owner}" + (" \u2014 plays this sheet now" if side == active else "")
        body.append(
            f'<text x="{x + 24}" y="{y + 13}" font-size="12" class="owner" data-side="{escape(side)}" '
            f'font-weight="{"bold" if side == active else "normal"}" fill="{COLOURS["ink"]}">'
            f"{escape(text)}</text>"
        )
        x += 24 + 7 * len(text) + 24
    return y + 26


def _panel(
    body: list[str],
    area: Area,
    marks: Mapping[str, Mark],
    y: int,
    *,
    owners: Mapping[str, str],
    score: Mapping[str, Any],
    active: str | None,
) -> int:
    """A side's panel of a shared sheet: tinted in the side's colour, headed with its owner,
    its part of the score at its foot."""
    side = str(area.side)
    owner, playing = owners[side], side == active
    start, top = len(body), y
    heading = f"{area.title.upper()} \u00b7 {owner}" + (" \u00b7 PLAYS THIS SHEET NOW" if playing else "")
    y = _area(body, area, marks, y, owners, heading=heading, colour=_colour(side))
    points = {key: value for key, value in score.items() if key not in SIDE_WORDS}
    y = _score(body, points, y, f"SIDE {side} SCORE", side=side) + PANEL_PAD
    body.insert(
        start,
        f'<g class="panel" data-side="{escape(side)}" data-owner="{escape(owner)}" '
        f'data-active="{"true" if playing else "false"}">'
        f'<rect x="3" y="{top - PANEL_PAD}" width="{WIDTH - 6}" height="{y - top + PANEL_PAD - 2}" '
        f'rx="6" fill="{_tint(side)}" stroke="{_colour(side)}" '
        f'stroke-width="{3.5 if playing else 1.2}"/>',
    )
    body.append("</g>")
    return y + AREA_GAP


def _area(
    body: list[str],
    area: Area,
    marks: Mapping[str, Mark],
    y: int,
    owners: Mapping[str, str],
    *,
    heading: str | None = None,
    colour: str | None = None,
) -> int:
    body.append(
        f'<text x="8" y="{y + 15}" font-size="12" font-weight="bold" letter-spacing="1" '
        f'fill="{colour or COLOURS["muted"]}">{escape(heading or area.title.upper())}</text>'
    )
    y += TITLE_HEIGHT
    for row in area.rows:
        body.append(_label(row.label, y))
        lines = 0
        texts = row.captions or captions(row.cells)
        for index, ((cell, column), caption) in enumerate(zip(_placed(row), texts, strict=True)):
            line, position = divmod(column, PER_LINE)
            lines = max(lines, line + 1)
            x = LABEL_WIDTH + position * PITCH
            mark = marks.get(cell)
            body.append(_cell(cell, caption, mark, x, y + line * LINE_HEIGHT, row.kind_of(index), owners))
        y += max(lines, 1) * LINE_HEIGHT
    return y + AREA_GAP


def _label(label: str, y: int) -> str:
    """A row's label; a second line, smaller, says more about the row."""
    first, _, more = label.partition("\n")
    if not more:
        return (
            f'<text x="8" y="{y + CELL // 2 + 4}" font-size="11" fill="{COLOURS["ink"]}">'
            f"{escape(first)}</text>"
        )
    return (
        f'<text x="8" y="{y + CELL // 2 - 1}" font-size="11" fill="{COLOURS["ink"]}">{escape(first)}</text>'
        f'<text x="8" y="{y + CELL // 2 + 11}" font-size="9" fill="{COLOURS["muted"]}">{escape(more)}</text>'
    )


def _placed(row: Row) -> Iterator[tuple[str, int]]:
    columns = row.columns or tuple(range(len(row.cells)))
    return zip(row.cells, columns, strict=True)


def captions(cells: tuple[str, ...]) -> list[str]:
    """What tells the elements of a row apart: their ids without the dotted parts they all
    share at the start and at the end (``f1.q1.rocket``, ``f1.q2.rocket`` -> ``q1``, ``q2``)."""
    parts = [cell.split(".") for cell in cells]
    shortest = min((len(split) for split in parts), default=0)
    if len(parts) < 2:
        return [split[-1] for split in parts]
    lead = 0
    while lead < shortest - 1 and len({split[lead] for split in parts}) == 1:
        lead += 1
    tail = 0
    while tail < shortest - 1 - lead and len({split[-1 - tail] for split in parts}) == 1:
        tail += 1
    return [".".join(split[lead : len(split) - tail]) for split in parts]


def _cell(
    element: str, caption: str, mark: Mark | None, x: int, y: int, kind: str, owners: Mapping[str, str]
) -> str:
    hover = f"{element}: {'unmarked' if mark is None else mark}"
    sides = insignia(mark, owners)
    if sides:
        hover += " (" + ", ".join(owners[side] for side in sides) + ")"
    attributes = f'class="cell {kind}" data-element="{escape(element)}"'
    if mark is not None:
        attributes += f' data-mark="{escape(str(mark))}"'
    parts = [f"<g {attributes}><title>{escape(hover)}</title>"]
    if sides:
        parts.append(_insignia(x, y, sides, kind))
    else:
        parts.append(_box(x, y, mark) if kind == ZONE else _symbol(x, y, mark))
        parts.append(_mark(x, y, mark, kind))
    for number, text in enumerate(_caption_lines(caption)):
        parts.append(_caption(x + CELL / 2, y + CELL + 10 + 9 * number, text, PITCH - 4))
    parts.append("</g>")
    return "".join(parts)


def insignia(mark: Mark | None, owners: Mapping[str, str]) -> tuple[str, ...]:
    """The sides whose insignia a mark is on a shared sheet (``"SN"``: both), or ``()``."""
    if not owners or not isinstance(mark, str) or not mark:
        return ()
    sides = tuple(mark)
    if len(set(sides)) != len(sides) or not set(sides) <= set(owners):
        return ()
    return sides


def _insignia(x: int, y: int, sides: tuple[str, ...], kind: str) -> str:
    """An insignia drawn in its side's colour: a space's box filled with it, another element
    with the side's token (split in two on a flag both sides share)."""
    cx, cy = x + CELL / 2, y + CELL / 2
    if kind == ZONE and len(sides) == 1:
        (side,) = sides
        return (
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="3" fill="{_tint(side)}" '
            f'stroke="{_colour(side)}" stroke-width="2"/>' + _token(cx, cy, side, 10)
        )
    frame = (
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="3" fill="white" '
        f'stroke="{COLOURS["ink"]}" stroke-width="1.2"/>'
        if kind == ZONE
        else ""
    )
    if len(sides) == 1:
        return frame + _token(cx, cy, sides[0], 11)
    left, right = sides[0], sides[-1]
    half = f"M{cx} {cy - 12} A12 12 0 0 {{sweep}} {cx} {cy + 12} Z"
    return (
        frame
        + f'<path d="{half.format(sweep=0)}" fill="{_colour(left)}"/>'
        + f'<path d="{half.format(sweep=1)}" fill="{_colour(right)}"/>'
        + "".join(
            f'<text x="{cx + offset}" y="{cy + 4}" font-size="10" font-weight="bold" '
            f'text-anchor="middle" fill="white">{escape(side)}</text>'
            for side, offset in ((left, -5.5), (right, 5.5))
        )
    )


def _colour(side: str) -> str:
    return SIDE_COLOURS.get(side, COLOURS["ink"])


def _tint(side: str) -> str:
    return SIDE_TINTS.get(side, "white")


def _token(cx: float, cy: float, side: str, radius: int) -> str:
    """A side's insignia: a disc in its colour with its letter."""
    return (
        f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{_colour(side)}"/>'
        f'<text x="{cx}" y="{cy + radius * 0.4}" font-size="{radius + 1}" font-weight="bold" '
        f'text-anchor="middle" fill="white">{escape(side)}</text>'
    )


def _caption(x: float, y: float, text: str, room: int) -> str:
    """A line of caption centred at ``x``, squeezed into ``room`` pixels when it is long enough
    to run into its neighbour's (two neighbours' "sabotage" would overlap at a cell's pitch)."""
    fit = f' textLength="{room}" lengthAdjust="spacingAndGlyphs"' if len(text) * CAPTION_CHAR > room else ""
    return (
        f'<text x="{x}" y="{y}" font-size="8" text-anchor="middle"{fit} '
        f'fill="{COLOURS["muted"]}">{escape(text)}</text>'
    )


def _caption_lines(caption: str) -> list[str]:
    """A caption on one line, or cut in two at its last dot or dash when it is long, and at
    its last space always (two words, two lines)."""
    if len(caption) <= CAPTION and " " not in caption:
        return [caption]
    cut = max(caption.rfind(mark, 0, len(caption) - 1) for mark in ".- ")
    if cut <= 0:
        return [caption[:CAPTION], caption[CAPTION : 2 * CAPTION]]
    return [caption[:cut][:CAPTION], caption[cut + 1 :][:CAPTION]]


def _box(x: int, y: int, mark: Mark | None) -> str:
    infected = _infection(mark)
    fill = f'"{escape(infected)}" fill-opacity="0.55"' if infected else '"white"'
    return (
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="3" fill={fill} '
        f'stroke="{COLOURS["ink"]}" stroke-width="1.2"/>'
    )


def _infection(mark: Mark | None) -> str | None:
    """The colour of the virus that infected an element, or None."""
    if isinstance(mark, str) and mark.startswith(INFECTED):
        return mark[len(INFECTED) :]
    return None


def _symbol(x: int, y: int, mark: Mark | None) -> str:
    fill = "white"
    if mark == "fill":
        fill = COLOURS["fill"]
    elif _infection(mark):
        fill = str(_infection(mark))
    elif mark == CIRCLE:
        fill = "#dce8fb"
    return (
        f'<circle cx="{x + CELL / 2}" cy="{y + CELL / 2}" r="9" fill="{escape(fill)}" '
        f'stroke="{COLOURS["muted"]}" stroke-width="1"/>'
    )


def _mark(x: int, y: int, mark: Mark | None, kind: str) -> str:
    cx, cy = x + CELL / 2, y + CELL / 2
    if mark is None:
        return ""
    if isinstance(mark, int) and not isinstance(mark, bool):
        size = 15 if kind == ZONE else 12
        return (
            f'<text x="{cx}" y="{cy + size / 3}" font-size="{size}" font-weight="bold" '
            f'text-anchor="middle" fill="{COLOURS["ink"]}">{mark}</text>'
        )
    if mark == X:
        return (
            f'<text x="{cx}" y="{cy + 6}" font-size="17" text-anchor="middle" '
            f'fill="{COLOURS["ink"]}">X</text>'
        )
    if mark == CIRCLE:
        return (
            f'<circle cx="{cx}" cy="{cy}" r="13" fill="none" stroke="{COLOURS["circle"]}" '
            'stroke-width="2.6"/>'
        )
    if mark == CROSS:
        return (
            f'<path d="M{x + 5} {y + 5} L{x + CELL - 5} {y + CELL - 5} M{x + CELL - 5} {y + 5} '
            f'L{x + 5} {y + CELL - 5}" stroke="{COLOURS["cross"]}" stroke-width="2.8" '
            'stroke-linecap="round"/>'
        )
    if mark == LINE:
        return (
            f'<line x1="{x - 2}" y1="{cy}" x2="{x + CELL + 2}" y2="{cy}" stroke="{COLOURS["ink"]}" '
            'stroke-width="4" stroke-linecap="round"/>'
        )
    if _infection(mark) and kind == ZONE:
        return (
            f'<text x="{cx}" y="{cy + 5}" font-size="13" font-weight="bold" text-anchor="middle" '
            f'fill="{COLOURS["ink"]}">V</text>'
        )
    if mark == "fill" or _infection(mark):
        return ""  # the symbol itself is filled
    word = str(mark)[:5]
    return (
        f'<text x="{cx}" y="{cy + 3}" font-size="8" font-style="italic" text-anchor="middle" '
        f'fill="{COLOURS["ink"]}">{escape(word)}</text>'
    )


def score_lines(score: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """The score's lines flattened (``stations station1``), the total last."""
    lines: list[tuple[str, Any]] = []
    for key, value in score.items():
        name = f"{prefix}{key}".replace("_", " ")
        if isinstance(value, Mapping):
            lines += score_lines(value, f"{name} ")
        elif key != "total" or prefix:
            lines.append((name, value))
    if not prefix and "total" in score:
        lines.append(("total", score["total"]))
    return lines


def _score(
    body: list[str], score: Mapping[str, Any], y: int, heading: str, *, side: str | None = None
) -> int:
    body.append(
        f'<text x="8" y="{y + 15}" font-size="12" font-weight="bold" letter-spacing="1" '
        f'fill="{COLOURS["muted"]}">{escape(heading)}</text>'
    )
    y += TITLE_HEIGHT
    per_line = (WIDTH - 16) // (SCORE_CELL + 4)
    lines = score_lines(score)
    owned = f' data-side="{escape(side)}"' if side is not None else ""
    for index, (name, value) in enumerate(lines):
        line, position = divmod(index, per_line)
        x, top = 8 + position * (SCORE_CELL + 4), y + line * (CELL + 24)
        total = name == "total"
        shown = ("yes" if value else "no") if isinstance(value, bool) else value
        body.append(
            f'<g class="score-line"{owned} data-score="{escape(name)}" data-value="{escape(str(value))}">'
            f'<rect x="{x}" y="{top}" width="{SCORE_CELL}" height="{CELL}" rx="3" '
            f'fill="{"#fff4d6" if total else "white"}" stroke="{COLOURS["ink"]}" '
            f'stroke-width="{2 if total else 1}"/>'
            f'<text x="{x + SCORE_CELL / 2}" y="{top + 20}" font-size="14" font-weight="bold" '
            f'text-anchor="middle" fill="{COLOURS["ink"]}">{escape(str(shown))}</text>'
            + "".join(
                _caption(x + SCORE_CELL / 2, top + CELL + 10 + 9 * number, text, SCORE_CELL + 2)
                for number, text in enumerate(_score_caption(name))
            )
            + "</g>"
        )
    rows = -(-len(lines) // per_line) if lines else 0
    return y + rows * (CELL + 24)


def _score_caption(name: str) -> list[str]:
    """A score line's name on one line, or two when it is long (cut at its last space)."""
    if len(name) <= 15 or " " not in name:
        return [name[:15]]
    head, tail = name.rsplit(" ", 1)
    return [head[:15], tail[:15]]
