"""The personas every test file shares (``owner``, ``console``, ``outsider``, ``agent_token``,
``logged_in``), and what each test starts from."""

import os
import secrets
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

# Playwright's sync API runs an event loop in the test thread; the ORM calls beside it are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The local mail server's fixtures (smtp, relay), for every test file.
pytest_plugins = ["tests.mail"]

CHROMIUM = Path("/usr/bin/chromium")
OWNER_PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A PostgreSQL test database of this run's own: two runs against one server do not collide."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.postgresql":
        database.setdefault("TEST", {})["NAME"] = f"test_{database['NAME']}_{os.getpid()}_{secrets.token_hex(3)}"


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 is slow on purpose; what tests log in with needs no such protection."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def owner(django_user_model):
    """The owner's account, as ``ensure_owner`` makes it (password ``OWNER_PASSWORD``)."""
    return django_user_model.objects.create_superuser("owner", "owner@example.com", OWNER_PASSWORD)


@pytest.fixture
def console(owner):
    """The owner's browser session: a test client logged in as the owner."""
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def outsider(db):
    """Someone who reaches the console without logging in."""
    return Client()


@pytest.fixture
def agent_token(db):
    """The plaintext of an active agent token named ``bestie``."""
    from memories import agent_tokens

    return agent_tokens.create_token("bestie", actor="owner:test")


@pytest.fixture
def logged_in(live_server, page, owner):
    """A real browser that already holds the owner's session (logging in through the form is its own test)."""
    client = Client()
    client.force_login(owner)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return page


@pytest.fixture(autouse=True)
def _static_files_without_manifest(settings):
    """Tests render pages without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: ids repeat across rolled-back tests, so cached reports could;
    and with no word counts kept by the write path from another test's store."""
    from django.core.cache import cache

    from memories.lifecycle import proposals

    cache.clear()
    proposals.forget_counts()
    yield
    cache.clear()
    proposals.forget_counts()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language: a console request in Vietnamese leaves its language
    active in the thread (LocaleMiddleware never deactivates it), and domain messages are translated."""
    from django.utils import translation

    yield
    translation.deactivate()


def pytest_collection_modifyitems(config, items):
    """SQLite-only tests do not apply to a PostgreSQL run, nor PostgreSQL-only ones to an SQLite run:
    deselect them rather than skip them."""
    other = "postgresql" if connection.vendor == "sqlite" else "sqlite"
    deselected = [item for item in items if item.get_closest_marker(other)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker(other)]


def pytest_sessionfinish(session, exitstatus):
    """In CI a skipped test is a test that did not run: fail the run and say which."""
    if os.environ.get("CI", "").lower() != "true":
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if skipped:
        reporter.write_line(f"CI=true: {len(skipped)} skipped test(s) count as failures:", red=True)
        for report in skipped:
            reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
            reporter.write_line(f"  {report.nodeid}: {reason}", red=True)
        session.exitstatus = 1


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (sudo apt-get install chromium)")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }
