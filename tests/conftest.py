"""Fixtures shared by the API and games tests, and the two modes of the suite.

Embedded mode (`make test`, the default): SQLite and eager Celery tasks. Tests marked
`@pytest.mark.services` are skipped, with the reason.

Services mode (`make test-services`, MOON_SERVICES=1 with DATABASE_URL and CELERY_BROKER_URL from
deploy/services.sh): the whole suite runs on PostgreSQL; the tests marked `services` also use
Redis and a real Celery worker process (tests/services/conftest.py), while the others keep
running their tasks eagerly. In CI (CI=true) a services test that would be skipped in services
mode fails instead: a broken service must not pass as a skip.

Browser mode (`make test-browser`, MOON_BROWSER=1): the tests marked `@pytest.mark.browser`
(tests/browser/) drive Debian's headless Chromium; anywhere else they are skipped, with the
reason, so that they stay out of `make test`'s time. In browser mode a browser test that would
be skipped (no Chromium) fails in CI instead.
"""

import functools
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

SERVICES_MODE = os.environ.get("MOON_SERVICES", "") == "1"
BROWSER_MODE = os.environ.get("MOON_BROWSER", "") == "1"
IN_CI = os.environ.get("CI", "").lower() == "true"
EMBEDDED_SKIP_REASON = (
    "needs PostgreSQL, Redis and a Celery worker: run `make test-services` (MOON_SERVICES=1)"
)
BROWSER_SKIP_REASON = (
    "drives a real browser (Debian's chromium and chromium-driver): run `make test-browser` "
    "(MOON_BROWSER=1)"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_services = pytest.mark.skip(reason=EMBEDDED_SKIP_REASON)
    skip_browser = pytest.mark.skip(reason=BROWSER_SKIP_REASON)
    for item in items:
        if item.get_closest_marker("services") and not SERVICES_MODE:
            item.add_marker(skip_services)
        if item.get_closest_marker("browser") and not BROWSER_MODE:
            item.add_marker(skip_browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    for marker, mode in (("services", SERVICES_MODE), ("browser", BROWSER_MODE)):
        if mode and IN_CI and report.skipped and item.get_closest_marker(marker):
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
            report.outcome = "failed"
            report.longrepr = f"a {marker} test may not be skipped in CI {marker} mode: {reason}"
    return report


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """With two database roles (services mode: DATABASE_OWNER_URL), the test session connects
    as the owner, as `manage.py migrate` does: it creates the test database, migrates it (which
    grants the application's role its privileges) and empties its tables between tests. The
    processes it starts (tests/services/conftest.py) connect as the application's role."""
    from django.conf import settings
    from django.db import connections

    if settings.DATABASE_OWNER is not None:
        connections["default"].close()
        connections["default"].settings_dict.update(settings.DATABASE_OWNER)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The file cache of this run (the embedded mode's), so that no counter of an earlier run
    counts."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def test_settings(settings: Any, cache_dir: Path) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    if settings.CACHES["default"]["BACKEND"].endswith("FileBasedCache"):
        settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": str(cache_dir)}}
    # No throttling in tests but the ones that turn it on (tests/api/test_operations.py).
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "admin_login": None},
    }


# A copy of the event kinds' codes outside Django's tables, which a flush does not empty.
KEPT_KINDS = "test_kept_event_kinds"


@pytest.fixture(scope="session", autouse=True)
def kind_codes_kept_across_flushes(request: pytest.FixtureRequest) -> Iterator[None]:
    """On PostgreSQL, the codes of event kinds outlive the flush that ends each transactional
    test, as they outlive everything in production (eventstore/kinds.py): the web processes and
    workers the services tests start keep the codes they met for the whole session, and a code
    the flush took away would be stored again by them, meaning nothing. Each code inserted is
    copied aside by a trigger and put back after each flush (Django's flush ends with
    post_migrate)."""
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        yield
        return
    from django.db import connection
    from django.db.models.signals import post_migrate

    request.getfixturevalue("django_db_setup")
    with request.getfixturevalue("django_db_blocker").unblock(), connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {KEPT_KINDS} (LIKE eventstore_eventkind INCLUDING INDEXES)"
        )
        cursor.execute(f"GRANT ALL ON {KEPT_KINDS} TO PUBLIC")
        cursor.execute(
            f"CREATE OR REPLACE FUNCTION {KEPT_KINDS}_copy() RETURNS trigger AS $$ BEGIN "
            f"INSERT INTO {KEPT_KINDS} VALUES (NEW.*) ON CONFLICT DO NOTHING; RETURN NEW; END $$ "
            "LANGUAGE plpgsql"
        )
        cursor.execute(f"DROP TRIGGER IF EXISTS {KEPT_KINDS}_copy ON eventstore_eventkind")
        cursor.execute(
            f"CREATE TRIGGER {KEPT_KINDS}_copy AFTER INSERT ON eventstore_eventkind "
            f"FOR EACH ROW EXECUTE FUNCTION {KEPT_KINDS}_copy()"
        )
        cursor.execute(f"INSERT INTO {KEPT_KINDS} SELECT * FROM eventstore_eventkind ON CONFLICT DO NOTHING")
    post_migrate.connect(_kind_codes_put_back, dispatch_uid="tests.kind_codes_put_back")
    yield
    post_migrate.disconnect(dispatch_uid="tests.kind_codes_put_back")


def _kind_codes_put_back(**_: Any) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO eventstore_eventkind SELECT * FROM {KEPT_KINDS} ON CONFLICT DO NOTHING"
        )


@pytest.fixture(autouse=True)
def kind_codes_forgotten() -> Iterator[None]:
    """Each test starts and ends knowing no event kind's code: a test's transaction rolls back
    the codes it assigned, even those its captured on-commit callbacks kept
    (eventstore/kinds.py)."""
    from eventstore import kinds

    kinds.forget()
    yield
    kinds.forget()


@pytest.fixture(autouse=True)
def celery_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    """Eager tasks, except for services tests in services mode, whose tasks go to the worker."""
    from moon.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = not (
        SERVICES_MODE and request.node.get_closest_marker("services") is not None
    )
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def emptied_log(transactional_db: None) -> Iterator[None]:
    """A transactional test whose events are deleted when it ends, so that the tables can be
    emptied (the database refuses to delete events otherwise)."""
    yield
    from tests.append_only import empty_the_log

    empty_the_log()


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def make_player(db: None) -> Callable[[str], APIClient]:
    """Register a user over the API and return a client that sends their token."""

    def make(username: str) -> APIClient:
        client = APIClient()
        response = client.post(
            "/api/v1/auth/register",
            {"username": username, "password": "secret-pw"},
            format="json",
        )
        assert response.status_code == 201, response.content
        client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
        client.username = username  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def alice(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("alice")


@pytest.fixture
def bob(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("bob")


@pytest.fixture
def carol(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("carol")


@pytest.fixture
def dave(make_player: Callable[[str], APIClient]) -> APIClient:
    return make_player("dave")


@pytest.fixture
def post(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """POST JSON and run the on-commit callbacks (the scoring task) as a real commit would."""

    def send(client: APIClient, path: str, data: Any = None, **extra: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(path, data, format="json", **extra)

    return send


@pytest.fixture
def playing_game(alice: APIClient, bob: APIClient, carol: APIClient, post: Any) -> int:
    """A started 3-player Adventure 1 game: alice in seat 0, bob 1, carol 2."""
    game = post(alice, "/api/v1/games", {"adventure": 1, "max_players": 3}).json()
    for client in (bob, carol):
        assert post(client, f"/api/v1/games/{game['id']}/join", {"invite": game["invite"]}).status_code == 200
    response = post(alice, f"/api/v1/games/{game['id']}/start")
    assert response.status_code == 200, response.content
    return int(game["id"])


# What a Python representation looks like in a sentence: a quoted name ('x'), a list or dict
# display, None/True/False, an object's default repr, DRF's ErrorDetail.
PYTHON_REPR = re.compile(
    r"(?<![\w'])'[^'\n]*'(?![\w])|\[\s*'|\{\s*'|\bNone\b|\bTrue\b|\bFalse\b|object at 0x|ErrorDetail\("
)


def error_problem(body: Any) -> str | None:
    """Why an error answer's body breaks the API's promise, or None: JSON `{code, detail}` with
    a declared code and a detail written for people, no Python in it."""
    from api.errors import ERROR_CODES

    if not isinstance(body, dict) or not {"code", "detail"} <= body.keys():
        return f"not {{code, detail}}: {body!r}"
    if body["code"] not in ERROR_CODES:
        return f"code {body['code']!r} is not in ERROR_CODES"
    if not isinstance(body["detail"], str):
        return f"detail is not a sentence: {body['detail']!r}"
    # a value quoted as JSON (the client's own, e.g. an unknown field's name) may hold anything
    if PYTHON_REPR.search(re.sub(r'"(?:[^"\\]|\\.)*"', '""', body["detail"])):
        return f"detail shows Python: {body['detail']!r}"
    return None


@functools.cache
def declared_statuses() -> list[tuple[re.Pattern[str], str, str, frozenset[int]]]:
    """Each operation of the served schema: its path as a pattern, its method, its operationId
    and the statuses its `responses` declare."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = [
        (
            re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(path)) + "$"),
            method.upper(),
            operation["operationId"],
            frozenset(int(code) for code in operation["responses"]),
        )
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    ]
    # the most literal path first: `/sheets/{sheet}.svg` before `/sheets/{sheet}`, which matches it too
    return sorted(found, key=lambda entry: -len(re.sub(r"\[\^/\]\+", "", entry[0].pattern)))


def operation_of(method: str, path: str) -> tuple[str, frozenset[int]] | None:
    """The operation a request reaches (its operationId and declared statuses), or None for an
    address or method with no operation."""
    for pattern, operation_method, operation_id, statuses in declared_statuses():
        if operation_method == method and pattern.match(path):
            return operation_id, statuses
    return None


def status_problem(method: str, path: str, status: int) -> str | None:
    """Why an answer's status breaks the schema, or None: an operation answers only the
    statuses it declares (an address or method with no operation is not checked here, nor a
    500, a bug whatever the operation, nor the deployment's redirect to HTTPS)."""
    operation = operation_of(method, path)
    if operation is None or status == 500 or 300 <= status < 400:
        return None
    operation_id, statuses = operation
    return None if status in statuses else f"{status} is not declared by {operation_id} ({method} {path})"


# (operationId, status) -> the first test whose request got it: what the suite provokes, over
# APIClient (tests/api/test_declared_statuses.py provokes every declared pair on its own).
PROVOKED: dict[tuple[str, int], str] = {}
PROVOKED_REPORT = Path(__file__).resolve().parent.parent / "var" / "provoked-statuses.json"
DESELECTED = pytest.StashKey[int]()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """After a whole run of the suite (every test of `testpaths`, none deselected, all passed),
    the statuses it provoked per operation go to var/provoked-statuses.json; a part of the
    suite would report a part."""
    config = session.config
    deselected = config.stash.get(DESELECTED, 0)
    whole = config.args_source is pytest.Config.ArgsSource.TESTPATHS and not deselected
    if not whole or exitstatus != 0 or session.shouldstop or session.shouldfail:
        return
    report: dict[str, dict[str, str]] = {}
    for (operation_id, status), test in sorted(PROVOKED.items()):
        report.setdefault(operation_id, {})[str(status)] = test
    PROVOKED_REPORT.parent.mkdir(exist_ok=True)
    PROVOKED_REPORT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        config = items[0].config
        config.stash[DESELECTED] = config.stash.get(DESELECTED, 0) + len(items)


@pytest.fixture(autouse=True)
def errors_are_for_people(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[None]:
    """Every error answer a test provokes under /api/ is checked (`error_problem`) when the test
    ends: the suite's refusals, malformed requests and hostile inputs are all scanned, and each
    answer's status must be one its operation declares in the schema (`status_problem`); each
    (operation, status) answered is noted in ``PROVOKED``."""
    problems: list[str] = []
    send = APIClient.request

    def checked(self: APIClient, **kwargs: Any) -> Any:
        response = send(self, **kwargs)
        path = str(kwargs.get("PATH_INFO", ""))
        if path.startswith("/api/v1/"):
            method = str(kwargs.get("REQUEST_METHOD"))
            wrong = status_problem(method, path, response.status_code)
            if wrong is not None:
                problems.append(wrong)
            operation = operation_of(method, path)
            if operation is not None:
                PROVOKED.setdefault((operation[0], response.status_code), request.node.nodeid)
        if path.startswith("/api/") and response.status_code >= 400 and not response.streaming:
            try:
                body = json.loads(response.content)
            except ValueError:
                body = response.content[:200]
            problem = error_problem(body)
            if problem is not None:
                problems.append(f"{kwargs.get('REQUEST_METHOD')} {path} {response.status_code}: {problem}")
        return response

    monkeypatch.setattr(APIClient, "request", checked)
    yield
    assert not problems, "\n".join(problems)
