"""The console's jobs page: every job's schedule (editable) and the history of runs."""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django_q.models import Schedule

from governance import schedules
from governance.models import JobRun
from memories.models import AuditEvent

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
START = datetime(2026, 6, 1, 3, 30, tzinfo=UTC)


def run(job, outcome="ok", counts=None, error="", minutes=0):
    started = START + timedelta(minutes=minutes)
    return JobRun.objects.create(
        job=job,
        started_at=started,
        finished_at=started + timedelta(seconds=12.5),
        outcome=outcome,
        counts=counts or {},
        error=error,
    )


def test_the_history_shows_each_run_with_what_it_did_or_its_error(console):
    run("prune", counts={"policy": "allow", "deleted": 1204, "batches": 7})
    run("backup", outcome="failed", error="BackupError: /backups is full; nothing was rotated", minutes=1)
    run("restore", counts={"source": "/backups/bestie-2026-05-31.sqlite3"}, minutes=2)

    page = console.get("/jobs/").content.decode()
    history = page.split("Run history")[1]

    assert history.index("Restore") < history.index("BackupError") < history.index("1204")
    assert "deleted</dt><dd>1204" in page and "12.5 s" in page
    assert "/backups is full; nothing was rotated" in page
    assert "/backups/bestie-2026-05-31.sqlite3" in page


def test_what_a_run_did_reads_as_key_value_text_not_python(console):
    deliveries = [
        {"channel": "email:owner@example.com", "ok": True, "attempts": 1, "error": ""},
        {"channel": "telegram:42", "ok": False, "attempts": 3, "error": "HTTP 502 from api.telegram.org"},
    ]
    run("digest", counts={"sent": True, "new_count": 2, "deliveries": deliveries})
    run("hygiene", counts={"score": 81, "counts": {"live": 40, "pending_old": 2}, "ids": [3, 5]}, minutes=1)

    page = console.get("/jobs/").content.decode()

    def shown(key):
        """What the history shows for ``key``: each line as its set of pairs (PostgreSQL's JSON keeps
        no key order)."""
        value = page.split(f"<dt>{key}</dt><dd>")[1].split("</dd>")[0]
        return [set(line.split(", ")) for line in value.split("<br>")]

    assert "{&#x27;" not in page and "{'" not in page and "True" not in page and "[3" not in page
    assert shown("deliveries") == [
        {"channel: email:owner@example.com", "delivered: yes", "attempts: 1", "error: –"},
        {"channel: telegram:42", "delivered: no", "attempts: 3", "error: HTTP 502 from api.telegram.org"},
    ]
    assert shown("sent") == [{"yes"}] and shown("new memories") == [{"2"}]
    assert shown("memories") == [{"live: 40", "pending old: 2"}] and shown("ids") == [{"3", "5"}]


def test_the_history_filters_by_job_as_a_page_and_as_the_htmx_fragment(console):
    run("prune", counts={"deleted": 31})
    run("hygiene", counts={"score": 87}, minutes=1)

    page = console.get("/jobs/?job=prune").content.decode()
    fragment = console.get("/jobs/?job=prune", **HTMX).content.decode()

    for body in (page, fragment):
        assert "deleted</dt><dd>31" in body and "score</dt><dd>87" not in body
    assert "<h1>" in page and "<h1>" not in fragment and fragment.lstrip().startswith('<div id="table">')
    everything = console.get("/jobs/?job=nonsense").content.decode()
    assert "deleted</dt><dd>31" in everything and "score</dt><dd>87" in everything


def test_the_history_is_paged(console):
    for minute in range(60):
        run("hygiene", counts={"score": 1000 + minute}, minutes=minute)

    first = console.get("/jobs/").content.decode()
    second = console.get("/jobs/?page=2").content.decode()

    assert "1059" in first and "1010" in first and "1009" not in first
    assert "1009" in second and "1000" in second and "1059" not in second


def test_the_schedules_show_every_job_with_its_cron_next_and_last_run(console):
    schedules.seed()
    run("prune", outcome="failed", error="OperationalError: disk I/O error")

    page = console.get("/jobs/").content.decode()

    for job in schedules.JOBS:
        assert f'name="job" value="{job.job}"' in page
        assert f'value="{Schedule.objects.get(name=job.schedule).cron}"' in page
    assert "OperationalError: disk I/O error" in page


def test_the_owner_changes_a_schedule_and_it_is_audited(console):
    schedules.seed()

    response = console.post("/jobs/schedule/", {"job": "prune", "cron": " 15  2 * * * "}, follow=True)

    prune = Schedule.objects.get(name="bestie-prune")
    assert prune.cron == "15 2 * * *" and (prune.next_run.hour, prune.next_run.minute) == (2, 15)
    assert "now runs on the schedule 15 2 * * *" in response.content.decode()
    event = AuditEvent.objects.get(event="policy")
    assert (event.actor, event.old, event.new) == (
        "owner:owner",
        {"prune schedule": "30 3 * * *"},
        {"prune schedule": "15 2 * * *"},
    )


@pytest.mark.parametrize(
    "data, message",
    [
        ({"job": "prune", "cron": "every night"}, "cron expression of five fields"),
        ({"job": "prune", "cron": "61 * * * *"}, "cron expression of five fields"),
        ({"job": "format_disk", "cron": "0 3 * * *"}, "job: must be one of backup, prune"),
    ],
)
def test_a_bad_schedule_is_named_and_changes_nothing(console, data, message):
    schedules.seed()
    before = list(Schedule.objects.order_by("name").values_list("name", "cron", "next_run"))

    response = console.post("/jobs/schedule/", data, follow=True)

    assert message in response.content.decode()
    assert list(Schedule.objects.order_by("name").values_list("name", "cron", "next_run")) == before
    assert not AuditEvent.objects.exists()


def test_a_schedule_change_needs_the_csrf_token(owner):
    schedules.seed()
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)

    assert client.post("/jobs/schedule/", {"job": "prune", "cron": "0 1 * * *"}).status_code == 403
    assert Schedule.objects.get(name="bestie-prune").cron == "30 3 * * *"


def test_run_errors_and_counts_are_escaped(console):
    run(
        "digest",
        outcome="failed",
        error="SMTPException: <script>alert(1)</script>",
        counts={"channel": "<img src=x onerror=alert(2)>"},
    )

    page = console.get("/jobs/").content.decode()

    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<img src=x" not in page


def test_the_page_speaks_vietnamese(console):
    run("prune", outcome="failed", error="OperationalError: disk I/O error")
    console.post("/i18n/setlang/", {"language": "vi", "next": "/jobs/"})

    page = console.get("/jobs/").content.decode()

    assert "Lịch sử chạy" in page and "Cắt tỉa" in page and ">lỗi<" in page
    assert "Run history" not in page


def test_a_bad_schedule_is_named_in_the_owners_language(console):
    schedules.seed()
    console.post("/i18n/setlang/", {"language": "vi", "next": "/jobs/"})

    response = console.post("/jobs/schedule/", {"job": "prune", "cron": "every night"}, follow=True)

    assert "phải là biểu thức cron gồm năm trường" in response.content.decode()
    assert Schedule.objects.get(name="bestie-prune").cron == "30 3 * * *"
