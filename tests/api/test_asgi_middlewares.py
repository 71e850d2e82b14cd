"""Under ASGI Django's middlewares run on the event loop (moon/inline.py): an answer is the one
the same request gets under WSGI, header for header, and the admin's sign-in, which writes its
session, still signs in."""

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.http import HttpResponseBase
from django.test import AsyncClient, Client

from moon import inline

pytestmark = pytest.mark.django_db
# as moon/asgi.py does for the web processes
inline.install()

# set per response (a date, a request's id), not by the middlewares
VARYING = {"date", "x-request-id"}


def headers(response: HttpResponseBase) -> dict[str, str]:
    return {key.lower(): value for key, value in response.headers.items() if key.lower() not in VARYING}


def test_an_api_answer_is_the_same_under_asgi(make_player: Any) -> None:
    player = make_player("asgi-reader")
    token = player._credentials["HTTP_AUTHORIZATION"]
    sent = {"Authorization": token, "Accept-Language": "es"}
    for path in ("/api/v1/games", "/api/v1/games/999999", "/api/v1/nowhere"):
        wsgi = Client(headers=sent).get(path)
        asgi = async_to_sync(AsyncClient().get)(path, headers=sent)
        assert (asgi.status_code, asgi.content) == (wsgi.status_code, wsgi.content), path
        assert headers(asgi) == headers(wsgi), path


def test_the_admin_signs_in_under_asgi() -> None:
    User.objects.create_superuser("asgi-staff", password="secret-pw-9")
    client = AsyncClient()
    form = async_to_sync(client.get)("/admin/login/")
    assert form.status_code == 200
    signed = async_to_sync(client.post)(
        "/admin/login/",
        {
            "username": "asgi-staff",
            "password": "secret-pw-9",
            "csrfmiddlewaretoken": form.cookies["csrftoken"].value,
            "next": "/admin/",
        },
    )
    assert signed.status_code == 302, signed.content[:500]
    assert "sessionid" in signed.cookies
    assert async_to_sync(client.get)("/admin/").status_code == 200
