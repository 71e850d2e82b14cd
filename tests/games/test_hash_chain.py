"""Every stored event carries a hash chained to the one before it in its game, computed when it
is appended; `manage.py verify_events` walks the chains and names the first broken link, also of
a row changed behind the append-only triggers' back."""

import hashlib
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from eventstore import store
from games import history, services
from games.models import Event, Game
from games.rules import engine
from tests.api.test_reading import base, play_until_confirm
from tests.append_only import triggers_lifted
from tests.games.histories import append_events, finished_game
from tests.migrations import migrate_back_to_the_end

pytestmark = pytest.mark.django_db


def spec_hash(prev_hash: str, seq: int, turn: int, seat: int | None, kind: str, data: Any) -> str:
    """The hash as the issue states it, written out here independently of eventstore/chain.py."""
    canonical = json.dumps(
        {"seq": seq, "turn": turn, "seat": seat, "kind": kind, "data": data},
        sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    )
    return hashlib.sha256((prev_hash + canonical).encode("utf-8")).hexdigest()


def lines_of(exported: list[str]) -> list[Any]:
    return [json.loads(line) for line in exported]


def assert_chained(game_id: int) -> int:
    """Each stored hash is the 32 bytes of the spec's hash over the hash stored before it."""
    prev = "0" * 64
    rows = Event.objects.filter(game_id=game_id).order_by("seq")
    for row in rows:
        expected = spec_hash(prev, row.seq, row.turn, row.seat, row.kind, row.data)
        assert bytes(row.hash) == bytes.fromhex(expected), row.seq
        prev = bytes(row.hash).hex()
    return rows.count()


def test_commands_append_events_chained_as_specified(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    appended = []
    for client in (alice, bob, carol):  # one whole turn: moves, confirms, the next flip
        play_until_confirm(client, playing_game, post)
        assert post(client, f"{base(playing_game)}/confirm").status_code == 200
        appended.append(assert_chained(playing_game))
    assert appended[0] < appended[1] < appended[2]
    first = Event.objects.get(game_id=playing_game, seq=1)
    assert len(bytes(first.hash)) == 32  # stored as its bytes, not as 64 hex digits
    assert Event.objects.filter(game_id=playing_game, kind="turn_started", turn=2).exists()


def test_non_ascii_data_hashes_as_utf8_and_survives_the_database() -> None:
    alice = User.objects.create_user("alice")
    game = services.create_game(by=alice, adventure=1, max_players=1)
    services.start_game(game=game, by=alice)
    version = Event.objects.filter(game=game).count()
    mark: engine.Event = {"kind": "mark", "v": 2, "seat": 0, "turn": 1,
            "data": {"sheet": 0, "element": "étoile ☾", "mark": "cercle"}}
    (row,) = append_events(game, [mark], version=version, actor=None)
    stored = Event.objects.get(pk=row.pk)
    prev_hash = bytes(Event.objects.get(game=game, seq=stored.seq - 1).hash).hex()
    ascii_escaped = hashlib.sha256(
        (prev_hash + json.dumps(
            {"seq": stored.seq, "turn": 1, "seat": 0, "kind": "mark", "data": mark["data"]},
            sort_keys=True, separators=(",", ":"),
        )).encode()
    ).hexdigest()
    assert bytes(stored.hash).hex() != ascii_escaped  # ensure_ascii=False: the characters themselves count
    assert assert_chained(game.pk) == version + 1
    assert [report.broken for report in store.verify(Event, stream_id=game.pk)] == [None]


def test_verify_events_reports_every_chain_intact(capsys: pytest.CaptureFixture[str]) -> None:
    games = [finished_game(1), finished_game(2, seed=2)]
    events = Event.objects.count()
    call_command("verify_events")
    checked = (
        f"2 game(s), 0 campaign(s), {events} event(s) checked: every chain holds, every finished "
        "history is signed."
    )
    assert checked in capsys.readouterr().out
    call_command("verify_events", "--game", str(games[1].pk))
    assert "1 game(s)" in capsys.readouterr().out


@pytest.mark.parametrize("rehash", [False, True], ids=["content-changed", "content-and-hash-changed"])
def test_verify_events_finds_a_row_altered_behind_the_triggers_back(
    capsys: pytest.CaptureFixture[str], rehash: bool
) -> None:
    untouched, altered = finished_game(1), finished_game(3, seed=3)
    row = Event.objects.get(game=altered, seq=20)
    forged = {**row.data, "forged": True}
    with triggers_lifted(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET data = %s WHERE game_id = %s AND seq = %s",
            [json.dumps(forged), altered.pk, row.seq],
        )
        if rehash:  # the forger recomputes the row's own hash: the next link breaks instead
            prev_hash = bytes(Event.objects.get(game=altered, seq=19).hash).hex()
            new_hash = spec_hash(prev_hash, row.seq, row.turn, row.seat, row.kind, forged)
            cursor.execute(
                "UPDATE games_event SET hash = %s WHERE game_id = %s AND seq = %s",
                [bytes.fromhex(new_hash), altered.pk, row.seq],
            )
    # the triggers are back: the database refuses a change again
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), \
            connection.cursor() as cursor:
        cursor.execute("UPDATE games_event SET turn = 99 WHERE game_id = %s", [altered.pk])

    with pytest.raises(CommandError, match=rf"1 game\(s\) do not hold \({altered.pk}\)"):
        call_command("verify_events")
    err = capsys.readouterr().err
    if rehash:
        expected = "broken at event 21: event 21 ("
        assert f"game {altered.pk}: {expected}" in err
    else:
        assert f"game {altered.pk}: broken at event 20: event 20 ({row.kind}) does not hash" in err
    assert f"game {untouched.pk}" not in err
    call_command("verify_events", "--game", str(untouched.pk))
    assert "every chain holds" in capsys.readouterr().out


def test_verify_events_of_an_unknown_game_is_refused() -> None:
    with pytest.raises(CommandError, match=r"There is no game 999\."):
        call_command("verify_events", "--game", "999")


def test_the_migration_chains_the_rows_stored_before_it_and_keeps_the_log_append_only(
    emptied_log: None,
) -> None:
    executor = MigrationExecutor(connection)
    before, after = [("games", "0011_solo_astra_and_bot_seats")], executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    try:
        old = MigrationExecutor(connection).loader.project_state(before).apps
        user = old.get_model("auth", "User").objects.create(username="old-timer")
        OldGame, OldEvent = old.get_model("games", "Game"), old.get_model("games", "Event")
        games = [OldGame.objects.create(adventure=1, max_players=1, creator_id=user.pk) for _ in range(2)]
        for game in games:
            OldEvent.objects.bulk_create(
                OldEvent(game_id=game.pk, seq=seq, turn=seq // 3, seat=None if seq == 1 else 0,
                         kind="mark", version=2, data={"element": f"e{seq}", "note": "à"})
                for seq in range(1, 8)
            )
    finally:
        migrate_back_to_the_end(after)
    for game in games:
        assert assert_chained(game.pk) == 7
    assert [report.broken for report in store.verify(Event)] == [None, None]
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game_id=games[0].pk).update(kind="forged")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game_id=games[0].pk).delete()
    assert Game.objects.count() == 2


def test_the_migration_to_hashes_as_bytes_keeps_every_chain_and_export_and_goes_back(
    emptied_log: None,
) -> None:
    game = finished_game(1)
    exported = list(history.history_lines(game=game))
    executor = MigrationExecutor(connection)
    hex_chain = [("games", "0016_tables_visibility_invite_and_turn_seconds")]
    after = executor.loader.graph.leaf_nodes()
    executor.migrate(hex_chain)
    try:
        # back as it was stored before: two hex columns, each prev_hash the hash before it
        old = MigrationExecutor(connection).loader.project_state(hex_chain).apps
        rows = old.get_model("games", "Event").objects.filter(game_id=game.pk).order_by("seq")
        lines = [json.loads(line) for line in exported[1:]]
        hashes = [(line["prev_hash"], line["hash"]) for line in lines]
        assert [(row.prev_hash, row.hash) for row in rows] == hashes
    finally:
        migrate_back_to_the_end(after)
    assert assert_chained(game.pk) == len(exported) - 1
    assert [report.broken for report in store.verify(Event, stream_id=game.pk)] == [None]
    # the same lines (on PostgreSQL an event's data went through jsonb on the way, which keeps
    # its keys in an order of its own)
    assert [json.loads(line) for line in history.history_lines(game=game)] == lines_of(exported)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        Event.objects.filter(game_id=game.pk).update(kind="forged")
