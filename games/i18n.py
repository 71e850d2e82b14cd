"""Human text in the reader's language.

The rules engine and the services write every sentence for people as an English gettext msgid
with ``%(name)s`` fields and its params (games.rules' ``Text``, a refusal's ``template`` and
``params``); Django's gettext translates it here, in the language the request activated
(``Accept-Language``, see moon.settings), when an answer is written. Params stay as they are
(numbers, ids, values quoted as JSON), except a param that is itself a ``Text``, translated in
turn (an adventure's name inside a sentence).
"""

from collections.abc import Mapping

from django.utils.translation import gettext

from eventstore.errors import Word
from games.rules.engine import N_, Text

# What the refusals of the lobby (lobby.name_of) and of ids in paths (api.ids) call the things
# they name, translated as a Text param of their sentence (or a Word: the event store's streams).
NOUNS = (N_("game"), N_("campaign"), N_("seat"), N_("sheet"), N_("stream"))
# A game's statuses, and the actions and symbols a refusal or the narration names (Word or Text
# params of their sentences).
WORDS = (
    N_("lobby"), N_("playing"), N_("scoring"), N_("finished"),
    N_("robot"), N_("energy"), N_("plant"), N_("water"), N_("astronaut"), N_("planning"), N_("reactor"),
)  # fmt: skip


def translated(template: str, params: Mapping[str, object] | None = None) -> str:
    """``template`` in the active language, its fields filled with ``params``."""
    text = gettext(template)
    if not params:
        return text
    return text % {name: _param(value) for name, value in params.items()}


def _param(value: object) -> object:
    """A param as the sentence shows it: a Text or a Word in the active language."""
    if isinstance(value, Text):
        return translated(value.template, value.params)
    return gettext(value) if isinstance(value, Word) else value


def text(value: Text) -> str:
    """A ``Text`` in the active language."""
    return translated(value.template, value.params)
