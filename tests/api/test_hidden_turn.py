"""Nothing a seat does before its turn is revealed can be read or inferred by another seat:
not its marks, and not how many events it stored (versions and feed positions move only with
what the reader may read). In The Battle this holds for the neighbour who owns the other side of
the sheet played too."""

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.test_reading import base, play_until_confirm

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[1, 8], ids=["launch", "battle"])
def playing_game(request: pytest.FixtureRequest, alice: APIClient, bob: APIClient, carol: APIClient,
                 post: Any) -> int:  # fmt: skip
    """A started 3-player game of Adventure 1 (a sheet per seat) or 8 (sheets shared by
    neighbours): alice in seat 0, bob 1, carol 2."""
    game = post(alice, "/api/v1/games", {"adventure": request.param, "max_players": 3}).json()
    for client in (bob, carol):
        assert post(client, f"/api/v1/games/{game['id']}/join", {"invite": game["invite"]}).status_code == 200
    assert post(alice, f"/api/v1/games/{game['id']}/start").status_code == 200
    return int(game["id"])


def _everything(client: APIClient, game: int) -> dict[str, Any]:
    """Every answer a seat can get about the game."""
    return {
        "game": client.get(base(game)).json(),
        "events": client.get(f"{base(game)}/events").json(),
        "decision": client.get(f"{base(game)}/decision").json(),
        "sheets": [client.get(f"{base(game)}/sheets/{sheet}").json() for sheet in range(3)],
    }


def test_another_seats_hidden_moves_change_no_answer(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    """Turn 1, then turn 2: in The Battle bob plays sheet 1 (carol owns its other side), then
    sheet 0 (alice's left sheet); neither owner sees a thing of it before the turn resolves."""
    for _ in range(2):
        before = [_everything(client, playing_game) for client in (alice, carol)]
        bob_sheet = bob.get(f"{base(playing_game)}/decision").json()["sheet"]
        play_until_confirm(bob, playing_game, post)
        assert bob.get(base(playing_game)).json()["version"] > before[0]["game"]["version"]
        assert bob.get(f"{base(playing_game)}/sheets/{bob_sheet}").json() != before[0]["sheets"][bob_sheet]
        assert [_everything(client, playing_game) for client in (alice, carol)] == before
        post(bob, f"{base(playing_game)}/undo")
        assert [_everything(client, playing_game) for client in (alice, carol)] == before
        for client in (alice, bob, carol):
            play_until_confirm(client, playing_game, post)
            assert post(client, f"{base(playing_game)}/confirm").status_code == 200
        revealed = alice.get(f"{base(playing_game)}/sheets/{bob_sheet}").json()["marks"]
        assert revealed == bob.get(f"{base(playing_game)}/sheets/{bob_sheet}").json()["marks"]


def test_feed_positions_are_dense_and_only_grow_at_the_end(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    play_until_confirm(bob, playing_game, post)
    play_until_confirm(alice, playing_game, post)
    early = alice.get(f"{base(playing_game)}/events").json()
    assert [e["seq"] for e in early["events"]] == list(range(1, early["version"] + 1))
    assert alice.get(base(playing_game)).json()["version"] == early["version"]

    for client in (alice, bob, carol):
        play_until_confirm(client, playing_game, post)
        assert post(client, f"{base(playing_game)}/confirm").status_code == 200
    late = alice.get(f"{base(playing_game)}/events").json()
    assert [e["seq"] for e in late["events"]] == list(range(1, late["version"] + 1))
    assert late["events"][: len(early["events"])] == early["events"]
    revealed = late["events"][len(early["events"]) :]
    assert {e["seat"] for e in revealed} >= {0, 1, 2}  # bob's and carol's moves, now readable
    # what was revealed comes right before the event that revealed it: the next turn's start
    first_of_next_turn = next(i for i, e in enumerate(revealed) if e["kind"] == "turn_started")
    assert all(e["turn"] == 1 for e in revealed[:first_of_next_turn])


def test_a_command_answer_places_its_events_where_the_feed_has_them(
    playing_game: int, alice: APIClient, bob: APIClient, post: Any
) -> None:
    play_until_confirm(bob, playing_game, post)
    option = alice.get(f"{base(playing_game)}/decision").json()["options"][0]
    answer = post(alice, f"{base(playing_game)}/moves", {"choice": option}).json()
    feed = alice.get(f"{base(playing_game)}/events").json()
    assert answer["version"] == feed["version"]
    assert answer["events"] == feed["events"][-len(answer["events"]) :]




def test_every_command_answer_shows_its_events_where_the_authors_feed_has_them(
    playing_game: int, alice: APIClient, bob: APIClient, carol: APIClient, post: Any
) -> None:
    """Moves, an undo and confirms over two turns (the last confirm of each resolves the turn
    and reveals the others' moves before the next turn's start): each answer's events are the
    author's feed's events at those positions, and its version is the feed's."""

    def command(client: APIClient, path: str, body: Any = None) -> None:
        answer = post(client, f"{base(playing_game)}/{path}", body)
        assert answer.status_code == 200, answer.content
        feed = client.get(f"{base(playing_game)}/events?limit=1000").json()
        assert answer.json()["version"] == feed["version"]
        by_position = {event["seq"]: event for event in feed["events"]}
        assert answer.json()["events"]
        assert all(by_position[event["seq"]] == event for event in answer.json()["events"])

    undone = False
    for _ in range(2):
        for client in (alice, bob, carol):
            while options := client.get(f"{base(playing_game)}/decision").json()["options"]:
                command(client, "moves", {"choice": options[-1]})
                if client is bob and not undone:
                    command(client, "undo")
                    undone = True
            command(client, "confirm")
