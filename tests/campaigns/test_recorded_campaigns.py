"""Campaigns recorded before campaign events were chained replay to the same results today:
their own log to the same stars, captain, cards and winners (under rules version 1), each
chapter's game to its result."""

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.rules import decider, packs
from campaigns.rules.events import replay
from games.rules import engine

RECORDED = sorted((Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1").glob("campaign-*.json"))


def load(path: Path) -> dict[str, Any]:
    recorded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return recorded


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_campaign_replays_to_its_stars_captain_and_winners(path: Path) -> None:
    recorded = load(path)
    expected = recorded["expected"]
    state = replay(recorded["events"])
    assert (state.status, state.winners, state.captain) == (
        expected["status"],
        expected["winners"],
        expected["captain"],
    )
    assert (state.stars(), state.totals()) == (expected["stars"], expected["totals"])
    attempts = [
        {"chapter": a.chapter, "attempt": a.number, "game": a.game, "winners": a.winners,
         "results": a.results, "awards": a.awards}
        for a in state.attempts
    ]  # fmt: skip
    assert attempts == expected["attempts"]


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_each_chapter_game_of_a_recorded_campaign_replays_to_its_stored_result(path: Path) -> None:
    recorded = load(path)
    assert len(recorded["games"]) == len(recorded["expected"]["attempts"])
    for game_id, game in recorded["games"].items():
        stored = game["events"]
        assert stored[-1]["kind"] == "result", game_id
        state = engine.replay(stored)
        assert state.status == "finished"
        assert engine.result_event(engine.replay(stored[:-1]))["data"] == stored[-1]["data"], game_id


@pytest.mark.parametrize("path", RECORDED, ids=[path.stem for path in RECORDED])
def test_a_recorded_campaign_sets_up_each_chapter_with_the_cards_it_recorded(path: Path) -> None:
    """Under version 1 still (its ``campaign_created`` of version 1 reads as rules version 1),
    each chapter's setup from the cards chosen is the one its log recorded."""
    recorded = load(path)
    pack = packs.build(load(path.parent / "pack-open-1.json"))
    logged = recorded["events"]
    assert replay(logged[:1]).rules_version == 1
    started = [index for index, event in enumerate(logged) if event["kind"] == "chapter_started"]
    for index in started:
        state = replay(logged[:index])
        assert decider.chapter_setup(state, pack) == logged[index]["data"]["setup"], index
