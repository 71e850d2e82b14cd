"""Settings for moon, read from the environment only.

Unset, everything falls back to the embedded mode: SQLite under var/, eager Celery tasks, DEBUG on
(`make run` turns DEBUG off unless asked: see the Makefile). The production topology (PostgreSQL,
Redis, gunicorn, Celery workers) sets DATABASE_URL, CELERY_BROKER_URL, REDIS_URL, SECRET_KEY,
DEBUG=false, ALLOWED_HOSTS and, behind TLS, TLS=true: see README.md.
"""

import os
from pathlib import Path

import dj_database_url
from corsheaders.defaults import default_headers
from django.core.exceptions import ImproperlyConfigured

from moon.logs import log_format

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off: export SECRET_KEY to a long random string "
            "(e.g. python3 -c 'import secrets; print(secrets.token_urlsafe(50))'), or set "
            "DEBUG=true for local development."
        )
    SECRET_KEY = "dev-only-insecure-secret-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])

# How many proxies stand in front of the web processes. Unset (0), X-Forwarded-For and
# X-Forwarded-Proto are not trusted: a client could otherwise name any address and slip past the
# throttles, or pass a plain connection off as HTTPS.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES") or 0)

# TLS=true: clients reach the API over HTTPS only (TLS ends at gunicorn or at the proxies), so
# plain HTTP is redirected, cookies (the admin's session and CSRF) are sent over HTTPS only and
# browsers are told to keep to HTTPS (HSTS). `manage.py check --deploy` then passes. Each setting
# can be set on its own too; the health check stays reachable over HTTP for load balancers.
TLS = env_bool("TLS", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", TLS)
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", TLS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", TLS)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS") or (365 * 24 * 3600 if TLS else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", TLS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", TLS)
if TLS and NUM_PROXIES:
    # the proxy that terminates TLS says so; only then is the header believed
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# What committed events set off: one table (eventstore/followups.py reads it).
FOLLOW_UPS = "campaigns.followups.FOLLOW_UPS"
# The outbox of follow-ups (eventstore/followups.py): how often each worker's sweeper looks for
# follow-ups not done (seconds; 0: no sweeper), and how long after it was sent a follow-up not
# done is sent again (doubled at each try, up to the maximum).
FOLLOWUP_SWEEP_SECONDS = float(os.environ.get("FOLLOWUP_SWEEP_SECONDS") or 5)
FOLLOWUP_RESEND_SECONDS = float(os.environ.get("FOLLOWUP_RESEND_SECONDS") or 60)
FOLLOWUP_RESEND_MAX_SECONDS = float(os.environ.get("FOLLOWUP_RESEND_MAX_SECONDS") or 900)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "corsheaders",
    "accounts",
    "eventstore",
    "games",
    "campaigns",
    "api",
    "play",
]

# Under ASGI, Django's own middlewares run on the event loop (moon/inline.py, installed by
# moon/asgi.py), not each in a thread hop.
MIDDLEWARE = [
    # first: a request's objects freed once its answer is closed (moon/request_cycles.py)
    "moon.request_cycles.let_go_of_requests",
    "django.middleware.security.SecurityMiddleware",
    "moon.static.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Accept-Language picks the language of every human text an answer carries (English when
    # nothing matches) and sets Content-Language; codes, ids and event data never change.
    "django.middleware.locale.LocaleMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "api.throttling.AdminLoginThrottleMiddleware",
    "moon.messages.MessagesOutsideTheAPI",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last, closest to the views: how many sync views run at once under ASGI (moon/slots.py)
    "moon.slots.SyncViewSlots",
]

ROOT_URLCONF = "moon.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "moon.wsgi.application"
ASGI_APPLICATION = "moon.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'var' / 'moon.sqlite3'}",
        # Connections are kept for a minute and checked before reuse: opening one per request
        # cost more CPU than the request itself.
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
# The embedded mode (`make run`, `make test`): SQLite (var/moon.sqlite3 unless DATABASE_URL names
# another file), one machine, a person at its terminal.
EMBEDDED = DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
if EMBEDDED:
    # Wait for the write lock instead of failing at once when two requests write together, and
    # take it when a transaction begins, so commands on SQLite queue up in order. In WAL mode the
    # readers (gunicorn's other threads and processes) are not blocked by a write.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# Two database roles (deploy/README.md, "Database roles"): DATABASE_URL is the application's,
# which may only read and insert events; DATABASE_OWNER_URL, given to `manage.py migrate` only,
# is the role that owns the tables: migrate connects as it, then grants the application's role
# what it may do (eventstore/grants.py). Both name the same database.
DATABASE_APP_ROLE = str(DATABASES["default"].get("USER") or "")
DATABASE_OWNER: dict[str, str] | None = None
if os.environ.get("DATABASE_OWNER_URL"):
    _owner = dj_database_url.parse(os.environ["DATABASE_OWNER_URL"])
    _where = ("ENGINE", "HOST", "PORT", "NAME")
    if [_owner.get(key) for key in _where] != [DATABASES["default"].get(key) for key in _where]:
        raise ImproperlyConfigured(
            "DATABASE_OWNER_URL must name the database DATABASE_URL names (same host, port and "
            "name), as the role that owns its tables."
        )
    DATABASE_OWNER = {"USER": str(_owner.get("USER") or ""), "PASSWORD": str(_owner.get("PASSWORD") or "")}

# The key that signs each finished game's and campaign's history (eventstore/seals.py), kept
# outside the database: base64 of a raw 32-byte Ed25519 private key, or a PEM (PKCS#8). Unset,
# the embedded mode (SQLite) makes one on first use in HISTORY_SIGNING_KEY_FILE; with any other
# database it must be set. HISTORY_VERIFY_KEYS: base64 public keys also trusted when checking
# signatures (this server's earlier keys after a rotation, other servers' for imports).
HISTORY_SIGNING_KEY = os.environ.get("HISTORY_SIGNING_KEY", "")
HISTORY_SIGNING_KEY_FILE = os.environ.get("HISTORY_SIGNING_KEY_FILE") or str(
    BASE_DIR / "var" / "history-signing-key"
)
HISTORY_VERIFY_KEYS = env_list("HISTORY_VERIFY_KEYS", [])
if not HISTORY_SIGNING_KEY and DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    raise ImproperlyConfigured(
        "HISTORY_SIGNING_KEY must be set with a database other than the embedded SQLite: the base64 "
        "of 32 random bytes (python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32))"
        ".decode())'), the same in every process. See deploy/README.md."
    )

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The hot path's plain SQL is prepared on each connection from its second run
    # (moon/prepared.py): planning it cost the database more than running it.
    # DATABASE_PREPARED=false turns that off (behind a pooler that keeps no prepared statement,
    # such as PgBouncer before 1.21).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        1 if env_bool("DATABASE_PREPARED", True) else None
    )

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and not DATABASES["default"].get(
    "CONN_MAX_AGE"
):
    # Under ASGI (moon/asgi.py) no connection is kept by a request's thread: each process pools
    # its PostgreSQL connections instead, DB_POOL_SIZE at most (requests beyond wait their turn).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_SIZE") or 10),
        "timeout": 10,
    }

# The cache holds only what can be lost (API throttling counters, the worker check of /health),
# and is shared by every web process: in Redis with REDIS_URL, else in files under CACHE_DIR
# (the web processes of one machine count requests together).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "moon",
            "TIMEOUT": 300,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.environ.get("CACHE_DIR") or str(BASE_DIR / "var" / "cache"),
            "TIMEOUT": 300,
            # a counter per client address: room for many before the oldest are culled
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }

# Browser front ends on other origins: a comma-separated list such as
# https://play.example.org,http://localhost:5173. Empty: no cross-origin access in production; the
# embedded mode also allows any loopback origin (a front end in development on any port).
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
CORS_ALLOWED_ORIGIN_REGEXES = (
    [r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?$"] if EMBEDDED else []
)
CORS_ALLOW_HEADERS = (*default_headers, "idempotency-key")
CORS_EXPOSE_HEADERS = ["Idempotent-Replayed", "Retry-After"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages the game's editions come in (README, "Languages"); catalogs in locale/.
LANGUAGES = [("en", "English"), ("es", "Español"), ("pt", "Português"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# The web process serves the admin's and the API docs' assets itself (WhiteNoise): the docs work
# offline and no proxy rule is needed. In the embedded mode (DEBUG) they are read where the
# installed apps keep them; otherwise `manage.py collectstatic` gathers them into STATIC_ROOT
# (the Dockerfile does).
WHITENOISE_USE_FINDERS = DEBUG
STATIC_ROOT = None if DEBUG else BASE_DIR / "staticfiles"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.ExpiringTokenAuthentication",
        # The browsable API for a staff member signed in to the admin (CSRF enforced); token
        # first, so that a request without credentials still gets 401 with its challenge.
        "api.authentication.StaffSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
    ],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONBodyParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "api.negotiation.JSONFirstNegotiation",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # Requests per client: anonymous ones by address, signed-in ones by user. An empty value
    # turns that throttle off. Counters live in the cache (shared through REDIS_URL).
    "DEFAULT_THROTTLE_CLASSES": [
        "api.throttling.AnonThrottle",
        "api.throttling.UserThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("THROTTLE_ANON", "60/min") or None,
        "user": os.environ.get("THROTTLE_USER", "600/min") or None,
        # attempts at the admin's login form, per client address (api/throttling.py)
        "admin_login": os.environ.get("THROTTLE_ADMIN_LOGIN", "10/min") or None,
    },
    "NUM_PROXIES": NUM_PROXIES,
}

# How long an API token authenticates after it was issued; 0: forever. Signing in after it
# expired issues a new one; POST /api/v1/auth/logout revokes the one in use.
TOKEN_LIFETIME_DAYS = int(os.environ.get("TOKEN_LIFETIME_DAYS") or 30)
# Each sign-in is a client with its own token; past this many, a user's oldest are revoked.
MAX_CLIENT_TOKENS = int(os.environ.get("MAX_CLIENT_TOKENS") or 20)

# Quotas per account (games/quotas.py); 0 turns one off. A lobby (a game or a campaign not
# started) expires LOBBY_LIFETIME_HOURS after it was opened: no longer listed, joined or started.
QUOTA_OPEN_LOBBIES = int(os.environ.get("QUOTA_OPEN_LOBBIES") or 10)
QUOTA_GAMES_PER_HOUR = int(os.environ.get("QUOTA_GAMES_PER_HOUR") or 30)
QUOTA_BOT_GAMES_PER_HOUR = int(os.environ.get("QUOTA_BOT_GAMES_PER_HOUR") or 10)
QUOTA_UNDOS_PER_TURN = int(os.environ.get("QUOTA_UNDOS_PER_TURN") or 20)
LOBBY_LIFETIME_HOURS = int(os.environ.get("LOBBY_LIFETIME_HOURS") or 24)

# Event streams (GET .../stream): a comment line every STREAM_HEARTBEAT_SECONDS keeps proxies
# from closing an idle stream; besides the commit notifications, a stream looks at its log every
# STREAM_POLL_SECONDS (a notification lost only delays a message by that much). A stream ticket
# (POST .../stream-ticket) opens one stream within STREAM_TICKET_SECONDS. A long-poll
# (GET .../events?wait=, 30 at most) waits LONG_POLL_MAX_SECONDS at most on this server.
STREAM_HEARTBEAT_SECONDS = float(os.environ.get("STREAM_HEARTBEAT_SECONDS") or 15)
STREAM_POLL_SECONDS = float(os.environ.get("STREAM_POLL_SECONDS") or 15)
STREAM_TICKET_SECONDS = int(os.environ.get("STREAM_TICKET_SECONDS") or 60)
LONG_POLL_MAX_SECONDS = int(os.environ.get("LONG_POLL_MAX_SECONDS") or 30)

# Campaign content packs loaded and checked at start-up besides the shipped ones
# (campaigns/packs/): comma-separated paths of pack files (JSON or YAML) or of folders of them.
CAMPAIGN_PACKS = env_list("CAMPAIGN_PACKS", [])

SPECTACULAR_SETTINGS = {
    "TITLE": "moon API",
    "DESCRIPTION": "Play Welcome to the Moon over HTTP. Errors are JSON {code, detail}.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from the installed sidecar package, not a CDN: the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.integer_path_ids",
        "api.contract.add_components",
        "api.schema.operation_ids",
    ],
    # An enum's values are its documentation (each code is a phrase): no list repeating them.
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": ["lobby", "playing", "scoring", "finished"],
        "CampaignStatusEnum": ["lobby", "playing", "between", "finished"],
        "CampaignDecisionKindEnum": ["card", "aim", "chapter", "mission", "wait"],
        "StarReasonEnum": ["rank", "star_goal"],
        "HealthStatusEnum": ["ok", "degraded", "unavailable"],
        "HealthCheckStatusEnum": ["ok", "eager", "down"],
        "FollowUpsCheckStatusEnum": ["ok", "late", "down"],
        "BotKindEnum": ["random", "greedy"],
        "ErrorCodeEnum": "api.errors.ERROR_CODES",
        "DecisionKindEnum": ["choose", "effect", "give", "confirm", "mission", "wait"],
    },
}

# Celery: with no broker, tasks run in-process, synchronously, and their errors propagate.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The worker logs through LOGGING below (see moon/celery.py), not Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# A worker takes one message at a time per process: a killed worker strands no other message.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# No task runs longer than this (seconds; a prefork worker kills a task past it). The longest,
# a six-seat game's bot turns or the scoring of a long game, takes a second or two.
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT") or 60)
# With acks_late, a task whose worker died unacknowledged goes back to the queue once it has been
# unacknowledged this long (Redis broker): above the time limit, so that a task still running is
# never delivered twice, and no longer, so that a killed worker's task is soon run again.
CELERY_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT") or 2 * CELERY_TASK_TIME_LIMIT)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # Look for abandoned messages often enough for the timeout to mean what it says.
    "unacked_restore_interval": max(1, min(10, CELERY_VISIBILITY_TIMEOUT // 4)),
    "unacked_restore_throttle": 1 if CELERY_VISIBILITY_TIMEOUT < 600 else 10,
    "socket_connect_timeout": 5,
}

# One JSON object per line in production, plain lines in the embedded mode (moon/logs.py);
# LOG_FORMAT=text or json chooses.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "moon.logs.JsonFormatter"},
        "text": {"()": "moon.logs.TextFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": log_format(),
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
}
