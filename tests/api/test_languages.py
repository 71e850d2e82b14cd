"""Answers in the reader's language: `Accept-Language` picks en, es, pt or ja for every human
text (English when nothing matches) and `Content-Language` says which; codes, ids and event data
never change with it. The four catalogs are complete and their .mo files up to date."""

import ast
import re
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from django.utils import translation
from rest_framework.test import APIClient

from api.campaign_serializers import CampaignMoveSerializer, CampaignOptionsField
from campaigns import library
from campaigns.rules import effects
from eventstore.errors import Word
from games.i18n import text, translated
from games.rules.engine import Text, narration, upcast
from moon import catalogs

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
FIELD = re.compile(r"%\(\w+\)s")


@pytest.fixture(scope="module")
def extracted() -> Catalog:
    return catalogs.template()


def moves(game: int) -> str:
    return f"/api/v1/games/{game}/moves"


@pytest.mark.django_db
def test_an_illegal_move_in_japanese_has_a_japanese_detail_and_the_same_code(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    illegal = {"choice": {"action": "write", "combination": 7, "space": "f3.s1"}}
    english = post(alice, moves(playing_game), illegal)
    japanese = post(alice, moves(playing_game), illegal, HTTP_ACCEPT_LANGUAGE="ja")
    assert english.status_code == japanese.status_code == 400
    assert english.json()["code"] == japanese.json()["code"] == "unknown_combination"
    assert english.json()["detail"] == "Choose combination 0 to 2."
    assert japanese.json()["detail"] == "組み合わせは0〜2から選んでください。"
    assert (english["Content-Language"], japanese["Content-Language"]) == ("en", "ja")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "language"),
    [("es-MX,es;q=0.9", "es"), ("pt-BR", "pt"), ("ja-JP", "ja"), ("fr, de;q=0.5", "en"), ("", "en")],
)
def test_the_header_picks_one_of_the_four_languages_or_english(
    playing_game: int, alice: APIClient, post: Any, header: str, language: str
) -> None:
    response = post(alice, moves(playing_game), {"choice": {"action": "fly"}}, HTTP_ACCEPT_LANGUAGE=header)
    assert response.json()["code"] == "illegal_choice"
    assert response["Content-Language"] == language
    english = post(alice, moves(playing_game), {"choice": {"action": "fly"}}).json()["detail"]
    assert (response.json()["detail"] == english) == (language == "en")


@pytest.mark.django_db
def test_a_noun_inside_a_refusal_is_translated_with_it(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    nowhere = {"choice": {"action": "write", "combination": 0, "space": "nowhere"}}
    english = post(alice, moves(playing_game), nowhere).json()
    spanish = post(alice, moves(playing_game), nowhere, HTTP_ACCEPT_LANGUAGE="es").json()
    assert english == {"code": "unknown_space", "detail": '"nowhere" is not a space of this sheet.'}
    assert spanish == {"code": "unknown_space", "detail": '"nowhere" no es una casilla de esta hoja.'}


@pytest.mark.django_db
def test_the_apis_own_refusals_are_translated_too(anon: APIClient) -> None:
    response = anon.get("/api/v1/nothing", HTTP_ACCEPT_LANGUAGE="es")
    assert response.json() == {"code": "not_found", "detail": "No hay nada en esta dirección."}
    anon.credentials(HTTP_AUTHORIZATION="Token nope")
    refused = anon.get("/api/v1/games", HTTP_ACCEPT_LANGUAGE="pt")
    assert refused.json() == {"code": "authentication_failed", "detail": "Token inválido."}


@pytest.mark.django_db
def test_ids_codes_and_event_data_do_not_change_with_the_language(
    playing_game: int, alice: APIClient, post: Any
) -> None:
    option = alice.get(f"/api/v1/games/{playing_game}/decision").json()["options"][0]
    post(alice, moves(playing_game), {"choice": option}, HTTP_ACCEPT_LANGUAGE="ja")
    for path in ("decision", "events"):
        english = alice.get(f"/api/v1/games/{playing_game}/{path}")
        for language in ("es", "pt", "ja"):
            answer = alice.get(f"/api/v1/games/{playing_game}/{path}", HTTP_ACCEPT_LANGUAGE=language)
            assert answer.json() == english.json()


@pytest.mark.django_db
def test_astra_and_mission_conditions_are_named_in_the_readers_language(alice: APIClient, post: Any) -> None:
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 1, "astra_level": 1}).json()
    post(alice, f"/api/v1/games/{game['id']}/start")
    english = alice.get(f"/api/v1/games/{game['id']}").json()
    japanese = alice.get(f"/api/v1/games/{game['id']}", HTTP_ACCEPT_LANGUAGE="ja").json()
    assert (english["astra"]["name"], japanese["astra"]["name"]) == ("Katherine", "キャサリン")
    assert [m["card"] for m in japanese["missions"]] == [m["card"] for m in english["missions"]]
    with translation.override("ja"):
        assert [m["text"] for m in japanese["missions"]] == [
            translated(m["text"]) for m in english["missions"]
        ]
    assert all(JAPANESE.search(m["text"]) for m in japanese["missions"])


def test_campaign_card_options_show_their_title_and_story_in_the_readers_language() -> None:
    card = library.get("open").card("c1-tanker-escort")
    option = {"action": "choose_card", "card": card.id, "title": card.title, "story": card.story}
    with translation.override("pt"):
        [shown] = CampaignOptionsField().to_representation([option])
    assert shown == {**option, "title": "Escolta do navio-tanque", "story": shown["story"]}
    assert shown["story"].startswith("Um navio-tanque lento")


def test_campaign_card_effects_read_in_the_readers_language_and_the_option_sent_back_is_listed() -> None:
    pack = library.get("open")
    card = pack.card("c1-tanker-escort")
    option = {
        "action": "choose_card", "card": card.id, "title": card.title, "story": card.story,
        "effects": [effects.describe(effect) for effect in card.effects],
    }  # fmt: skip
    with translation.override("en"):
        [english] = CampaignOptionsField().to_representation([option])
    assert english["effects"] == ["Adventure 2's sheet (The Journey) starts with water.t01 circled."]
    with translation.override("es"):
        [spanish] = CampaignOptionsField().to_representation([option])
    assert spanish["effects"] == ["La hoja de Aventura 2 (El Viaje) empieza con water.t01 rodeado."]
    # the option as a Spanish reader sends it back whole is a valid move (the rules compare only
    # its choosing fields: tests/campaigns/test_rules_v2.py)
    move = CampaignMoveSerializer(data={"choice": spanish})
    assert move.is_valid() and move.validated_data["choice"] == spanish


def test_words_inside_refusals_are_translated_too() -> None:
    status = Text("The game is %(status)s, not playing.", status=Word("finished"))
    stream = Text("Another command on this %(stream)s came first; read it and retry.", stream=Word("game"))
    kind = Text(
        "A %(kind)s crosses a %(kind)s symbol, and %(symbol)s is not one.", kind=Text("robot"), symbol="x"
    )
    with translation.override("es"):
        assert text(status) == "La partida está terminada, no en juego."
        assert text(stream).startswith("Otra orden sobre esta partida llegó antes")
    with translation.override("ja"):
        assert "ロボット" in text(kind) and "robot" not in text(kind)


def test_the_viewers_narration_reads_in_the_readers_language() -> None:
    event = upcast({"kind": "number_written", "v": 2, "seat": 2, "turn": 7,
                    "data": {"sheet": 2, "combination": 1, "space": "f3.s4", "number": 11}})
    assert narration.describe(event) == "turn 7, seat 2 wrote 11 in f3.s4 (combination 1)"
    with translation.override("ja"):
        assert text(narration.narrate(event)) == "ターン 7・席 2: f3.s4 に 11 を記入(組み合わせ 1)"
    with translation.override("es"):
        assert text(narration.narrate(event)) == "turno 7, asiento 2 anotó 11 en f3.s4 (combinación 1)"


def test_a_text_inside_a_sentence_is_translated_in_turn() -> None:
    sentence = Text("This %(what)s has already started.", what=Text("campaign"))
    assert str(sentence) == "This campaign has already started."
    with translation.override("es"):
        assert translated(sentence.template, sentence.params) == "Esta campaña ya ha empezado."


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_each_catalog_holds_every_message_of_the_sources(extracted: Catalog, language: str) -> None:
    catalog = catalogs.read(language)
    wanted = {message.id for message in extracted if message.id}
    held = {message.id for message in catalog if message.id}
    assert wanted - held == set(), "run `python -m moon.catalogs`, then translate"
    assert held - wanted == set(), "run `python -m moon.catalogs` to drop messages no source has"


@pytest.mark.parametrize("language", catalogs.TRANSLATED)
def test_every_message_is_translated_with_the_same_fields(language: str) -> None:
    problems = []
    for message in catalogs.read(language):
        if not message.id:
            continue
        if not str(message.string).strip() or message.fuzzy:
            problems.append(f"untranslated: {message.id!r}")
        elif sorted(FIELD.findall(str(message.id))) != sorted(FIELD.findall(str(message.string))):
            problems.append(f"fields differ: {message.id!r} -> {message.string!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", catalogs.LANGUAGES)
def test_each_compiled_catalog_is_up_to_date_with_its_po(language: str) -> None:
    mo = catalogs.po_path(language).with_suffix(".mo")
    assert mo.read_bytes() == catalogs.compiled(catalogs.read(language)), "run `python -m moon.catalogs`"


REFUSALS = {
    "RuleViolation", "OutOfTurn", "GameError", "Invalid", "Forbidden", "NotFound", "Conflict",
    "TooMany", "Unprocessable",
}
# Sentences that are already in the reader's language when raised: Django's password validators'.
TRANSLATED_WHEN_RAISED = {("accounts/services.py", "weak_password")}


def _a_template(node: ast.expr) -> bool:
    """A literal template, one marked with N_, or a choice between such (or a refusal's own
    template passed on)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_":
        return len(node.args) == 1 and _a_template(node.args[0])
    if isinstance(node, ast.IfExp):
        return _a_template(node.body) and _a_template(node.orelse)
    return isinstance(node, ast.Attribute) and node.attr == "template"


def test_every_refusal_is_raised_with_a_template_the_catalogs_can_hold() -> None:
    """An f-string detail could not be translated: its values go as params."""
    problems = []
    for package in catalogs.SOURCES:
        for path in sorted((catalogs.ROOT / package).rglob("*.py")):
            name = str(path.relative_to(catalogs.ROOT))
            if "/migrations/" in name:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.Call) or len(node.args) < 2:
                    continue
                called = getattr(node.func, "id", getattr(node.func, "attr", None))
                code = node.args[0].value if isinstance(node.args[0], ast.Constant) else None
                refused = called in REFUSALS and (name, code) not in TRANSLATED_WHEN_RAISED
                if refused and not _a_template(node.args[1]):
                    problems.append(f"{name}:{node.lineno} {ast.unparse(node.args[1])[:80]}")
    assert not problems, "\n".join(problems)
