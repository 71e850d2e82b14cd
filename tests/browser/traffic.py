"""What a page received from the API, read from Chromium's performance log (the DevTools
protocol's Network events, `goog:loggingPrefs` {"performance": "ALL"}), and a witness that asks
the API the same questions with the same player's token after every click, so a test can assert
that the page received nothing the API would not show that player.

A page's answer is compared with the witness's answers to the same URL in the states the game
went through (the game moves only by the test's clicks and the workers it waits for): a page
that received another seat's unconfirmed pick, or anything else hidden from its player, holds an
answer no state of the API gave that player. Stream messages are compared with the player's
feed (GET /events) and, for `decision` messages, with the decisions witnessed.
"""

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tests.live import Client

API = "/api/v1"


@dataclass
class Traffic:
    """Every GET answer of /api/ a page received (its path and body) and every stream message
    (its event name, id and data), read from the driver's performance log as it grows."""

    driver: Any
    answers: list[tuple[str, str]] = field(default_factory=list)
    messages: list[tuple[str, int | None, str]] = field(default_factory=list)
    _requests: dict[str, str] = field(default_factory=dict)  # requestId: the path of a GET
    _finished: set[str] = field(default_factory=set)

    def skip(self) -> "Traffic":
        """Forget what the page received so far (the log is read from here on)."""
        self.driver.get_log("performance")
        return self

    def read(self) -> None:
        """Read the log written since the last call; fetch the body of each finished answer."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message["method"], message.get("params", {})
            if method == "Network.requestWillBeSent":
                request = params["request"]
                url = urlsplit(request["url"])
                read = request["method"] == "GET" and url.path.startswith(API)
                if read and not url.path.endswith("/stream"):
                    path = url.path[len(API) :] + (f"?{url.query}" if url.query else "")
                    self._requests[params["requestId"]] = path
            elif method == "Network.responseReceived" and params["requestId"] in self._requests:
                if params["response"]["status"] != 200:
                    self._requests.pop(params["requestId"])
            elif method == "Network.loadingFinished" and params["requestId"] in self._requests:
                path = self._requests.pop(params["requestId"])
                body = self.driver.execute_cdp_cmd(
                    "Network.getResponseBody", {"requestId": params["requestId"]}
                )
                self.answers.append((path, body["body"]))
            elif method == "Network.eventSourceMessageReceived":
                seq = int(params["eventId"]) if params.get("eventId") else None
                self.messages.append((params["eventName"], seq, params["data"]))


@dataclass
class Witness:
    """The API's answers to one player (its own token) for the paths its page asked, in every
    state the test saw the game in."""

    client: Client
    traffic: Traffic
    seen: dict[str, list[str]] = field(default_factory=dict)
    # the feed's events as read at each look (an event's data may show more once its phase is
    # over, e.g. the missions offered to the other seats), from the turn before the last read on
    feed: dict[int, list[Any]] = field(default_factory=dict)
    _feed_after: int = 0

    def look(self, *paths: str) -> None:
        """Ask the API now for each path the page has asked so far (and ``paths``)."""
        self.traffic.read()
        wanted = {path for path, _ in self.traffic.answers} | set(paths)
        game = self._decision_path().removesuffix("/decision")
        if game and wanted <= self.seen.keys():
            # what a player sees moves with the game as it shows it to them (its feed's end,
            # the seats confirmed, the status): when that answer is the last one, so are the
            # others (were it not so, the page's answers would not be found: the check fails)
            detail = self._ask(game)
            if self.seen[game][-1] == detail:
                return
            self.seen[game].append(detail)
        for path in sorted(wanted):
            answers = self.seen.setdefault(path, [])
            text = self._ask(path)
            if text not in answers:
                answers.append(text)
        self._read_feed()

    def _ask(self, path: str) -> str:
        import urllib.request

        request = urllib.request.Request(self.client.base + API + path)
        request.add_header("Authorization", f"Token {self.client.token}")
        request.add_header("Accept", "*/*" if path.endswith(".svg") else "application/json")
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read().decode()

    def check(self) -> int:
        """Assert that every answer and message the page received is one the API gave this
        player; returns how many were checked."""
        self.look()
        checked = 0
        for path, body in self.traffic.answers:
            if path in {"/lobby", "/games"} or path.startswith("/games?"):
                continue  # lists that other players' tables change at any time
            if not any(same(body, answer) for answer in self.seen[path]):
                raise AssertionError(
                    f"the page received an answer to GET {path} the API never gave its player:\n{body[:2000]}"
                )
            checked += 1
        decisions = [json.loads(text) for text in self.seen.get(self._decision_path(), [])]
        for name, seq, data in self.traffic.messages:
            if name == "message" and seq is not None:
                assert json.loads(data) in self.feed[seq], f"stream event {seq}, not so in the feed: {data}"
            elif name == "decision":
                assert json.loads(data) in decisions, f"a decision the API never gave its player: {data}"
            checked += 1
        return checked

    def _decision_path(self) -> str:
        return next((path for path in self.seen if path.endswith("/decision")), "")

    def _read_feed(self) -> None:
        game = self._decision_path().removesuffix("/decision")
        if not game:
            return
        after: int | None = self._feed_after
        latest: list[Any] = []
        while after is not None:
            page = json.loads(self._ask(f"{game}/events?after={after}"))
            latest += page["events"]
            after = page["next"]
        for event in latest:
            versions = self.feed.setdefault(event["seq"], [])
            if event not in versions:
                versions.append(event)
        if latest:
            recent = latest[-1]["turn"] - 1
            self._feed_after = next(event["seq"] for event in latest if event["turn"] >= recent) - 1


def same(body: str, answer: str) -> bool:
    """Two answers are the same: equal JSON, or equal text for a drawing."""
    try:
        return bool(json.loads(body) == json.loads(answer))
    except ValueError:
        return body == answer
