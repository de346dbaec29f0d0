"""Consolidation: merging duplicate groups and resolving contradictions, by function and by CLI."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from governance import consolidation, doctor
from memories import lifecycle
from memories.models import (
    AuditEvent,
    Layer,
    Memory,
    MemorySettings,
    SourceKind,
    Status,
)
from tests.cli import memory, memory_json, refused
from tests.factories import OWNER, add_memory
from tests.servers import json_server

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def seed_group(db):
    with time_machine.travel(NOW, tick=False):
        return [
            add_memory("User prefers Vietnamese.", subject="language", user="owner").pk,
            add_memory("User wants Vietnamese-first.", subject="language", user="owner").pk,
            add_memory(
                "Always answer in Vietnamese with diacritics.", subject="language", user="owner", layer=Layer.CORE
            ).pk,
        ]


def test_the_draft_is_the_most_specific_member(seed_group):
    draft = consolidation.draft(seed_group)
    assert draft.text == "Always answer in Vietnamese with diacritics."
    assert draft.base_id == seed_group[2] and draft.member_ids == tuple(seed_group)


def test_merge_with_the_owners_text_makes_a_new_approved_memory_and_supersedes_each_member(seed_group):
    text = "User prefers Vietnamese replies with proper diacritics unless they ask for another language."
    merged = consolidation.merge(seed_group, actor=OWNER, text=text)
    new = Memory.objects.get(pk=merged.memory_id)
    assert new.text == text and new.status == Status.APPROVED and new.is_live()
    assert new.source_kind == SourceKind.CONSOLIDATION and new.layer == Layer.CORE
    assert new.kind == "preference" and new.subject == "language" and new.user == "owner"
    assert set(Memory.objects.filter(pk__in=seed_group).values_list("superseded_by_id", flat=True)) == {new.pk}
    merge_event = AuditEvent.objects.get(event="merge")
    assert merge_event.memory_id == new.pk and merge_event.new["members"] == seed_group
    assert AuditEvent.objects.filter(event="supersede", memory_id__in=seed_group).count() == 3
    assert doctor.analyze("duplicates").duplicates == []


def test_merge_without_text_uses_the_draft(seed_group):
    merged = consolidation.merge(seed_group, actor=OWNER)
    assert merged.text == "Always answer in Vietnamese with diacritics."


def test_a_pinned_member_is_never_merged_away_without_the_owners_say(seed_group):
    lifecycle.pin(seed_group[0], actor=OWNER)
    before = (Memory.objects.count(), AuditEvent.objects.count())
    with pytest.raises(lifecycle.Refused, match=f"memory {seed_group[0]} is pinned"):
        consolidation.merge(seed_group, actor=OWNER)
    assert (Memory.objects.count(), AuditEvent.objects.count()) == before
    merged = consolidation.merge(seed_group, actor=OWNER, include_pinned=True)
    assert Memory.objects.get(pk=merged.memory_id).pinned


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda ids: [ids[0]], "a merge needs at least two memories"),
        (lambda ids: [ids[0], 999], "no memory with id 999"),
        (lambda ids: [ids[0], "x"], "ids must be whole numbers"),
    ],
)
def test_merge_refuses_bad_ids_and_changes_nothing(seed_group, change, message):
    before = (list(Memory.objects.values()), AuditEvent.objects.count())
    with pytest.raises(lifecycle.LifecycleError, match=message):
        consolidation.merge(change(seed_group), actor=OWNER)
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before


def test_merge_refuses_other_users_not_live_members_and_secrets(seed_group):
    other = add_memory("User prefers Vietnamese.", subject="language", user="lan").pk
    with pytest.raises(lifecycle.InvalidValue, match="different users"):
        consolidation.merge([seed_group[0], other], actor=OWNER)
    lifecycle.supersede(seed_group[1], seed_group[2], actor=OWNER)
    with pytest.raises(lifecycle.LifecycleError, match=f"not live: memory {seed_group[1]} \\(superseded\\)"):
        consolidation.merge(seed_group, actor=OWNER)
    count = Memory.objects.count()
    with pytest.raises(lifecycle.Refused):
        consolidation.merge([seed_group[0], seed_group[2]], actor=OWNER, text="My password is hunter2-Zx91!")
    assert Memory.objects.count() == count
    assert Memory.objects.filter(superseded_by__isnull=False).count() == 1


def test_merge_respects_pause(seed_group):
    settings = MemorySettings.load()
    settings.paused = True
    settings.save()
    with pytest.raises(lifecycle.Refused, match="paused"):
        consolidation.merge(seed_group, actor=OWNER)
    assert not Memory.objects.filter(superseded_by__isnull=False).exists()


def test_resolve_keeps_the_winner_and_supersedes_the_losers(db):
    with time_machine.travel(NOW - timedelta(days=30), tick=False):
        old = add_memory("User prefers npm.", subject="package manager").pk
    with time_machine.travel(NOW, tick=False):
        new = add_memory("User prefers pnpm.", subject="package manager").pk
        assert doctor.analyze("conflicts").conflicts == [[old, new]]
        assert consolidation.suggest_winner([old, new]) == new
        resolved = consolidation.resolve(new, [old], actor=OWNER)
    assert resolved.loser_ids == (old,)
    assert Memory.objects.get(pk=old).superseded_by_id == new
    assert AuditEvent.objects.filter(event="supersede", memory_id=old, new={"superseded_by_id": new}).exists()
    assert doctor.analyze("conflicts").conflicts == []


def test_resolve_refuses_a_pinned_loser_unless_asked(db):
    a = add_memory("User prefers npm.", subject="package manager", pinned=True).pk
    b = add_memory("User prefers pnpm.", subject="package manager").pk
    with pytest.raises(lifecycle.Refused, match="pinned"):
        consolidation.resolve(b, [a], actor=OWNER)
    assert Memory.objects.get(pk=a).superseded_by_id is None
    consolidation.resolve(b, [a], actor=OWNER, include_pinned=True)
    assert Memory.objects.get(pk=a).superseded_by_id == b
    with pytest.raises(lifecycle.InvalidValue, match="at least one memory"):
        consolidation.resolve(b, [b], actor=OWNER)


def test_cli_merge_draft_merge_and_resolve(seed_group):
    drafted = memory("merge", *map(str, seed_group), "--draft")
    assert f"proposed text (from memory #{seed_group[2]}): Always answer" in drafted
    assert Memory.objects.filter(superseded_by__isnull=False).count() == 0
    result = memory_json("merge", *map(str, seed_group), "--text", "User prefers Vietnamese replies with diacritics.")
    assert result["members"] == seed_group and result["text"] == "User prefers Vietnamese replies with diacritics."
    english = add_memory("User prefers English.", subject="language", user="owner").pk
    printed = memory("resolve", str(result["id"]), str(english))
    assert f"memory #{result['id']} stays; superseded #{english}" in printed


def test_cli_refusals_change_nothing(seed_group):
    lifecycle.pin(seed_group[0], actor=OWNER)
    assert "is pinned" in refused("merge", *map(str, seed_group))
    assert "no memory with id 999" in refused("resolve", str(seed_group[0]), "999")
    memory("merge", *map(str, seed_group), "--include-pinned")
    assert Memory.objects.filter(superseded_by__isnull=False).count() == 3


# ---------------------------------------------------------------------------------------------------
# The optional drafter, against a local OpenAI-compatible fake


@pytest.fixture
def drafter(settings):
    def completion(path):
        return {"choices": [{"message": {"role": "assistant", "content": "  " + server.text + "\n"}}]}

    with json_server(completion, fails=lambda server, path: server.fail) as server:
        server.fail = False
        server.text = "User prefers Vietnamese replies with proper diacritics unless they ask for another language."
        settings.BESTIE_MERGE_DRAFTER_URL = f"{server.base}/v1"
        settings.BESTIE_MERGE_DRAFTER_MODEL = "local-model"
        settings.BESTIE_MERGE_DRAFTER_API_KEY = "test-key"
        yield server


def test_the_drafter_writes_the_draft_when_configured(seed_group, drafter):
    draft = consolidation.draft(seed_group)
    assert draft.text == drafter.text and draft.drafter == "local-model"
    path, headers, body = drafter.requests[0]
    authorization = headers.get("Authorization")
    assert path == "/v1/chat/completions" and authorization == "Bearer test-key"
    assert body["model"] == "local-model"
    assert "- User prefers Vietnamese.\n- User wants Vietnamese-first." in body["messages"][1]["content"]
    merged = consolidation.merge(seed_group, actor=OWNER)
    assert merged.text == drafter.text


def test_a_failing_drafter_falls_back_to_the_most_specific_member(seed_group, drafter):
    drafter.fail = True
    draft = consolidation.draft(seed_group)
    assert draft.text == "Always answer in Vietnamese with diacritics." and draft.drafter == "most specific member"


def test_cleanup_plans_never_ask_the_drafter(seed_group, drafter):
    from governance import cleanup

    assert cleanup.plan().actions[0].text == "Always answer in Vietnamese with diacritics."
    assert drafter.requests == []
