"""The doctor's console pages: the stored checkup's report with the hygiene chart, a page of each finding at
a time, Recompute through the job cluster with its progress, merge review (plain and htmx), conflict
resolution, and the cleanup plan whose confirm step queues the apply job and follows it."""

import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from django_q.conf import Conf
from django_q.models import OrmQ

from governance import checkup, cleanup, consolidation, doctor, hygiene, views
from governance.models import Checkup, JobRun
from memories import lifecycle
from memories.lifecycle import LifecycleError
from memories.lifecycle.policies import set_delete_policy
from memories.models import AuditEvent, Memory
from tests.console import HTMX, text_of
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db
NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def group():
    return [
        add_memory("User prefers Vietnamese.", subject="language").pk,
        add_memory("User wants Vietnamese-first.", subject="language").pk,
        add_memory("Always answer in <i>Vietnamese</i> with diacritics.", subject="language").pk,
    ]


@pytest.fixture
def cluster(monkeypatch):
    """The job cluster, standing in: a queued job runs at once, in the request that queues it."""
    monkeypatch.setattr(Conf, "SYNC", True)


@pytest.fixture
def no_analysis(monkeypatch):
    """Called once the test has what it needs stored: from then on, analysing the store or planning its
    cleanup fails the test (the pages only read the checkup)."""

    def fail(*args, **kwargs):
        raise AssertionError("the store was analysed in a request")

    def refuse():
        monkeypatch.setattr(doctor, "analyze", fail)
        monkeypatch.setattr(cleanup, "plan", fail)

    return refuse


LOGIN_PAGES = ["/doctor/", "/doctor/merge/?ids=1&ids=2", "/doctor/cleanup/", "/doctor/cleanup/applying/?queued=x"]


@pytest.mark.parametrize("url", LOGIN_PAGES)
def test_every_page_needs_a_login(client, url):
    response = client.get(url)
    assert response.status_code == 302 and "/login/" in response["Location"]


@pytest.mark.parametrize("url", ["/doctor/merge/", "/doctor/resolve/", "/doctor/cleanup/", "/doctor/recompute/"])
def test_logged_out_posts_change_nothing(outsider, console, cluster, group, url):
    """Each post is one the owner's session would carry out: without the login it changes nothing."""
    set_delete_policy("allow", actor=OWNER)
    checkup.compute()
    data = {
        "/doctor/merge/": {"ids": group, "text": "User prefers Vietnamese with diacritics."},
        "/doctor/resolve/": {"ids": group, "winner": group[0]},
        "/doctor/cleanup/": {"fingerprint": checkup.latest().plan["fingerprint"]},
        "/doctor/recompute/": {},
    }[url]
    runs = JobRun.objects.count()
    response = outsider.post(url, data)
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not Memory.objects.filter(superseded_by__isnull=False).exists()
    assert JobRun.objects.count() == runs
    console.post(url, data)
    if url == "/doctor/recompute/":
        assert JobRun.objects.filter(job="doctor").count() == 2 and Checkup.objects.count() == 1
    else:
        assert Memory.objects.filter(superseded_by__isnull=False).exists()


@pytest.mark.parametrize("url", ["/doctor/recompute/", "/doctor/cleanup/"])
def test_posts_need_the_csrf_token(owner, url):
    set_delete_policy("allow", actor=OWNER)
    add_memory("ok thanks", subject="chat")
    checkup.compute()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(owner)
    page = browser.get("/doctor/cleanup/").content.decode()
    assert page.count('name="csrfmiddlewaretoken"') >= 3 and "X-CSRFToken" in page
    response = browser.post(url, {"fingerprint": checkup.latest().plan["fingerprint"]})
    assert response.status_code == 403
    assert not OrmQ.objects.exists() and Memory.objects.get(text="ok thanks").deleted_at is None


def test_before_the_first_checkup_the_page_offers_to_compute_it(console, no_analysis):
    no_analysis()
    page = text_of(console.get("/doctor/"))
    assert "No report yet." in page and "Compute the report" in page
    assert 'action="/doctor/recompute/"' in page and "Duplicate groups" not in page
    page = text_of(console.get("/doctor/cleanup/"))
    assert "No report yet." in page and "Apply this plan" not in page


@time_machine.travel(NOW, tick=False)
def test_the_page_shows_the_stored_checkup_its_age_and_recompute(console, group):
    pnpm = add_memory("User prefers pnpm.", subject="package manager").pk
    npm = add_memory("User prefers npm.", subject="package manager").pk
    with time_machine.travel(NOW - timedelta(days=1), tick=False):
        hygiene.snapshot()
    hygiene.snapshot()
    with time_machine.travel(NOW - timedelta(hours=2), tick=False):
        checkup.compute()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(doctor, "analyze", lambda *args, **kwargs: pytest.fail("analysed in the request"))
        page = text_of(console.get("/doctor/"))
    assert "Computed 2\xa0hours ago (2026-06-01 07:00)." in page and ">Recompute</button>" in page
    assert "The store has changed since" not in page
    assert "1 duplicate group" in page and "1 contradiction" in page
    assert "Hygiene score" in page and "<svg" in page and page.count("<circle") == 2
    assert f'href="/doctor/merge/?checkup={Checkup.objects.get().pk}&amp;group=1"' in page
    assert f'value="{npm}" checked' in page and f'value="{pnpm}" checked' not in page
    assert "&lt;i&gt;Vietnamese&lt;/i&gt;" in page and "<i>Vietnamese</i>" not in page
    assert 'href="/doctor/"' in page
    for section in ("duplicates", "conflicts", "stale", "noise", "missing_metadata", "broken_chains"):
        assert f'id="{section}"' in page


def test_a_change_since_the_checkup_is_said_and_a_handled_group_has_nothing_left_to_do(console, group, no_analysis):
    checkup.compute.__wrapped__(progress=lambda *args: None)
    no_analysis()
    consolidation.merge(group, actor=OWNER, text="User prefers Vietnamese with diacritics.")
    page = text_of(console.get("/doctor/"))
    assert "The store has changed since: recompute to see it as it is now." in page
    assert "Handled since this report." in page and "Review merge" not in page
    assert page.count("no longer live") == 3


def test_findings_are_paged_each_section_on_its_own(console, no_analysis):
    notes = [add_memory(f"note {n}", subject=f"note {n}").pk for n in range(30)]
    checkup.compute.__wrapped__(progress=lambda *args: None)
    no_analysis()
    page = text_of(console.get("/doctor/"))
    noise = page[page.index('id="noise"') : page.index('id="missing_metadata"')]
    assert '<span class="badge count">30</span>' in noise and noise.count('href="/memories/') == 25
    assert 'href="?section=noise&amp;page=2"' in noise and 'hx-target="#noise"' in noise
    assert "No duplicates." in page

    second = text_of(console.get("/doctor/", {"section": "noise", "page": "2"}))
    noise = second[second.index('id="noise"') : second.index('id="missing_metadata"')]
    assert noise.count('href="/memories/') == 5 and 'href="?section=noise&amp;page=1"' in noise
    assert f'href="/memories/{notes[-1]}/"' in noise
    assert "<html" in second and 'id="duplicates"' in second

    fragment = text_of(console.get("/doctor/", {"section": "noise", "page": "2"}, **HTMX))
    assert "<html" not in fragment and fragment.strip().startswith('<section class="card findings" id="noise">')
    assert fragment.count('href="/memories/') == 5
    # A page past the end is the last page; a page that is no number the first.
    assert text_of(console.get("/doctor/", {"section": "noise", "page": "99"}, **HTMX)).count('href="/memories/') == 5
    assert text_of(console.get("/doctor/", {"section": "noise", "page": "x"}, **HTMX)).count('href="/memories/') == 25


def test_recompute_queues_the_doctor_job_and_the_page_follows_it(console, no_analysis):
    no_analysis()
    add_memory("ok thanks", subject="chat")
    response = console.post("/doctor/recompute/", {"next": "doctor"})
    assert response.status_code == 302 and response["Location"].startswith("/doctor/?queued=")
    [queued] = OrmQ.objects.all()
    assert queued.func() == "governance.checkup.compute"
    page = text_of(console.get(response["Location"]))
    assert "waiting for the job cluster to compute it" in page and 'hx-trigger="every 1s"' in page
    assert ">Recompute</button>" not in page and "Compute the report" not in page
    poll = console.get(response["Location"], HTTP_HX_TARGET="status", **HTMX)
    assert text_of(poll).strip().startswith('<section class="card" id="status"')
    # From the cleanup page, the same job, followed there.
    response = console.post("/doctor/recompute/", {"next": "cleanup"})
    assert response["Location"].startswith("/doctor/cleanup/?queued=") and OrmQ.objects.count() == 2


def test_the_page_shows_the_running_job_s_progress_then_the_new_report(console):
    add_memory("ok thanks", subject="chat")
    queued = console.post("/doctor/recompute/")["Location"]
    run = JobRun.objects.create(job="doctor", step="noise", done=2, total=8)
    page = text_of(console.get(queued))
    assert "Computing since" in page and "looking for noise" in page
    assert '<progress max="8" value="2">' in page
    # A running job is followed without ?queued= too, and a second Recompute does not queue another.
    assert '<progress max="8" value="2">' in text_of(console.get("/doctor/"))
    assert console.post("/doctor/recompute/")["Location"].startswith("/doctor/?queued=")
    assert OrmQ.objects.count() == 1

    checkup.compute.__wrapped__(progress=lambda *args: None)
    JobRun.objects.filter(pk=run.pk).update(outcome=JobRun.Outcome.OK, finished_at=timezone.now())
    poll = console.get(queued, HTTP_HX_TARGET="status", **HTMX)
    assert poll.status_code == 200 and poll["HX-Redirect"] == "/doctor/"
    page = text_of(console.get("/doctor/"))
    assert "Computed 0\xa0minutes ago" in page and "1 low-value noise" in page and "<progress" not in page


def test_a_failed_recompute_says_why(console, no_analysis):
    no_analysis()
    queued = console.post("/doctor/recompute/")["Location"]
    JobRun.objects.create(
        job="doctor", outcome=JobRun.Outcome.FAILED, finished_at=timezone.now(), error="OperationalError: disk I/O"
    )
    page = text_of(console.get(queued, HTTP_HX_TARGET="status", **HTMX))
    assert "failed: OperationalError: disk I/O" in page and "hx-trigger" not in page and "Compute the report" in page


def test_a_run_the_cluster_killed_long_ago_is_not_followed(console, settings, no_analysis):
    no_analysis()
    JobRun.objects.create(
        job="doctor", started_at=timezone.now() - timedelta(seconds=settings.Q_CLUSTER["timeout"] + 1)
    )
    page = text_of(console.get("/doctor/"))
    assert "<progress" not in page and "Compute the report" in page


def test_recompute_through_the_cluster_stores_a_new_checkup(console, cluster, group):
    response = console.post("/doctor/recompute/", follow=True)
    page = text_of(response)
    assert "1 duplicate group" in page and "Computed 0\xa0minutes ago" in page
    assert JobRun.objects.get(job="doctor").outcome == JobRun.Outcome.OK


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


def test_a_group_of_hundreds_is_reviewed_and_merged_by_its_place_in_the_report(console, no_analysis):
    # gunicorn refuses a request line over 4 KB: a link listing 400 ids would not load; and their ids are
    # more than a source holds.
    checkup.compute.__wrapped__(progress=lambda *args: None)
    ids = [add_memory(f"Imported note {number}.", subject="bulk").pk for number in range(400)]
    report = Checkup.objects.get()
    report.report = {**report.report, "duplicates": [ids]}
    report.save()
    lifecycle.soft_delete([ids[0]], actor=OWNER, confirmed=True)
    no_analysis()
    link = re.search(r'href="(/doctor/merge/\?[^"]*)">Review merge', console.get("/doctor/").content.decode())[1]
    assert link == f"/doctor/merge/?checkup={report.pk}&amp;group=1"
    page = console.get(link.replace("&amp;", "&")).content.decode()
    assert all(f'id="member-{memory_id}"' in page for memory_id in ids[1:]) and f'id="member-{ids[0]}"' not in page
    assert 'name="ids"' not in page and 'name="group" value="1"' in page
    response = console.post("/doctor/merge/", {"checkup": report.pk, "group": 1, "text": "Imported notes."})
    merged = Memory.objects.get(text="Imported notes.")
    assert response["Location"] == f"/memories/{merged.pk}/"
    assert set(Memory.objects.filter(superseded_by=merged).values_list("pk", flat=True)) == set(ids[1:])
    # Too many to list in its source, they are all in its history.
    assert merged.source == f"merge of 399 memories, #{ids[1]} … #{ids[-1]} (all in its history)"
    assert AuditEvent.objects.get(event="merge", memory_id=merged.pk).new["members"] == ids[1:]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ({"checkup": 999, "group": 1}, "The doctor has run again since that report: look at the new one."),
        ({"group": 2}, "That report has no duplicate group 2."),
        ({"group": 0}, "A duplicate group is named by its report and its number."),
        ({"checkup": "x", "group": 1}, "A duplicate group is named by its report and its number."),
        ({"checkup": 10**30, "group": 1}, "A duplicate group is named by its report and its number."),
    ],
)
def test_a_group_that_is_not_in_the_report_is_said_and_nothing_merges(console, group, asked, said):
    checkup.compute.__wrapped__(progress=lambda *args: None)
    asked = {"checkup": Checkup.objects.get().pk, **asked}
    before = (list(Memory.objects.values()), AuditEvent.objects.count())
    for response in (
        console.get("/doctor/merge/", asked, follow=True),
        console.post("/doctor/merge/", {**asked, "text": "Merged."}, follow=True),
    ):
        assert response.status_code == 200 and said in text_of(response)
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before


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


def test_cleanup_page_shows_the_stored_plan_and_the_confirm_step(console, dirty):
    checkup.compute()
    fingerprint = cleanup.plan().fingerprint
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cleanup, "plan", lambda *args, **kwargs: pytest.fail("planned in the request"))
        page = text_of(console.get("/doctor/cleanup/"))
        assert 'class="step-soft_delete"' in page and 'class="step-hard_delete"' in page
        assert 'name="yes" required' in page and f'value="{fingerprint}"' in page
        assert "Computed 0\xa0minutes ago" in page and ">Recompute</button>" in page
        set_delete_policy("deny", actor=OWNER)
        page = text_of(console.get("/doctor/cleanup/"))
        assert "The store has changed since" in page
    checkup.compute()
    page = text_of(console.get("/doctor/cleanup/"))
    assert "cleanup is refused" in page and "Apply this plan" not in page


def test_the_cleanup_plan_is_paged(console, monkeypatch, dirty):
    monkeypatch.setattr(views, "ACTIONS_PER_PAGE", 1)
    checkup.compute()
    page = text_of(console.get("/doctor/cleanup/"))
    assert 'class="step-soft_delete"' in page and 'class="step-hard_delete"' not in page
    assert '<a href="?page=2" hx-get="?page=2" hx-target="#table"' in page
    fragment = text_of(console.get("/doctor/cleanup/", {"page": "2"}, **HTMX))
    assert "<html" not in fragment and 'class="step-hard_delete"' in fragment and "step-soft_delete" not in fragment
    assert 'name="fingerprint"' not in fragment


def test_cleanup_confirm_queues_exactly_the_plan_for_the_cluster(console, dirty):
    expired, noise = dirty
    checkup.compute()
    fingerprint = checkup.latest().plan["fingerprint"]
    response = console.post("/doctor/cleanup/", {"fingerprint": fingerprint}, follow=True)
    assert "delete policy is ask" in text_of(response)
    response = console.post("/doctor/cleanup/", {"fingerprint": "stale-plan", "yes": "on"}, follow=True)
    assert "the store changed since the plan was made" in text_of(response)
    assert not OrmQ.objects.exists()

    response = console.post("/doctor/cleanup/", {"fingerprint": fingerprint, "yes": "on"})
    assert response.status_code == 302 and response["Location"].startswith("/doctor/cleanup/applying/?queued=")
    [queued] = OrmQ.objects.all()
    assert queued.func() == "governance.cleanup.apply_job"
    assert queued.task["kwargs"] == {
        "actor": "owner:owner",
        "confirmed": True,
        "fingerprint": fingerprint,
        "language": "en",
    }
    page = text_of(console.get(response["Location"]))
    assert "waiting for the job cluster to apply it" in page and 'hx-trigger="every 1s"' in page
    assert Memory.objects.filter(pk=expired).exists() and Memory.objects.get(pk=noise).deleted_at is None


def test_the_applying_page_shows_the_job_s_progress_then_what_it_did(console, cluster, dirty):
    expired, noise = dirty
    checkup.compute()
    fingerprint = checkup.latest().plan["fingerprint"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Conf, "SYNC", False)
        queued = console.post("/doctor/cleanup/", {"fingerprint": fingerprint, "yes": "on"})["Location"]
    run = JobRun.objects.create(job="cleanup", step="soft_delete", done=1, total=2)
    page = text_of(console.get(queued, **HTMX))
    assert "<html" not in page and "Applying since" in page and "soft-deleting noise" in page
    assert '<progress max="2" value="1">' in page and "(1 of 2)" in page
    run.delete()

    response = console.post("/doctor/cleanup/", {"fingerprint": fingerprint, "yes": "on"}, follow=True)
    page = text_of(response)
    assert "Cleanup done: merged 0 groups, marked 0 stale, archived 0, soft-deleted 1, hard-deleted 1." in page
    assert "hx-trigger" not in page and "Recompute the report and plan" in page
    assert not Memory.objects.filter(pk=expired).exists()
    assert Memory.objects.get(pk=noise).deleted_at is not None
    assert AuditEvent.objects.filter(memory_id=noise, actor="owner:owner").exists()
    run = JobRun.objects.get(job="cleanup", outcome=JobRun.Outcome.OK)
    assert (run.step, run.done, run.total) == ("hard_delete", 2, 2)
    assert run.counts == {"merged": 0, "marked_stale": 0, "archived": 0, "soft_deleted": 1, "hard_deleted": 1}


def test_a_plan_the_store_outgrew_is_refused_by_the_job_and_changes_nothing(console, dirty):
    expired, noise = dirty
    checkup.compute()
    fingerprint = checkup.latest().plan["fingerprint"]
    queued = console.post("/doctor/cleanup/", {"fingerprint": fingerprint, "yes": "on"})["Location"]
    add_memory("lol", subject="chat 2")  # more noise: the plan is no longer the one shown
    with pytest.raises(LifecycleError):
        cleanup.apply_job(**OrmQ.objects.get().task["kwargs"])
    page = text_of(console.get(queued))
    assert "The cleanup failed: LifecycleError: the store changed since the plan was made" in page
    assert Memory.objects.filter(pk=expired).exists() and Memory.objects.get(pk=noise).deleted_at is None
    assert JobRun.objects.get(job="cleanup").outcome == JobRun.Outcome.FAILED


def test_the_applying_page_without_a_queued_run_goes_back_to_the_plan(console):
    response = console.get("/doctor/cleanup/applying/", {"queued": "not a time"})
    assert response.status_code == 302 and response["Location"] == "/doctor/cleanup/"


def test_pages_speak_vietnamese(console, group, dirty):
    checkup.compute()
    console.post("/i18n/setlang/", {"language": "vi", "next": "/doctor/"})
    page = text_of(console.get("/doctor/"))
    assert "Kiểm tra bộ nhớ" in page and "1 nhóm trùng lặp" in page and "Xem xét gộp" in page
    assert "Tính lại" in page and "Nhiễu ít giá trị" in page and "Đã tính cách đây 0\xa0phút" in page
    assert "Gộp các bản trùng lặp" in text_of(console.get("/doctor/merge/", {"ids": group}))
    assert "Kế hoạch dọn dẹp" in text_of(console.get("/doctor/cleanup/"))
    assert "Không có gì cần rà soát: mọi ký ức còn hiệu lực đều mới được xác nhận." in text_of(console.get("/review/"))


def test_the_apply_job_speaks_the_owner_s_language(console, dirty):
    checkup.compute()
    fingerprint = checkup.latest().plan["fingerprint"]
    console.post("/i18n/setlang/", {"language": "vi", "next": "/doctor/"})
    queued = console.post("/doctor/cleanup/", {"fingerprint": fingerprint, "yes": "on"})["Location"]
    add_memory("lol", subject="chat 2")
    with pytest.raises(LifecycleError):
        cleanup.apply_job(**OrmQ.objects.get().task["kwargs"])
    page = text_of(console.get(queued))
    assert "Dọn dẹp thất bại" in page and "kế hoạch" in JobRun.objects.get(job="cleanup").error
