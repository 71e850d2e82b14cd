"""The server's figures of issue 26 on PostgreSQL, measured in this process, each with its floor:

- CPU per ``POST /moves`` (this process, which runs Django's request handler as a WSGI server
  calls it, plus the CPU of its PostgreSQL backend; each printed with its two parts), against a
  bare transaction doing the same work in SQL on the same connection: lock the game's row, read
  its snapshot, insert an event of the same size, update a snapshot of the same size (temporary
  tables), one after each move of the games after the first (whose rows it copies), so that
  the moves and their floor meet the same machine;
- CPU of the trivial ``GET /api/v1/games``, the stack's floor;
- bytes per stored event, all in (table, TOAST and indexes), and its parts.

Run with the environment of ``deploy/services.sh`` (``make bench`` does):

    python -m bench.server [--games N] [--turns N]
"""

import argparse
import io
import json
import logging
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

MOVE_GOAL = 2.5  # times the SQL floor
TRIVIAL_GOAL_MS = 1.5
BYTES_GOAL = 200
PLAYERS = 4
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def backend_cpu(pid: int) -> float:
    """CPU seconds used so far by the PostgreSQL backend ``pid`` (it runs on this machine): to
    the nanosecond from the scheduler's count when the kernel keeps it, else in clock ticks."""
    try:
        with open(f"/proc/{pid}/schedstat") as schedstat:
            return int(schedstat.read().split()[0]) / 1e9
    except (OSError, IndexError, ValueError):
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class Meter:
    """CPU of this process plus that of its database connection's backend, over many calls."""

    def __init__(self) -> None:
        from django.db import connection

        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            self.pid = int(cursor.fetchone()[0])
        self.seconds = 0.0
        self.app_seconds = 0.0
        self.calls = 0

    def run(self, work: Callable[..., Any], *args: Any) -> Any:
        # the backend's count read outside this process's span: reading it is the meter's work
        started_db = backend_cpu(self.pid)
        started_app = time.process_time()
        answer = work(*args)
        app = time.process_time() - started_app
        self.seconds += app + backend_cpu(self.pid) - started_db
        self.app_seconds += app
        self.calls += 1
        return answer

    @property
    def per_call_ms(self) -> float:
        return self.seconds / max(1, self.calls) * 1000

    @property
    def parts(self) -> str:
        """This process's and the backend's shares of a call, in ms."""
        app = self.app_seconds / max(1, self.calls) * 1000
        return f"{app:.2f} + {self.per_call_ms - app:.2f}"


def setup() -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "moon.settings")
    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    # One connection for the whole run: the meters read the CPU of its backend by its pid, which
    # a connection replaced at CONN_MAX_AGE's end would take away mid-run.
    from django.db import connection

    connection.settings_dict["CONN_MAX_AGE"] = None
    # as a web process settles once it has loaded the application (deploy/gunicorn.conf.py):
    # what is loaded is frozen out of the garbage collector's passes, with its thresholds; log
    # records skip what no line shows
    from moon import logs, web

    web.settle_memory()
    logs.lean_records()
    # The application's log lines are made as in production, then dropped: not on the terminal.
    for handler in logging.getLogger().handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 (open for the whole run)


def environ_of(method: str, path: str, token: str, body: Any = None) -> dict[str, Any]:
    """The WSGI environ of an API request as a server hands it over: a JSON body (if any) and
    the token in ``Authorization``."""
    payload = b"" if body is None else json.dumps(body).encode()
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": f"/api/v1{path}",
        "QUERY_STRING": "",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "testserver",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(payload),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if method != "GET":
        environ["CONTENT_TYPE"] = "application/json"
        environ["CONTENT_LENGTH"] = str(len(payload))
    return environ


def serve(handler: Callable[..., Any], environ: dict[str, Any]) -> tuple[str, bytes]:
    """What a WSGI server does with a request: call the application, read the answer's bytes,
    close it (Django's request_finished, which hands the connection back). Its status and body."""
    started: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        started.append(status)
        return None

    response = handler(environ, start_response)
    try:
        body = b"".join(response)
    finally:
        response.close()
    return started[0], body


def play_moves(*, games: int, turns: int, floor: "Floor | None" = None) -> tuple[Meter, Meter, list[int]]:
    """Open ``games`` 4-player Adventure 1 games and play them to turn ``turns`` through the
    request handler (random choices): the meters of ``POST /moves`` and of the trivial GET, and
    the games' ids. Each request goes through Django's WSGI handler, the whole middleware stack
    and the token's check, as a server's would; building its environ and decoding its answer
    are the client's work, outside the meters. With a ``floor``: made from the first game once
    it is played, then one of its transactions after each move of the next games."""
    from django.core.handlers.wsgi import WSGIHandler

    from bench.load import make_tokens

    handler = WSGIHandler()
    tokens = make_tokens(games * PLAYERS)

    def call(method: str, path: str, token: str, body: Any = None, meter: Meter | None = None) -> Any:
        environ = environ_of(method, path, token, body)
        if meter is None:
            status, content = serve(handler, environ)
        else:
            status, content = meter.run(serve, handler, environ)
        assert status.startswith(("200 ", "201 ")), (status, content)
        return json.loads(content)

    moves, trivial = Meter(), Meter()
    ids = []
    for index in range(games):
        seats = tokens[index * PLAYERS : (index + 1) * PLAYERS]
        game = call("POST", "/games", seats[0], {"adventure": 1, "max_players": PLAYERS})
        for token in seats[1:]:
            call("POST", f"/games/{game['id']}/join", token, {"invite": game["invite"]})
        call("POST", f"/games/{game['id']}/start", seats[0])
        ids.append(int(game["id"]))
        rng = random.Random(index)
        base = f"/games/{game['id']}"
        turn = 1
        while turn <= turns:
            for token in seats:
                while True:
                    decision = call("GET", f"{base}/decision", token)
                    if decision["options"]:
                        choice = rng.choice(decision["options"])
                        answer = call("POST", f"{base}/moves", token, {"choice": choice}, moves)
                        if floor is not None and floor.meter is not None:
                            floor.meter.run(floor.move)
                    elif decision["can_confirm"]:
                        answer = call("POST", f"{base}/confirm", token)
                    else:
                        break
                    if answer["status"] != "playing":
                        turn = turns + 1
                        break
            if turn <= turns:
                turn = call("GET", base, seats[0])["turn"]
        if floor is not None and floor.meter is None:
            floor.prepare(ids[0])
        for token in seats:
            call("GET", "/games", token, meter=trivial)
    for _ in range(200):
        call("GET", "/games", tokens[0], meter=trivial)
    return moves, trivial, ids


class Floor:
    """The bare transaction of a move, on temporary copies of the size and shape of a played
    game's rows (its snapshot; an event keyed by (game, seq), its data as ``json``), its
    statements prepared as the command path's are (moon/prepared.py). Run between the moves
    it is the floor of, so that both are measured under the same load of the machine and the
    same state of its caches (a tight loop of the same transaction ran in warmer caches than
    any move: 0.56-0.79 ms a transaction run after all the moves, from one run to the next)."""

    def __init__(self) -> None:
        self.meter: Meter | None = None  # once prepared
        self.seq = 0
        self.snapshot = self.data = ""

    def prepare(self, game_id: int) -> None:
        """Make the temporary tables from game ``game_id``'s snapshot and one of its events."""
        from django.db import connection

        from games.models import Event, GameSnapshot

        snapshot = json.dumps(GameSnapshot.objects.filter(game_id=game_id).values_list("state", flat=True)[0])
        sample = Event.objects.filter(game_id=game_id, kind="number_written").values("data").first()
        self.snapshot = snapshot
        self.data = json.dumps(sample["data"] if sample else {"sheet": 0, "space": "a1", "number": 5})
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE floor_game (id bigint PRIMARY KEY, status text, turn int)")
            cursor.execute(
                "CREATE TEMP TABLE floor_snapshot (game_id bigint PRIMARY KEY, seq int, state jsonb)"
            )
            cursor.execute(
                "CREATE TEMP TABLE floor_event (game_id bigint, created_at timestamptz, seq int, "
                "turn int, actor_id bigint, seat smallint, version smallint, kind text, data json, "
                "hash bytea, PRIMARY KEY (game_id, seq))"
            )
            cursor.execute("INSERT INTO floor_game VALUES (1, 'playing', 1)")
            cursor.execute("INSERT INTO floor_snapshot VALUES (1, 0, %s::jsonb)", [snapshot])
        self.meter = Meter()

    def in_a_row(self, transactions: int) -> Meter:
        """The same transaction run ``transactions`` times in a row, as earlier figures measured
        the floor: its caches warmer than any move's."""
        meter = Meter()
        for _ in range(transactions):
            meter.run(self.move)
        return meter

    def move(self) -> None:
        """One bare transaction: lock, read the snapshot, insert an event, update the snapshot."""
        from django.db import transaction

        from moon import prepared

        self.seq += 1
        with transaction.atomic(), prepared.cursor() as cursor:
            cursor.execute("SELECT status, turn FROM floor_game WHERE id = 1 FOR UPDATE")
            cursor.fetchone()
            cursor.execute("SELECT seq, state FROM floor_snapshot WHERE game_id = 1")
            cursor.fetchone()
            cursor.execute(
                "INSERT INTO floor_event (game_id, seq, seat, kind, version, data, created_at, "
                "hash, turn) VALUES (1, %s, 0, 'number_written', 2, %s::json, now(), %s, 1)",
                [self.seq, self.data, bytes(32)],
            )
            cursor.execute(
                "UPDATE floor_snapshot SET seq = %s, state = %s::jsonb WHERE game_id = 1",
                [self.seq, self.snapshot],
            )


def event_bytes() -> tuple[int, float, dict[str, float]]:
    """How many events are stored, their bytes each all in, and the mean size of each column."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), pg_total_relation_size('games_event') FROM games_event")
        count, total = cursor.fetchone()
        cursor.execute(
            "SELECT avg(pg_column_size(data)), avg(pg_column_size(hash)), "
            "avg(pg_column_size(games_event.*)) FROM games_event"
        )
        data, hash_, row = (float(value) for value in cursor.fetchone())
        cursor.execute("SELECT pg_relation_size('games_event'), pg_indexes_size('games_event')")
        heap, indexes = cursor.fetchone()
    each = max(1, count)
    parts = {"data": data, "hash": hash_, "row": row, "heap": heap / each, "indexes": indexes / each}
    return count, total / each, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=4, help="games played through the handler (2 or more)"
    )
    parser.add_argument("--turns", type=int, default=12, help="turns each game is played to")
    parser.add_argument(
        "--figures",
        default="cpu,bytes",
        help="which to measure, comma-separated: cpu (the move and the trivial GET), bytes",
    )
    args = parser.parse_args()
    figures = set(args.figures.split(","))
    if not figures or figures - {"cpu", "bytes"}:
        parser.error("--figures takes cpu, bytes or both")
    if "cpu" in figures and args.games < 2:
        parser.error("--games: 2 or more (the floor is measured between the moves of the second on)")
    setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        raise SystemExit("bench.server measures PostgreSQL: run it under make bench (DATABASE_URL)")
    if "cpu" in figures:
        print_cpu(games=args.games, turns=args.turns)
    if "bytes" in figures:
        print_bytes()


def print_cpu(*, games: int, turns: int) -> None:
    """Play the moves and the trivial GETs, the floor's transactions between the moves, and
    print both."""
    floor = Floor()
    moves, trivial, _ = play_moves(games=games, turns=turns, floor=floor)
    assert floor.meter is not None and floor.meter.calls, "the floor needs two games or more"
    ratio = moves.per_call_ms / floor.meter.per_call_ms
    print(
        f"  (the floor's snapshot: {len(floor.snapshot):,} bytes of JSON; event data "
        f"{len(floor.data)} bytes)"
    )
    print("Server CPU on PostgreSQL (this process + its backend), per request:")
    print(
        f"  POST /moves {moves.per_call_ms:.2f} ms ({moves.calls} moves; {moves.parts} in the "
        f"database); the bare SQL transaction {floor.meter.per_call_ms:.2f} ms "
        f"({floor.meter.calls} between the moves; {floor.meter.parts}): "
        f"ratio {ratio:.2f} (goal <= {MOVE_GOAL}) {'ok' if ratio <= MOVE_GOAL else 'MISSED'}"
    )
    warm = floor.in_a_row(max(300, moves.calls))
    print(
        f"  (the same transaction {warm.calls} times in a row after the moves, as the floor was "
        f"measured before: {warm.per_call_ms:.2f} ms ({warm.parts}), ratio "
        f"{moves.per_call_ms / warm.per_call_ms:.2f})"
    )
    print(
        f"  trivial GET /games {trivial.per_call_ms:.2f} ms ({trivial.calls} requests; "
        f"{trivial.parts}) (goal <= {TRIVIAL_GOAL_MS}) "
        f"{'ok' if trivial.per_call_ms <= TRIVIAL_GOAL_MS else 'MISSED'}"
    )


def print_bytes() -> None:
    """Print the bytes per stored event of the database's events, all in, and their parts."""
    count, each, parts = event_bytes()
    print(
        f"Bytes per stored event, all in: {each:.0f} ({count} events; table {parts['heap']:.0f}, "
        f"indexes {parts['indexes']:.0f}; row {parts['row']:.0f}: data {parts['data']:.0f}, "
        f"hash {parts['hash']:.0f}) "
        f"(goal <= {BYTES_GOAL}) {'ok' if each <= BYTES_GOAL else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
