"""How event rows are stored: keyed by (stream, seq) with no surrogate id, data as compact JSON
text, the kind and version as one code of the database's, and the migrations that rebuild the
tables in that layout, which keep every stored event (its kind, version, data, hash, time, seat,
actor) and every export, both ways."""

import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from campaigns import history as campaign_history
from campaigns import services as campaign_services
from campaigns.models import Campaign, CampaignEvent
from eventstore import kinds, store
from eventstore.kinds import KindName
from eventstore.models import EventKind, compact
from games import history, services
from games.models import Event, Game
from games.rules import engine
from tests.games.histories import append_events, finished_game
from tests.migrations import migrate_back_to_the_end

pytestmark = pytest.mark.django_db

COLUMNS = ("seq", "turn", "seat", "kind", "version", "data", "created_at", "actor_id", "hash")


def stored_rows(model: Any, **stream: int) -> list[tuple[Any, ...]]:
    """Every stored column of the stream's events but the key's stream, in seq order."""
    own = [column for column in COLUMNS if column != "turn" or model.__name__ == "Event"]
    return [
        (*(getattr(event, column) for column in own[:-1]), bytes(event.hash))
        for event in model.objects.filter(**stream).order_by("seq")
    ]


def stored_text(table: str, stream: str, stream_id: int) -> list[str]:
    """The data column's text as the database holds it."""
    cast = "data::text" if connection.vendor == "postgresql" else "data"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {cast} FROM {table} WHERE {stream}_id = %s ORDER BY seq", [stream_id])
        return [row[0] for row in cursor.fetchall()]


def texts(game: Game, campaign: Campaign) -> list[str]:
    return stored_text("games_event", "game", game.pk) + stored_text(
        "campaigns_campaignevent", "campaign", campaign.pk
    )


def exports(game: Game, campaign: Campaign) -> list[Any]:
    """The game's and the campaign's exports, each line decoded."""
    lines = [*history.history_lines(game=game), *campaign_history.history_lines(campaign=campaign)]
    return [json.loads(line) for line in lines]


def test_the_rebuilt_tables_keep_every_event_and_export_and_go_back(emptied_log: None) -> None:
    game = finished_game(1)
    campaign = campaign_services.create_campaign(by=User.objects.create_user("cam"), max_players=2)
    # events stored before versions existed: their null version stays null, both ways
    legacy = Game.objects.create(adventure=1, max_players=1, creator=campaign.creator)
    Event.objects.bulk_create(
        Event(game=legacy, seq=seq, turn=seq, kind=kind, data={"n": seq}, hash=bytes(32))
        for seq, kind in enumerate(["turn_started", "mark", "turn_started"], start=1)
    )
    legacy_events = stored_rows(Event, game_id=legacy.pk)
    assert [row[4] for row in legacy_events] == [None] * 3
    events = stored_rows(Event, game_id=game.pk)
    campaign_events = stored_rows(CampaignEvent, campaign_id=campaign.pk)
    exported = exports(game, campaign)
    executor = MigrationExecutor(connection)
    before = [("games", "0017_event_hash_as_bytes_without_prev_hash"),
              ("campaigns", "0007_event_hash_as_bytes_without_prev_hash")]
    after = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    try:
        # back in the old layout: an id for each row, in seq order, and every value as it was
        old = MigrationExecutor(connection).loader.project_state(before).apps
        OldEvent = old.get_model("games", "Event")
        OldCampaignEvent = old.get_model("campaigns", "CampaignEvent")
        assert stored_rows(OldEvent, game_id=game.pk) == events
        assert stored_rows(OldCampaignEvent, campaign_id=campaign.pk) == campaign_events
        assert stored_rows(OldEvent, game_id=legacy.pk) == legacy_events
        assert [type(row[3]) for row in stored_rows(OldEvent, game_id=game.pk)] == [str] * len(events)
        ids = list(OldEvent.objects.filter(game_id=game.pk).order_by("seq").values_list("id", flat=True))
        assert ids == sorted(ids) and len(set(ids)) == len(events)
        old_texts = texts(game, campaign)
    finally:
        migrate_back_to_the_end(after)
    assert stored_rows(Event, game_id=game.pk) == events
    assert stored_rows(CampaignEvent, campaign_id=campaign.pk) == campaign_events
    assert stored_rows(Event, game_id=legacy.pk) == legacy_events
    assert [(row[3], row[4]) for row in stored_rows(Event, game_id=game.pk)] == [
        (row[3], row[4]) for row in events
    ]
    assert exports(game, campaign) == exported
    assert [report.broken for report in store.verify(Event, stream_id=game.pk)] == [None]
    # every event's data is stored as the compact text of its JSON, its keys in the order the
    # old layout held them (jsonb's own, on PostgreSQL): an export lists them as it did
    assert texts(game, campaign) == [compact(json.loads(text)) for text in old_texts]
    # still append-only, still one event per seq
    for model, stream in ((Event, {"game_id": game.pk}), (CampaignEvent, {"campaign_id": campaign.pk})):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            model.objects.filter(**stream).update(kind="forged")
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            model.objects.filter(**stream).delete()
    row = Event.objects.get(game=game, seq=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.bulk_create([Event(game=game, seq=1, kind=row.kind, data=row.data, hash=row.hash)])


def test_an_events_data_is_stored_as_compact_text_and_read_back_as_written() -> None:
    alice = User.objects.create_user("alice")
    game = services.create_game(by=alice, adventure=1, max_players=1)
    services.start_game(game=game, by=alice)
    version = Event.objects.filter(game=game).count()
    data = {"sheet": 0, "element": "étoile ☾", "mark": "cercle"}
    mark: engine.Event = {"kind": "mark", "v": 2, "seat": 0, "turn": 1, "data": data}
    (row,) = append_events(game, [mark], version=version, actor=alice)
    assert row.pk == (game.pk, version + 1)  # the key is the stream's and the seq
    text = stored_text("games_event", "game", game.pk)[-1]
    assert text == '{"sheet":0,"element":"étoile ☾","mark":"cercle"}'
    assert Event.objects.get(pk=(game.pk, version + 1)).data == data
    assert store.rows_after(Event, game.pk, version)[0][-1] == data


def stored_codes(game: Game) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT kind FROM games_event WHERE game_id = %s ORDER BY seq", [game.pk])
        return [row[0] for row in cursor.fetchall()]


def test_an_events_kind_and_version_are_stored_as_one_code_the_database_assigns() -> None:
    alice = User.objects.create_user("alice")
    game = services.create_game(by=alice, adventure=1, max_players=1)
    services.start_game(game=game, by=alice)
    version = Event.objects.filter(game=game).count()
    data = {"sheet": 0, "element": "f1.s1", "mark": "x"}
    mark: engine.Event = {"kind": "mark", "v": 2, "seat": 0, "turn": 1, "data": data}
    append_events(game, [mark, mark], version=version, actor=alice)
    # as an event stored at the kind's first version was (the rules upcast it when read)
    old = KindName("mark", 1)
    Event.objects.create(game=game, seq=version + 3, turn=1, kind=old, data=data, hash=bytes(32))
    codes = stored_codes(game)
    assert all(isinstance(code, int) for code in codes)
    assert codes[-3] == codes[-2] != codes[-1]  # one code a (kind, version)
    assert set(EventKind.objects.values_list("kind", "version")) >= {("mark", 2), ("mark", 1)}
    # read back as names with their versions, by the ORM and by plain SQL alike
    last = list(Event.objects.filter(game=game).order_by("seq"))[-3:]
    assert [(event.kind, event.version) for event in last] == [("mark", 2), ("mark", 2), ("mark", 1)]
    rows = store.rows_after(Event, game.pk, version)
    assert [row[1:3] for row in rows] == [("mark", 2), ("mark", 2), ("mark", 1)]
    # filtered by name, whatever the version
    assert Event.objects.filter(game=game, kind="mark").count() == 3
    assert Event.objects.filter(game=game, kind__in=["mark", "turn_started"]).count() == 4
    # a process that never met a code reads it from the table
    kinds.forget()
    assert [(event.kind, event.version) for event in Event.objects.filter(game=game).order_by("seq")][-1] == (
        "mark",
        1,
    )


def test_a_code_assigned_in_a_transaction_rolled_back_is_not_kept() -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        assigned = kinds.code("never_stored", 1)
        assert kinds.named(assigned) == "never_stored"
        raise RuntimeError
    assert not EventKind.objects.filter(kind="never_stored").exists()
    again = kinds.code("never_stored", 1)
    assert EventKind.objects.get(kind="never_stored").code == again
    assert (kinds.named(again), kinds.named(again).version) == ("never_stored", 1)
    # a code is for ever: the database refuses to change or take it back
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        EventKind.objects.filter(code=again).update(kind="other")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        EventKind.objects.filter(code=again).delete()
