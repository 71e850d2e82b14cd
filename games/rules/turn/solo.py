"""The solo game against ASTRA (common.md §10; the ASTRA section of each adventure).

A solo turn, as its events tell it:

- ASTRA's part (``astra_turn``), played by a worker once the player has confirmed: the card the
  player left over goes to ASTRA's pile, or out of the game with a bonus (``astra_took``), and
  the end of the game is checked; then cards are drawn from the solo deck (``card_drawn``) until
  the hand holds three starship cards. An Effect card is resolved as it is drawn and discarded
  (``astra_effect``); on the second pass it first flips the mission of its letter
  (``mission_flipped``). When the effect leaves the player a choice of target, ASTRA's part
  stops: the player's decision is that choice (an ``effect``), and ASTRA's part goes on once it
  is made (so it does when a Virus propagation the effect sets off leaves the player a choice
  of space). The deck running out the first time is reshuffled with the discards and the
  Effect cards (``deck_reshuffled``); the second time the game ends at once. The next turn then begins
  (``turn_started``) with the six ordered pairs of the hand as its combinations. A game's first
  hand is drawn with its setup (no Effect card can be among the top 42 cards). In adventure 8
  ASTRA plays a card of its own once the hand's first card is drawn (``astra_played``, see
  ``adventures.battle.solo``), before the two others; when the rules leave its planet to the
  player, ASTRA's part stops there as for an Effect card's target (``astra_place``).
- the player's part: a pick (``choose``: the number of one card with the action of another,
  every pair listed with its cards, the compulsory-placement rule over the six), the actions
  as in every game, then ``give``: the card left over goes to ASTRA, or leaves the game with a
  circled ASTRA bonus crossed off (``card_given``; after a System Error any of the three may be
  given); then confirm, phase 5 and phase 6 as usual. Whatever the player marks during their own
  turn that earns ASTRA bonuses circles them at once (``astra_bonus``), up to the printed boxes.

Readings taken (common.md §14, and where the rules are silent):

- D7: an Effect card belongs to the pass in which it is drawn; D8: the deck running out a
  second time ends the game at once, nothing more drawn or resolved; D9: equal totals draw;
- the card is given (or removed) as the last step of the player's actions, before confirming,
  so a bonus earned by a phase-6 claim (adventure 6) can be used from the next turn's card on;
- an Effect card's effect is applied by ASTRA when it has at most one target, and waits for
  the player's choice when it has several; the effect's marks are the player's sheet's (their
  seat's events, made by ASTRA's part or by that choice) and never earn ASTRA bonuses;
- the deck order is derived from the game's seed (``cards.solo_deck``), the second pass's from
  the seed and the discard pile (``cards.second_pass_deck``); neither is ever shown.
"""

from functools import partial
from typing import Any, Final, cast

from games.rules.adventures import rules_for
from games.rules.common import astra
from games.rules.common.base import Adventure
from games.rules.common.options import (
    AstraEffectOption,
    AstraPlaceOption,
    Choice,
    Decision,
    DrawOption,
    GiveOption,
    Option,
    Options,
    WriteOption,
    posted,
)
from games.rules.core.cards import ACTIONS, CARDS, EFFECT_CARDS, HAND_SIZE, hand_combinations
from games.rules.core.errors import OutOfTurn, RuleViolation, shown
from games.rules.core.events import (
    AstraPileBreakdown,
    AstraResult,
    AstraSetup,
    AstraTrackBreakdown,
    Event,
    Recorder,
    Result,
)
from games.rules.core.state import ACTIONS_PHASE, AstraState, GameState

# The player's seat: a solo game has one.
PLAYER = 0
GIVE: Final = "give"
ASTRA_PLACE: Final = "astra_place"
REMOVE: Final = "remove"
ASTRA_EFFECT: Final = "astra_effect"
ASTRA = "astra"


def setup(adventure: int, level: int) -> AstraSetup:
    """ASTRA's part of a solo game's opening event: the opponent of ``level`` and the ASTRA
    Adventure card of ``adventure``."""
    foe = astra.opponent(level)
    card = astra.adventure_card(adventure)
    return {
        "level": foe.level,
        "name": foe.name,
        "multipliers": dict(foe.multipliers),
        "fixed_points": card["fixed_points"],
        "points_per_level": card["points_per_level"],
        "bonus_boxes": int(card["bonus_boxes"]),
    }


def opening(rec: Recorder) -> None:
    """Draw the first hand and begin turn 1 (for the opening events of a solo game)."""
    _draw(rec, rules_for(rec.state.adventure))


# --- ASTRA's part of a turn --------------------------------------------------------------


def astra_due(state: GameState) -> bool:
    """Whether ASTRA has its part of the turn to play: the player confirmed (or, adventure 8,
    the first hand is still being dealt after ASTRA's card), and neither an Effect card nor
    ASTRA's own card (adventure 8) waits for the player's choice of target."""
    solo = state.astra
    return (
        solo is not None
        and state.status == "playing"
        and solo.effect is None
        and (
            all(seat.confirmed and not seat.pending for seat in state.seats)
            or (state.turn == 0 and solo.placed)  # the first hand, once ASTRA's card is placed
        )
        and len(placements_waiting(state)) < 2
    )


def placements_waiting(state: GameState) -> list[str]:
    """Where ASTRA's own card of the round may go (adventure 8), while it is to be played:
    after the first card of the hand is drawn and before the two others (several: the player
    chooses)."""
    if not _placement_due(state) or _astra(state).effect is not None:
        return []
    return rules_for(state.adventure).astra_placements(state)


def _placement_due(state: GameState) -> bool:
    """Whether ASTRA's own card of the round (adventure 8), the hand's first, is to be played."""
    solo = _astra(state)
    # the hand read first: it is asked at every step of a solo turn
    return not solo.placed and len(solo.hand) == 1 and rules_for(state.adventure).astra_places_cards


def _place(rec: Recorder, rules: Adventure[Any], target: str | None) -> None:
    """ASTRA plays its own card of the round, and the flags this draws for the player may
    earn ASTRA bonuses."""
    since = len(rec.events)
    rules.astra_play(rec, target)
    circle_bonuses(rec, PLAYER, since=since)


def astra_turn(state: GameState) -> list[Event]:
    """The events of ASTRA's part of the turn (none when it has nothing to play: so a part
    asked for twice is played once): it takes the card left over and checks the end of the
    game, then draws the next hand, resolving the Effect cards drawn (it stops at one whose
    target the player chooses), and begins the next turn."""
    return astra_advance(state)[0]


def astra_advance(state: GameState, *, in_place: bool = False) -> tuple[list[Event], GameState]:
    """``astra_turn``, with the state its events lead to (``state`` itself is left as it was,
    unless ``in_place``: then it is that state, as ``turn.advance`` takes it)."""
    if not astra_due(state):
        return [], state
    rules = rules_for(state.adventure)
    rec = Recorder(state, in_place=in_place)
    solo = _astra(rec.state)
    if solo.given is not None:
        rec.astra_took(card=solo.given, removed=solo.removing)
        after = rec.state
        reasons = rules.end_reasons(after) + rules.solo_end_reasons(after, astra_score(after))
        if reasons:
            rec.game_ended(reasons=reasons)
            return rec.events, rec.state
    _draw(rec, rules)
    return rec.events, rec.state


def _draw(rec: Recorder, rules: Adventure[Any]) -> None:
    while True:
        solo = _astra(rec.state)
        if solo.effect is not None or _left_to_player(rec.state):
            return  # the player chooses the effect's target (or the spaces its virus infects)
        if _placement_due(rec.state):
            targets = rules.astra_placements(rec.state)
            if len(targets) > 1:
                return  # the player chooses where ASTRA's card goes
            _place(rec, rules, targets[0] if targets else None)
            continue
        if len(solo.hand) == HAND_SIZE:
            break
        if not solo.deck:
            if solo.deck_pass == 1:
                rec.deck_reshuffled(deck_pass=2)
                continue
            rec.game_ended(reasons=[{"reason": "deck_exhausted", "seats": []}])
            return
        card = solo.deck[0]
        rec.card_drawn(card=card)
        if card in EFFECT_CARDS:
            _effect_drawn(rec, rules, card)
    hand = _astra(rec.state).hand
    rec.turn_started(
        turn=rec.state.turn + 1,
        combinations=[c.as_dict() for c in hand_combinations(hand)],
        reshuffled=[],
    )


def _effect_drawn(rec: Recorder, rules: Adventure[Any], card: int) -> None:
    """An Effect card just drawn: on the second pass its mission flips; its effect applies at
    once unless the player has a target to choose."""
    state = rec.state
    solo = _astra(state)
    letter = EFFECT_CARDS[card]
    if solo.deck_pass > 1 and letter not in state.flipped_missions:
        rec.mission_flipped(letter=letter, card=state.missions[letter])
    targets = effect_targets(rec.state)
    if len(targets) > 1:
        return
    _resolve_effect(rec, rules, targets[0] if targets else None)


def effect_targets(state: GameState) -> list[str]:
    """What the Effect card being resolved may apply to on the player's sheet (the player
    chooses one when there are several)."""
    solo = _astra(state)
    if solo.effect is None:
        return []
    rules = rules_for(state.adventure)
    letter = EFFECT_CARDS[solo.effect]
    if not rules.astra_acts(letter):
        return []
    return rules.astra_targets(state, rules.astra_sheet(state), letter, solo.deck_pass)


def _resolve_effect(rec: Recorder, rules: Adventure[Any], target: str | None) -> None:
    solo = _astra(rec.state)
    assert solo.effect is not None
    card, deck_pass = solo.effect, solo.deck_pass
    letter = EFFECT_CARDS[card]
    if rules.astra_acts(letter):
        rules.astra_effect(rec, PLAYER, letter, deck_pass, target)
    rec.astra_effect(card=card, letter=letter, deck_pass=deck_pass, target=target)


# --- the player's decisions ----------------------------------------------------------------


def options(state: GameState, seat: int) -> Decision | None:
    """The decisions of a solo turn that differ from every game's (None: the common turn
    decides): the target of an Effect card, waiting for ASTRA, the pick listed with its
    cards, and the card left over."""
    solo = _astra(state)
    placements = placements_waiting(state)
    if solo.effect is not None or len(placements) > 1:
        # a choice for ASTRA's part, on the sheet it plays (adventure 8: the coming turn's)
        sheet = rules_for(state.adventure).astra_sheet(state).id
        if solo.effect is not None:
            return Decision("effect", _effect_options(state, solo.effect), sheet=sheet)
        return Decision("effect", _placement_options(state, placements), sheet=sheet)
    if _left_to_player(state):
        return Decision("effect", rules_for(state.adventure).effect_options(state, seat))
    if astra_due(state):
        return Decision("wait")
    player = state.seats[seat]
    if state.phase != ACTIONS_PHASE or player.confirmed:
        return None
    if player.chosen is None:
        rules = rules_for(state.adventure)
        picks = rules.choice_options(state, seat)
        cards = [(pair.number_card, pair.action_card) for pair in state.combinations]
        if isinstance(picks, Options):  # made as lazily as the common turn's: a bot reads one
            return Decision("choose", picks.mapped(partial(_with_cards, cards)))
        return Decision("choose", [_with_cards(cards, option) for option in picks])
    if player.pending or solo.given is not None:
        return None
    return Decision(GIVE, _give_options(state, seat), can_undo=True)


def _with_cards(cards: list[tuple[int | None, int | None]], option: Option) -> Option:
    """A write option (adventure 8: a draw) naming the two cards of its pair (``cards``: the
    number and action cards of each combination of the turn, read once a decision)."""
    if option["action"] not in ("write", "draw"):
        return option
    pick = cast("WriteOption | DrawOption", option)
    number_card, action_card = cards[pick["combination"]]
    assert number_card is not None and action_card is not None
    # one dict display: solo decisions list a few hundred picks
    return cast(Option, {**pick, "number_card": number_card, "action_card": action_card})


def _effect_options(state: GameState, card: int) -> list[AstraEffectOption]:
    return [{"action": ASTRA_EFFECT, "card": card, "target": target} for target in effect_targets(state)]


def _placement_options(state: GameState, planets: list[str]) -> list[AstraPlaceOption]:
    card = _astra(state).hand[0]
    return [{"action": ASTRA_PLACE, "card": card, "planet": planet} for planet in planets]


def left_over(state: GameState, seat: int) -> list[int]:
    """The cards the player may leave over: the one not used by the pick, or after a System
    Error any of the three."""
    solo = _astra(state)
    player = state.seats[seat]
    if player.chosen != "write":
        return list(solo.hand)
    pair = state.combinations[player.turn_choice["combination"]]
    return [card for card in solo.hand if card not in (pair.number_card, pair.action_card)]


def bonuses_left(solo: AstraState) -> int:
    """Circled ASTRA bonuses not crossed off yet."""
    return solo.bonuses_circled - solo.bonuses_used


def _give_options(state: GameState, seat: int) -> list[GiveOption]:
    cards = left_over(state, seat)
    options: list[GiveOption] = [{"action": GIVE, "card": card} for card in cards]
    if bonuses_left(_astra(state)) > 0:
        options += [{"action": REMOVE, "card": card} for card in cards]
    return options


def advance(
    state: GameState, seat: int, command: dict[str, Any], *, in_place: bool = False
) -> tuple[list[Event], GameState] | None:
    """The commands of a solo turn that differ from every game's, as ``turn.advance`` takes
    them (None: the common turn decides): an Effect card's target, the card left over, and
    the refusals while ASTRA plays or before the card is given."""
    solo = _astra(state)
    kind = command.get("type")
    if solo.effect is not None:
        if kind != "move":
            raise OutOfTurn(
                "astra_effect_pending", "Choose what the ASTRA effect card applies to first."
            )
        rec = Recorder(state, in_place=in_place)
        _choose_target(rec, posted(command.get("choice")))
        return rec.events, rec.state
    placements = placements_waiting(state)
    if len(placements) > 1:
        if kind != "move":
            raise OutOfTurn(
                "astra_placement_pending", "Choose the planet ASTRA's card goes to first."
            )
        rec = Recorder(state, in_place=in_place)
        _choose_placement(rec, posted(command.get("choice")), placements)
        return rec.events, rec.state
    if _left_to_player(state):
        if kind != "move":
            raise OutOfTurn(
                "astra_effect_pending",
                "Resolve what the ASTRA effect card left you to choose first.",
            )
        rec = Recorder(state, in_place=in_place)
        rules_for(state.adventure).play_effect(rec, seat, _move_choice(command))
        return rec.events, rec.state
    if astra_due(state):
        raise OutOfTurn("astra_playing", "ASTRA is playing its part of the turn: wait for it.")
    player = state.seats[seat]
    giving = (
        state.phase == ACTIONS_PHASE
        and not player.confirmed
        and player.chosen is not None
        and not player.pending
        and solo.given is None
    )
    if not giving or kind == "undo":
        return None
    if kind == "confirm":
        raise OutOfTurn(
            "card_not_given",
            "Give the card left over to ASTRA (or remove it with a circled bonus) before "
            "confirming.",
        )
    rec = Recorder(state, in_place=in_place)
    _give(rec, seat, posted(command.get("choice")))
    return rec.events, rec.state


def _left_to_player(state: GameState) -> bool:
    """Whether an effect ASTRA applied left the player steps to choose (the spaces a Virus's
    propagation infects): ASTRA's part goes on once they are resolved."""
    player = state.seats[PLAYER]
    return player.confirmed and bool(player.pending)


def _move_choice(command: dict[str, Any]) -> Choice:
    choice = command.get("choice")
    if not isinstance(choice, dict):
        raise RuleViolation("invalid_choice", "A move sends one of the listed options: an object.")
    return cast(Choice, choice)


def _choose_target(rec: Recorder, choice: Choice) -> None:
    state = rec.state
    if choice.get("action") != ASTRA_EFFECT:
        raise RuleViolation(
            "illegal_choice",
            "An ASTRA effect card waits: choose its target ({'action': 'astra_effect', ...}).",
        )
    card, target = _astra(state).effect, choice.get("target")
    if choice.get("card", card) != card:
        raise RuleViolation(
            "not_this_effect_card",
            "The effect card being resolved is %(card)s.",
            card=card,
        )
    targets = effect_targets(state)
    if not isinstance(target, str) or target not in targets:
        raise RuleViolation(
            "astra_target_not_available",
            "%(target)s is not something this ASTRA effect can apply to: choose one of %(targets)s.",
            target=shown(target),
            targets=shown(targets),
        )
    _resolve_effect(rec, rules_for(state.adventure), target)


def _choose_placement(rec: Recorder, choice: Choice, planets: list[str]) -> None:
    if choice.get("action") != ASTRA_PLACE:
        raise RuleViolation(
            "illegal_choice",
            "ASTRA's card waits: choose the planet it goes to ({'action': 'astra_place', ...}).",
        )
    card = _astra(rec.state).hand[0]
    if choice.get("card", card) != card:
        raise RuleViolation(
            "not_this_astra_card",
            "ASTRA's card of the round is %(card)s.",
            card=card,
        )
    planet = choice.get("planet")
    if not isinstance(planet, str) or planet not in planets:
        raise RuleViolation(
            "astra_planet_not_available",
            "%(planet)s is not a planet ASTRA's card can go to: choose one of %(planets)s.",
            planet=shown(planet),
            planets=shown(planets),
        )
    _place(rec, rules_for(rec.state.adventure), planet)


def _give(rec: Recorder, seat: int, choice: Choice) -> None:
    state = rec.state
    action = choice.get("action")
    if action not in (GIVE, REMOVE):
        raise RuleViolation(
            "illegal_choice",
            "Leave the card over: give it to ASTRA ('give') or remove it with a circled ASTRA "
            "bonus ('remove').",
        )
    cards = left_over(state, seat)
    card = choice.get("card", cards[0] if len(cards) == 1 else None)
    if card not in cards:
        raise RuleViolation(
            "card_not_left_over",
            "%(card)s is not a card you can leave over: %(cards)s.",
            card=shown(card),
            cards=shown(cards),
        )
    if action == REMOVE and bonuses_left(_astra(state)) == 0:
        raise RuleViolation(
            "no_astra_bonus", "You have no circled ASTRA bonus left to remove a card with."
        )
    assert isinstance(card, int)  # checked above
    rec.card_given(seat, card=card, removed=action == REMOVE)


def circle_bonuses(rec: Recorder, seat: int, since: int) -> None:
    """Circle the ASTRA bonuses earned by what was just recorded (the events from ``since``
    on: the player's command, or ASTRA's own card in adventure 8)."""
    rules = rules_for(rec.state.adventure)
    for count, element in rules.astra_bonuses_earned(rec.state, seat, rec.events[since:]):
        rec.astra_bonus(seat, count=count, element=element)


# --- ASTRA's score and the result ---------------------------------------------------------


def astra_score(state: GameState, pile: dict[str, int] | None = None) -> AstraResult:
    """ASTRA's score now, with its breakdown (``pile``: another pile to score instead): in
    adventure 1 the lowest score box of its rocket track not crossed (150 once launched),
    otherwise each card of its pile at the opponent's multiplier for its action, plus the
    adventure card's fixed points and points per level."""
    solo = _astra(state)
    counts = solo.pile if pile is None else pile
    if state.adventure == astra.TRACK_ADVENTURE:
        boxes = len(astra.track_boxes())
        given = sum(counts.get(action, 0) * solo.multipliers[action] for action in ACTIONS)
        track = astra.RocketTrack(solo.level, min(boxes, astra.precrossed(solo.level) + given))
        on_track: AstraTrackBreakdown = {
            "boxes_crossed": track.crossed, "launched": track.launched, "total": track.score
        }
        return {"total": track.score, "breakdown": on_track}
    by_action = {action: counts.get(action, 0) * solo.multipliers[action] for action in ACTIONS}
    fixed = solo.fixed_points or 0
    level = solo.level * (solo.points_per_level or 0)
    total = sum(by_action.values()) + fixed + level
    # the pile's actions are ACTIONS, the keys AstraPileBreakdown declares
    by_pile = cast(AstraPileBreakdown, {**by_action, "fixed": fixed, "level": level, "total": total})
    return {"total": total, "breakdown": by_pile}


def projected_astra_total(state: GameState) -> int:
    """ASTRA's total once it takes the card left over this turn (as a player weighs a pick:
    the card a pick leaves over goes to ASTRA unless a bonus removes it)."""
    solo = _astra(state)
    card: int | None = None
    if solo.given is not None:
        card = None if solo.removing else solo.given
    elif state.combinations and state.seats[PLAYER].chosen == "write":
        left = left_over(state, PLAYER)
        card = left[0] if left else None
    if card is None:
        return int(astra_score(state)["total"])
    pile = dict(solo.pile)
    pile[CARDS[card].action] = pile.get(CARDS[card].action, 0) + 1
    return int(astra_score(state, pile)["total"])


def standings(state: GameState) -> Result:
    """The result of a solo game: the player's score, ASTRA's, and the winners (``[0]``,
    ``["astra"]``, or both on a draw)."""
    rules = rules_for(state.adventure)
    result = rules.standings(state)
    (player,) = result["scores"]
    theirs = astra_score(state)
    winner = rules.solo_winner(state, player["breakdown"], theirs)
    winners: list[Any] = [PLAYER] if winner == "player" else [ASTRA] if winner == ASTRA else [PLAYER, ASTRA]
    player["rank"] = 2 if winner == ASTRA else 1
    return {"scores": [player], "winners": winners, "astra": theirs}


def _astra(state: GameState) -> AstraState:
    assert state.astra is not None, "a solo game against ASTRA"
    return state.astra
