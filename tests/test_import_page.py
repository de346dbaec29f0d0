"""The console's import page: upload, a preview that changes nothing, then the import itself."""

import io
import os
import re
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from governance import uploads
from memories import transfer
from memories.models import AuditEvent, Memory, Status
from tests.data.foreign import mem0_get_all, openmemory_memory, openmemory_zip
from tests.factories import add_memory

pytestmark = pytest.mark.django_db

PAGE = reverse("governance:import")
APPLY = reverse("governance:import-apply")
TEXTS = ["Alice is vegetarian", "Alice lives in Da Nang", "Alice uses pnpm for JavaScript"]
SECRET = "Alice's AWS key is AKIAZ7QW2LXM4N5R6T8Y"


@pytest.fixture(autouse=True)
def _uploads_of_this_test(settings, tmp_path):
    settings.VAR_DIR = tmp_path


def upload(console, content, format, name="export.json", **fields):
    return console.post(PAGE, {"file": SimpleUploadedFile(name, content), "format": format, **fields})


def held_fields(response):
    """The hidden fields of the preview's import form, as the browser would send them back."""
    action = re.escape(f'action="{APPLY}"')
    form = re.search(action + ".*?</form>", response.content.decode(), re.S).group(0)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)) | {
        name: "on" for name in re.findall(r'<input type="hidden" name="(\w+)" value="True"', form)
    }


def held_files():
    from django.conf import settings

    directory = settings.VAR_DIR / "uploads"
    return sorted(directory.iterdir()) if directory.exists() else []


def test_the_page_needs_the_owner(client):
    assert client.get(PAGE)["Location"].startswith("/login/")
    assert client.post(APPLY, {})["Location"].startswith("/login/")


def test_the_page_offers_every_format(console):
    page = console.get(PAGE).content.decode()
    for format in ("bestie", *transfer.FORMATS):
        assert f'value="{format}"' in page
    assert 'enctype="multipart/form-data"' in page


def test_a_preview_shows_what_would_happen_and_changes_nothing(console):
    add_memory("Alice lives in Da Nang", kind="fact", user="alice")
    content = mem0_get_all([*TEXTS, SECRET]).encode()
    response = upload(console, content, "mem0")

    assert response.status_code == 200
    page = response.content.decode()
    assert "nothing is imported yet" in page
    assert "Alice is vegetarian" in page and "Alice uses pnpm" in page
    assert 'id="skipped"' in page and 'id="refused"' in page
    assert "AKIAZ7QW2LXM4N5R6T8Y" not in page  # a refused secret is never shown
    assert Memory.objects.count() == 1
    assert len(held_files()) == 1 and oct(os.stat(held_files()[0]).st_mode & 0o777) == "0o600"


def test_importing_a_preview_stores_the_memories_for_review_and_lets_the_upload_go(console):
    preview = upload(console, mem0_get_all(TEXTS).encode(), "mem0")
    response = console.post(APPLY, {**held_fields(preview), "apply": "yes"}, follow=True)

    assert response.redirect_chain[-1][0] == reverse("review:pending")
    assert "Imported 3 memories from export.json (3 waiting for your review" in response.content.decode()
    memories = Memory.objects.order_by("pk")
    assert [m.text for m in memories] == TEXTS
    assert {(m.status, m.source_kind) for m in memories} == {(Status.PENDING, "import")}
    assert memories[0].source.startswith("mem0:export.json#")
    assert set(AuditEvent.objects.values_list("actor", flat=True)) == {"owner:owner"}
    assert held_files() == []
    again = console.post(APPLY, {**held_fields(preview), "apply": "yes"}, follow=True)
    assert "is gone" in again.content.decode() and Memory.objects.count() == 3


def test_approve_and_no_user_are_carried_from_the_preview_to_the_import(console):
    preview = upload(console, mem0_get_all(TEXTS).encode(), "mem0", approve="on", no_user="on")
    console.post(APPLY, {**held_fields(preview), "apply": "yes"})
    assert Memory.objects.live().count() == 3
    assert set(Memory.objects.values_list("user", flat=True)) == {""}


def test_an_openmemory_archive_is_previewed_and_imported(console):
    archive = openmemory_zip([openmemory_memory("5f0c1e2a-0000-4000-8000-000000000001", "Prefers dark mode")])
    preview = upload(console, archive, "openmemory", name="memories_export.zip")
    assert "Prefers dark mode" in preview.content.decode()
    console.post(APPLY, {**held_fields(preview), "apply": "yes"})
    assert Memory.objects.get().text == "Prefers dark mode"


def test_cancel_imports_nothing_and_lets_the_upload_go(console):
    preview = upload(console, mem0_get_all(TEXTS).encode(), "mem0")
    response = console.post(APPLY, {**held_fields(preview), "cancel": "yes"}, follow=True)
    assert "Nothing was imported." in response.content.decode()
    assert Memory.objects.count() == 0 and held_files() == []


def test_a_file_that_is_not_its_format_is_a_clear_error_and_keeps_nothing(console):
    response = upload(console, b"\xff\xfe not text", "mem0")
    assert response.status_code == 400
    assert "not UTF-8" in response.content.decode()
    response = upload(console, b'{"memories": 3}', "bestie")
    assert response.status_code == 400
    assert Memory.objects.count() == 0 and held_files() == []


def test_bestie_own_export_is_previewed_and_imported_whole(console, tmp_path):
    add_memory("User prefers concise replies.")
    document = io.StringIO()
    transfer.write_export(document)
    Memory.objects.all().delete()
    AuditEvent.objects.all().delete()

    preview = upload(console, document.getvalue().encode(), "bestie")
    assert "1 memories and 1 history events would be imported" in preview.content.decode()
    assert Memory.objects.count() == 0
    console.post(APPLY, {**held_fields(preview), "apply": "yes"})
    assert Memory.objects.get().text == "User prefers concise replies."


def test_user_and_approval_are_refused_for_bestie_own_export(console):
    response = upload(console, b"{}", "bestie", approve="on")
    assert response.status_code == 400
    assert "for other tools" in response.content.decode()
    assert held_files() == []


def test_a_file_over_the_limit_is_refused(console, monkeypatch):
    monkeypatch.setattr(uploads, "MAX_BYTES", 100)
    response = upload(console, b"x" * 101, "chatgpt", name="memories.txt")
    assert response.status_code == 400
    assert "the console takes files up to" in response.content.decode()
    assert held_files() == []


def test_an_upload_this_console_did_not_make_is_refused(console):
    fields = {"upload": "../../etc/passwd", "format": "mem0", "file_name": "x.json", "apply": "yes"}
    response = console.post(APPLY, fields, follow=True)
    assert "not one this console made" in response.content.decode()
    assert Memory.objects.count() == 0


def test_uploads_older_than_an_hour_are_swept(console):
    upload(console, mem0_get_all(TEXTS).encode(), "mem0")
    [old] = held_files()
    hour_ago = time.time() - uploads.KEEP_SECONDS - 1
    os.utime(old, (hour_ago, hour_ago))
    console.get(PAGE)
    assert held_files() == []
