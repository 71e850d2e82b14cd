"""Request body parsing: JSON, with a sentence for what the standard parser lets through."""

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JSONBodyParser(JSONParser):
    """DRF's JSON parser, refusing JSON nested too deep for Python to decode (a RecursionError
    otherwise) as a malformed request."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError("The JSON body is nested too deep.") from exc
