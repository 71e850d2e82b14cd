"""Open event streams on one web process: what they cost, and how fast a confirm reaches them.

    .venv/bin/python -m bench.streams    # a fresh SQLite file, in-process notifications
    make bench-streams                   # PostgreSQL + Redis (deploy/services.sh)

Starts one web process as production runs it (gunicorn, one uvicorn worker, moon.asgi) on the
database of the environment (a fresh SQLite file under var/ when DATABASE_URL is unset). Users,
tokens and 3-player games are made directly in the database; then the bench plays "probe"
games over HTTP (moves and confirms, first option each time) three times: with no stream open,
with 100 and with 1,000 streams open on the process (every seat of every game, the probe games'
among them). It prints, for each: the process's RSS and the memory per open stream, the share of
a CPU the process uses with no command running (the open streams' own cost), p50/p99 of the move
path (POST /moves and /confirm) and the process's CPU time per command (what a commit's fan-out
to the streams adds, unlike latencies, hardly moved by the rest of the machine's load), and
p50/p99 of the delay from a confirm's answer to
its `confirmed` event on the streams of both other seats of its game (the later of the two).
"""

import argparse
import asyncio
import http.client
import json
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEATS = 3
# How long the web process's CPU is watched with no command running, before each phase.
IDLE_SECONDS = 10


@dataclass
class Arrivals:
    """When each probe stream received each seat's `confirmed` event: (game, viewer, seat,
    turn) -> perf_counter time, shared by the stream readers (event loop) and the driver."""

    times: dict[tuple[int, int, int, int], float] = field(default_factory=dict)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def record(self, key: tuple[int, int, int, int]) -> None:
        with self.changed:
            self.times.setdefault(key, time.perf_counter())
            self.changed.notify_all()

    def wait(self, keys: list[tuple[int, int, int, int]], timeout: float = 30) -> list[float]:
        with self.changed:
            if not self.changed.wait_for(lambda: all(key in self.times for key in keys), timeout):
                raise RuntimeError(f"a stream did not receive {keys} in {timeout} s")
            return [self.times[key] for key in keys]


class Http:
    """A keep-alive JSON client for one player; records how long each command took."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body)
        try:
            self.connection.request(method, "/api/v1" + path, body=data, headers=self.headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            # the server closed the idle keep-alive connection: once more on a new one
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.connection.request(method, "/api/v1" + path, body=data, headers=self.headers)
            response = self.connection.getresponse()
        answer = json.loads(response.read() or b"null")
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {answer}")
        return answer


async def follow(
    port: int, token: str, game: int, seat: int, opened: asyncio.Event, probe: bool, arrivals: Arrivals
) -> None:
    """One stream, read until cancelled; a probe stream records the `confirmed` events."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
    writer.write(
        f"GET /api/v1/games/{game}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        f"Authorization: Token {token}\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream of game {game} seat {seat}: {status!r}")
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            if line.startswith(b"event: decision"):
                opened.set()
            elif probe and line.startswith(b"data: "):
                event = json.loads(line[6:])
                if event.get("kind") == "confirmed":
                    arrivals.record((game, seat, event["seat"], event["turn"]))
    finally:
        writer.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def play_probes(
    clients: list[Http], probes: list[int], turns: int, arrivals: Arrivals, streams_open: bool
) -> tuple[list[float], list[float]]:
    """Play ``turns`` turns of each probe game, seat after seat; the move path's latencies, and
    (streams open) each confirm's delay until both other seats' streams have its event."""
    moves: list[float] = []
    delays: list[float] = []
    for _ in range(turns):
        for game in probes:
            turn = clients[0].call("GET", f"/games/{game}")["turn"]
            for seat, client in enumerate(clients):
                for _ in range(50):
                    decision = client.call("GET", f"/games/{game}/decision")
                    if not decision["options"]:
                        break
                    started = time.perf_counter()
                    client.call("POST", f"/games/{game}/moves", {"choice": decision["options"][0]})
                    moves.append(time.perf_counter() - started)
                if not decision["can_confirm"]:
                    continue
                started = time.perf_counter()
                client.call("POST", f"/games/{game}/confirm")
                answered = time.perf_counter()
                moves.append(answered - started)
                if streams_open:
                    others = [(game, other, seat, turn) for other in range(SEATS) if other != seat]
                    delays.append(max(arrivals.wait(others)) - answered)
    return moves, delays


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process has used so far: what the streams cost it,
    whatever else the machine runs meanwhile."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def worker_pid(master: int) -> int:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    if len(children) != 1:
        raise RuntimeError(f"expected one worker under gunicorn {master}, found {children}")
    return int(children[0])


def setup(games: int) -> tuple[list[str], list[int]]:
    """Three users with tokens and ``games`` started 3-player games of theirs."""
    import django

    django.setup()
    from django.contrib.auth.models import User

    from accounts import services as accounts
    from games import services

    stamp = time.time_ns()
    users = [User.objects.create_user(f"bench-{stamp}-{seat}") for seat in range(SEATS)]
    tokens = [accounts.issue_token(user=user) for user in users]
    made = []
    for _ in range(games):
        game = services.create_game(by=users[0], adventure=1, max_players=SEATS)
        for user in users[1:]:
            services.join_game(game=game, by=user, invite=game.invite)
        services.start_game(game=game, by=users[0])
        made.append(game.pk)
    return tokens, made


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", default="100,1000", help="open streams at each step (cumulative)")
    parser.add_argument("--probes", type=int, default=4, help="probe games played at each step")
    parser.add_argument("--turns", type=int, default=6, help="turns of each probe game at each step")
    parser.add_argument("--port", type=int, default=8798)
    args = parser.parse_args()
    steps = [int(n) for n in args.streams.split(",")]

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")
    os.environ["LOG_LEVEL"] = "WARNING"
    # the bench starts hundreds of games for three accounts: no quota
    for quota in ("OPEN_LOBBIES", "GAMES_PER_HOUR", "BOT_GAMES_PER_HOUR", "UNDOS_PER_TURN"):
        os.environ[f"QUOTA_{quota}"] = "0"
    if not os.environ.get("DATABASE_URL"):
        folder = ROOT / "var" / "bench-streams"
        folder.mkdir(parents=True, exist_ok=True)
        database = folder / "moon.sqlite3"
        for stale in folder.glob("moon.sqlite3*"):
            stale.unlink()
        os.environ["DATABASE_URL"] = f"sqlite:///{database}"
    os.environ.pop("CELERY_BROKER_URL", None)  # tasks run in the web process, as embedded
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True)
    games_needed = max(max(steps) // SEATS + 1, args.probes)
    print(f"making {games_needed} games ...", flush=True)
    tokens, games = setup(games_needed)
    probes = games[: args.probes]

    env = {
        **os.environ,
        "BIND_HOST": "127.0.0.1",
        "PORT": str(args.port),
        "WEB_CONCURRENCY": "1",
        "THROTTLE_ANON": "",
        "THROTTLE_USER": "",
    }
    command = [
        sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py",
        "--access-logfile", "/dev/null", "moon.asgi:application",
    ]  # fmt: skip
    log = (ROOT / "var" / "bench-streams-web.log").open("wb")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        for _ in range(200):
            try:
                Http(args.port, tokens[0]).call("GET", "/")
                break
            except OSError:
                time.sleep(0.1)
        asyncio.run(measure(args, steps, tokens, games, probes, worker_pid(server.pid)))
    finally:
        server.terminate()
        server.wait(30)


async def measure(
    args: argparse.Namespace,
    steps: list[int],
    tokens: list[str],
    games: list[int],
    probes: list[int],
    pid: int,
) -> None:
    arrivals = Arrivals()
    clients = [Http(args.port, token) for token in tokens]
    # every seat of the probe games first, then the other games' seats
    slots = [(game, seat) for game in games for seat in range(SEATS)]
    readers: list[asyncio.Task[None]] = []

    async def phase(name: str) -> None:
        idle = cpu_seconds(pid)
        await asyncio.sleep(IDLE_SECONDS)
        idle = (cpu_seconds(pid) - idle) / IDLE_SECONDS
        used = cpu_seconds(pid)
        moves, delays = await asyncio.to_thread(
            play_probes, clients, probes, args.turns, arrivals, streams_open=bool(readers)
        )
        used = cpu_seconds(pid) - used
        line = (
            f"{name:>18}: RSS {rss_kib(pid) / 1024:7.1f} MiB | idle CPU {idle * 100:4.1f} %"
            f" | move path p50 {percentile(moves, 0.5) * 1000:6.1f} ms"
            f" p99 {percentile(moves, 0.99) * 1000:6.1f} ms ({len(moves)} commands,"
            f" {used / len(moves) * 1000:5.1f} ms of web CPU each)"
        )
        if delays:
            line += (
                f" | confirm -> other seats' streams p50 {percentile(delays, 0.5) * 1000:6.1f} ms"
                f" p99 {percentile(delays, 0.99) * 1000:6.1f} ms ({len(delays)} confirms)"
            )
        print(line, flush=True)

    await asyncio.sleep(1)
    base = rss_kib(pid)
    await phase("no stream open")
    for count in steps:
        while len(readers) < count:
            batch = []
            for game, seat in slots[len(readers) : min(count, len(readers) + 50)]:
                opened = asyncio.Event()
                readers.append(
                    asyncio.create_task(
                        follow(args.port, tokens[seat], game, seat, opened, game in probes, arrivals)
                    )
                )
                batch.append(opened)
            await asyncio.wait_for(asyncio.gather(*(each.wait() for each in batch)), 120)
        await asyncio.sleep(2)
        per_stream = (rss_kib(pid) - base) / len(readers)
        print(f"{len(readers):>5} streams open: {per_stream:.1f} KiB of RSS per stream", flush=True)
        await phase(f"{len(readers)} streams open")
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)


if __name__ == "__main__":
    main()
