"""The common turn: setup, what a seat may do now, commands, and the end of a turn.

Every seat plays phases 2-4 at once and confirms; the last confirmation resolves what is
shared (phase 5 incidents, phase 6 missions, the end check) and flips the next cards.
"""

from dataclasses import dataclass, field
from typing import Any

from games.rules import cards, missions
from games.rules.adventures import rules_for
from games.rules.adventures.base import AdventureRules, Option
from games.rules.errors import OutOfTurn, RuleViolation
from games.rules.events import Event, Recorder
from games.rules.state import GameState

MIN_PLAYERS = 1
MAX_PLAYERS = 6


@dataclass
class Decision:
    """What a seat must or may do now. Every option, sent back as a move, is legal."""

    kind: str  # "choose" | "effect" | "confirm" | "wait"
    options: list[Option] = field(default_factory=list)
    can_undo: bool = False
    can_confirm: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "options": self.options,
            "can_undo": self.can_undo,
            "can_confirm": self.can_confirm,
        }


def new_game(
    *,
    adventure: int,
    players: int,
    seed: int,
    missions_chosen: dict[str, int] | None = None,
    modifiers: dict[int, list[dict[str, Any]]] | None = None,
) -> list[Event]:
    """The opening events of a game: its setup, then the flip of turn 1."""
    rules = rules_for(adventure)
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleViolation("invalid_player_count", "A game has 1 to 6 players.")
    modifiers = modifiers or {}
    for seat, seat_modifiers in modifiers.items():
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RuleViolation("invalid_modifier", f"Seat {seat!r} is not in this game.")
        if not isinstance(seat_modifiers, list):
            raise RuleViolation("invalid_modifier", "Each seat's modifiers are a list.")
        rules.validate_modifiers(seat_modifiers)
    rec = Recorder(GameState())
    rec.emit(
        "game_started",
        adventure=adventure,
        players=players,
        seed=seed,
        missions=missions.choose(adventure, seed, missions_chosen),
        modifiers={str(seat): mods for seat, mods in modifiers.items()},
    )
    _start_turn(rec)
    return rec.events


def options(state: GameState, seat: int) -> Decision:
    """What ``seat`` must or may do now, with every legal choice listed."""
    if state.status != "playing" or not 0 <= seat < state.players:
        return Decision("wait")
    sheet = state.seats[seat]
    if sheet.confirmed:
        return Decision("wait")
    rules = rules_for(state.adventure)
    if sheet.chosen is None:
        return Decision("choose", rules.choice_options(state, seat))
    if sheet.pending:
        return Decision("effect", rules.effect_options(state, seat), can_undo=True)
    return Decision("confirm", can_undo=True, can_confirm=True)


def decide(state: GameState, seat: int, command: dict[str, Any]) -> list[Event]:
    """Check a seat's command against the rules and return the events it causes.

    Commands: ``{"type": "move", "choice": option}``, ``{"type": "undo"}``,
    ``{"type": "confirm"}``. Raises RuleViolation (OutOfTurn when it is not the moment).
    """
    if not isinstance(command, dict):
        raise RuleViolation("invalid_command", "A command is an object with a type.")
    if state.status != "playing":
        raise OutOfTurn("game_not_playing", "The game is not being played.")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise RuleViolation("unknown_seat", f"Seat {seat!r} is not in this game.")
    sheet = state.seats[seat]
    if sheet.confirmed:
        raise OutOfTurn(
            "turn_already_confirmed", "You already confirmed this turn; wait for the others."
        )
    kind = command.get("type")
    rec = Recorder(state)
    rules = rules_for(state.adventure)
    if kind == "move":
        choice = command.get("choice")
        if not isinstance(choice, dict) or not all(_is_option_value(v) for v in choice.values()):
            raise RuleViolation(
                "invalid_choice",
                "A move sends one of the listed options: an object whose fields are words or "
                "whole numbers.",
            )
        if sheet.chosen is None:
            _play_pick(rules, rec, seat, choice)
        elif sheet.pending:
            rules.play_effect(rec, seat, choice)
        else:
            raise OutOfTurn("turn_complete", "Your turn is played: confirm it or undo it.")
    elif kind == "undo":
        if sheet.chosen is None:
            raise OutOfTurn("nothing_to_undo", "You have not played anything this turn.")
        rec.emit("undo", seat)
    elif kind == "confirm":
        if sheet.chosen is None:
            raise OutOfTurn("turn_not_played", "Pick a combination before confirming.")
        if sheet.pending:
            raise OutOfTurn(
                "effects_pending", "Resolve the effects waiting for your choice first."
            )
        rec.emit("confirmed", seat)
        if all(other.confirmed for other in rec.state.seats):
            _end_turn(rec)
    else:
        raise RuleViolation("invalid_command", "A command's type is move, undo or confirm.")
    return rec.events


def _play_pick(rules: AdventureRules, rec: Recorder, seat: int, choice: Option) -> None:
    """Phases 2-3: write a combination's number, or take a System Error."""
    action = choice.get("action")
    if action == "write":
        rules.play_write(rec, seat, choice)
    elif action == "system_error":
        rules.play_system_error(rec, seat, choice)
    else:
        raise RuleViolation(
            "illegal_choice",
            "Pick a combination and a space to write its number ('write'), or take a "
            "System Error when no number can be written.",
        )


def _is_option_value(value: object) -> bool:
    """Options only ever hold words, whole numbers or nothing (never true/false, lists...)."""
    return value is None or isinstance(value, str) or (
        isinstance(value, int) and not isinstance(value, bool)
    )


def _end_turn(rec: Recorder) -> None:
    rules = rules_for(rec.state.adventure)
    rules.incidents(rec)
    missions.accomplish(rec, rules)
    reasons = rules.end_reasons(rec.state)
    if reasons:
        rec.emit("game_ended", reasons=reasons)
    else:
        _start_turn(rec)


def _start_turn(rec: Recorder) -> None:
    state = rec.state
    turn = state.turn + 1
    preview = [stack.copy() for stack in state.stacks]
    combinations, reshuffled = cards.flip(preview, seed=state.seed, turn=turn)
    rec.emit(
        "turn_started",
        turn=turn,
        combinations=[c.as_dict() for c in combinations],
        reshuffled=reshuffled,
    )


def result_event(state: GameState) -> Event:
    """The event recording the final scores and the winners of an ended game."""
    if state.status != "ended":
        raise OutOfTurn("game_not_ended", "Only an ended game is scored.")
    standings = rules_for(state.adventure).standings(state)
    return {"kind": "result", "seat": None, "turn": state.turn, "data": standings}
