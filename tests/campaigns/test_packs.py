"""Content packs: the shipped pack is valid and complete; every refusal names the card and the
field; the loader used at start-up and `manage.py validate_pack` refuse a bad pack."""

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command

from campaigns import library
from campaigns.rules import effects, packs
from campaigns.rules.packs import CHAPTERS
from games.rules.adventures import PLAYABLE

OPEN = library.SHIPPED / "open.json"


def marks(adventure: int, element: str, mark: str) -> dict[str, Any]:
    """A start_marks effect of one mark."""
    return {"kind": "start_marks", "adventure": adventure, "marks": [{"element": element, "mark": mark}]}


def goal(predicate: dict[str, Any]) -> dict[str, Any]:
    """A star_goal effect of one star."""
    return {"kind": "star_goal", "stars": 1, "predicate": predicate}


def card(**changes: Any) -> dict[str, Any]:
    """A valid card, with ``changes``."""
    base = {
        "id": "test-card",
        "title": "A test card",
        "story": "Something happens between two chapters.",
        "after": 1,
        "chooser": "each",
        "applies_to": "chooser",
        "when": "next",
        "effects": [{"kind": "bonus_points", "points": 3}],
    }
    return {**base, **changes}


def pack(*cards: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {"id": "test", "version": "1", "title": "Test pack", "cards": list(cards), **changes}


def test_the_shipped_pack_is_valid_and_uses_every_effect_kind() -> None:
    shipped = packs.load(OPEN)
    assert shipped.id == "open"
    used = {effect["kind"] for each in shipped.cards for effect in each.effects}
    assert used == set(effects.KINDS)
    assert shipped.stars == packs.default_stars()


@pytest.mark.parametrize(("solo", "draft"), [(False, 7), (True, 2)])
def test_the_shipped_pack_offers_a_draft_for_six_players_or_one_after_every_chapter(
    solo: bool, draft: int
) -> None:
    shipped = packs.load(OPEN)
    for chapter in CHAPTERS[:-1]:
        group, personal = shipped.offered_after(chapter, solo=solo)
        assert group and len(personal) >= draft, chapter
        assert all(card.applies_to == "all" for card in group), chapter


def test_a_card_changing_only_astras_level_is_offered_in_solo_campaigns_only() -> None:
    shipped = packs.load(OPEN)
    uplink = shipped.card("c1-quiet-uplink")
    group, _ = shipped.offered_after(1, solo=False)
    assert uplink not in group
    assert uplink in shipped.offered_after(1, solo=True)[0]
    rumour = shipped.card("c1-hangar-rumour")  # aimed at an opponent: none in a solo campaign
    assert rumour in shipped.offered_after(1, solo=False)[1]
    assert rumour not in shipped.offered_after(1, solo=True)[1]


def test_the_product_star_table_is_the_sheets_pictograms() -> None:
    table = packs.default_stars()
    assert table[1] == (1, 0, 0)
    assert table[5] == (3, 2, 1)
    assert table[8] == (6, 3, 1)


REFUSALS = [
    # (card changes, the field named, words of the message)
    ({"effects": [{"kind": "teleport"}]}, "effects[0].kind", "unknown effect kind 'teleport'"),
    (
        {"effects": [marks(2, "nowhere", "circle")]},
        "effects[0].marks[0].element",
        "'nowhere' is not an element of adventure 2's sheet (The Journey)",
    ),
    (
        {"after": 7, "effects": [marks(8, "f1.s1", "X")]},
        "effects[0].marks[0].element",
        "'f1.s1' is not an element of adventure 8's sheet (The Battle)",
    ),
    (
        {"effects": [marks(2, "water.t01", "glitter")]},
        "effects[0].marks[0].mark",
        '"glitter" is not a mark for water.t01',
    ),
    (
        {"effects": [marks(4, "pump.c01", "circle")]},
        "effects[0].adventure",
        "never reaches",
    ),
    ({"after": 0}, "after", "chapter 0 is outside 1-8"),
    ({"after": 9}, "after", "chapter 9 is outside 1-8"),
    ({"after": 8}, "after", "ends with chapter 8"),
    ({"when": 9}, "when", "chapter 9 is outside 1-8"),
    ({"after": 3, "when": 2}, "when", "does not come after chapter 3"),
    ({"when": "later"}, "when", "'next', 'rest' or a chapter's number"),
    ({"effects": [{"kind": "system_errors", "delta": 1}]}, "effects[0].delta", "negative whole delta"),
    ({"effects": [{"kind": "system_errors", "delta": -3}]}, "effects[0].delta", "3 System Error boxes"),
    ({"effects": [{"kind": "mission_choice", "letters": ["D"]}]}, "effects[0].letters", "['D']"),
    (
        {"effects": [goal({"kind": "luck"})]},
        "effects[0].predicate.kind",
        "unknown predicate 'luck'",
    ),
    (
        {"effects": [goal({"kind": "missions_accomplished", "count": 4})]},
        "effects[0].predicate.count",
        "1 to 3",
    ),
    ({"effects": [{"kind": "bonus_points", "points": "many"}]}, "effects[0].points", "'many'"),
    ({"effects": [{"kind": "bonus_points", "points": 3, "colour": "red"}]}, "effects[0].colour", "no field"),
    ({"effects": [{"kind": "astra_level", "delta": 0}]}, "effects[0].delta", "not 0"),
    ({"effects": []}, "effects", "non-empty list of effects"),
    ({"chooser": "everyone"}, "chooser", "'everyone'"),
    ({"applies_to": "ASTRA"}, "applies_to", "'ASTRA'"),
    ({"flavour": "salty"}, "flavour", "no field 'flavour'"),
    ({"title": ""}, "title", "non-empty string"),
]


@pytest.mark.parametrize(("changes", "field", "words"), REFUSALS)
def test_each_refusal_names_the_card_and_the_field(changes: dict[str, Any], field: str, words: str) -> None:
    found = packs.problems(pack(card(), card(id="bad-card", **changes)))
    assert [(p.card, p.field) for p in found] == [("bad-card", field)], found
    assert words in found[0].message
    with pytest.raises(packs.PackError) as refused:
        packs.parse(pack(card(id="bad-card", **changes)))
    assert f"card 'bad-card', field '{field}'" in str(refused.value)


def test_a_mark_on_a_sheet_not_playable_yet_is_read_from_its_data_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(PLAYABLE, 8)  # as before The Battle was registered
    battle = card(after=7, effects=[marks(8, "pl1.plant1", "cross")])
    assert packs.problems(pack(battle), rules_version=1) == []


def test_a_mark_on_a_playable_sheet_is_checked_by_its_rules() -> None:
    """The Battle marks the elements of a side panel (a planet's space is not one)."""
    side_s = card(after=7, effects=[marks(8, "S.plant.b01", "cross")])
    assert packs.problems(pack(side_s), rules_version=1) == []
    planet = card(after=7, effects=[marks(8, "pl1.plant1", "cross")])
    (problem,) = packs.problems(pack(planet), rules_version=1)
    assert problem.field == "effects[0].marks[0].element"


def test_two_cards_with_one_id_are_refused() -> None:
    found = packs.problems(pack(card(), card()))
    assert [(p.card, p.field) for p in found] == [("test-card", "id")]


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ({"version": "1", "title": "t", "cards": [card()]}, "id"),
        ({"id": "p", "title": "t", "cards": [card()]}, "version"),
        ({"id": "p", "version": "1", "title": "t", "cards": []}, "cards"),
        ({"id": "p", "version": "1", "title": "t", "cards": [card()], "stars": {"1": [1]}}, "stars"),
        ({"id": "p", "version": "1", "title": "t", "cards": [card()], "rules": {}}, "rules"),
    ],
)
def test_a_pack_field_problem_names_the_pack_field(content: dict[str, Any], field: str) -> None:
    found = packs.problems(content)
    assert [(p.card, p.field) for p in found] == [(None, field)]
    assert str(found[0]).startswith(f"pack field {field!r}")


def test_the_start_up_loader_refuses_a_bad_pack_naming_the_card(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(pack(card(id="broken-card", effects=[{"kind": "teleport"}]))))
    with pytest.raises(ImproperlyConfigured) as refused:
        library.load([library.SHIPPED, tmp_path])
    assert "card 'broken-card', field 'effects[0].kind'" in str(refused.value)
    assert str(bad) in str(refused.value)


def test_the_loader_refuses_two_packs_with_one_id(tmp_path: Path) -> None:
    (tmp_path / "copy.json").write_text(OPEN.read_text())
    with pytest.raises(ImproperlyConfigured, match="both have the id 'open'"):
        library.load([library.SHIPPED, tmp_path])


def test_a_yaml_pack_is_the_same_pack_as_its_json(tmp_path: Path) -> None:
    content = json.loads(OPEN.read_text())
    content["id"] = "open-yaml"
    as_yaml = tmp_path / "open.yaml"
    as_yaml.write_text(yaml.safe_dump(content, sort_keys=False))
    loaded = library.load([library.SHIPPED, tmp_path])
    assert loaded["open-yaml"].content_hash == packs.content_hash(content)
    assert loaded["open-yaml"].cards == loaded["open"].cards


def test_validate_pack_accepts_the_shipped_pack() -> None:
    out = io.StringIO()
    call_command("validate_pack", str(OPEN), stdout=out)
    assert "pack 'open' version '2' is valid: 65 cards" in out.getvalue()


def test_rules_version_2_refuses_a_group_card_for_the_captain_alone_and_a_short_draft(tmp_path: Path) -> None:
    """The open pack as version 1 campaigns played it: two captain's cards served the captain
    alone, and two personal cards (one in solo) were offered after each chapter."""
    v1 = Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1" / "pack-open-1.json"
    with pytest.raises(CommandError) as refused:
        call_command("validate_pack", str(v1))
    words = str(refused.value)
    assert (
        "card 'c4-astra-studies', field 'applies_to': a card the captain chooses serves the group: "
        "it applies to 'all', not 'chooser'"
    ) in words
    assert (
        "after chapter 3 the pack offers 2 personal card(s) (chooser 'each') that can apply to 6 "
        "players: the draft needs one more than the players, 7"
    ) in words
    solo = "after chapter 3 the pack offers 1 personal card(s) (chooser 'each') that can apply to a solo"
    assert solo in words
    # what version 1 campaigns stored stays playable: it is valid for rules version 1
    assert packs.problems(json.loads(v1.read_text()), rules_version=1) == []


def test_validate_pack_lists_every_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        yaml.safe_dump(pack(card(id="one", after=9), card(id="two", effects=[{"kind": "fly"}])))
    )
    with pytest.raises(CommandError) as refused:
        call_command("validate_pack", str(bad))
    assert "card 'one', field 'after'" in str(refused.value)
    assert "card 'two', field 'effects[0].kind'" in str(refused.value)


def test_an_unreadable_pack_file_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(packs.PackError, match="cannot be read"):
        packs.load(broken)


ALIAS_BOMB = "\n".join(
    ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 10)]
    + ["id: bomb", 'version: "1"', "title: Nine to the tenth", "cards: *a9"]
)


def test_validate_pack_refuses_a_yaml_alias_at_once(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(ALIAS_BOMB)  # a few hundred bytes, 9**10 strings once its aliases are followed
    with pytest.raises(CommandError, match=r"the alias \*a0 is refused: a pack uses no YAML aliases"):
        call_command("validate_pack", str(bomb))


def test_the_start_up_loader_refuses_a_yaml_alias(tmp_path: Path) -> None:
    content = yaml.safe_dump(json.loads(OPEN.read_text()) | {"id": "aliased"}, sort_keys=False)
    aliased = content.replace("title:", "title: &t", 1) + "description: *t\n"
    (tmp_path / "aliased.yaml").write_text(aliased)
    refusal = r"(?s)aliased\.yaml is refused.*- cannot be read: the alias \*t is refused"
    with pytest.raises(ImproperlyConfigured, match=refusal):
        library.load([library.SHIPPED, tmp_path])


def test_a_pack_larger_than_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    large = tmp_path / "large.json"
    large.write_text(json.dumps(pack(card(story="x" * packs.MAX_PACK_BYTES))))
    with pytest.raises(CommandError, match="is larger than 1,000,000 bytes, the most a pack may be"):
        call_command("validate_pack", str(large))
    with pytest.raises(ImproperlyConfigured, match=r"large\.json is refused"):
        library.load([library.SHIPPED, tmp_path])


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_pack_nested_too_deep_is_refused(tmp_path: Path, suffix: str) -> None:
    deep = tmp_path / f"deep{suffix}"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(packs.PackError, match="cannot be read: it nests too deep"):
        packs.load(deep)
