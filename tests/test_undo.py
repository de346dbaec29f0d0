"""The console's Undo: the confirmation banner's button, and reverting a change from a memory's history."""

import re
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from memories import lifecycle
from memories.lifecycle import policies
from memories.models import AuditEvent, Memory
from review import undo
from tests.console import ACTOR, HTMX, events, propose, text_of
from tests.factories import add_memory

pytestmark = pytest.mark.django_db


def undo_tokens(response):
    return re.findall(r'name="token" value="([^"]+)"', text_of(response))


def undo_button(response):
    [token] = undo_tokens(response)
    return token


def press_undo(console, response, **extra):
    return console.post("/undo/", {"token": undo_button(response), "next": "/pending/"}, follow=True, **extra)


# ---------------------------------------------------------------------------------------------------
# The banner's Undo


def test_an_approval_is_undone_from_the_banner(console):
    memory = propose()

    approved = console.post(f"/pending/{memory.pk}/approve/", {"next": "/pending/"}, follow=True)
    assert f"Approved #{memory.pk}." in text_of(approved)
    assert '<form class="undo" method="post" action="/undo/">' in text_of(approved)

    undone = press_undo(console, approved)

    assert f"Undone: Approved #{memory.pk}." in text_of(undone)
    assert undone.redirect_chain[-1][0] == "/pending/"
    assert Memory.objects.get(pk=memory.pk).state() == "pending"
    reopened = events(memory.pk)[-1]
    assert (reopened.event, reopened.actor, reopened.old, reopened.new) == (
        "reopen",
        ACTOR,
        {"status": "approved"},
        {"status": "pending"},
    )
    assert reopened.note == f"undo of event #{events(memory.pk, 'approve')[0].pk}"


def test_a_decision_swapped_in_by_htmx_carries_its_undo_button(console):
    memory = propose()

    outcome = console.post(
        f"/pending/{memory.pk}/reject/", HTTP_HX_CURRENT_URL="http://testserver/pending/?kind=preference", **HTMX
    )

    page = text_of(outcome)
    assert page.strip().startswith(f'<li class="item outcome ok" id="item-{memory.pk}"')
    assert 'name="next" value="/pending/?kind=preference"' in page  # back to the page it was pressed on
    undone = console.post("/undo/", {"token": undo_button(outcome), "next": "/pending/?kind=preference"})
    assert undone["Location"] == "/pending/?kind=preference"
    assert Memory.objects.get(pk=memory.pk).state() == "pending"


@pytest.mark.parametrize(
    ("act", "check"),
    [
        (lambda c, m: c.post(f"/memories/{m.pk}/pin/", follow=True), lambda m: not m.pinned),
        (
            lambda c, m: c.post(
                f"/memories/{m.pk}/edit/",
                {"text": "User likes green tea.", "kind": "fact", "subject": "tea", "scope": "core", "layer": "core"},
                follow=True,
            ),
            lambda m: (m.text, m.kind, m.subject, m.layer) == ("User likes tea.", "preference", "", "working"),
        ),
        (
            lambda c, m: c.post("/memories/bulk/", {"ids": [m.pk], "action": "pin", "confirm": "yes"}, follow=True),
            lambda m: not m.pinned,
        ),
    ],
    ids=["pin", "edit", "bulk pin"],
)
def test_changes_made_on_a_memory_are_undone_from_the_banner(console, act, check):
    memory = add_memory("User likes tea.")

    done = act(console, memory)
    undone = press_undo(console, done)

    assert "Undone: " in text_of(undone)
    memory.refresh_from_db()
    assert check(memory) and memory.state() == "live"


def test_an_added_memory_undone_is_hidden(console):
    added = console.post(
        "/memories/add/",
        {"add-text": "User's dog is Mochi.", "add-kind": "fact", "add-scope": "core", "add-layer": "working"},
        follow=True,
    )
    memory = Memory.objects.get()

    press_undo(console, added)

    assert Memory.objects.get(pk=memory.pk).state() == "deleted"
    assert not Memory.objects.live().exists()


def test_a_bulk_rejection_and_reject_everything_are_undone(console):
    memories = [propose(f"Proposal {i}.") for i in range(3)]

    rejected = console.post("/pending/decide/", {"ids": [m.pk for m in memories[:2]], "action": "reject"}, follow=True)
    press_undo(console, rejected)
    assert Memory.objects.pending().count() == 3

    everything = console.post("/pending/reject-all/", {"confirm": "yes"}, follow=True)
    assert "Rejected 3 proposals." in text_of(everything)
    press_undo(console, everything)
    assert Memory.objects.pending().count() == 3


def test_a_merge_and_a_resolved_contradiction_are_undone_from_the_banner(console):
    members = [add_memory("User prefers Vietnamese.", subject="language"), add_memory("User wants Vietnamese.")]
    merged = console.post(
        "/doctor/merge/", {"ids": [m.pk for m in members], "text": "User prefers Vietnamese replies."}, follow=True
    )
    merged_id = Memory.objects.exclude(pk__in=[m.pk for m in members]).get().pk
    assert undo_tokens(merged)

    press_undo(console, merged)
    assert all(Memory.objects.get(pk=m.pk).is_live() for m in members)
    assert Memory.objects.get(pk=merged_id).state() == "deleted"

    winner, loser = members
    resolved = console.post("/doctor/resolve/", {"ids": [winner.pk, loser.pk], "winner": winner.pk}, follow=True)
    assert Memory.objects.get(pk=loser.pk).state() == "superseded"
    press_undo(console, resolved)
    assert Memory.objects.get(pk=loser.pk).is_live()


def test_a_merge_made_with_htmx_carries_its_undo_button(console):
    members = [add_memory("User prefers Vietnamese.", subject="language"), add_memory("User wants Vietnamese.")]

    done = console.post("/doctor/merge/", {"ids": [m.pk for m in members], "text": "User prefers Vietnamese."}, **HTMX)

    assert 'id="merge-form"' in text_of(done)
    console.post("/undo/", {"token": undo_button(done), "next": "/doctor/"})
    assert all(Memory.objects.get(pk=m.pk).is_live() for m in members)


def test_a_drift_review_replacement_is_undone(console, settings):
    settings.BESTIE_DRIFT_AGE_DAYS = 0
    old = add_memory("User lives in Hà Nội.")
    Memory.objects.filter(pk=old.pk).update(confirmed_at=timezone.now() - timedelta(days=1))

    replaced = console.post(f"/review/{old.pk}/", {"action": "supersede", "text": "User lives in Huế."}, **HTMX)
    new = Memory.objects.exclude(pk=old.pk).get()
    console.post("/undo/", {"token": undo_button(replaced), "next": "/review/"})

    assert Memory.objects.get(pk=old.pk).is_live() and Memory.objects.get(pk=new.pk).state() == "deleted"


def test_what_cannot_be_undone_offers_no_button(console):
    memory = add_memory("User likes tea.")

    rejected = propose()
    lifecycle.reject([rejected.pk], actor=ACTOR)

    confirmed = console.post(f"/memories/{memory.pk}/confirm/", follow=True)
    refused = console.post(f"/memories/{rejected.pk}/pin/", follow=True)

    assert f"Confirmed #{memory.pk}." in text_of(confirmed) and not undo_tokens(confirmed)
    assert "only a live or pending memory can be pinned" in text_of(refused) and not undo_tokens(refused)


def test_an_undo_button_works_once_and_for_ten_minutes(console):
    first, second = propose("User likes tea."), propose("User likes coffee.")
    approved = console.post(f"/pending/{first.pk}/approve/", follow=True)
    token = undo_button(approved)
    console.post("/undo/", {"token": token})
    console.post(f"/pending/{first.pk}/approve/")

    again = console.post("/undo/", {"token": token}, follow=True)
    assert "This can no longer be undone from here" in text_of(again)
    assert Memory.objects.get(pk=first.pk).status == "approved"

    late = console.post(f"/pending/{second.pk}/approve/", follow=True)
    with time_machine.travel(timezone.now() + timedelta(minutes=undo.UNDO_MINUTES, seconds=1)):
        expired = console.post("/undo/", {"token": undo_button(late)}, follow=True)
    assert "Undo lasts 10 minutes and works once" in text_of(expired)
    assert Memory.objects.get(pk=second.pk).status == "approved"

    forged = console.post("/undo/", {"token": "not-a-token"}, follow=True)
    assert "This can no longer be undone from here" in text_of(forged)


def test_an_undo_refused_because_the_memory_changed_since_says_why_and_changes_nothing(console):
    memory = add_memory("User likes tea.")
    pinned = console.post(f"/memories/{memory.pk}/pin/", follow=True)
    lifecycle.unpin(memory.pk, actor="owner:cli")
    lifecycle.pin(memory.pk, actor="owner:cli")
    history = events(memory.pk)

    refused = press_undo(console, pinned)

    assert f"memory {memory.pk} has changed since: unpin by owner:cli" in text_of(refused)
    assert Memory.objects.get(pk=memory.pk).pinned and events(memory.pk) == history


def test_the_session_keeps_only_the_newest_undo_buttons(console):
    memory = add_memory("User likes tea.")
    for _ in range(undo.KEPT):
        console.post(f"/memories/{memory.pk}/pin/")
        console.post(f"/memories/{memory.pk}/unpin/")

    kept = list(console.session[undo.SESSION_KEY].values())
    assert len(kept) == undo.KEPT
    assert kept[-1]["text"] == f"Unpinned #{memory.pk}." and kept[-1]["events"] == [events(memory.pk)[-1].pk]


def test_an_action_too_big_to_keep_offers_no_undo(console, monkeypatch):
    monkeypatch.setattr(undo, "MOST_EVENTS", 2)
    memories = [propose(f"Proposal {i}.") for i in range(3)]

    rejected = console.post("/pending/decide/", {"ids": [m.pk for m in memories], "action": "reject"}, follow=True)

    assert "Rejected 3 proposals." in text_of(rejected) and not undo_tokens(rejected)


def test_undo_speaks_the_consoles_language(console):
    memory = add_memory("Người dùng thích phở.")
    console.post("/i18n/setlang/", {"language": "vi", "next": "/"})

    pinned = console.post(f"/memories/{memory.pk}/pin/", follow=True)
    lifecycle.unpin(memory.pk, actor="owner:cli")
    lifecycle.pin(memory.pk, actor="owner:cli")
    refused = press_undo(console, pinned)

    assert f"Đã ghim #{memory.pk}." in text_of(pinned) and ">Hoàn tác</button>" in text_of(pinned)
    assert f"ký ức {memory.pk} đã thay đổi kể từ đó: unpin bởi owner:cli" in text_of(refused)


def test_undo_needs_the_login_and_the_csrf_token(owner, client):
    memory = propose()
    console = Client(enforce_csrf_checks=True)
    console.force_login(owner)
    page = text_of(console.get("/pending/"))
    csrf = page.split('"X-CSRFToken": "')[1].split('"')[0]
    approved = console.post(f"/pending/{memory.pk}/approve/", HTTP_X_CSRFTOKEN=csrf, follow=True)
    token = undo_button(approved)

    assert client.post("/undo/", {"token": token})["Location"].startswith("/login/")
    assert console.post("/undo/", {"token": token}).status_code == 403
    assert Memory.objects.get(pk=memory.pk).status == "approved"
    assert console.post("/undo/", {"token": token}, HTTP_X_CSRFTOKEN=csrf).status_code == 302
    assert Memory.objects.get(pk=memory.pk).status == "pending"


# ---------------------------------------------------------------------------------------------------
# Reverting from a memory's history


def revert_buttons(response):
    return [int(i) for i in re.findall(r'action="/history/(\d+)/revert/"', text_of(response))]


def test_the_history_offers_revert_for_the_changes_that_can_be_undone_now(console):
    memory = add_memory("User likes tea.")
    lifecycle.edit(memory.pk, "User likes green tea.", actor=ACTOR)
    lifecycle.pin(memory.pk, actor=ACTOR)
    lifecycle.confirm(memory.pk, actor=ACTOR)
    _add, edit, pin, _confirm = events(memory.pk)

    page = console.get(f"/memories/{memory.pk}/")

    assert revert_buttons(page) == [edit.pk, pin.pk]
    assert "Revert this edit" in text_of(page)


def test_reverting_from_the_history_is_a_change_with_its_own_undo(console):
    memory = add_memory("User likes tea.")
    lifecycle.edit(memory.pk, "User likes green tea.", actor="owner:cli")
    edit = events(memory.pk, "edit")[0]

    reverted = console.post(f"/history/{edit.pk}/revert/", follow=True)

    assert Memory.objects.get(pk=memory.pk).text == "User likes tea."
    assert "Reverted the edit of " in text_of(reverted)
    revert = events(memory.pk)[-1]
    assert (revert.event, revert.actor, revert.note) == ("edit", ACTOR, f"undo of event #{edit.pk}")
    # The edit is undone, so only its undo can be reverted (an add is undone from its banner only).
    assert revert_buttons(reverted) == [revert.pk]

    press_undo(console, reverted)
    assert Memory.objects.get(pk=memory.pk).text == "User likes green tea."


def test_a_revert_refused_is_shown_and_changes_nothing(console):
    memory = add_memory("User likes tea.")
    lifecycle.pin(memory.pk, actor=ACTOR)
    pin = events(memory.pk, "pin")[0]
    lifecycle.unpin(memory.pk, actor=ACTOR)
    history = events(memory.pk)

    refused = console.post(f"/history/{pin.pk}/revert/", **HTMX)
    page = text_of(console.get(f"/memories/{memory.pk}/", **HTMX))

    assert '"target": "#detail"' in refused["HX-Location"]
    assert f"memory {memory.pk} has changed since: unpin by {ACTOR}" in page
    assert events(memory.pk) == history
    assert console.post(f"/history/{10**9}/revert/").status_code == 404
    policies.pause(actor=ACTOR)
    policy = AuditEvent.objects.get(event="policy")
    assert console.post(f"/history/{policy.pk}/revert/").status_code == 404  # not a memory's change


def test_reverting_needs_the_login_and_the_csrf_token(owner, client):
    memory = add_memory("User likes tea.")
    lifecycle.pin(memory.pk, actor=ACTOR)
    pin = events(memory.pk, "pin")[0]
    console = Client(enforce_csrf_checks=True)
    console.force_login(owner)

    assert client.post(f"/history/{pin.pk}/revert/")["Location"].startswith("/login/")
    assert console.post(f"/history/{pin.pk}/revert/").status_code == 403
    assert Memory.objects.get(pk=memory.pk).pinned
