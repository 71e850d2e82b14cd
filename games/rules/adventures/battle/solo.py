"""The Battle against ASTRA (adventure-8-battle.md §2.4, §9), as the part of ``BattleRules`` that
only a solo game uses: the two sheets, ASTRA's own card of each round, its Effect cards and the
ASTRA bonuses the player's flags earn.

The rules are the spec's: the two sheets §2.4, the round §9.2, ASTRA's card §9.3, control
against ASTRA §9.4, Effect cards §9.5, ASTRA bonuses §9.6, the end and the comparison §9.7.
The solo turn is the common one (``games.rules.turn.solo``) with ASTRA's card first: its part
draws one card, plays it on the sheet of the round (an ``astra_played`` event, then ``mark``
events without a seat for what it marks), then draws the two others.

Readings taken where the sources disagree (§10), and choices of this module:

- 10.6, the official rulebook's layout: sheets ``L`` (id 0) and ``R`` (id 1), the player on
  side ``S`` of both and ASTRA (``"astra"`` as the owner) on side ``N``; missions on ``L``, odd
  rounds on ``L``, even ones on ``R``;
- when both planets accepting ASTRA's number have room the player chooses (a decision of kind
  ``effect``, options ``{"action": "astra_place", "card", "planet"}``);
- 10.8: a planet goes to ASTRA only with strictly more insignias, so a 0-0 planet is the
  player's, in play as at the final resolution;
- 10.5: ASTRA's planning (and astronaut) puts no insignia on the moon of a planet it just
  completed; 10.4: both insignias of an Effect card go on one moon when it has room;
- the targets of an Effect card are the distinct outcomes (moon spaces, comma-separated) of
  the player's choices among equal planets; with one outcome ASTRA applies it at once;
- the final resolution draws no flag, so it earns no ASTRA bonus; ASTRA filling the last empty
  space of the sheet of the round needs no rule of its own (the player then takes a System
  Error there, and the full sheet ends the game at the end of the round).
"""

from collections.abc import Sequence
from typing import Any

from games.rules.adventures.battle.layout import Layout, Planet
from games.rules.common import modifiers as modifiers_rules
from games.rules.common.base import Adventure
from games.rules.core.cards import CARDS
from games.rules.core.events import ASTRA_SIDE, MARK, Event, Recorder, SeatSetup, SheetSetup
from games.rules.core.sheet import CROSS, Marks
from games.rules.core.state import GameState, Sheet

# The owner of side N of both sheets of a solo Battle.
ASTRA = "astra"
PLAYER = 0
PLAYER_SIDE = "S"
# The sheets in front of the player: L (left, missions, odd rounds) and R (even rounds).
SHEETS = (0, 1)
# An Effect card's moon spaces, as one target.
TARGET_SEPARATOR = ","


def is_solo(sheet: Sheet) -> bool:
    """Whether ASTRA owns a side of the sheet (a solo Battle)."""
    return ASTRA in sheet.sides.values()


def round_sheet(state: GameState) -> Sheet:
    """The sheet of the round ASTRA's part is dealing (the next one): L for odd rounds, R for
    even ones."""
    sheets = state.seats[PLAYER].sheets
    return state.sheets[sheets[state.turn % len(sheets)]]


class BattleSolo(Adventure[Layout]):
    """The Battle's hooks for a game against ASTRA (``BattleRules`` is built on it)."""

    def resolve_control(
        self, rec: Recorder, seat: int | None, planet: Planet, *, sheet: int | None = None
    ) -> None:
        """A planet just completed: its flag goes to the majority (``BattleRules``)."""
        raise NotImplementedError

    def solo_seating(self, modifiers: list[dict[str, Any]]) -> tuple[list[SheetSetup], list[SeatSetup]]:
        """Sheets L and R, the player on side S of both and ASTRA on side N. The player's setup
        modifiers set up their side of both: the campaign points and the missions on L, a System
        Error delta on both, and a start mark named ``S.`` on L, ``N.`` on R (their left and right
        sheets, as in a game of players)."""
        layout = self.layout
        setup = modifiers_rules.sheet_from(modifiers, error_boxes=layout.side_error_boxes[PLAYER_SIDE])
        sheets: list[SheetSetup] = []
        for sheet, prefix in zip(SHEETS, ("S.", "N."), strict=True):
            marks: Marks = {ship: side for side, ship in layout.ships.items()}
            marks.update(
                {f"S.{element.removeprefix(prefix)}": mark for element, mark in setup["marks"].items()
                 if element.startswith(prefix)}
            )  # fmt: skip
            sheets.append(
                {
                    "id": sheet,
                    "seats": [PLAYER],
                    "sides": {PLAYER_SIDE: PLAYER, ASTRA_SIDE: ASTRA},
                    "error_boxes": [*setup["error_boxes"], *layout.side_error_boxes[ASTRA_SIDE]],
                    "marks": marks,
                    "bonus_points": setup["bonus_points"] if sheet == SHEETS[0] else 0,
                }
            )
        return sheets, [{"sheets": list(SHEETS)}]

    def astra_sheet(self, state: GameState) -> Sheet:
        """The sheet of the round ASTRA's part deals: its card and its Effect cards play there."""
        return round_sheet(state)

    # --- ASTRA's own card --------------------------------------------------------------------

    def astra_placements(self, state: GameState) -> list[str]:
        """Where ASTRA's card may go: the planets accepting its number with room (two: the
        player chooses), else the first planet with room walking cyclically from the one after
        the highest accepting it; empty when no planet has room."""
        assert state.astra is not None
        number = CARDS[state.astra.hand[0]].number
        marks = self.astra_sheet(state).marks
        layout = self.layout
        accepting = layout.number_to_planets[number]
        room = [planet for planet in accepting if layout.planets[planet].next_space(marks)]
        if room:
            return room
        order = layout.astra_planet_order
        start = order.index(accepting[-1]) + 1
        for step in range(len(order)):
            planet = order[(start + step) % len(order)]
            if layout.planets[planet].next_space(marks) is not None:
                return [planet]
        return []

    def astra_play(self, rec: Recorder, target: str | None) -> None:
        """ASTRA's card of the round on the sheet of the round: its insignia in the planet's
        first empty space, the planet's control if that completes it, then its action on that
        planet."""
        assert rec.state.astra is not None
        card = rec.state.astra.hand[0]
        sheet = round_sheet(rec.state)
        drawn = CARDS[card]
        planet = self.layout.planets[target] if target is not None else None
        space = planet.next_space(sheet.marks) if planet is not None else None
        rec.astra_played(
            sheet=sheet.id, card=card, number=drawn.number, action=drawn.action, planet=target, space=space
        )
        if planet is None:
            return
        self.resolve_control(rec, None, planet, sheet=sheet.id)
        element, mark = self._action_mark(rec.state.sheets[sheet.id].marks, planet, drawn.action)
        if element is None:
            return
        rec.mark(sheet=sheet.id, element=element, mark=mark)
        asteroid = self.layout.asteroids.get(element)
        for bonus, _ in asteroid.bonuses if asteroid is not None else ():
            rec.mark(sheet=sheet.id, element=bonus, mark=CROSS)  # lost with the asteroid

    def _action_mark(self, marks: Marks, planet: Planet, action: str) -> tuple[str | None, str]:
        """What ASTRA's action marks (None: the action is impossible, nothing happens)."""
        played = self.layout.astra_actions[action]
        if played in ("plant", "water"):
            symbols = planet.plants if played == "plant" else planet.waters
            return next((s for s in symbols if s not in marks), None), CROSS
        if played == "planning":
            if planet.done in marks:
                return None, ASTRA_SIDE
            return next((moon for moon in planet.moon if moon not in marks), None), ASTRA_SIDE
        return self.layout.next_asteroid(marks, ASTRA_SIDE), ASTRA_SIDE

    # --- Effect cards ------------------------------------------------------------------------

    def astra_targets(self, state: GameState, sheet: Sheet, letter: str, deck_pass: int) -> list[str]:
        """Every outcome of the ASTRA effect (every Effect card acts alike on both passes) the
        player's choices among equal planets allow: the moon spaces its two insignias go to (one
        when a single candidate has a single free space), comma-separated; empty when no planet
        can take one."""
        marks = sheet.marks
        free: dict[str, list[str]] = {}
        humans: dict[str, int] = {}
        for planet in self.layout.planets.values():
            spaces = [moon for moon in planet.moon if moon not in marks]
            if planet.done not in marks and spaces:
                free[planet.id] = spaces
                humans[planet.id] = planet.insignias(marks)[PLAYER_SIDE]

        def first_in_priority(candidates: list[str]) -> list[str]:
            most = max(humans[planet] for planet in candidates)
            return [planet for planet in candidates if humans[planet] == most]

        outcomes: list[str] = []
        seen: set[frozenset[str]] = set()
        for top in first_in_priority(list(free)) if free else []:
            if len(free[top]) >= 2:
                picks = [free[top][:2]]
            else:
                rest = [planet for planet in free if planet != top]
                seconds = first_in_priority(rest) if rest else []
                picks = [[free[top][0], free[second][0]] for second in seconds] or [free[top][:1]]
            for pick in picks:
                if frozenset(pick) not in seen:
                    seen.add(frozenset(pick))
                    outcomes.append(TARGET_SEPARATOR.join(pick))
        return outcomes

    def astra_effect(
        self, rec: Recorder, seat: int, letter: str, deck_pass: int, target: str | None
    ) -> None:
        """ASTRA's insignias on the moon spaces of an Effect card's outcome (none: lost)."""
        if target is None:
            return
        sheet = round_sheet(rec.state)
        for moon in target.split(TARGET_SEPARATOR):
            rec.mark(sheet=sheet.id, element=moon, mark=ASTRA_SIDE)

    # --- ASTRA bonuses -----------------------------------------------------------------------

    def astra_bonuses_earned(
        self, state: GameState, seat: int, events: Sequence[Event]
    ) -> list[tuple[int, str]]:
        """One bonus each time the count of the player's flags drawn in play over both sheets
        reaches an even number, by the flags ``events`` just drew (``state``: after them)."""
        flags = self.layout.flags
        marked = [data for event in events if (data := MARK.data_of(event)) is not None]
        drawn = [m["element"] for m in marked if m["element"] in flags and m["mark"] == PLAYER_SIDE]
        if not drawn:
            return []
        total = sum(1 for sheet in state.sheets for flag in flags if sheet.marks.get(flag) == PLAYER_SIDE)
        earned = total // 2 - (total - len(drawn)) // 2
        per_trigger = int(self.astra_card["bonuses_per_trigger"])
        return [(earned * per_trigger, drawn[-1])] if earned else []
