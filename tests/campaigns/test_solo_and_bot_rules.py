"""Solo campaigns and bot seats in the campaign's rules, without a database: ASTRA's level per
chapter (the starting level moved by the cards in effect, bounded 1-8), the stars against
ASTRA, chapter 8 following the engine's solo mode of The Battle, and the bots' choices."""

import random
from typing import Any

import pytest

from campaigns.rules import bots, decider
from campaigns.rules.decider import Decision
from campaigns.rules.state import CampaignState
from games.rules.adventures import PLAYABLE
from games.rules.core.errors import OutOfTurn, RuleViolation
from tests.campaigns.flow import OPEN, apply, bare, by_ranks, choose, end_chapter, result, settle, started


def solo_end(state: CampaignState, *, rank: int, winners: list[Any]) -> None:
    """The solo chapter in play ends: the player's rank and the winners as the game gives them."""
    current = state.current
    assert current is not None and current.game is not None
    results = [result(0, rank=rank)]
    apply(state, decider.chapter_end(state, OPEN, game=current.game, results=results, winners=winners))


def pick_cards(*cards: str) -> Any:
    """Choose the named cards when offered (the first option otherwise)."""

    def pick(state: CampaignState, seat: int, decision: dict[str, Any]) -> dict[str, Any]:
        wanted = [o for o in decision["options"] if o.get("card") in cards]
        return dict((wanted or decision["options"])[0])

    return pick


def setup_level(state: CampaignState) -> Any:
    assert state.current is not None and state.current.setup is not None
    return state.current.setup.get("astra_level")


@pytest.mark.parametrize(("start", "after_uplink"), [(3, 2), (1, 1)])
def test_a_solo_chapters_astra_level_is_the_start_moved_by_the_cards_in_effect(
    start: int, after_uplink: int
) -> None:
    state = started(1, astra_level=start)
    assert setup_level(state) == start
    solo_end(state, rank=1, winners=[0])
    # the one player is the captain: the group's card, then the personal one
    assert [option["card"] for option in decider.options(state, OPEN, 0).as_dict()["options"]] == [
        "c1-tanker-escort", "c1-flight-plan", "c1-quiet-uplink"
    ]  # fmt: skip
    settle(state, pick_cards("c1-quiet-uplink", "c1-launch-medal"))
    assert state.current is not None and state.current.chapter == 2
    assert setup_level(state) == after_uplink  # the uplink (-1) for the next chapter, never below 1
    assert state.current.setup is not None
    assert state.current.setup["modifiers"] == {"0": [{"kind": "bonus_points", "points": 3}]}
    solo_end(state, rank=2, winners=["astra"])
    settle(state)
    assert setup_level(state) == start  # the uplink applied to chapter 2 only


def test_astra_studies_raise_the_level_for_the_rest_of_the_campaign_up_to_8() -> None:
    for start, levels in ((6, [6, 6, 6, 6, 7, 7, 7]), (8, [8, 8, 8, 8, 8, 8, 8])):
        state = started(1, astra_level=start)
        seen = [setup_level(state)]
        for _ in range(6):
            solo_end(state, rank=1, winners=[0])
            settle(state, pick_cards("c4-astra-studies"))
            seen.append(setup_level(state))
        assert seen == levels


def test_a_game_for_several_players_has_no_astra_level_in_its_setup() -> None:
    state = started(2)
    assert setup_level(state) is None
    end_chapter(state, by_ranks(1, 2))
    settle(state)
    assert setup_level(state) is None


@pytest.mark.parametrize(
    ("rank", "winners", "stars"),
    [(1, [0], 2), (1, [0, "astra"], 2), (2, ["astra"], 1)],
    ids=["beats-astra", "draw", "loses"],
)
def test_solo_stars_rank_astra_as_the_other_player(rank: int, winners: list[Any], stars: int) -> None:
    """Chapter 3 gives 2 stars to the 1st, 1 to the 2nd: beating ASTRA or a draw is 1st."""
    state = started(1, astra_level=2)
    for _ in range(2):
        solo_end(state, rank=2, winners=["astra"])  # chapters 1-2 lost: 0 stars
        settle(state)
    solo_end(state, rank=rank, winners=winners)
    assert state.current is not None and state.current.awards is not None
    assert state.current.awards == [
        {"seat": 0, "stars": stars, "reasons": [{"reason": "rank", "rank": rank, "stars": stars}]}
    ]
    assert state.stars() == [stars] and state.captain == 0


def test_chapter_8_of_a_solo_campaign_follows_the_battles_solo_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    battle = type(PLAYABLE[8])

    def no_solo(self: Any, players: int) -> RuleViolation | None:
        if players == 1:
            return RuleViolation("solo_not_available", "ASTRA does not play this adventure yet.")
        return None

    monkeypatch.setattr(battle, "players_problem", no_solo)  # as before ASTRA plays The Battle
    state = started(1, astra_level=4)
    for _ in range(6):
        solo_end(state, rank=1, winners=[0])
        settle(state)
    solo_end(state, rank=1, winners=[0])
    settle_cards = decider.pending(state, OPEN)
    while settle_cards is not None and settle_cards.decision.kind != "chapter":
        choose(state, 0, settle_cards.decision.options[0])
        settle_cards = decider.pending(state, OPEN)
    assert settle_cards is not None
    assert settle_cards.decision.options == [{"action": "replay_chapter", "chapter": 7}]
    with pytest.raises(OutOfTurn) as refused:
        decider.decide(state, OPEN, 0, {"action": "next_chapter", "chapter": 8})
    assert refused.value.code == "chapter_not_available"
    assert refused.value.detail == (
        "Chapter 8 plays adventure 8 (The Battle): ASTRA does not play this adventure yet."
    )
    assert decider.unavailable(8, players=2) is None  # a campaign for players plays it

    monkeypatch.setattr(battle, "players_problem", lambda self, players: None)  # ASTRA plays it
    assert decider.unavailable(8, players=1) is None
    assert {"action": "next_chapter", "chapter": 8} in decider.options(state, OPEN, 0).options


# --- the bots' choices ---------------------------------------------------------------------


def asked(state: CampaignState) -> tuple[int, Decision]:
    pending = decider.pending(state, OPEN)
    assert pending is not None
    return pending.seat, pending.decision


def test_a_greedy_bot_takes_the_card_worth_most_and_aims_at_the_leader() -> None:
    state = started(3)
    end_chapter(state, by_ranks(1, 2, 2))  # seat 0 leads with 1 star and holds the captain card
    seat, decision = asked(state)
    greedy = bots.greedy_bot(random.Random(1))
    # the group's cards: a start mark (3) over a mission chosen (2)
    assert seat == 0
    assert bare(greedy(state, OPEN, seat, decision)) == {"action": "choose_card", "card": "c1-tanker-escort"}
    choose(state, seat, greedy(state, OPEN, seat, decision))
    # seat 1 (fewest stars, lower seat first): a System Error box fewer for the leader (5) over
    # 3 points for itself, aimed at the leader
    seat, decision = asked(state)
    assert seat == 1
    assert bare(greedy(state, OPEN, seat, decision)) == {"action": "choose_card", "card": "c1-hangar-rumour"}
    choose(state, seat, greedy(state, OPEN, seat, decision))
    seat, decision = asked(state)
    assert decision.kind == "aim" and [o["target"] for o in decision.as_dict()["options"]] == [0, 2]
    aimed = greedy(state, OPEN, seat, decision)
    assert bare(aimed) == {"action": "aim_card", "card": "c1-hangar-rumour", "target": 0}
    assert bots.card_worth(OPEN.card("c3-prospector")) == 5  # one point in each of 5 chapters


@pytest.mark.parametrize("kind", sorted(bots.KINDS))
def test_bots_choose_listed_options_and_open_the_next_chapter_as_captain(kind: str) -> None:
    state = started(2)
    end_chapter(state, by_ranks(1, 2))
    choices = []
    while (pending := decider.pending(state, OPEN)) is not None:
        rng = random.Random(f"seed/{pending.seat}/{state.events_applied}")
        choice = bots.KINDS[kind](rng)(state, OPEN, pending.seat, pending.decision)
        assert choice in pending.decision.options
        # drawn from the position: the same choice again from the same generator seed
        again = bots.KINDS[kind](random.Random(f"seed/{pending.seat}/{state.events_applied}"))
        assert again(state, OPEN, pending.seat, pending.decision) == choice
        choices.append(choice)
        choose(state, pending.seat, choice)
    # the captain opened chapter 2 (then the missions its cards choose, if any)
    opened = choices.index({"action": "next_chapter", "chapter": 2})
    assert all(choice["action"] == "choose_mission" for choice in choices[opened + 1 :])
    chapter = Decision("chapter", [{"action": "replay_chapter", "chapter": 7}])
    # with no next chapter to open, the one option left
    assert bots.KINDS[kind](random.Random(0))(state, OPEN, 0, chapter) == chapter.options[0]
