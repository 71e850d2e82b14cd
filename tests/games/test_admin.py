"""The admin for the staff who review games: games and events read-only (for superusers too),
filters and search, the replay viewer with every sheet drawn (a Battle sheet's two sides apart,
ASTRA in a solo game), bots' seats named as bots, exports; non-staff get the admin's login
page, never the viewer."""

import io
import json
import re
import zipfile
from typing import Any, cast
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import User
from django.test import Client

from eventstore import chain
from games import history, services, snapshots
from games.models import Event, Game
from games.rules import engine
from games.rules.core.cards import CARDS
from games.rules.read import views
from games.rules.turn import solo
from tests.games.histories import finished_game

pytestmark = pytest.mark.django_db
MARKED = re.compile(r'data-element="([^"]+)" data-mark="([^"]*)"')
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def staff() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("referee", password="secret-pw-9"))
    return client


def viewer(game: Game, query: str = "") -> str:
    return f"/admin/games/game/{game.pk}/history/{query}"


def event_log(game: Game, query: str = "") -> str:
    return f"/admin/games/game/{game.pk}/events/{query}"


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

    filters = page.split('id="changelist-filter"')[1]
    assert "?adventure=8" in filters and "8. The Battle" in filters  # by name, every adventure
    assert listed("?adventure=2") == {journey.pk}
    assert listed("?status=finished") == {launch.pk, journey.pk}
    assert listed("?status=playing") == set()
    assert listed("?created_at__gte=2000-01-01+00:00:00%2B00:00") == {launch.pk, journey.pk}
    assert listed("?created_at__lt=2000-01-01+00:00:00%2B00:00") == set()
    assert listed("?q=dee") == {journey.pk}
    assert listed(f"?q={launch.pk}") == {launch.pk}
    assert staff.get("/admin/games/game/?q=not-a-number").status_code == 200


def test_a_game_opens_on_its_result_and_pages_its_events_read_only(staff: Client) -> None:
    game = finished_game(1, names=("ann", "ben"))
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    result = game.snapshot.state["result"]
    table = page.split('<table id="game-result">')[1].split("</table>")[0]
    for score in result["scores"]:
        player = ("ann", "ben")[score["seat"]]
        winner = "winner" if score["seat"] in result["winners"] else ""
        cells = (score["seat"], player, score["total"])
        assert "".join(f"<td>{cell}</td>" for cell in cells) + f"<td><strong>{winner}</strong>" in table
    assert page.index('id="game-result"') < page.index("seats-group")  # the result comes first
    events = Event.objects.filter(game=game)
    # the events are paged in the event log, not stacked inline
    assert f'href="{event_log(game)}">all {events.count()} events' in page
    assert "events-group" not in page and chain.hexed(events.last().hash)[:12] not in page  # type: ignore[union-attr]
    listed = staff.get(event_log(game)).content.decode()
    assert f"{events.count()} events" in listed and 'class="paginator"' in listed
    assert chain.hexed(events.get(seq=1).hash) in listed  # each hash as an export spells it
    assert chain.hexed(events.last().hash) not in listed  # type: ignore[union-attr]  # a page at a time
    second = staff.get(event_log(game, "?p=2")).content.decode()
    assert chain.hexed(events.get(seq=101).hash) in second
    assert 'name="_save"' not in page and 'name="seats-0-DELETE"' not in page
    assert f'href="/admin/games/game/{game.pk}/history/"' in page
    assert f"Game {game.pk} (The Launch, finished)" in page


def test_no_action_is_offered_that_is_always_refused(staff: Client) -> None:
    game = finished_game(1)
    listing = staff.get("/admin/games/game/").content.decode()
    assert "delete_selected" not in listing and "export_histories" in listing
    assert staff.get(f"/admin/games/game/{game.pk}/delete/").status_code == 403
    change = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "deletelink" not in change


def test_no_one_adds_changes_or_deletes_an_event_in_the_admin(staff: Client) -> None:
    game = finished_game(1)
    event = Event.objects.filter(game=game).first()
    assert event is not None
    # events have no admin pages of their own: their game's event log lists them, read-only
    for address in ("", "add/", f"{game.pk}/change/"):
        assert staff.get(f"/admin/games/event/{address}").status_code == 404
    listed = staff.get(event_log(game)).content.decode().split('id="event-log"')[1]
    assert '<form class="event-log-filters" method="get">' in listed and 'method="post"' not in listed
    assert "deletelink" not in listed and "action-checkbox" not in listed
    assert staff.post(event_log(game), {"kind": "forged"}).status_code == 405
    assert Event.objects.filter(pk=event.pk, kind=event.kind).exists()
    assert staff.get("/admin/games/game/add/").status_code == 403
    assert staff.get("/admin/games/game/999999/events/", follow=True).redirect_chain[-1][0] == "/admin/"


def test_events_are_filtered_by_game_kind_seat_and_turn(staff: Client) -> None:
    one, two = finished_game(1), finished_game(3, seed=3)

    def count(game: Game, query: str) -> int:
        html = staff.get(event_log(game, query)).content.decode()
        return int(re.search(r"(\d+) events?", html).group(1))  # type: ignore[union-attr]

    events = Event.objects.filter(game=two)
    assert count(two, "") == events.count()
    assert count(two, "?kind=confirmed") == events.filter(kind="confirmed").count()
    assert count(two, "?seat=1") == events.filter(seat=1).count()
    assert count(two, "?seat=none") == events.filter(seat__isnull=True).count()
    assert count(one, "?turn=3") == Event.objects.filter(game=one, turn=3).count()
    assert count(one, "?turn=x&seat=%F0%9F%8C%99") == Event.objects.filter(game=one).count()
    page = staff.get(event_log(one, "?turn=3")).content.decode()
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
    filtered_by = r'data-kind="[a-z_]+" data-seat="\w+" data-turn="\d*"'  # the list's filters read these
    assert re.search(rf'<li value="{seq}" id="e{seq}" {filtered_by} class="current"', page)
    assert f"Event {seq} of {Event.objects.filter(game=game).count()}" in page
    assert f'href="?seq={seq - 1}"' in page and f'href="?seq={seq + 1}"' in page
    for combination in state.combinations:
        assert f"<td>{combination.number}</td><td>{combination.action}</td>" in page


def test_the_viewer_shows_the_hidden_turn_to_staff_only(staff: Client) -> None:
    ann = User.objects.create_user("ann")
    ben = User.objects.create_user("ben")
    game = services.create_game(by=ann, adventure=1, max_players=2)
    services.join_game(game=game, by=ben, invite=game.invite)
    services.start_game(game=game, by=ann)
    choice = cast(engine.WriteOption, engine.options(snapshots.current(game=game)[0], 1).options[0])
    services.play_move(game_id=game.pk, by=ben, choice=choice)
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
    assert single["Content-Type"] == "application/x-ndjson; charset=utf-8"
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


def svg_of(figure_html: str) -> ElementTree.Element:
    return ElementTree.fromstring(figure_html[figure_html.index("<svg") : figure_html.index("</svg>") + 6])


def test_the_viewer_draws_a_battle_sheet_with_both_sides_apart_and_who_plays_it(staff: Client) -> None:
    game = finished_game(8, players=3, seed=6, bot_seats=(2,))
    seq = Event.objects.get(game=game, kind="turn_started", turn=6).seq + 3
    state = snapshots.at(game=game, seq=seq)
    page = staff.get(viewer(game, f"?seq={seq}")).content.decode()
    names = {0: "seat 0 (ann)", 1: "seat 1 (ben)", 2: "seat 2 (greedy bot)"}
    figures = page.split('<figure class="sheet-figure"')[1:]
    assert len(figures) == len(state.sheets) == 3
    for sheet, figure in zip(state.sheets, figures, strict=True):
        svg = svg_of(figure)
        expected = engine.referee_sheet_view(state, sheet.id)
        panels = {g.get("data-side"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "panel"}
        assert {side: g.get("data-owner") for side, g in panels.items()} == {
            side: names[int(seat)] for side, seat in sheet.sides.items()
        }
        # turn 6 is even: every seat plays its right sheet, on side N
        assert {side: g.get("data-active") for side, g in panels.items()} == {"S": "false", "N": "true"}
        assert sheet.sides["N"] == expected["active_seat"]
        for side, panel in panels.items():
            total = next(g for g in panel.iter(f"{SVG}g") if g.get("data-score") == "total")
            assert total.get("data-value") == str(expected["score"][side]["total"])
        insignias = {
            g.get("data-element"): g.get("data-mark")
            for g in svg.iter(f"{SVG}g")
            if g.get("data-mark") in ("S", "N", "SN")
        }
        assert insignias == {e: m for e, m in expected["marks"].items() if m in ("S", "N", "SN")}
    end = staff.get(viewer(game)).content.decode()
    assert 'data-active="true"' not in end and "plays this sheet now" not in end  # the game is over
    # a mission is written on the home sheet of the seat that accomplished it, not its neighbour's
    accomplished = list(Event.objects.filter(game=game, kind="mission_accomplished"))
    assert accomplished, "this seed's game has accomplished missions"
    for event in accomplished:
        row = end.split(f'<tr data-mission="{event.data["letter"]}">')[1].split("</tr>")[0]
        assert f"seat {event.seat} ({event.data['value']})" in row


def test_the_viewer_draws_a_solo_battle_with_astra_owning_side_n_of_both_sheets(staff: Client) -> None:
    game = finished_game(8, players=1, seed=5, astra_level=4)
    seq = Event.objects.get(game=game, kind="turn_started", turn=5).seq + 3
    state = snapshots.at(game=game, seq=seq)
    page = staff.get(viewer(game, f"?seq={seq}")).content.decode()
    figures = page.split('<figure class="sheet-figure"')[1:]
    assert len(figures) == len(state.sheets) == 2
    for sheet, figure in zip(state.sheets, figures, strict=True):
        svg = svg_of(figure)
        expected = engine.referee_sheet_view(state, sheet.id)
        panels = {g.get("data-side"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "panel"}
        owners = {side: g.get("data-owner") for side, g in panels.items()}
        assert owners == {"S": "seat 0 (ann)", "N": "ASTRA"}
        # turn 5 is odd: the player plays L (sheet 0), side S; nobody plays R now
        active = "true" if sheet.id == 0 else "false"
        assert {side: g.get("data-active") for side, g in panels.items()} == {"S": active, "N": "false"}
        insignias = {
            g.get("data-element"): g.get("data-mark")
            for g in svg.iter(f"{SVG}g")
            if g.get("data-mark") in ("S", "N")
        }
        assert insignias == {e: m for e, m in expected["marks"].items() if m in ("S", "N")}
        assert "N" in insignias.values()  # ASTRA's insignias, drawn in its side's colour
    end = staff.get(viewer(game)).content.decode()
    played = Event.objects.filter(game=game, kind="astra_played").first()
    assert played is not None
    assert f"ASTRA played card {played.data['card']} ({played.data['number']} {played.data['action']})" in end


@pytest.mark.parametrize("adventure", [1, 4, 8])
def test_the_viewer_shows_astra_its_pile_bonuses_pass_score_and_the_hand(
    staff: Client, adventure: int
) -> None:
    game = finished_game(adventure, players=1, astra_level=3, seed=4)
    flip = Event.objects.get(game=game, kind="turn_started", turn=6).seq
    state = snapshots.at(game=game, seq=flip)
    assert state.astra is not None
    seen = views.astra_view(state)
    page = staff.get(viewer(game, f"?seq={flip}")).content.decode()
    section = page.split('<section id="astra"')[1].split("</section>")[0]
    bonuses = seen["bonuses"]
    assert (
        f'data-score="{seen["score"]}" data-pass="{seen["pass"]}" data-boxes="{bonuses["boxes"]}" '
        f'data-circled="{bonuses["circled"]}" data-used="{bonuses["used"]}"'
    ) in section
    assert f"{seen['name']} (level 3)" in section
    breakdown = cast(dict[str, Any], solo.astra_score(state)["breakdown"])
    for action, cards in seen["pile"].items():
        points = breakdown[action] if adventure != 1 else "—"
        row = f'<tr data-action="{action}"><td>{action}</td><td>{cards}</td><td>{points}</td></tr>'
        assert row in section
    assert re.findall(r'<tr data-card="(\d+)">', section) == [str(card) for card in state.astra.hand]
    card = svg_of(section.split('<figure class="astra-card">')[1])
    marked = {g.get("data-element"): g.get("data-mark") for g in card.iter(f"{SVG}g") if g.get("data-mark")}
    crossed_track = sum(1 for element in marked if element and not element.startswith("astra.bonus"))
    assert crossed_track == (breakdown["boxes_crossed"] if adventure == 1 else 0)
    assert list(marked.values()).count("circle") == bonuses["circled"] - bonuses["used"]
    # ASTRA's part of the turn reads as lines
    taken = Event.objects.filter(game=game, kind="astra_took")
    took = next((event for event in taken if not event.data["removed"]), None)
    assert took is not None
    number, action = CARDS[took.data["card"]].number, CARDS[took.data["card"]].action
    assert f"turn {took.turn}: ASTRA took card {took.data['card']} ({number} {action})" in page
    assert re.search(r"turn \d+: drew card \d+ \(\d+ \w+\) from the solo deck", page)
    result = Event.objects.get(game=game, kind="result").data
    end = staff.get(viewer(game)).content.decode()
    assert f'<tr id="result-astra"><td>—</td><td>ASTRA</td><td>{result["astra"]["total"]}</td>' in end
    winners = ", ".join("ASTRA" if winner == "astra" else "seat 0 (ann)" for winner in result["winners"])
    assert f'<p id="winners">Winner(s): {winners}</p>' in end
    assert "seat 0: ann, against ASTRA" in end


@pytest.mark.parametrize("adventure", [3, 8])
def test_the_solo_hand_is_shown_at_every_step_of_the_turn(staff: Client, adventure: int) -> None:
    game = finished_game(adventure, players=1, astra_level=2, seed=5)
    flip = Event.objects.get(game=game, kind="turn_started", turn=4)
    pairs = flip.data["combinations"]
    dealt = sorted({card for pair in pairs for card in (pair["number_card"], pair["action_card"])})
    took = Event.objects.filter(game=game, kind="astra_took", turn=4).get().seq
    for seq in range(flip.seq, took + 1):
        page = staff.get(viewer(game, f"?seq={seq}")).content.decode()
        hand = page.split('<table id="hand">')[1].split("</table>")[0]
        assert sorted(int(card) for card in re.findall(r'<tr data-card="(\d+)">', hand)) == dealt, seq
        assert "no cards in hand" not in hand
    assert 'id="hand-played"' in page  # once ASTRA has taken its card, the page says whence the hand


def test_a_bots_seat_is_named_as_a_bot_in_the_admin_and_the_viewer(staff: Client) -> None:
    game = finished_game(2, players=2, bot_seats=(1,))
    listing = staff.get("/admin/games/game/").content.decode()
    assert "ann, greedy bot" in listing
    change = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert re.search(r'field-player">\s*<p>greedy bot</p>', change)
    page = staff.get(viewer(game)).content.decode()
    assert "seat 0: ann, seat 1: greedy bot" in page
    assert "Sheet 1: seat 1 (greedy bot)" in page
    assert "<td>1</td><td>greedy bot</td>" in page  # the result, and the seats' turn
    events = staff.get(event_log(game, "?seat=1")).content.decode()
    assert "<td>1 (greedy bot)</td>" in events


def test_a_game_shows_its_visibility_turn_seconds_and_resigned_seats(staff: Client) -> None:
    ann, ben, cy = (User.objects.create_user(name) for name in ("ann", "ben", "cy"))
    game = services.create_game(by=ann, adventure=1, max_players=3, visibility="public", turn_seconds=90)
    for user in (ben, cy):
        services.join_game(game=game, by=user, invite=game.invite)
    services.start_game(game=game, by=ann)
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert re.search(r"Visibility:</label>\s*<div class=\"readonly\">Public<", page)
    assert re.search(r"Turn seconds:</label>\s*<div class=\"readonly\">90<", page)
    assert re.search(r"Resigned seats:</label>\s*<div class=\"readonly\">none<", page)
    services.resign_seat(game_id=game.pk, by=ben)
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "seat 1: ben (played by a bot)" in page
    listed = staff.get("/admin/games/game/?visibility=private").content.decode()
    assert f"/admin/games/game/{game.pk}/change/" not in listed
    listed = staff.get("/admin/games/game/?visibility=public").content.decode()
    assert f"/admin/games/game/{game.pk}/change/" in listed


def test_a_games_pages_lead_back_to_it_and_its_list(staff: Client) -> None:
    game = finished_game(1)
    for address, here in ((event_log(game), "Events"), (f"/admin/games/game/{game.pk}/history/", "History")):
        trail = staff.get(address).content.decode().split('<div class="breadcrumbs">')[1].split("</div>")[0]
        assert 'href="/admin/games/game/"' in trail
        assert f'href="/admin/games/game/{game.pk}/change/">Game {game.pk}' in trail
        assert trail.rstrip().endswith(f"&rsaquo; {here}")
