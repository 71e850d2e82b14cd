"""ASTRA's pieces beyond the worked examples: opponents, refusals, the whole track."""

import pytest

from games.rules import engine
from games.rules.common import astra
from games.rules.core.cards import hand_combinations


def test_the_eight_opponents_and_their_multipliers_in_canonical_order() -> None:
    names = [astra.opponent(level).name for level in range(1, 9)]
    assert names == [
        "Katherine", "Alexei", "Margaret", "Franklin", "Sergei", "Stephanie", "Thomas", "Peggy"
    ]
    assert list(astra.opponent(8).multipliers.values()) == [5, 3, 6, 3, 6, 6]
    for level in (0, 9, "1"):
        with pytest.raises(engine.RuleViolation) as refused:
            astra.opponent(level)  # type: ignore[arg-type]
        assert refused.value.code == "unknown_opponent"


@pytest.mark.parametrize(
    ("adventure", "fixed", "per_level"), [(2, 5, 1), (3, 10, 3), (4, 5, 2), (5, 10, 2),
                                          (6, 5, 4), (7, 15, 1), (8, 20, 3)]
)
def test_fixed_and_level_points_per_adventure(adventure: int, fixed: int, per_level: int) -> None:
    score = astra.astra_score(adventure, 4, {})
    assert (score.fixed, score.level, score.total) == (fixed, 4 * per_level, fixed + 4 * per_level)


def test_an_unknown_action_in_the_pile_is_refused() -> None:
    with pytest.raises(engine.RuleViolation) as refused:
        astra.astra_score(2, 1, {"wild": 1})
    assert refused.value.code == "unknown_action"
    with pytest.raises(engine.RuleViolation):
        astra.RocketTrack.start(1).give("wild")


@pytest.mark.parametrize("level", range(1, 9))
def test_the_track_scores_by_boxes_crossed_and_launches_at_81(level: int) -> None:
    track = astra.RocketTrack.start(level)
    scores = []
    while not track.launched:
        scores.append(track.score)
        track = track.give("robot")
    assert track.crossed == 81 and track.score == 150
    assert scores == sorted(scores) and scores[0] == 10
    assert astra.RocketTrack(level, 75).score == 130 and astra.RocketTrack(level, 76).score == 140


def test_a_hand_is_three_different_cards() -> None:
    for hand in ([1, 2], [1, 1, 2]):
        with pytest.raises(engine.RuleViolation) as refused:
            hand_combinations(hand)
        assert refused.value.code == "invalid_hand"
    pairs = hand_combinations([1, 2, 3])
    assert len(pairs) == 6
    assert all(p.number_card != p.action_card for p in pairs)
    assert len({(p.number_card, p.action_card) for p in pairs}) == 6
