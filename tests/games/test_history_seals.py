"""Finished histories are signed with a key kept outside the database (eventstore/seals.py):
whoever rewrites the events and recomputes the chain is caught by verify_events and the imports."""

import base64
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.test import APIClient

from eventstore import chain, seals, store
from eventstore.exchange import ImportRefused
from eventstore.models import Seal
from eventstore.triggers import SEALS
from games import history, services, snapshots
from games.models import Event, Game, Seat
from games.rules import engine
from games.rules.play import bots
from tests.append_only import triggers_lifted
from tests.games.histories import append_events, finished_game, player

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parents[1] / "fixtures"


def export_of(game: Game) -> list[str]:
    return list(history.history_lines(game=game))


def rechain_in_the_database(game: Game, *, seq: int, data: dict[str, Any]) -> None:
    """What whoever owns the tables can do: lift the triggers, change event ``seq``'s data, and
    recompute every hash from there on, so that the chain holds again."""
    rows = list(Event.objects.filter(game=game, seq__gte=seq - 1).order_by("seq"))
    prev = chain.hexed(rows.pop(0).hash)
    with triggers_lifted(), connection.cursor() as cursor:
        for row in rows:
            row.data = data if row.seq == seq else row.data
            digest = chain.link(prev, Event.content(row.seq, row.as_stored()))
            cursor.execute(
                "UPDATE games_event SET data = %s, hash = %s WHERE game_id = %s AND seq = %s",
                [json.dumps(row.data), chain.stored(digest), game.pk, row.seq],
            )
            prev = digest


def test_scoring_a_game_signs_its_history_with_the_key_the_api_serves() -> None:
    users = [player("ann"), player("ben")]
    rng = random.Random(3)
    state, events = bots.play_game(adventure=1, bots=[bots.random_bot(rng) for _ in users], seed=3)
    game = Game.objects.create(
        adventure=1, max_players=2, creator=users[0], seed=3, status=Game.Status.PLAYING
    )
    Seat.objects.bulk_create(Seat(game=game, user=user, index=i) for i, user in enumerate(users))
    rows = append_events(game, events, version=0, actor=None)
    snapshots.save(game=game, state=state, seq=rows[-1].seq)

    result = services.score_game(game_id=game.pk)

    assert result is not None and result.kind == engine.result_event(state)["kind"]
    stored = Seal.objects.get(stream="game", stream_id=game.pk)
    assert (stored.seq, stored.hash) == (result.seq, chain.hexed(result.hash))
    served = APIClient().get("/api/v1/history-key")
    assert served.status_code == 200
    key = served.json()
    assert key["algorithm"] == "Ed25519" and key["key_id"] == stored.key_id
    assert key["keys"] == [{"key_id": key["key_id"], "public_key": key["public_key"], "current": True}]
    # anyone can check the seal of an export with the served key, as the API's docs say
    seal = json.loads(export_of(game)[0])["seal"]
    signed = {"format": "moon-seal/1", **{k: seal[k] for k in ("stream", "id", "seq", "hash", "key_id")}}
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(key["public_key"]))
    # raises InvalidSignature if it does not hold
    public.verify(base64.b64decode(seal["signature"]), chain.canonical(signed))
    assert services.score_game(game_id=game.pk) == result  # scored again: the same seal, kept
    assert Seal.objects.filter(stream_id=game.pk).count() == 1


def test_a_rechained_forgery_is_refused_by_verify_events_and_by_the_import(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game, untouched = finished_game(1, seed=5), finished_game(2, seed=6)
    exported = export_of(game)
    row = Event.objects.get(game=game, seq=10)
    rechain_in_the_database(game, seq=10, data={**row.data, "forged": True})
    # the chain alone holds again: only the signature tells
    assert [report.broken for report in store.verify(Event, stream_id=game.pk)] == [None]

    with pytest.raises(CommandError, match=rf"1 game\(s\) do not hold \({game.pk}\)"):
        call_command("verify_events")
    err = capsys.readouterr().err
    assert f"game {game.pk}: signature refused: the history is not the one signed" in err
    assert f"game {untouched.pk}" not in err

    forged = export_of(game)  # its export still carries the seal of the history as it was
    assert json.loads(forged[0])["seal"] == json.loads(exported[0])["seal"]
    games = Game.objects.count()
    with pytest.raises(ImportRefused) as caught:
        history.import_game(lines=forged)
    assert caught.value.line == 1
    assert caught.value.detail.startswith("its signature is refused: the history is not the one signed")
    assert Game.objects.count() == games
    assert history.import_game(lines=exported).warnings == []  # the real history imports


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"signature": base64.b64encode(b"\0" * 64).decode()}, "the seal's signature does not hold"),
        ({"id": 999}, "the seal's signature does not hold"),
        ({"key_id": "0" * 16}, "the seal's key_id is not the id of its public_key"),
        ({"stream": "campaign"}, "the seal is not a game's"),
        ({"public_key": "not base64"}, "the seal's public_key or signature is not the base64"),
    ],
)
def test_a_seal_that_does_not_hold_is_refused(change: dict[str, Any], problem: str) -> None:
    lines = export_of(finished_game(1, seed=5))
    header = json.loads(lines[0])
    header["seal"].update(change)
    with pytest.raises(ImportRefused, match=problem):
        history.import_game(lines=[json.dumps(header) + "\n", *lines[1:]])


def test_a_seal_by_a_key_this_server_does_not_trust_imports_with_a_warning(settings: Any) -> None:
    lines = export_of(finished_game(1, seed=5))
    other_server = base64.b64encode(os.urandom(32)).decode()
    settings.HISTORY_SIGNING_KEY = other_server
    imported = history.import_game(lines=lines, copy=True)  # the game is stored here too
    key_id = json.loads(lines[0])["seal"]["key_id"]
    assert imported.warnings == [
        f"the game of line 1 is signed by key {key_id}, which this server does not trust "
        "(HISTORY_VERIFY_KEYS)."
    ]
    assert Seal.objects.get(stream_id=imported.game.pk).key_id == seals.keys().key_id  # sealed here


def test_a_rotated_key_still_verifies_what_it_signed_when_kept_as_a_verify_key(
    settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished_game(1, seed=5)
    old = seals.keys()
    settings.HISTORY_SIGNING_KEY = base64.b64encode(os.urandom(32)).decode()
    with pytest.raises(CommandError):
        call_command("verify_events")
    assert f"signed by key {old.key_id}, which this server does not trust" in capsys.readouterr().err
    old_public = seals.b64(seals.raw_public(old.signing.public_key()))
    settings.HISTORY_VERIFY_KEYS = [old_public]
    call_command("verify_events")
    served = APIClient().get("/api/v1/history-key").json()
    assert [(key["public_key"], key["current"]) for key in served["keys"]][1:] == [(old_public, False)]
    assert served["keys"][0]["key_id"] == served["key_id"] != old.key_id
    assert Seal.objects.get(stream_id=game.pk).key_id == old.key_id


def test_a_finished_game_whose_seal_is_gone_fails_until_signed_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = finished_game(1, seed=5)
    with triggers_lifted(SEALS):
        Seal.objects.filter(stream_id=game.pk).delete()
    with pytest.raises(CommandError):
        call_command("verify_events")
    assert f"game {game.pk}: finished, but its history is not signed" in capsys.readouterr().err
    call_command("seal_histories")
    assert "Signed 1 finished history(ies)" in capsys.readouterr().out
    call_command("verify_events")


def test_an_export_made_before_histories_were_signed_imports_with_a_warning() -> None:
    lines = export_of(finished_game(1, seed=5))
    header = json.loads(lines[0])
    del header["seal"]
    imported = history.import_game(lines=[json.dumps(header) + "\n", *lines[1:]], copy=True)
    assert imported.warnings == [
        "the game of line 1 is not signed (exported before histories were signed, or unfinished)."
    ]
    assert Seal.objects.filter(stream="game", stream_id=imported.game.pk).exists()


def test_the_embedded_key_is_made_once_in_its_file(settings: Any, tmp_path: Path) -> None:
    settings.HISTORY_SIGNING_KEY = ""
    settings.HISTORY_SIGNING_KEY_FILE = str(tmp_path / "var" / "key")
    made = seals.keys().key_id
    assert (tmp_path / "var" / "key").stat().st_mode & 0o777 == 0o600
    seals._keys.cache_clear()
    assert seals.keys().key_id == made


def test_the_signing_key_may_be_a_pem(settings: Any) -> None:
    key = Ed25519PrivateKey.generate()
    settings.HISTORY_SIGNING_KEY = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    assert seals.keys().key_id == seals.key_id_of(key.public_key())
