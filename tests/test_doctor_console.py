"""The doctor's console pages: report with the hygiene chart, merge review (plain and htmx), conflict
resolution and the cleanup plan with its confirm step."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from governance import cleanup, hygiene
from memories import lifecycle
from memories.lifecycle.policies import set_delete_policy
from memories.models import AuditEvent, Memory
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def group():
    return [
        add_memory("User prefers Vietnamese.", subject="language").pk,
        add_memory("User wants Vietnamese-first.", subject="language").pk,
        add_memory("Always answer in <i>Vietnamese</i> with diacritics.", subject="language").pk,
    ]


@pytest.mark.parametrize("url", ["/doctor/", "/doctor/merge/?ids=1&ids=2", "/doctor/cleanup/"])
def test_every_page_needs_a_login(client, url):
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("url", ["/doctor/merge/", "/doctor/resolve/", "/doctor/cleanup/"])
def test_logged_out_posts_change_nothing(outsider, console, group, url):
    """Each post is one the owner's session would carry out: without the login it changes nothing."""
    set_delete_policy("allow", actor=OWNER)
    data = {
        "/doctor/merge/": {"ids": group, "text": "User prefers Vietnamese with diacritics."},
        "/doctor/resolve/": {"ids": group, "winner": group[0]},
        "/doctor/cleanup/": {"yes": "on", "fingerprint": cleanup.plan().fingerprint},
    }[url]
    response = outsider.post(url, data)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Memory.objects.filter(superseded_by__isnull=False).exists()
    response = console.post(url, data)
    if response.streaming:
        b"".join(response.streaming_content)
    assert Memory.objects.filter(superseded_by__isnull=False).exists()


@time_machine.travel(NOW, tick=False)
def test_doctor_page_shows_findings_score_and_chart(console, group):
    pnpm = add_memory("User prefers pnpm.", subject="package manager").pk
    npm = add_memory("User prefers npm.", subject="package manager").pk
    with time_machine.travel(NOW - timedelta(days=1), tick=False):
        hygiene.snapshot()
    hygiene.snapshot()
    page = console.get("/doctor/").content.decode()
    assert "1 duplicate group" in page and "1 contradiction" in page
    assert "Hygiene score" in page and "<svg" in page and page.count("<circle") == 2
    assert f"ids={group[0]}&amp;ids={group[1]}&amp;ids={group[2]}" in page
    assert f'value="{npm}" checked' in page and f'value="{pnpm}" checked' not in page
    assert "&lt;i&gt;Vietnamese&lt;/i&gt;" in page and "<i>Vietnamese</i>" not in page
    assert 'href="/doctor/"' in page


def test_merge_page_shows_members_side_by_side_with_the_draft(console, group):
    page = console.get("/doctor/merge/", {"ids": group}).content.decode()
    for memory_id in group:
        assert f'id="member-{memory_id}"' in page
    assert "Always answer in &lt;i&gt;Vietnamese&lt;/i&gt; with diacritics.</textarea>" in page


def test_merge_with_edited_text_plain_post(console, group):
    text = "User prefers Vietnamese replies with proper diacritics unless they ask for another language."
    response = console.post("/doctor/merge/", {"ids": group, "text": text})
    merged = Memory.objects.get(text=text)
    assert response.status_code == 302 and response["Location"] == f"/memories/{merged.pk}/"
    assert set(Memory.objects.filter(pk__in=group).values_list("superseded_by_id", flat=True)) == {merged.pk}
    assert AuditEvent.objects.get(event="merge").actor == "owner:owner"


def test_merge_with_htmx_returns_the_outcome_fragment(console, group):
    response = console.post("/doctor/merge/", {"ids": group, "text": "User prefers Vietnamese."}, **HTMX)
    page = response.content.decode()
    assert "Merged #" in page and "<html" not in page
    assert Memory.objects.filter(superseded_by__isnull=False).count() == 3


def test_merge_errors_show_in_the_form_and_change_nothing(console, group):
    lifecycle.pin(group[0], actor=OWNER)
    before = (list(Memory.objects.values()), AuditEvent.objects.count())
    page = console.post("/doctor/merge/", {"ids": group, "text": "Merged."}, **HTMX).content.decode()
    assert "is pinned" in page and 'name="include_pinned"' in page and "<html" not in page
    page = console.post("/doctor/merge/", {"ids": group, "text": "  ", "include_pinned": "on"}).content.decode()
    assert "text: must not be empty" in page
    response = console.get("/doctor/merge/", {"ids": ["x"]}, follow=True)
    assert "Memory ids must be whole numbers." in response.content.decode()
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before
    console.post("/doctor/merge/", {"ids": group, "text": "Merged.", "include_pinned": "on"})
    assert Memory.objects.get(text="Merged.").pinned


def test_resolve_keeps_the_chosen_one(console):
    a = add_memory("User prefers pnpm.", subject="package manager").pk
    b = add_memory("User prefers npm.", subject="package manager").pk
    response = console.post("/doctor/resolve/", {"ids": [a, b], "winner": a}, follow=True)
    assert f"#{a} stays; superseded #{b}." in response.content.decode()
    assert Memory.objects.get(pk=b).superseded_by_id == a
    response = console.post("/doctor/resolve/", {"ids": [a, b]}, follow=True)
    assert "Choose the memory that stays." in response.content.decode()


@pytest.fixture
def dirty():
    with time_machine.travel(NOW - timedelta(days=2), tick=False):
        expired = add_memory("User is at a conference.", subject="travel", ttl=timedelta(days=1)).pk
    noise = add_memory("ok thanks", subject="chat").pk
    return expired, noise


def test_cleanup_page_shows_the_plan_and_the_confirm_step(console, dirty):
    page = console.get("/doctor/cleanup/").content.decode()
    assert 'class="step-soft_delete"' in page and 'class="step-hard_delete"' in page
    assert 'name="yes" required' in page and f'value="{cleanup.plan().fingerprint}"' in page
    set_delete_policy("deny", actor=OWNER)
    page = console.get("/doctor/cleanup/").content.decode()
    assert "cleanup is refused" in page and "Apply this plan" not in page


def test_cleanup_confirm_applies_exactly_the_plan(console, dirty):
    expired, noise = dirty
    fingerprint = cleanup.plan().fingerprint
    response = console.post("/doctor/cleanup/", {"fingerprint": fingerprint}, follow=True)
    assert "delete policy is ask" in response.content.decode()
    assert Memory.objects.filter(pk=expired).exists()
    response = console.post("/doctor/cleanup/", {"fingerprint": "stale-plan", "yes": "on"}, follow=True)
    assert "the store changed since the plan was made" in response.content.decode()
    response = console.post("/doctor/cleanup/", {"fingerprint": fingerprint, "yes": "on"})
    assert response.streaming
    page = b"".join(response.streaming_content).decode()
    assert "<li>[1/2] soft-delete</li>" in page and "<li>[2/2] erase for good</li>" in page
    assert page.index("[2/2]") < page.index("soft-deleted 1, hard-deleted 1") < page.index("</html>")
    assert not Memory.objects.filter(pk=expired).exists()
    assert Memory.objects.get(pk=noise).deleted_at is not None


def test_pages_speak_vietnamese(console, group):
    console.post("/i18n/setlang/", {"language": "vi", "next": "/doctor/"})
    page = console.get("/doctor/").content.decode()
    assert "Kiểm tra bộ nhớ" in page and "1 nhóm trùng lặp" in page and "Xem xét gộp" in page
    assert "Gộp các bản trùng lặp" in console.get("/doctor/merge/", {"ids": group}).content.decode()
    assert "Kế hoạch dọn dẹp" in console.get("/doctor/cleanup/").content.decode()
    assert (
        "Không có gì cần rà soát: mọi ký ức còn hiệu lực đều mới được xác nhận."
        in console.get("/review/").content.decode()
    )


def test_the_doctor_page_reuses_its_report_until_the_store_changes(console, monkeypatch):
    from governance import doctor

    client = console
    calls = []
    real_analyze = doctor.analyze
    monkeypatch.setattr(doctor, "analyze", lambda *args, **kwargs: calls.append(1) or real_analyze(*args, **kwargs))
    add_memory("User prefers Vietnamese.", subject="language")
    assert client.get("/doctor/").status_code == 200
    assert client.get("/doctor/").status_code == 200
    assert len(calls) == 1
    add_memory("User wants Vietnamese-first.", subject="language")
    response = client.get("/doctor/")
    assert len(calls) == 2
    assert "Vietnamese-first" in response.content.decode()
