"""``manage.py simulate``: bot games summarised, and solo games against ASTRA per level."""

import pytest
from django.core.management import CommandError, call_command

from games.rules.engine import play_one, simulate


def test_multiplayer_games_print_a_summary_table_and_plain_progress(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("simulate", "--adventure", "2", "--players", "3", "--games", "3")
    captured = capsys.readouterr()
    assert "The Journey: 3 game(s) per line, greedy bots, 3 players, seed 0" in captured.out
    assert "every seat" in captured.out and "end conditions met:" in captured.out
    # not a terminal: the progress is a plain line, with its count and rate
    assert "The Journey, 3 player(s): 3/3 (100%) games" in captured.err


def test_astra_levels_give_the_player_s_and_astra_s_scores_and_win_rate_per_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("simulate", "--adventure", "8", "--astra-level", "8", "1", "--games", "4")
    out = capsys.readouterr().out
    assert "The Battle: 4 game(s) per line, greedy bots, one player against ASTRA" in out
    rows = [line for line in out.splitlines() if "level " in line]
    assert [row.split()[1:3] for row in rows] == [["level", "1"], ["level", "8"]]
    expected = simulate(adventure=8, players=1, games=4, bot="greedy", astra_level=8)
    assert expected.astra is not None
    assert f"{expected.scores.mean:.1f}" in rows[1] and f"{expected.astra.mean:.1f}" in rows[1]
    assert f"{expected.win_rate:.0%}" in rows[1]


def test_a_solo_outcome_names_astra_s_total_and_the_winners() -> None:
    outcome = play_one(adventure=3, players=1, bot="greedy", seed=0, game=0, astra_level=2)
    assert outcome.astra is not None and len(outcome.totals) == 1
    assert set(outcome.winners) <= {0, "astra"} and outcome.winners
    assert outcome == play_one(adventure=3, players=1, bot="greedy", seed=0, game=0, astra_level=2)


def test_astra_levels_are_for_one_player_only() -> None:
    with pytest.raises(CommandError, match="--astra-level plays solo games"):
        call_command("simulate", "--players", "3", "--astra-level", "2", "--games", "1")
    with pytest.raises(CommandError, match="--games must be at least 1"):
        call_command("simulate", "--games", "0")


def test_whole_solo_campaigns_are_tallied_per_starting_astra_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("simulate", "--campaign", "--astra-level", "8", "--games", "1", "--bot", "random")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "1 campaign(s) per table, random bots"
    assert lines[1].startswith("solo, ASTRA level 8: mean stars player ")
    assert "ASTRA among the winners in " in lines[1] and "/1 (" in lines[1]
    with pytest.raises(CommandError, match="solo campaigns"):
        call_command("simulate", "--campaign", "--players", "2", "--astra-level", "1", "--games", "1")
