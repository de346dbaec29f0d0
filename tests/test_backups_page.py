"""The backups page, on real SQLite files: the backups listed, one made now through the job cluster,
downloaded, and restored after a confirm step with the same ``backups.restore`` as the command line."""

import io
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django_q.conf import Conf
from django_q.models import OrmQ

from governance import backups
from governance.models import JobRun
from memories import transfer
from memories.models import Memory
from tests.console import HTMX, text_of
from tests.factories import add_memory

pytestmark = pytest.mark.django_db(transaction=True)

NOW = datetime(2026, 6, 1, 3, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def folder(settings, tmp_path):
    settings.BESTIE_BACKUP_DIR = tmp_path / "backups"
    return settings.BESTIE_BACKUP_DIR


@pytest.fixture
def cluster(monkeypatch):
    """The job cluster, standing in: a queued job runs at once, in the request that queues it."""
    monkeypatch.setattr(Conf, "SYNC", True)


def export():
    out = io.StringIO()
    transfer.write_export(out, exported_at=NOW)
    return out.getvalue()


def backup_on(day):
    with time_machine.travel(NOW + timedelta(days=day), tick=False):
        return backups.backup()


def logged_in(owner):
    client = Client()
    client.force_login(owner)
    return client


@pytest.mark.sqlite
def test_the_page_lists_the_backups_newest_first(console, folder):
    add_memory("User prefers concise replies.")
    older, newer = backup_on(0), backup_on(1)

    page = text_of(console.get("/backups/"))

    assert page.index("bestie-20260602-030000.sqlite3") < page.index("bestie-20260601-030000.sqlite3")
    assert "2026-06-02 03:00" in page and str(folder) in page
    assert 'href="/backups/bestie-20260601-030000.sqlite3/download/"' in page
    assert 'href="/backups/bestie-20260601-030000.sqlite3/restore/"' in page
    assert "The last backup, 2026-06-02 03:00:" in page and "integrity ok" in page
    assert older.path != newer.path


def test_the_page_without_backups(console):
    page = text_of(console.get("/backups/"))
    assert "No backup yet." in page or "PostgreSQL" in page


@pytest.mark.sqlite
def test_back_up_now_runs_as_a_job_and_the_new_backup_is_listed(console, cluster, folder):
    add_memory("User prefers concise replies.")

    response = console.post("/backups/now/")

    assert response["Location"].startswith("/backups/?queued=")
    page = text_of(console.get(response["Location"]))
    [made] = backups.backups()
    assert made.name in page and "integrity ok" in page and 'hx-trigger="every 2s"' not in page
    assert backups.integrity_problems(made) == []
    assert JobRun.objects.get(job="backup").counts["path"] == str(made)


def test_back_up_now_waits_for_the_job_cluster_and_the_page_polls_for_it(console):
    location = console.post("/backups/now/")["Location"]

    [queued] = OrmQ.objects.all()
    assert queued.func() == "governance.backups.backup"
    page = text_of(console.get(location))
    if "PostgreSQL" in page:
        return
    assert "waiting for the job cluster to make it" in page and 'hx-trigger="every 2s"' in page
    fragment = text_of(console.get(location, **HTMX))
    assert fragment.lstrip().startswith('<section class="card" id="backups"') and "<html" not in fragment


@pytest.mark.sqlite
def test_a_backup_that_failed_is_shown_as_failed(console, folder):
    folder.parent.joinpath("backups").write_text("a file where the folder should be")
    location = console.post("/backups/now/")["Location"]
    with pytest.raises(FileExistsError):
        backups.backup()  # the job the cluster runs

    page = text_of(console.get(location))

    assert "failed: FileExistsError: [Errno 17] File exists" in page
    assert "integrity ok" not in page and 'hx-trigger="every 2s"' not in page


@pytest.mark.sqlite
def test_a_backup_is_downloaded_whole(console):
    add_memory("User prefers concise replies.")
    made = backup_on(0)
    name = "bestie-20260601-030000.sqlite3"

    response = console.get(f"/backups/{name}/download/")

    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert "no-store" in response["Cache-Control"]
    with open(made.path, "rb") as original:
        assert b"".join(response.streaming_content) == original.read()


@pytest.mark.sqlite
@pytest.mark.parametrize(
    "name",
    ["bestie-20990101-000000.sqlite3", "..%2Fbestie.sqlite3", "%2E%2E", "bestie.sqlite3", "x" * 300, "%00"],
)
def test_only_a_backup_of_the_folder_can_be_downloaded_or_restored(console, name):
    add_memory("User prefers concise replies.")
    backup_on(0)
    before = export()

    assert console.get(f"/backups/{name}/download/").status_code == 404
    assert console.get(f"/backups/{name}/restore/").status_code == 404
    assert console.post(f"/backups/{name}/restore/", {"confirm": "yes"}).status_code == 404
    assert export() == before


@pytest.mark.sqlite
def test_a_restore_asks_first_then_gives_back_the_backup_and_keeps_the_owner_logged_in(owner, folder):
    kept = add_memory("User lived in Huế.")
    before = export()
    saved = backup_on(0)
    name = "bestie-20260601-030000.sqlite3"
    # Logged in after the backup was made: the backup does not hold this session.
    console = logged_in(owner)
    add_memory("Added after the backup.")

    asked = text_of(console.get(f"/backups/{name}/restore/"))
    assert f"Restore the store from {name}?" in asked and "integrity ok" in asked and "Yes, restore it" in asked
    unconfirmed = console.post(f"/backups/{name}/restore/")
    assert unconfirmed.status_code == 200 and "Yes, restore it" in text_of(unconfirmed)
    assert Memory.objects.count() == 2

    restored = console.post(f"/backups/{name}/restore/", {"confirm": "yes"})

    assert restored.status_code == 302 and restored["Location"] == "/backups/"
    assert export() == before and [m.pk for m in Memory.objects.all()] == [kept.pk]
    [safety] = [path for path in backups.backups() if path.name != name]
    assert backups.integrity_problems(safety) == []
    page = console.get("/backups/")
    assert page.status_code == 200
    assert f"Restored the store from {name}. The store as it was just before is the backup {safety.name}." in text_of(
        page
    )
    assert JobRun.objects.filter(job="restore").get().counts["source"] == saved.path


@pytest.mark.sqlite
def test_a_backup_that_fails_its_integrity_check_is_not_restored(console, folder):
    add_memory("User prefers concise replies.")
    before = export()
    folder.mkdir(parents=True)
    (folder / "bestie-20260601-030000.sqlite3").write_bytes(b"this is not a database" * 100)

    asked = text_of(console.get("/backups/bestie-20260601-030000.sqlite3/restore/"))
    forced = console.post("/backups/bestie-20260601-030000.sqlite3/restore/", {"confirm": "yes"})

    assert "failed its integrity check: nothing can be restored from it" in asked and "Yes, restore it" not in asked
    assert forced.status_code == 200 and "nothing can be restored from it" in text_of(forced)
    assert export() == before
    assert [path.name for path in backups.backups()] == ["bestie-20260601-030000.sqlite3"]
    assert not JobRun.objects.filter(job="restore").exists()


@pytest.mark.sqlite
def test_the_backup_forms_need_the_csrf_token_and_the_login(owner, client):
    add_memory("User prefers concise replies.")
    backup_on(0)
    add_memory("Added after the backup.")
    name = "bestie-20260601-030000.sqlite3"
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)

    assert strict.post("/backups/now/").status_code == 403
    assert strict.post(f"/backups/{name}/restore/", {"confirm": "yes"}).status_code == 403
    for url in ("/backups/", f"/backups/{name}/download/", f"/backups/{name}/restore/"):
        assert client.get(url)["Location"].startswith("/login/?next=")
    for url in ("/backups/now/", f"/backups/{name}/restore/"):
        assert client.post(url, {"confirm": "yes"})["Location"].startswith("/login/?next=")

    assert Memory.objects.count() == 2 and not OrmQ.objects.exists()
    assert len(backups.backups()) == 1


@pytest.mark.postgresql
def test_on_postgresql_the_page_points_at_pg_dump_and_restores_nothing(console, folder):
    add_memory("User prefers concise replies.")
    folder.mkdir(parents=True)
    (folder / "bestie-20260601-030000.sqlite3").write_bytes(b"a file left from an SQLite store")

    page = text_of(console.get("/backups/"))
    refused = console.post("/backups/bestie-20260601-030000.sqlite3/restore/", {"confirm": "yes"}, follow=True)

    assert "pg_dump" in page and "Back up now" not in page
    assert "pg_restore" in text_of(refused) and Memory.objects.count() == 1
