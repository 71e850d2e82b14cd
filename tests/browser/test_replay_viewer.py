"""The replay viewer in a real browser: staff sign in to the admin, open a finished game of each
playable adventure, step forward and back, jump to a turn, and find on every drawn sheet the
marks the API's `/replay?seq=` gives the game's players for that moment. Players who are not
staff get the admin's login page instead. Screenshots of each sheet page go to var/browser/."""

import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.test import APIClient

from games import services, snapshots
from games.models import Event, Game
from games.rules import engine
from games.rules.adventures import PLAYABLE
from tests.browser.conftest import SHOTS
from tests.games.histories import finished_game

pytestmark = [pytest.mark.browser]
PASSWORD = "lunar-referee-42"


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
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.wait import WebDriverWait

    page = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, css).click()
    WebDriverWait(browser, 30).until(expected_conditions.staleness_of(page))
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
    return position, [as_text(sheet["marks"]) for sheet in replay.json()["sheets"]]


def shoot(browser: Any, name: str) -> None:
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1500, min(max(int(height), 900), 6000))
    browser.save_screenshot(str(SHOTS / f"{name}.png"))
    browser.set_window_size(1500, 1200)


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

    # step forward and back, event by event
    for expected in (flip + 1, flip + 2, flip + 3):
        follow(browser, "#nav-next")
        assert seq_shown(browser) == expected
        assert drawn(browser) == referee_marks(game, expected)
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
