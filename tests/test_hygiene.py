"""Hygiene: the score and its parts, the safe fixes, ``--apply`` under each delete policy, the trend."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from governance import consolidation, hygiene
from governance.models import HygieneSnapshot
from memories import lifecycle
from memories.lifecycle import forgetting
from memories.lifecycle.policies import set_delete_policy
from memories.models import AuditEvent, Memory
from tests.cli import memory, memory_json, refused
from tests.factories import OWNER, add_memory

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def test_an_empty_store_scores_100(db, frozen):
    current = hygiene.score()
    assert current.score == 100
    assert sum(part["weight"] for part in current.parts.values()) == 100


def test_the_score_rises_as_duplicates_are_merged_and_the_backlog_is_pruned(db, frozen):
    group = [
        add_memory("User prefers Vietnamese.", subject="language").pk,
        add_memory("User wants Vietnamese-first.", subject="language").pk,
        add_memory("Always answer in Vietnamese with diacritics.", subject="language").pk,
    ]
    add_memory("User lives in Huế.", subject="home")
    with time_machine.travel(NOW - timedelta(days=2), tick=False):
        add_memory("User is at a conference.", subject="travel", ttl=timedelta(days=1))
    before = hygiene.score()
    assert before.parts["duplicates"]["value"] == 0.5 and before.parts["expired_backlog"]["value"] == 0.0
    consolidation.merge(group, actor=OWNER)
    merged = hygiene.score()
    assert merged.parts["duplicates"]["value"] == 1.0
    set_delete_policy("allow", actor=OWNER)
    hygiene.apply()
    after = hygiene.score()
    assert after.parts["expired_backlog"]["value"] == 1.0
    assert before.score < merged.score < after.score


def test_stale_and_conflicts_lower_the_score(db, frozen):
    add_memory("User prefers pnpm.", subject="package manager")
    clean = hygiene.score().score
    add_memory("User prefers npm.", subject="package manager")
    assert hygiene.score().parts["conflicts"]["value"] == 0.0
    Memory.objects.update(confirmed_at=NOW - timedelta(days=200))
    assert hygiene.score().parts["stale"]["value"] == 0.0
    assert hygiene.score().score < clean


def test_the_daily_snapshot_uses_this_score(db, frozen):
    add_memory("User prefers Vietnamese.", subject="language")
    add_memory("user prefers vietnamese", subject="language")
    hygiene.snapshot()
    assert HygieneSnapshot.objects.get().score == hygiene.score().score == hygiene.score().score


def test_doctor_fix_fills_text_keys_and_cuts_broken_chains_with_restore_events(db, frozen):
    keyless = add_memory("User prefers tea.", subject="drink").pk
    Memory.objects.filter(pk=keyless).update(text_key="")
    with time_machine.travel(NOW - timedelta(days=1), tick=False):
        older = add_memory("Fact A about the owner.", subject="a").pk
    newer = add_memory("Fact B about the owner.", subject="b").pk
    Memory.objects.filter(pk=older).update(superseded_by_id=newer)
    Memory.objects.filter(pk=newer).update(superseded_by_id=older)
    assert hygiene.plan().broken_chains == [older, newer]
    fixes = hygiene.fix()
    assert fixes.text_keys == 1 and Memory.objects.get(pk=keyless).text_key
    # The loop is cut at its newest member, which becomes the current version again.
    assert fixes.chains_cut == [newer]
    assert Memory.objects.get(pk=newer).superseded_by_id is None
    assert Memory.objects.get(pk=older).superseded_by_id == newer
    event = AuditEvent.objects.get(event="restore", memory_id=newer)
    assert event.old == {"superseded_by_id": older} and event.actor == "system:hygiene"
    assert hygiene.plan().broken_chains == [] and hygiene.score().parts["chains"]["value"] == 1.0


def test_the_doctor_and_forget_restore_a_replaced_memory_through_the_one_restore(db, frozen, monkeypatch):
    """Hygiene wrote its own restore events; now both go through ``lifecycle.restore`` and read alike."""
    restored = []
    real_restore = lifecycle.restore

    def restore(ids, **kwargs):
        restored.append(list(ids))
        return real_restore(ids, **kwargs)

    monkeypatch.setattr(lifecycle, "restore", restore)
    monkeypatch.setattr(forgetting, "restore", restore)
    dangling = add_memory("User prefers tea.", subject="drink").pk
    Memory.objects.filter(pk=dangling).update(superseded_by_id=dangling + 1000)
    old, new = add_memory("User prefers npm.", subject="pm").pk, add_memory("User prefers pnpm.", subject="pm").pk
    lifecycle.supersede(old, new, actor=OWNER)
    hygiene.repair_chains()
    lifecycle.forget(new, actor=OWNER, confirmed=True, restore_previous=True)
    assert restored == [[dangling], [old]]
    shapes = [
        (sorted(event.old), sorted(event.new), event.new["superseded_by_id"])
        for event in AuditEvent.objects.filter(event="restore").order_by("pk")
    ]
    assert shapes == [(["superseded_by_id"], ["superseded_by_id"], None)] * 2


@pytest.fixture
def backlog(db, frozen):
    with time_machine.travel(NOW - timedelta(days=2), tick=False):
        expired = add_memory("User is in Tokyo.", subject="travel", ttl=timedelta(days=1)).pk
        pinned = add_memory("User's visa ends.", subject="visa", ttl=timedelta(days=1), pinned=True).pk
    return expired, pinned


def test_apply_under_deny_refuses_and_changes_nothing(backlog):
    set_delete_policy("deny", actor=OWNER)
    assert "delete policy is deny" in refused("hygiene", "--apply", "--yes")


def test_apply_under_ask_needs_yes(backlog):
    expired, pinned = backlog
    assert "delete policy is ask" in refused("hygiene", "--apply")
    printed = memory("hygiene", "--apply", "--yes")
    assert "pruned 1 memories" in printed
    assert not Memory.objects.filter(pk=expired).exists() and Memory.objects.filter(pk=pinned).exists()
    assert HygieneSnapshot.objects.count() == 1


def test_apply_under_allow_prunes_but_never_a_pinned_memory(backlog):
    _, pinned = backlog
    set_delete_policy("allow", actor=OWNER)
    assert memory_json("hygiene", "--apply")["pruned"] == 1
    assert Memory.objects.filter(pk=pinned).exists()


def test_doctor_fix_never_prunes_without_the_policy(backlog):
    expired, _ = backlog
    assert "1 kept (delete policy ask" in memory("hygiene", "doctor", "--fix")
    assert Memory.objects.filter(pk=expired).exists()
    set_delete_policy("deny", actor=OWNER)
    memory("hygiene", "doctor", "--fix", "--yes")
    assert Memory.objects.filter(pk=expired).exists()
    set_delete_policy("ask", actor=OWNER)
    memory("hygiene", "doctor", "--fix", "--yes")
    assert not Memory.objects.filter(pk=expired).exists()


def test_cli_status_doctor_and_trend(db, frozen):
    add_memory("User prefers Vietnamese.", subject="language")
    status = memory_json("hygiene")
    assert status["score"] == 100 and set(status["parts"]) == set(hygiene.WEIGHTS)
    assert "hygiene score 100/100" in memory("hygiene", "status")
    assert "expired rows to prune: 0 (delete policy ask)" in memory("hygiene", "doctor")
    assert "no snapshots yet" in memory("hygiene", "trend")
    for days_ago in (3, 2, 1):
        with time_machine.travel(NOW - timedelta(days=days_ago), tick=False):
            hygiene.snapshot()
    points = memory_json("hygiene", "trend")
    assert [p["taken_at"] for p in points] == ["2026-05-29T09:00:00Z", "2026-05-30T09:00:00Z", "2026-05-31T09:00:00Z"]
    assert "2026-05-31  100" in memory("hygiene", "trend")


def test_chart_is_an_svg_polyline_of_the_points(db):
    points = [(NOW - timedelta(days=2), 40), (NOW - timedelta(days=1), 70), (NOW, 100)]
    svg = hygiene.chart(points)
    assert svg.startswith("<svg") and svg.count("<circle") == 3
    assert 'points="24.0,91.2 300.0,57.6 576.0,24.0"' in svg
    assert hygiene.chart([]) == ""
