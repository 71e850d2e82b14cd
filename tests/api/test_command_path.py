"""One command path: the command's transaction is the service's, the answer is built once it has
committed (so that in the embedded mode it shows ASTRA's part of the turn, which runs on that
commit), and it is the same with or without an Idempotency-Key; a retry gets exactly the first
answer. Each event a command causes is applied once.

These tests commit for real (a transactional test), as a server does: the eager tasks run on the
commit itself, not when a test helper replays the callbacks after the answer.
"""

import dataclasses
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Event
from games.rules.core import events as event_kinds
from games.rules.core.kinds import Kind

pytestmark = pytest.mark.usefixtures("emptied_log")

API = "/api/v1/games"


def solo_game(client: APIClient) -> str:
    """A started solo Launch against ASTRA, with the player's turn played up to its confirm."""
    created = client.post(API, {"adventure": 1, "max_players": 1, "astra_level": 2}, format="json")
    base = f"{API}/{created.json()['id']}"
    assert client.post(f"{base}/start").status_code == 200
    while (decision := client.get(f"{base}/decision").json())["options"]:
        assert (
            client.post(f"{base}/moves", {"choice": decision["options"][0]}, format="json").status_code == 200
        )
    assert decision["can_confirm"]
    return base


def without_times(answer: dict[str, Any]) -> dict[str, Any]:
    return {**answer, "events": [{k: v for k, v in e.items() if k != "created_at"} for e in answer["events"]]}


def test_a_solo_confirm_answers_the_same_with_and_without_an_idempotency_key(
    alice: APIClient, bob: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 1234)  # one deck for both games
    plain, keyed = solo_game(alice), solo_game(bob)

    first = alice.post(f"{plain}/confirm")
    with_key = bob.post(f"{keyed}/confirm", HTTP_IDEMPOTENCY_KEY="bob-confirm-1")

    assert first.status_code == with_key.status_code == 200
    answer = first.json()
    # ASTRA's part ran on the commit, before the answer: the player chooses again, never waits
    assert answer["decision"]["kind"] == "choose"
    assert "astra_took" in [event["kind"] for event in answer["events"]]
    assert without_times(with_key.json()) == without_times(answer)

    retried = bob.post(f"{keyed}/confirm", HTTP_IDEMPOTENCY_KEY="bob-confirm-1")
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json() == with_key.json()  # exactly the first answer, timestamps included
    assert Event.objects.filter(game_id=keyed.rsplit("/", 1)[1], kind="confirmed").count() == 1


def counting(applied: Counter[str]) -> Callable[[Kind[Any, Any, Any]], Kind[Any, Any, Any]]:
    def wrap(kind: Kind[Any, Any, Any]) -> Kind[Any, Any, Any]:
        def apply(state: Any, data: Any, event: Any) -> None:
            applied[event["kind"]] += 1
            kind.apply(state, data, event)

        return dataclasses.replace(kind, apply=apply)

    return wrap


@pytest.mark.parametrize("key", [None, "alice-move"], ids=["no-key", "idempotency-key"])
def test_each_event_a_command_causes_is_applied_once(
    alice: APIClient, monkeypatch: pytest.MonkeyPatch, key: str | None
) -> None:
    created = alice.post(API, {"adventure": 1, "max_players": 1, "astra_level": 1}, format="json")
    base = f"{API}/{created.json()['id']}"
    alice.post(f"{base}/start")
    choice = alice.get(f"{base}/decision").json()["options"][0]
    applied: Counter[str] = Counter()
    wrap = counting(applied)
    for name, kind in list(event_kinds.KINDS.items()):
        counted = wrap(kind)
        monkeypatch.setitem(event_kinds.KINDS, name, counted)
        monkeypatch.setattr(event_kinds, name.upper(), counted)  # as the recorder finds it
    before = Event.objects.count()

    headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    assert alice.post(f"{base}/moves", {"choice": choice}, format="json", **headers).status_code == 200

    appended = Counter(Event.objects.order_by("seq")[before:].values_list("kind", flat=True))
    assert appended and applied == appended
