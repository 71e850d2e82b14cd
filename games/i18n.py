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

from games.rules.engine import N_, Text

# What the refusals of the lobby (lobby.name_of) and of ids in paths (api.ids) call the things
# they name, translated as a Text param of their sentence.
NOUNS = (N_("game"), N_("campaign"), N_("seat"), N_("sheet"), N_("stream"))


def translated(template: str, params: Mapping[str, object] | None = None) -> str:
    """``template`` in the active language, its fields filled with ``params``."""
    text = gettext(template)
    if not params:
        return text
    return text % {
        name: translated(value.template, value.params) if isinstance(value, Text) else value
        for name, value in params.items()
    }


def text(value: Text) -> str:
    """A ``Text`` in the active language."""
    return translated(value.template, value.params)
