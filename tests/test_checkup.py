"""The doctor's checkup: the report, the hygiene score and the cleanup plan computed by the doctor job and
kept in the database, the newest only; the check before an apply is queued."""

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse

from governance import checkup, cleanup, doctor, hygiene
from governance.models import Checkup, JobRun
from memories.lifecycle import LifecycleError
from memories.lifecycle.policies import set_delete_policy
from tests.factories import OWNER, add_memory, child_env

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent
NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def store():
    with time_machine.travel(NOW - timedelta(days=2), tick=False):
        add_memory("User is at a conference.", subject="travel", ttl=timedelta(days=1))
    add_memory("User prefers Vietnamese.", subject="language")
    add_memory("User wants Vietnamese-first.", subject="language")
    add_memory("User prefers pnpm.", subject="package manager")
    add_memory("User prefers npm.", subject="package manager")
    add_memory("ok thanks", subject="chat")


@time_machine.travel(NOW, tick=False)
def test_the_job_keeps_what_the_doctor_the_score_and_the_plan_say(store):
    assert checkup.latest() is None
    computed = checkup.compute()

    latest = checkup.latest()
    assert latest.computed_at == NOW and not latest.store_changed
    assert latest.report == doctor.analyze()
    assert latest.score == {"score": hygiene.score().score, "parts": hygiene.score().parts}
    assert latest.plan == cleanup.plan().as_dict()
    assert checkup.latest(plan=False).plan is None and checkup.latest(report=False).report is None
    assert len(latest.report.duplicates) == 1 and len(latest.report.conflicts) == 1
    run = JobRun.objects.get(job="doctor")
    assert run.outcome == JobRun.Outcome.OK and run.counts["checkup_id"] == computed.checkup_id
    assert run.counts["duplicate_groups"] == 1 and run.counts["plan_actions"] == len(latest.plan["actions"])


def test_only_the_newest_checkup_is_kept(store):
    with time_machine.travel(NOW, tick=False):
        checkup.compute()
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        add_memory("lol", subject="chat 2")
        newest = checkup.compute()
    assert list(Checkup.objects.values_list("pk", flat=True)) == [newest.checkup_id]
    assert len(checkup.latest().report.noise) == 2


def test_a_change_to_the_store_after_the_checkup_shows(store):
    checkup.compute()
    assert not checkup.latest().store_changed
    add_memory("User likes phở bò.", subject="food")
    assert checkup.latest().store_changed


def test_the_job_reports_each_step_as_it_starts(store):
    steps = []
    checkup.compute.__wrapped__(progress=lambda *step: steps.append(step))
    assert steps == [(step, index, len(checkup.STEPS)) for index, step in enumerate(checkup.STEPS)]
    assert checkup.STEPS[:6] == doctor.PARTS and checkup.STEPS[-2:] == ("score", "plan")


def test_an_apply_is_queued_only_for_the_newest_plan_under_a_policy_that_allows_it(store):
    with pytest.raises(LifecycleError, match="the store changed since the plan was made"):
        checkup.check_apply(confirmed=True, fingerprint="")
    checkup.compute()
    fingerprint = checkup.latest().plan["fingerprint"]
    checkup.check_apply(confirmed=True, fingerprint=fingerprint)
    with pytest.raises(LifecycleError, match="delete policy is ask"):
        checkup.check_apply(confirmed=False, fingerprint=fingerprint)
    with pytest.raises(LifecycleError, match="the store changed since the plan was made"):
        checkup.check_apply(confirmed=True, fingerprint="0" * 16)
    set_delete_policy("deny", actor=OWNER)
    with pytest.raises(LifecycleError, match="deny"):
        checkup.check_apply(confirmed=True, fingerprint=fingerprint)


@pytest.mark.django_db(transaction=True)
def test_the_checkup_is_in_the_database_for_the_next_process(store):
    """What the cluster's process computed, another process (the console after a restart) reads: the
    checkup is a row, not an entry of a per-process cache."""
    computed = checkup.compute()
    cache.clear()
    program = (
        "from governance import checkup; c = checkup.latest(); "
        "import json; print(json.dumps([c.report.duplicates, c.plan['fingerprint']]))"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", program],
        env=child_env(),
        cwd=ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    latest = checkup.latest()
    assert json.loads(done.stdout) == [latest.report.duplicates, latest.plan["fingerprint"]]
    assert Checkup.objects.get().pk == computed.checkup_id


def test_the_admin_shows_a_checkup_without_its_findings(console, store):
    computed = checkup.compute()
    assert console.get(reverse("admin:governance_checkup_changelist")).status_code == 200
    page = console.get(reverse("admin:governance_checkup_change", args=[computed.checkup_id])).content.decode()
    assert f"{computed.score}" in page and "live_share" in page
    assert checkup.latest().plan["fingerprint"] not in page and "Save" not in page
