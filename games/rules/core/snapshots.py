"""A game's state as plain JSON, so that a store can keep it beside the log and skip the replay.

The log stays the truth: a snapshot is only ever the fold of a prefix of it, and it is trusted
only when it was written by this very engine (``ENGINE_VERSION``, a digest of the engine's code
and data). Any change to the rules makes every stored snapshot stale, and stale ones are rebuilt
from the log instead of being migrated.
"""

import hashlib
from pathlib import Path
from typing import Any

from games.rules.core.cards import Combination, Stack
from games.rules.core.state import AstraState, GameState, SeatState, Sheet

FORMAT = 1


def _engine_version() -> str:
    root = Path(__file__).parents[1]
    digest = hashlib.sha256(f"snapshot-format-{FORMAT}".encode())
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.json")]):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


ENGINE_VERSION = _engine_version()


def dump(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready data (the seats' cached decisions are left out)."""
    return {
        "adventure": state.adventure,
        "players": state.players,
        "seed": state.seed,
        "missions": state.missions,
        "mission_values": state.mission_values,
        "flipped_missions": sorted(state.flipped_missions),
        "flipped_on": state.flipped_on,
        "turn": state.turn,
        "phase": state.phase,
        "combinations": [list(combination) for combination in state.combinations],
        "stacks": [[stack.draw, stack.discard] for stack in state.stacks],
        "sheets": [
            {
                "id": sheet.id,
                "seats": list(sheet.seats),
                "marks": sheet.marks,
                "error_boxes": list(sheet.error_boxes),
                "bonus_points": sheet.bonus_points,
                "sides": sheet.sides,
                "turn_start_marks": sheet.turn_start_marks,
            }
            for sheet in state.sheets
        ],
        "seats": [
            {
                "sheets": list(seat.sheets),
                "sheet": seat.sheet,
                "chosen": seat.chosen,
                "turn_choice": seat.turn_choice,
                "pending": seat.pending,
                "triggered": seat.triggered,
                "confirmed": seat.confirmed,
                "claimable": list(seat.claimable),
                "claimed": list(seat.claimed),
                "resigned": seat.resigned,
            }
            for seat in state.seats
        ],
        "astra": None if state.astra is None else vars(state.astra),
        "status": state.status,
        "end": state.end,
        "result": state.result,
        "events_applied": state.events_applied,
    }


def load(data: dict[str, Any]) -> GameState:
    """The state ``dump`` wrote, rebuilt with fresh objects (the caller may change it)."""
    return GameState(
        adventure=data["adventure"],
        players=data["players"],
        seed=data["seed"],
        missions=dict(data["missions"]),
        mission_values={letter: dict(values) for letter, values in data["mission_values"].items()},
        flipped_missions=set(data["flipped_missions"]),
        flipped_on=dict(data["flipped_on"]),
        turn=data["turn"],
        phase=data["phase"],
        combinations=[Combination(*combination) for combination in data["combinations"]],
        stacks=[Stack(list(draw), list(discard)) for draw, discard in data["stacks"]],
        sheets=[Sheet.from_data(sheet) for sheet in data["sheets"]],
        seats=[
            SeatState(
                sheets=tuple(seat["sheets"]),
                sheet=seat["sheet"],
                chosen=seat["chosen"],
                turn_choice=dict(seat["turn_choice"]),
                pending=[list(frame) for frame in seat["pending"]],
                triggered=list(seat["triggered"]),
                confirmed=seat["confirmed"],
                claimable=tuple(seat["claimable"]),
                claimed=tuple(seat["claimed"]),
                resigned=seat["resigned"],
            )
            for seat in data["seats"]
        ],
        astra=None if data["astra"] is None else AstraState(**data["astra"]),
        status=data["status"],
        end=data["end"],
        result=data["result"],
        events_applied=data["events_applied"],
    )
