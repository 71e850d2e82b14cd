"""A sheet drawn from its schematic: every mark on its element, circled and crossed told apart,
nothing marked left out, the live score line by line; a Battle sheet with its two sides' panels
apart around what they share, insignias in their side's colour; numbering rows top first."""

import re
from xml.etree import ElementTree

from games.rules.adventures import PLAYABLE, rules_for
from games.rules.core.schematic import MARKS, ZONE, Area, Row, Schematic
from games.rules.core.sheet import Mark
from games.sheet_svg import SIDE_COLOURS, captions, insignia, score_lines, sheet_svg

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


# --- a shared sheet (adventure 8) ------------------------------------------------------------

BATTLE = rules_for(8).layout
OWNERS = {"S": "seat 0 (ann)", "N": "seat 1 (greedy bot)"}


def side_of(element: str) -> str | None:
    head = element.split(".", 1)[0]
    return head if head in OWNERS else None


def test_the_battle_sheet_lies_as_on_the_table_side_n_on_top_the_shared_middle_side_s_below() -> None:
    top, planets, field, bottom = BATTLE.schematic.areas
    assert (top.side, planets.side, field.side, bottom.side) == ("N", None, None, "S")
    for panel in (top, bottom):
        cells = {cell for row in panel.rows for cell in row.cells}
        assert {side_of(cell) for cell in cells} == {panel.side}
        side = str(panel.side)
        assert set(BATTLE.side_error_boxes[side]) | set(BATTLE.astronauts[side]) <= cells
    assert set(BATTLE.mission_boxes.values()) <= {cell for row in bottom.rows for cell in row.cells}
    assert {side_of(cell) for area in (planets, field) for row in area.rows for cell in row.cells} == {None}
    # a track's boxes are captioned with their printed values (spec 3.4: plants 0, 2, 4, 7 ...)
    plants = next(row for row in bottom.rows if row.cells[0] == "S.plant.b01")
    assert plants.captions == ("0", "2", "4", "7", "10", "13", "17", "21", "25", "30", "35")
    assert plants.label.endswith("all crossed: 40")
    # a planet's spaces take insignias as boxes; its moon, flag, completion and symbols line up
    pl4 = next(row for row in planets.rows if row.cells[0] == "pl4.s1")
    assert [pl4.kind_of(index) for index in range(9)] == [ZONE] * 7 + [MARKS] * 2
    assert dict(zip(pl4.cells, pl4.columns or (), strict=True))["pl4.flag"] == dict(
        zip(planets.rows[0].cells, planets.rows[0].columns or (), strict=True)
    )["pl1.flag"]
    assert pl4.captions is not None and pl4.captions[0] == "s1 plant" and pl4.captions[6] == "s7 robot"
    # the field from side S's end to side N's, each bonus under its asteroid
    asteroids, *bonuses = field.rows
    assert asteroids.cells == tuple(f"ast{order:02d}" for order in range(1, 14))
    for row in bonuses:
        for cell, column in zip(row.cells, row.columns or (), strict=True):
            assert cell.startswith(asteroids.cells[column] + ".")


def panels(svg: str) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return {g.get("data-side", ""): g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"}


def test_a_shared_sheet_draws_each_side_apart_with_its_owner_its_score_and_who_plays_now() -> None:
    marks: dict[str, Mark] = {
        "pl1.s1": "S", "pl1.s2": "N", "pl1.s3": "N", "pl1.flag": "SN", "pl1.done": "circle",
        "pl2.moon1": "N", "ast01": "S", "ast13": "N", "ast02.plant": "cross",
        "S.plant.b01": "cross", "N.astro.a1": "circle", "S.mission.A": 9, "S.ship": "S", "N.ship": "N",
    }
    score = {
        side: {"seat": seat, "plants": 2 if side == "S" else 0, "total": 2 if side == "S" else -3}
        for side, seat in (("S", 0), ("N", 1))
    }
    svg = sheet_svg(
        title="Sheet 0: shared", schematic=BATTLE.schematic, marks=marks, score=score, owners=OWNERS,
        active="N",
    )
    drawn = panels(svg)
    assert {side: (g.get("data-owner"), g.get("data-active")) for side, g in drawn.items()} == {
        "S": ("seat 0 (ann)", "false"), "N": ("seat 1 (greedy bot)", "true")
    }
    for side, panel in drawn.items():
        inside = [g.get("data-element", "") for g in panel.iter(f"{SVG}g") if g.get("data-element")]
        assert inside and {side_of(element) for element in inside} == {side}
        lines = [g for g in panel.iter(f"{SVG}g") if g.get("class") == "score-line"]
        assert {g.get("data-side") for g in lines} == {side}
        assert {g.get("data-score"): g.get("data-value") for g in lines} == {
            "plants": str(score[side]["plants"]), "total": str(score[side]["total"])
        }
    headings = {side: "".join(panel.itertext()) for side, panel in drawn.items()}
    assert "PLAYS THIS SHEET NOW" in headings["N"] and "PLAYS THIS SHEET NOW" not in headings["S"]
    assert "LIVE SCORE" not in svg  # each side's score is in its panel, none is the sheet's
    assert "side N: seat 1 (greedy bot) \u2014 plays this sheet now" in svg
    every = cells(svg)
    assert {element: g.get("data-mark") for element, g in every.items() if g.get("data-mark")} == {
        element: str(mark) for element, mark in marks.items()
    }

    def fills(element: str) -> list[str]:
        shapes = (f"{SVG}circle", f"{SVG}path")
        return [shape.get("fill", "") for shape in every[element] if shape.tag in shapes]

    assert fills("pl1.s1") == [SIDE_COLOURS["S"]] and fills("pl1.s2") == [SIDE_COLOURS["N"]]
    assert fills("pl1.flag") == [SIDE_COLOURS["S"], SIDE_COLOURS["N"]]  # control shared: both insignias
    assert fills("ast13") == [SIDE_COLOURS["N"]] and fills("S.ship") == [SIDE_COLOURS["S"]]
    assert SIDE_COLOURS["S"] not in ElementTree.tostring(every["pl1.done"]).decode()  # a circle, no insignia
    assert "(seat 1 (greedy bot))" in "".join(every["pl2.moon1"].itertext())  # the hover names the owner


def test_marks_that_name_no_side_are_not_insignias() -> None:
    assert insignia("SN", OWNERS) == ("S", "N")
    assert insignia("N", OWNERS) == ("N",)
    for mark in ("circle", "cross", "X", "SS", "", 4):
        assert insignia(mark, OWNERS) == ()
    assert insignia("S", {}) == ()  # a sheet with one owner has no insignias


def test_numbering_rows_are_drawn_top_floor_first() -> None:
    def zones(adventure: int) -> list[str]:
        numbering = rules_for(adventure).layout.schematic.areas[0]
        return [row.label for row in numbering.rows]

    assert zones(1) == [f"f{floor}" for floor in range(9, 0, -1)]  # floor 1 is the bottom (Wild) floor
    assert zones(7) == [f"ship{ship}" for ship in range(6, 0, -1)]  # ship 1 is the bottom row
    assert zones(4) == ["level1", "level2", "level3"]  # level 1 is just below the surface
    assert zones(6) == [f"floor{floor}" for floor in range(1, 6)]  # floor 1 is the top floor
