"""The campaign as a decider: what a seat must decide now (``options``), the events a choice
causes (``decide``), a chapter's setup from the cards in effect for it, and the end of a chapter
(``chapter_end``: stars, captain, the cards offered or the end of the campaign).

A campaign plays the version of ``rules/campaign.md`` it was created under
(``CampaignState.rules_version``). Under version 1, between two chapters one seat decides at a
time, in this order:

1. the captain chooses one of the group's cards offered (in the pack's order), and names the
   opponent it is aimed at when it applies to one;
2. each player, the last in stars first, chooses one of the personal cards offered (every
   player may take the same card: they are story choices, not a stock), and aims it;
3. the captain chooses ``next_chapter`` (listed only when the next chapter's adventure is
   playable, for one player its solo mode: ``unavailable``) or ``replay_chapter`` (the chapter
   just played);
4. the chapter opened, each ``mission_choice`` of the cards in effect for it asks its holder
   (the captain for a card applying to every player) for the mission card of each of its
   letters, in the order the cards were chosen; a letter already chosen is not asked again.
   Then the chapter's game starts (``ready_to_start``).

In a solo campaign the one player is the captain and chooses every card; a chapter's game is
played against ASTRA at the campaign's starting level moved by the ``astra_level`` cards in
effect for it (bounded 1-8), recorded in the chapter's setup. ASTRA is the other player of the
ranking: the game's result ranks the player 1st on a win or a draw, 2nd on a loss, and the stars
follow that rank.

Under version 2 ("Version 2 of these rules"): once a chapter has its stars and captain, the
captain first keeps its result or replays it (``keep_or_replay``; chapter 8 too). Keeping it
offers the cards (after chapter 8: ends the campaign): the captain's group card, then a draft of
the personal cards, one more than the players drawn with the campaign's seed
(``personal_offer``), each player in the order of stars taking one that no other took; the last
choice opens the next chapter. In solo ASTRA takes the stars of its own rank each chapter and
keeps a tally; the campaign is won by more stars, then the higher sum of chapter totals, else
shared with ASTRA. Every option naming a card carries its text (``_card_text``,
``_mission_text``); a choice is an option sent back whole or by its choice fields.

A replay opens a new attempt of the chapter: its result replaces the previous one for stars and
for the cards offered after it (``CampaignState.counting``); every attempt stays in the log.
After chapter 8 the campaign finishes with its winners; no card is offered.
"""

import copy
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from campaigns.rules import effects, events, standings
from campaigns.rules.events import ChapterSetup, Event, SeatResult, StarAward, StarReason, evolve
from campaigns.rules.packs import LAST_CHAPTER, Card, Pack
from campaigns.rules.state import BETWEEN, FINISHED, LOBBY, PLAYING, CampaignState
from games.rules.engine import (
    OPTION_VALUE_TYPES,
    PLAYABLE,
    MissionValues,
    OutOfTurn,
    RuleViolation,
    Text,
    astra_opponents,
    mission_candidates,
    shown,
)


class ChapterOption(TypedDict):
    """The captain's choice between chapters: open the next one, keep the one just played (in
    version 2, before any card is offered), or replay it."""

    action: Literal["next_chapter", "keep_chapter", "replay_chapter"]
    chapter: int


class CardText(TypedDict):
    """What an option naming a campaign card shows of it (version 2): its title, its story and
    each of its effects in words."""

    title: str
    story: str
    effects: list[Text]  # each a sentence, in the reader's language where the API answers


class ChooseCardOption(CardText):
    """A campaign card offered, taken."""

    action: Literal["choose_card"]
    card: str


class AimCardOption(CardText):
    """The opponent (a seat) a card chosen is aimed at."""

    action: Literal["aim_card"]
    card: str
    target: int


class MissionText(TypedDict):
    """What an option naming a mission card shows of it (version 2)."""

    condition: str
    values: MissionValues


class ChooseMissionOption(MissionText):
    """Mission card ``card`` chosen for letter ``letter`` of the chapter opened."""

    action: Literal["choose_mission"]
    letter: str
    card: int


# An option of a campaign decision: one of the shapes above, as the API lists them.
Option = ChapterOption | ChooseCardOption | AimCardOption | ChooseMissionOption


@dataclass(frozen=True)
class Decision:
    """What a seat must decide now: ``card``, ``aim``, ``chapter`` (version 1),
    ``keep_or_replay`` (version 2), ``mission`` or ``wait``."""

    kind: str
    options: list[Option]

    def as_dict(self) -> dict[str, Any]:
        # Campaign choices are final as they are made: nothing to undo or confirm.
        return {"kind": self.kind, "options": self.options, "can_undo": False, "can_confirm": False}


WAIT = Decision("wait", [])


@dataclass(frozen=True)
class Held:
    """A card in effect for a chapter, and the seats it applies to."""

    card: Card
    holders: tuple[int, ...]


# --- availability --------------------------------------------------------------------------


def unavailable(chapter: int, *, players: int) -> OutOfTurn | None:
    """Why a chapter cannot be played yet by a campaign of ``players`` seats, or None: its
    adventure is not playable, or not for that many players (a solo campaign needs the
    adventure's solo mode against ASTRA). The engine's own answer, so a chapter becomes
    playable by itself when its adventure (or its solo mode) lands."""
    name = Text(effects.adventure_name(chapter))
    rules = PLAYABLE.get(chapter)
    if rules is None:
        return OutOfTurn(
            "chapter_not_available",
            "Chapter %(chapter)s plays adventure %(chapter)s (%(name)s), which is not playable yet.",
            chapter=chapter,
            name=name,
        )
    problem = rules.players_problem(players)
    if problem is not None:
        return OutOfTurn(
            "chapter_not_available",
            "Chapter %(chapter)s plays adventure %(chapter)s (%(name)s): %(problem)s",
            chapter=chapter,
            name=name,
            problem=problem.text,
        )
    return None


def astra_level(state: CampaignState, held: list[Held]) -> int:
    """A solo chapter's ASTRA level: the campaign's starting level plus the ``astra_level``
    deltas of the cards in effect for it, bounded 1-8."""
    assert state.astra_level is not None
    level: int = state.astra_level + sum(
        effect["delta"]
        for entry in held
        if entry.holders
        for effect in entry.card.effects
        if effect["kind"] == "astra_level"
    )
    levels = sorted(astra_opponents())
    return min(max(level, levels[0]), levels[-1])


# --- cards in effect -----------------------------------------------------------------------


def cards_in_effect(state: CampaignState, pack: Pack, chapter: int) -> list[Held]:
    """The cards that apply to ``chapter``, in the order they were chosen: those chosen after
    the attempts that count of the chapters before it."""
    held = []
    for earlier in range(1, chapter):
        attempt = state.counting(earlier)
        for chosen in attempt.choices if attempt is not None else ():
            card = pack.card(chosen.card)
            if card.reaches(chapter):
                held.append(Held(card, holders(state, card, chosen.seat, chosen.target)))
    return held


def holders(state: CampaignState, card: Card, chooser: int, target: int | None) -> tuple[int, ...]:
    """The seats a chosen card applies to (none yet for a card not aimed)."""
    if card.applies_to == "all":
        return tuple(range(state.players))
    if card.applies_to == "opponent":
        return () if target is None else (target,)
    return (chooser,)


# --- what is to decide ---------------------------------------------------------------------


@dataclass(frozen=True)
class Pending:
    seat: int
    decision: Decision
    # what the seat is asked, for a refusal: "choose a card", ...
    what: str


def pending(state: CampaignState, pack: Pack) -> Pending | None:
    """The one decision the campaign waits for, or None (lobby, a chapter in play, finished,
    or a chapter ready to start)."""
    current = state.current
    if state.status != BETWEEN or current is None:
        return None
    if not current.finished:
        return _mission_pending(state, pack)
    if state.rules_version >= 2:
        return _pending_v2(state, pack)
    asked = _offer_pending(state, pack, current.offer) if current.offer is not None else None
    if asked is not None:
        return asked
    assert state.captain is not None
    options: list[Option] = []
    if current.chapter < LAST_CHAPTER and unavailable(current.chapter + 1, players=state.players) is None:
        options.append({"action": "next_chapter", "chapter": current.chapter + 1})
    options.append({"action": "replay_chapter", "chapter": current.chapter})
    return Pending(state.captain, Decision("chapter", options), "start the next chapter or replay this one")


def _pending_v2(state: CampaignState, pack: Pack) -> Pending | None:
    """Rules version 2: the captain keeps the chapter's result or replays it at once; once kept,
    the offer's choices (the group's, then the personal draft)."""
    current = state.current
    assert current is not None and state.captain is not None
    if current.kept:
        return _offer_pending(state, pack, current.offer) if current.offer is not None else None
    chapter = current.chapter
    options: list[Option] = []
    if chapter == LAST_CHAPTER or unavailable(chapter + 1, players=state.players) is None:
        options.append({"action": "keep_chapter", "chapter": chapter})
    options.append({"action": "replay_chapter", "chapter": chapter})
    what = "keep this chapter's result or replay it"
    return Pending(state.captain, Decision("keep_or_replay", options), what)


def _offer_pending(state: CampaignState, pack: Pack, offer: dict[str, Any]) -> Pending | None:
    """The next card choice the offer after a chapter waits for: the group's, then each
    player's in order."""
    choosers = [(offer["captain"], offer["group"])] if offer["group"] else []
    choosers += [(seat, offer["personal"]) for seat in offer["order"]] if offer["personal"] else []
    for seat, offered in choosers:
        asked = _card_pending(state, pack, seat, offered)
        if asked is not None:
            return asked
    return None


def _card_pending(state: CampaignState, pack: Pack, seat: int, offered: list[str]) -> Pending | None:
    current = state.current
    assert current is not None
    chosen = next((c for c in current.choices if c.seat == seat and c.card in offered), None)
    options: list[Option]
    if chosen is None:
        if state.rules_version >= 2:
            # the personal cards are a draft: a card another seat took is gone
            taken = {c.card for c in current.choices if c.seat != seat}
            offered = [card for card in offered if card not in taken]
        options = [{"action": "choose_card", "card": card, **_card_text(pack, card)} for card in offered]
        return Pending(seat, Decision("card", options), "choose a campaign card")
    if pack.card(chosen.card).applies_to == "opponent" and chosen.target is None:
        options = [
            {"action": "aim_card", "card": chosen.card, "target": target, **_card_text(pack, chosen.card)}
            for target in range(state.players)
            if target != seat
        ]
        return Pending(seat, Decision("aim", options), "name the opponent a card is aimed at")
    return None


def _mission_choices(state: CampaignState, pack: Pack) -> Iterator[tuple[int, str, str]]:
    """(seat, campaign card, letter) of every mission choice the chapter opened asks for."""
    current = state.current
    assert current is not None and state.captain is not None
    for held in cards_in_effect(state, pack, current.chapter):
        for effect in held.card.effects:
            if effect["kind"] != "mission_choice" or not held.holders:
                continue
            seat = state.captain if held.card.applies_to == "all" else held.holders[0]
            for letter in effect["letters"]:
                yield seat, held.card.id, letter


def _card_text(pack: Pack, card_id: str) -> CardText:
    """What an option naming a campaign card shows of it: title, story, effects in words."""
    card = pack.card(card_id)
    return {
        "title": card.title,
        "story": card.story,
        "effects": [effects.describe(effect) for effect in card.effects],
    }


def _mission_text(card: int) -> MissionText:
    """What an option naming a mission card shows of it: its condition and values."""
    shown = effects.mission_card(card)
    return {"condition": shown["condition"], "values": {"first": shown["first"], "later": shown["later"]}}


# The fields of an option that make the choice; the others only show it (its text).
CHOICE_FIELDS = ("action", "card", "target", "letter", "chapter")


def _listed(choice: dict[str, Any], options: list[Option]) -> bool:
    """Whether a choice is one of the options: the fields that make the choice, sent alone or
    with the option's other fields (a client may send back the option whole). Those others only
    show the option, in the language the client read it in: their values are not compared."""
    return any(
        all(choice.get(name) == option.get(name) for name in CHOICE_FIELDS) and choice.keys() <= option.keys()
        for option in options
    )


def _mission_pending(state: CampaignState, pack: Pack) -> Pending | None:
    current = state.current
    assert current is not None
    for seat, _, letter in _mission_choices(state, pack):
        if letter not in current.missions:
            options: list[Option] = [
                {"action": "choose_mission", "letter": letter, "card": card, **_mission_text(card)}
                for card in mission_candidates(current.chapter, letter)
            ]
            return Pending(seat, Decision("mission", options), f"choose mission {letter}")
    return None


def options(state: CampaignState, pack: Pack, seat: int) -> Decision:
    """What ``seat`` must decide now, every option listed; ``wait`` when nothing."""
    asked = pending(state, pack)
    return asked.decision if asked is not None and asked.seat == seat else WAIT


def ready_to_start(state: CampaignState, pack: Pack) -> bool:
    """Whether the chapter opened last has every setup choice made and no game yet."""
    current = state.current
    return (
        current is not None
        and current.game is None
        and not current.finished
        and _mission_pending(state, pack) is None
    )


# --- choices -------------------------------------------------------------------------------


def decide(state: CampaignState, pack: Pack, seat: int, choice: Any, *, seed: int = 0) -> list[Event]:
    """The events a seat's choice causes: RuleViolation for a choice not listed, OutOfTurn
    when the campaign asks nothing of this seat now. ``seed`` (the campaign's) draws the
    personal cards a kept chapter offers under rules version 2."""
    status = state.status
    current = state.current
    if status == LOBBY:
        raise OutOfTurn("campaign_not_started", "The campaign has not started.")
    if status == FINISHED:
        raise OutOfTurn("campaign_finished", "The campaign is over.")
    if status == PLAYING:
        assert current is not None
        raise OutOfTurn(
            "chapter_in_play",
            "Chapter %(chapter)s is being played (game %(game)s); the choices come when it ends.",
            chapter=current.chapter,
            game=current.game,
        )
    asked = pending(state, pack)
    if asked is None or asked.seat != seat:
        waiting = f"seat {asked.seat} to {asked.what}" if asked is not None else "the chapter to start"
        raise OutOfTurn(
            "not_your_choice",
            "The campaign is waiting for %(waiting)s.",
            waiting=waiting,
        )
    assert current is not None
    if not isinstance(choice, dict) or not all(
        type(choice.get(name)) in OPTION_VALUE_TYPES for name in CHOICE_FIELDS
    ):
        raise RuleViolation(
            "invalid_choice",
            "A choice sends one of the listed options: an object whose fields are words or whole "
            "numbers.",
        )
    if not _listed(choice, asked.decision.options):
        _refuse(asked, choice, next_chapter=current.chapter + 1, players=state.players)
    action = choice["action"]
    chapter, attempt = current.chapter, current.number
    if action == "choose_card":
        chosen = events.card_chosen(seat, chapter=chapter, attempt=attempt, card=choice["card"])
        return _then_next_chapter(state, pack, [chosen])
    if action == "aim_card":
        card, target = choice["card"], choice["target"]
        aimed = events.card_aimed(seat, chapter=chapter, attempt=attempt, card=card, target=target)
        return _then_next_chapter(state, pack, [aimed])
    if action == "keep_chapter":
        return _keep(state, pack, seat, seed=seed)
    if action == "choose_mission":
        letter = choice["letter"]
        source = next(card for s, card, asked in _mission_choices(state, pack) if asked == letter)
        return [
            events.mission_chosen(
                seat, chapter=chapter, attempt=attempt, letter=letter, card=choice["card"], source=source
            )
        ]
    if action == "next_chapter":
        return [events.chapter_opened(seat, chapter=chapter + 1, attempt=1)]
    replays = len(state.attempts_of(chapter))
    return [events.chapter_replayed(seat, chapter=chapter, attempt=replays + 1)]


def _then_next_chapter(state: CampaignState, pack: Pack, new: list[Event]) -> list[Event]:
    """Rules version 2: ``new``, and the next chapter opening once the kept chapter's offer
    asks nothing more (the captain chose to go on when keeping it)."""
    if state.rules_version < 2:
        return new
    rec = _Recorder(state)
    for event in new:
        rec.record(event)
    current = rec.state.current
    assert current is not None
    if current.kept and pending(rec.state, pack) is None and rec.state.winners is None:
        rec.record(events.chapter_opened(chapter=current.chapter + 1, attempt=1))
    return rec.events


def _keep(state: CampaignState, pack: Pack, seat: int, *, seed: int) -> list[Event]:
    """Rules version 2, the captain keeps the chapter's result: the cards offered after it (the
    group's; one more personal card than there are players, drawn from the pack's with the
    campaign's seed, to be drafted in the order of stars), or after chapter 8 the end."""
    current = state.current
    assert current is not None and state.captain is not None
    chapter, attempt = current.chapter, current.number
    kept = events.chapter_kept(seat, chapter=chapter, attempt=attempt)
    if chapter == LAST_CHAPTER:
        return [kept, _finish(state)]
    group = pack.offered_after(chapter, solo=state.solo)[0]
    offered = events.cards_offered(
        chapter=chapter,
        attempt=attempt,
        captain=state.captain,
        group=[card.id for card in group],
        personal=personal_offer(pack, chapter, attempt, players=state.players, seed=seed),
        order=standings.choosing_order(state.stars()),
    )
    return _then_next_chapter(state, pack, [kept, offered])


def personal_offer(pack: Pack, chapter: int, attempt: int, *, players: int, seed: int) -> list[str]:
    """Rules version 2: the personal cards offered after an attempt of a chapter is kept, in
    the pack's order: one more than the players (all when the pack has fewer), drawn among
    those that can apply with the campaign's seed."""
    personal = [card.id for card in pack.offered_after(chapter, solo=players == 1)[1]]
    rng = random.Random(f"{seed}/offer/{chapter}/{attempt}")
    drawn = set(rng.sample(personal, min(len(personal), players + 1)))
    return [card for card in personal if card in drawn]


def _finish(state: CampaignState) -> Event:
    """The end of the campaign from the tallies of the attempts that count. Rules version 2 in
    solo: ASTRA is a rival (more stars, then the higher sum of chapter totals, else shared)."""
    tallies, totals = state.stars(), state.totals()
    astra = state.astra_tally()
    if astra is None:
        won: list[int | str] = list(standings.winners(tallies, totals))
        return events.campaign_finished(winners=won, stars=tallies, totals=totals)
    mine, theirs = (tallies[0], totals[0]), (astra["stars"], astra["totals"])
    won = [0] if mine > theirs else ["astra"] if mine < theirs else [0, "astra"]
    tally: events.AstraTally = {"stars": astra["stars"], "totals": astra["totals"]}
    return events.campaign_finished(winners=won, stars=tallies, totals=totals, astra=tally)


def _refuse(asked: Pending, choice: Any, *, next_chapter: int, players: int) -> None:
    """Why a choice not listed is refused: the next chapter waiting for its adventure (409),
    or a choice that is not one of the options (400)."""
    going_on = (
        {"action": "next_chapter", "chapter": next_chapter}
        if asked.decision.kind == "chapter"
        else {"action": "keep_chapter", "chapter": next_chapter - 1}
    )
    if (
        asked.decision.kind in ("chapter", "keep_or_replay")
        and choice == going_on
        and (refused := unavailable(next_chapter, players=players)) is not None
    ):
        raise refused
    raise RuleViolation(
        "illegal_choice",
        "Send one of the options listed to %(what)s: %(options)s.",
        what=asked.what,
        options=shown(asked.decision.options),
    )


# --- the start of a campaign and of a chapter ----------------------------------------------


def opening(players: int) -> list[Event]:
    """The events that start a campaign: seat 0 holds the captain card, chapter 1 opens."""
    return [
        events.captain_changed(captain=0, previous=None, stars=[0] * players),
        events.chapter_opened(chapter=1, attempt=1),
    ]


def chapter_setup(state: CampaignState, pack: Pack) -> ChapterSetup:
    """The setup the cards in effect give the chapter opened last: the missions chosen, each
    seat's setup modifiers (as ``engine.new_game`` takes them, seats as strings), the cards
    applied, the effects a sheet could not take with the others (left out) and, in a solo
    campaign, ASTRA's level for the chapter."""
    current = state.current
    assert current is not None
    chapter = current.chapter
    rules = PLAYABLE[chapter]
    held = cards_in_effect(state, pack, chapter)
    modifiers: dict[int, list[dict[str, Any]]] = {}
    strike: dict[int, int] = {}
    left_out: list[dict[str, Any]] = []
    for entry in held:
        for effect in entry.card.effects:
            modifier = effects.modifier(effect, adventure=chapter)
            if modifier is None:
                continue
            for seat in entry.holders:
                if modifier["kind"] == "system_errors":
                    strike[seat] = strike.get(seat, 0) + modifier["delta"]
                    continue
                trial = [*modifiers.get(seat, []), modifier]
                try:
                    rules.validate_modifiers(trial)
                except RuleViolation as refused:
                    why = {"kind": modifier["kind"], "reason": refused.detail}
                    left_out.append({"seat": seat, "card": entry.card.id, **why})
                    continue
                modifiers[seat] = trial
    # cards striking boxes add up, and leave at least one box usable (the engine's bound)
    fewest = -(len(rules.layout.error_boxes) - 1)
    for seat, delta in strike.items():
        modifiers.setdefault(seat, []).append({"kind": "system_errors", "delta": max(delta, fewest)})
    setup: ChapterSetup = {
        "missions": {letter: chosen["card"] for letter, chosen in current.missions.items()},
        "modifiers": {str(seat): mods for seat, mods in sorted(modifiers.items())},
        "cards": list(dict.fromkeys(entry.card.id for entry in held)),
        "left_out": left_out,
    }
    if state.solo:
        setup["astra_level"] = astra_level(state, held)
    return setup


def chapter_started(state: CampaignState, *, game: int, players: int, setup: ChapterSetup) -> Event:
    """The event of the chapter opened last starting with its game."""
    current = state.current
    assert current is not None
    return events.chapter_started(
        chapter=current.chapter,
        attempt=current.number,
        adventure=current.chapter,
        game=game,
        players=players,
        setup=setup,
    )


# --- the end of a chapter ------------------------------------------------------------------


class _Recorder:
    """Events emitted one by one, each applied to a copy of the state as it goes."""

    def __init__(self, state: CampaignState) -> None:
        self.state = copy.deepcopy(state)
        self.events: list[Event] = []

    def record(self, event: Event) -> None:
        self.events.append(event)
        evolve(self.state, event)


def chapter_end(
    state: CampaignState,
    pack: Pack,
    *,
    game: int,
    results: list[SeatResult],
    winners: list[Any],
    astra_total: int | None = None,
) -> list[Event]:
    """The events that end the chapter in play once its game has its result: the result, the
    stars (by the pack's table for each rank, ties sharing the better rank as the game's ranks
    do, plus the star goals met), the captain, then under rules version 1 the cards offered, or
    after chapter 8 the end of the campaign. Under version 2 the captain then keeps the result
    or replays the chapter (``decide``), and in solo ASTRA (whose game total is
    ``astra_total``) takes the stars of its own rank: 1st when among the winners, else 2nd."""
    current = state.current
    if state.status != PLAYING or current is None or current.game != game:
        raise OutOfTurn(
            "chapter_not_in_play",
            "Game %(game)s is not the chapter in play.",
            game=game,
        )
    chapter, attempt = current.chapter, current.number
    v2 = state.rules_version >= 2
    astra: events.AstraResult | None = None
    astra_award: events.AstraAward | None = None
    if v2 and state.solo:
        rank = 1 if "astra" in winners else 2
        astra = {"total": astra_total or 0, "rank": rank}
        stars = pack.stars_for(chapter, rank)
        astra_award = {"stars": stars, "reasons": [{"reason": "rank", "rank": rank, "stars": stars}]}
    rec = _Recorder(state)
    rec.record(
        events.chapter_finished(
            chapter=chapter,
            attempt=attempt,
            game=game,
            results=list(results),
            winners=list(winners),
            astra=astra,
        )
    )
    awards = _awards(state, pack, chapter, results)
    rec.record(events.stars_awarded(chapter=chapter, attempt=attempt, awards=awards, astra=astra_award))
    tallies = rec.state.stars()
    assert state.captain is not None
    captain = standings.captain_after(tallies, previous=state.captain)
    if captain != state.captain:
        rec.record(events.captain_changed(captain=captain, previous=state.captain, stars=tallies))
    if v2:
        return rec.events
    if chapter == LAST_CHAPTER:
        rec.record(_finish(rec.state))
    else:
        group, personal = pack.offered_after(chapter, solo=state.solo)
        rec.record(
            events.cards_offered(
                chapter=chapter,
                attempt=attempt,
                captain=captain,
                group=[card.id for card in group],
                personal=[card.id for card in personal],
                order=standings.choosing_order(tallies),
            )
        )
    return rec.events


def _awards(
    state: CampaignState, pack: Pack, chapter: int, results: list[SeatResult]
) -> list[StarAward]:
    goals = [
        (entry, effect)
        for entry in cards_in_effect(state, pack, chapter)
        for effect in entry.card.effects
        if effect["kind"] == "star_goal"
    ]
    awards: list[StarAward] = []
    for result in results:
        seat = result["seat"]
        reasons: list[StarReason] = [
            {"reason": "rank", "rank": result["rank"], "stars": pack.stars_for(chapter, result["rank"])}
        ]
        reasons += [
            {"reason": "star_goal", "card": entry.card.id, "stars": effect["stars"]}
            for entry, effect in goals
            if seat in entry.holders and effects.goal_met(effect["predicate"], result)
        ]
        awards.append({"seat": seat, "stars": sum(r["stars"] for r in reasons), "reasons": reasons})
    return awards
