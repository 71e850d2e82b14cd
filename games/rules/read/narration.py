"""Events told in words, one line each, as a reviewer reads a game's history:
"turn 7, seat 2 wrote 11 in f3.s4".

The line says what the event records and nothing more: it names the seat that caused it (or
"turn N:" for what the end of a turn does), and the sheet it marks when that is not the seat's
own. Elements are named by their ids, as the sheet views and the API name them. A line is a ``Text``
(``narrate``): English as ``describe`` gives it, and translatable (the admin viewer shows it in
the reader's language, see games.i18n); ids and numbers stay as they are.
"""

from collections.abc import Callable, Iterable
from typing import Any

from games.rules.core import events
from games.rules.core.cards import CARDS
from games.rules.core.errors import N_, Text
from games.rules.core.events import (
    AstraPlayed,
    Event,
    GameEnded,
    GameStarted,
    InsigniaDrawn,
    MarkMade,
    MissionsOffered,
    NumberWritten,
    Result,
    TurnStarted,
)
from games.rules.core.kinds import D, Kind

# How a mark word reads after the seat: "<seat> circled energy.e01".
MARK_VERBS = {
    "X": N_("wrote X in %(element)s"),
    "circle": N_("circled %(element)s"),
    "cross": N_("crossed %(element)s"),
    "line": N_("drew a line on %(element)s"),
    "fill": N_("filled %(element)s"),
    "used": N_("used %(element)s"),
    "triggered": N_("triggered %(element)s"),
    "trace": N_("traced %(element)s"),
    "complete": N_("completed %(element)s"),
}
INFECTED = "infected."


def narrate(event: Event) -> Text:
    """One line telling what ``event`` (of the current version of its kind) records."""
    kind, data, seat = event["kind"], event["data"], event["seat"]
    who = (
        Text("turn %(turn)s, seat %(seat)s", turn=event["turn"], seat=seat)
        if seat is not None
        else Text("turn %(turn)s:", turn=event["turn"])
    )
    telling = TELLERS.get(kind)
    what = (
        telling(data) if telling is not None else Text("%(kind)s %(data)s", kind=kind, data=_compact(data))
    )
    sheet = data.get("sheet")
    if sheet is None or sheet == seat:
        return Text("%(who)s %(what)s", who=who, what=what)
    return Text("%(who)s %(what)s on sheet %(sheet)s", who=who, what=what, sheet=sheet)


def describe(event: Event) -> str:
    """``narrate`` in English."""
    return str(narrate(event))


def _mark(data: MarkMade) -> Text:
    mark, element = data["mark"], data["element"]
    if isinstance(mark, int) and not isinstance(mark, bool):
        return Text("wrote %(mark)s in %(element)s", mark=mark, element=element)
    if isinstance(mark, str) and mark.startswith(INFECTED):
        return Text(
            "infected %(element)s (%(colour)s virus)", element=element, colour=mark[len(INFECTED):]
        )
    verb = MARK_VERBS.get(mark) if isinstance(mark, str) else None
    if verb:
        return Text(verb, element=element)
    return Text("marked %(element)s %(mark)s", element=element, mark=repr(mark))


def _modified(details: Text, modifier: int | None) -> Text:
    if not modifier:
        return details
    return Text("%(details)s, modified by %(modifier)s", details=details, modifier=format(modifier, "+d"))


def _written(data: NumberWritten) -> Text:
    details = Text("combination %(combination)s", combination=data["combination"])
    if "action" in data:
        details = Text("%(details)s, %(action)s", details=details, action=Text(data["action"]))
    details = _modified(details, data.get("modifier"))
    if "wild" in data:
        details = Text("%(details)s, wild %(wild)s", details=details, wild=data["wild"])
    return Text(
        "wrote %(number)s in %(space)s (%(details)s)",
        number=data["number"],
        space=data["space"],
        details=details,
    )


def _insignia(data: InsigniaDrawn) -> Text:
    details = Text(
        "combination %(combination)s, %(number)s, %(action)s",
        combination=data["combination"],
        number=data["number"],
        action=data["action"],
    )
    return Text(
        "drew insignia %(side)s in %(space)s of %(planet)s (%(details)s)",
        side=data["side"],
        space=data["space"],
        planet=data["planet"],
        details=_modified(details, data.get("modifier")),
    )


def _astra_played(data: AstraPlayed) -> Text:
    if data["space"] is None:
        return Text("ASTRA played %(card)s: no planet had room", card=_card(data["card"]))
    return Text(
        "ASTRA played %(card)s: insignia N in %(space)s of %(planet)s",
        card=_card(data["card"]),
        space=data["space"],
        planet=data["planet"],
    )


def _started(data: GameStarted) -> Text:
    missions = _listed(
        Text("%(letter)s card %(card)s", letter=letter, card=card)
        for letter, card in sorted(data["missions"].items())
    )
    return Text(
        "the game started: adventure %(adventure)s, %(players)s player(s), missions %(missions)s",
        adventure=data["adventure"],
        players=data["players"],
        missions=missions,
    )


def _listed(items: Iterable[Text], *, semicolons: bool = False) -> Text | str:
    """Texts one after the other, between commas (or semicolons)."""
    joined: Text | str = ""
    for item in items:
        if joined == "":
            joined = item
        elif semicolons:
            joined = Text("%(before)s; %(after)s", before=joined, after=item)
        else:
            joined = Text("%(before)s, %(after)s", before=joined, after=item)
    return joined


def _turn(data: TurnStarted) -> Text:
    combinations = "; ".join(f"{c['number']} {c['action']}" for c in data["combinations"])
    if data.get("reshuffled"):
        return Text(
            "flipped %(combinations)s (stacks %(stacks)s reshuffled)",
            combinations=combinations,
            stacks=data["reshuffled"],
        )
    return Text("flipped %(combinations)s", combinations=combinations)


def _offered(data: MissionsOffered) -> Text:
    offers = _listed(
        (
            Text("seat %(seat)s: %(letters)s", seat=seat, letters=", ".join(letters))
            for seat, letters in sorted(data["offers"].items())
            if letters
        ),
        semicolons=True,
    )
    return Text("missions offered (%(offers)s)", offers=offers or Text("none"))


def _ended(data: GameEnded) -> Text:
    reasons = "; ".join(_compact(reason) for reason in data["reasons"])
    return Text("the game ended (%(reasons)s)", reasons=reasons)


def _result(data: Result) -> Text:
    scores = [
        Text("seat %(seat)s %(total)s", seat=score["seat"], total=score["total"]) for score in data["scores"]
    ]
    if data.get("astra"):
        scores.append(Text("ASTRA %(total)s", total=data["astra"]["total"]))
    return Text(
        "result: %(scores)s; winner(s): %(winners)s",
        scores=_listed(scores),
        winners=_listed(_winner(winner) for winner in data["winners"]),
    )


def _winner(winner: Any) -> Text:
    return Text("ASTRA") if winner == "astra" else Text("seat %(seat)s", seat=winner)


def _card(card: int) -> Text:
    """A card by its id, with its number and action when it is a starship card."""
    known = CARDS.get(card)
    if known is None:
        return Text("card %(card)s", card=card)
    action = Text(known.action)  # an action's name, translated
    return Text("card %(card)s (%(number)s %(action)s)", card=card, number=known.number, action=action)


def _compact(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {_compact(item)}" for key, item in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_compact(item) for item in value) + "]"
    return str(value)


def _system_error(d: Any) -> Text:
    cause = d["cause"].replace("_", " ")
    if d["box"] is not None:
        return Text("circled System Error box %(box)s (%(cause)s)", box=d["box"], cause=cause)
    return Text("had a System Error with no box left to circle (%(cause)s)", cause=cause)


def _resolved(d: Any) -> Text:
    outcome = d["outcome"].replace("_", " ")
    if d.get("target") is not None:
        return Text(
            "resolved %(effect)s: %(outcome)s (%(target)s)",
            effect=d["effect"],
            outcome=outcome,
            target=_compact(d["target"]),
        )
    return Text("resolved %(effect)s: %(outcome)s", effect=d["effect"], outcome=outcome)


def _astra_effect(d: Any) -> Text:
    shown = Text(
        "ASTRA effect card %(letter)s (card %(card)s, pass %(deck_pass)s)",
        letter=d["letter"],
        card=d["card"],
        deck_pass=d["deck_pass"],
    )
    if d.get("target") is not None:
        return Text("%(effect)s on %(target)s", effect=shown, target=d["target"])
    return shown


def _teller(kind: Kind[Any, Event, D], tell: Callable[[D], Text]) -> tuple[str, Callable[[Any], Text]]:
    """How events of ``kind`` are told, their data read as the kind's schema."""
    return kind.name, tell


TELLERS: dict[str, Callable[[Any], Text]] = dict(
    [
        _teller(events.GAME_STARTED, _started),
        _teller(events.TURN_STARTED, _turn),
        _teller(events.NUMBER_WRITTEN, _written),
        _teller(events.INSIGNIA_DRAWN, _insignia),
        _teller(events.SYSTEM_ERROR, _system_error),
        _teller(events.MARK, _mark),
        _teller(
            events.EFFECTS_PENDING,
            lambda d: Text(
                "has to resolve %(effects)s (from %(source)s)",
                effects=", ".join(d["effects"]),
                source=d["source"],
            ),
        ),
        _teller(events.EFFECT_RESOLVED, _resolved),
        _teller(events.UNDO, lambda d: Text("undid the turn")),
        _teller(events.CONFIRMED, lambda d: Text("confirmed")),
        _teller(events.MISSIONS_OFFERED, _offered),
        _teller(events.MISSION_CLAIMED, lambda d: Text("claimed mission %(letter)s", letter=d["letter"])),
        _teller(
            events.MISSION_ACCOMPLISHED,
            lambda d: Text(
                "accomplished mission %(letter)s (card %(card)s) for %(value)s",
                letter=d["letter"],
                card=d["card"],
                value=d["value"],
            ),
        ),
        _teller(
            events.MISSION_FLIPPED,
            lambda d: Text("mission %(letter)s (card %(card)s) flipped", letter=d["letter"], card=d["card"]),
        ),
        _teller(
            events.CHOICES_AWAITED,
            lambda d: Text(
                "%(phase)s: seat(s) %(seats)s to choose",
                phase=d["phase"],
                seats=", ".join(map(str, d["seats"])),
            ),
        ),
        _teller(events.CARD_DRAWN, lambda d: Text("drew %(card)s from the solo deck", card=_card(d["card"]))),
        _teller(
            events.DECK_RESHUFFLED,
            lambda d: Text("the solo deck was reshuffled (pass %(deck_pass)s)", deck_pass=d["deck_pass"]),
        ),
        _teller(events.ASTRA_EFFECT, _astra_effect),
        _teller(events.ASTRA_PLAYED, _astra_played),
        _teller(
            events.CARD_GIVEN,
            lambda d: (
                Text("removed %(card)s with an ASTRA bonus", card=_card(d["card"]))
                if d["removed"]
                else Text("gave %(card)s to ASTRA", card=_card(d["card"]))
            ),
        ),
        _teller(
            events.ASTRA_BONUS,
            lambda d: Text(
                "earned %(count)s ASTRA bonus(es) with %(element)s", count=d["count"], element=d["element"]
            ),
        ),
        _teller(
            events.ASTRA_TOOK,
            lambda d: (
                Text("%(card)s left the game", card=_card(d["card"]))
                if d["removed"]
                else Text("ASTRA took %(card)s", card=_card(d["card"]))
            ),
        ),
        _teller(
            events.AUTOPILOT,
            lambda d: Text(
                "was played for: its %(phase)s deadline passed (%(in_a_row)s in a row)",
                phase=d["phase"],
                in_a_row=d["in_a_row"],
            ),
        ),
        _teller(
            events.SEAT_RESIGNED,
            lambda d: Text("resigned: a bot plays the seat")
            if d["reason"] == "resigned"
            else Text("was handed to a bot after deadlines passed in a row"),
        ),
        _teller(events.GAME_ENDED, _ended),
        _teller(events.RESULT, _result),
    ]
)
