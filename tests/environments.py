"""The environment of a process a test starts in the embedded mode (SQLite, eager tasks), also
when the suite itself runs in the services mode (`make test-services` exports PostgreSQL, Redis
and the history signing key): those variables would make the process a production one."""

import os

# What the services mode (deploy/services.sh, tests/services/conftest.py) sets.
SERVICES_VARIABLES = frozenset(
    {
        "DATABASE_URL",
        "DATABASE_OWNER_URL",
        "CELERY_BROKER_URL",
        "REDIS_URL",
        "HISTORY_SIGNING_KEY",
        "MOON_SERVICES",
        "DJANGO_SETTINGS_MODULE",
    }
)


def embedded(*, leave_out: frozenset[str] = frozenset(), **variables: str) -> dict[str, str]:
    """This process's environment without the services mode's variables (and ``leave_out``),
    with ``variables`` added."""
    dropped = SERVICES_VARIABLES | leave_out
    return {**{key: value for key, value in os.environ.items() if key not in dropped}, **variables}
