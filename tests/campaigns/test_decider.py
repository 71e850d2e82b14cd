"""The campaign's rules without a database: stars by the table and the tie rule, the captain,
the order of the choices between chapters, cards in effect and a chapter's setup, replays,
chapters whose adventure is not playable yet, and the end of the campaign."""

import random
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaigns.rules import decider, packs, standings
from campaigns.rules.events import SeatResult
from campaigns.rules.state import CampaignState
from games.rules import engine
from games.rules.adventures import PLAYABLE
from games.rules.common.missions import candidates
from games.rules.core.errors import OutOfTurn, RuleViolation
from games.selectors import standings_of
from tests.campaigns.flow import (
    OPEN,
    bares,
    by_ranks,
    choose,
    end_chapter,
    result,
    settle,
    start_ready_chapter,
    started,
)
from tests.rules.battle_helpers import LAYOUT, finished, game, set_sheet
from tests.rules.battle_helpers import battle as battle_sheet

# rules/campaign.md, "After each chapter": final rank -> stars
TABLE = {
    1: (1, 0, 0), 2: (1, 0, 0), 3: (2, 1, 0), 4: (2, 1, 0),
    5: (3, 2, 1), 6: (4, 2, 1), 7: (5, 3, 1), 8: (6, 3, 1),
}  # fmt: skip


LAST_STAND = "c7-last-stand"


def picking(cards: dict[int, str]) -> Any:
    """A picker choosing, for each seat, the card named for it (first option otherwise)."""

    def pick(state: CampaignState, seat: int, decision: dict[str, Any]) -> dict[str, Any]:
        options = decision["options"]
        wanted = [o for o in options if decision["kind"] == "card" and o["card"] == cards.get(seat)]
        return dict((wanted or options)[0])

    return pick


def rank_stars(state: CampaignState, seat: int) -> int:
    assert state.current is not None and state.current.awards is not None
    (award,) = [a for a in state.current.awards if a["seat"] == seat]
    (reason,) = [r for r in award["reasons"] if r["reason"] == "rank"]
    return int(reason["stars"])


def test_the_stars_of_each_rank_are_the_tables_in_every_chapter() -> None:
    state = started(4)
    for chapter in range(1, 8):
        end_chapter(state, by_ranks(1, 2, 2, 3))
        expected = TABLE[chapter]
        # tied seats 1 and 2 both take the 2nd place's stars, seat 3 the 3rd place's
        assert [rank_stars(state, seat) for seat in range(4)] == [
            expected[0], expected[1], expected[1], expected[2]
        ]
        if chapter < 7:
            settle(state)
    assert state.current is not None and state.current.chapter == 7


def test_a_rank_past_the_table_gets_no_star() -> None:
    state = started(6)
    end_chapter(state, by_ranks(1, 2, 3, 4, 5, 6))
    assert [rank_stars(state, seat) for seat in range(6)] == [1, 0, 0, 0, 0, 0]


def test_the_captain_follows_the_stars() -> None:
    state = started(3)
    assert state.captain == 0  # at the start, seat 0
    changes = end_chapter(state, by_ranks(2, 1, 3))  # chapter 1: seat 1 takes the only star
    assert state.stars() == [0, 1, 0]
    assert state.captain == 1
    (changed,) = [e for e in changes if e["kind"] == "captain_changed"]
    assert changed["data"] == {"captain": 1, "previous": 0, "stars": [0, 1, 0]}
    settle(state)
    end_chapter(state, by_ranks(1, 2, 2))  # chapter 2: 1-1-0, the captain keeps the card
    assert state.stars() == [1, 1, 0]
    assert state.captain == 1
    settle(state)
    end_chapter(state, by_ranks(1, 3, 2))  # chapter 3 (2/1/0): 3-1-1
    assert state.stars() == [3, 1, 1]
    assert state.captain == 0


def test_between_tied_leaders_the_captain_keeps_the_card_or_the_lowest_seat_takes_it() -> None:
    assert standings.captain_after([2, 2, 1], previous=1) == 1
    assert standings.captain_after([2, 1, 2], previous=1) == 0
    assert standings.captain_after([0, 0, 0], previous=2) == 2


def test_choices_come_one_seat_at_a_time_captain_first_then_the_last_in_stars() -> None:
    state = started(3)
    end_chapter(state, by_ranks(2, 1, 3))  # seat 1 has the star and the captain card
    assert state.current is not None and state.current.offer is not None
    assert state.current.offer["order"] == [0, 2, 1]
    captain = decider.options(state, OPEN, 1)
    assert captain.kind == "card"
    assert bares(captain.options) == [
        {"action": "choose_card", "card": "c1-tanker-escort"},
        {"action": "choose_card", "card": "c1-flight-plan"},
    ]
    assert decider.options(state, OPEN, 0).kind == "wait"
    with pytest.raises(OutOfTurn) as refused:
        decider.decide(state, OPEN, 0, {"action": "choose_card", "card": "c1-launch-medal"})
    assert refused.value.code == "not_your_choice"
    assert "seat 1" in refused.value.detail

    choose(state, 1, {"action": "choose_card", "card": "c1-flight-plan"})
    personal = decider.options(state, OPEN, 0)
    assert bares(personal.options) == [
        {"action": "choose_card", "card": "c1-launch-medal"},
        {"action": "choose_card", "card": "c1-hangar-rumour"},
    ]
    with pytest.raises(RuleViolation) as refused_card:
        decider.decide(state, OPEN, 0, {"action": "choose_card", "card": "c1-flight-plan"})
    assert refused_card.value.code == "illegal_choice"
    choose(state, 0, {"action": "choose_card", "card": "c1-hangar-rumour"})
    aim = decider.options(state, OPEN, 0)  # aimed at an opponent: which one
    assert aim.kind == "aim"
    assert bares(aim.options) == [
        {"action": "aim_card", "card": "c1-hangar-rumour", "target": 1},
        {"action": "aim_card", "card": "c1-hangar-rumour", "target": 2},
    ]
    choose(state, 0, {"action": "aim_card", "card": "c1-hangar-rumour", "target": 1})
    choose(state, 2, {"action": "choose_card", "card": "c1-launch-medal"})
    choose(state, 1, {"action": "choose_card", "card": "c1-launch-medal"})
    assert decider.options(state, OPEN, 1).options == [
        {"action": "next_chapter", "chapter": 2},
        {"action": "replay_chapter", "chapter": 1},
    ]
    assert state.status == "between"
    for unlike in (2.0, True, "2"):  # an option is sent back as it was listed
        with pytest.raises(RuleViolation):
            decider.decide(state, OPEN, 1, {"action": "next_chapter", "chapter": unlike})

    choose(state, 1, {"action": "next_chapter", "chapter": 2})
    # the flight plan applies to every player: the captain chooses mission A of chapter 2
    mission = decider.options(state, OPEN, 1)
    assert mission.kind == "mission"
    assert bares(mission.options) == [
        {"action": "choose_mission", "letter": "A", "card": card} for card in candidates(2, "A")
    ]
    assert state.status == "between"
    choose(state, 1, mission.options[1])
    assert state.status == "playing"
    current = state.current
    assert current is not None and current.setup is not None
    assert current.setup["missions"] == {"A": candidates(2, "A")[1]}
    assert current.setup["modifiers"] == {
        "1": [{"kind": "bonus_points", "points": 3}, {"kind": "system_errors", "delta": -1}],
        "2": [{"kind": "bonus_points", "points": 3}],
    }
    assert current.setup["cards"] == ["c1-flight-plan", "c1-hangar-rumour", "c1-launch-medal"]


def test_a_star_goal_gives_its_stars_when_its_predicate_holds() -> None:
    state = started(2)
    end_chapter(state, by_ranks(1, 2))
    settle(state)
    end_chapter(state, by_ranks(1, 2))
    settle(state, picking({0: "c2-survey-pledge", 1: "c2-steady-hands"}))
    # chapter 3: seat 1 holds "no System Error" (1 star); seat 0's pledge waits for chapter 5
    in_effect = [(entry.card.id, entry.holders) for entry in decider.cards_in_effect(state, OPEN, 3)]
    assert in_effect == [("c2-steady-hands", (1,)), ("c2-spare-tank", (0,))]
    end_chapter(state, [result(0, rank=1, errors=1), result(1, rank=2, errors=0)])
    assert state.current is not None and state.current.awards is not None
    assert state.current.awards[1] == {
        "seat": 1,
        "stars": 2,
        "reasons": [
            {"reason": "rank", "rank": 2, "stars": 1},
            {"reason": "star_goal", "card": "c2-steady-hands", "stars": 1},
        ],
    }
    assert state.current.awards[0]["stars"] == 2  # rank 1 only: the goal is seat 1's
    settle(state)
    end_chapter(state, by_ranks(1, 2))
    settle(state, picking({0: "c4-cut-cable", 1: "c4-cut-cable"}))  # no other goal in chapter 5
    assert "c2-survey-pledge" in [entry.card.id for entry in decider.cards_in_effect(state, OPEN, 5)]
    end_chapter(state, [result(0, rank=2, missions=("A", "B", "C")), result(1, rank=1, missions=("A", "B"))])
    awards = state.current.awards
    assert awards[0]["reasons"] == [
        {"reason": "rank", "rank": 2, "stars": 2},
        {"reason": "star_goal", "card": "c2-survey-pledge", "stars": 2},  # all three missions
    ]
    assert awards[1]["reasons"] == [{"reason": "rank", "rank": 1, "stars": 3}]  # two are not all


def test_a_replay_replaces_the_stars_and_the_cards_of_the_attempt_before() -> None:
    state = started(2)
    end_chapter(state, by_ranks(1, 2))
    assert state.stars() == [1, 0]
    settle(state, picking({0: "c1-launch-medal", 1: "c1-launch-medal"}), then="replay_chapter")
    assert [attempt.number for attempt in state.attempts_of(1)] == [1, 2]
    assert state.status == "playing"
    assert state.stars() == [1, 0]  # the first attempt counts until the replay has its result
    end_chapter(state, by_ranks(2, 1))
    assert state.stars() == [0, 1]
    assert state.captain == 1
    assert state.counting(1) is state.attempt(1, 2)
    settle(state, picking({0: "c1-hangar-rumour", 1: "c1-hangar-rumour"}))
    # chapter 2 is set up with the cards chosen after the replay only
    current = state.current
    assert current is not None and current.setup is not None and current.chapter == 2
    assert current.setup["cards"] == ["c1-tanker-escort", "c1-hangar-rumour"]
    assert "c1-launch-medal" not in current.setup["cards"]
    assert all(attempt.finished for attempt in state.attempts_of(1))  # both stay in the history


def to_the_end_of_chapter(state: CampaignState, last: int) -> None:
    rng = random.Random(last)
    while True:
        current = state.current
        assert current is not None
        ranks = [rng.randint(1, 3) for _ in range(state.players)]
        end_chapter(state, [result(seat, rank=rank, total=70 - rank) for seat, rank in enumerate(ranks)])
        if current.chapter == last:
            return
        settle(state, lambda s, seat, d: dict(rng.choice(d["options"])))


def test_a_chapter_whose_adventure_is_not_playable_cannot_be_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    battle = PLAYABLE[8]
    monkeypatch.delitem(PLAYABLE, 8)  # as before The Battle was registered
    state = started(3)
    to_the_end_of_chapter(state, 7)
    settle_cards = decider.pending(state, OPEN)
    while settle_cards is not None and settle_cards.decision.kind != "chapter":
        choose(state, settle_cards.seat, settle_cards.decision.options[0])
        settle_cards = decider.pending(state, OPEN)
    assert settle_cards is not None and state.captain is not None
    assert settle_cards.decision.options == [{"action": "replay_chapter", "chapter": 7}]
    with pytest.raises(OutOfTurn) as refused:
        decider.decide(state, OPEN, state.captain, {"action": "next_chapter", "chapter": 8})
    assert refused.value.code == "chapter_not_available"
    assert refused.value.detail == (
        "Chapter 8 plays adventure 8 (The Battle), which is not playable yet."
    )
    # once adventure 8 is registered as playable, the chapter is offered
    monkeypatch.setitem(PLAYABLE, 8, battle)
    assert {"action": "next_chapter", "chapter": 8} in decider.options(state, OPEN, state.captain).options


def test_after_chapter_8_the_most_stars_win_then_the_total() -> None:
    state = started(3)
    to_the_end_of_chapter(state, 7)
    settle(state)
    current = state.current
    assert current is not None and current.chapter == 8 and state.status == "playing"
    before = state.stars()
    # chapter 8 (6/3/1): seats end level on stars when the leader places last
    leader = max(range(3), key=lambda seat: (before[seat], -seat))
    results = [result(seat, rank=3 if seat == leader else 1, total=100) for seat in range(3)]
    new = end_chapter(state, results)
    assert [event["kind"] for event in new][-1] == "campaign_finished"
    assert state.status == "finished"
    stars, totals = state.stars(), state.totals()
    assert new[-1]["data"] == {"winners": standings.winners(stars, totals), "stars": stars, "totals": totals}
    assert decider.pending(state, OPEN) is None
    with pytest.raises(OutOfTurn) as refused:
        decider.decide(state, OPEN, 0, {"action": "replay_chapter", "chapter": 8})
    assert refused.value.code == "campaign_finished"


def test_a_star_goal_on_missions_pays_in_chapter_8_for_the_missions_of_each_seats_side_s() -> None:
    state = started(3)
    to_the_end_of_chapter(state, 7)
    settle(state, picking({seat: LAST_STAND for seat in range(3)}))  # the captain's group card
    assert (LAST_STAND, (0, 1, 2)) in [
        (entry.card.id, entry.holders) for entry in decider.cards_in_effect(state, OPEN, 8)
    ]  # "Last stand": 2 stars for at least two missions
    battle = game(3)
    for sheet, letters in enumerate(("AB", "C", "BC")):  # sheet k: seat k's side S
        set_sheet(battle, sheet, battle_sheet(marks={LAYOUT.mission_boxes[letter]: 5 for letter in letters}))
    read = standings_of(state=finished(battle))
    assert read is not None
    end_chapter(state, cast(list[SeatResult], read["scores"]))
    assert state.attempts[-1].awards is not None
    goals = {
        award["seat"]: [reason for reason in award["reasons"] if reason["reason"] == "star_goal"]
        for award in state.attempts[-1].awards
    }
    assert goals == {0: [{"reason": "star_goal", "card": LAST_STAND, "stars": 2}], 1: [], 2: goals[0]}


def test_winners_by_stars_then_total_then_shared() -> None:
    assert standings.winners([5, 7, 7], [300, 200, 250]) == [2]
    assert standings.winners([9, 7, 7], [100, 200, 250]) == [0]
    assert standings.winners([7, 7, 1], [250, 250, 400]) == [0, 1]


def test_the_setup_adds_up_struck_boxes_and_leaves_out_marks_a_sheet_cannot_take() -> None:
    def journey_card(card_id: str, chooser: str, applies_to: str, effects: list[Any]) -> dict[str, Any]:
        return {
            "id": card_id, "title": card_id, "story": "A test card.", "after": 1, "chooser": chooser,
            "applies_to": applies_to, "when": "next", "effects": effects,
        }  # fmt: skip

    def charge(wall: str) -> dict[str, Any]:
        marks = [{"element": "energy.e02", "mark": "circle"}, {"element": wall, "mark": "line"}]
        return {"kind": "start_marks", "adventure": 2, "marks": marks}

    content = {
        "id": "test", "version": "1", "title": "Test",
        "cards": [
            journey_card(
                "charged", "captain", "all", [charge("wall.05"), {"kind": "system_errors", "delta": -2}]
            ),
            journey_card("own-wall", "each", "chooser", [charge("wall.10")]),
            journey_card("sabotage", "each", "opponent", [{"kind": "system_errors", "delta": -2}]),
        ],
    }  # fmt: skip
    test_pack = packs.parse(content, rules_version=1)
    state = started(2, test_pack)
    end_chapter(state, by_ranks(1, 2), test_pack)
    # seat 1 builds its own wall; seat 0 aims its sabotage at seat 1
    choose(state, 0, {"action": "choose_card", "card": "charged"}, test_pack)
    choose(state, 1, {"action": "choose_card", "card": "own-wall"}, test_pack)
    choose(state, 0, {"action": "choose_card", "card": "sabotage"}, test_pack)
    choose(state, 0, {"action": "aim_card", "card": "sabotage", "target": 1}, test_pack)
    choose(state, 0, {"action": "next_chapter", "chapter": 2}, test_pack)
    current = state.current
    assert current is not None and current.setup is not None
    setup = current.setup
    assert setup["modifiers"]["1"][-1] == {"kind": "system_errors", "delta": -2}  # -4, bounded
    assert setup["left_out"] == [
        {
            "seat": 1, "card": "own-wall", "kind": "start_marks",
            "reason": "1 energy pair(s) complete at setup: give exactly 1 wall(s).",
        }
    ]  # fmt: skip
    opening = engine.new_game(
        adventure=2, players=2, seed=1,
        modifiers={int(seat): modifiers for seat, modifiers in setup["modifiers"].items()},
    )  # fmt: skip
    sheets = engine.replay(opening).sheets
    assert [len(sheet.error_boxes) for sheet in sheets] == [1, 1]
    assert sheets[1].marks["wall.05"] == "line" and "wall.10" not in sheets[1].marks


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(1, 6),
    level=st.integers(1, 8),
    seed=st.integers(0, 10_000),
    replays=st.sets(st.integers(1, 6), max_size=3),
)
def test_random_campaigns_keep_their_tallies_and_set_up_every_chapter_for_the_engine(
    players: int, level: int, seed: int, replays: set[int]
) -> None:
    """Whatever the ranks and the choices (cards, opponents, missions, replays): the tallies are
    the sum of the attempts that count, the captain has the most stars, every attempt stays, and
    the setup of every chapter is one the engine starts a game with (solo: against ASTRA at a
    level 1-8)."""
    rng = random.Random(seed)
    state = started(players, astra_level=level if players == 1 else None)
    replayed: set[int] = set()
    while True:
        current = state.current
        assert current is not None and current.setup is not None
        astra_level = current.setup.get("astra_level")
        assert (astra_level in range(1, 9)) if players == 1 else astra_level is None
        engine.new_game(
            adventure=current.chapter, players=players, seed=seed,
            missions=current.setup["missions"] or None,
            modifiers={int(seat): mods for seat, mods in current.setup["modifiers"].items()},
            astra_level=astra_level,
        )  # fmt: skip
        # solo: 1st on a win or a draw, 2nd on a loss against ASTRA
        ranks = sorted(rng.randint(1, max(players, 2)) for _ in range(players))
        rng.shuffle(ranks)
        results = [result(seat, rank=rank, errors=rng.randint(0, 2)) for seat, rank in enumerate(ranks)]
        end_chapter(state, results)
        stars = state.stars()
        assert state.captain is not None and stars[state.captain] == max(stars)
        for seat in range(players):
            counted = [state.counting(c) for c in range(1, current.chapter + 1)]
            assert stars[seat] == sum(a.stars_of(seat) for a in counted if a is not None)
        if current.chapter == 7:
            break
        then = "replay_chapter" if current.chapter in replays - replayed else "next_chapter"
        replayed.add(current.chapter)
        settle(state, lambda s, seat, d: dict(rng.choice(d["options"])), then=then)
        start_ready_chapter(state, OPEN)
    assert sum(len(state.attempts_of(c)) for c in range(1, 8)) == 7 + len(replays & set(range(1, 7)))


def test_a_chapter_ends_only_for_the_game_in_play() -> None:
    state = started(2)
    with pytest.raises(OutOfTurn) as refused:
        decider.chapter_end(state, OPEN, game=999, results=by_ranks(1, 2), winners=[0])
    assert refused.value.code == "chapter_not_in_play"
    end_chapter(state, by_ranks(1, 2))
    with pytest.raises(OutOfTurn) as again:
        end_chapter(state, by_ranks(1, 2))
    assert again.value.code == "chapter_not_in_play"
