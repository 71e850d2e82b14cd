"""Version 2 of the campaign rules (rules/campaign.md, "Version 2 of these rules"), through the
campaign's decider alone: the captain keeps or replays a chapter before any card is offered;
the personal cards are a draft; ASTRA is a rival with a star tally in solo; choices carry their
text. And a campaign created under version 1 replays and goes on under version 1."""

import json
from pathlib import Path
from typing import Any

import pytest

from campaigns.rules import decider
from campaigns.rules.events import replay
from campaigns.rules.state import CampaignState
from games.rules.engine import LETTERS, OutOfTurn, RuleViolation, data, mission_candidates, new_game
from games.rules.engine import replay as engine_replay
from games.selectors import standings_of
from tests.campaigns.flow import OPEN, OPEN_V2, apply, bare, bares, by_ranks, choose, listed, result, started
from tests.campaigns.flow import end_chapter as end_with
from tests.rules.battle_helpers import LAYOUT, finished, game, set_sheet
from tests.rules.battle_helpers import battle as battle_sheet

RECORDED = Path(__file__).parent.parent / "fixtures" / "logs_campaign_v1"


def written(letters: list[str]) -> dict[str, int]:
    """Missions written on a side S (their boxes hold a value)."""
    return {LAYOUT.mission_boxes[letter]: 5 for letter in letters if letter in LETTERS}


def end_chapter(state: CampaignState, ranks: tuple[int, ...]) -> list[Any]:
    return end_with(state, by_ranks(*ranks), OPEN_V2)


def keep(state: CampaignState, seed: int = 7) -> list[Any]:
    assert state.captain is not None and state.current is not None
    return apply(
        state,
        decider.decide(
            state,
            OPEN_V2,
            state.captain,
            {"action": "keep_chapter", "chapter": state.current.chapter},
            seed=seed,
        ),
    )


def test_the_captain_keeps_or_replays_before_any_card_is_offered() -> None:
    state = started(3, OPEN_V2, rules_version=2)
    end_chapter(state, (2, 1, 3))  # seat 1 takes the captain card
    assert state.current is not None and state.current.offer is None
    asked = decider.pending(state, OPEN_V2)
    assert asked is not None and asked.seat == 1 and asked.decision.kind == "keep_or_replay"
    assert listed(asked.decision) == [
        {"action": "keep_chapter", "chapter": 1},
        {"action": "replay_chapter", "chapter": 1},
    ]
    with pytest.raises(OutOfTurn, match="seat 1 to keep this chapter's result or replay it"):
        decider.decide(state, OPEN_V2, 0, {"action": "keep_chapter", "chapter": 1})
    replayed = choose(state, 1, {"action": "replay_chapter", "chapter": 1}, OPEN_V2)
    assert [event["kind"] for event in replayed] == ["chapter_replayed"]
    assert state.current is not None and state.current.number == 2 and state.current.game is not None
    assert state.attempts[0].offer is None and state.attempts[0].choices == []  # nothing to discard

    end_chapter(state, (1, 2, 3))  # the replay counts: seat 0 has the star and the captain card
    assert state.stars() == [1, 0, 0] and state.captain == 0
    kept = keep(state)
    assert [event["kind"] for event in kept] == ["chapter_kept", "cards_offered"]
    assert kept[1]["data"]["attempt"] == 2 and state.current is not None and state.current.kept


def test_personal_cards_are_a_draft_one_more_than_the_players_the_fewest_stars_first() -> None:
    state = started(3, OPEN_V2, rules_version=2)
    end_chapter(state, (2, 1, 3))
    offer = keep(state)[1]["data"]
    assert len(offer["personal"]) == 4 and offer["order"] == [0, 2, 1]
    assert offer["personal"] == decider.personal_offer(OPEN_V2, 1, 1, players=3, seed=7)
    assert all(OPEN_V2.card(card).chooser == "each" for card in offer["personal"])
    assert offer["group"] == ["c1-tanker-escort", "c1-flight-plan"]  # ASTRA's level: solo only

    choose(state, 1, {"action": "choose_card", "card": "c1-tanker-escort"}, OPEN_V2)  # the group's
    taken: list[str] = []
    for seat in offer["order"]:
        asked = decider.pending(state, OPEN_V2)
        assert asked is not None and (asked.seat, asked.decision.kind) == (seat, "card")
        left = [option["card"] for option in listed(asked.decision)]
        assert left == [card for card in offer["personal"] if card not in taken]
        if taken:  # a card another seat took is gone
            with pytest.raises(RuleViolation) as refused:
                decider.decide(state, OPEN_V2, seat, {"action": "choose_card", "card": taken[0]})
            assert refused.value.code == "illegal_choice"
        new = choose(state, seat, bare(listed(asked.decision)[-1]), OPEN_V2)
        taken.append(new[0]["data"]["card"])
        while (aim := decider.pending(state, OPEN_V2)) is not None and aim.decision.kind == "aim":
            new = choose(state, seat, bare(listed(aim.decision)[0]), OPEN_V2)
    # the last choice opened chapter 2: the captain chose to go on when keeping chapter 1
    assert new[-1]["kind"] in ("chapter_started", "chapter_opened")
    assert state.current is not None and state.current.chapter == 2 and len(set(taken)) == 3


def test_options_carry_the_cards_text_and_the_missions_condition_and_values() -> None:
    state = started(2, OPEN_V2, rules_version=2)
    end_chapter(state, (1, 2))
    keep(state)
    asked = decider.pending(state, OPEN_V2)
    assert asked is not None
    plan = next(option for option in listed(asked.decision) if option["card"] == "c1-flight-plan")
    card = OPEN_V2.card("c1-flight-plan")
    assert {**plan, "effects": [str(effect) for effect in plan["effects"]]} == {
        "action": "choose_card",
        "card": "c1-flight-plan",
        "title": card.title,
        "story": card.story,
        "effects": ["Mission card(s) A chosen instead of drawn at random."],
    }
    escort = next(option for option in listed(asked.decision) if option["card"] == "c1-tanker-escort")
    assert [str(effect) for effect in escort["effects"]] == [
        "Adventure 2's sheet (The Journey) starts with water.t01 circled."
    ]
    # the option sent back whole is the choice, its text read in any language
    read_in_spanish = {**plan, "title": "Plan de vuelo", "effects": ["Elegidas, no al azar."]}
    choose(state, asked.seat, read_in_spanish, OPEN_V2)
    while (asked := decider.pending(state, OPEN_V2)) is not None and asked.decision.kind != "mission":
        choose(state, asked.seat, bare(listed(asked.decision)[0]), OPEN_V2)
    assert asked is not None
    first, second = mission_candidates(2, "A")
    assert bares(listed(asked.decision)) == [
        {"action": "choose_mission", "letter": "A", "card": card} for card in (first, second)
    ]
    option = listed(asked.decision)[0]
    printed = next(card for card in data.common()["missions"] if card["card"] == first)
    assert option["condition"] == printed["text"]
    assert option["values"] == {"first": printed["first"], "later": printed["later"]}
    with pytest.raises(RuleViolation):  # a field the option does not have is no option
        decider.decide(state, OPEN_V2, asked.seat, {**bare(option), "title": "anything"})
    # its text as read in another language is still the option: only the choosing fields count
    assert decider.decide(state, OPEN_V2, asked.seat, {**option, "condition": "Condición traducida"})


def solo_chapter(state: CampaignState, outcome: str, *, total: int = 50, astra: int = 60) -> None:
    """A solo chapter won, drawn or lost against ASTRA."""
    current = state.current
    assert current is not None and current.game is not None
    rank = 2 if outcome == "lost" else 1
    outcomes: dict[str, list[Any]] = {"won": [0], "draw": [0, "astra"], "lost": ["astra"]}
    winners = outcomes[outcome]
    apply(
        state,
        decider.chapter_end(
            state,
            OPEN_V2,
            game=current.game,
            results=[result(0, rank=rank, total=total)],
            winners=winners,
            astra_total=astra,
        ),
    )


def no_goal(card: str) -> bool:
    return all(effect["kind"] != "star_goal" for effect in OPEN_V2.card(card).effects)


# a seed whose solo drafts each offer a card without a star goal: the player's stars are then
# the table's for its ranks alone
SOLO_SEED = next(
    seed
    for seed in range(1000)
    if all(
        any(map(no_goal, decider.personal_offer(OPEN_V2, chapter, 1, players=1, seed=seed)))
        for chapter in range(1, 8)
    )
)


@pytest.mark.parametrize(
    ("outcomes", "totals", "winners"),
    [
        (["won"] * 8, (50, 40), [0]),
        (["lost"] * 8, (50, 40), ["astra"]),
        (["won", "lost"] * 4, (50, 40), ["astra"]),  # 17 stars against 19, whatever the totals
        (["draw"] * 8, (50, 40), [0]),  # equal stars: the higher sum of chapter totals
        (["draw"] * 8, (40, 50), ["astra"]),
        (["draw"] * 8, (45, 45), [0, "astra"]),
    ],
)
def test_astra_is_a_rival_with_a_star_tally_in_solo(
    outcomes: list[str], totals: tuple[int, int], winners: list[Any]
) -> None:
    state = started(1, OPEN_V2, astra_level=4, rules_version=2)
    assert state.astra_tally() == {"stars": 0, "totals": 0}
    table = OPEN_V2.stars
    expected = 0
    for chapter, outcome in enumerate(outcomes, start=1):
        solo_chapter(state, outcome, total=totals[0], astra=totals[1])
        expected += table[chapter][0 if outcome in ("lost", "draw") else 1]
        tally = state.astra_tally()
        assert tally == {"stars": expected, "totals": totals[1] * chapter}
        current = state.current
        assert current is not None and current.astra_award is not None
        assert current.astra_award["reasons"][0]["reason"] == "rank"
        if chapter < 8:
            keep(state, SOLO_SEED)
            while (asked := decider.pending(state, OPEN_V2)) is not None:
                plain = [
                    option
                    for option in listed(asked.decision)
                    if asked.decision.kind == "mission" or no_goal(option["card"])
                ]
                choose(state, asked.seat, bare(plain[0]), OPEN_V2)
        ranks = [0 if outcome != "lost" else 1 for outcome in outcomes[:chapter]]
        assert state.stars() == [sum(table[c][rank] for c, rank in enumerate(ranks, start=1))]
    assert state.winners is None and state.status == "between"  # chapter 8 too is kept or replayed
    finished = keep(state)
    assert [event["kind"] for event in finished] == ["chapter_kept", "campaign_finished"]
    assert state.winners == winners and state.status == "finished"
    assert finished[-1]["data"]["astra"] == state.astra_tally()


def test_a_recorded_version_1_campaign_replays_and_goes_on_under_version_1() -> None:
    """The three-seat campaign recorded before version 2, as it stood between chapters 3 and 4
    (its cards offered): version 1 still asks for the cards first, then the next chapter."""
    recorded = json.loads((RECORDED / "campaign-3p-seed301.json").read_text(encoding="utf-8"))
    offered = [
        index
        for index, event in enumerate(recorded["events"])
        if event["kind"] == "cards_offered" and event["data"]["chapter"] == 3
    ][-1]
    state = replay(recorded["events"][: offered + 1])
    assert state.rules_version == 1 and state.status == "between"
    kinds = []
    while (asked := decider.pending(state, OPEN)) is not None and asked.decision.kind != "chapter":
        kinds.append(asked.decision.kind)
        choose(state, asked.seat, bare(listed(asked.decision)[0]))
    assert kinds and "keep_or_replay" not in kinds
    assert asked is not None and bares(listed(asked.decision))[0] == {"action": "next_chapter", "chapter": 4}
    opened = choose(state, asked.seat, listed(asked.decision)[0])[0]
    assert opened["kind"] == "chapter_opened"


LAST_STAND = "c7-last-stand"  # the captain's card after chapter 7: 2 stars for two missions


def to_chapter_8(state: CampaignState, players: int) -> None:
    """Chapters 1 to 7 played and kept, the captain taking *Last stand* after chapter 7."""
    for _ in range(1, 8):
        if players == 1:
            solo_chapter(state, "won")
        else:
            end_chapter(state, tuple(range(1, players + 1)))
        keep(state)
        while (asked := decider.pending(state, OPEN_V2)) is not None:
            options = listed(asked.decision)
            wanted = [option for option in options if option.get("card") == LAST_STAND]
            choose(state, asked.seat, bare((wanted or options)[0]), OPEN_V2)
    assert state.current is not None and state.current.chapter == 8 and state.status == "playing"


@pytest.mark.parametrize("players", [2, 4, 6, 1])
def test_chapter_8_reads_side_s_missions_and_own_errors_a_missions_goal_pays_and_it_may_be_replayed(
    players: int,
) -> None:
    state = started(players, OPEN_V2, astra_level=4 if players == 1 else None, rules_version=2)
    to_chapter_8(state, players)
    assert (LAST_STAND, tuple(range(players))) in [
        (entry.card.id, entry.holders) for entry in decider.cards_in_effect(state, OPEN_V2, 8)
    ]
    missions = {seat: list(LETTERS[: (seat + 2) % 4]) for seat in range(players)}  # AB, ABC, -, A...
    if players == 1:
        battle = engine_replay(new_game(adventure=8, players=1, seed=3, astra_level=4))
        left, right = battle.seats[0].sheets
        set_sheet(battle, left, battle_sheet(S={"error": 1}, marks=written(missions[0])))
        set_sheet(battle, right, battle_sheet(S={"error": 2}))
        errors = {0: 3}  # both sheets are the player's own
    else:
        battle = game(players)
        for sheet in range(players):  # sheet k: seat k on side S, its left neighbour on side N
            neighbour = (sheet + 1) % players
            marks = written(missions[sheet])
            set_sheet(battle, sheet, battle_sheet(S={"error": 1}, N={"error": neighbour % 2}, marks=marks))
        errors = {seat: 1 + seat % 2 for seat in range(players)}  # its S boxes and its N boxes
    read = standings_of(state=finished(battle))
    assert read is not None
    assert {s["seat"]: (s["missions"], s["system_errors"]) for s in read["scores"]} == {
        seat: (missions[seat], errors[seat]) for seat in range(players)
    }
    current = state.current
    assert current is not None and current.game is not None
    apply(
        state,
        decider.chapter_end(
            state,
            OPEN_V2,
            game=current.game,
            results=read["scores"],
            winners=read["winners"],
            astra_total=read.get("astra_total"),
        ),
    )
    assert current.awards is not None
    paid = {
        award["seat"]: [reason["card"] for reason in award["reasons"] if reason["reason"] == "star_goal"]
        for award in current.awards
    }
    assert {seat: LAST_STAND in cards for seat, cards in paid.items()} == {
        seat: len(missions[seat]) >= 2 for seat in range(players)
    }
    # chapter 8 too may be replayed before its result is kept
    assert state.captain is not None
    replayed = choose(state, state.captain, {"action": "replay_chapter", "chapter": 8}, OPEN_V2)
    assert [event["kind"] for event in replayed] == ["chapter_replayed"]
    assert state.current is not None and (state.current.chapter, state.current.number) == (8, 2)
    assert state.winners is None
