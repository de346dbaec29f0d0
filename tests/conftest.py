import os
from pathlib import Path

import pytest
from django.db import connection

# Playwright's sync API runs an event loop in the test thread; the ORM calls beside it are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(autouse=True)
def _static_files_without_manifest(settings):
    """Tests render pages without running collectstatic first."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with an empty cache: ids repeat across rolled-back tests, so cached reports could."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the default language: a console request in Vietnamese leaves its language
    active in the thread (LocaleMiddleware never deactivates it), and domain messages are translated."""
    from django.utils import translation

    yield
    translation.deactivate()


def pytest_collection_modifyitems(config, items):
    """SQLite-only tests do not apply to a PostgreSQL run: deselect them rather than skip them."""
    if connection.vendor == "sqlite":
        return
    deselected = [item for item in items if item.get_closest_marker("sqlite")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("sqlite")]


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
