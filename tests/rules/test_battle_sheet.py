"""The Adventure 8 sheet as the engine reads it matches the geometry the spec gives (§3): the
seven planets with their ranges, types, spaces, bonuses and symbols, the number to planet map,
the asteroid field, the two identical side panels and the ASTRA card (§9.1)."""

from collections import Counter

from tests.rules.battle_helpers import LAYOUT, RULES

# By planet: type, numbers taken, spaces, bonus printed in each space, plant and water symbols.
PLANETS = {
    "pl1": ("green", range(0, 4), (None, None, "plant"), 1, 1),
    "pl2": ("grey", range(3, 6), (None, None, None, None, "robot"), 1, 1),
    "pl3": ("blue", range(5, 8), (None, None, "robot", None, "water"), 2, 1),
    "pl4": ("grey", range(7, 10), ("plant", None, None, None, "plant", None, "robot"), 2, 1),
    "pl5": ("green", range(9, 12), (None, None, None, "water", "plant"), 2, 1),
    "pl6": ("blue", range(11, 14), (None, None, None, None, "water"), 2, 1),
    "pl7": ("green", range(13, 18), (None, None, "plant"), 2, 0),
}


def test_the_seven_planets_as_printed() -> None:
    assert list(LAYOUT.planets) == list(PLANETS)
    for planet_id, (kind, numbers, bonuses, plants, waters) in PLANETS.items():
        planet = LAYOUT.planets[planet_id]
        assert planet.type == kind and planet.accepts == frozenset(numbers), planet_id
        assert planet.spaces == tuple(f"{planet_id}.s{n}" for n in range(1, len(bonuses) + 1))
        assert tuple(LAYOUT.space_bonus.get(space) for space in planet.spaces) == bonuses, planet_id
        assert (len(planet.plants), len(planet.waters), len(planet.moon)) == (plants, waters, 2)
    assert len(LAYOUT.planet_spaces) == 33
    assert Counter(LAYOUT.space_bonus.values()) == {"plant": 5, "water": 3, "robot": 3}
    by_type: Counter[str] = Counter()
    for planet in LAYOUT.planets.values():
        by_type[planet.type] += len(planet.spaces)
    assert by_type == {"green": 11, "blue": 10, "grey": 12}


def test_a_number_selects_one_planet_or_two_at_the_shared_ends_of_their_ranges() -> None:
    shared = {3: ("pl1", "pl2"), 5: ("pl2", "pl3"), 7: ("pl3", "pl4"), 9: ("pl4", "pl5"),
              11: ("pl5", "pl6"), 13: ("pl6", "pl7")}  # fmt: skip
    assert {n: p for n, p in LAYOUT.number_to_planets.items() if len(p) == 2} == shared
    # "<1" takes 0 and "15>" takes 16 and 17, reached only with astronaut modifiers
    assert [LAYOUT.number_to_planets[n] for n in (0, 16, 17)] == [("pl1",), ("pl7",), ("pl7",)]
    assert LAYOUT.astra_planet_order == tuple(PLANETS)


def test_the_asteroid_field_is_symmetric_and_claimed_from_each_end() -> None:
    kinds = [tuple(kind for _, kind in asteroid.bonuses) for asteroid in LAYOUT.asteroids.values()]
    assert kinds == [
        (), ("plant",), ("water",), ("plant",), ("water", "energy"), ("energy", "energy"),
        ("planning", "planning"),
        ("energy", "energy"), ("water", "energy"), ("plant",), ("water",), ("plant",), (),
    ]  # fmt: skip
    assert kinds == kinds[::-1]
    assert LAYOUT.asteroid_order["S"][0] == "ast01" and LAYOUT.asteroid_order["N"][0] == "ast13"
    bonuses = Counter(LAYOUT.asteroid_bonus_kind.values())
    assert bonuses == {"plant": 4, "water": 4, "energy": 6, "planning": 2}


def test_both_side_panels_carry_the_same_tracks_valued_as_printed() -> None:
    values = {
        "plant": (0, 2, 4, 7, 10, 13, 17, 21, 25, 30, 35, 40),
        "water": (0, 3, 6, 10, 14, 19, 24, 30, 37, 45),
        "green": (2, 3, 4, 6, 8),
        "blue": (2, 4, 6, 8, 10),
        "grey": (4, 5, 6, 9, 12),
        "planning": (0, 3, 6, 10, 15, 21, 28, 36),  # 10 after three boxes, as printed (10.1)
        "error": (0, 5, 10),
    }
    for side in ("S", "N"):
        for name, printed in values.items():
            track = LAYOUT.track(side, name)
            assert (track.values, len(track.boxes)) == (printed, len(printed) - 1), (side, name)
        assert len(LAYOUT.astronauts[side]) == 6
    assert LAYOUT.error_penalty == (0, 5, 10)
    # only side S has the mission boxes; each side its ship
    assert LAYOUT.mission_boxes == {"A": "S.mission.A", "B": "S.mission.B", "C": "S.mission.C"}
    assert LAYOUT.ships == {"S": "S.ship", "N": "N.ship"}


def test_the_astra_card_of_the_battle() -> None:
    card = RULES.astra_card
    assert (card["fixed_points"], card["points_per_level"], card["bonus_boxes"]) == (20, 3, 6)
    assert LAYOUT.astra_actions == {
        "robot": "robot", "energy": "robot", "plant": "plant", "water": "water",
        "planning": "planning", "astronaut": "planning",
    }  # fmt: skip
