"""The console and the files keep strangers out: login lockout, the owner's password, a Content-Security-
Policy and no-store on every page, an idle session timeout, files readable by the owner only, access logs
without query strings, and a command line that prints agents' text without obeying it."""

import io
import json
import os
import stat
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from bestie_site.commandline.output import terminal_safe
from bestie_site.management.commands.serve import ACCESS_LOG_FORMAT
from governance import backups
from memories.models import Memory
from tests.cli import memory
from tests.conftest import OWNER_PASSWORD
from tests.factories import add_memory

pytestmark = pytest.mark.django_db


def log_in(client, password, username="owner"):
    return client.post("/login/", {"username": username, "password": password})


# ---------------------------------------------------------------------------------------------------
# Login


def test_repeated_failed_logins_lock_the_login_and_bestie_axes_reset_lifts_it(owner):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(client, "guess").status_code == 200
    locked = log_in(client, "guess")
    assert locked.status_code == 429 and "Too many failed logins" in locked.content.decode()
    assert "bestie axes_reset" in locked.content.decode()
    # Even the right password is refused now, from this address and for this username.
    assert log_in(client, OWNER_PASSWORD).status_code == 429
    assert log_in(Client(REMOTE_ADDR="10.0.0.9"), OWNER_PASSWORD).status_code == 429
    call_command("axes_reset", stdout=io.StringIO())
    assert log_in(client, OWNER_PASSWORD).status_code == 302


def test_the_lockout_ends_by_itself(owner):
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False) as clock:
        for _ in range(settings.AXES_FAILURE_LIMIT):
            log_in(Client(), "guess")
        assert log_in(Client(), OWNER_PASSWORD).status_code == 429
        clock.shift(settings.AXES_COOLOFF_TIME + timedelta(seconds=1))
        assert log_in(Client(), OWNER_PASSWORD).status_code == 302


def test_a_successful_login_forgets_the_failures_before_it(owner):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in(client, "guess")
    assert log_in(client, OWNER_PASSWORD).status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert log_in(Client(), "guess").status_code == 200


@pytest.mark.parametrize("password", ["1", "password", "12345678901234", "qwertyuiop"])
def test_ensure_owner_refuses_a_weak_password_and_makes_no_account(monkeypatch, password, django_user_model):
    monkeypatch.setenv("BESTIE_OWNER_PASSWORD", password)
    with pytest.raises(CommandError, match="BESTIE_OWNER_PASSWORD is not a password the console accepts"):
        call_command("ensure_owner", stdout=io.StringIO())
    assert not django_user_model.objects.exists()


# ---------------------------------------------------------------------------------------------------
# Every page


@pytest.mark.parametrize(
    "url", ["/", "/pending/", "/memories/", "/settings/", "/doctor/", "/jobs/", "/review/", "/preview/"]
)
def test_every_page_has_a_content_security_policy_and_is_never_cached(console, url):
    response = console.get(url)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert "no-store" in response["Cache-Control"]
    page = response.content.decode()
    assert "<script>" not in page and " style=" not in page and " onclick=" not in page


def test_the_login_page_the_export_and_the_api_are_never_cached(console, agent_token):
    assert "no-store" in Client().get("/login/")["Cache-Control"]
    assert "no-store" in console.get("/export/")["Cache-Control"]
    answer = Client().post(
        "/api/v1/context",
        json.dumps({"query": "x"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {agent_token}",
    )
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]


def test_a_session_ends_after_an_hour_without_a_request(owner):
    client = Client()
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False) as clock:
        assert log_in(client, OWNER_PASSWORD).status_code == 302
        clock.shift(timedelta(minutes=50))
        assert client.get("/pending/").status_code == 200  # activity starts the wait again
        clock.shift(timedelta(minutes=50))
        assert client.get("/pending/").status_code == 200
        clock.shift(timedelta(minutes=61))
        response = client.get("/pending/")
        assert response.status_code == 302 and "/login/" in response["Location"]


# ---------------------------------------------------------------------------------------------------
# Files


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_the_database_its_wal_backups_and_exports_are_the_owners_only(tmp_path, settings):
    add_memory("User prefers tea.")
    database = connection.settings_dict["NAME"]
    assert _mode(database) == 0o600 and _mode(f"{database}-wal") == 0o600
    settings.BESTIE_BACKUP_DIR = tmp_path / "backups"
    result = backups.backup()
    assert _mode(result.path) == 0o600 and _mode(tmp_path / "backups") == 0o700
    target = tmp_path / "export.json"
    memory("export", "--output", str(target))
    assert _mode(target) == 0o600


@pytest.mark.sqlite
def test_a_database_made_readable_by_others_before_is_narrowed_when_opened(tmp_path):
    from bestie_site.sqlite_backend.base import owner_only

    path = tmp_path / "old.sqlite3"
    path.write_bytes(b"")
    path.chmod(0o644)
    owner_only(path)
    assert _mode(path) == 0o600
    fresh = tmp_path / "new.sqlite3"
    owner_only(fresh)
    assert _mode(fresh) == 0o600


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_opening_a_connection_keeps_the_locks_of_the_others_in_this_process():
    """Closing any descriptor of a file drops every POSIX lock the process holds on it: a new connection
    must never open and close the database file, or the other connections of this process (each thread of
    a threaded server has its own) lose their locks, and another process closing its connection believes
    it is the last one and deletes the WAL and -shm files under them ("disk I/O error", or worse)."""
    import subprocess
    import sys

    import sqlean
    from django.db import connections

    add_memory("User prefers tea.")
    database = connection.settings_dict["NAME"]
    other = sqlean.connect(database)  # another thread's connection, say
    try:
        assert other.execute("SELECT count(*) FROM memory").fetchone() == (1,)
        connections.close_all()
        connection.ensure_connection()  # a new connection, as each request of a threaded server makes
        closed = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sqlean, sys; sqlean.connect(sys.argv[1]).execute('SELECT 1').close()",
                database,
            ],
            capture_output=True,
            encoding="utf-8",
            timeout=60,
        )
        assert closed.returncode == 0, closed.stderr
        assert os.path.exists(f"{database}-wal") and os.path.exists(f"{database}-shm")
        add_memory("User prefers green tea.")
        assert other.execute("SELECT count(*) FROM memory").fetchone() == (2,)
    finally:
        other.close()


def test_the_secret_key_is_made_for_the_owner_only(tmp_path):
    import subprocess
    import sys

    env = {**os.environ, "BESTIE_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "bestie_site.settings"}
    env.pop("DJANGO_SECRET_KEY", None)
    subprocess.run([sys.executable, "-c", "import django; django.setup()"], env=env, check=True, timeout=60)
    assert _mode(tmp_path / "secret_key") == 0o600


def test_a_secret_key_made_meanwhile_by_another_process_is_the_one_used(tmp_path, monkeypatch):
    """The web app and the job cluster may both find no key on a new machine and make one at once: the
    second neither fails nor writes its own, and both use the first."""
    import pathlib

    from bestie_site import settings as site_settings

    monkeypatch.delenv("DJANGO_SECRET_KEY", raising=False)
    monkeypatch.setattr(site_settings, "VAR_DIR", tmp_path)
    (tmp_path / "secret_key").write_text("made-by-the-other-process\n")
    looked = pathlib.Path.exists
    # It was not there when this process looked.
    monkeypatch.setattr(pathlib.Path, "exists", lambda path: path.name != "secret_key" and looked(path))
    assert site_settings._secret_key() == "made-by-the-other-process"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["secret_key"]


def test_the_access_log_keeps_no_query_string():
    assert "%(U)s" in ACCESS_LOG_FORMAT
    assert "%(r)s" not in ACCESS_LOG_FORMAT and "%(q)s" not in ACCESS_LOG_FORMAT and "%(f)s" not in ACCESS_LOG_FORMAT


# ---------------------------------------------------------------------------------------------------
# The command line


HOSTILE = "User likes tea.\x1b]0;owned\x07\x1b[2J\x9b31m\u202egnp.exe\r"


def test_the_write_path_keeps_no_control_or_bidirectional_characters():
    stored = add_memory(HOSTILE, source="telegram \x1b[8mhidden\x1b[0m")
    assert stored.text == "User likes tea.]0;owned[2J31mgnp.exe"
    assert stored.source == "telegram [8mhidden[0m"


def test_the_command_line_prints_agents_text_without_obeying_it():
    # As an import or an older version may have stored it: the write path would have removed them.
    stored = add_memory("User likes tea.", source="telegram")
    Memory.objects.filter(pk=stored.pk).update(text=HOSTILE, source="telegram \x1b[8mhidden\x1b[0m")
    for printed in (memory("list"), memory("search", "tea"), memory("inspect", str(stored.pk))):
        assert "\x1b" not in printed and "\x07" not in printed and "\x9b" not in printed and "\u202e" not in printed
        assert "\r" not in printed
        assert "\\u001b]0;owned\\u0007" in printed
    as_json = memory("list", "--json")
    assert "\x1b" not in as_json and "\x9b" not in as_json
    assert json.loads(as_json)[0]["text"] == Memory.objects.get().text  # still the same value for a script


def test_terminal_safe_keeps_text_newlines_and_tabs():
    assert terminal_safe("Người dùng thích phở.\n\tđi chợ") == "Người dùng thích phở.\n\tđi chợ"
    assert terminal_safe("a\x00b\x7fc\u2066d") == "a\\u0000b\\u007fc\\u2066d"
