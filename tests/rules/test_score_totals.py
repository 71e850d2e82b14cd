"""The totals the bots weigh (``seat_total``, ``sheet_total``: no details) are the totals of the
score breakdowns players see, on every sheet of every adventure, at every point of a game."""

import random

import pytest

from games.rules.adventures import PLAYABLE, rules_for
from games.rules.common.base import Adventure
from games.rules.engine import GameState, advance, bots, options

# One option in this many is checked: a decision often lists a hundred.
SAMPLED = 4


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_the_bots_totals_are_the_scores_totals(adventure: int) -> None:
    rules = rules_for(adventure)
    checked = 0

    def checking(bot: bots.Bot) -> bots.Bot:
        def play(state: GameState, seat: int) -> bots.Command:
            nonlocal checked
            for other in range(state.players):
                assert rules.seat_total(state, other) == rules.seat_score(state, other)["total"]
            for sheet in state.sheets:
                score = rules.sheet_score(state, sheet, marks=sheet.marks)
                if "total" in score:  # adventure 8 scores each side of a sheet apart
                    assert rules.sheet_total(state, sheet, marks=sheet.marks) == score["total"]
            checked += 1
            return bot(state, seat)

        return play

    rng = random.Random(adventure)
    bots.play_game(
        adventure=adventure, bots=[checking(bots.greedy_bot(rng)) for _ in range(2)], seed=adventure
    )
    assert checked > 20


@pytest.mark.parametrize("adventure", sorted(PLAYABLE))
def test_the_greedy_bots_score_change_gives_the_totals_of_the_options(adventure: int) -> None:
    """What the greedy bot weighs for an option, rescoring only the parts of the sheet it marks
    (``score_change``), is how much the total of the state the option leads to differs from the
    total now (where the areas are not split into parts, that total itself), for every option it
    is offered."""
    rules = rules_for(adventure)
    checked = 0

    def checking(bot: bots.Bot) -> bots.Bot:
        def play(state: GameState, seat: int) -> bots.Command:
            nonlocal checked
            change = rules.score_change(state, seat)
            now_total = rules.seat_total(state, seat) if rules.marks_change(state, seat) is not None else 0
            for option in options(state, seat).options[::SAMPLED]:
                events, after = advance(state, seat, {"type": "move", "choice": option})
                assert now_total + change(after, events) == rules.seat_total(after, seat), option
                checked += 1
            return bot(state, seat)

        return play

    rng = random.Random(adventure)
    bots.play_game(
        adventure=adventure, bots=[checking(bots.greedy_bot(rng)) for _ in range(2)], seed=adventure + 1
    )
    assert checked > 100


# The adventures whose rules tell the marks some options make (``listed_marks``).
WEIGHED_UNPLAYED = [
    number
    for number, rules in sorted(PLAYABLE.items())
    if type(rules).listed_marks is not Adventure.listed_marks
]


@pytest.mark.parametrize("adventure", WEIGHED_UNPLAYED)
def test_an_option_weighed_unplayed_weighs_what_playing_it_gives(adventure: int) -> None:
    """Where the rules tell the marks an option makes (``listed_marks``), the total and the
    prospects the greedy bot works out from them alone (``marks_change``, ``prospects_change``)
    are those of the state the option leads to, for every such option it is offered."""
    rules = rules_for(adventure)
    checked = 0

    def checking(bot: bots.Bot) -> bots.Bot:
        def play(state: GameState, seat: int) -> bots.Command:
            nonlocal checked
            by_marks = rules.marks_change(state, seat)
            now_total = rules.seat_total(state, seat)
            room = rules.prospects_change(state, seat)
            sheet = state.sheet_of(seat)
            now_prospects = rules.prospects(state, sheet, sheet.marks)
            listed = options(state, seat).options
            for option in listed[::SAMPLED] if len(listed) > SAMPLED * 5 else listed:
                changes = rules.listed_marks(state, seat, option)
                if changes is None:
                    continue
                assert by_marks is not None
                _, after = advance(state, seat, {"type": "move", "choice": option})
                now = after.sheet_of(seat)
                marks = sheet.marks | changes
                assert now_total + by_marks(marks, changes.keys()) == rules.seat_total(after, seat), option
                prospects = rules.prospects(after, now, now.marks)
                assert now_prospects + room(state, sheet, marks, changes.keys(), option) == prospects, option
                checked += 1
            return bot(state, seat)

        return play

    rng = random.Random(adventure)
    bots.play_game(
        adventure=adventure, bots=[checking(bots.greedy_bot(rng)) for _ in range(2)], seed=adventure + 2
    )
    assert checked > 100
