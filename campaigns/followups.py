"""The table of follow-ups: what each committed event kind (or what a stream's state leaves to
workers) sets off, for every stream, games' and campaigns' alike, read in this one place
(eventstore/followups.py reads it through the ``FOLLOW_UPS`` setting). It lives in the top app
of the domain, the one that sees both games' and campaigns' tasks. Each entry sends one task
with the id of the follow-up's row, which the task deletes once its work is done; each task is
idempotent: it reads the log before it appends.
"""

from campaigns import services as campaign_services
from campaigns import tasks as campaign_tasks
from eventstore import followups
from eventstore.followups import ASTRA_DUE, BOT_TO_CHOOSE, BOTS_TO_PLAY, DEADLINE, Table
from games import tasks as game_tasks
from games.services import GAME_ENDED, RESULT


def _end_chapter(game_id: int, version: int, followup: int) -> None:
    """A game's result ends its campaign chapter, when it is a chapter's game."""
    if campaign_services.is_chapter_game(game_id=game_id):
        campaign_tasks.end_chapter.delay(game_id, followup=followup)
    else:
        followups.done(followup)


FOLLOW_UPS: Table = {
    ("game", GAME_ENDED): lambda game_id, version, followup: game_tasks.score_game.delay(
        game_id, followup=followup
    ),
    ("game", ASTRA_DUE): lambda game_id, version, followup: game_tasks.play_astra.delay(
        game_id, followup=followup
    ),
    ("game", BOTS_TO_PLAY): lambda game_id, version, followup: game_tasks.play_bots.delay(
        game_id, followup=followup
    ),
    ("game", RESULT): _end_chapter,
    ("game", DEADLINE): lambda game_id, version, followup: game_tasks.play_deadline.delay(
        game_id, version, followup=followup
    ),
    ("campaign", BOT_TO_CHOOSE): lambda campaign_id, version, followup: campaign_tasks.play_bot_choice.delay(
        campaign_id, version, followup=followup
    ),
}
