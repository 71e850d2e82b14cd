"""Plays through a client that openapi-python-client generated from the served schema, with its
typed models only (no raw dict): a whole 2-player game, a solo game against ASTRA and a chapter
of a solo campaign. Run by tests/clients/run.py with the generated package on the path.

    python tests/clients/play_python.py http://127.0.0.1:8798/api/v1
"""

import sys
import time
from typing import Any

from moon_client import AuthenticatedClient, Client
from moon_client.api.auth import register
from moon_client.api.campaigns import (
    create_campaign,
    get_campaign,
    get_campaign_decision,
    post_campaign_move,
    start_campaign,
)
from moon_client.api.games import (
    confirm_turn,
    create_game,
    get_decision,
    get_game,
    get_sheet,
    join_game,
    list_events,
    post_move,
    start_game,
)
from moon_client.models import (
    CampaignMoveRequest,
    CampaignStatusEnum,
    CreateCampaignRequest,
    CreateGameRequest,
    CredentialsRequest,
    DecisionKindEnum,
    Game,
    GameStartedEvent,
    GameStatusEnum,
    JoinRequest,
    JourneyDerived,
    JourneyZone,
    MoveRequest,
    SeatSetup,
    Sheet,
)

TURNS = 400


def player(base: str, name: str) -> Any:
    """A signed-in client of a new account; the generated client sends `Bearer <token>`."""
    anon = Client(base_url=base.removesuffix("/api/v1"), raise_on_unexpected_status=True)
    token = register.sync(client=anon, body=CredentialsRequest(username=name, password="lunar-pw-17"))
    return AuthenticatedClient(
        base_url=anon._base_url, token=token.token, raise_on_unexpected_status=True
    )


def play_turns(game_id: int, clients: list[Any]) -> Game:
    """Every seat plays its decision's first option (or confirms) until the game is finished."""
    for _ in range(TURNS * 10):
        game = get_game.sync(game_id=game_id, client=clients[0])
        assert isinstance(game, Game)
        if game.status == GameStatusEnum.FINISHED:
            return game
        moved = False
        for client in clients:
            decision = get_decision.sync(game_id=game_id, client=client)
            if decision.kind == DecisionKindEnum.WAIT:
                continue
            moved = True
            if decision.options:
                post_move.sync(game_id=game_id, client=client, body=MoveRequest(choice=decision.options[0]))
            else:
                confirm_turn.sync(game_id=game_id, client=client)
        if not moved:
            time.sleep(0.05)  # ASTRA's part, or the scoring task
    raise AssertionError(f"game {game_id} did not finish")


def two_players(base: str) -> None:
    ann, ben = player(base, "py-ann"), player(base, "py-ben")
    game = create_game.sync(client=ann, body=CreateGameRequest(adventure=2, max_players=2))
    # a private game (the default): joined with the invite its creator passes on
    assert isinstance(game.invite, str)
    join_game.sync(game_id=game.id, client=ben, body=JoinRequest(invite=game.invite))
    start_game.sync(game_id=game.id, client=ann)
    finished = play_turns(game.id, [ann, ben])
    assert finished.result is not None and finished.result.winners
    page = list_events.sync(game_id=game.id, client=ann, limit=1000)
    kinds = {event.kind for event in page.events}
    # the shapes nested in an event or a sheet are models named as the engine names them
    started = page.events[0]
    assert isinstance(started, GameStartedEvent), started
    assert all(isinstance(seat, SeatSetup) for seat in started.data.seats), started.data
    sheet = get_sheet.sync(game_id=game.id, sheet=0, client=ann)
    assert isinstance(sheet, Sheet) and isinstance(sheet.derived, JourneyDerived), sheet
    assert sheet.derived.zones and all(isinstance(zone, JourneyZone) for zone in sheet.derived.zones)
    print(f"2-player game {game.id}: finished, {len(page.events)} events of {len(kinds)} kinds")


def solo(base: str) -> None:
    cy = player(base, "py-cy")
    game = create_game.sync(client=cy, body=CreateGameRequest(adventure=1, max_players=1, astra_level=3))
    start_game.sync(game_id=game.id, client=cy)
    finished = play_turns(game.id, [cy])
    assert finished.result is not None and finished.astra is not None
    print(f"solo game {game.id} against ASTRA {finished.astra.name}: winners {finished.result.winners}")


def campaign_chapter(base: str) -> None:
    di = player(base, "py-di")
    campaign = create_campaign.sync(client=di, body=CreateCampaignRequest(max_players=1, astra_level=1))
    start_campaign.sync(campaign_id=campaign.id, client=di)
    current = get_campaign.sync(campaign_id=campaign.id, client=di)
    attempt = current.chapters[0].attempts[0]
    assert attempt.game is not None
    play_turns(attempt.game, [di])
    for _ in range(200):
        current = get_campaign.sync(campaign_id=campaign.id, client=di)
        if current.status == CampaignStatusEnum.BETWEEN:
            break
        time.sleep(0.05)
    decision = get_campaign_decision.sync(campaign_id=campaign.id, client=di)
    assert decision.options, decision
    post_campaign_move.sync(
        campaign_id=campaign.id, client=di, body=CampaignMoveRequest(choice=decision.options[0])
    )
    print(f"campaign {campaign.id}: chapter 1 played, stars {current.seats[0].stars}, then {decision.kind}")


def main() -> int:
    base = sys.argv[1]
    two_players(base)
    solo(base)
    campaign_chapter(base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
