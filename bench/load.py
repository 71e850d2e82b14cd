"""Load on the production topology: many concurrent 4-player games over HTTP, loopback only.

    make bench-load                      # starts PostgreSQL + Redis (deploy/services.sh) and gunicorn
    .venv/bin/python -m bench.load --url http://127.0.0.1:8000   # against a server already running

Users and their tokens are made directly in the database (hashing hundreds of passwords would
measure the hasher); games are opened, joined and started over HTTP. Then client threads play
every game with random choices from `/decision` until turn `--turns`, and a run of trivial
authenticated GETs (`GET /api/v1/games`) is made at the same concurrency. Each user sends its
requests on a keep-alive connection of its own (``Client``).

It prints, from that one run: the median cost of `POST /moves` in the first turns and in the
last ones (and their ratio), the move path's requests/s (decision, moves, confirm) against the
trivial GET's, p50/p99 of `POST /moves`, and p50/p99 of `GET /api/v1/health` polled by one more
client (every 50 ms, as a load balancer would) while the games are played.
"""

import argparse
import http.client
import json
import os
import random
import secrets
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

PLAYERS = 4
P99_RATIO_GOAL = 3
HEALTH_P99_GOAL_MS = 50


class Client:
    """Keep-alive connections, one per user as each player's own browser keeps one, and the
    timings of what they sent. One per client thread instead pinned each thread's requests to
    the web process that accepted its connection, and the 16 connections, opened at once, were
    shared unevenly (a process's event loop accepts every pending one when it wakes: 12 and 4
    were seen): the move path's p50 was 59 ms on one process and 10 ms on the other, and the
    p99 measured that split rather than what a player waits."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        # each user's idle connection; a thread takes it out while it uses it
        self.idle: dict[str, http.client.HTTPConnection] = {}

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any, float]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        payload = None if body is None else json.dumps(body)
        for attempt in (1, 2):
            connection = self.idle.pop(token, None) or http.client.HTTPConnection(
                self.host, self.port, timeout=120
            )
            started = time.perf_counter()
            try:
                connection.request(method, path, body=payload, headers=headers)
                response = connection.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # the server closed an idle keep-alive connection before reading the request
                connection.close()
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - started
            self.idle[token] = connection
            return response.status, json.loads(raw) if raw else None, elapsed
        raise AssertionError("unreachable")


def make_tokens(count: int) -> list[str]:
    """``count`` users with API tokens, written straight to the server's database."""
    import django
    from django.apps import apps

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")
    if not apps.ready:  # set up once: again would configure logging again (bench.server drops it)
        django.setup()
    from django.contrib.auth.models import User

    from accounts.models import ClientToken
    from accounts.services import password_stamp, token_digest

    stamp = time.monotonic_ns()
    users = User.objects.bulk_create(
        [User(username=f"load-{stamp}-{index}", password="!") for index in range(count)]
    )
    keys = [secrets.token_hex(20) for _ in users]
    ClientToken.objects.bulk_create(
        ClientToken(user=user, digest=token_digest(key), password_stamp=password_stamp(user))
        for user, key in zip(users, keys, strict=True)
    )
    return keys


def open_games(client: Client, tokens: list[str], games: int, pool: ThreadPoolExecutor) -> list[int]:
    def one(index: int) -> int:
        seats = tokens[index * PLAYERS : (index + 1) * PLAYERS]
        setup = {"adventure": 1, "max_players": PLAYERS}
        status, game, _ = client.call("POST", "/api/v1/games", seats[0], setup)
        assert status == 201, game
        for token in seats[1:]:
            invite = {"invite": game["invite"]}
            assert client.call("POST", f"/api/v1/games/{game['id']}/join", token, invite)[0] == 200
        assert client.call("POST", f"/api/v1/games/{game['id']}/start", seats[0])[0] == 200
        return int(game["id"])

    return list(pool.map(one, range(games)))


def play(
    client: Client, game: int, seats: list[str], turns: int, record: Callable[[str, int, float], None]
) -> None:
    """Play one game with random choices until it reaches turn ``turns`` (or ends)."""
    rng = random.Random(game)
    base = f"/api/v1/games/{game}"
    turn = 1
    while turn <= turns:
        for token in seats:
            while True:
                _, decision, elapsed = client.call("GET", f"{base}/decision", token)
                record("decision", turn, elapsed)
                if decision["options"]:
                    status, answer, elapsed = client.call(
                        "POST", f"{base}/moves", token, {"choice": rng.choice(decision["options"])}
                    )
                    record("moves", turn, elapsed)
                elif decision["can_confirm"]:
                    status, answer, elapsed = client.call("POST", f"{base}/confirm", token)
                    record("confirm", turn, elapsed)
                else:
                    break
                assert status == 200, answer
                if answer["status"] != "playing":
                    return
        _, view, _ = client.call("GET", base, seats[0])
        turn = view["turn"]


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("MOON_LOAD_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--clients", type=int, default=16, help="concurrent client threads")
    parser.add_argument("--edge", type=int, default=3, help="turns at each end compared")
    args = parser.parse_args()

    client = Client(args.url)
    tokens = make_tokens(args.games * PLAYERS)
    timings: dict[tuple[str, int], list[float]] = defaultdict(list)
    lock = threading.Lock()

    def record(kind: str, turn: int, elapsed: float) -> None:
        with lock:
            timings[kind, turn].append(elapsed)

    health: list[float] = []
    playing = threading.Event()

    def poll_health() -> None:
        while playing.is_set():
            status, _, elapsed = client.call("GET", "/api/v1/health", "")
            assert status in (200, 503), status
            health.append(elapsed)
            time.sleep(0.05)

    with ThreadPoolExecutor(args.clients) as pool:
        games = open_games(client, tokens, args.games, pool)
        playing.set()
        poller = threading.Thread(target=poll_health)
        poller.start()
        started = time.perf_counter()
        list(
            pool.map(
                lambda index: play(
                    client, games[index], tokens[index * PLAYERS : (index + 1) * PLAYERS], args.turns, record
                ),
                range(len(games)),
            )
        )
        move_path_seconds = time.perf_counter() - started
        playing.clear()
        poller.join()
        move_path_requests = sum(len(values) for values in timings.values())

        trivial_requests = max(2000, move_path_requests // 10)
        started = time.perf_counter()
        list(pool.map(lambda index: client.call("GET", "/api/v1/games", tokens[index % len(tokens)]),
                      range(trivial_requests)))  # fmt: skip
        trivial_seconds = time.perf_counter() - started

    last_turn = max(turn for kind, turn in timings if kind == "moves")
    early = [t for turn in range(1, args.edge + 1) for t in timings["moves", turn]]
    late = [t for turn in range(last_turn - args.edge + 1, last_turn + 1) for t in timings["moves", turn]]
    moves = [t for (kind, _), values in timings.items() if kind == "moves" for t in values]
    path_rps = move_path_requests / move_path_seconds
    trivial_rps = trivial_requests / trivial_seconds
    p50, p99 = quantile(moves, 0.5), quantile(moves, 0.99)
    print(f"{args.games} games of {PLAYERS} players to turn {last_turn}, {args.clients} client threads")
    print(
        f"POST /moves median: turns 1-{args.edge} {statistics.median(early) * 1000:.1f} ms, "
        f"turns {last_turn - args.edge + 1}-{last_turn} {statistics.median(late) * 1000:.1f} ms, "
        f"ratio {statistics.median(late) / statistics.median(early):.2f} (target <= 1.3)"
    )
    print(
        f"move path {path_rps:.0f} requests/s ({move_path_requests} requests), trivial GET "
        f"{trivial_rps:.0f} requests/s: ratio {path_rps / trivial_rps:.2f} (target >= 0.60)"
    )
    print(
        f"POST /moves p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms: "
        f"ratio {p99 / p50:.1f} (goal <= {P99_RATIO_GOAL}) "
        f"{'ok' if p99 / p50 <= P99_RATIO_GOAL else 'MISSED'}"
    )
    health_p99 = quantile(health, 0.99)
    print(
        f"GET /health during the games: p50 {quantile(health, 0.5) * 1000:.1f} ms, p99 "
        f"{health_p99 * 1000:.1f} ms ({len(health)} polls) (goal <= {HEALTH_P99_GOAL_MS} ms) "
        f"{'ok' if health_p99 * 1000 <= HEALTH_P99_GOAL_MS else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
