from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from memories import lifecycle, rows, search
from memories.lifecycle import policies
from memories.models import AuditEvent, Layer, Memory, Status
from tests.factories import OWNER, add_memory


def foreign_key_violations():
    if connection.vendor != "sqlite":
        return []
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA foreign_key_check")
        return cursor.fetchall()


def events(memory_id):
    return list(AuditEvent.objects.filter(memory_id=memory_id).values_list("event", flat=True))


@pytest.fixture(autouse=True)
def _chains_stay_intact(db):
    yield
    assert foreign_key_violations() == []


def test_add_records_every_field_and_an_add_event():
    memory = add_memory(
        "Đang làm dự án Bestie tuần này.",
        kind="project_context",
        subject="focus",
        scope="project",
        project="bestie",
        user="owner",
        channel="telegram:1",
        layer="core",
        pinned=True,
        confidence=0.7,
        ttl=timedelta(days=7),
    )
    memory.refresh_from_db()
    assert (memory.scope, memory.project, memory.layer, memory.pinned) == ("project", "bestie", "core", True)
    assert memory.status == Status.APPROVED and memory.confidence == 0.7
    assert memory.expires_at - memory.created_at == pytest.approx(timedelta(days=7), abs=timedelta(seconds=1))
    event = AuditEvent.objects.get(memory_id=memory.pk)
    assert (event.event, event.actor, event.old) == ("add", OWNER, None)
    assert event.new["text"] == "Đang làm dự án Bestie tuần này."


def test_pending_status_is_recorded_as_a_proposal():
    memory = add_memory(status="pending", source_kind="user_message")
    assert events(memory.pk) == ["propose"]
    assert list(Memory.objects.pending()) == [memory]
    assert not Memory.objects.live().exists()


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"text": "   "}, "text"),
        ({"text": "x" * 2001}, "text"),
        ({"kind": "Not A Slug"}, "kind"),
        ({"scope": "galaxy"}, "scope"),
        ({"layer": "attic"}, "layer"),
        ({"source": ""}, "source"),
        ({"source_kind": "rumour"}, "source_kind"),
        ({"confidence": 1.5}, "confidence"),
        ({"confidence": "sure"}, "confidence"),
        ({"scope": "project"}, "project"),
        ({"ttl": timedelta(days=-1)}, "ttl"),
    ],
)
def test_add_refuses_bad_values_and_stores_nothing(fields, field):
    with pytest.raises(lifecycle.InvalidValue) as error:
        add_memory(**fields)
    assert error.value.field == field
    assert Memory.objects.count() == 0 and AuditEvent.objects.count() == 0


def test_pause_and_deny_refuse_writes_and_say_how_to_undo():
    policies.pause(actor=OWNER)
    with pytest.raises(lifecycle.Refused, match="resume"):
        add_memory()
    policies.resume(actor=OWNER)
    policies.set_write_policy("deny", actor=OWNER)
    with pytest.raises(lifecycle.Refused, match="write policy is deny"):
        add_memory()
    assert Memory.objects.count() == 0
    assert list(AuditEvent.objects.values_list("event", "new")) == [
        ("policy", {"paused": True}),
        ("policy", {"paused": False}),
        ("policy", {"write_policy": "deny"}),
    ]


def test_edit_pin_move_confirm_record_old_and_new_values():
    memory = add_memory()
    lifecycle.edit(memory.pk, "User prefers short replies.", actor=OWNER)
    lifecycle.pin(memory.pk, actor=OWNER)
    lifecycle.unpin(memory.pk, actor=OWNER)
    lifecycle.move(memory.pk, scope="project", project="bestie", layer="archive", actor=OWNER)
    Memory.objects.filter(pk=memory.pk).update(stale=True)
    lifecycle.confirm(memory.pk, actor=OWNER)
    memory.refresh_from_db()
    assert memory.text == "User prefers short replies."
    assert (memory.scope, memory.project, memory.layer, memory.pinned, memory.stale) == (
        "project",
        "bestie",
        "archive",
        False,
        False,
    )
    assert events(memory.pk) == ["add", "edit", "pin", "unpin", "move", "confirm"]
    edit_event = AuditEvent.objects.get(memory_id=memory.pk, event="edit")
    assert edit_event.old["text"] == "User prefers concise replies."
    assert edit_event.new["text"] == "User prefers short replies."
    move_event = AuditEvent.objects.get(memory_id=memory.pk, event="move")
    assert move_event.old == {"scope": "core", "project": "", "layer": "working"}


def _memory_that_is(state):
    """A memory in one of the states that are history, not current."""
    memory = add_memory(f"A {state} memory.", status="pending" if state == "rejected" else "approved")
    if state == "rejected":
        lifecycle.reject([memory.pk], actor=OWNER)
    elif state == "superseded":
        lifecycle.supersede(memory.pk, add_memory("Its replacement.").pk, actor=OWNER)
    elif state == "expired":
        Memory.objects.filter(pk=memory.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    else:
        Memory.objects.filter(pk=memory.pk).update(deleted_at=timezone.now())
    return Memory.objects.get(pk=memory.pk)


@pytest.mark.parametrize("state", ["rejected", "superseded", "expired", "deleted"])
@pytest.mark.parametrize(
    ("change", "done"), [(lifecycle.pin, "pinned"), (lifecycle.unpin, "unpinned"), (lifecycle.confirm, "confirmed")]
)
def test_pin_unpin_and_confirm_refuse_a_memory_that_is_history(state, change, done):
    memory = _memory_that_is(state)
    before = (Memory.objects.filter(pk=memory.pk).values().get(), events(memory.pk))
    with pytest.raises(lifecycle.Refused) as refusal:
        change(memory.pk, actor=OWNER)
    assert str(refusal.value) == f"memory {memory.pk} is {state}: only a live or pending memory can be {done}"
    assert (Memory.objects.filter(pk=memory.pk).values().get(), events(memory.pk)) == before


def test_pin_unpin_and_confirm_still_take_stale_and_pending_memories():
    stale, waiting = add_memory("A stale memory."), add_memory("A proposal.", status="pending")
    Memory.objects.filter(pk=stale.pk).update(stale=True)
    for memory in (stale, waiting):
        lifecycle.pin(memory.pk, actor=OWNER)
        lifecycle.unpin(memory.pk, actor=OWNER)
        lifecycle.confirm(memory.pk, actor=OWNER)
        assert events(memory.pk)[-3:] == ["pin", "unpin", "confirm"]


def test_edit_keeps_full_text_search_in_sync():
    memory = add_memory("Người dùng thích phở Hà Nội.")
    assert list(search.matching(Memory.objects.all(), "ha noi")) == [memory]
    lifecycle.edit(memory.pk, "Người dùng thích bún chả Đà Nẵng.", actor=OWNER)
    assert list(search.matching(Memory.objects.all(), "ha noi")) == []
    assert list(search.matching(Memory.objects.all(), "da nang bun")) == [memory]


def test_operations_on_unknown_ids_name_the_id():
    with pytest.raises(lifecycle.NotFound, match="no memory with id 999"):
        lifecycle.pin(999, actor=OWNER)
    with pytest.raises(lifecycle.InvalidValue, match="whole number"):
        lifecycle.forget("abc", actor=OWNER, confirmed=True)
    with pytest.raises(lifecycle.NotFound, match="998"):
        lifecycle.approve([998], actor=OWNER)


def test_expired_memory_leaves_live_queries_at_the_exact_moment():
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False):
        memory = add_memory("Away from keyboard this week.", kind="fact", ttl=timedelta(days=7))
    with time_machine.travel("2026-05-08 08:59:59Z", tick=False):
        assert list(Memory.objects.live()) == [memory]
        assert list(Memory.objects.injectable()) == [memory]
    with time_machine.travel("2026-05-08 09:00:00Z", tick=False):
        assert not Memory.objects.live().exists()
        assert not Memory.objects.injectable().exists()
        assert Memory.objects.get().state() == "expired"


def test_live_memory_view_matches_the_queryset():
    live = add_memory()
    add_memory(status="pending")
    add_memory(expires_at=timezone.now() - timedelta(seconds=1))
    archived = add_memory(layer="archive")
    old = add_memory()
    lifecycle.supersede(old.pk, live.pk, actor=OWNER)
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM live_memory ORDER BY id")
        assert [row[0] for row in cursor.fetchall()] == [live.pk, archived.pk]
    assert list(Memory.objects.live().values_list("pk", flat=True)) == [live.pk, archived.pk]
    assert list(Memory.objects.injectable()) == [live]


def test_set_expiry_and_clear_it():
    memory = add_memory()
    lifecycle.set_expiry(memory.pk, ttl=timedelta(hours=1), actor=OWNER)
    memory.refresh_from_db()
    assert memory.expires_at is not None
    lifecycle.set_expiry(memory.pk, actor=OWNER)
    memory.refresh_from_db()
    assert memory.expires_at is None
    assert events(memory.pk) == ["add", "expire", "expire"]


def test_supersede_hides_the_old_memory_for_good():
    old = add_memory("Prefers npm.", subject="package_manager")
    new = add_memory("Prefers pnpm.", subject="package_manager")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    assert list(Memory.objects.live()) == [new]
    old.refresh_from_db()
    assert old.superseded_by == new and old.state() == "superseded"
    # Touching the old one does not bring it back, and it cannot be confirmed as still true.
    with pytest.raises(lifecycle.Refused):
        lifecycle.confirm(old.pk, actor=OWNER)
    lifecycle.edit(old.pk, "Prefers yarn.", actor=OWNER)
    assert list(Memory.objects.live()) == [new]
    assert events(old.pk)[-2:] == ["supersede", "edit"]


def test_supersede_refuses_loops_and_hidden_targets():
    a, b, c = add_memory("a"), add_memory("b"), add_memory("c")
    with pytest.raises(lifecycle.InvalidValue, match="itself"):
        lifecycle.supersede(a.pk, a.pk, actor=OWNER)
    lifecycle.supersede(a.pk, b.pk, actor=OWNER)
    with pytest.raises(lifecycle.LifecycleError, match="already superseded by memory"):
        lifecycle.supersede(a.pk, c.pk, actor=OWNER)
    # b -> a would close a loop; a is hidden, so it cannot be the newer version.
    with pytest.raises(lifecycle.LifecycleError, match="only a live memory"):
        lifecycle.supersede(b.pk, a.pk, actor=OWNER)
    pending = add_memory("d", status="pending")
    with pytest.raises(lifecycle.LifecycleError, match="pending"):
        lifecycle.supersede(c.pk, pending.pk, actor=OWNER)
    assert Memory.objects.filter(superseded_by__isnull=False).count() == 1


def test_forget_removes_the_chain_it_superseded():
    first, second, third = add_memory("npm"), add_memory("yarn"), add_memory("pnpm")
    other = add_memory("unrelated")
    lifecycle.supersede(first.pk, second.pk, actor=OWNER)
    lifecycle.supersede(second.pk, third.pk, actor=OWNER)
    erased = lifecycle.forget(third.pk, actor=OWNER, confirmed=True).erased
    assert sorted(erased) == sorted([first.pk, second.pk, third.pk])
    assert list(Memory.objects.all()) == [other]
    for memory_id in erased:
        assert events(memory_id)[-1] == "forget"


def test_forget_can_restore_the_previous_version():
    old, new = add_memory("Prefers npm."), add_memory("Prefers pnpm.")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    forgotten = lifecycle.forget(new.pk, actor=OWNER, confirmed=True, restore_previous=True)
    assert (forgotten.erased, forgotten.restored) == ([new.pk], [old.pk])
    assert list(Memory.objects.live()) == [old]
    assert events(old.pk)[-1] == "restore"
    with pytest.raises(lifecycle.LifecycleError, match="nothing to restore"):
        lifecycle.forget(old.pk, actor=OWNER, confirmed=True, restore_previous=True)
    assert list(Memory.objects.live()) == [old]


def test_forget_keeps_only_a_hash_in_the_history():
    memory = add_memory("Secret-ish: owner's doctor is Dr. Nguyễn.")
    lifecycle.edit(memory.pk, "Owner's doctor is Dr. Trần.", actor=OWNER)
    lifecycle.forget(memory.pk, actor=OWNER, confirmed=True)
    history = list(AuditEvent.objects.filter(memory_id=memory.pk).values("event", "old", "new", "note", "text_sha256"))
    assert [h["event"] for h in history] == ["add", "edit", "forget"]
    assert all(h["old"] is None and h["new"] is None for h in history)
    assert history[-1]["text_sha256"] == lifecycle.text_sha256("Owner's doctor is Dr. Trần.")
    assert "Trần" not in repr(list(AuditEvent.objects.values()))
    assert list(search.matching(Memory.objects.all(), "doctor")) == []


def test_approve_and_reject_only_pending_and_are_set_based(django_assert_max_num_queries):
    pending = [add_memory(f"proposal {i}", status="pending") for i in range(30)]
    live = add_memory("already approved")
    with pytest.raises(lifecycle.LifecycleError, match=f"not pending: memory {live.pk} \\(live\\)"):
        lifecycle.approve([pending[0].pk, live.pk], actor=OWNER)
    assert Memory.objects.pending().count() == 30
    with django_assert_max_num_queries(8):
        assert lifecycle.approve([m.pk for m in pending[:20]], actor=OWNER) == 20
    assert lifecycle.reject([pending[20].pk], actor=OWNER) == 1
    assert lifecycle.reject_all(actor=OWNER) == 9
    assert Memory.objects.filter(status=Status.APPROVED).count() == 21
    assert Memory.objects.filter(status=Status.REJECTED).count() == 10
    assert AuditEvent.objects.filter(event="approve", actor=OWNER).count() == 20
    assert AuditEvent.objects.filter(event="reject").count() == 10
    assert lifecycle.reject_all(actor=OWNER) == 0


def test_clear_erases_everything_and_respects_delete_policy_deny():
    a, b = add_memory("a"), add_memory("b")
    lifecycle.supersede(a.pk, b.pk, actor=OWNER)
    policies.set_delete_policy("deny", actor=OWNER)
    with pytest.raises(lifecycle.Refused, match="delete policy is deny"):
        lifecycle.clear(actor=OWNER, confirmed=True)
    assert Memory.objects.count() == 2
    policies.set_delete_policy("ask", actor=OWNER)
    assert lifecycle.clear(actor=OWNER, confirmed=True) == 2
    assert Memory.objects.count() == 0 and AuditEvent.objects.count() == 0
    assert list(search.matching(Memory.objects.all(), "a")) == []


def test_layers_and_injectable_exclude_archive_and_stale():
    working = add_memory(layer=Layer.WORKING)
    add_memory(layer=Layer.ARCHIVE)
    stale = add_memory()
    Memory.objects.filter(pk=stale.pk).update(stale=True)
    assert list(Memory.objects.injectable()) == [working]
    assert Memory.objects.live().count() == 3


@pytest.mark.django_db
def test_the_write_paths_own_row_reads_and_updates_match_the_orm():
    memory = add_memory(ttl=timedelta(days=3), project="bestie", scope="project")
    memory = lifecycle.move(memory.pk, actor=OWNER, layer=Layer.ARCHIVE)
    Memory.objects.filter(pk=memory.pk).update(flags=["tool_output"], last_accessed_at=timezone.now())
    expected = Memory.objects.get(pk=memory.pk)

    found = rows.get(Memory, memory.pk, for_update=True)
    fields = [field.attname for field in Memory._meta.concrete_fields]
    assert {f: getattr(found, f) for f in fields} == {f: getattr(expected, f) for f in fields}
    assert isinstance(found.expires_at, type(expected.expires_at)) and found.flags == ["tool_output"]
    assert rows.get(Memory, memory.pk + 1000) is None

    found.text, found.stale = "User prefers short answers.", True
    rows.update(found, ["text", "stale"])
    again = Memory.objects.get(pk=memory.pk)
    assert (again.text, again.stale, again.layer) == ("User prefers short answers.", True, Layer.ARCHIVE)


@pytest.mark.django_db
def test_the_write_paths_own_insert_stores_what_the_orm_stores():
    now = timezone.now()
    fields = dict(
        text="Prefers tea after 3pm",
        kind="preference",
        subject="drinks",
        scope="project",
        project="bestie",
        layer=Layer.ARCHIVE,
        status=Status.PENDING,
        pinned=True,
        confidence=0.75,
        source="chat",
        source_kind="user_message",
        flags=["tool_output"],
        text_key="k",
        created_at=now - timedelta(days=2),
        confirmed_at=now,
        expires_at=now + timedelta(hours=5),
        access_count=3,
    )
    by_orm = Memory.objects.create(**fields)
    ours = rows.insert(Memory(**fields))
    event_fields = dict(event="add", actor=OWNER, old={"text": "x", "at": None}, new={"flags": [], "n": 1.5})
    event_by_orm = AuditEvent.objects.create(memory_id=by_orm.pk, **event_fields)
    our_event = rows.insert(AuditEvent(memory_id=ours.pk, **event_fields))

    def stored(table, pk, leave_out):
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT * FROM {table} WHERE id = %s", [pk])
            names = [column[0] for column in cursor.description]
            return {name: value for name, value in zip(names, cursor.fetchone()) if name not in leave_out}

    assert ours.pk == Memory.objects.order_by("id").last().pk == by_orm.pk + 1
    assert our_event.pk == AuditEvent.objects.order_by("id").last().pk == event_by_orm.pk + 1
    assert stored("memory", ours.pk, {"id"}) == stored("memory", by_orm.pk, {"id"})
    assert stored("memory_history", our_event.pk, {"id", "memory_id", "at"}) == stored(
        "memory_history", event_by_orm.pk, {"id", "memory_id", "at"}
    )


# ---------------------------------------------------------------------------------------------------
# The delete policy: one guard inside every deletion


def _deletions():
    """Every way the lifecycle deletes, each given the owner's confirmation or not."""
    return {
        "erase": lambda ids, confirmed: lifecycle.erase(ids, actor=OWNER, confirmed=confirmed),
        "forget": lambda ids, confirmed: lifecycle.forget(ids[0], actor=OWNER, confirmed=confirmed),
        "soft_delete": lambda ids, confirmed: lifecycle.soft_delete(ids, actor=OWNER, confirmed=confirmed),
        "clear": lambda ids, confirmed: lifecycle.clear(actor=OWNER, confirmed=confirmed),
    }


def _everything():
    return list(Memory.objects.order_by("pk").values()), list(AuditEvent.objects.order_by("pk").values())


@pytest.mark.parametrize("deletion", list(_deletions()))
@pytest.mark.parametrize(
    "policy, confirmed, refused",
    [
        ("deny", True, "delete policy is deny"),
        ("deny", False, "delete policy is deny"),
        ("ask", False, "delete policy is ask"),
    ],
)
def test_the_delete_policy_refuses_inside_every_deletion(deletion, policy, confirmed, refused):
    ids = [add_memory("User prefers tea.").pk, add_memory("User lives in Hà Nội.").pk]
    policies.set_delete_policy(policy, actor=OWNER)
    before = _everything()
    with pytest.raises(lifecycle.Refused, match=refused):
        _deletions()[deletion](ids, confirmed)
    assert _everything() == before


@pytest.mark.parametrize("deletion", list(_deletions()))
@pytest.mark.parametrize("policy, confirmed", [("ask", True), ("allow", False), ("allow", True)])
def test_the_delete_policy_lets_a_deletion_it_allows_through(deletion, policy, confirmed):
    ids = [add_memory("User prefers tea.").pk, add_memory("User lives in Hà Nội.").pk]
    policies.set_delete_policy(policy, actor=OWNER)
    _deletions()[deletion](ids, confirmed)
    assert not Memory.objects.filter(pk=ids[0], deleted_at__isnull=True).exists()


def test_restore_makes_replaced_memories_current_with_a_restore_event_each():
    old, newer = add_memory("User prefers npm."), add_memory("User prefers pnpm.")
    lifecycle.supersede(old.pk, newer.pk, actor=OWNER)
    assert lifecycle.restore([old.pk, newer.pk], actor=OWNER, note="why") == [old.pk]
    assert Memory.objects.get(pk=old.pk).is_live()
    event = AuditEvent.objects.get(memory_id=old.pk, event="restore")
    assert (event.old, event.new, event.note, event.actor) == (
        {"superseded_by_id": newer.pk},
        {"superseded_by_id": None},
        "why",
        OWNER,
    )
