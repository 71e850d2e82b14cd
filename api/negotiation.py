"""Content negotiation: DRF's, with its answer for the requests nearly every client sends
(no ``Accept``, ``*/*`` or ``application/json``, no ``?format=``) given without parsing the
header: the first renderer, JSON. It cost more than rendering a small answer."""

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

JSON = "application/json"
# What DRF would pick the JSON renderer for, as the accepted media type `application/json`.
PLAIN = frozenset({None, "*/*", JSON})


class JSONFirstNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> Any:
        listed = list(renderers)
        if (
            format_suffix is None
            and listed
            and listed[0].media_type == JSON
            and request.META.get("HTTP_ACCEPT") in PLAIN
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            return listed[0], JSON
        return super().select_renderer(request, listed, format_suffix)
