"""The replay viewer in a real browser: staff sign in to the admin, open a finished game of each
playable adventure, step forward and back, jump to a turn, and find on every drawn sheet the
marks the API's `/replay?seq=` gives the game's players for that moment: on a Battle sheet, each
side's panel with its owner and the side played at that moment; in a solo game, ASTRA's pile,
bonuses, pass, score and the hand, as the player's replay has them, and ASTRA's part of the turn
in words (a solo Battle's sheets with ASTRA as the owner of side N).
Players who are not staff get the admin's login page instead. Screenshots of each
page, and of one sheet at full size, go to var/browser/."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.test import APIClient

from accounts import services
from games import snapshots
from games.models import Event, Game
from games.rules import engine
from games.rules.adventures import PLAYABLE
from tests.browser.conftest import SHOTS
from tests.games.histories import finished_game

pytestmark = [pytest.mark.browser]
PASSWORD = "lunar-referee-42"
BATTLE = 8


@pytest.fixture
def site(live_server: Any, emptied_log: None) -> str:
    return str(live_server.url)


def staff_member() -> User:
    """A staff account that may view games and events, and nothing more."""
    user = User.objects.create_user("referee", password=PASSWORD, is_staff=True)
    user.user_permissions.set(
        Permission.objects.filter(codename__in=["view_game", "view_event", "view_seat"])
    )
    return user


def sign_in(browser: Any, site: str, username: str) -> None:
    from selenium.webdriver.common.by import By

    browser.delete_all_cookies()
    browser.get(f"{site}/admin/login/")
    browser.find_element(By.NAME, "username").send_keys(username)
    browser.find_element(By.NAME, "password").send_keys(PASSWORD)
    follow(browser, "#login-form input[type=submit]")


def drawn(browser: Any) -> list[dict[str, str]]:
    """Each drawn sheet's marks by element id, read from the page the browser shows."""
    return browser.execute_script(
        """
        return Array.from(document.querySelectorAll('figure.sheet-figure svg.sheet')).map(svg => {
            const marks = {};
            svg.querySelectorAll('g.cell[data-mark]').forEach(
                cell => { marks[cell.dataset.element] = cell.dataset.mark; });
            return marks;
        });
        """
    )


def follow(browser: Any, css: str) -> None:
    """Click a link or button that loads another page, and wait until it has replaced this one
    (a click returns before the next page is there)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait

    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, css).click()

    def replaced(_: Any) -> bool:
        # Asked while the old document is being torn down, Chromium may answer with an
        # inspector error rather than a stale element: either means the page is gone.
        try:
            page.is_enabled()
        except WebDriverException:
            return True
        return False

    WebDriverWait(browser, 30).until(replaced)
    WebDriverWait(browser, 30).until(
        lambda driver: driver.execute_script("return document.readyState") == "complete"
    )


def seq_shown(browser: Any) -> int:
    from selenium.webdriver.common.by import By

    history = browser.find_element(By.ID, "history")
    current = browser.find_element(By.CSS_SELECTOR, "#events li.current")
    assert current.get_attribute("value") == history.get_attribute("data-seq")
    return int(history.get_attribute("data-seq"))


def as_text(marks: dict[str, Any]) -> dict[str, str]:
    return {element: str(mark) for element, mark in marks.items()}


def referee_marks(game: Game, seq: int) -> list[dict[str, str]]:
    state = snapshots.at(game=game, seq=seq)
    return [as_text(engine.referee_sheet_view(state, sheet.id)["marks"]) for sheet in state.sheets]


def replay_marks(api: APIClient, game: Game, kind: str, turn: int | None) -> tuple[int, list[dict[str, str]]]:
    """What the API's replay gives a seated player at the event of ``kind`` (of ``turn``, or
    the last one) in their feed: the feed position and every sheet's marks."""
    position, replay = replay_at(api, game, kind, turn)
    return position, [as_text(sheet["marks"]) for sheet in replay["sheets"]]


def replay_at(api: APIClient, game: Game, kind: str, turn: int | None) -> tuple[int, dict[str, Any]]:
    """The API's replay for a seated player at the event of ``kind`` (of ``turn``, or the last
    one) in their feed: the feed position and the answer."""
    base = f"/api/v1/games/{game.pk}"
    feed: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = api.get(f"{base}/events", {"after": after, "limit": 500}).json()
        feed += page["events"]
        after = page["next"]
    position = next(
        event["seq"] for event in reversed(feed)
        if event["kind"] == kind and (turn is None or event["data"].get("turn") == turn)
    )
    replay = api.get(f"{base}/replay", {"seq": position})
    assert replay.status_code == 200, replay.content
    return position, replay.json()


def shoot(browser: Any, name: str) -> None:
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1500, min(max(int(height), 900), 6000))
    browser.save_screenshot(str(SHOTS / f"{name}.png"))
    browser.set_window_size(1500, 1200)


def shoot_one(browser: Any, css: str, name: str) -> None:
    """A screenshot of one element of the page at its full size (a sheet, ASTRA's section)."""
    from selenium.webdriver.common.by import By

    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1500, min(max(int(height), 900), 6000))
    browser.find_element(By.CSS_SELECTOR, css).screenshot(str(SHOTS / f"{name}.png"))
    browser.set_window_size(1500, 1200)


def panels(browser: Any) -> list[dict[str, dict[str, str]]]:
    """Each drawn sheet's side panels (a shared sheet's): by side, its owner, whether it is the
    side played now, and its score's total."""
    return browser.execute_script(
        """
        return Array.from(document.querySelectorAll('figure.sheet-figure svg.sheet')).map(svg => {
            const sides = {};
            svg.querySelectorAll('g.panel').forEach(panel => {
                const total = panel.querySelector('g.score-line[data-score="total"]');
                sides[panel.dataset.side] = {
                    owner: panel.dataset.owner, active: panel.dataset.active, total: total.dataset.value,
                };
            });
            return sides;
        });
        """
    )


def expected_panels(game: Game, seq: int) -> list[dict[str, dict[str, str]]]:
    """What the panels of each sheet must show right after event ``seq``, from the engine."""
    names = {seat.index: seat.player for seat in game.seats.all()}
    state = snapshots.at(game=game, seq=seq)
    sheets = []
    for sheet in state.sheets:
        view = engine.referee_sheet_view(state, sheet.id)
        sheets.append({
            side: {
                "owner": f"seat {seat} ({names[seat]})" if isinstance(seat, int) else "ASTRA",
                "active": "true" if seat == view["active_seat"] else "false",
                "total": str(view["score"][side]["total"]),
            }
            for side, seat in sheet.sides.items()
        })
    return sheets


def astra_shown(browser: Any) -> dict[str, Any]:
    """ASTRA as the viewer shows it: its score, pass, bonuses, pile by action and the hand."""
    return browser.execute_script(
        """
        const section = document.getElementById('astra');
        const pile = {};
        section.querySelectorAll('#astra-pile tr[data-action]').forEach(
            row => { pile[row.dataset.action] = Number(row.cells[1].textContent); });
        return {
            score: Number(section.dataset.score), pass: Number(section.dataset.pass),
            bonuses: {boxes: Number(section.dataset.boxes), circled: Number(section.dataset.circled),
                      used: Number(section.dataset.used)},
            pile: pile,
            hand: Array.from(section.querySelectorAll('#hand tr[data-card]'))
                .map(row => Number(row.dataset.card)),
        };
        """
    )


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_staff_step_through_a_finished_game_and_see_what_replay_reports(
    browser: Any, site: str, adventure: int
) -> None:
    from selenium.webdriver.common.by import By

    game = finished_game(adventure, seed=adventure + 20)
    staff_member()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {services.issue_token(user=game.creator)}")
    last = Event.objects.filter(game=game).count()

    sign_in(browser, site, "referee")
    browser.get(f"{site}/admin/games/game/{game.pk}/change/")
    assert browser.find_element(By.LINK_TEXT, f"step through {last} events")
    follow(browser, f'a[href="/admin/games/game/{game.pk}/history/"]')
    assert seq_shown(browser) == last
    assert "Staff view." in browser.find_element(By.CLASS_NAME, "staff-note").text
    _, final = replay_marks(api, game, "result", None)
    assert drawn(browser) == final == referee_marks(game, last)
    assert browser.find_element(By.ID, "result").is_displayed()
    shoot(browser, f"adventure-{adventure}-end")

    # jump to a turn: the sheets as the flip of that turn found them, as the players' replay has them
    turn = max(2, snapshots.at(game=game, seq=last).turn // 2)
    browser.find_element(By.ID, "turn-input").clear()
    browser.find_element(By.ID, "turn-input").send_keys(str(turn))
    follow(browser, "#jump-turn input[type=submit]")
    flip = Event.objects.get(game=game, kind="turn_started", turn=turn).seq
    assert seq_shown(browser) == flip
    assert f"Turn {turn} " in browser.find_element(By.TAG_NAME, "h2").text
    _, at_flip = replay_marks(api, game, "turn_started", turn)
    assert drawn(browser) == at_flip == referee_marks(game, flip)
    shoot(browser, f"adventure-{adventure}-turn-{turn}")
    if adventure == BATTLE:  # each sheet's two sides apart: their owners, who plays it now
        shown = panels(browser)
        assert shown == expected_panels(game, flip)
        assert all(sides["S" if turn % 2 else "N"]["active"] == "true" for sides in shown)
        shoot_one(browser, "figure.sheet-figure", f"adventure-{adventure}-turn-{turn}-sheet-0")

    # step forward and back, event by event
    for expected in (flip + 1, flip + 2, flip + 3):
        follow(browser, "#nav-next")
        assert seq_shown(browser) == expected
        assert drawn(browser) == referee_marks(game, expected)
        if adventure == BATTLE:
            assert panels(browser) == expected_panels(game, expected)
    for expected in (flip + 2, flip + 1):
        follow(browser, "#nav-previous")
        assert seq_shown(browser) == expected
        assert drawn(browser) == referee_marks(game, expected)
    line = browser.find_element(By.ID, "current-event").text
    assert re.match(rf"Event {flip + 1} of {last}: turn {turn}, seat \d ", line), line

    # a link per event, then the ends
    follow(browser, f"#e{flip - 1} a")
    assert seq_shown(browser) == flip - 1
    follow(browser, "#nav-first")
    assert seq_shown(browser) == 1
    assert drawn(browser) == referee_marks(game, 1)
    follow(browser, "#nav-last")
    assert seq_shown(browser) == last


@pytest.mark.parametrize("adventure", [1, 5, BATTLE])
def test_staff_step_through_a_solo_game_and_see_astra_as_the_players_replay_has_it(
    browser: Any, site: str, adventure: int
) -> None:
    from selenium.webdriver.common.by import By

    game = finished_game(adventure, players=1, astra_level=4, seed=adventure + 30)
    staff_member()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {services.issue_token(user=game.creator)}")
    last = Event.objects.filter(game=game).count()

    sign_in(browser, site, "referee")
    browser.get(f"{site}/admin/games/game/{game.pk}/history/")
    assert seq_shown(browser) == last
    _, final = replay_at(api, game, "result", None)
    assert drawn(browser) == [as_text(sheet["marks"]) for sheet in final["sheets"]]
    result = final["game"]["result"]
    assert browser.find_element(By.ID, "result-astra").text.split()[-1] == str(result["astra"]["total"])
    assert astra_shown(browser)["score"] == final["game"]["astra"]["score"] == result["astra"]["total"]
    shoot(browser, f"solo-adventure-{adventure}-end")

    # a turn's flip: ASTRA and the hand as the player's replay has them
    turn = max(2, snapshots.at(game=game, seq=last).turn // 2)
    browser.find_element(By.ID, "turn-input").clear()
    browser.find_element(By.ID, "turn-input").send_keys(str(turn))
    follow(browser, "#jump-turn input[type=submit]")
    flip = Event.objects.get(game=game, kind="turn_started", turn=turn).seq
    assert seq_shown(browser) == flip
    _, replay = replay_at(api, game, "turn_started", turn)
    seen = replay["game"]["astra"]
    assert astra_shown(browser) == {
        "score": seen["score"], "pass": seen["pass"], "bonuses": seen["bonuses"], "pile": seen["pile"],
        "hand": [card["card"] for card in replay["game"]["hand"]],
    }
    assert len(astra_shown(browser)["hand"]) == 3
    assert drawn(browser) == [as_text(sheet["marks"]) for sheet in replay["sheets"]]
    shoot(browser, f"solo-adventure-{adventure}-turn-{turn}")
    shoot_one(browser, "#astra", f"solo-adventure-{adventure}-turn-{turn}-astra")
    if adventure == BATTLE:  # ASTRA owns side N of both sheets; the player plays S of one a round
        shown = panels(browser)
        assert shown == expected_panels(game, flip)
        assert [{side: sides[side]["owner"] for side in sides} for sides in shown] == [
            {"N": "ASTRA", "S": f"seat 0 ({game.creator.username})"}
        ] * 2
        played = ["true", "false"] if turn % 2 else ["false", "true"]
        assert [sides["S"]["active"] for sides in shown] == played
        shoot_one(browser, "figure.sheet-figure", f"solo-adventure-{adventure}-turn-{turn}-sheet-0")

    # ASTRA's part of that turn, event by event, in words
    took = Event.objects.filter(game=game, kind="astra_took", turn=turn).first()
    assert took is not None
    follow(browser, f"#e{took.seq} a")
    assert seq_shown(browser) == took.seq
    line = browser.find_element(By.ID, "current-event").text
    card = took.data["card"]
    assert re.match(rf"Event {took.seq} of {last}: turn {turn}: (ASTRA took card|card) {card} ", line), line
    follow(browser, "#nav-next")
    assert seq_shown(browser) == took.seq + 1
    assert drawn(browser) == referee_marks(game, took.seq + 1)
    follow(browser, "#nav-previous")
    assert seq_shown(browser) == took.seq
    referee = engine.referee_astra(snapshots.at(game=game, seq=took.seq))
    assert referee is not None and astra_shown(browser)["pile"] == referee["pile"]


def test_a_player_who_is_not_staff_gets_the_login_page(browser: Any, site: str) -> None:
    from selenium.webdriver.common.by import By

    game = finished_game(1, names=("ann", "ben"))
    ann = User.objects.get(username="ann")
    ann.set_password(PASSWORD)
    ann.save()
    sign_in(browser, site, "ann")  # the admin refuses a player's sign-in: not a staff account
    assert "staff account" in browser.find_element(By.CLASS_NAME, "errornote").text
    browser.get(f"{site}/admin/games/game/{game.pk}/history/?seq=10")
    assert browser.current_url.startswith(f"{site}/admin/login/?next=")
    assert browser.find_elements(By.ID, "login-form")
    assert not browser.find_elements(By.CSS_SELECTOR, "svg.sheet")
    shoot(browser, "not-staff-login")
