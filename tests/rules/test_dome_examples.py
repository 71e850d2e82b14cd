"""The worked examples of the Dome spec (adventure-5-dome.md section 12), one test each."""

from games.rules import engine
from games.rules.core.sheet import Marks
from games.rules.turn import solo
from tests.rules.dome_helpers import (
    RULES,
    astronauts,
    circled,
    crossed,
    dome,
    errors,
    game,
    move,
    refused,
    reveal,
    score,
    send,
    set_sheet,
    skyscrapers,
    stars,
    tower,
    upgrades,
    write,
)
from tests.rules.playing import against_astra, confirm_all, options

# --- scoring examples ----------------------------------------------------------------------


def s1_sheet() -> Marks:
    return {
        **skyscrapers(
            {
                "sk1": {"d6": 1, "d5": 2, "d4": "X", "d3": 4, "d2": 5, "d1": 6, "u1": 8},
                "sk2": {"d4": 2, "d3": 3, "d2": 5, "d1": 6, "u1": 7, "u2": "X", "u3": 9,
                        "u4": 11, "u5": 13, "u6": 15},
                "sk3": {"d1": 7, "u1": 8},
            }
        ),
        **circled("sk1.bottom.low", "sk2.top.high", "sk2.bottom.low"),
        **crossed("sk1.bottom.high", "sk2.bottom.high"),
        **tower({"u4": 1, "u3": 1, "u2": 0, "u1": 2, "d1": 3, "d2": 2}),
        **stars(A="first", B="later"),
        **dome(split=(3, 6), built=("dome.1", "dome.2", "dome.3a", "dome.8")),
        **astronauts(2),
        **errors(1),
    }


def test_example_s1_no_upgrades_two_splits() -> None:
    state = game(3, missions={"A": 88, "B": 90, "C": 92})
    set_sheet(state, 0, s1_sheet())
    set_sheet(state, 1, astronauts(3))
    set_sheet(state, 2, {})
    result = score(state, 0)
    assert result["missions"] == 1 * 8 + 1 * 4
    assert result["tower_levels_by_symbols"] == {"one": 2, "two": 2, "three": 1}
    assert result["tower"] == 2 * 2 + 2 * 5 + 1 * 9
    assert result["skyscrapers"] == 10 + 20 + 5
    assert result["astronauts"] == 0  # 2 < 3: the other column, row 1
    assert result["dome_unbuilt"] == 6
    assert result["dome"] == -36
    assert result["system_errors"] == -5
    assert result["total"] == 29


def s2_sheet() -> Marks:
    return {
        **skyscrapers(
            {
                "sk1": {"d6": 1, "d5": 2, "d4": 3, "d3": "X", "d2": 4, "d1": 5, "u1": 6,
                        "u2": 8, "u3": 10},
                "sk2": {"d2": "X", "d1": 5, "u1": 6, "u2": 7, "u3": 9, "u4": 11, "u5": 12,
                        "u6": 14},
                "sk3": {"d3": 2, "d2": 3, "d1": 4, "u1": "X", "u2": 7, "u3": 8, "u4": 9,
                        "u5": 10, "u6": "X", "u7": 13},
                "sk4": {"d1": 6, "u1": 8, "u2": 10, "u3": 11},
            }
        ),
        **circled("sk1.top.high", "sk1.bottom.low", "sk2.top.high", "sk3.top.low",
                  "sk3.bottom.high"),
        **crossed("sk1.bottom.high", "sk3.top.high"),
        **tower({"u3": 3, "u2": 2, "d1": 2, "u1": 1}),
        **stars(A="first", B="later", C="first"),
        **dome(split=(1, 4, 5, 8),
               built=("dome.1a", "dome.1b", "dome.2", "dome.8b", "dome.8a", "dome.7")),
        **upgrades(missions=1, tower=1, astronauts=2, dome=1),
        **astronauts(4),
        **errors(2),
    }


def test_example_s2_upgrades_and_a_tied_astronaut_lead() -> None:
    state = game(3, missions={"A": 89, "B": 90, "C": 93})
    set_sheet(state, 0, s2_sheet())
    set_sheet(state, 1, astronauts(4))
    set_sheet(state, 2, astronauts(3))
    sheet = state.sheets[0]
    for card in (89, 93):
        assert RULES.mission_holds_on(sheet, card)
    result = score(state, 0)
    assert result["missions"] == 2 * 10 + 1 * 6
    assert result["tower"] == 2 + 12 + 10
    assert result["skyscrapers"] == 6 + 10 + 20 + 12 + 6
    assert result["astronauts"] == 10  # tied for the lead: the first column, row 3
    assert result["dome"] == -6 * 5
    assert result["system_errors"] == -10
    assert result["total"] == 74


def test_example_s3_solo_the_player_beats_astra_48_to_46() -> None:
    """Against ASTRA (level 1) holding 3 Astronaut cards, the player's 3 astronauts lead."""
    sheet = {
        **skyscrapers(
            {
                "sk4": {"d5": 1, "d4": 2, "d3": 3, "d2": 5, "d1": 6, "u1": 7, "u2": "X",
                        "u3": 10, "u4": 12},
                "sk2": {"d4": 1, "d3": 3, "d2": 4, "d1": 5, "u1": 8, "u2": 9},
                "sk1": {"d2": 3, "d1": 5, "u1": 7, "u2": 9},
                "sk3": {"d1": 6, "u1": 8, "u2": 10, "u3": 11},
            }
        ),
        **circled("sk4.top.high", "sk4.bottom.low", "sk2.bottom.high"),
        **crossed("sk4.bottom.high"),
        **tower({"u1": 3, "d1": 3, "u2": 2, "d2": 1, "u3": 1}),
        **stars(A="first", B="later"),
        **dome(split=(5,), built=("dome.1", "dome.2", "dome.3", "dome.8", "dome.7", "dome.6")),
        **upgrades(tower=2),
        **astronauts(3),
    }
    state = game(1, missions={"A": 88, "B": 91, "C": 92}, sheet=sheet)
    astra_pile = {"robot": 3, "energy": 2, "plant": 4, "water": 1, "astronaut": 3, "planning": 2}
    against_astra(state, 1, astra_pile)
    result = score(state)
    assert result["missions"] == 12
    assert result["tower"] == 6 + 7 + 24
    assert result["skyscrapers"] == 27
    assert result["astronauts"] == -10
    assert result["dome"] == -18
    assert result["system_errors"] == 0
    assert result["total"] == 48
    standings = solo.standings(state)
    assert (standings["astra"]["total"], standings["winners"]) == (46, [0])
    assert state.astra is not None
    state.astra.pile["astronaut"] = 4  # ASTRA leads: the other column
    assert score(state)["astronauts"] != -10


# --- turn examples -------------------------------------------------------------------------


def test_example_a_numbering_and_plant() -> None:
    state = game(sheet=skyscrapers({"sk2": {"d1": 6, "u1": 8}}))
    reveal(state, (10, "plant"), (1, "robot"), (2, "robot"))
    spaces = {o["space"] for o in options(state, 0) if o["number"] == 10}
    assert {"sk2.u2", "sk3.u1", "sk3.d1"} <= spaces
    assert not {"sk2.u3", "sk2.d2", "sk3.u2"} & spaces
    assert refused(state, 0, action="write", combination=0, space="sk2.u3",
                   number=10) == "level_not_reachable"
    assert refused(state, 0, action="write", combination=0, space="sk2.d2",
                   number=10) == "space_not_ascending"
    assert refused(state, 0, action="write", combination=0, space="sk3.u2",
                   number=10) == "level_not_reachable"
    write(state, 0, 0, "sk2.u2")
    assert engine.options(state, 0).options == [
        {"action": "plant", "effect": "action.plant", "symbol": "tower.u2.plant1"},
        {"action": "skip", "effect": "action.plant"},
    ]
    move(state, 0, action="plant", effect="action.plant", symbol="tower.u2.plant1")
    assert state.sheets[0].marks["tower.u2.plant1"] == "circle"


def test_example_a_plant_on_a_starting_level_of_an_empty_skyscraper() -> None:
    for space, level in (("sk3.u1", "tower.u1"), ("sk3.d1", "tower.d1")):
        state = game(sheet=skyscrapers({"sk2": {"d1": 6, "u1": 8}}))
        reveal(state, (10, "plant"), (1, "robot"), (2, "robot"))
        write(state, 0, 0, space)
        assert [o.get("symbol") for o in engine.options(state, 0).options] == [f"{level}.plant1", None]


def test_example_a_plant_without_a_tower_link_or_plant_left_has_no_effect() -> None:
    unlinked = skyscrapers({"sk2": {"d1": 6, "u1": 8, "u2": 9, "u3": 10, "u4": 11}})
    full = {**skyscrapers({"sk2": {"d1": 6, "u1": 8}}), **tower({"u2": 2})}
    for sheet, space in ((unlinked, "sk2.u5"), (full, "sk2.u2")):
        state = game(sheet=sheet)
        reveal(state, (12, "plant"), (1, "robot"), (2, "robot"))
        events = write_events(state, space)
        assert [e["data"]["outcome"] for e in events if e["kind"] == "effect_resolved"] == ["no_effect"]
        assert engine.options(state, 0).kind == "confirm"


def write_events(state: engine.GameState, space: str) -> list[engine.Event]:
    return move(state, 0, action="write", combination=0, space=space, number=state.combinations[0].number)


def test_example_b_robot_parity_and_dome_adjacency() -> None:
    sheet = dome(split=(2,), built=("dome.1",))
    state = game(sheet=sheet)
    reveal(state, (8, "robot"), (7, "robot"), (1, "energy"))
    write(state, 0, 0, "sk1.u1")
    assert [o.get("element") for o in engine.options(state, 0).options] == ["dome.2a", "dome.8", None]
    assert refused(state, 0, action="robot", effect="action.robot",
                   element="dome.2b") == "element_not_buildable"
    assert refused(state, 0, action="robot", effect="action.robot",
                   element="dome.3") == "element_not_buildable"
    move(state, 0, action="robot", effect="action.robot", element="dome.2a")
    assert state.sheets[0].marks["dome.2a"] == "trace"

    state = game(sheet=sheet)
    reveal(state, (8, "robot"), (7, "robot"), (1, "energy"))
    events = move(state, 0, action="write", combination=1, space="sk1.u1", number=7)
    assert events[-1]["data"] == {"effect": "action.robot", "outcome": "no_effect", "target": None}
    assert engine.options(state, 0).kind == "confirm"


def c_sheet() -> Marks:
    return skyscrapers({"sk3": {"d1": 4, "u1": 5, "u2": 6, "u3": 7, "u4": 9, "u5": 10, "u6": 12}})


def test_example_c_planning_split_and_the_race() -> None:
    state = game(3, sheet=c_sheet())
    reveal(state, (13, "planning"), (2, "robot"), (3, "energy"))
    write(state, 0, 0, "sk3.u7")
    assert state.sheets[0].marks["sk3.top.high"] == "circle"
    assert refused(state, 0, action="planning", effect="action.planning",
                   space="sk1.u2") == "level_not_reachable"
    move(state, 0, action="planning", effect="action.planning", space="sk3.d2")
    assert state.sheets[0].marks["sk3.d2"] == "X"
    assert {o["section"] for o in options(state, 0)} == {
        f"dome.{n}" for n in range(1, 9)
    }
    assert refused(state, 0, action="skip", effect="split") == "effect_not_optional"
    move(state, 0, action="split", effect="split", section="dome.5")
    assert state.sheets[0].marks["dome.5.split"] == "line"
    assert RULES.layout.chain(state.sheets[0].marks)[4:6] == ["dome.5a", "dome.5b"]
    assert RULES.layout.parity["dome.5a"] == RULES.layout.parity["dome.5b"] == 1

    write(state, 1, 0, "sk3.u7")
    move(state, 1, action="skip", effect="action.planning")
    write(state, 2, 1, "sk3.d2", 2)
    move(state, 2, action="skip", effect="action.robot")
    confirm_all(state)

    assert [state.sheets[seat].marks["sk3.top.high"] for seat in range(3)] == [
        "circle", "circle", "cross",
    ]
    assert score(state, 0)["skyscrapers"] == score(state, 1)["skyscrapers"] == 25

    reveal(state, (14, "water"), (2, "robot"), (3, "energy"))
    write(state, 2, 0, "sk3.u7")
    assert state.sheets[2].marks["sk3.top.low"] == "circle"
    assert score(state, 2)["skyscrapers"] == 12


def d_sheet() -> Marks:
    return skyscrapers(
        {
            "sk1": {"d1": 3, "u1": 13},
            "sk2": {"d1": 2, "u1": 14},
            "sk3": {"d1": 1, "u1": 15},
            "sk4": {"d1": 3, "u1": 13},
        }
    )


def test_example_d_system_error() -> None:
    for first in ("robot", "astronaut"):
        state = game(sheet=d_sheet())
        reveal(state, (9, first), (4, "energy"), (11, "water"))
        assert engine.options(state, 0).options == [{"action": "system_error", "box": "error.1"}]
        assert refused(state, 0, action="write", combination=1, space="sk1.d2",
                       number=4) == "space_not_ascending"
        move(state, 0, action="system_error", box="error.1")
        assert engine.options(state, 0).kind == "confirm"  # no action
        send(state, 0, {"type": "confirm"})
        assert score(state)["system_errors"] == -5
