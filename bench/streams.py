"""Open event streams on one web process: what they cost, and how fast a confirm reaches them.

    .venv/bin/python -m bench.streams    # a fresh SQLite file, in-process notifications
    make bench-streams                   # PostgreSQL + Redis (deploy/services.sh)
    .venv/bin/python -m bench.streams --rounds 8 --games 3   # longer, steadier

Starts one web process as production runs it (gunicorn, one uvicorn worker, moon.asgi) on the
database of the environment (a fresh SQLite file under var/ when DATABASE_URL is unset). Users,
tokens and 3-player games are made directly in the database; then the bench plays "probe"
games over HTTP (moves and confirms, first option each time), in phases of --games whole
games, alternately with no stream open and with --streams streams open on the process (every
seat of every game, the probe games' among them), in rounds ordered none/open, open/none,
none/open ... (so that a drift of the machine's load weighs on both alike; streams are opened
and closed between phases). Every phase plays the same deals again (``SEEDS``), so every
phase sends the same commands, as many game endings among them (a game's last confirm scores
it in the web process, the slowest command of all: how many fell in a phase set its p99 when
phases were cut from games in play). ``--split`` adds a third kind of phase between them,
with only the probe games' own streams open: what serving the games played costs, apart from
what the other games' idle streams add. ``--same`` opens no stream in any phase, every kind's
included: the comparisons it prints are what the machine's noise alone makes of phases that
differ in nothing, the yardstick for those of a run with streams. A p99 over a few hundred
commands on a shared machine is still noisy: what counts is the median over rounds, the p99 of
all of a kind's commands, and the web process's CPU time per command (what a commit's fan-out
to the streams adds, hardly moved by the rest of the machine's load). On PostgreSQL, each
phase begins once the database's upkeep is done (``VACUUM ANALYZE``), so that autovacuum's
minute does not fall on one kind of phase.

Each phase prints the process's RSS, the share of a CPU it uses with no command running (the
open streams' own cost), p50/p99 of the move path (POST /moves and /confirm) and its CPU time
per command, the clients' CPU per command (this process and the holder: on a machine of two
cores, what reading streams takes them is taken from the web process), and (streams open)
p50/p99 of the delay from a confirm's answer to its `confirmed` event on the streams of both
other seats of its game (the later of the two). The summary gives, for each kind of phase,
the median over rounds of p99, p50 and CPU per command, and the p99 of all its commands
together.

Every stream is read by a second process (``--hold``, started by the bench), the probe games'
among them: it tells this one when each `confirmed` event reached each probe stream (times of
the system's monotonic clock, which both read). Read here, the probe streams slowed the client
timing the move path (the readers and the driver sharing one interpreter lock): every command,
move or confirm, measured 0.3-0.45 ms slower with them open than with none, which the web
process did not account for.

``--profile DIR`` records each phase of the web process with py-spy (``PY_SPY``, else
``py-spy`` on the PATH) into ``DIR/<n>-none.txt`` / ``DIR/<n>-open.txt`` (py-spy's raw format:
one line per stack with its count of samples, of the thread holding the interpreter only), so
that the phases' profiles can be compared.
"""

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import queue
import random
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import uvloop

ROOT = Path(__file__).resolve().parents[1]
SEATS = 3
# Streams opened at once.
BATCH = 50
# The deals of the probe games: every phase plays these games again, whole (a game's commands
# are those of its deal, every seat playing its first options), so that its commands are those
# of every other phase, game endings included (a game's last confirm scores it in the web
# process: about five moves' work, the slowest commands of all).
SEEDS = [7919 * n + 11 for n in range(1, 100)]


def clock() -> float:
    """The system's monotonic clock, the same in every process: the holder's times of arrival
    and this process's times of answers are compared."""
    return time.clock_gettime(time.CLOCK_MONOTONIC)


@dataclass
class Arrivals:
    """When each probe stream received each seat's `confirmed` event: (game, viewer, seat,
    turn) -> ``clock()`` time, as the holder reports them (its reporter thread) to the driver."""

    times: dict[tuple[int, int, int, int], float] = field(default_factory=dict)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def record(self, key: tuple[int, int, int, int], at: float) -> None:
        with self.changed:
            self.times.setdefault(key, at)
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


# what a probe stream does with each `confirmed` event it receives: (game, viewer, seat, turn)
Arrived = Callable[[tuple[int, int, int, int]], None]


async def follow(
    port: int, token: str, game: int, seat: int, opened: asyncio.Event, arrived: Arrived | None
) -> None:
    """One stream, read until cancelled or ended; a probe stream (``arrived``) reports the
    `confirmed` events of the other seats (those the bench waits for)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**20)
    writer.write(
        f"GET /api/v1/games/{game}/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        f"Authorization: Token {token}\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream of game {game} seat {seat}: {status!r}")
    while (await reader.readline()).strip():
        pass  # the headers (the body is chunked: the stream's length is not known)
    try:
        async for lines in chunked_lines(reader):
            if not opened.is_set() and b"event: decision" in lines:
                opened.set()
            # the bytes are searched first: most messages are not confirms, and are not split
            if arrived is None or CONFIRMED not in lines:
                continue
            for line in lines.split(b"\n"):
                if line.startswith(b"data: ") and CONFIRMED in line:
                    event = json.loads(line[6:])
                    if event.get("kind") == "confirmed" and event["seat"] != seat:
                        arrived((game, seat, event["seat"], event["turn"]))
    finally:
        writer.close()


CONFIRMED = b'"kind":"confirmed"'


async def chunked_lines(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The data of a chunked HTTP body as it arrives, cut after its last whole line (a chunk
    may end inside a line: a message longer than the server's chunks), until its last chunk
    or the connection's end. The holder reads a thousand streams on a machine of two cores:
    what it reads is taken as it comes, a read at a time, rather than a line at a time."""
    raw = b""  # read, its chunks not yet taken apart
    pending = b""  # the data of a line not yet ended
    ended = False
    while not ended and (data := await reader.read(2**16)):
        raw += data
        taken = []
        while (end := raw.find(b"\r\n")) >= 0:
            size = int(raw[:end].split(b";")[0], 16)
            if not size:
                ended = True  # the last chunk: what came before it is still to be handed
                break
            if len(raw) < end + size + 4:
                break  # the rest of the chunk is still to come
            taken.append(raw[end + 2 : end + 2 + size])
            raw = raw[end + size + 4 :]
        text = pending + b"".join(taken)
        cut = text.rfind(b"\n") + 1
        pending = text[cut:]
        if cut:
            yield text[:cut]


class Streams:
    """Streams opened and closed together, read on the running event loop."""

    def __init__(self, port: int, slots: list[tuple[int, int, str]], arrived: Arrived | None) -> None:
        self.port = port
        self.slots = slots  # (game, seat, token)
        self.arrived = arrived
        self.readers: list[asyncio.Task[None]] = []

    async def open(self) -> None:
        for start in range(0, len(self.slots), BATCH):
            batch = []
            for game, seat, token in self.slots[start : start + BATCH]:
                opened = asyncio.Event()
                self.readers.append(
                    asyncio.create_task(follow(self.port, token, game, seat, opened, self.arrived))
                )
                batch.append(opened)
            await asyncio.wait_for(asyncio.gather(*(each.wait() for each in batch)), 120)

    def count(self) -> int:
        """How many are open (a finished game's streams end)."""
        return sum(not reader.done() for reader in self.readers)

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        self.readers = []


def hold(port: int) -> None:
    """``--hold``: the reader of every stream. Its first line on stdin lists the other games'
    streams ([game, seat, token] each); then ``open`` opens them all and ``close`` closes them,
    ``probe [[game, seat, token], ...]`` opens probe streams and ``unprobe`` closes those, each
    answered with a line once done (``opened N``, ``closed``). A probe stream's `confirmed`
    events are reported as they arrive: ``arrived [game, viewer, seat, turn, clock()]``.

    The readers stand for the players' browsers, on other machines: the holder runs at the
    lowest priority (nice 19), so that on this machine the CPU it takes is what the web process
    and the database leave (it took 0.2-0.3 ms a command at the default priority, with 7-9 ms
    of the web process's). A message it is late to read makes the confirm-to-stream delays
    measured longer, never shorter."""
    os.nice(19)

    def arrived(key: tuple[int, int, int, int]) -> None:
        print(f"arrived {json.dumps([*key, clock()])}", flush=True)

    async def run() -> None:
        held = Streams(port, [tuple(slot) for slot in json.loads(sys.stdin.readline())], None)
        probes = Streams(port, [], arrived)
        loop = asyncio.get_running_loop()
        while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
            command, _, rest = line.partition(" ")
            streams = probes if command in ("probe", "unprobe") else held
            if command in ("open", "probe"):
                if rest:
                    streams.slots = [tuple(slot) for slot in json.loads(rest)]
                await streams.open()
                print(f"opened {streams.count()}", flush=True)
            else:
                await streams.close()
                print("closed", flush=True)
        await held.close()
        await probes.close()

    # the streams' readers share the machine's two cores with the web process: they take what
    # they need of them with the faster loop (installed with gunicorn's worker, which the bench
    # serves with)
    uvloop.run(run())


class Holder:
    """The ``--hold`` process, seen from the bench: a thread reads what it writes, handing the
    arrivals to ``arrivals`` and the answers to ``ask``."""

    def __init__(self, port: int, slots: list[tuple[int, int, str]], arrivals: Arrivals) -> None:
        command = [sys.executable, "-m", "bench.streams", "--hold", "--port", str(port)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.arrivals = arrivals
        self.answers: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._report, name="holder", daemon=True).start()
        self.tell(json.dumps(slots))

    def _report(self) -> None:
        stdout: IO[str] | None = self.process.stdout
        assert stdout is not None
        for line in stdout:
            if line.startswith("arrived "):
                game, viewer, seat, turn, at = json.loads(line[8:])
                self.arrivals.record((game, viewer, seat, turn), at)
            else:
                self.answers.put(line.strip())
        self.answers.put("")  # the holder ended

    def tell(self, line: str) -> None:
        stdin: IO[str] | None = self.process.stdin
        assert stdin is not None
        stdin.write(line + "\n")
        stdin.flush()

    def ask(self, line: str) -> str:
        self.tell(line)
        reply = self.answers.get(timeout=300)
        if not reply:
            raise RuntimeError(f"the stream holder ended (answering {line.split()[0]!r})")
        return reply

    def stop(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def p99_ratio_interval(some: list["Phase"], none: list["Phase"], draws: int = 1000) -> tuple[float, float]:
    """A 95 % interval of the ratio of the p99 of all the commands of ``some`` phases to that of
    ``none``'s, by a bootstrap in two levels (the phases drawn again, then each drawn phase's
    commands): the load of a shared machine drifts from phase to phase, so the commands of one
    phase are not independent draws. An interval that holds 1 says that this run cannot tell
    the two kinds of phases apart."""
    draw = random.Random(25)

    def p99(phases: list[Phase]) -> float:
        moves = []
        for phase in draw.choices(phases, k=len(phases)):
            moves.extend(draw.choices(phase.moves, k=len(phase.moves)))
        return percentile(moves, 0.99)

    ratios = sorted(p99(some) / p99(none) for _ in range(draws))
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def paired_difference(some: list["Phase"], none: list["Phase"]) -> tuple[float, float] | None:
    """What ``some`` phases add to a command, each command paired with itself in ``none``'s
    (every phase sends the same commands, in the same order): the median over the commands
    of the difference of its median times, and that as a share of a command's median time
    in ``none``. Steadier than a ratio of p99s, which a few commands set. None when the
    phases did not send as many commands."""
    if len({len(phase.moves) for phase in some + none}) != 1:
        return None
    differences = []
    times = []
    for index in range(len(none[0].moves)):
        without = statistics.median(phase.moves[index] for phase in none)
        differences.append(statistics.median(phase.moves[index] for phase in some) - without)
        times.append(without)
    added = statistics.median(differences)
    return added, added / statistics.median(times)


@dataclass
class Phase:
    """What one phase measured."""

    kind: str  # NONE, OWN or ALL
    moves: list[float]
    delays: list[float]
    cpu: float  # web CPU seconds per command
    system: float  # the kernel's share of it (sockets, threads woken)
    switches: float  # the web process's threads' context switches per command
    idle: float  # share of a CPU used with no command running
    rss: float  # MiB
    # the clients' CPU seconds per command (this process and the holder): on a machine of two
    # cores, the CPU they take to read streams is taken from the web process and the database
    clients: float
    holder: float  # the holder's share of ``clients``

    def line(self, name: str) -> str:
        text = (
            f"{name:>20}: RSS {self.rss:6.1f} MiB | idle CPU {self.idle * 100:4.1f} %"
            f" | move path p50 {percentile(self.moves, 0.5) * 1000:6.1f} ms"
            f" p99 {percentile(self.moves, 0.99) * 1000:6.1f} ms ({len(self.moves)} commands,"
            f" {self.cpu * 1000:5.1f} ms of web CPU each, {self.system * 100:.0f} % system,"
            f" {self.switches:.1f} context switches; clients {self.clients * 1000:.1f} ms,"
            f" of which the holder {self.holder * 1000:.1f})"
        )
        if self.delays:
            text += (
                f" | confirm -> other seats' streams p50 {percentile(self.delays, 0.5) * 1000:6.1f} ms"
                f" p99 {percentile(self.delays, 0.99) * 1000:6.1f} ms ({len(self.delays)} confirms)"
            )
        return text


def play_probes(
    clients: list[Http], games: list[int], arrivals: Arrivals, streams_open: bool
) -> tuple[list[float], list[float]]:
    """Play the probe games to their ends, a turn of each in turn (every seat of a turn, one
    after another); the move path's latencies, and (streams open) each confirm's delay until
    both other seats' streams have its event."""
    moves: list[float] = []
    delays: list[float] = []
    playing = list(games)
    while playing:
        for game in list(playing):
            if not play_turn(clients, game, arrivals, streams_open, moves, delays):
                playing.remove(game)
    return moves, delays


def play_turn(
    clients: list[Http],
    game: int,
    arrivals: Arrivals,
    streams_open: bool,
    moves: list[float],
    delays: list[float],
) -> bool:
    """Play one turn of ``game`` (every seat: its moves, first option each time, then its
    confirm), adding to ``moves`` and ``delays``; False when the game is no longer played."""
    view = clients[0].call("GET", f"/games/{game}")
    if view["status"] != "playing":
        return False
    turn = view["turn"]
    for seat, client in enumerate(clients):
        for _ in range(50):
            decision = client.call("GET", f"/games/{game}/decision")
            if not decision["options"]:
                break
            started = clock()
            client.call("POST", f"/games/{game}/moves", {"choice": decision["options"][0]})
            moves.append(clock() - started)
        if not decision["can_confirm"]:
            continue
        started = clock()
        client.call("POST", f"/games/{game}/confirm")
        answered = clock()
        moves.append(answered - started)
        if streams_open:
            others = [(game, other, seat, turn) for other in range(SEATS) if other != seat]
            delays.append(max(arrivals.wait(others)) - answered)
    return True


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) the process has used so far: what the streams cost it,
    whatever else the machine runs meanwhile."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """The process's user and system CPU time so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def context_switches(pid: int) -> int:
    """The context switches of the process's threads so far (those of threads that ended are
    not counted): each hop of work from one thread to another costs two."""
    count = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError):
            for line in (task / "status").read_text().splitlines():
                if "ctxt_switches:" in line:
                    count += int(line.split()[1])
    return count


def upkeep() -> None:
    """On PostgreSQL, the database's upkeep (VACUUM ANALYZE, as the table owner) done now,
    between phases: the commands leave dead rows and changed statistics that PostgreSQL's
    autovacuum otherwise takes up once a minute, which fell, run after run, on the same phase
    of the bench's fixed schedule (its CPU then weighs on that phase's commands alone). Each
    phase then starts with nothing due, whatever its kind."""
    url = os.environ.get("DATABASE_OWNER_URL") or os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute("VACUUM (ANALYZE)")


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


def setup(games: int, seeds: list[int | None]) -> tuple[list[str], list[int]]:
    """Three users with tokens and ``games`` started 3-player games of theirs, dealt with
    ``seeds`` (None: at random) in turn."""
    import django

    django.setup()
    from django.contrib.auth.models import User

    from accounts import services as accounts
    from games import services

    stamp = time.time_ns()
    users = [User.objects.create_user(f"bench-{stamp}-{seat}") for seat in range(SEATS)]
    tokens = [accounts.issue_token(user=user) for user in users]
    made = []
    for index in range(games):
        game = services.create_game(by=users[0], adventure=1, max_players=SEATS)
        for user in users[1:]:
            services.join_game(game=game, by=user, invite=game.invite)
        services.start_game(game=game, by=users[0], seed=seeds[index % len(seeds)])
        made.append(game.pk)
    return tokens, made


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=1000, help="streams open in the open phases")
    parser.add_argument("--rounds", type=int, default=4, help="rounds of two phases (none, open)")
    parser.add_argument(
        "--games", type=int, default=2, help="probe games played whole in each phase (each 230-300 commands)"
    )
    parser.add_argument("--idle", type=float, default=5, help="seconds the idle CPU is watched")
    parser.add_argument("--port", type=int, default=8798)
    parser.add_argument("--profile", type=Path, help="record each phase with py-spy into this folder")
    parser.add_argument(
        "--split", action="store_true", help="a third kind of phase: the probe games' own streams only"
    )
    parser.add_argument(
        "--same",
        action="store_true",
        help="no stream open in any phase: what the machine's noise alone makes of the comparisons",
    )
    parser.add_argument("--hold", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold:
        hold(args.port)
        return

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")
    os.environ["LOG_LEVEL"] = "WARNING"
    # as production runs (DEBUG keeps every query's text, and so costs each command more)
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("SECRET_KEY", f"bench-{time.time_ns()}")
    os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1")
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
    if not 1 <= args.games <= len(SEEDS):
        parser.error(f"--games: 1 to {len(SEEDS)}")
    # the probe games of every phase, and of a first one played before them (its figures left
    # out: the process's first commands cost more, imports and caches); then the others
    phases = args.rounds * (3 if args.split else 2)
    probes = (phases + 1) * args.games
    others = max(0, -(-args.streams // SEATS) - args.games)
    print(f"making {probes + others} games ...", flush=True)
    tokens, games = setup(probes + others, [*SEEDS[: args.games]] * (phases + 1) + [None] * others)

    env = {
        **os.environ,
        "BIND_HOST": "127.0.0.1",
        "PORT": str(args.port),
        "WEB_CONCURRENCY": "1",
        "THROTTLE_ANON": "",
        "THROTTLE_USER": "",
        # uvicorn's access lines (one a request, through the log's formatter) are not written
        "WEB_ACCESS_LOG": "false",
    }
    command = [
        sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py",
        "--access-logfile", "/dev/null", "moon.asgi:application",
    ]  # fmt: skip
    log = (ROOT / "var" / "bench-streams-web.log").open("wb")
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    # every seat of the other games, read by the holder: as many as the streams open in all but
    # those of the probe games played (read here)
    held = [(game, seat, tokens[seat]) for game in games[probes:] for seat in range(SEATS)]
    arrivals = Arrivals()
    holder = Holder(args.port, held[: max(0, args.streams - args.games * SEATS)], arrivals)
    try:
        for _ in range(200):
            try:
                Http(args.port, tokens[0]).call("GET", "/")
                break
            except OSError:
                time.sleep(0.1)
        played = [games[start : start + args.games] for start in range(0, probes, args.games)]
        measure(args, tokens, played, holder, arrivals, worker_pid(server.pid))
    finally:
        holder.stop()
        server.terminate()
        server.wait(30)


# The kinds of phases: no stream open; the probe games' own streams only (what serving the
# games played costs); every stream (what the other games' idle streams add to that).
NONE, OWN, ALL = "none", "own", "all"


def measure(
    args: argparse.Namespace,
    tokens: list[str],
    played: list[list[int]],
    holder: Holder,
    arrivals: Arrivals,
    pid: int,
) -> None:
    """The phases, each playing the next probe games of ``played`` (the first left out)."""
    clients = [Http(args.port, token) for token in tokens]
    time.sleep(1)
    kept = connections(args.port)  # the clients' keep-alive connections
    phases: list[Phase] = []
    opened = 0  # the holder's streams open

    def phase(kind: str, games: list[int]) -> None:
        streams_open = kind != NONE and not args.same
        slots = [(game, seat, tokens[seat]) for game in games for seat in range(SEATS)]
        name = "no stream open"
        if streams_open:
            probing = int(holder.ask(f"probe {json.dumps(slots)}").split()[1])
            name = f"{probing + opened} streams open"
        upkeep()
        idle = cpu_seconds(pid)
        time.sleep(args.idle)
        idle = (cpu_seconds(pid) - idle) / args.idle
        spy = profiler(args.profile, pid, f"{len(phases) + 1}-{kind}")
        user, system = cpu_split(pid)
        switches = context_switches(pid)
        driver_cpu = time.process_time()
        holder_cpu = cpu_seconds(holder.process.pid)
        try:
            moves, delays = play_probes(clients, games, arrivals, streams_open)
        finally:
            after = cpu_split(pid)
            user, system = after[0] - user, after[1] - system
            switches = context_switches(pid) - switches
            driver_cpu = time.process_time() - driver_cpu
            holder_cpu = cpu_seconds(holder.process.pid) - holder_cpu
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                spy.wait(60)
        count = len(moves)
        measured = Phase(
            kind,
            moves,
            delays,
            (user + system) / count,
            system / max(user + system, 1e-9),
            switches / count,
            idle,
            rss_kib(pid) / 1024,
            (driver_cpu + holder_cpu) / count,
            holder_cpu / count,
        )
        phases.append(measured)
        print(measured.line(name), flush=True)
        if streams_open:
            holder.ask("unprobe")  # the games ended: so did their streams
        closed(pid, args.port, kept + opened)

    # the process's first commands cost more (imports, caches): left out of the figures
    play_probes(clients, played[0], arrivals, False)
    kinds = [NONE, OWN, ALL] if args.split else [NONE, ALL]
    games = iter(played[1:])
    held_open = False
    for round in range(args.rounds):
        for kind in kinds if round % 2 == 0 else kinds[::-1]:
            if kind == ALL and not held_open and not args.same:
                before = rss_kib(pid)
                opened = int(holder.ask("open").split()[1])
                held_open = True
                time.sleep(2)
                if round == 0:
                    each = (rss_kib(pid) - before) / max(opened, 1)
                    print(f"{opened} streams opened: {each:.1f} KiB of RSS each", flush=True)
            if kind != ALL and held_open:
                holder.ask("close")
                opened = 0
                held_open = False
                closed(pid, args.port, kept)
            phase(kind, next(games))

    print(f"over {args.rounds} rounds (median of the phases; p99 of all their commands):")
    names = {NONE: "no stream open", OWN: "probes' streams", ALL: "streams open"}
    if args.same:  # the kinds' places in the rounds, with no stream open in any
        names |= {OWN: "probes' (none)", ALL: "open (none)"}
    for kind in kinds:
        those = [each for each in phases if each.kind == kind]
        moves = [move for each in those for move in each.moves]
        p99s = [percentile(each.moves, 0.99) for each in those]
        print(
            f"{names[kind]:>20}:"
            f" move path p99 {statistics.median(p99s) * 1000:6.1f} ms"
            f" ({', '.join(f'{p * 1000:.0f}' for p in p99s)})"
            f" p50 {statistics.median(percentile(each.moves, 0.5) for each in those) * 1000:6.1f} ms"
            f" | all {len(moves)} commands p99 {percentile(moves, 0.99) * 1000:6.1f} ms"
            f" | web CPU {statistics.median(each.cpu for each in those) * 1000:5.1f} ms a command"
            f" ({', '.join(f'{each.cpu * 1000:.1f}' for each in those)})"
            f" | {statistics.median(each.switches for each in those):.1f} context switches a command"
            f" | clients' CPU {statistics.median(each.clients for each in those) * 1000:.1f} ms a command"
            f" | idle CPU {statistics.median(each.idle for each in those) * 100:4.1f} %"
        )
    none = [each for each in phases if each.kind == NONE]
    for kind in kinds[1:]:
        some = [each for each in phases if each.kind == kind]
        ratio = statistics.median(percentile(each.moves, 0.99) for each in some) / statistics.median(
            percentile(each.moves, 0.99) for each in none
        )
        pooled = percentile([move for each in some for move in each.moves], 0.99) / percentile(
            [move for each in none for move in each.moves], 0.99
        )
        cpu = statistics.median(each.cpu for each in some) / statistics.median(each.cpu for each in none)
        low, high = p99_ratio_interval(some, none)
        label = ("open" if kind == ALL else "probes") + (" (none)" if args.same else "")
        paired = paired_difference(some, none)
        added = "" if paired is None else f", a command {paired[0] * 1000:+.2f} ms ({paired[1] * 100:+.1f} %)"
        print(
            f"{label} / none: move path p99 x{ratio:.2f} (all their commands x{pooled:.2f},"
            f" 95 % interval x{low:.2f}-{high:.2f}), web CPU per command x{cpu:.2f}{added}"
        )


def profiler(folder: Path | None, pid: int, name: str) -> subprocess.Popen[bytes] | None:
    """py-spy recording the web process into ``folder/name.txt`` until interrupted (None
    without ``folder``). Its own CPU is another process's: the phase's figures stay the web
    process's, a little slower for the samples taken."""
    if folder is None:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    spy = os.environ.get("PY_SPY") or shutil.which("py-spy")
    if spy is None:
        raise RuntimeError("--profile needs py-spy: on the PATH, or PY_SPY=/path/to/py-spy")
    # --gil: the samples of the thread holding the interpreter only, the process's Python work;
    # --nonblocking: the process is not stopped for each sample (stopped, its CPU per command
    # measured a fifth more, and its context switches three times as many)
    output = str(folder / f"{name}.txt")
    command = [spy, "record", "--gil", "--nonblocking", "-p", str(pid), "-r", "200", "-f", "raw"]
    command += ["-o", output]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # attached before the phase's first command
    return process


def connections(port: int) -> int:
    """How many client connections the web process holds (TCP connections on its port: open
    streams, the clients' keep-alive ones)."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                count += int(local.rsplit(":", 1)[1], 16) == port and state != "0A"  # not LISTEN
    return count


def closed(pid: int, port: int, before: int) -> None:
    """Until the web process has let go of the closed streams' connections, and is idle again
    (30 s at most)."""
    for _ in range(600):
        if connections(port) <= before + 5:
            break
        time.sleep(0.1)
    else:
        raise RuntimeError("the web process kept the closed streams' connections")
    # and has done with them (their tasks, the collector)
    for _ in range(60):
        used = cpu_seconds(pid)
        time.sleep(0.5)
        if cpu_seconds(pid) - used < 0.025:
            return


if __name__ == "__main__":
    main()
