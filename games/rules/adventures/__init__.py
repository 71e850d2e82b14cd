"""One package per adventure (its rules, its layout and its solo part), the data files of all of
them in ``data/``; ``rules_for`` finds the rules a game plays."""

from typing import Any

from games.rules.adventures.battle.rules import BattleRules
from games.rules.adventures.colony.rules import ColonyRules
from games.rules.adventures.dome.rules import DomeRules
from games.rules.adventures.escape.rules import EscapeRules
from games.rules.adventures.journey.rules import JourneyRules
from games.rules.adventures.launch.rules import LaunchRules
from games.rules.adventures.mine.rules import MineRules
from games.rules.adventures.virus.rules import VirusRules
from games.rules.common.base import Adventure
from games.rules.core.errors import RuleViolation

PLAYABLE: dict[int, Adventure[Any]] = {
    1: LaunchRules(),
    2: JourneyRules(),
    3: ColonyRules(),
    4: MineRules(),
    5: DomeRules(),
    6: VirusRules(),
    7: EscapeRules(),
    8: BattleRules(),
}


def rules_for(adventure: object) -> Adventure[Any]:
    """The rules of a playable adventure, or a RuleViolation naming what is playable."""
    if isinstance(adventure, int) and adventure in PLAYABLE:
        return PLAYABLE[adventure]
    if isinstance(adventure, int) and 1 <= adventure <= 8:
        raise RuleViolation(
            "adventure_not_available",
            "Adventure %(adventure)s is not playable yet; playable: %(playable)s.",
            adventure=adventure,
            playable=sorted(PLAYABLE),
        )
    raise RuleViolation("unknown_adventure", "Adventures are numbered 1 to 8.")
