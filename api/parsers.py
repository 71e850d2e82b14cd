"""Request body parsing: JSON, with a sentence for what the standard parser lets through."""

import json
from typing import Any

from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONBodyParser(JSONParser):
    """DRF's JSON parser, refusing JSON nested too deep for Python to decode (a RecursionError
    otherwise) as a malformed request."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(gettext("The JSON body is nested too deep.")) from exc
        except ParseError as exc:
            # DRF's sentence quotes Python's parser (`'NaN'`): say it in JSON's terms
            cause = exc.__context__
            if isinstance(cause, json.JSONDecodeError):
                raise ParseError(
                    gettext("The body is not valid JSON (line %(line)s, column %(column)s: %(why)s).")
                    % {"line": cause.lineno, "column": cause.colno, "why": cause.msg}
                ) from exc
            raise ParseError(
                gettext("The body is not valid JSON (NaN and Infinity are not JSON numbers).")
            ) from exc
