"""The API's content negotiation picks what DRF's own picks, for every Accept header and
``?format=``: the shortcut for plain JSON clients changes no answer."""

import pytest
from django.test import RequestFactory
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request

from api.negotiation import JSONFirstNegotiation

RENDERERS: list[BaseRenderer] = [JSONRenderer(), BrowsableAPIRenderer()]


def chosen(negotiation: DefaultContentNegotiation, accept: str | None, query: str) -> object:
    headers = None if accept is None else {"Accept": accept}
    request = Request(RequestFactory().get(f"/api/v1/games{query}", headers=headers))
    try:
        renderer, media_type = negotiation.select_renderer(request, RENDERERS)
    except NotAcceptable:
        return "406"
    return type(renderer).__name__, media_type


@pytest.mark.parametrize("query", ["", "?format=json", "?format=api"])
@pytest.mark.parametrize(
    "accept", [None, "*/*", "application/json", "text/html", "application/json; indent=4", "*/*;q=0.8", ""]
)
def test_the_renderer_is_drfs_choice(accept: str | None, query: str) -> None:
    assert chosen(JSONFirstNegotiation(), accept, query) == chosen(DefaultContentNegotiation(), accept, query)


def test_a_plain_client_gets_json() -> None:
    assert chosen(JSONFirstNegotiation(), None, "") == ("JSONRenderer", "application/json")
