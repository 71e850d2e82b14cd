"""A sheet drawn from its schematic: every mark on its element, circled and crossed told apart,
nothing marked left out, the live score line by line."""

import re
from xml.etree import ElementTree

from games.rules.adventures import PLAYABLE
from games.rules.schematic import ZONE, Area, Row, Schematic
from games.rules.sheet import Mark
from games.sheet_svg import captions, score_lines, sheet_svg

SVG = "{http://www.w3.org/2000/svg}"
PLAN = Schematic((
    Area("Numbering", (Row("f1", ("f1.s1", "f1.s2", "f1.s3"), ZONE),)),
    Area("Symbols", (Row("energy", ("energy.e01", "energy.e02", "energy.e03")),)),
))


def cells(svg: str) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return {g.get("data-element", ""): g for g in root.iter(f"{SVG}g") if g.get("data-element")}


def test_marks_are_drawn_on_their_elements_and_told_apart() -> None:
    marks: dict[str, Mark] = {
        "f1.s1": 7, "f1.s3": "X", "energy.e01": "circle", "energy.e02": "cross", "stray.box": "fill"
    }
    svg = sheet_svg(title="Sheet 0 <ann>", schematic=PLAN, marks=marks, score={"energy": 2, "total": 2})
    drawn = cells(svg)
    assert {element: g.get("data-mark") for element, g in drawn.items() if g.get("data-mark")} == {
        element: str(mark) for element, mark in marks.items()
    }
    assert "elsewhere" in svg  # a mark the schematic does not place is still drawn
    circled = ElementTree.tostring(drawn["energy.e01"]).decode()
    crossed = ElementTree.tostring(drawn["energy.e02"]).decode()
    assert 'r="13"' in circled and "<ns0:path" not in circled
    assert "<ns0:path" in crossed and 'r="13"' not in crossed
    assert ">7</" in ElementTree.tostring(drawn["f1.s1"]).decode()
    assert "Sheet 0 &lt;ann&gt;" in svg  # names are escaped
    assert re.search(r'data-score="total" data-value="2"', svg)


def test_every_playable_sheet_places_every_element_of_its_data_once() -> None:
    for rules in PLAYABLE.values():
        layout = rules.layout
        placed = [cell for area in layout.schematic.areas for row in area.rows for cell in row.cells]
        assert len(placed) == len(set(placed))
        assert set(layout.spaces) | set(layout.elements) | set(layout.error_boxes) <= set(placed)


def test_captions_keep_what_tells_elements_apart() -> None:
    assert captions(("f1.q1.rocket", "f1.q2.rocket")) == ["q1", "q2"]
    assert captions(("f1.s1", "f1.s2")) == ["s1", "s2"]
    assert captions(("mission.A",)) == ["A"]


def test_score_lines_are_flattened_with_the_total_last() -> None:
    score = {"total": 9, "missions": 3, "stations": {"station1": 4, "station2": 2}, "launched": False}
    assert score_lines(score) == [
        ("missions", 3), ("stations station1", 4), ("stations station2", 2), ("launched", False), ("total", 9)
    ]
