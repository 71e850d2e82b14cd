"""A campaign's whole history, its chapter games included, exported as JSON Lines and imported
on another server: every chain verified, every game replayed, each chapter's result checked
against its game; a changed byte refused with its line, and nothing stored then.

The campaigns exported here are the ones recorded before campaign events were chained
(tests/fixtures/logs_campaign_v1), chained as migration 0004 chains stored rows, imported on the
test's empty database; and a campaign exported over the API and imported again."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from campaigns import history, selectors
from campaigns.models import Campaign, CampaignEvent, ChapterGame
from eventstore import chain, exchange
from eventstore.exchange import ImportRefused
from games.models import Event, Game
from tests.games.histories import finished_game
from tests.migrations import migrate_back_to_the_end

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1"
RECORDED = sorted(FIXTURES.glob("campaign-*.json"))
PACK = json.loads((FIXTURES / "pack-open-1.json").read_text(encoding="utf-8"))


def chained(events: list[dict[str, Any]], own: tuple[str, ...]) -> list[str]:
    """Event lines with their hash chain, as the store chains them."""
    lines, prev = [], chain.GENESIS
    for event in events:
        content = {
            "seq": event["seq"],
            **{n: event[n] for n in own},
            "seat": event["seat"],
            "kind": event["kind"],
            "data": event["data"],
        }
        digest = chain.link(prev, content)
        line = {
            **content,
            "v": event["v"],
            "created_at": "2026-11-26T12:00:00+00:00",
            "prev_hash": prev,
            "hash": digest,
        }
        lines.append(exchange.to_line(line))
        prev = digest
    return lines


def export_of(recorded: dict[str, Any], player: str = "ann") -> list[str]:
    """A recorded campaign as another server would export it."""
    seats = [{"seat": 0, "username": player}] + [
        {"seat": index, "bot": bot} for index, bot in enumerate(recorded["bots"], start=1)
    ]
    pack = recorded["events"][0]["data"]["pack"]
    header = {
        "format": "moon-campaign/1",
        "campaign": 77,
        "players": recorded["players"],
        "astra_level": recorded["astra_level"],
        "pack": {**pack, "content": PACK},
        "seats": seats,
    }
    lines = [exchange.to_line(header), *chained(recorded["events"], ())]
    for game_id, game in recorded["games"].items():
        opening = game["events"][0]["data"]
        game_header = {
            "format": "moon-game/1",
            "game": int(game_id),
            "adventure": opening["adventure"],
            "players": opening["players"],
            "seats": seats,
        }
        lines += [exchange.to_line(game_header), *chained(game["events"], ("turn",))]
    return lines


def streamed(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


def refused(lines: list[str]) -> ImportRefused:
    counts = (
        Campaign.objects.count(),
        CampaignEvent.objects.count(),
        Game.objects.count(),
        Event.objects.count(),
    )
    with pytest.raises(ImportRefused) as caught:
        history.import_campaign(lines=lines)
    after = (
        Campaign.objects.count(),
        CampaignEvent.objects.count(),
        Game.objects.count(),
        Event.objects.count(),
    )
    assert after == counts  # nothing stored
    return caught.value


def edited(lines: list[str], index: int, change: Any) -> list[str]:
    value = json.loads(lines[index])
    change(value)
    return [*lines[:index], exchange.to_line(value), *lines[index + 1 :]]


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_campaign_imports_on_a_fresh_database_and_verifies(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = json.loads(path.read_text(encoding="utf-8"))
    export = tmp_path / "campaign.jsonl"
    export.write_text("".join(export_of(recorded)), encoding="utf-8")

    call_command("import_campaign", str(export))

    campaign = Campaign.objects.get()
    out = capsys.readouterr().out
    assert (
        f"as campaign {campaign.pk}: {recorded['players']} player(s), {len(recorded['events'])} events" in out
    )
    assert "New inactive accounts (they cannot sign in) for: ann." in out
    assert campaign.status == Campaign.Status.FINISHED
    fields = ("seq", "seat", "kind", "data")
    assert [dict(zip(fields, row, strict=True)) for row in CampaignEvent.objects.values_list(*fields)] == [
        {name: event[name] for name in fields} for event in recorded["events"]
    ]
    call_command("verify_events", "--campaign", str(campaign.pk))
    call_command("verify_events")
    assert f"{len(recorded['games'])} game(s), 1 campaign(s)" in capsys.readouterr().out

    ann = campaign.seats.get(index=0).user
    assert ann is not None and not ann.is_active
    view = selectors.campaign_view(campaign=campaign, viewer=ann)
    expected = recorded["expected"]
    assert (view["winners"], view["captain"]) == (expected["winners"], expected["captain"])
    assert [seat["stars"] for seat in view["seats"]] == expected["stars"]
    links = {
        (link.chapter, link.attempt): link.game_id for link in ChapterGame.objects.filter(campaign=campaign)
    }
    attempts = [a for chapter in view["chapters"] for a in chapter["attempts"]]
    assert len(attempts) == len(links) == len(recorded["games"])
    for chapter in view["chapters"]:  # the games as this server numbers them
        for attempt in chapter["attempts"]:
            assert attempt["game"] == links[chapter["chapter"], attempt["attempt"]]
            assert Game.objects.get(pk=attempt["game"]).status == Game.Status.FINISHED


@pytest.fixture
def exported() -> list[str]:
    return export_of(json.loads(RECORDED[0].read_text(encoding="utf-8")))


def test_a_changed_byte_in_a_campaign_event_is_refused_at_its_line(exported: list[str]) -> None:
    index = next(i for i, line in enumerate(exported) if '"kind":"stars_awarded"' in line)
    changed = exported[index].replace('"stars":', '"stars": ', 1)  # same JSON, other bytes: holds
    assert history.import_campaign(lines=[*exported[:index], changed, *exported[index + 1 :]])
    forged = edited(exported, index, lambda e: e["data"]["awards"][0].update(stars=9))
    caught = refused(forged)
    assert caught.line == index + 1 and "does not hash to its stored hash" in caught.detail


def test_a_changed_byte_in_a_chapter_game_is_refused_at_its_line(exported: list[str]) -> None:
    index = next(i for i, line in enumerate(exported) if '"kind":"number_written"' in line)
    caught = refused(edited(exported, index, lambda e: e["data"].update(number=e["data"]["number"] % 15 + 1)))
    assert caught.line == index + 1 and "does not hash to its stored hash" in caught.detail


def test_a_chapter_result_that_is_not_its_games_is_refused_even_with_a_good_chain(
    exported: list[str],
) -> None:
    recorded = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    events = recorded["events"]
    at = next(i for i, e in enumerate(events) if e["kind"] == "chapter_finished")
    events[at]["data"]["results"][0]["total"] += 1
    campaign_lines = chained(events, ())
    lines = [exported[0], *campaign_lines, *exported[1 + len(campaign_lines) :]]
    caught = refused(lines)
    assert (caught.line, caught.detail) == (at + 2, "the chapter's result is not its game's.")


def test_a_chapter_8_result_is_checked_as_the_version_of_its_event_read_the_battle() -> None:
    """Version 1 read The Battle's missions and System Errors over whole shared sheets (issue
    #23): a result it recorded imports as it was; one of version 2 is each seat's side S
    missions and its own System Errors."""
    recorded = json.loads((FIXTURES / "campaign-3p-seed301.json").read_text(encoding="utf-8"))
    events = recorded["events"]
    at = [i for i, e in enumerate(events) if e["kind"] == "chapter_finished"][-1]
    assert events[at]["data"]["chapter"] == 8
    results = events[at]["data"]["results"]
    assert [(r["missions"], r["system_errors"]) for r in results] == [([], 3), ([], 3), ([], 4)]
    events[at]["v"] = 2
    caught = refused(export_of(recorded))
    assert (caught.line, caught.detail) == (at + 2, "the chapter's result is not its game's.")
    for result, (missions, errors) in zip(results, [(["A"], 3), (["A", "C"], 1), (["A"], 1)], strict=True):
        result.update(missions=missions, system_errors=errors)
    assert history.import_campaign(lines=export_of(recorded)).campaign.status == Campaign.Status.FINISHED


def test_a_campaign_missing_a_chapter_game_or_unfinished_is_refused(exported: list[str]) -> None:
    last_game = max(i for i, line in enumerate(exported) if '"format":"moon-game/1"' in line)
    caught = refused(exported[:last_game])
    assert caught.line == 1 and caught.detail.startswith("the export lacks the chapter game(s)")
    finished = next(i for i, line in enumerate(exported) if '"kind":"campaign_finished"' in line)
    caught = refused([*exported[:finished], *exported[finished + 1 :]])
    assert caught.line == finished and "not finished" in caught.detail


def test_the_command_says_why_and_stores_nothing_and_imports_the_same_campaign_only_as_a_copy(
    exported: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text("".join(exported[:-1]), encoding="utf-8")
    with pytest.raises(CommandError, match=rf"refused, nothing stored: line {len(exported) - 1}: "):
        call_command("import_campaign", str(path))
    assert not Campaign.objects.exists()

    path.write_text("".join(exported), encoding="utf-8")
    call_command("import_campaign", str(path))
    original = Campaign.objects.get()
    with pytest.raises(CommandError, match=f"already stored here as campaign {original.pk} "):
        call_command("import_campaign", str(path))
    assert Campaign.objects.count() == 1
    capsys.readouterr()
    call_command("import_campaign", str(path), "--copy")
    copy = Campaign.objects.exclude(pk=original.pk).get()
    assert f"as campaign {copy.pk}:" in capsys.readouterr().out


def test_a_finished_campaign_exports_over_the_api_and_imports_as_it_was(
    alice: APIClient, bob: APIClient
) -> None:
    recorded = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    finished_game(1)  # this server's game ids are not those the campaign's log names
    history.import_campaign(lines=export_of(recorded, player="alice"))
    original = Campaign.objects.get()
    here = set(original.chapter_games.values_list("game_id", flat=True))
    assert here != {int(game) for game in recorded["games"]}
    response = alice.get(f"/api/v1/campaigns/{original.pk}/export")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-ndjson")
    assert f'filename="moon-campaign-{original.pk}.jsonl"' in response["Content-Disposition"]
    lines = streamed(response).splitlines(keepends=True)
    assert json.loads(lines[0])["pack"]["content"] == PACK

    caught = refused(lines)  # the same campaign again, and it is said which
    assert f"already stored here as campaign {original.pk}" in caught.detail
    copy = history.import_campaign(lines=lines, copy=True).campaign
    fields = ("seq", "seat", "kind", "version", "data", "hash")
    assert [[getattr(e, name) for name in fields] for e in copy.events.all()] == [
        [getattr(e, name) for name in fields] for e in original.events.all()
    ]
    assert copy.chapter_games.count() == original.chapter_games.count() == len(recorded["games"])
    outsider = bob.get(f"/api/v1/campaigns/{original.pk}/export")
    assert (outsider.status_code, outsider.json()["code"]) == (404, "not_found")


def test_an_unfinished_campaign_is_exported_only_to_staff_who_may_review_campaigns(
    alice: APIClient, make_player: Callable[[str], APIClient]
) -> None:
    created = alice.post("/api/v1/campaigns", {"max_players": 2}, format="json").json()
    refused_early = alice.get(f"/api/v1/campaigns/{created['id']}/export")
    assert (refused_early.status_code, refused_early.json()["code"]) == (409, "campaign_not_finished")
    referee = make_player("referee")
    User.objects.filter(username="referee").update(is_staff=True)
    # not enough: no permission (and a private lobby does not exist for whoever is not invited)
    staff_alone = referee.get(f"/api/v1/campaigns/{created['id']}/export")
    assert (staff_alone.status_code, staff_alone.json()["code"]) == (404, "not_found")
    User.objects.get(username="referee").user_permissions.add(
        Permission.objects.get(codename="view_campaign")
    )
    staff = referee.get(f"/api/v1/campaigns/{created['id']}/export")
    assert staff.status_code == 200
    (header, created_event) = streamed(staff).splitlines()
    assert json.loads(header)["seats"] == [{"seat": 0, "username": "alice"}]
    assert json.loads(created_event)["kind"] == "campaign_created"


def test_the_migration_chains_the_campaign_events_stored_before_it_and_keeps_them(
    emptied_log: None, capsys: pytest.CaptureFixture[str]
) -> None:
    executor = MigrationExecutor(connection)
    before = [("campaigns", "0003_bot_seats_and_solo")]
    after = executor.loader.graph.leaf_nodes()
    recorded = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    executor.migrate(before)
    try:
        old = MigrationExecutor(connection).loader.project_state(before).apps
        user = old.get_model("auth", "User").objects.create(username="old-timer")
        pack = old.get_model("campaigns", "Pack").objects.create(
            key="open", version="1", title="Open", content_hash="x" * 64, content=PACK
        )
        OldCampaign, OldEvent = (
            old.get_model("campaigns", "Campaign"),
            old.get_model("campaigns", "CampaignEvent"),
        )
        campaign = OldCampaign.objects.create(pack=pack, max_players=1, astra_level=4, creator=user, seed=1)
        OldEvent.objects.bulk_create(
            OldEvent(
                campaign_id=campaign.pk,
                seq=e["seq"],
                seat=e["seat"],
                kind=e["kind"],
                version=e["v"],
                data=e["data"],
            )
            for e in recorded["events"]
        )
    finally:
        migrate_back_to_the_end(after)
    call_command("verify_events", "--campaign", str(campaign.pk))
    holds = "every chain holds, every finished history is signed."
    assert f"{len(recorded['events'])} event(s) checked: {holds}" in capsys.readouterr().out
    stored = CampaignEvent.objects.filter(campaign_id=campaign.pk).order_by("seq")
    assert [(row.seq, row.kind, row.data) for row in stored] == [
        (e["seq"], e["kind"], e["data"]) for e in recorded["events"]
    ]  # what each event says is unchanged
    first = stored.first()
    assert first is not None and chain.link(chain.GENESIS, CampaignEvent.content(1, first.as_stored())) == (
        chain.hexed(first.hash)
    )
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        stored.update(kind="forged")


def test_a_recorded_campaign_imports_unsigned_with_warnings_and_is_signed_here(exported: list[str]) -> None:
    recorded = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    imported = history.import_campaign(lines=exported)
    assert imported.warnings[0] == (
        "the campaign of line 1 is not signed (exported before histories were signed, or unfinished)."
    )
    assert len(imported.warnings) == 1 + len(recorded["games"])  # and each chapter game's
    lines = list(history.history_lines(campaign=imported.campaign))
    headers = [json.loads(line) for line in lines if '"format":' in line]
    streams = [header["seal"]["stream"] for header in headers]
    assert streams == ["campaign"] + ["game"] * len(recorded["games"])
    assert history.import_campaign(lines=lines, copy=True).warnings == []  # signed by this server: trusted


def test_a_rechained_campaign_forgery_is_refused_for_its_signature(exported: list[str]) -> None:
    signed = list(history.history_lines(campaign=history.import_campaign(lines=exported).campaign))
    recorded = json.loads(RECORDED[0].read_text(encoding="utf-8"))
    events = recorded["events"]
    at = next(i for i, e in enumerate(events) if e["kind"] == "stars_awarded")
    events[at]["data"]["awards"][0]["stars"] += 1
    campaign_lines = chained(events, ())  # the chain recomputed: it holds again
    forged = [signed[0], *campaign_lines, *signed[1 + len(campaign_lines) :]]
    caught = refused(forged)
    assert caught.line == 1 and caught.detail.startswith(
        "its signature is refused: the history is not the one signed"
    )
