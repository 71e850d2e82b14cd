"""The web table (/play/) in real browsers, served by the ASGI web process as `make run` serves
it: two players, each in a Chromium of their own (one at a desktop's width, one at a phone's),
register, open a game of The Launch, join it by its invite link, and play it to its result by
clicking, each time the first highlighted space of their sheet or the first option button,
then Confirm, then replay it step by step. Everything the pages received from the API is checked
against what the API shows that player (tests/browser/traffic.py), and screenshots of each page
at both widths go to var/browser/. A player and a bot play a campaign's first chapter and its
card choices; a player plays a whole Battle against ASTRA."""

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from tests.browser.conftest import SHOTS, chromium
from tests.browser.traffic import Traffic, Witness
from tests.live import Client, asgi_server, embedded_site

pytestmark = [pytest.mark.browser]
PASSWORD = "lunar-table-42"
PHONE = (390, 844)
DESKTOP = (1280, 900)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("web-table")
    with asgi_server(embedded_site(folder), folder / "web.log") as url:
        yield url


def wait(driver: Any, until: Callable[[Any], Any], what: str, seconds: float = 30) -> Any:
    from selenium.webdriver.support.wait import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.1).until(until, f"waited for {what}")


def shown(css: str) -> Callable[[Any], Any]:
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    def found(driver: Any) -> Any:
        try:
            elements = [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]
        except WebDriverException:
            return False
        return elements[0] if elements else False

    return found


def text_of(driver: Any, css: str, *, holding: str) -> str:
    """The text of the first shown element matching ``css`` once it holds ``holding``, read again
    when a stream message redraws the page under the read."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.common.by import By

    def read(driver: Any) -> str | bool:
        try:
            texts = [e.text for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]
        except WebDriverException:
            return False
        return next((text for text in texts if holding in text), False)

    return str(wait(driver, read, f"{css} holding {holding!r}"))


def click(driver: Any, css: str) -> None:
    """Click the element once shown; again if the page was redrawn under the click (the stream
    may redraw it at any time)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def clicked(_: Any) -> bool:
        element = shown(css)(driver)
        if not element:
            return False
        try:
            element.click()
        except StaleElementReferenceException:
            return False
        return True

    wait(driver, clicked, css)


def shoot(driver: Any, name: str) -> None:
    driver.save_screenshot(str(SHOTS / f"play-{name}.png"))


def register(driver: Any, username: str) -> None:
    from selenium.webdriver.common.by import By

    wait(driver, shown("input[name=username]"), "the sign-in form").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    driver.find_element(By.ID, "register").click()


def token_of(driver: Any) -> str:
    return str(driver.execute_script("return localStorage.getItem('moon.token')"))


def play_a_step(driver: Any) -> str:
    """One click of the player whose decision asks for one (its kind, or "wait"): the first
    highlighted space (and the first of its options when several apply), else the first
    option button, else Confirm. Waits for the page to be drawn again after it."""
    from selenium.common.exceptions import ElementClickInterceptedException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.expected_conditions import staleness_of

    try:
        wait(driver, lambda _: not driver.find_elements(By.CSS_SELECTOR, "main.busy"), "the last move drawn")
        decision = driver.find_element(By.ID, "decision")
        kind = decision.get_attribute("data-kind")
        if kind == "wait":
            return kind
        cells = driver.find_elements(By.CSS_SELECTOR, "figure g.cell.choosable")
        buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button.option")
        confirm = driver.find_elements(By.ID, "confirm")
        if cells:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cells[0])
            try:
                cells[0].click()
            except ElementClickInterceptedException:
                # a small element under a neighbour's drawing (The Battle's sheets are dense):
                # chosen with the keyboard, as the page also allows (focus, Enter)
                cells[0].send_keys(Keys.ENTER)
            choices = driver.find_elements(By.CSS_SELECTOR, "#chooser:not([hidden]) button.option")
            if choices:
                choices[0].click()
        elif buttons:
            buttons[0].click()
        elif confirm:
            confirm[0].click()
        else:
            return "nothing"
        wait(driver, staleness_of(decision), "a redraw")
        return str(kind)
    except WebDriverException:
        return "redrawn"  # the stream redrew the page under the click: look again


def drawn_sheets_match_the_api(driver: Any, server: str, game_id: int) -> None:
    """What the page drew is what the API shows this player: each of its sheets' marks, once the
    page has caught up (in a game against ASTRA, ASTRA's worker may mark between the page's
    drawing and the API's answer; the stream then brings the page the same)."""
    from selenium.common.exceptions import TimeoutException

    client = Client(server, token_of(driver))
    last: dict[str, Any] = {}

    def caught_up(_: Any) -> bool:
        drawn = driver.execute_script(
            """
            const drawn = {};
            document.querySelectorAll('figure.sheet-figure').forEach(figure => {
                const marks = {};
                figure.querySelectorAll('g.cell[data-mark]').forEach(
                    cell => { marks[cell.dataset.element] = cell.dataset.mark; });
                drawn[figure.dataset.sheet] = marks;
            });
            return drawn;
            """
        )
        listed = {
            sheet: {
                element: str(mark)
                for element, mark in client.get(f"/games/{game_id}/sheets/{sheet}")["marks"].items()
            }
            for sheet in drawn
        }
        last.update(drawn=drawn, listed=listed)
        return bool(drawn) and drawn == listed

    try:
        wait(driver, caught_up, "the page to draw what the API shows", seconds=10)
    except TimeoutException:
        assert last["drawn"], "a sheet is drawn"
        assert last["drawn"] == last["listed"]


def play_to_the_end(
    drivers: list[Any],
    midway: Callable[[], None],
    witnesses: Sequence[Witness] = (),
    seconds: float = 300,
) -> None:
    """Each player clicks in turn until every page shows the result; ``midway`` runs once, on
    the third turn. After each click the ``witnesses`` ask the API what each page asked."""
    turns: set[str] = set()
    started = time.monotonic()
    while not all(driver.find_elements("id", "result") for driver in drivers):
        if time.monotonic() - started > seconds:
            pages = [driver.find_element("id", "actions").text for driver in drivers]
            pytest.fail(f"no result after {seconds} s of clicks; the pages ask: {pages}")
        kinds = []
        for driver in drivers:
            kinds.append(play_a_step(driver))
            if kinds[-1] != "wait":
                for witness in witnesses:
                    witness.look()
        turn = drivers[0].execute_script("return document.getElementById('turn')?.textContent || ''")
        if turn not in turns:
            turns.add(turn)
            if len(turns) == 3:
                midway()
        if all(kind == "wait" for kind in kinds):  # the stream brings the next turn
            wait(drivers[0], lambda _: any(d.find_elements("css selector", NEXT) for d in drivers), "a turn")
    print(f"\n[web table] {len(turns)} turns played by clicking in {time.monotonic() - started:.0f} s")


# What the page shows once a seat has something to do again, or the game is over.
NEXT = "#result, #decision:not([data-kind=wait])"


def test_two_players_play_a_whole_game_of_the_launch_by_clicking(server: str) -> None:
    with chromium() as ann, chromium() as ben:
        ann.set_window_size(*DESKTOP)
        ben.set_window_size(*PHONE)
        ann.get(f"{server}/")  # the root leads to the web table
        wait(ann, lambda d: "/play/" in d.current_url, "the web table")
        shoot(ann, "sign-in-desktop")
        register(ann, "ann")
        wait(ann, shown("#create-game"), "the lobby")
        shoot(ann, "lobby-desktop")
        click(ann, "#create-game")  # The Launch, two seats: the form's defaults
        link = wait(ann, shown("#invite-link"), "the waiting room").get_attribute("value")
        shoot(ann, "waiting-room-desktop")
        game_id = int(link.split("#/join/")[1].split("/")[0])

        ben.get(link)
        wait(ben, shown("input[name=username]"), "the sign-in form")
        shoot(ben, "sign-in-phone")
        register(ben, "ben")  # then the invite link joins him
        wait(ben, shown("#start"), "the waiting room")
        shoot(ben, "waiting-room-phone")
        text_of(ann, ".lobby-table .seats", holding="ben")  # Ann's waiting room sees him come, unreloaded
        click(ann, "#start")
        wait(ben, shown("figure.sheet-figure g.cell.choosable"), "Ben's table, redrawn by the stream")
        wait(ann, shown("figure.sheet-figure g.cell.choosable"), "Ann's table")
        # from here on, what each page receives is checked (its sign-in and lobby are not)
        witnesses = [Witness(Client(server, token_of(d)), Traffic(d).skip()) for d in (ann, ben)]
        for witness in witnesses:
            witness.look(f"/games/{game_id}", f"/games/{game_id}/decision")
        shoot(ben, "table-phone")
        shoot(ann, "table-desktop")

        def midway() -> None:
            # Ann unfolds Ben's sheet: drawn again with each redraw from then on, as the API
            # shows it to her (the witnesses check it: never Ben's moves of the turn in play)
            click(ann, "#other-sheets details summary")
            wait(ann, shown("#other-sheets details[open] svg"), "Ben's sheet")
            drawn_sheets_match_the_api(ann, server, game_id)
            drawn_sheets_match_the_api(ben, server, game_id)
            shoot(ann, "mid-game-desktop")
            shoot(ben, "mid-game-phone")

        play_to_the_end([ann, ben], midway, witnesses)

        for driver, name in ((ann, "desktop"), (ben, "phone")):
            result = wait(driver, shown("#result"), "the result")
            driver.execute_script("arguments[0].scrollIntoView()", result)
            shoot(driver, f"result-{name}")
            assert "ben" in text_of(driver, "#result", holding="ann")
            drawn_sheets_match_the_api(driver, server, game_id)
        finished = Client(server, token_of(ann)).get(f"/games/{game_id}")
        assert finished["status"] == "finished"
        shown_total = {score["seat"]: score["total"] for score in finished["result"]["scores"]}
        text_of(ann, "#result", holding=f"ann: {shown_total[0]}")
        # Ben replays the game from his feed, step by step, from its result
        click(ben, "#replay-link")
        step = wait(ben, shown("#replay-step"), "the replay")
        assert step.get_attribute("data-step") == "1"
        shoot(ben, "replay-phone")
        for button, expected in (("next", 2), ("next", 3), ("previous", 2)):
            click(ben, f"#replay-{button}")
            wait(ben, shown(f"#replay-step[data-step='{expected}']"), f"step {expected}")
        assert ben.find_elements("css selector", "figure.sheet-figure svg"), "the sheet at that step"
        click(ben, "#replay-last")
        wait(ben, shown("#replay-step:not([data-step='2'])"), "the last step")
        drawn_sheets_match_the_api(ben, server, game_id)  # the last step: the sheet as it ended
        click(ann, "#replay-link")
        wait(ann, shown("#replay-step"), "Ann's replay")
        click(ann, "#replay-next")
        wait(ann, shown("#replay-step[data-step='2']"), "step 2")
        shoot(ann, "replay-desktop")
        for witness in witnesses:  # what each page received is what the API showed its player
            checked = witness.check()
            assert checked > 100, f"only {checked} answers and messages read"
            print(f"[web table] {checked} answers and stream messages checked against the API")


def test_one_player_plays_a_whole_battle_against_astra_by_clicking(server: str) -> None:
    from selenium.webdriver.support.select import Select

    with chromium() as cy:
        cy.set_window_size(*DESKTOP)
        cy.get(f"{server}/play/")
        register(cy, "cy")
        Select(wait(cy, shown("select[name=adventure]"), "the lobby")).select_by_value("8")
        Select(cy.find_element("name", "seats")).select_by_value("1")
        Select(wait(cy, shown("select[name=astra_level]"), "ASTRA's level")).select_by_value("2")
        click(cy, "#create-game")
        click(cy, "#start")
        wait(cy, shown("figure.sheet-figure svg"), "the table")
        assert len(cy.find_elements("css selector", "figure.sheet-figure")) == 2, "both shared sheets"
        assert len(cy.find_elements("css selector", "figure.sheet-figure.playing")) == 1, "the side played"
        text_of(cy, ".astra", holding="ASTRA")
        shoot(cy, "battle-solo-desktop")
        game_id = int(cy.current_url.rsplit("/", 1)[1])

        def midway() -> None:
            drawn_sheets_match_the_api(cy, server, game_id)
            cy.set_window_size(*PHONE)
            shoot(cy, "battle-solo-phone")
            cy.set_window_size(*DESKTOP)

        # (no traffic check here: ASTRA plays in a worker, so states come and go between the
        # test's clicks; the Launch game between two players checks what pages receive)
        play_to_the_end([cy], midway)
        text_of(cy, "#result", holding="ASTRA")
        cy.execute_script("arguments[0].scrollIntoView()", wait(cy, shown("#result"), "the result"))
        shoot(cy, "battle-solo-result-desktop")
        drawn_sheets_match_the_api(cy, server, game_id)


def test_a_player_and_a_bot_play_a_campaigns_first_chapter_and_its_card_choices(server: str) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    with chromium() as dee:
        dee.set_window_size(*DESKTOP)
        dee.get(f"{server}/play/")
        register(dee, "dee")
        wait(dee, shown("#create-campaign"), "the lobby")
        click(dee, "#create-campaign")  # two seats, one of them a bot: the form's defaults
        wait(dee, shown("#invite-link"), "the campaign's waiting room")
        shoot(dee, "campaign-waiting-room-desktop")
        click(dee, "#start")
        click(dee, "#play-chapter")
        wait(dee, shown("figure.sheet-figure svg"), "chapter 1's table")
        game_id = int(dee.current_url.split("#/game/")[1].split("/")[0])
        started = time.monotonic()
        while not dee.find_elements(By.ID, "result"):
            assert time.monotonic() - started < 300, "chapter 1 not over in 5 minutes"
            if play_a_step(dee) == "wait":  # the bot plays (a worker): the stream redraws
                wait(dee, shown("#result, #decision:not([data-kind=wait])"), "the bot's move", 60)
        drawn_sheets_match_the_api(dee, server, game_id)
        click(dee, "#campaign-link")
        # the captain keeps the result, then each card choice: the first option each time
        choices: list[str] = []
        effects: list[str] = []
        while True:
            later = "#campaign-decision .option, #play-chapter[data-chapter='2']"
            wait(dee, shown(later), "a choice, or chapter 2", 60)
            try:
                options = dee.find_elements(By.CSS_SELECTOR, "#campaign-decision .option")
                if not options:
                    break
                if not choices:
                    dee.execute_script("window.scrollTo(0, 0)")
                    shoot(dee, "campaign-choice-desktop")
                choice = options[0].text
                if choice.startswith("Choose the card"):  # what each card does, in words
                    shown_effects = dee.find_elements(By.CSS_SELECTOR, "#campaign-decision .effects li")
                    effects += [effect.text for effect in shown_effects]
                decision = dee.find_element(By.CSS_SELECTOR, "#campaign-decision .decision")
                options[0].click()
            except StaleElementReferenceException:
                continue  # the stream redrew the page under the click: look again
            choices.append(choice)
            wait(dee, staleness(decision), "the campaign redrawn")
        # the captain (the bot or the player) keeps the result; the player chooses a card
        assert any(choice.startswith("Choose the card") for choice in choices), choices
        assert effects and all(effects), effects
        campaign_id = dee.current_url.split("#/campaign/")[1]
        campaign = Client(server, token_of(dee)).get(f"/campaigns/{campaign_id}")
        assert campaign["chapter"] == 2 and campaign["cards"], campaign
        text_of(dee, "aside .seats", holding="★")
        text_of(dee, "#cards", holding=campaign["cards"][0]["title"])
        text_of(dee, "#chapters", holding="Attempt 1")
        shoot(dee, "campaign-desktop")
        dee.set_window_size(*PHONE)
        shoot(dee, "campaign-phone")
        click(dee, "a[href='#/lobby']")
        wait(dee, shown("#create-campaign"), "the lobby")
        shoot(dee, "lobby-phone")


def staleness(element: Any) -> Callable[[Any], Any]:
    from selenium.webdriver.support.expected_conditions import staleness_of

    return staleness_of(element)
