"""The drift review queue: ordering, the age and weekly cap, each action with its audit event, the CLI."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management.base import CommandError

from memories import lifecycle
from memories.models import AuditEvent, Memory
from review import drift
from tests.cli import memory, memory_json, refused
from tests.console import plans_of, reads_the_table, set_planner_statistics, uses_index
from tests.factories import OWNER, add_memory

NOW = datetime(2026, 6, 3, 9, 0, tzinfo=UTC)  # a Wednesday


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def confirmed(days_ago, text=None, **fields):
    with time_machine.travel(NOW - timedelta(days=days_ago), tick=False):
        return add_memory(text or f"Fact confirmed {days_ago} days ago.", subject="s", **fields).pk


def test_queue_is_live_memories_past_the_age_oldest_first(db, frozen):
    middle = confirmed(120)
    oldest = confirmed(400)
    newest_due = confirmed(91)
    confirmed(89)
    confirmed(300, status="pending")
    superseded = confirmed(500)
    lifecycle.supersede(superseded, newest_due, actor=OWNER)
    queue = drift.drift_queue()
    assert [m.pk for m in queue.items] == [oldest, middle, newest_due]
    assert queue.due == 3 and queue.weekly == 20 and queue.age_days == 90


def test_queue_age_and_weekly_cap_are_settings(db, frozen, settings):
    settings.BESTIE_DRIFT_AGE_DAYS = 30
    settings.BESTIE_DRIFT_WEEKLY = 2
    ids = [confirmed(days) for days in (40, 50, 60, 70)]
    queue = drift.drift_queue()
    assert [m.pk for m in queue.items] == [ids[3], ids[2]] and queue.due == 4


def test_the_weekly_cap_counts_this_weeks_reviews_and_resets_on_monday(db, frozen, settings):
    settings.BESTIE_DRIFT_WEEKLY = 3
    ids = [confirmed(100 + n) for n in range(6)]
    drift.confirm(ids[5], actor=OWNER)
    drift.confirm(ids[4], actor=OWNER)
    queue = drift.drift_queue()
    assert queue.reviewed_this_week == 2 and queue.left_this_week == 1
    assert [m.pk for m in queue.items] == [ids[3]]
    drift.forget(ids[3], actor=OWNER)
    assert drift.drift_queue().items == []
    # An ordinary confirm outside the review does not use up the week's reviews.
    with time_machine.travel(NOW + timedelta(days=5), tick=False):  # next Monday
        assert [m.pk for m in drift.drift_queue().items] == [ids[2], ids[1], ids[0]]
    assert [m.pk for m in drift.drift_queue(limit=5).items] == []


@pytest.mark.sqlite
@pytest.mark.parametrize("statistics", ["none", "sampled"])
def test_the_queue_its_count_and_the_weeks_reviews_are_read_from_indexes(db, frozen, statistics):
    """At 100k memories the queue sorted every live memory and its count read them all (50 ms each), and
    the week's reviews were counted by walking the whole history in memory_id order (10-20 ms)."""
    ids = [confirmed(100 + n) for n in range(30)]
    for memory_id in ids[:3]:
        drift.confirm(memory_id, actor=OWNER)
    set_planner_statistics(statistics)

    queue = plans_of(drift.drift_queue)
    (_, week) = plans_of(drift.reviewed_this_week, table="memory_history")[0]

    assert len(queue) == 2  # the items and the count of all that are due
    for sql, plan in queue:
        assert uses_index(plan, "memory_live_confirmed"), plan
        assert "TEMP B-TREE" not in plan, plan
        if "COUNT(" in sql:
            assert not reads_the_table(sql), sql
    assert "memory_history_at" in week and "memory_history_memory_id" not in week, week


def test_limit_shows_fewer(db, frozen):
    ids = [confirmed(100 + n) for n in range(3)]
    assert [m.pk for m in drift.drift_queue(limit=1).items] == [ids[2]]
    with pytest.raises(lifecycle.InvalidValue, match="limit: must be a positive whole number"):
        drift.drift_queue(limit=0)


def test_confirm_refreshes_confirmed_at_and_leaves_the_queue(db, frozen):
    old = confirmed(200)
    drift.confirm(old, actor=OWNER)
    assert Memory.objects.get(pk=old).confirmed_at == NOW
    event = AuditEvent.objects.filter(memory_id=old).latest("id")
    assert event.event == "confirm" and event.note == "drift review" and event.actor == OWNER
    assert drift.drift_queue().due == 0


def test_supersede_with_new_text_keeps_the_chain(db, frozen):
    old = confirmed(200, "User uses npm.", kind="preference", user="owner", pinned=True)
    new = drift.supersede(old, "User uses pnpm.", actor=OWNER)
    assert new.text == "User uses pnpm." and new.is_live() and new.pinned and new.user == "owner"
    assert Memory.objects.get(pk=old).superseded_by_id == new.pk
    assert AuditEvent.objects.get(memory_id=old, event="supersede").note == "drift review"
    assert drift.drift_queue().due == 0


def test_supersede_refuses_empty_text_and_a_secret_and_changes_nothing(db, frozen):
    old = confirmed(200)
    before = (list(Memory.objects.values()), AuditEvent.objects.count())
    with pytest.raises(lifecycle.InvalidValue, match="text: must not be empty"):
        drift.supersede(old, "  ", actor=OWNER)
    with pytest.raises(lifecycle.Refused):
        drift.supersede(old, "The server password is hunter2-Zx91!", actor=OWNER)
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before


def test_set_expiry_needs_a_time_and_records_it(db, frozen):
    old = confirmed(200)
    with pytest.raises(lifecycle.InvalidValue, match="give the time it ends"):
        drift.set_expiry(old, actor=OWNER)
    drift.set_expiry(old, actor=OWNER, ttl=timedelta(days=30))
    assert Memory.objects.get(pk=old).expires_at == NOW + timedelta(days=30)
    assert AuditEvent.objects.get(memory_id=old, event="expire").note == "drift review"


def test_forget_erases_and_keeps_only_a_hash(db, frozen):
    old = confirmed(200, "User's old address was 12 Lê Lợi.")
    drift.forget(old, actor=OWNER)
    assert not Memory.objects.filter(pk=old).exists()
    event = AuditEvent.objects.get(memory_id=old, event="forget")
    assert event.note == "drift review" and event.text_sha256
    with pytest.raises(lifecycle.NotFound):
        drift.forget(old, actor=OWNER)


def test_cli_review_lists_and_acts(db, frozen):
    old = confirmed(200, "User works at a bank.")
    other = confirmed(150, "User lives in Huế.")
    printed = memory("review")
    assert "2 live memories not confirmed for 90 days; 0 of 20 reviewed this week" in printed
    assert printed.index(f"#{old}") < printed.index(f"#{other}")
    listed = memory_json("review")
    assert [item["id"] for item in listed["items"]] == [old, other] and listed["due"] == 2
    assert "confirmed" in memory("review", "confirm", str(old))
    assert "superseded by memory #" in memory("review", "supersede", str(other), "User lives in Đà Nẵng.")
    assert memory_json("review")["items"] == []


def test_cli_review_refusals(db, frozen):
    old = confirmed(200)
    assert "no memory with id 999" in refused("review", "confirm", "999")
    assert "text: must not be empty" in refused("review", "supersede", str(old), " ")
    with pytest.raises(CommandError):
        memory("review", "expire", str(old))
    assert "expires 2026-07-03" in memory("review", "expire", str(old), "--ttl", "30d")


# ---------------------------------------------------------------------------------------------------
# Console page /review/

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_page_needs_a_login(db, client):
    response = client.get("/review/")
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert client.post(f"/review/{confirmed(200)}/", {"action": "confirm"}).status_code == 302
    assert AuditEvent.objects.filter(event="confirm").count() == 0


def test_the_page_lists_the_queue_oldest_first_and_is_linked_in_the_nav(db, frozen, console):
    newer = confirmed(100, "User lives in <b>Huế</b>.")
    older = confirmed(300, "User works at a bank.")
    page = console.get("/review/").content.decode()
    assert page.index(f"item-{older}") < page.index(f"item-{newer}")
    assert "2 live memories have not been confirmed for 90 days." in page
    assert 'href="/review/"' in page
    assert "&lt;b&gt;Huế&lt;/b&gt;" in page and "<b>Huế</b>" not in page


def test_confirm_with_htmx_swaps_in_the_outcome(db, frozen, console):
    old = confirmed(200)
    response = console.post(f"/review/{old}/", {"action": "confirm"}, **HTMX)
    assert response.status_code == 200
    assert f'id="item-{old}"' in response.content.decode() and f"Confirmed #{old}." in response.content.decode()
    assert "<html" not in response.content.decode()
    assert AuditEvent.objects.get(memory_id=old, event="confirm").actor == "owner:owner"


def test_each_action_without_javascript_redirects_back_with_a_message(db, frozen, console):
    a, b, c, d = (confirmed(200 + n, f"Fact {n} about the owner.") for n in range(4))
    for memory_id, data in (
        (a, {"action": "confirm"}),
        (b, {"action": "supersede", "text": "A newer fact about the owner."}),
        (c, {"action": "expire", "ttl": "30d"}),
        (d, {"action": "forget", "confirm": "yes"}),
    ):
        response = console.post(f"/review/{memory_id}/", data, follow=True)
        assert response.redirect_chain[-1][0] == "/review/"
        assert f"#{memory_id}" in response.content.decode()
    assert Memory.objects.get(pk=a).confirmed_at == NOW
    assert Memory.objects.get(pk=b).superseded_by.text == "A newer fact about the owner."
    assert Memory.objects.get(pk=c).expires_at == NOW + timedelta(days=30)
    assert not Memory.objects.filter(pk=d).exists()
    assert AuditEvent.objects.filter(note="drift review").count() == 4


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_forget_asks_for_a_confirmation_first_even_under_delete_policy_ask(db, frozen, console, headers):
    old = confirmed(200, "User works at a bank.")
    before = (list(Memory.objects.values()), AuditEvent.objects.count())

    asked = console.post(f"/review/{old}/", {"action": "forget"}, **headers)
    page = asked.content.decode()
    assert asked.status_code == 200 and "<html" in page
    assert "Forget 1 memory?" in page and "User works at a bank." in page
    assert f'action="/review/{old}/"' in page and 'name="confirm" value="yes"' in page
    assert 'href="/review/"' in page
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before

    done = console.post(f"/review/{old}/", {"action": "forget", "confirm": "yes"}, follow=True)
    assert done.redirect_chain[-1][0] == "/review/" and f"Forgot #{old}." in done.content.decode()
    assert not Memory.objects.filter(pk=old).exists()
    assert AuditEvent.objects.get(memory_id=old, event="forget").note == "drift review"


def test_the_forget_button_leads_to_the_confirmation_page(db, frozen, console):
    old = confirmed(200)
    page = console.get("/review/").content.decode()
    form = page.split('value="forget"')[0].rsplit("<form", 1)[1]
    assert f'action="/review/{old}/"' in form and "hx-post" not in form
    assert "Forget…" in page


def test_a_bad_value_shows_the_error_in_the_item_and_changes_nothing(db, frozen, console):
    old = confirmed(200)
    before = (list(Memory.objects.values()), AuditEvent.objects.count())
    response = console.post(f"/review/{old}/", {"action": "expire", "ttl": "soon"}, **HTMX)
    page = response.content.decode()
    assert "ttl: TTL must be a positive number" in page and f'id="item-{old}"' in page and "Still true" in page
    response = console.post(f"/review/{old}/", {"action": "supersede", "text": ""}, follow=True)
    assert "text: must not be empty" in response.content.decode()
    assert console.post(f"/review/{old}/", {"action": "explode"}, **HTMX).status_code == 200
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before
