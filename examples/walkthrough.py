#!/usr/bin/env python3
"""Play a whole game and a whole campaign through the moon API, with nothing but Python's
standard library (urllib): the README's walkthroughs taken to their ends.

    python3 examples/walkthrough.py                         # against `make run`, http://127.0.0.1:8000
    python3 examples/walkthrough.py --url http://host:9000 --adventure 3 --players 3
    python3 examples/walkthrough.py --game-only             # or --campaign-only

Each run registers new players (ann-<random>, ben-<random>, ...). A game: the players open it,
join and start it, then each turn every seat reads its decision and posts one of the listed
options back unchanged (a random one: the kinds are `choose`, `effect`, `give`, `mission`,
`confirm` and `wait`, see the README) until the game is finished; then the result and a replay.
A campaign: the same players (with a greedy bot in the last seat) play its eight chapters,
making every choice between chapters through the campaign's decisions (`card`, `aim`,
`chapter`, `mission`). A 429 is waited out (its Retry-After); any other refusal stops the run.
"""

import argparse
import json
import random
import secrets
import time
import urllib.error
import urllib.request
from typing import Any

MAX_MOVES = 20_000


class Api:
    """One player's client: their token on every request."""

    def __init__(self, url: str, token: str | None = None) -> None:
        self.url = url.rstrip("/") + "/api/v1"
        self.token = token
        self.requests = 0

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if method == "POST":  # a retried POST is answered with the first answer, never applied twice
            headers["Idempotency-Key"] = secrets.token_hex(16)
        while True:
            request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
            self.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=60) as response:
                    text = response.read()
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                if error.code == 429:  # throttled: wait as told, then send the same request again
                    time.sleep(float(error.headers.get("Retry-After") or 1))
                    continue
                detail = error.read().decode(errors="replace")
                raise SystemExit(f"{method} {path}: {error.code} {detail}") from error

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call("POST", path, body)


def wait_for(url: str, seconds: float) -> None:
    """Wait until the server answers its health check (a server just started)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url.rstrip("/") + "/api/v1/health", timeout=5):
                return
        except OSError as error:  # refused while it starts; an HTTPError (503) is an OSError too
            if time.monotonic() > deadline:
                raise SystemExit(f"{url} did not answer in {seconds:.0f} s: {error}") from error
            time.sleep(0.2)


def register(url: str, names: list[str]) -> list[Api]:
    """New accounts, each signed in with its own token."""
    players = []
    for name in names:
        answer = Api(url).post("/auth/register", {"username": name, "password": f"pw-{secrets.token_hex(8)}"})
        players.append(Api(url, answer["token"]))
    return players


def play_game(players: list[Api], game: int, rng: random.Random) -> dict[str, Any]:
    """Play a started game to its end: every seat of ``players`` sends a random listed option
    of its decision, or confirms when only confirming is left; bot seats and ASTRA play on the
    server's worker. The finished game's view."""
    base = f"/games/{game}"
    for _ in range(MAX_MOVES):
        view = players[0].get(base)
        if view["status"] in ("scoring", "finished"):
            break
        moved = False
        for player in players:
            decision = player.get(f"{base}/decision")
            # follow this seat's decisions until it has to wait for the others
            while decision["kind"] != "wait":
                if decision["options"]:
                    # a mission: claim it (the first option); otherwise any listed option
                    options = decision["options"]
                    choice = options[0] if decision["kind"] == "mission" else rng.choice(options)
                    answer = player.post(f"{base}/moves", {"choice": choice})
                else:  # `confirm` (or a mission decision with nothing left to claim): lock the turn in
                    answer = player.post(f"{base}/confirm")
                moved = True
                decision = answer["decision"]
                if answer["status"] != "playing":
                    break
        if not moved:
            time.sleep(0.2)  # ASTRA's part or a bot seat's turn runs on a worker (production)
    for _ in range(300):  # the scoring task appends the result
        view = players[0].get(base)
        if view["status"] == "finished":
            return dict(view)
        time.sleep(0.2)
    raise SystemExit(f"game {game} was not scored")


def whole_game(players: list[Api], adventure: int, rng: random.Random) -> None:
    ann, *others = players
    created = ann.post("/games", {"adventure": adventure, "max_players": len(players)})
    game = created["id"]
    for player in others:  # a private game (the default): joined with the invite ann passes on
        player.post(f"/games/{game}/join", {"invite": created["invite"]})
    ann.post(f"/games/{game}/start")
    print(f"game {game}: adventure {adventure}, {len(players)} players, started")
    view = play_game(players, game, rng)
    scores = ", ".join(f"seat {s['seat']} {s['total']}" for s in view["result"]["scores"])
    print(f"game {game}: finished after turn {view['turn']}: {scores}; winners {view['result']['winners']}")
    events = ann.get(f"/games/{game}/events?after=0&limit=1")
    replayed = ann.get(f"/games/{game}/replay?seq=10")
    turn = replayed["game"]["turn"]
    print(f"game {game}: {events['version']} events in ann's feed; the replay at event 10 shows turn {turn}")


def whole_campaign(players: list[Api], rng: random.Random) -> None:
    ann, *others = players
    created = ann.post("/campaigns", {"max_players": len(players) + 1})
    campaign = created["id"]
    for player in others:
        player.post(f"/campaigns/{campaign}/join", {"invite": created["invite"]})
    ann.post(f"/campaigns/{campaign}/bots", {"kind": "greedy"})
    ann.post(f"/campaigns/{campaign}/start")
    print(f"campaign {campaign}: {len(players)} players and a greedy bot, started")
    base = f"/campaigns/{campaign}"
    for _ in range(MAX_MOVES):
        view = ann.get(base)
        if view["status"] == "finished":
            break
        if view["status"] == "playing":
            chapter = view["chapters"][view["chapter"] - 1]
            game = chapter["attempts"][-1]["game"]
            played = play_game(players, game, rng)
            totals = [score["total"] for score in played["result"]["scores"]]
            played_as = f"chapter {view['chapter']} (adventure {chapter['adventure']}) played as game {game}"
            print(f"campaign {campaign}: {played_as}: totals {totals}")
            continue
        asked = False
        for seat, player in enumerate(players):
            decision = player.get(f"{base}/decision")
            if decision["kind"] == "wait":
                continue
            # `chapter`: open the next one (a replay is listed too); `card`, `aim`, `mission`: any
            options = [o for o in decision["options"] if o["action"] == "next_chapter"] or decision["options"]
            player.post(f"{base}/moves", {"choice": rng.choice(options)})
            print(f"campaign {campaign}: seat {seat} answered its {decision['kind']} decision")
            asked = True
        if not asked:
            time.sleep(0.2)  # the chapter's end or a bot's choice runs on a worker (production)
    else:
        raise SystemExit(f"campaign {campaign} did not finish")
    stars = ", ".join(f"seat {seat['seat']} {seat['stars']}" for seat in view["seats"])
    print(f"campaign {campaign}: finished: stars {stars}; winners {view['winners']}")


def main() -> None:
    described = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=described)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server (default: make run's)")
    parser.add_argument("--adventure", type=int, default=1, help="the game's adventure, 1-8 (default 1)")
    parser.add_argument("--players", type=int, default=2, help="players, 2-5 (default 2)")
    parser.add_argument("--seed", type=int, default=None, help="seeds the random choices (default: random)")
    parser.add_argument(
        "--wait", type=float, default=0, help="seconds to wait for a server that is starting (default 0)"
    )
    one = parser.add_mutually_exclusive_group()
    one.add_argument("--game-only", action="store_true", help="play the game only")
    one.add_argument("--campaign-only", action="store_true", help="play the campaign only")
    args = parser.parse_args()
    if not 2 <= args.players <= 5:
        parser.error("--players is 2 to 5 (the campaign adds a bot seat)")
    wait_for(args.url, args.wait)
    rng = random.Random(args.seed)
    suffix = secrets.token_hex(3)
    names = [f"{name}-{suffix}" for name in ("ann", "ben", "cy", "dee", "eli")[: args.players]]
    players = register(args.url, names)
    started = time.monotonic()
    if not args.campaign_only:
        whole_game(players, args.adventure, rng)
    if not args.game_only:
        whole_campaign(players, rng)
    requests = sum(player.requests for player in players)
    print(f"done: {requests} requests in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
