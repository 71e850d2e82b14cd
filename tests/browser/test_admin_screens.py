"""The admin as a game-night referee sees it, at 1280 and 1920 px: the games list fits the
window, a game's page opens on its result and players and pages its events, and the replay
viewer of a 6-player game and of a Battle puts the sheets side by side, filters its event list
and draws no label over another. Screenshots of each page at each width go to var/browser/
(``admin-<page>-<width>.png``)."""

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Event, Game
from tests.browser.conftest import SHOTS
from tests.browser.test_replay_viewer import PASSWORD, follow, sign_in
from tests.games.histories import finished_game

pytestmark = [pytest.mark.browser]
WIDTHS = (1280, 1920)
SIX_PLAYERS = 6  # The Virus, whose sheets carry the most labels
BATTLE = 8


@pytest.fixture
def site(live_server: Any, emptied_log: None) -> str:
    return str(live_server.url)


@pytest.fixture
def games() -> dict[str, Game]:
    """A 6-player Virus game, a 5-player Battle with a bot seat, a solo game, a 3-player Launch
    (the captions under its rocket spaces), and a few more so that the games list has rows of
    every kind."""
    made = {
        "six": finished_game(SIX_PLAYERS, players=6, seed=5),
        "battle": finished_game(BATTLE, players=5, seed=6, bot_seats=(4,)),
        "solo": finished_game(3, players=1, seed=7, astra_level=6),
        "launch": finished_game(1, players=3, seed=8),
    }
    for adventure in (2, 4):
        finished_game(adventure, players=3, seed=adventure)
    User.objects.create_superuser("referee", password=PASSWORD)
    return made


def at_width(browser: Any, width: int, url: str) -> None:
    browser.set_window_size(width, 1000)
    browser.get(url)


def shoot(browser: Any, name: str, width: int) -> None:
    """The whole page at this width (its height, up to 6000 px)."""
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(width, min(max(int(height), 900), 6000))
    browser.save_screenshot(str(SHOTS / f"admin-{name}-{width}.png"))
    browser.set_window_size(width, 1000)


def overflow(browser: Any) -> int:
    """How many pixels the page is wider than the window (0: it fits)."""
    return int(browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    ))


def overlapping_labels(browser: Any) -> list[str]:
    """The texts of the drawn sheets that overlap another text of the same sheet."""
    return browser.execute_script(
        """
        const found = [];
        document.querySelectorAll('figure.sheet-figure svg.sheet').forEach(svg => {
            const boxes = Array.from(svg.querySelectorAll('text'))
                .filter(text => text.textContent.trim())
                .map(text => [text, text.getBoundingClientRect()]);
            boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
                const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
                const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
                if (x > 2 && y > 2) found.push(a.textContent + ' / ' + b.textContent);
            }));
        });
        return found;
        """
    )


def sheets_per_row(browser: Any) -> int:
    """How many drawn sheets stand on the first row."""
    return int(browser.execute_script(
        """
        const tops = Array.from(document.querySelectorAll('figure.sheet-figure'))
            .map(figure => Math.round(figure.getBoundingClientRect().top));
        return tops.filter(top => top === tops[0]).length;
        """
    ))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_games_list_fits_the_window_and_names_the_adventures(
    browser: Any, site: str, games: dict[str, Game], width: int
) -> None:
    from selenium.webdriver.common.by import By

    sign_in(browser, site, "referee")
    at_width(browser, width, f"{site}/admin/games/game/")
    shoot(browser, "games-list", width)
    assert overflow(browser) == 0
    clipped = "const r = document.querySelector('#changelist .results'); return r.scrollWidth - r.clientWidth"
    assert browser.execute_script(clipped) == 0  # no column hidden behind a scroll bar
    text = browser.find_element(By.ID, "changelist").text
    assert "The Virus" in text and "The Battle" in text
    filters = browser.find_element(By.ID, "changelist-filter").text
    assert "The Launch" in filters and "The Battle" in filters
    actions = [option.text for option in browser.find_elements(By.CSS_SELECTOR, "select[name=action] option")]
    assert not any("Delete" in action for action in actions), actions


@pytest.mark.parametrize("width", WIDTHS)
def test_a_game_s_page_opens_on_its_result_and_pages_its_events(
    browser: Any, site: str, games: dict[str, Game], width: int
) -> None:
    from selenium.webdriver.common.by import By

    game = games["six"]
    sign_in(browser, site, "referee")
    at_width(browser, width, f"{site}/admin/games/game/{game.pk}/change/")
    assert overflow(browser) == 0
    result = browser.find_element(By.ID, "game-result")
    assert result.location["y"] < 600  # at the top, before the seats and the events
    assert "ann" in result.text and "fay" in result.text and "winner" in result.text
    assert int(browser.execute_script("return document.documentElement.scrollHeight")) < 3000
    events = Event.objects.filter(game=game).count()
    assert browser.find_element(By.PARTIAL_LINK_TEXT, f"all {events} events")
    shoot(browser, "game-page", width)
    follow(browser, "#game-events a.events-list")
    assert f"{events} events" in browser.find_element(By.CSS_SELECTOR, "#event-log .event-count").text
    assert overflow(browser) == 0
    shoot(browser, "event-log", width)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("which", ["six", "battle", "solo", "launch"])
def test_the_viewer_puts_sheets_side_by_side_and_filters_its_events(
    browser: Any, site: str, games: dict[str, Game], width: int, which: str
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.select import Select

    game = games[which]
    sign_in(browser, site, "referee")
    flip = Event.objects.filter(game=game, kind="turn_started").order_by("seq")[3].seq
    at_width(browser, width, f"{site}/admin/games/game/{game.pk}/history/?seq={flip + 1}")
    shoot(browser, f"viewer-{which}", width)
    assert overflow(browser) == 0
    assert overlapping_labels(browser) == []
    if which != "solo":  # at full size at 1280 px, three across at 1920
        assert sheets_per_row(browser) == (1 if width < 1440 else 3)

    listed = browser.find_elements(By.CSS_SELECTOR, "#events li")
    search = browser.find_element(By.ID, "event-search")
    search.send_keys("confirmed")
    shown = [item for item in listed if item.is_displayed()]
    assert shown and len(shown) < len(listed)
    assert all("confirmed" in item.text.lower() for item in shown)
    search.clear()
    search.send_keys(" ")  # an input event: the filter runs again, with no words
    seat = "0" if which == "solo" else "1"
    Select(browser.find_element(By.ID, "event-seat")).select_by_value(seat)
    shown = [item for item in listed if item.is_displayed()]
    assert shown and all(item.get_attribute("data-seat") == seat for item in shown)
    browser.find_element(By.ID, "event-turn").send_keys("3")
    shown = [item for item in listed if item.is_displayed()]
    assert shown and all(
        (item.get_attribute("data-seat"), item.get_attribute("data-turn")) == (seat, "3") for item in shown
    )
