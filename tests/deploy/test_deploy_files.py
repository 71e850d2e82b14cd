"""The deployment files agree with the project: compose file, Dockerfile, gunicorn settings."""

import os
import runpy
import secrets
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def test_the_compose_file_describes_the_whole_topology() -> None:
    compose = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) >= {"db", "redis", "migrate", "web", "worker"}
    for name in ("migrate", "web", "worker"):
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:")
        assert env["DEBUG"] == "false"
        assert "SECRET_KEY" in env
    assert services["worker"]["command"][:4] == ["celery", "-A", "moon", "worker"]
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert "/api/v1/health" in " ".join(services["web"]["healthcheck"]["test"])


def test_the_dockerfile_installs_the_production_extra() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "'.[production]'" in dockerfile
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    assert any(req.startswith("gunicorn") for req in extras["production"])
    packages = [name.rstrip("*") for name in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    for copied in (*packages, "manage.py", "deploy/gunicorn.conf.py"):
        assert f"COPY {copied}" in dockerfile


def test_the_gunicorn_settings_load_and_log_json() -> None:
    from gunicorn.config import Config

    values = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    config = Config()
    for name, value in values.items():
        if name in config.settings:
            config.set(name, value)
    assert config.bind == ["0.0.0.0:8000"]
    assert config.logconfig_dict["formatters"]["json"]["()"] == "moon.logs.JsonFormatter"


def _check_deploy(**env: str) -> subprocess.CompletedProcess[str]:
    """`manage.py check --deploy` as production runs it (DEBUG off, a strong key, a host name),
    warnings counted as failures, with ``env`` on top."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "TLS", "NUM_PROXIES"}}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **clean,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "api.example.org",
            **env,
        },
        capture_output=True,
        text=True,
    )


def test_production_settings_pass_check_deploy_once_tls_is_configured() -> None:
    plain = _check_deploy()
    assert plain.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in plain.stderr
    behind_tls = _check_deploy(TLS="true", NUM_PROXIES="1")
    assert behind_tls.returncode == 0, behind_tls.stderr
    assert "no issues" in behind_tls.stdout
