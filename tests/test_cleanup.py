"""Cleanup and rebalance: plans on crafted data, applied exactly, under every delete policy; pinned
memories survive everything automatic."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from governance import cleanup, rebalance
from memories import lifecycle
from memories.lifecycle.policies import set_delete_policy
from memories.models import AuditEvent, Layer, Memory, MemorySettings
from tests.cli import memory, memory_json, refused
from tests.factories import OWNER, add_memory

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def store(db):
    """One memory or group for each step, by name, and a pinned copy of each that must survive."""
    with time_machine.travel(NOW - timedelta(days=400), tick=False):
        old = add_memory("User's favourite band is Da Lab.", subject="music").pk
        old_pinned = add_memory("User's passport number is kept at home.", subject="passport", pinned=True).pk
        marked = add_memory("User went to a jazz bar in Hội An.", subject="trip").pk
        lifecycle.mark_stale([marked], actor=OWNER)
        expired = add_memory("User is at a conference.", subject="travel", ttl=timedelta(days=1)).pk
        expired_pinned = add_memory("User's visa ends.", subject="visa", ttl=timedelta(days=1), pinned=True).pk
    with time_machine.travel(NOW, tick=False):
        group = [
            add_memory("User prefers Vietnamese.", subject="language").pk,
            add_memory("Always answer in Vietnamese with diacritics.", subject="language").pk,
        ]
        pinned_group = [
            add_memory("User prefers tea.", subject="drink", pinned=True).pk,
            add_memory("user prefers TEA", subject="drink").pk,
        ]
        noise = add_memory("ok thanks", subject="chat").pk
        noise_pinned = add_memory("lol", subject="chat2", pinned=True).pk
    return {
        "old": old,
        "old_pinned": old_pinned,
        "marked": marked,
        "expired": expired,
        "expired_pinned": expired_pinned,
        "group": group,
        "pinned_group": pinned_group,
        "noise": noise,
        "noise_pinned": noise_pinned,
    }


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def test_the_plan_consolidates_first_then_marks_archives_soft_and_hard_deletes(store, frozen):
    current = cleanup.plan()
    assert [a.step for a in current.actions] == list(cleanup.STEPS)
    assert current.ids("merge") == store["group"]
    assert current.actions[0].text == "Always answer in Vietnamese with diacritics."
    assert current.ids("mark_stale") == [store["old"]]
    assert current.ids("archive") == [store["marked"]]
    assert current.ids("soft_delete") == [store["noise"]]
    assert current.ids("hard_delete") == [store["expired"]]
    assert all(action.reason for action in current.actions)
    pinned = {store[name] for name in ("old_pinned", "expired_pinned", "noise_pinned")} | set(store["pinned_group"])
    assert not pinned & {i for a in current.actions for i in a.ids}


def test_apply_does_exactly_the_plan(store, frozen):
    set_delete_policy("allow", actor=OWNER)
    before = cleanup.plan()
    applied = cleanup.apply(actor=OWNER, fingerprint=before.fingerprint)
    assert applied.marked_stale == 1 and applied.archived == 1 and applied.soft_deleted == 1
    assert applied.hard_deleted == 1 and len(applied.merged) == 1
    merged = Memory.objects.get(pk=applied.merged[0])
    assert merged.text == "Always answer in Vietnamese with diacritics." and merged.is_live()
    assert set(Memory.objects.filter(pk__in=store["group"]).values_list("superseded_by_id", flat=True)) == {merged.pk}
    assert Memory.objects.get(pk=store["old"]).stale
    assert Memory.objects.get(pk=store["marked"]).layer == Layer.ARCHIVE
    assert Memory.objects.get(pk=store["noise"]).deleted_at == NOW
    assert not Memory.objects.filter(pk=store["expired"]).exists()
    for name in ("old_pinned", "expired_pinned", "noise_pinned"):
        pinned = Memory.objects.get(pk=store[name])
        assert pinned.deleted_at is None and not pinned.stale and pinned.layer == Layer.WORKING
    assert Memory.objects.filter(pk__in=store["pinned_group"], superseded_by__isnull=True).count() == 2
    assert AuditEvent.objects.filter(note="cleanup").count() == 4
    assert AuditEvent.objects.filter(event="merge").count() == 1
    # A second run finds only the memory marked stale just now, for the archive next time.
    assert [a.step for a in cleanup.plan().actions] == ["archive"]


def test_apply_refuses_a_plan_that_changed(store, frozen):
    set_delete_policy("allow", actor=OWNER)
    seen = cleanup.plan().fingerprint
    add_memory("hi", subject="chat3")
    count = AuditEvent.objects.count()
    with pytest.raises(lifecycle.LifecycleError, match="the store changed since the plan was made"):
        cleanup.apply(actor=OWNER, fingerprint=seen)
    assert AuditEvent.objects.count() == count


@pytest.mark.parametrize(
    "policy, yes, refusal",
    [
        ("deny", True, "delete policy is deny"),
        ("ask", False, "delete policy is ask"),
    ],
)
def test_apply_under_deny_or_unconfirmed_ask_changes_nothing(store, frozen, policy, yes, refusal):
    set_delete_policy(policy, actor=OWNER)
    args = ["cleanup", "--apply"] + (["--yes"] if yes else [])
    assert refusal in refused(*args)
    assert refusal in refused("rebalance", *args[1:])


def test_apply_under_ask_with_yes_and_under_allow(store, frozen):
    printed = memory("cleanup", "--apply", "--yes")
    assert "[5/5] hard-delete" in printed and "hard-deleted 1" in printed
    set_delete_policy("allow", actor=OWNER)
    assert memory_json("cleanup", "--apply")["archived"] == 1


def test_dry_run_shows_the_plan_and_changes_nothing(store, frozen):
    from tests.cli import store as everything

    before = everything()
    printed = memory("cleanup", "--dry-run")
    assert "merge 2: 2 memories say the same thing" in printed
    assert "merged text: Always answer in Vietnamese with diacritics." in printed
    assert "hard-delete 1: expired" in printed and "delete policy ask: apply with --apply --yes" in printed
    plan = memory_json("cleanup")
    assert [a["step"] for a in plan["actions"]] == list(cleanup.STEPS) and plan["fingerprint"]
    assert everything() == before


def test_rebalance_plan_and_apply(db, frozen):
    settings = MemorySettings.load()
    # "- User prefers Vietnamese (confirmed …)" takes 13 tokens in a prompt, the walks 19.
    settings.core_budget_tokens = 20
    settings.save()
    with time_machine.travel(NOW - timedelta(days=300), tick=False):
        unused = add_memory("User once asked about Lisbon trams.", subject="lisbon").pk
        unused_pinned = add_memory("User's blood type is O.", subject="blood", pinned=True).pk
    best = add_memory("User prefers Vietnamese.", subject="language", layer=Layer.CORE).pk
    weaker = add_memory(
        "User might enjoy long walks by the river at night.", subject="walks", layer=Layer.CORE, confidence=0.7
    ).pk
    used = add_memory("User's old project notes.", subject="notes", layer=Layer.ARCHIVE).pk
    Memory.objects.filter(pk=used).update(access_count=9, last_accessed_at=NOW - timedelta(days=2))
    moves = rebalance.plan().moves
    assert [(m.to_layer, list(m.ids)) for m in moves] == [
        ("archive", [unused]),
        ("working", [weaker]),
        ("working", [used]),
    ]
    assert "to archive 1: working memory unused for 180 days" in memory("rebalance", "--dry-run")
    assert memory_json("rebalance", "--apply", "--yes") == {"archive": 1, "working": 2}
    layers = dict(Memory.objects.values_list("pk", "layer"))
    assert layers[unused] == "archive" and layers[weaker] == "working" and layers[used] == "working"
    assert layers[best] == "core" and layers[unused_pinned] == "working"
    assert AuditEvent.objects.filter(note="rebalance", event="archive").count() == 1
    assert AuditEvent.objects.filter(note="rebalance", event="move").count() == 2
    assert rebalance.plan().moves == ()
