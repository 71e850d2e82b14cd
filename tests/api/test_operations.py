"""Operations: the health endpoint, throttling, CORS, and settings that refuse to start unsafe."""

import asyncio
import re
import subprocess
import sys
import threading
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import AsyncClient, Client
from rest_framework.test import APIClient

from api import views
from moon import health
from moon.celery import app as celery_app
from tests import environments

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_health_in_the_embedded_mode_is_ok_and_eager(anon: APIClient) -> None:
    response = anon.get("/api/v1/health")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "eager"
    assert body["checks"]["worker"]["status"] == "eager"


@pytest.mark.django_db(transaction=True)
def test_health_under_asgi_is_checked_in_its_own_thread_and_polls_read_the_latest_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Served by the ASGI server, the check runs in the process's health thread (one, with its
    own database connection), never in a thread Django makes for a sync view; polls together
    share one check, and polls within HEALTH_FRESH_SECONDS read the latest; past it, a poll
    starts the next check and still reads the latest. The answer is the one WSGI gives."""
    threads: list[str] = []
    database = health.check_database

    def recording() -> health.Check:
        threads.append(threading.current_thread().name)
        return database()

    monkeypatch.setattr(health, "check_database", recording)
    monkeypatch.setattr(views, "LATEST_CHECK", views.LatestCheck())

    async def polls(count: int) -> list[Any]:
        return list(await asyncio.gather(*(AsyncClient().get("/api/v1/health") for _ in range(count))))

    answers = async_to_sync(polls)(3) + async_to_sync(polls)(2)
    assert [answer.status_code for answer in answers] == [200] * 5
    assert {answer.json()["status"] for answer in answers} == {"ok"}
    assert answers[0]["Content-Type"] == "application/json"
    assert len(threads) == 1 and threads[0].startswith("health"), threads
    assert Client().get("/api/v1/health").json() == answers[0].json()

    monkeypatch.setenv("HEALTH_FRESH_SECONDS", "0")
    assert async_to_sync(polls)(1)[0].json() == answers[0].json()
    views.HEALTH_THREAD.submit(lambda: None).result()  # the check the poll started is done
    # the WSGI answer was checked in the request's own thread; the next poll's in the health thread
    assert len(threads) == 3 and threads[2].startswith("health"), threads


@pytest.mark.django_db(transaction=True)
def test_health_under_asgi_shares_only_a_get_polls_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another method's refusal (405) is that request's own: the poll after it reads a check."""
    monkeypatch.setattr(views, "LATEST_CHECK", views.LatestCheck())

    async def calls() -> tuple[Any, Any]:
        refused = await AsyncClient().generic("TRACE", "/api/v1/health")
        polled = await AsyncClient().get("/api/v1/health")
        return refused, polled

    refused, polled = async_to_sync(calls)()
    assert (refused.status_code, refused.json()["code"]) == (405, "method_not_allowed")
    assert (polled.status_code, polled.json()["status"]) == (200, "ok"), polled.json()


@pytest.mark.django_db
def test_health_names_what_is_down(anon: APIClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # A broker nobody listens on (loopback, port 9 is "discard", closed here): broker and worker down.
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setitem(celery_app.conf, "broker_url", "redis://127.0.0.1:9/0")
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:9/0")  # Celery prefers the env
    monkeypatch.setenv("HEALTH_TIMEOUT", "0.2")
    response = anon.get("/api/v1/health")
    assert response.status_code == 503, response.content
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["code"] == "unavailable"
    assert body["detail"] == "down: broker, worker"
    assert body["checks"]["database"]["status"] == "ok"
    assert body["checks"]["broker"]["status"] == "down"
    assert body["checks"]["worker"]["status"] == "down"


def test_health_reports_a_database_that_does_not_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("connection refused")

    monkeypatch.setattr(health.connection, "cursor", refuse)
    healthy, checks = health.run_checks(celery_app)
    assert not healthy
    assert checks["database"]["status"] == "down"
    assert "connection refused" in checks["database"]["detail"]


class _Control:
    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = replies
        self.pings: list[dict[str, Any]] = []

    def ping(self, **kwargs: Any) -> list[dict[str, Any]]:
        self.pings.append(kwargs)
        return self.replies


def test_the_worker_check_returns_at_the_first_answer_and_is_kept_for_a_while() -> None:
    cache.delete(health.WORKER_CACHE_KEY)
    control = _Control([{"celery@a": {"ok": "pong"}}])
    app: Any = SimpleNamespace(conf=SimpleNamespace(task_always_eager=False), control=control)
    broker: health.Check = {"status": "ok", "detail": ""}
    first = health.check_worker(app, broker)
    assert first["status"] == "ok" and "celery@a" in first["detail"]
    assert control.pings == [{"timeout": health.timeout(), "limit": 1}]
    control.replies = []  # the worker goes away: the next calls within the TTL read the cache
    assert health.check_worker(app, broker) == first
    assert len(control.pings) == 1
    cache.delete(health.WORKER_CACHE_KEY)
    assert health.check_worker(app, broker)["status"] == "down"
    cache.delete(health.WORKER_CACHE_KEY)


def test_health_is_in_the_openapi_schema(anon: APIClient) -> None:
    schema = anon.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    responses = schema["paths"]["/api/v1/health"]["get"]["responses"]
    assert set(responses) == {"200", "503"}
    assert schema["paths"]["/api/v1/health"]["get"].get("security") in (None, [], [{}])


def _throttle_anonymous(settings: Any, **extra: Any) -> None:
    """Two anonymous requests a minute per client address (and ``extra`` DRF settings)."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "2/min", "user": None},
        **extra,
    }


def _fresh_address() -> str:
    """A client address of its own, so that no earlier request (or a shared cache) counts."""
    return f"127.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250 + 1}"


def _failed_sign_in(anon: APIClient, **meta: Any) -> Any:
    body = {"username": "nobody", "password": "wrong-pw"}
    return anon.post("/api/v1/auth/token", body, format="json", **meta)


@pytest.mark.django_db
def test_throttled_requests_get_429_with_a_json_error(anon: APIClient, settings: Any) -> None:
    _throttle_anonymous(settings)
    address = _fresh_address()
    for _ in range(2):
        assert _failed_sign_in(anon, REMOTE_ADDR=address).status_code == 400
    response = _failed_sign_in(anon, REMOTE_ADDR=address)
    assert response.status_code == 429
    assert response.json()["code"] == "throttled"
    assert response.json()["detail"]
    assert int(response["Retry-After"]) > 0
    # The health endpoint is never throttled (load balancers poll it).
    assert anon.get("/api/v1/health", REMOTE_ADDR=address).status_code == 200


@pytest.mark.django_db
def test_signed_in_users_have_their_own_rate(alice: APIClient, settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": "3/min"},
    }
    statuses = [alice.get("/api/v1/games").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_cors_allows_only_the_configured_origins(settings: Any) -> None:
    settings.CORS_ALLOWED_ORIGINS = ["https://play.example.org"]
    client = APIClient()
    preflight: dict[str, Any] = {
        "HTTP_ORIGIN": "https://play.example.org",
        "HTTP_ACCESS_CONTROL_REQUEST_METHOD": "POST",
        "HTTP_ACCESS_CONTROL_REQUEST_HEADERS": "authorization, content-type, idempotency-key",
    }
    allowed = client.options("/api/v1/games", **preflight)
    assert allowed["Access-Control-Allow-Origin"] == "https://play.example.org"
    assert "idempotency-key" in allowed["Access-Control-Allow-Headers"]
    other = client.options("/api/v1/games", **{**preflight, "HTTP_ORIGIN": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other


@pytest.mark.parametrize("origin", ["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080"])
def test_the_embedded_mode_allows_any_loopback_origin(origin: str, settings: Any) -> None:
    if not settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("the suite runs in the services mode here, whose settings are production's")
    preflight: dict[str, Any] = {"HTTP_ORIGIN": origin, "HTTP_ACCESS_CONTROL_REQUEST_METHOD": "POST"}
    client = APIClient()
    assert client.options("/api/v1/games", **preflight)["Access-Control-Allow-Origin"] == origin
    for outsider in ("http://localhost.evil.example:3000", "https://evil.example"):
        assert "Access-Control-Allow-Origin" not in client.options(
            "/api/v1/games", **{**preflight, "HTTP_ORIGIN": outsider}
        )


# production settings need a history signing key (any 32 bytes, base64)
SIGNING_KEY = "A" * 43 + "="


def test_production_allows_only_the_configured_origins() -> None:
    code = "from django.conf import settings; print(settings.CORS_ALLOWED_ORIGIN_REGEXES)"
    production = _settings_import(
        DATABASE_URL="postgres://moon:pw@127.0.0.1:5432/moon",
        DEBUG="false",
        SECRET_KEY="x" * 50,
        HISTORY_SIGNING_KEY=SIGNING_KEY,
        code=code,
    )
    assert production.returncode == 0, production.stderr
    assert production.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.django_db
def test_the_browsable_api_works_for_signed_in_staff_with_csrf() -> None:
    from django.contrib.auth.models import User
    from django.test import Client

    staff = User.objects.create_user("staffer", password="x-long-password", is_staff=True)
    player = User.objects.create_user("player", password="x-long-password")
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(staff)
    page = browser.get("/api/v1/games", HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and b"staffer" in page.content
    refused = browser.post("/api/v1/games", {"adventure": 1}, content_type="application/json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    token = page.cookies["csrftoken"].value
    created = browser.post(
        "/api/v1/games", {"adventure": 1, "max_players": 2}, content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert created.status_code == 201, created.content
    # a player's session is not staff's: the API stays token-only for players
    browser.force_login(player)
    assert browser.get("/api/v1/games").status_code == 401


def _settings_import(code: str = "", **env: str) -> subprocess.CompletedProcess[str]:
    clean = environments.embedded(leave_out=frozenset({"SECRET_KEY", "DEBUG"}))
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); print('started'); {code}"],
        env={**clean, "DJANGO_SETTINGS_MODULE": "moon.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_secret_key_is_required_when_debug_is_off() -> None:
    refused = _settings_import(DEBUG="false")
    assert refused.returncode != 0
    assert "ImproperlyConfigured" in refused.stderr
    assert "SECRET_KEY must be set when DEBUG is off" in refused.stderr
    started = _settings_import(DEBUG="false", SECRET_KEY="x" * 50)
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "started"


@pytest.mark.django_db
def test_x_forwarded_for_is_not_trusted_without_proxies(anon: APIClient, settings: Any) -> None:
    _throttle_anonymous(settings)
    address = _fresh_address()
    statuses = [
        _failed_sign_in(anon, REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code
        for n in range(3)
    ]
    assert statuses == [400, 400, 429]


@pytest.mark.django_db
def test_behind_a_proxy_the_client_address_comes_from_x_forwarded_for(
    anon: APIClient, settings: Any
) -> None:
    _throttle_anonymous(settings, NUM_PROXIES=1)
    proxy = _fresh_address()
    client = f"198.51.100.{uuid.uuid4().int % 250 + 1}"
    statuses = [
        _failed_sign_in(
            anon,
            REMOTE_ADDR=proxy,
            # The proxy appends the address it was reached from; what came before is the client's.
            HTTP_X_FORWARDED_FOR=f"spoofed.{n}, {client}" if n < 3 else "203.0.113.9",
        ).status_code
        for n in range(4)
    ]
    assert statuses == [400, 400, 429, 400]


def test_the_api_root_lists_its_resources_without_sign_in(anon: APIClient) -> None:
    response = anon.get("/api/v1/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["docs"] == "http://testserver/api/v1/docs"
    assert body["schema"] == "http://testserver/api/v1/schema"
    resources = body["resources"]
    assert resources["games"] == "http://testserver/api/v1/games"
    assert resources["sheet"] == "http://testserver/api/v1/games/{id}/sheets/{sheet}"
    assert resources["campaign_moves"] == "http://testserver/api/v1/campaigns/{id}/moves"
    # every link with its placeholders filled names a route of the schema
    schema = anon.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = {
        path.replace("{game_id}", "{id}").replace("{campaign_id}", "{id}") for path in schema["paths"]
    }
    for url in resources.values():
        assert url.removeprefix("http://testserver") in paths, url


def test_the_docs_load_every_asset_from_this_server(anon: APIClient) -> None:
    page = anon.get("/api/v1/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.content.decode())
    assert assets, "the docs page names its scripts and styles"
    for asset in assets:
        assert asset.startswith("/static/"), f"{asset} is not served here"
        served: Any = anon.get(asset)
        assert served.status_code == 200, asset
        assert b"".join(served.streaming_content if served.streaming else [served.content])


@pytest.mark.django_db
def test_throttles_fail_open_when_their_cache_is_down(
    anon: APIClient, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    _throttle_anonymous(settings)
    # nothing listens on port 9: every read or write of a counter fails at once
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    address = _fresh_address()
    statuses = [_failed_sign_in(anon, REMOTE_ADDR=address).status_code for _ in range(4)]
    assert statuses == [400] * 4  # refused as a sign-in, never throttled, never a 500
    assert "throttle counters unavailable" in caplog.text


@pytest.mark.django_db
def test_a_database_that_cannot_be_reached_answers_503_with_retry_after(
    alice: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.db import OperationalError

    from games import selectors

    def down(**kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(selectors, "games_of", down)
    response = alice.get("/api/v1/games")
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db
def test_the_admin_login_is_throttled_by_client_address(settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "admin_login": "5/min"},
    }
    User.objects.create_superuser("root", password="root-secret-pw")
    browser, address = Client(), _fresh_address()

    def attempt(password: str, client_address: str = address) -> Any:
        form = {"username": "root", "password": password, "next": "/admin/"}
        return browser.post("/admin/login/", form, REMOTE_ADDR=client_address)

    statuses = [attempt(f"guess-{n}").status_code for n in range(8)]
    assert statuses == [200] * 5 + [429] * 3  # the form again (wrong password), then refused
    refused = attempt("root-secret-pw")  # past the rate, not even the right password is checked
    assert (refused.status_code, refused.json()["code"]) == (429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert attempt("root-secret-pw", _fresh_address()).status_code == 302  # another client signs in


@pytest.mark.django_db
def test_behind_tls_plain_http_is_redirected_but_the_health_check(anon: APIClient, settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    redirected = anon.get("/api/v1/")
    assert (redirected.status_code, redirected["Location"]) == (301, "https://testserver/api/v1/")
    assert anon.get("/api/v1/health").status_code == 200  # load balancers poll it over HTTP
    secure = anon.get("/api/v1/", secure=True)
    assert secure.status_code == 200 and secure["Strict-Transport-Security"].startswith("max-age=3600")
