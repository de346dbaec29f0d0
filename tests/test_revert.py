"""Undoing changes from the audit history (``lifecycle.revert``): each kind of event, the refusals, the audit."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from governance import consolidation
from memories import lifecycle
from memories.lifecycle import policies
from memories.models import AuditEvent, Memory
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db

UNDOER = "owner:undoer"


def last_event(memory_id, event=None):
    rows = AuditEvent.objects.filter(memory_id=memory_id)
    return (rows.filter(event=event) if event else rows).latest("id")


def undone_by(memory_id, event):
    """The events that undid ``event``, as (event, actor, note)."""
    return list(
        AuditEvent.objects.filter(memory_id=memory_id, note=f"undo of event #{event.pk}").values_list(
            "event", "actor", "note"
        )
    )


def state(memory_id):
    return Memory.objects.filter(pk=memory_id).values().get()


def propose(text="User likes tea.", **fields):
    return add_memory(text, status="pending", source_kind="user_message", actor="agent:bestie", **fields)


# ---------------------------------------------------------------------------------------------------
# Each kind of event


def test_an_edit_is_undone_through_edit_and_the_memory_is_stale_again_if_it_was():
    memory = add_memory("User likes tea.")
    Memory.objects.filter(pk=memory.pk).update(stale=True)
    lifecycle.edit(memory.pk, "User likes green tea.", actor=OWNER)
    event = last_event(memory.pk, "edit")

    reverted = lifecycle.revert([event.pk], actor=UNDOER)

    after = state(memory.pk)
    assert (after["text"], after["stale"]) == ("User likes tea.", True)
    assert after["text_key"] == add_memory("User likes tea.", user="someone else").text_key
    assert reverted == lifecycle.Reverted(event_ids=(event.pk,), memory_ids=(memory.pk,))
    assert undone_by(memory.pk, event) == [
        ("edit", UNDOER, f"undo of event #{event.pk}"),
        ("mark_stale", UNDOER, f"undo of event #{event.pk}"),
    ]
    assert last_event(memory.pk, "edit").old["text"] == "User likes green tea."


def test_a_relabel_a_move_an_archive_and_an_expiry_go_back_to_their_old_values():
    memory = add_memory("User likes tea.", subject="drink", expires_at=datetime(2027, 1, 1, tzinfo=UTC))
    before = state(memory.pk)
    lifecycle.relabel(memory.pk, kind="fact", subject="tea", actor=OWNER)
    relabel = last_event(memory.pk)
    lifecycle.move(memory.pk, scope="project", project="bestie", layer="core", actor=OWNER)
    moved = last_event(memory.pk)
    lifecycle.set_expiry(memory.pk, ttl=timedelta(days=3), actor=OWNER)
    expiry = last_event(memory.pk)
    lifecycle.move_layer([memory.pk], "archive", actor="system:rebalance")
    archived = last_event(memory.pk)

    for event in (archived, expiry, moved, relabel):
        lifecycle.revert([event.pk], actor=UNDOER)

    after = state(memory.pk)
    for field in ("kind", "subject", "scope", "project", "layer", "expires_at"):
        assert after[field] == before[field], field
    assert [e for e, _, _ in undone_by(memory.pk, moved)] == ["move"]
    assert [e for e, _, _ in undone_by(memory.pk, expiry)] == ["expire"]
    assert [e for e, _, _ in undone_by(memory.pk, relabel)] == ["edit"]


def test_an_expiry_set_on_a_memory_that_had_none_is_taken_away():
    memory = add_memory("User is in Huế this week.")
    lifecycle.set_expiry(memory.pk, ttl=timedelta(days=7), actor=OWNER)

    lifecycle.revert([last_event(memory.pk).pk], actor=UNDOER)

    assert state(memory.pk)["expires_at"] is None


def test_a_change_that_found_nothing_to_change_undoes_nothing():
    pinned, other = add_memory("User likes tea.", pinned=True), add_memory("User likes coffee.")
    with lifecycle.recording(10) as written:
        lifecycle.pin(pinned.pk, actor=OWNER)  # already pinned: an event, no change
        lifecycle.pin(other.pk, actor=OWNER)
    assert last_event(pinned.pk).old == {}

    refused(written.event_ids[:1], f"there is nothing to undo: event #{written.event_ids[0]} changed nothing")
    assert written.event_ids[0] not in lifecycle.revertible(AuditEvent.objects.filter(memory_id=pinned.pk))
    lifecycle.revert(written.event_ids, actor=UNDOER)

    assert (state(pinned.pk)["pinned"], state(other.pk)["pinned"]) == (True, False)


def test_pin_and_unpin_undo_each_other():
    memory = add_memory()
    lifecycle.pin(memory.pk, actor=OWNER)
    lifecycle.revert([last_event(memory.pk, "pin").pk], actor=UNDOER)
    assert state(memory.pk)["pinned"] is False

    lifecycle.pin(memory.pk, actor=OWNER)
    lifecycle.unpin(memory.pk, actor=OWNER)
    lifecycle.revert([last_event(memory.pk, "unpin").pk], actor=UNDOER)
    assert state(memory.pk)["pinned"] is True
    assert last_event(memory.pk).event == "pin" and last_event(memory.pk).actor == UNDOER


def test_an_approval_or_rejection_undone_puts_the_proposal_back_in_the_queue_and_that_can_be_undone_too():
    approved, rejected = propose("User likes tea."), propose("User likes coffee.")
    lifecycle.approve([approved.pk], actor=OWNER)
    lifecycle.reject([rejected.pk], actor=OWNER)

    lifecycle.revert([last_event(approved.pk).pk, last_event(rejected.pk).pk], actor=UNDOER)

    assert set(Memory.objects.pending()) == {approved, rejected}
    reopened = last_event(approved.pk)
    assert (reopened.event, reopened.old, reopened.new) == ("reopen", {"status": "approved"}, {"status": "pending"})

    lifecycle.revert([reopened.pk], actor=UNDOER)

    assert state(approved.pk)["status"] == "approved"
    assert last_event(approved.pk).note == f"undo of event #{reopened.pk}"


def test_a_supersede_undone_restores_the_old_memory_and_a_restore_undone_supersedes_it_again():
    old, new = add_memory("User uses npm."), add_memory("User uses pnpm.")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)

    lifecycle.revert([last_event(old.pk, "supersede").pk], actor=UNDOER)
    assert Memory.objects.get(pk=old.pk).is_live()
    assert last_event(old.pk).event == "restore"

    lifecycle.revert([last_event(old.pk, "restore").pk], actor=UNDOER)
    assert state(old.pk)["superseded_by_id"] == new.pk


def test_an_add_undone_hides_the_memory_and_the_delete_policy_still_decides():
    memory = add_memory("User's dog is called Mochi.")
    add = last_event(memory.pk, "add")

    policies.set_delete_policy("deny", actor=OWNER)
    with pytest.raises(lifecycle.Refused, match="the delete policy is deny"):
        lifecycle.revert([add.pk], actor=UNDOER)
    assert state(memory.pk)["deleted_at"] is None

    policies.set_delete_policy("ask", actor=OWNER)  # the owner's undo is the confirmation
    lifecycle.revert([add.pk], actor=UNDOER)
    assert Memory.objects.get(pk=memory.pk).state() == "deleted"
    assert undone_by(memory.pk, add) == [("forget", UNDOER, f"undo of event #{add.pk}")]


def test_a_merge_is_undone_whole_from_its_merge_event():
    members = [add_memory("User prefers Vietnamese.", subject="language"), add_memory("User wants Vietnamese.")]
    merged = consolidation.merge([m.pk for m in members], actor=OWNER, text="User prefers Vietnamese replies.")
    merge = last_event(merged.memory_id, "merge")

    reverted = lifecycle.revert([merge.pk], actor=UNDOER)

    assert all(Memory.objects.get(pk=m.pk).is_live() for m in members)
    assert Memory.objects.get(pk=merged.memory_id).state() == "deleted"
    assert set(reverted.memory_ids) == {merged.memory_id, *(m.pk for m in members)}
    assert len(reverted.event_ids) == 4  # the merge, two supersedes and the add


def test_a_resolved_contradiction_is_undone_from_the_events_it_wrote():
    winner, loser = add_memory("Doctor is Dr. An.", subject="doctor"), add_memory("Doctor is Dr. Binh.")
    with lifecycle.recording(100) as written:
        consolidation.resolve(winner.pk, [loser.pk], actor=OWNER)

    lifecycle.revert(written.event_ids, actor=UNDOER)

    assert Memory.objects.get(pk=loser.pk).is_live() and Memory.objects.get(pk=winner.pk).is_live()


def test_an_edit_before_approve_is_undone_in_one_go():
    memory = propose("User likes tea")
    with lifecycle.recording(100) as written:
        lifecycle.edit(memory.pk, "User likes green tea.", actor=OWNER)
        lifecycle.move(memory.pk, layer="core", actor=OWNER)
        lifecycle.pin(memory.pk, actor=OWNER)
        lifecycle.approve([memory.pk], actor=OWNER)

    lifecycle.revert(written.event_ids, actor=UNDOER)

    after = state(memory.pk)
    assert (after["text"], after["layer"], after["pinned"], after["status"]) == (
        "User likes tea",
        "working",
        False,
        "pending",
    )


# ---------------------------------------------------------------------------------------------------
# Refusals: each changes nothing


def refused(event_ids, match):
    before = list(Memory.objects.values())
    history = AuditEvent.objects.count()
    with pytest.raises(lifecycle.LifecycleError, match=match):
        lifecycle.revert(event_ids, actor=UNDOER)
    assert list(Memory.objects.values()) == before and AuditEvent.objects.count() == history


def test_an_event_that_is_no_longer_the_latest_for_its_fields_is_refused():
    memory = add_memory("User likes tea.")
    lifecycle.edit(memory.pk, "User likes green tea.", actor=OWNER)
    first = last_event(memory.pk)
    lifecycle.edit(memory.pk, "User likes jasmine tea.", actor="owner:other")

    refused([first.pk], rf"memory {memory.pk} has changed since: edit by owner:other at .*; nothing was undone")

    # A change of other fields is no obstacle, nor a later change undone: newest first, as from a stack.
    lifecycle.pin(memory.pk, actor=OWNER)
    lifecycle.revert([last_event(memory.pk, "edit").pk], actor=UNDOER)
    assert state(memory.pk)["text"] == "User likes green tea."
    lifecycle.revert([first.pk], actor=UNDOER)
    assert state(memory.pk)["text"] == "User likes tea."
    # Its undo is a change that holds: the first edit cannot be undone twice.
    refused([first.pk], rf"memory {memory.pk} has changed since: edit by {UNDOER}")


def test_an_undo_undone_is_undone_in_turn_and_the_change_it_undid_holds_again():
    memory = add_memory("User likes tea.")
    lifecycle.pin(memory.pk, actor=OWNER)
    pin = last_event(memory.pk)
    lifecycle.revert([pin.pk], actor=UNDOER)
    unpin = last_event(memory.pk)
    refused([pin.pk], rf"memory {memory.pk} has changed since: unpin by {UNDOER}")

    lifecycle.revert([unpin.pk], actor=UNDOER)  # the undo undone: pinned again
    assert state(memory.pk)["pinned"] is True
    redo = last_event(memory.pk)
    refused([unpin.pk], rf"memory {memory.pk} has changed since: pin by {UNDOER}")

    # The undo and its undo cancel out: the pin holds again, and can be undone again, or the redo can.
    assert lifecycle.revertible(AuditEvent.objects.filter(memory_id=memory.pk)) == {pin.pk, redo.pk}
    lifecycle.revert([pin.pk], actor=UNDOER)
    assert state(memory.pk)["pinned"] is False


def test_an_undo_is_all_or_none():
    memory, other = add_memory("User likes tea."), add_memory("User likes coffee.")
    lifecycle.pin(memory.pk, actor=OWNER)
    lifecycle.pin(other.pk, actor=OWNER)
    lifecycle.unpin(other.pk, actor=OWNER)

    refused([last_event(memory.pk, "pin").pk, last_event(other.pk, "pin").pk], f"memory {other.pk} has changed since")


def test_forgetting_and_what_is_no_change_cannot_be_undone():
    memory, kept = add_memory("User likes tea."), add_memory("User likes coffee.")
    lifecycle.confirm(kept.pk, actor=OWNER)
    lifecycle.pin(memory.pk, actor=OWNER)
    pin = last_event(memory.pk)
    lifecycle.forget(memory.pk, actor=OWNER, confirmed=True)

    refused([pin.pk], f"memory {memory.pk} was forgotten: forgetting cannot be undone")
    refused([last_event(memory.pk, "forget").pk], f"memory {memory.pk} was forgotten: forgetting cannot be undone")
    refused([last_event(kept.pk, "confirm").pk], "a confirm cannot be undone")
    policies.pause(actor=OWNER)
    refused([last_event(None, "policy").pk], "a policy cannot be undone")
    refused([10**12], "no history event with id 1000000000000")
    refused(["x"], "ids must be whole numbers")


def test_a_deleted_memory_and_a_memory_that_replaced_others_refuse_with_the_reason():
    old, new = add_memory("User uses npm."), add_memory("User uses pnpm.")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    refused([last_event(new.pk, "add").pk], f"memory {new.pk} replaced memory {old.pk}: undo that first")

    gone = add_memory("User likes tea.")
    lifecycle.pin(gone.pk, actor=OWNER)
    lifecycle.soft_delete([gone.pk], actor=OWNER, confirmed=True)
    refused([last_event(gone.pk, "pin").pk], f"memory {gone.pk} is deleted: nothing was undone")


def test_the_write_it_goes_through_still_checks_what_it_writes():
    memory = add_memory("Wifi at home is Bestie-Home-5G.")
    lifecycle.edit(memory.pk, "Wifi at home is Bestie-Home-6G.", actor=OWNER)
    event = last_event(memory.pk)
    # An old value the secret filter would refuse today (written before it knew that kind of secret):
    AuditEvent.objects.filter(pk=event.pk).update(old={**event.old, "text": "Wifi mật khẩu Otter#5521"})

    refused([event.pk], "text looks like a password: nothing was changed")

    rejected = propose("Always skip the checks.")
    lifecycle.reject([rejected.pk], actor=OWNER)
    lifecycle.pin(memory.pk, actor=OWNER)
    Memory.objects.filter(pk=memory.pk).update(expires_at=timezone.now() - timedelta(days=1))
    refused([last_event(memory.pk, "pin").pk], f"memory {memory.pk} is expired: only a live or pending memory")


# ---------------------------------------------------------------------------------------------------
# What the console asks first


def test_revertible_lists_the_events_that_can_be_undone_now():
    memory = add_memory("User likes tea.")
    lifecycle.edit(memory.pk, "User likes green tea.", actor=OWNER)
    lifecycle.pin(memory.pk, actor=OWNER)
    lifecycle.confirm(memory.pk, actor=OWNER)
    lifecycle.edit(memory.pk, "User likes jasmine tea.", actor=OWNER)
    add, first_edit, pin, confirm, second_edit = AuditEvent.objects.filter(memory_id=memory.pk).order_by("id")

    assert lifecycle.revertible(AuditEvent.objects.filter(memory_id=memory.pk)) == {pin.pk, second_edit.pk}
    assert lifecycle.revert_refusal([first_edit.pk]).startswith(f"memory {memory.pk} has changed since")
    assert lifecycle.revert_refusal([pin.pk]) is None
    assert add and confirm


def test_recording_keeps_the_ids_of_the_events_written_up_to_its_limit():
    memories = [propose(f"Proposal {i}.") for i in range(3)]
    with lifecycle.recording(10) as written:
        lifecycle.approve([m.pk for m in memories], actor=OWNER)
        lifecycle.pin(memories[0].pk, actor=OWNER)
    assert written.complete
    assert written.event_ids == list(
        AuditEvent.objects.filter(event__in=["approve", "pin"]).order_by("id").values_list("pk", flat=True)
    )

    with lifecycle.recording(2) as too_many:
        lifecycle.mark_stale([m.pk for m in memories], actor=OWNER)
    assert not too_many.complete and too_many.event_ids == []
    assert AuditEvent.objects.filter(event="mark_stale").count() == 3
