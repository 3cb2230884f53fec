"""Sumrak settings: one file, configured by environment variables.

Embedded default (no services): SQLite and Celery's filesystem broker under
``var/``. ``DATABASE_URL`` switches to PostgreSQL, ``REDIS_URL`` to Redis (Celery
broker and cache). DEBUG is off unless ``DEBUG=true`` (start.sh's local mode,
pytest); off, it needs a ``SECRET_KEY`` of 50 characters or more and
``ALLOWED_HOSTS``, and passes ``manage.py check --deploy``.
"""

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import EnvError, env_base_url, env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("SUMRAK_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Off unless asked for: a forgotten variable must not serve tracebacks and settings
# to a field of phones. ./scripts/start.sh's local mode sets DEBUG=true, and so
# does pytest (config/settings_test.py).
DEBUG = env_bool("DEBUG", False)
# The demo's public password (sumrak-demo) only where DEBUG was turned on, start.sh's local mode:
# a plain manage.py load_demo gives the demo logins random passwords (a setting of its own,
# because Django's test runner turns settings.DEBUG off while the process still is the local kind).
SUMRAK_PUBLIC_DEMO_PASSWORD = DEBUG
# The LAN mode serves the game to tablets on the local network: plain HTTP unless
# start.sh --lan --tls CERT KEY made gunicorn serve HTTPS itself (SUMRAK_TLS).
LAN_MODE = env_bool("SUMRAK_LAN", False)
LAN_TLS = LAN_MODE and env_bool("SUMRAK_TLS", False)

MIN_SECRET_KEY_LENGTH = 50
# The key start.sh --lan keeps (launcher.secret_key): read when the environment has none, so
# every manage.py command (createsuperuser, changepassword, load_demo...) runs beside it as is.
KEPT_SECRET_KEY = VAR_DIR / "secret_key"
if DEBUG:
    SECRET_KEY = env_str("SECRET_KEY", "django-insecure-sumrak-development-only-key-0123456789")
else:
    SECRET_KEY = env_str("SECRET_KEY", "")
    if not SECRET_KEY and KEPT_SECRET_KEY.is_file():
        SECRET_KEY = KEPT_SECRET_KEY.read_text(encoding="utf-8").strip()
    if len(SECRET_KEY) < MIN_SECRET_KEY_LENGTH:
        # Sessions and secret links are signed with it: a short or missing key stops the start.
        raise EnvError(
            f"SECRET_KEY is {'missing' if not SECRET_KEY else 'too short'}: with DEBUG off it must be at least "
            f"{MIN_SECRET_KEY_LENGTH} random characters. Run ./scripts/start.sh --lan once (it keeps one in "
            f"{KEPT_SECRET_KEY}, which every manage.py command then reads), or make that file yourself: "
            f"python3 -c 'import secrets; print(secrets.token_urlsafe(50))' > {KEPT_SECRET_KEY}"
        )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    # Without it every request would be a bare 400; say so at boot instead.
    raise EnvError(
        "ALLOWED_HOSTS is required when DEBUG is false (comma-separated host names): the names this server "
        "answers to, e.g. ALLOWED_HOSTS=sumrak.example.org (./scripts/start.sh --lan sets them for the game site)."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A refused form (cookies cleared, a page kept open too long): the app's page, in the user's language.
CSRF_FAILURE_VIEW = "config.errors.csrf_failure"
# The address printed QR codes point to (events/public_url.py): phones on the game site's
# network open it, so it is never the host the organizer's browser happened to use.
# Empty: this machine's LAN address on port 8000. ``start.sh`` sets it to what it prints.
SUMRAK_PUBLIC_URL = env_base_url("SUMRAK_PUBLIC_URL")

INSTALLED_APPS = [
    "config.apps.SumrakAdminConfig",  # django.contrib.admin for superusers only (D4, config/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "import_export",
    "axes",  # login throttling (issue 13); after contrib.auth
    "simple_history",  # organizers' edits (issue 22, docs/history.md)
    "events",
    "cards",
    "duels",
    "lab",
    "config.apps.ProjectConfig",  # project-wide commands (load_demo): above every app
]

MIDDLEWARE = [
    # First: a database that is away or a full disk is a 503 page, not a 500 (config/unavailable.py).
    "config.unavailable.ServiceUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # An unchanged spectator's or player's live poll answered here, its 304 exactly the full path's.
    "duels.web.shortcut.UnchangedPollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Who made an edit, for the history of organizers' edits (a context variable per request).
    "simple_history.middleware.HistoryRequestMiddleware",
    # Refuses an oversized body from its declared length, before CSRF or a form reads it.
    "config.limits.RequestSizeLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- database -----------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", "")
# IMMEDIATE: a writer takes the lock at BEGIN, so two referees' commands
# serialise instead of failing half-way ("database is locked": select_for_update
# is a no-op on SQLite); WAL lets the live pages read meanwhile.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if DATABASE_URL:
    # Health checks on by default: without them a connection PostgreSQL dropped (a restart during
    # the game) fails the one request that finds it with a 500 - a referee's tap in the middle of
    # a fight. The check costs a "SELECT 1" round trip at the start of a request that touches the
    # database (~0.1 ms of a player's poll, bench/cost.py); SUMRAK_DB_HEALTH_CHECKS=false saves it.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=60, conn_health_checks=env_bool("SUMRAK_DB_HEALTH_CHECKS", True)
        )
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # libpq waits for ever by default: a database host that stops answering (a cut network, not a
        # refused port) would hold every request, instead of the 503 page that retries (issue 26).
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env_int("SUMRAK_DB_CONNECT_TIMEOUT", 3, minimum=1)
        )
        if env_bool("SUMRAK_DB_PREPARED", True):
            # Parameters bound by the server, and a statement a connection sends a fifth time prepared
            # (psycopg's threshold): PostgreSQL then skips parsing and planning it. A step sends the
            # same seven statements every time; the server's CPU per step fell by a third, a referee's
            # poll's by half (bench/cost.py's database column, docs/performance.md). Off
            # (SUMRAK_DB_PREPARED=false) behind a pooler in transaction mode that cannot keep
            # prepared statements (PgBouncer before 1.21, or without max_prepared_statements).
            DATABASES["default"]["OPTIONS"].setdefault("server_side_binding", True)
            DATABASES["default"]["OPTIONS"].setdefault("prepare_threshold", 5)
else:
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(VAR_DIR / "sumrak.sqlite3")}}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The same for an SQLite file named by DATABASE_URL: without them, concurrent commands were 500s.
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- cache and Celery -------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    # Both branches set the same name; the other one adds OPTIONS, hence the value type.
    CACHES: dict[str, dict[str, object]] = {
        "default": {
            # A Redis that is away is a miss, not a 500 (config/forgiving_cache.py); the timeouts bound how
            # long an unreachable one (a cut network, not a refused port) holds a request before that.
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0},
        }
    }
    # Sessions read from Redis, written through to the database: a poll costs
    # no session query. Only with a shared cache: with a per-process one a
    # logout in one worker would not reach the others' copies.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    CELERY_BROKER_URL = REDIS_URL
    # A player's poll takes its link's answer from Redis while no write to it is under way or done since
    # (events/link_cache.py, issue 24); false: every poll checks the link in the database.
    SUMRAK_LINK_CACHE = env_bool("SUMRAK_LINK_CACHE", True)
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {"visibility_timeout": 3600}
    # kombu's Redis transport, with one client per channel instead of one per message (config/broker.py).
    CELERY_BROKER_TRANSPORT = "config.broker:RedisTransport"
else:
    # One cache for every process on the machine (gunicorn's workers, the
    # Celery worker): a poll may answer 304 from it (duels.services.live), so a
    # change made in one process must reach the others - a per-process
    # local-memory cache would let another worker answer from an old version.
    CACHES = {
        "default": {
            # Django's file cache, a miss instead of a 500 when the disk is full (config/forgiving_cache.py).
            "BACKEND": "config.forgiving_cache.FileCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
    }
    _broker_dir = VAR_DIR / "celery-broker"
    _broker_dir.mkdir(parents=True, exist_ok=True)
    # "localhost" only silences kombu's "no hostname" warning; the folders below are the broker.
    CELERY_BROKER_URL = "filesystem://localhost//"
    # kombu's filesystem transport, writing each message atomically (config/broker.py).
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        # Without it kombu writes its exchange tables to ./control in the current folder.
        "control_folder": str(VAR_DIR / "celery-control"),
        "store_processed": False,
    }

CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Soft shutdown (Celery >= 5.5) acts on a *cold* stop (SIGQUIT, or SIGTERM when
# the worker's environment has REMAP_SIGTERM=SIGQUIT - billiard reads it at
# import, so it cannot be set here): running tasks get this long to finish, then
# held ETA tasks go back to the broker, so a restart loses no timer. "On idle"
# waits even with nothing running, since held ETA tasks are not running ones.
# With Redis a warm stop (SIGTERM) hands them back too when the channel closes
# (tests/timers/test_celery_worker.py), and after a SIGKILL the sweeper and
# every page load apply the overdue deadlines.
CELERY_WORKER_SOFT_SHUTDOWN_TIMEOUT = 10.0
CELERY_WORKER_ENABLE_SOFT_SHUTDOWN_ON_IDLE = True
# Explicit, as Celery 6 will require: keep retrying a broker that is not up yet.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Accounts allowed to create events besides those given the permission (events/creators.py).
SUMRAK_EVENT_CREATORS = env_list("SUMRAK_EVENT_CREATORS", [])

SUMRAK_SWEEP_SECONDS = env_int("SUMRAK_SWEEP_SECONDS", 5, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "sweep-overdue-deadlines": {
        "task": "duels.tasks.sweep_deadlines",
        "schedule": float(SUMRAK_SWEEP_SECONDS),
    },
}

# --- i18n -----------------------------------------------------------------------
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/Moscow")

# --- static ---------------------------------------------------------------------
STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(VAR_DIR / "staticfiles")))
# WhiteNoise warns on every start while the folder is missing (before the first collectstatic).
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- password guessing (django-axes) ---------------------------------------------
# Every login (the site's and the admin's) is counted per account *and* address, and
# per address: either one reaching the limit locks further tries from that address
# for the cool-off time. A user name is never locked from everywhere (issue 27): a
# stranger's ten guesses at a referee's name lock the stranger's address out of it,
# not the referee's tablet. Guesses spread over many addresses are slowed by the
# password rules below instead (docs/security.md). On the game site the addresses
# are the tablets' and phones' own; behind a proxy (nginx),
# set SUMRAK_PROXY_COUNT=1 so the address is read from X-Forwarded-For.
# Unlock at once: manage.py axes_reset_username NAME (or axes_reset_ip ADDRESS).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend reading the session's user in one prepared statement (issue 24); new sign-ins name
    # it. ModelBackend stays listed: a session signed in before names it and must keep working.
    "helpers.auth.SessionUserBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("SUMRAK_LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("SUMRAK_LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "config.login_throttle.attempted_username"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_HTTP_RESPONSE_CODE = 429
AXES_VERBOSE = False
_PROXY_COUNT = env_int("SUMRAK_PROXY_COUNT", 0, minimum=0)
if _PROXY_COUNT:
    AXES_IPWARE_PROXY_COUNT = _PROXY_COUNT
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
else:
    # No proxy: a client-sent X-Forwarded-For must not choose the address that is counted.
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# --- security -------------------------------------------------------------------
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
    # Not covered by default-src: an injected <base> or <object> would otherwise be allowed.
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
# No script reads the CSRF cookie: htmx sends the token from <body hx-headers> (base.html).
CSRF_COOKIE_HTTPONLY = True
if not DEBUG and (not LAN_MODE or LAN_TLS):
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
if not DEBUG and not LAN_MODE:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000, minimum=0)
elif LAN_TLS and not DEBUG:
    # gunicorn speaks HTTPS itself on the one port: there is no plain-HTTP listener to
    # redirect from. HSTS only with TLS, and short by default: a LAN name whose
    # certificate is later dropped must not lock the tablets out for a year.
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 86400, minimum=0)
    SILENCED_SYSTEM_CHECKS = ["security.W008"]
elif not DEBUG:
    # Plain-HTTP LAN mode (no certificate at the game site; docs/deployment.md says
    # what that risks): the HTTPS-only warnings of ``check --deploy`` do not apply.
    SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008", "security.W012", "security.W016"]

# --- request size (issue 13: spreadsheet bombs) --------------------------------------
# Any body over this is refused unread (config/limits.py); an import file may be 2 MB
# (helpers/tables.py), the rest is room for the form around it. nginx's
# client_max_body_size in docs/deployment.md says the same.
SUMRAK_MAX_REQUEST_BYTES = env_int("SUMRAK_MAX_REQUEST_BYTES", 3 * 1024 * 1024, minimum=64 * 1024)
# Form fields other than files, in memory (Django's default 2.5 MB is more than any page posts).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
# An upload up to this stays in memory; an import file (at most 2 MB) always does.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2621440
# No page takes more than one file.
DATA_UPLOAD_MAX_NUMBER_FILES = 5

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Secret character links are masked in every line (config/log_filters.py).
    "filters": {"mask_secret_links": {"()": "config.log_filters.MaskSecretLinks"}},
    "formatters": {
        # Django's own runserver format, kept for its access lines.
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["mask_secret_links"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["mask_secret_links"],
        },
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        # Django's default config gives "django" an unmasked console handler of its own
        # (in DEBUG): drop it, so its lines reach only the masked root handler.
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}
