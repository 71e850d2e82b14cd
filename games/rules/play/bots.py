"""Players that only ever choose among the listed options: used by tests, simulation and
load tests. They know no rule of their own; whatever they play, the engine allowed."""

import random
from collections.abc import Callable, Collection, Mapping
from itertools import compress
from typing import Any, cast

from games.rules.adventures import rules_for
from games.rules.common.base import Adventure
from games.rules.common.missions import gives_first_value
from games.rules.common.options import ClaimOption, Option
from games.rules.core.events import Event, evolve
from games.rules.core.sheet import MAX_NUMBER, MIN_NUMBER, Marks
from games.rules.core.state import GameState, Sheet
from games.rules.turn import solo
from games.rules.turn.turn import advance, new_game, options

Command = dict[str, Any]
Bot = Callable[[GameState, int], Command]


CONFIRM: Command = {"type": "confirm"}


def random_bot(rng: random.Random) -> Bot:
    """A player picking uniformly among the legal options, confirming when done; offered a
    mission, it claims it or not at random."""

    def play(state: GameState, seat: int) -> Command:
        decision = options(state, seat)
        if decision.kind == "mission":
            choices: list[Command] = [_move(option) for option in decision.options]
            return rng.choice([*choices, CONFIRM])
        if decision.options:
            return _move(rng.choice(decision.options))
        return CONFIRM

    return play


def _move(option: Option) -> Command:
    return {"type": "move", "choice": option}


def greedy_bot(rng: random.Random) -> Bot:
    """A player taking the option that most raises its live score; among equal scores it
    takes the one with the best prospects the sheet names (``Adventure.prospects``), then
    writes each number where it best fits the numbers around it (so that later numbers still
    find a place), prefers using an optional effect to skipping it, and breaks the remaining
    ties at random. Offered a mission, it claims it unless the claim would end the game (a
    third mission) while another seat scores more. Against ASTRA it weighs its score less
    ASTRA's, counting the card a pick leaves over as ASTRA's (so it removes a card with a
    bonus whenever it can, and weighs which card a pick leaves over)."""

    def play(state: GameState, seat: int) -> Command:
        decision = options(state, seat)
        if not decision.options:
            return CONFIRM
        rules = rules_for(state.adventure)
        if decision.kind == "mission":
            claim = cast(ClaimOption, decision.options[0])
            return _move(claim) if _claim_helps(rules, state, seat, claim["letter"]) else CONFIRM
        listed = decision.options  # a large pick's options are made only when read (Options)
        effects = rules.score_effects(state, seat, listed)
        # Options of one effect weigh alike: each effect is weighed once, on its first option
        # (where each is first listed: the last index written for a key is its first); an
        # option of no known effect is weighed alone.
        keys = effects
        first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
        if None in first:
            keys = [object() if key is None else key for key in effects]
            first = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
        knowns: dict[Any, tuple[int, int]] = dict.fromkeys(first, (0, 0))
        sheet = state.sheet_of(seat)
        if len(knowns) > 1:  # when every option scores alike the score decides nothing
            change = rules.score_change(state, seat)
            room = rules.prospects_change(state, seat)
            # Against ASTRA every option is played: what it leaves ASTRA needs the state after it.
            by_marks = rules.marks_change(state, seat) if state.astra is None else None
            # how much each option changes the total (less what it leaves ASTRA)
            scores: dict[Any, int] = {}
            # what the prospects of each option read: the state, the sheet, its marks, the
            # elements marked (None: unknown) and the option weighed unplayed (None: played)
            sheets: dict[Any, tuple[GameState, Sheet, Marks, Collection[str] | None, Option | None]] = {}
            for key in knowns:
                option = listed[first[key]]
                changes = rules.listed_marks(state, seat, option) if by_marks is not None else None
                if changes is not None and by_marks is not None:
                    marks = sheet.marks | changes
                    scores[key] = by_marks(marks, changes.keys())
                    sheets[key] = (state, sheet, marks, changes.keys(), option)
                else:
                    new, after = advance(state, seat, _move(option))
                    now = after.sheet_of(seat)
                    scores[key] = change(after, new) - (
                        solo.projected_astra_total(after) if after.astra is not None else 0
                    )
                    sheets[key] = (after, now, now.marks, None, None)
            # The prospects only break the ties of the best score (a best score alone needs none).
            top_score = max(scores.values())
            tied_scores = list(scores.values()).count(top_score) > 1
            for key, score in scores.items():
                knowns[key] = (score, room(*sheets[key]) if tied_scores and score == top_score else 0)
        # Only the options of the best score and prospects can be taken: the fit of their
        # numbers and the skip break the ties among them alone.
        top = max(knowns.values())
        tied = {key for key, known in knowns.items() if known == top}
        if len(tied) == len(knowns):
            best = list(listed)
        else:
            best = [listed[index] for index in compress(range(len(keys)), map(tied.__contains__, keys))]
        if len(best) > 1:
            best = _best_fits(rules, sheet.marks, best)
        return {"type": "move", "choice": rng.choice(best)}

    return play


def _claim_helps(rules: Adventure[Any], state: GameState, seat: int, letter: str) -> bool:
    """Claim, unless what the claim sets off costs more than it is worth (Adventure 6: the
    virus a first claim wakes), or it is this seat's last mission and it trails: that would end
    the game."""
    worth = rules.mission_worth(state, state.home_sheet(seat), letter)
    value = worth["first" if gives_first_value(state, letter) else "later"]
    if value <= rules.claim_cost(state, seat, letter):
        return False
    home = state.home_sheet(seat).marks
    done = [other for other in state.missions if rules.mission_box(other) in home]
    if len(done) + 1 < len(state.missions):
        return True
    totals = [rules.seat_total(state, other) for other in range(state.players)]
    rivals = [*totals, solo.projected_astra_total(state)] if state.astra is not None else totals
    return bool(totals[seat] + value >= max(rivals))


def _best_fits(rules: Adventure[Any], marks: Marks, tied: list[Option]) -> list[Option]:
    """Among options of equal weight, those whose numbers best fit the numbers around them
    (the least misfit: ``_space_ideals``), a use of an optional effect before its skip."""
    zones: list[tuple[str, ...]] | None = None  # once a number is weighed
    best: list[Option] = []
    best_value: tuple[float, int] | None = None
    ideals: dict[str, list[float]] = {}
    misfits: dict[tuple[str, int], float] = {}  # many options write the same
    by_zone: dict[tuple[str, ...], dict[str, float]] = {}
    # each option read by its fields, whatever its shape
    for option, fields in zip(tied, cast("list[Mapping[str, Any]]", tied), strict=True):
        action = fields["action"]
        if action == "write" or action == "draw":
            key = (fields["space"], fields["number"])
            misfit = misfits.get(key)
            if misfit is None:
                space, number = key
                around = ideals.get(space)
                if around is None:
                    if zones is None:
                        zones = rules.numbering_zones(marks)
                    around = ideals[space] = _space_ideals(space, marks, zones, by_zone)
                # a space is mostly in one zone (the sum of one is that one)
                if len(around) == 1:
                    misfit = misfits[key] = abs(number - around[0])
                else:
                    misfit = misfits[key] = sum(abs(number - ideal) for ideal in around)
            value = (-misfit, 1)
        else:
            value = (-0.0, 0 if action == "skip" else 1)
        if best_value is None or value > best_value:
            best, best_value = [option], value
        elif value == best_value:
            best.append(option)
    return best


def _space_ideals(
    space: str,
    marks: Marks,
    zones: list[tuple[str, ...]],
    by_zone: dict[tuple[str, ...], dict[str, float]],
) -> list[float]:
    """Where the numbers around ``space`` say a number written there belongs: the value
    interpolated between its nearest numbered neighbours (or the ends of the range), in each of
    the ``zones`` holding it (``by_zone``: those values by zone, worked out once a decision).
    A number's misfit is how far it lies from them."""
    found = []
    for zone in zones:
        if space not in zone:
            continue
        if zone not in by_zone:
            by_zone[zone] = _ideals(marks, zone)
        found.append(by_zone[zone][space])
    return found


# How many fillings of a zone keep their interpolated values worked out (a bound on memory).
IDEALS_CACHE_SIZE = 4096
# ``_ideals`` by zone and what its spaces hold: a zone holds the same, decision after decision,
# until a number is written in it.
_ideals_by_filling: dict[tuple[tuple[str, ...], tuple[Any, ...]], dict[str, float]] = {}


def _ideals(marks: Marks, zone: tuple[str, ...]) -> dict[str, float]:
    """The value each space of ``zone`` would take interpolated between its nearest numbered
    neighbours in the zone (or the ends of the range), in one pass each way; kept by what the
    zone's spaces hold (never changed by a reader)."""
    values = tuple(map(marks.get, zone))
    key = (zone, values)
    found = _ideals_by_filling.get(key)
    if found is None:
        if len(_ideals_by_filling) >= IDEALS_CACHE_SIZE:
            _ideals_by_filling.clear()
        found = _ideals_by_filling[key] = _interpolated(zone, values)
    return found


def _interpolated(zone: tuple[str, ...], values: tuple[Any, ...]) -> dict[str, float]:
    """``_ideals`` of a zone whose spaces hold ``values``."""
    below: list[tuple[int, int]] = []  # the nearest number before each space, and where
    low, low_at = MIN_NUMBER - 1, -1
    for at, value in enumerate(values):
        below.append((low, low_at))
        if isinstance(value, int):
            low, low_at = value, at
    ideals: dict[str, float] = {}
    high, high_at = MAX_NUMBER + 1, len(zone)
    for index in range(len(zone) - 1, -1, -1):
        low, low_at = below[index]
        ideals[zone[index]] = low + (high - low) * (index - low_at) / (high_at - low_at)
        value = values[index]
        if isinstance(value, int):
            high, high_at = value, index
    return ideals


def play_game(
    *,
    adventure: int,
    bots: list[Bot],
    seed: int,
    max_turns: int = 200,
    astra_level: int | None = None,
    missions: dict[str, int] | None = None,
    modifiers: dict[int, list[dict[str, Any]]] | None = None,
) -> tuple[GameState, list[Event]]:
    """Play a whole game with one bot per seat (one, against ASTRA of ``astra_level``, plays
    ASTRA's part of each turn as it falls due), set up with ``missions`` and ``modifiers`` as
    ``new_game`` takes them; return the final state and every event."""
    events = new_game(
        adventure=adventure,
        players=len(bots),
        seed=seed,
        astra_level=astra_level,
        missions=missions,
        modifiers=modifiers,
    )
    state = GameState()
    for event in events:
        evolve(state, event)
    while state.status == "playing":
        if state.turn > max_turns:
            raise RuntimeError(f"game with seed {seed} did not end in {max_turns} turns")
        for seat, bot in enumerate(bots):
            while options(state, seat).kind != "wait":
                new, state = advance(state, seat, bot(state, seat), in_place=True)
                events.extend(new)
        if solo.astra_due(state):
            new, state = solo.astra_advance(state, in_place=True)
            events.extend(new)
    return state, events


# The bots by the name a bot seat gives its kind.
KINDS: dict[str, Callable[[random.Random], Bot]] = {"random": random_bot, "greedy": greedy_bot}


# A bot's whole turn is a few dozen moves at most; past this something is wrong.
MAX_BOT_MOVES = 500


def play_seat(
    state: GameState, seat: int, kind: str, *, phase_only: bool = False
) -> tuple[list[Event], GameState]:
    """A bot of ``kind`` plays what ``seat`` has to decide now, to the end of its turn (with
    ``phase_only``, of the phase in play: it stops where the turn asks the seats again), in
    place. Each move is drawn from the game's seed and the position in the log, so that a
    replay of the log plays the same moves. Returns the events and the state after them."""
    turn, phase = state.turn, state.phase
    played: list[Event] = []
    for _ in range(MAX_BOT_MOVES):
        if state.turn != turn or (phase_only and state.phase != phase) or options(state, seat).kind == "wait":
            return played, state
        rng = random.Random(f"{state.seed}/bot/{seat}/{state.events_applied}")
        new, state = advance(state, seat, KINDS[kind](rng)(state, seat), in_place=True)
        played += new
    raise RuntimeError(f"bot seat {seat} does not finish its turn")
