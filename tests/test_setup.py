"""The set-up promised by SPEC §1 and the README: SQLite pragmas, production settings, the owner account."""

import os
import re
import subprocess
import sys
import threading
from io import StringIO
from pathlib import Path

import pytest
import sqlean
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import OperationalError, connection, transaction
from django.test import Client

from memories.models import MemorySettings

EXPECTED_PRAGMAS = {
    "foreign_keys": 1,
    "journal_mode": "wal",
    "busy_timeout": 5000,
    "synchronous": 1,  # NORMAL
    "secure_delete": 1,
    "wal_autocheckpoint": 10000,
}


def read_pragmas():
    with connection.cursor() as cursor:
        pragmas = {}
        for name in EXPECTED_PRAGMAS:
            cursor.execute(f"PRAGMA {name}")
            pragmas[name] = cursor.fetchone()[0]
    return pragmas


def run(argv, env=None, cwd=settings.BASE_DIR):
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def settings_env(**overrides):
    """This environment with the SQLite default and async safety restored, plus overrides."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env["DJANGO_SETTINGS_MODULE"] = "bestie_site.settings"
    env.update(overrides)
    return env


@pytest.mark.sqlite
@pytest.mark.django_db
def test_sqlite_test_database_is_a_real_file():
    path = Path(connection.settings_dict["NAME"])
    assert path.is_file()
    assert path.name.startswith("test-")


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_every_sqlite_connection_has_the_pragmas():
    assert read_pragmas() == EXPECTED_PRAGMAS

    # Another thread gets its own connection; it must be set up the same way.
    seen = {}

    def in_another_thread():
        try:
            seen.update(read_pragmas())
        finally:
            connection.close()

    thread = threading.Thread(target=in_another_thread)
    thread.start()
    thread.join()
    assert seen == EXPECTED_PRAGMAS


@pytest.mark.sqlite
@pytest.mark.django_db
def test_sqlite_transactions_take_the_write_lock_up_front():
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert connection.transaction_mode == "IMMEDIATE"


class _LockClock:
    """The backend's clock and sleep, made virtual: ``time.monotonic`` reads the virtual time, each
    ``sleep`` advances it, and ``release_at`` (virtual seconds) lets another connection's lock go. The
    tries are then counted, not timed, whatever the machine's load."""

    def __init__(self, holder, release_at=None):
        self.now, self.sleeps, self.holder, self.release_at = 1000.0, [], holder, release_at
        self.started = self.now
        self.released_at = None

    def monotonic(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds
        if self.release_at is not None and self.released_at is None and self.now - self.started >= self.release_at:
            self.holder.execute("COMMIT")
            self.released_at = self.now


def _hold_write_lock():
    """Take the write lock from another connection, as another process would."""
    holder = sqlean.connect(connection.settings_dict["NAME"], isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    return holder


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_a_transaction_takes_the_write_lock_at_the_first_try_after_its_release(monkeypatch):
    from bestie_site.sqlite_backend import base

    connection.ensure_connection()
    holder = _hold_write_lock()
    clock = _LockClock(holder, release_at=0.3)
    monkeypatch.setattr(base, "time", clock)
    with transaction.atomic():
        entered = clock.now
        MemorySettings.load()
    holder.close()
    # A try every 2 ms, and the first one after the release gets in (SQLite's own busy handler would
    # sleep up to 100 ms between tries at this point).
    assert set(clock.sleeps) == {base.LOCK_POLL_SECONDS}
    assert entered == clock.released_at
    assert 0.3 <= entered - clock.started < 0.3 + base.LOCK_POLL_SECONDS
    assert read_pragmas()["busy_timeout"] == 5000


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_a_transaction_gives_up_after_the_busy_timeout(monkeypatch):
    from bestie_site.sqlite_backend import base

    connection.ensure_connection()
    monkeypatch.setitem(settings.SQLITE_PRAGMAS, "busy_timeout", "200")
    holder = _hold_write_lock()
    clock = _LockClock(holder)
    monkeypatch.setattr(base, "time", clock)
    with pytest.raises(OperationalError, match="database is locked"):
        with transaction.atomic():
            MemorySettings.load()
    assert 0.2 <= clock.now - clock.started < 0.2 + base.LOCK_POLL_SECONDS
    assert not connection.in_atomic_block
    holder.execute("COMMIT")
    holder.close()
    with transaction.atomic():  # and the next one works once the lock is free
        MemorySettings.load()


@pytest.mark.sqlite
@pytest.mark.django_db
def test_sqlite_statements_are_converted_to_qmark_style_once():
    from bestie_site.sqlite_backend.base import _qmark_style

    statement = "SELECT '100%%', %s, %s || '%%s'"
    with connection.cursor() as cursor:
        cursor.execute(statement, [5, "x"])
        first = cursor.fetchone()
        hits = _qmark_style.cache_info().hits
        cursor.execute(statement, [6, "y"])
        second = cursor.fetchone()

    assert first == ("100%", 5, "x%s") and second == ("100%", 6, "y%s")
    assert _qmark_style.cache_info().hits == hits + 1

    ids = list(range(2000))  # a long IN list: converted, not kept
    kept = _qmark_style.cache_info().currsize
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM memory WHERE id IN ({', '.join(['%s'] * len(ids))})", ids)
        assert cursor.fetchone() == (0,)
    assert _qmark_style.cache_info().currsize == kept


def test_deploy_check_is_clean_with_production_settings():
    result = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=settings_env(
            DJANGO_SECRET_KEY="pX7v-Qm2_rT9zL4wK8nB1cF6hJ3dS5gY0aE-uI7oP2qR4tV6xZ8",
            DJANGO_ALLOWED_HOSTS="bestie.example.com",
            BESTIE_HTTPS="true",
            DJANGO_DEBUG="false",
        ),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "name, value",
    [
        ("BESTIE_Q_WORKERS", "abc"),
        ("BESTIE_Q_WORKERS", "0"),
        ("DJANGO_DEBUG", "maybe"),
        ("BESTIE_HTTPS", "sure"),
        ("BESTIE_CORE_BUDGET_TOKENS", "lots"),
        ("DATABASE_URL", "mysql://root@127.0.0.1/bestie"),
        ("BESTIE_BASE_URL", "bestie.example.com"),
        ("BESTIE_BASE_URL", "ftp://bestie.example.com"),
        ("BESTIE_BASE_URL", "https://bestie.example.com/?page=1"),
        ("BESTIE_PORT", "eighty"),
    ],
)
def test_bad_environment_value_is_refused_naming_the_variable(name, value):
    result = run([sys.executable, "-c", "import django; django.setup()"], env=settings_env(**{name: value}))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert name in result.stderr.splitlines()[-1]


def base_url(**environment):
    """``settings.BESTIE_BASE_URL`` in a process started with this environment."""
    env = settings_env(**environment)
    for name in ("BESTIE_BASE_URL", "BESTIE_HOST", "BESTIE_PORT"):
        if name not in environment:
            env.pop(name, None)
    code = "import django; django.setup(); from django.conf import settings; print(settings.BESTIE_BASE_URL)"
    result = run([sys.executable, "-c", code], env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_base_url_is_where_bestie_serve_listens_unless_it_is_set():
    assert base_url() == "http://127.0.0.1:8000"
    assert base_url(BESTIE_PORT="8123") == "http://127.0.0.1:8123"
    assert base_url(BESTIE_HOST="0.0.0.0", BESTIE_PORT="9000") == "http://127.0.0.1:9000"
    assert base_url(BESTIE_HOST="::1", BESTIE_PORT="9000") == "http://[::1]:9000"
    assert base_url(BESTIE_BASE_URL="https://bestie.example.com/", BESTIE_PORT="9000") == "https://bestie.example.com"


def test_a_database_under_tmp_gets_a_warning(monkeypatch):
    from bestie_site.checks import database_not_in_tmp

    monkeypatch.setenv("BESTIE_DB_PATH", "/tmp/bestie.sqlite3")
    assert [warning.id for warning in database_not_in_tmp(None)] == ["bestie.W001"]
    monkeypatch.setenv("BESTIE_DB_PATH", "/srv/bestie/bestie.sqlite3")
    assert database_not_in_tmp(None) == []


def can_log_in(username, password):
    """Whether the console's login form lets them in (the way a person logs in, lockout included)."""
    response = Client().post("/login/", {"username": username, "password": password})
    return response.status_code == 302


@pytest.mark.django_db
def test_ensure_owner_creates_the_owner_once_with_the_password_from_the_environment(monkeypatch):
    monkeypatch.setenv("BESTIE_OWNER_PASSWORD", "correct horse battery staple")
    monkeypatch.delenv("BESTIE_HOST", raising=False)
    monkeypatch.delenv("BESTIE_PORT", raising=False)
    out = StringIO()
    call_command("ensure_owner", stdout=out)

    owner = get_user_model().objects.get()
    assert (owner.username, owner.is_superuser, owner.is_staff) == ("owner", True, True)
    assert "http://127.0.0.1:8000/" in out.getvalue()
    assert can_log_in("owner", "correct horse battery staple")

    call_command("ensure_owner", stdout=StringIO())
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_ensure_owner_shows_a_generated_password_once(monkeypatch):
    monkeypatch.delenv("BESTIE_OWNER_PASSWORD", raising=False)
    monkeypatch.delenv("BESTIE_HOST", raising=False)
    monkeypatch.setenv("BESTIE_PORT", "8123")
    first = StringIO()
    call_command("ensure_owner", stdout=first)

    password = re.search(r"Password: (\S+)", first.getvalue()).group(1)
    assert "http://127.0.0.1:8123/" in first.getvalue()
    assert can_log_in("owner", password)

    second = StringIO()
    call_command("ensure_owner", stdout=second)
    assert password not in second.getvalue()
    assert "manage.py changepassword owner" in second.getvalue()


@pytest.mark.django_db
def test_ensure_owner_resets_the_password_when_the_environment_sets_one(monkeypatch):
    get_user_model().objects.create_superuser("owner", password="the forgotten password")
    monkeypatch.setenv("BESTIE_OWNER_PASSWORD", "the new password from env")
    call_command("ensure_owner", stdout=StringIO())

    assert get_user_model().objects.count() == 1
    assert can_log_in("owner", "the new password from env")
    assert not can_log_in("owner", "the forgotten password")


def test_bestie_console_script_runs_django_commands(tmp_path):
    bestie = Path(sys.executable).parent / "bestie"
    assert bestie.is_file(), "the bestie script is installed by `pip install -e .` (make run / make test)"

    result = run([str(bestie), "check"], cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
