"""The admin for the staff who review games: games and events read-only (for superusers too),
filters and search, the replay viewer with every sheet drawn, exports; non-staff get the
admin's login page, never the viewer."""

import io
import json
import re
import zipfile
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import history, services, snapshots
from games.models import ClientToken, Event, Game
from games.rules import engine
from tests.games.histories import finished_game

pytestmark = pytest.mark.django_db
MARKED = re.compile(r'data-element="([^"]+)" data-mark="([^"]*)"')


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("referee", password="secret-pw-9"))
    return client


def viewer(game: Game, query: str = "") -> str:
    return f"/admin/games/game/{game.pk}/history/{query}"


def drawn_marks(html: str) -> list[dict[str, str]]:
    """The marks drawn on each sheet of a viewer page, by element id."""
    figures = html.split('<figure class="sheet-figure"')[1:]
    return [dict(MARKED.findall(figure.split("</svg>")[0])) for figure in figures]


def test_the_games_list_shows_and_filters_and_searches(staff: Client) -> None:
    launch = finished_game(1, names=("ann", "ben"))
    journey = finished_game(2, seed=2, names=("cy", "dee"))
    page = staff.get("/admin/games/game/").content.decode()
    assert "1. The Launch" in page and "2. The Journey" in page
    assert "ann, ben" in page and "cy, dee" in page
    turn = Event.objects.filter(game=launch).order_by("-turn").first().turn  # type: ignore[union-attr]
    assert f'<td class="field-turn">{turn}</td>' in page
    assert f'href="/admin/games/game/{launch.pk}/history/"' in page

    def listed(query: str) -> set[int]:
        html = staff.get(f"/admin/games/game/{query}").content.decode()
        return {int(n) for n in re.findall(r'/admin/games/game/(\d+)/change/', html)}

    assert listed("?adventure=2") == {journey.pk}
    assert listed("?status=finished") == {launch.pk, journey.pk}
    assert listed("?status=playing") == set()
    assert listed("?created_at__gte=2000-01-01+00:00:00%2B00:00") == {launch.pk, journey.pk}
    assert listed("?created_at__lt=2000-01-01+00:00:00%2B00:00") == set()
    assert listed("?q=dee") == {journey.pk}
    assert listed(f"?q={launch.pk}") == {launch.pk}
    assert staff.get("/admin/games/game/?q=not-a-number").status_code == 200


def test_a_game_shows_its_seats_and_events_inline_read_only(staff: Client) -> None:
    game = finished_game(1, names=("ann", "ben"))
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "ann" in page and "ben" in page
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert last is not None and last.kind == "result"
    assert "result: seat 0" in page and last.hash[:12] in page
    assert 'name="_save"' not in page
    assert 'name="events-0-DELETE"' not in page and 'name="seats-0-DELETE"' not in page
    assert f'href="/admin/games/game/{game.pk}/history/"' in page


def test_no_one_adds_changes_or_deletes_an_event_in_the_admin(staff: Client) -> None:
    game = finished_game(1)
    event = Event.objects.filter(game=game).first()
    assert event is not None
    assert staff.get("/admin/games/event/add/").status_code == 403
    change = staff.get(f"/admin/games/event/{event.pk}/change/")
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()
    assert staff.post(f"/admin/games/event/{event.pk}/change/", {"kind": "forged"}).status_code == 403
    assert staff.post(f"/admin/games/event/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    listing = staff.get("/admin/games/event/").content.decode()
    assert "delete_selected" not in listing
    bulk = staff.post("/admin/games/event/", {"action": "delete_selected", "_selected_action": [event.pk]})
    assert bulk.status_code in (200, 302)
    assert Event.objects.filter(pk=event.pk, kind=event.kind).exists()
    assert staff.get("/admin/games/game/add/").status_code == 403


def test_events_are_filtered_by_game_kind_seat_and_turn(staff: Client) -> None:
    one, two = finished_game(1), finished_game(3, seed=3)

    def count(query: str) -> int:
        html = staff.get(f"/admin/games/event/{query}").content.decode()
        return int(re.search(r"(\d+) events?", html).group(1))  # type: ignore[union-attr]

    events = Event.objects.filter(game=two)
    assert count(f"?game={two.pk}") == events.count()
    assert count(f"?game={two.pk}&kind=confirmed") == events.filter(kind="confirmed").count()
    assert count(f"?game={two.pk}&seat=1") == events.filter(seat=1).count()
    assert count(f"?game={two.pk}&seat=none") == events.filter(seat__isnull=True).count()
    assert count(f"?game={one.pk}&turn=3") == Event.objects.filter(game=one, turn=3).count()
    page = staff.get(f"/admin/games/event/?game={one.pk}&turn=3").content.decode()
    assert f'href="/admin/games/game/{one.pk}/history/?seq=' in page


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_anyone_but_staff_gets_the_admin_login_page(who: str) -> None:
    game = finished_game(1, names=("ann", "ben"))
    client = Client()
    if who == "player":
        client.force_login(User.objects.get(username="ann"))
    response = client.get(viewer(game, "?seq=5"), follow=True)
    assert response.redirect_chain[0][0].startswith("/admin/login/?next=")
    page = response.content.decode()
    assert 'id="login-form"' in page and 'class="sheet"' not in page and "Staff view" not in page


def test_the_viewer_draws_every_sheet_with_every_mark_after_the_event(staff: Client) -> None:
    game = finished_game(4, players=3, seed=6)
    seq = Event.objects.filter(game=game, kind="turn_started", turn=12).get().seq + 4
    page = staff.get(viewer(game, f"?seq={seq}")).content.decode()
    state = snapshots.at(game=game, seq=seq)
    drawn = drawn_marks(page)
    assert len(drawn) == 3
    for sheet, marks in enumerate(drawn):
        expected = engine.referee_sheet_view(state, sheet)
        assert marks == {element: str(mark) for element, mark in expected["marks"].items()}
        assert f'data-score="total" data-value="{expected["score"]["total"]}"' in page
    assert "Staff view." in page
    assert f'<li value="{seq}" id="e{seq}" class="current"' in page
    assert f"Event {seq} of {Event.objects.filter(game=game).count()}" in page
    assert f'href="?seq={seq - 1}"' in page and f'href="?seq={seq + 1}"' in page
    for combination in state.combinations:
        assert f"<td>{combination.number}</td><td>{combination.action}</td>" in page


def test_the_viewer_shows_the_hidden_turn_to_staff_only(staff: Client) -> None:
    ann = User.objects.create_user("ann")
    ben = User.objects.create_user("ben")
    game = services.create_game(by=ann, adventure=1, max_players=2)
    services.join_game(game=game, by=ben)
    services.start_game(game=game, by=ann)
    choice = engine.options(snapshots.current(game=game)[0], 1).options[0]
    services.play_move(game=game, by=ben, choice=choice)
    state, _ = snapshots.current(game=game)
    assert engine.sheet_view(state, 1, viewer=0)["marks"] == {}  # ann cannot see ben's move
    page = staff.get(viewer(game)).content.decode()
    assert drawn_marks(page)[1] == {choice["space"]: str(choice["number"])}
    assert f"{choice['number']} in {choice['space']}" in page  # what seat 1 wrote this turn


def test_jumping_to_a_turn_and_bad_positions(staff: Client) -> None:
    game = finished_game(1)
    flip = Event.objects.get(game=game, kind="turn_started", turn=5)
    page = staff.get(viewer(game, "?turn=5")).content.decode()
    assert f'data-seq="{flip.seq}"' in page and "Turn 5 &middot;" in page
    last = Event.objects.filter(game=game).count()
    for query, note in [
        ("?turn=999", "There is no turn &#x27;999&#x27;"),
        ("?seq=0", f"The events are numbered 1 to {last}: showing event 1."),
        ("?seq=abc", "&#x27;abc&#x27; is not an event number"),
        ("?seq=%F0%9F%8C%99", "is not an event number"),
    ]:
        response = staff.get(viewer(game, query))
        assert response.status_code == 200 and note in response.content.decode()
    assert staff.get("/admin/games/game/999999/history/").status_code == 302
    lobby = services.create_game(by=User.objects.create_user("zed"), adventure=2, max_players=2)
    page = staff.get(viewer(lobby)).content.decode()
    assert "This game has no events yet." in page and 'class="sheet"' not in page


def test_the_viewer_names_who_accomplished_each_mission_and_the_result(staff: Client) -> None:
    game = finished_game(6, seed=2)
    claims = list(Event.objects.filter(game=game, kind="mission_accomplished"))
    assert claims, "this seed's game has accomplished missions"
    page = staff.get(viewer(game)).content.decode()
    first = claims[0]
    row = page.split(f'<tr data-mission="{first.data["letter"]}">')[1].split("</tr>")[0]
    assert f"seat {first.data['sheet']} ({first.data['value']})" in row
    result = Event.objects.get(game=game, kind="result").data
    assert 'id="result"' in page
    for score in result["scores"]:
        assert f"<td>{score['total']}</td>" in page


def test_exports_from_the_admin(staff: Client) -> None:
    one, two = finished_game(1), finished_game(2, seed=2)
    single = staff.post("/admin/games/game/", {"action": "export_histories", "_selected_action": [one.pk]})
    assert single["Content-Type"] == "application/jsonl; charset=utf-8"
    sent = b"".join(single.streaming_content).decode()  # type: ignore[attr-defined]
    assert sent == "".join(history.history_lines(game=one))
    both = staff.post(
        "/admin/games/game/", {"action": "export_histories", "_selected_action": [one.pk, two.pk]}
    )
    with zipfile.ZipFile(io.BytesIO(both.content)) as bundle:
        names = sorted(bundle.namelist())
        assert names == sorted([f"moon-game-{one.pk}.jsonl", f"moon-game-{two.pk}.jsonl"])
        header = json.loads(bundle.read(f"moon-game-{two.pk}.jsonl").decode().splitlines()[0])
    assert header["game"] == two.pk and header["adventure"] == 2


def test_client_tokens_are_listed_never_shown_or_made(staff: Client, make_player: Any) -> None:
    make_player("ann")
    token = ClientToken.objects.get(user__username="ann")
    page = staff.get("/admin/games/clienttoken/").content.decode()
    assert token.digest[:12] in page
    assert staff.get("/admin/games/clienttoken/add/").status_code == 403
    assert staff.get("/admin/auth/user/").status_code == 200
