"""The common turn (common.md §4-6, §8-9): setup, what a seat may do now, commands, and the end
of a turn.

Every seat plays phases 2-4 at once and confirms; the last confirmation resolves what is
shared: phase 5 incidents, then phase 6. In phase 6 the seats whose sheet meets a mission they
have not accomplished are asked whether they claim it (the others wait); once they have all
confirmed, the claims are rewarded, the end of the game is checked and the next cards flip.

A sheet may leave steps waiting for a seat outside its own turn: at setup, before the first
cards flip, and in phase 5. The seats with steps waiting then resolve them (a seat is done when
none is left) while the others wait, and the game goes on once every seat is done.

A solo game against ASTRA (``games.rules.turn.solo``) changes a few steps, each behind one hook
here: its decisions and commands that differ come first, ASTRA bonuses are circled after the
player's commands, and ASTRA's part of the turn (its card, the end check, the next hand)
replaces the end of the turn.
"""

from typing import Any, cast

from games.rules.adventures import rules_for
from games.rules.common import astra
from games.rules.common import missions as phase_6
from games.rules.common.base import Adventure
from games.rules.common.options import Choice, ClaimOption, Decision, posted
from games.rules.core import cards, events
from games.rules.core.errors import OutOfTurn, RuleViolation, shown
from games.rules.core.events import RESULT, Event, Recorder
from games.rules.core.state import AWAITING_PHASES, INCIDENTS_PHASE, MISSIONS_PHASE, SETUP_PHASE, GameState
from games.rules.turn import solo

MIN_PLAYERS = 1
MAX_PLAYERS = 6
# Options only ever hold words, whole numbers or nothing (never true/false, lists, objects...).
OPTION_VALUE_TYPES = frozenset({str, int, type(None)})


def new_game(
    *,
    adventure: int,
    players: int,
    seed: int,
    missions: dict[str, int] | None = None,
    modifiers: dict[int, list[dict[str, Any]]] | None = None,
    astra_level: int | None = None,
) -> list[Event]:
    """The opening events of a game: its whole setup, then the flip of turn 1 (solo: the
    first hand drawn).

    ``missions`` imposes a card per letter (default: drawn with the seed); ``modifiers``
    gives per-seat setup changes (``start_marks``, ``bonus_points``, ``system_errors``);
    ``astra_level`` makes a one-player game a solo game against that ASTRA opponent.
    """
    rules = rules_for(adventure)
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleViolation("invalid_player_count", "A game has 1 to 6 players.")
    problem = rules.players_problem(players)
    if problem is not None:
        raise problem
    if astra_level is not None:
        astra.opponent(astra_level)
        if players != 1:
            raise RuleViolation("astra_needs_one_player", "Only a one-player game plays ASTRA.")
    elif players < rules.min_players:
        raise RuleViolation(
            "solo_needs_astra",
            "A one-player game of %(name)s is played against ASTRA: create it for one player (max_players "
            "1), or seat 2 to 6 players.",
            name=rules.name,
        )
    modifiers = modifiers or {}
    for seat, seat_modifiers in modifiers.items():
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RuleViolation(
                "invalid_modifier",
                "Seat %(seat)s is not in this game.",
                seat=shown(seat),
            )
        if not isinstance(seat_modifiers, list):
            raise RuleViolation("invalid_modifier", "Each seat's modifiers are a list.")
        rules.validate_modifiers(seat_modifiers)
    chosen = phase_6.choose(adventure, seed, missions)
    sheets, seats = rules.seating(players, modifiers)
    rec = Recorder(GameState())
    rec.game_started(
        adventure=adventure,
        players=players,
        seed=seed,
        missions=chosen,
        mission_values=phase_6.values_of(chosen),
        sheets=sheets,
        seats=seats,
        astra=None if astra_level is None else solo.setup(adventure, astra_level),
        modifiers={str(seat): mods for seat, mods in modifiers.items()},
    )
    for seat in range(players):
        rules.begin_setup(rec, seat)
    if not _await_choices(rec, SETUP_PHASE):
        _first_turn(rec)
    return rec.events


def options(state: GameState, seat: int) -> Decision:
    """What ``seat`` must or may do now, with every legal choice listed.

    The decision is worked out once per state and seat: asking again before the next event
    returns the same answer.
    """
    cached = state.decisions.get(seat)
    if cached is not None and cached[0] == state.events_applied:
        known: Decision = cached[1]
        return known
    decision = _options(state, seat)
    state.decisions[seat] = (state.events_applied, decision)
    return decision


def _options(state: GameState, seat: int) -> Decision:
    if state.status != "playing" or not 0 <= seat < state.players:
        return Decision("wait")
    if state.astra is not None:
        decision = solo.options(state, seat)
        if decision is not None:
            if decision.sheet is None:
                decision.sheet = state.seats[seat].sheet
            return decision
    player = state.seats[seat]
    sheet = player.sheet
    if player.confirmed:
        return Decision("wait", sheet=sheet)
    if state.phase == MISSIONS_PHASE:
        return Decision("mission", _claim_options(state, seat), can_confirm=True, sheet=sheet)
    rules = rules_for(state.adventure)
    if state.phase in AWAITING_PHASES:
        return Decision("effect", rules.effect_options(state, seat), sheet=sheet)
    if player.chosen is None:
        return Decision("choose", rules.choice_options(state, seat), sheet=sheet)
    if player.pending:
        return Decision("effect", rules.effect_options(state, seat), can_undo=True, sheet=sheet)
    return Decision("confirm", can_undo=True, can_confirm=True, sheet=sheet)


def _claim_options(state: GameState, seat: int) -> list[ClaimOption]:
    player = state.seats[seat]
    return [
        {"action": "claim_mission", "letter": letter}
        for letter in player.claimable
        if letter not in player.claimed
    ]


def decide(state: GameState, seat: int, command: dict[str, Any]) -> list[Event]:
    """Check a seat's command against the rules and return the events it causes.

    Commands: ``{"type": "move", "choice": option}``, ``{"type": "undo"}``,
    ``{"type": "confirm"}``. Raises RuleViolation (OutOfTurn when it is not the moment).
    """
    return advance(state, seat, command)[0]


def advance(
    state: GameState, seat: int, command: dict[str, Any], *, in_place: bool = False
) -> tuple[list[Event], GameState]:
    """``decide``, with the state its events lead to. ``state`` itself is left as it was,
    unless ``in_place``: then it is that state, for a caller that owns ``state`` and sends one
    of the options it was listed (a refused command would leave it half changed)."""
    if not isinstance(command, dict):
        raise RuleViolation("invalid_command", "A command is an object with a type.")
    if state.status != "playing":
        raise OutOfTurn("game_not_playing", "The game is not being played.")
    if not isinstance(seat, int) or not 0 <= seat < state.players:
        raise RuleViolation(
            "unknown_seat",
            "Seat %(seat)s is not in this game.",
            seat=shown(seat),
        )
    if state.astra is not None:
        played = solo.advance(state, seat, command, in_place=in_place)
        if played is not None:
            return played
    player = state.seats[seat]
    if player.confirmed:
        raise OutOfTurn(
            "turn_already_confirmed", "You already confirmed this turn; wait for the others."
        )
    kind = command.get("type")
    if kind not in ("move", "undo", "confirm"):
        raise RuleViolation("invalid_command", "A command's type is move, undo or confirm.")
    rec = Recorder(state, in_place=in_place)
    if state.phase == MISSIONS_PHASE:
        _decide_missions(rec, seat, kind, posted(command.get("choice")))
        return _played(rec, seat)
    rules = rules_for(state.adventure)
    if state.phase in AWAITING_PHASES:
        _decide_awaited(rules, rec, seat, kind, command)
        return rec.events, rec.state
    if kind == "move":
        choice = _choice(command)
        if player.chosen is None:
            rules.play_pick(rec, seat, choice, listed=_listed(state, seat, choice))
        elif player.pending:
            rules.play_effect(rec, seat, choice)
        else:
            raise OutOfTurn("turn_complete", "Your turn is played: confirm it or undo it.")
    elif kind == "undo":
        if player.chosen is None:
            raise OutOfTurn("nothing_to_undo", "You have not played anything this turn.")
        rec.undo(seat)
    else:
        if player.chosen is None:
            raise OutOfTurn("turn_not_played", "Pick a combination before confirming.")
        if player.pending:
            raise OutOfTurn(
                "effects_pending", "Resolve the effects waiting for your choice first."
            )
        rec.confirmed(seat)
        if all(other.confirmed for other in rec.state.seats):
            _end_turn(rules, rec)
    return _played(rec, seat)


def _played(rec: Recorder, seat: int) -> tuple[list[Event], GameState]:
    """What a seat's command recorded (solo: with the ASTRA bonuses it earned)."""
    if rec.state.astra is not None:
        solo.circle_bonuses(rec, seat, since=0)
    return rec.events, rec.state


def _choice(command: dict[str, Any]) -> Choice:
    choice = command.get("choice")
    # the types of its values checked at C speed, not by a generator (a check every move)
    if not isinstance(choice, dict) or not OPTION_VALUE_TYPES.issuperset(map(type, choice.values())):
        raise RuleViolation(
            "invalid_choice",
            "A move sends one of the listed options: an object whose fields are words or "
            "whole numbers.",
        )
    return cast(Choice, choice)


def _listed(state: GameState, seat: int, choice: Choice) -> bool:
    """Whether ``choice`` is exactly one of the options listed for the seat (a move with other
    fields, or fields left out, goes through the full check instead)."""
    return choice in options(state, seat).options  # identity first: a bot's pick at once


def _decide_awaited(
    rules: Adventure[Any], rec: Recorder, seat: int, kind: str, command: dict[str, Any]
) -> None:
    """At setup or in phase 5: use one of the steps waiting for the seat. A seat with none left
    is done; the last one done lets the game go on."""
    if kind == "undo":
        raise OutOfTurn(
            "nothing_to_undo", "A choice made outside your turn (at setup or in phase 5) is final."
        )
    if kind == "confirm":
        raise OutOfTurn("effects_pending", "Resolve the effects waiting for your choice first.")
    rules.play_effect(rec, seat, _choice(command))
    if rec.seat(seat).pending:
        return
    rec.confirmed(seat)
    if not all(other.confirmed for other in rec.state.seats):
        return
    if rec.state.phase == SETUP_PHASE:
        _first_turn(rec)
    elif not phase_6.offer(rec, rules):
        _finish_turn(rules, rec)


def _await_choices(rec: Recorder, phase: str) -> bool:
    """Ask the seats left with waiting steps to resolve them (``phase``: setup or incidents);
    False when no seat has any."""
    seats = [index for index, seat in enumerate(rec.state.seats) if seat.pending]
    if not seats:
        return False
    rec.choices_awaited(phase=phase, seats=seats)
    return True


def _decide_missions(rec: Recorder, seat: int, kind: str, choice: Choice) -> None:
    """Phase 6: claim one of the missions offered, or confirm to claim no more."""
    state = rec.state
    if kind == "undo":
        raise OutOfTurn(
            "nothing_to_undo", "Your turn is locked in; phase 6 asks only which missions you claim."
        )
    if kind == "move":
        letter = choice.get("letter")
        player = state.seats[seat]
        if choice.get("action") != "claim_mission":
            raise RuleViolation(
                "illegal_choice",
                "In phase 6 a move claims a mission: {'action': 'claim_mission', 'letter': ...}.",
            )
        if letter not in player.claimable or letter in player.claimed:
            raise RuleViolation(
                "mission_not_claimable",
                "%(letter)s is not a mission you can claim now: you may claim %(value)s.",
                letter=shown(letter),
                value=shown([option['letter'] for option in _claim_options(state, seat)]),
            )
        assert isinstance(letter, str)  # checked above
        rec.mission_claimed(seat, sheet=state.home_sheet(seat).id, letter=letter)
        return
    rec.confirmed(seat)
    if all(other.confirmed for other in state.seats):
        rules = rules_for(state.adventure)
        phase_6.reward(rec, rules)
        # A claim may set off a new phase 5 (Adventure 6), then missions are offered again.
        if rules.after_missions(rec) and (
            _await_choices(rec, INCIDENTS_PHASE) or phase_6.offer(rec, rules)
        ):
            return
        _finish_turn(rules, rec)


def _end_turn(rules: Adventure[Any], rec: Recorder) -> None:
    """Every seat confirmed its actions: phase 5 (with the choices it asks for), then phase 6
    if anyone may claim."""
    rules.incidents(rec)
    if not _await_choices(rec, INCIDENTS_PHASE) and not phase_6.offer(rec, rules):
        _finish_turn(rules, rec)


def _finish_turn(rules: Adventure[Any], rec: Recorder) -> None:
    if rec.state.astra is not None:
        return  # solo: ASTRA's part of the turn checks the end and draws (solo.astra_turn)
    reasons = rules.end_reasons(rec.state)
    if reasons:
        rec.game_ended(reasons=reasons)
    else:
        _start_turn(rec)


def _first_turn(rec: Recorder) -> None:
    """Flip the cards of turn 1 (solo: draw the first hand)."""
    if rec.state.astra is None:
        _start_turn(rec)
    else:
        solo.opening(rec)


def _start_turn(rec: Recorder) -> None:
    state = rec.state
    turn = state.turn + 1
    combinations, reshuffled = cards.peek(state.stacks, seed=state.seed, turn=turn)
    rec.turn_started(turn=turn, combinations=[c.as_dict() for c in combinations], reshuffled=reshuffled)


def result_event(state: GameState) -> Event:
    """The event recording the final scores and the winners of an ended game."""
    if state.status != "ended":
        raise OutOfTurn("game_not_ended", "Only an ended game is scored.")
    if state.astra is not None:
        standings = solo.standings(state)
    else:
        standings = rules_for(state.adventure).standings(state)
    return events.make(RESULT, None, state.turn, standings)
