"""Structured logs: one JSON object per line, with the game id and event seq where there is one."""

import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from games import services
from moon.logs import JsonFormatter, TextFormatter, lean_records
from tests import environments


def _record(**extra: object) -> logging.LogRecord:
    record = logging.LogRecord("games.services", logging.INFO, __file__, 1, "hello %s", ("you",), None)
    for name, value in extra.items():
        setattr(record, name, value)
    return record


def test_a_line_is_one_json_object_with_the_basic_fields() -> None:
    line = JsonFormatter().format(_record())
    assert "\n" not in line
    data = json.loads(line)
    assert data["level"] == "INFO"
    assert data["logger"] == "games.services"
    assert data["message"] == "hello you"
    assert data["timestamp"].endswith("+00:00")
    assert "game_id" not in data and "seq" not in data


def test_game_id_and_seq_are_carried_when_present() -> None:
    data = json.loads(JsonFormatter().format(_record(game_id=7, seq=42, unrelated="x")))
    assert (data["game_id"], data["seq"]) == (7, 42)
    assert "unrelated" not in data


def test_an_exception_stays_on_one_line() -> None:
    try:
        raise ValueError("boom\nsecond line")
    except ValueError:
        record = _record()
        record.exc_info = sys.exc_info()
    line = JsonFormatter().format(record)
    assert "\n" not in line
    assert "ValueError: boom" in json.loads(line)["exception"]


@pytest.mark.django_db
def test_appending_events_logs_the_game_and_the_last_seq(caplog: pytest.LogCaptureFixture) -> None:
    alice = User.objects.create_user("alice", password="secret-pw")
    game = services.create_game(by=alice, adventure=1, max_players=1)
    with caplog.at_level(logging.INFO, logger="games.services"):
        result = services.start_game(game=game, by=alice)
    appended = [r for r in caplog.records if r.getMessage().startswith("events appended")]
    assert len(appended) == 1
    record = appended[0]
    assert record.game_id == game.pk  # type: ignore[attr-defined]
    assert record.seq == result.events[-1].seq  # type: ignore[attr-defined]
    assert json.loads(JsonFormatter().format(record))["seq"] == result.events[-1].seq


# production settings need a history signing key (any 32 bytes, base64)
KEY = "A" * 43 + "="


def _console_format(**env: str) -> str:
    """The console handler's formatter under the settings an environment gives."""
    clean = environments.embedded(leave_out=frozenset({"LOG_FORMAT"}))
    code = "from django.conf import settings; print(settings.LOGGING['handlers']['console']['formatter'])"
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={**clean, "DJANGO_SETTINGS_MODULE": "moon.settings", "HISTORY_SIGNING_KEY": KEY, **env},
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()


def test_settings_log_text_in_the_embedded_mode_and_json_in_production() -> None:
    from django.conf import settings

    config: dict[str, Any] = settings.LOGGING
    assert config["formatters"]["json"]["()"] == "moon.logs.JsonFormatter"
    assert config["formatters"]["text"]["()"] == "moon.logs.TextFormatter"
    assert settings.CELERY_WORKER_HIJACK_ROOT_LOGGER is False
    production = "postgres://moon:pw@127.0.0.1:5432/moon"
    assert _console_format() == "text"
    assert _console_format(DATABASE_URL=production) == "json"
    assert _console_format(DATABASE_URL=production, LOG_FORMAT="text") == "text"
    assert _console_format(LOG_FORMAT="json") == "json"


def test_a_text_line_reads_as_a_sentence_with_its_context() -> None:
    line = TextFormatter().format(_record(game_id=7, seq=42))
    assert line.endswith(" INFO    games.services: hello you [game_id=7 seq=42]")


def test_lean_records_change_no_line(monkeypatch: pytest.MonkeyPatch) -> None:
    for switch in ("_srcfile", "logThreads", "logProcesses", "logMultiprocessing"):
        monkeypatch.setattr(logging, switch, getattr(logging, switch))  # put back afterwards
    lines: list[tuple[dict[str, Any], str]] = []

    class Kept(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            text = TextFormatter().format(record).split(" ", 1)[1]  # past the time
            lines.append(({**json.loads(JsonFormatter().format(record)), "timestamp": ""}, text))

    logger = logging.getLogger("tests.lean")
    monkeypatch.setattr(logger, "handlers", [Kept()])
    monkeypatch.setattr(logger, "level", logging.INFO)
    monkeypatch.setattr(logger, "propagate", False)

    def log() -> None:
        logger.info("events appended: %s", "number_written", extra={"game_id": 3, "seq": 9, "count": 1})

    log()
    lean_records()
    log()
    assert lines[0] == lines[1]
    assert lines[0][0]["game_id"] == 3 and "game_id=3" in lines[0][1]
