"""One module per adventure; ``rules_for`` finds the one a game plays."""

from games.rules.adventures.base import Adventure
from games.rules.adventures.battle import BattleRules
from games.rules.adventures.colony import ColonyRules
from games.rules.adventures.dome import DomeRules
from games.rules.adventures.escape import EscapeRules
from games.rules.adventures.journey import JourneyRules
from games.rules.adventures.launch import LaunchRules
from games.rules.adventures.mine import MineRules
from games.rules.adventures.virus import VirusRules
from games.rules.errors import RuleViolation

PLAYABLE: dict[int, Adventure] = {
    1: LaunchRules(),
    2: JourneyRules(),
    3: ColonyRules(),
    4: MineRules(),
    5: DomeRules(),
    6: VirusRules(),
    7: EscapeRules(),
    8: BattleRules(),
}


def rules_for(adventure: object) -> Adventure:
    """The rules of a playable adventure, or a RuleViolation naming what is playable."""
    if isinstance(adventure, int) and adventure in PLAYABLE:
        return PLAYABLE[adventure]
    if isinstance(adventure, int) and 1 <= adventure <= 8:
        raise RuleViolation(
            "adventure_not_available",
            f"Adventure {adventure} is not playable yet; playable: {sorted(PLAYABLE)}.",
        )
    raise RuleViolation("unknown_adventure", "Adventures are numbered 1 to 8.")
