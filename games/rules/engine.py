"""The rules engine's public surface, in the decider shape.

- ``new_game(...)`` -> the opening events of a game;
- ``decide(state, seat, command)`` -> the events a command causes, or a RuleViolation;
  ``advance`` -> the same with the state they lead to (each event applied once);
- ``evolve(state, event)`` -> the state after one stored event; ``replay(events)`` folds them
  (events of an older version are upcast first);
- ``options(state, seat)`` -> what the seat must or may do, every choice listed, each option of
  one of the shapes whose union is ``Option`` (``WriteOption``, ``StepOption``...); a move
  sends one back, read as a ``Choice`` (checked in full unless it is one of them);
- ``astra_turn(state)`` -> solo: the events of ASTRA's part of the turn when ``astra_due``
  (none otherwise, so asking twice plays it once); ``astra_advance`` with the state after;
- ``absent_seats(state)`` / ``autopilot(state, seat, in_a_row=...)`` -> the seats a passed
  deadline plays for, and the events of playing one as the greedy bot would; ``resign(state,
  seat)`` -> the seat handed to a bot for the rest of the game;
- ``result_event(state)`` -> the final scores of an ended game, as an event;
- ``game_view`` / ``sheet_view`` / ``redact`` / ``feed`` -> what one viewer may see, and in
  which order the events became readable to it; ``referee_sheet_view`` / ``referee_seats`` /
  ``referee_astra`` -> everything, for the staff who review games; ``mission_claims`` -> who
  accomplished which mission; ``sheet_schematic`` -> how a sheet is laid out, to draw it;
- ``accomplished(state, seat)`` -> the missions a seat accomplished and the System Error boxes
  it marked, as its adventure defines them (what a campaign's chapter result reads);
- ``reenact(log)`` -> the state of a finished game after a log that comes from outside, once
  every event in it is found to be what the engine appends (``LogRefused`` otherwise);
  ``replay_checked(log)`` checks less, for a log recorded under earlier rules.

Code outside ``games.rules`` reads the rules through this module only (an import-linter
contract): besides the decider, it finds here the playable adventures (``PLAYABLE``), the event
kinds and their checks, the phases, the missions' letters, ASTRA's opponents, a sheet's marks
and schematic, bot self-play (``simulate``), and five modules used as namespaces: ``bots``
(the legal-move players), ``data`` (the rules data files), ``kinds`` (the shape every event
stream declares its kinds in, which campaigns share), ``narration`` (events told in words) and
``snapshots`` (a state as JSON, for the snapshot cache).
"""

from collections.abc import Iterable

from games.rules.adventures import PLAYABLE, rules_for
from games.rules.common.astra import opponents as astra_opponents
from games.rules.common.base import Accomplished
from games.rules.common.missions import LETTERS
from games.rules.common.missions import candidates as mission_candidates
from games.rules.common.options import (
    AstraEffectOption,
    AstraPlaceOption,
    Choice,
    ClaimOption,
    Decision,
    DecisionKind,
    DrawOption,
    GiveOption,
    Option,
    SkipOption,
    StepOption,
    SystemErrorOption,
    Target,
    WriteOption,
)
from games.rules.core import data, kinds, snapshots
from games.rules.core.errors import N_, OutOfTurn, RuleViolation, Text, shown
from games.rules.core.events import KINDS, AstraResult, Event, MissionValues, schema_problem
from games.rules.core.schematic import ZONE, Area, Row, Schematic
from games.rules.core.sheet import CIRCLE, CROSS, LINE, Mark, X
from games.rules.core.state import ACTIONS_PHASE, INCIDENTS_PHASE, MISSIONS_PHASE, SETUP_PHASE, GameState
from games.rules.play import bots
from games.rules.play.absent import STAND_IN, TIMEOUTS_TO_RESIGN, absent_seats, autopilot, resign
from games.rules.play.audit import LogRefused, reenact, replay_checked
from games.rules.play.simulation import (
    BOT_KINDS,
    GameOutcome,
    SimulationSummary,
    play_one,
    simulate,
    summarise,
)
from games.rules.read import narration
from games.rules.read.upcasting import UPCASTERS, upcast
from games.rules.read.views import (
    HIDDEN_FIELDS,
    feed,
    game_view,
    mission_claims,
    redact,
    referee_astra,
    referee_seats,
    referee_sheet_view,
    sheet_schematic,
    sheet_view,
    winning,
)
from games.rules.turn.solo import astra_advance, astra_due, astra_turn
from games.rules.turn.turn import (
    OPTION_VALUE_TYPES,
    advance,
    decide,
    new_game,
    options,
    result_event,
)

__all__ = [
    "ACTIONS_PHASE",
    "BOT_KINDS",
    "CIRCLE",
    "CROSS",
    "HIDDEN_FIELDS",
    "INCIDENTS_PHASE",
    "KINDS",
    "LETTERS",
    "LINE",
    "MISSIONS_PHASE",
    "N_",
    "OPTION_VALUE_TYPES",
    "PLAYABLE",
    "SETUP_PHASE",
    "STAND_IN",
    "TIMEOUTS_TO_RESIGN",
    "ZONE",
    "Accomplished",
    "Area",
    "AstraEffectOption",
    "AstraPlaceOption",
    "AstraResult",
    "Choice",
    "ClaimOption",
    "Decision",
    "DecisionKind",
    "DrawOption",
    "Event",
    "GameOutcome",
    "GameState",
    "GiveOption",
    "LogRefused",
    "Mark",
    "MissionValues",
    "Option",
    "OutOfTurn",
    "Row",
    "RuleViolation",
    "Schematic",
    "SimulationSummary",
    "SkipOption",
    "StepOption",
    "SystemErrorOption",
    "Target",
    "Text",
    "WriteOption",
    "X",
    "absent_seats",
    "accomplished",
    "advance",
    "astra_advance",
    "astra_due",
    "astra_opponents",
    "astra_turn",
    "autopilot",
    "bots",
    "data",
    "decide",
    "evolve",
    "feed",
    "game_view",
    "kinds",
    "mission_candidates",
    "mission_claims",
    "narration",
    "new_game",
    "options",
    "play_one",
    "redact",
    "reenact",
    "referee_astra",
    "referee_seats",
    "referee_sheet_view",
    "replay",
    "replay_checked",
    "resign",
    "result_event",
    "schema_problem",
    "sheet_schematic",
    "sheet_view",
    "shown",
    "simulate",
    "snapshots",
    "step_actions",
    "summarise",
    "upcast",
    "winning",
]


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one stored event (of any version) to ``state`` in place and return it."""
    return kinds.evolve(KINDS, state, kinds.upcast(KINDS, UPCASTERS, event))


def replay(stored: Iterable[Event], state: GameState | None = None) -> GameState:
    """Rebuild a game's state from its stored events, whatever their versions (each applied
    once; only those stored at an older version are upcast; those whose every change a later
    turn's start overwrites, not at all); given ``state`` (a snapshot's), fold the events after
    it onto it, in place."""
    return kinds.fold(KINDS, UPCASTERS, GameState() if state is None else state, stored)


def accomplished(state: GameState, seat: int) -> Accomplished:
    """What ``seat`` accomplished in the game, as its adventure defines it."""
    return rules_for(state.adventure).accomplished(state, seat)


def step_actions() -> list[str]:
    """Every ``action`` a ``StepOption`` can name: the steps of every playable adventure."""
    return sorted({action for rules in PLAYABLE.values() for action in rules.steps})
