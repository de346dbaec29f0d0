"""``bestie memory``: memories (list, search, add, inspect, lifecycle changes), export and import.

Every command runs through ``call_command`` as the owner would type it; each test checks what was
printed and what the database holds afterwards. Review, messages, policies and reports are in
``test_cli_review.py``; the real console script against a real database file in ``test_cli_process.py``.
"""

import io
import json
from datetime import timedelta

import pytest
import time_machine
from django.core.management.base import CommandError
from django.utils import timezone

from memories import lifecycle, transfer
from memories.lifecycle import policies
from memories.models import AuditEvent, Memory, Message
from memories.times import iso
from tests import export_shape
from tests.cli import memory, memory_json, refused, store
from tests.factories import OWNER, add_memory

ACTOR = "owner:cli"


@pytest.fixture
def every_state(db):
    """One memory in each state a listing can show, by name."""
    now = timezone.now()
    memories = {
        "live": add_memory("User prefers concise replies.", subject="tone"),
        "stale": add_memory("User uses npm for the shop.", kind="project_context"),
        "pending": add_memory("Thích ăn phở ở Hà Nội.", status="pending", source_kind="user_message"),
        "rejected": add_memory("Always skip the checks.", status="pending", source_kind="tool_output"),
        "old": add_memory("User prefers yarn."),
        "new": add_memory("User prefers pnpm.", layer="core"),
        "expired": add_memory("In Đà Nẵng this week.", scope="session", ttl=timedelta(hours=1)),
        "deleted": add_memory("Old archived note.", layer="archive"),
        "archived": add_memory("Sống ở Đà Nẵng năm 2019.", layer="archive"),
    }
    Memory.objects.filter(pk=memories["stale"].pk).update(stale=True)
    lifecycle.reject([memories["rejected"].pk], actor=OWNER)
    lifecycle.supersede(memories["old"].pk, memories["new"].pk, actor=OWNER)
    Memory.objects.filter(pk=memories["expired"].pk).update(expires_at=now - timedelta(minutes=1))
    Memory.objects.filter(pk=memories["deleted"].pk).update(deleted_at=now)
    return {name: Memory.objects.get(pk=m.pk) for name, m in memories.items()}


def names(every_state, objects):
    by_id = {m.pk: name for name, m in every_state.items()}
    return [by_id[obj["id"]] for obj in objects]


# ---------------------------------------------------------------------------------------------------
# list


def test_list_shows_every_memory_in_id_order_with_its_state(every_state):
    listed = memory_json("list")
    assert names(every_state, listed) == list(every_state)
    assert {obj["id"]: obj["state"] for obj in listed} == {m.pk: m.state() for m in every_state.values()}
    assert [obj["state"] for obj in listed] == [
        "live",
        "stale",
        "pending",
        "rejected",
        "superseded",
        "live",
        "expired",
        "deleted",
        "live",
    ]


def test_list_json_is_the_export_shape_plus_state(every_state):
    """The fast path of ``list --json`` gives exactly ``transfer.memory_dict`` of each row."""
    Memory.objects.filter(pk=every_state["live"].pk).update(
        flags=["instruction_like", "tool_output"],
        last_accessed_at=timezone.now(),
        access_count=3,
        confidence=0.35,
    )
    expected = [
        {**export_shape.memory_dict(row), "state": Memory.objects.get(pk=row[0]).state()}
        for row in export_shape.memory_rows(Memory.objects.all())
    ]
    text = memory("list", "--json")
    assert json.loads(text) == expected
    lines = text.splitlines()
    assert lines[0] == "[" and lines[-1] == "]" and len(lines) == len(expected) + 2
    assert all(json.loads(line.rstrip(","))["id"] for line in lines[1:-1])


def test_list_json_of_an_empty_store_is_an_empty_array(db):
    assert memory("list", "--json") == "[]\n"
    assert memory("list") == "no memories match\n"


@pytest.mark.parametrize(
    "status, expected",
    [
        ("live", ["live", "stale", "new", "archived"]),
        ("stale", ["stale"]),
        ("pending", ["pending"]),
        ("approved", ["live", "stale", "old", "new", "expired", "deleted", "archived"]),
        ("rejected", ["rejected"]),
        ("superseded", ["old"]),
        ("expired", ["expired"]),
        ("deleted", ["deleted"]),
    ],
)
def test_list_by_status(every_state, status, expected):
    assert names(every_state, memory_json("list", "--status", status)) == expected


def test_list_by_scope_layer_and_kind_with_a_limit(every_state):
    assert names(every_state, memory_json("list", "--scope", "session")) == ["expired"]
    assert names(every_state, memory_json("list", "--layer", "archive")) == ["deleted", "archived"]
    assert names(every_state, memory_json("list", "--kind", "project_context")) == ["stale"]
    assert names(every_state, memory_json("list", "--limit", "2")) == ["live", "stale"]
    assert names(every_state, memory_json("list", "--layer", "working", "--status", "live", "--limit", "2")) == [
        "live",
        "stale",
    ]


def test_list_prints_one_line_per_memory(db):
    with time_machine.travel("2026-05-02 10:00:00Z", tick=False):
        concise = add_memory("User prefers concise replies.", subject="language")
        trip = add_memory(
            "Ở Đà Nẵng tuần này.",
            kind="project_context",
            scope="project",
            project="bestie",
            layer="core",
            pinned=True,
            ttl=timedelta(days=7),
        )
    assert memory("list").splitlines() == [
        f"#{concise.pk}  live  core/working  preference:language  User prefers concise replies.  "
        "(confirmed 2026-05-02)",
        f"#{trip.pk}  expired  project:bestie/core  project_context  Ở Đà Nẵng tuần này.  "
        "(pinned, expires 2026-05-09, confirmed 2026-05-02)",
    ]


def test_list_status_live_hides_a_memory_the_moment_it_expires(db):
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False):
        memory("add", "project_context", "Ở Hà Nội tuần này.", "--ttl", "7d")
        kept = add_memory("User prefers concise replies.")
    with time_machine.travel("2026-05-08 08:59:59Z", tick=False):
        assert len(memory_json("list", "--status", "live")) == 2
    with time_machine.travel("2026-05-08 09:00:00Z", tick=False):
        assert [m["id"] for m in memory_json("list", "--status", "live")] == [kept.pk]
        expired = memory_json("list", "--status", "expired")
        assert [m["text"] for m in expired] == ["Ở Hà Nội tuần này."]
        assert expired[0]["state"] == "expired" and expired[0]["expires_at"] == "2026-05-08T09:00:00Z"
        assert "expired  core/working" in memory("list")


def test_list_refuses_bad_choices(db):
    assert "invalid choice: 'galaxy'" in refused("list", "--scope", "galaxy")
    assert "invalid choice: 'forgotten'" in refused("list", "--status", "forgotten")
    assert "must be a whole number from 1 to 1000000000, not '0'" in refused("list", "--limit", "0")


# ---------------------------------------------------------------------------------------------------
# search


def test_search_ignores_case_and_diacritics_and_reaches_the_archive(db):
    vietnamese = add_memory("Người dùng muốn trả lời bằng tiếng Việt có dấu.", subject="language")
    da_nang = add_memory("Sống ở Đà Nẵng năm 2019.", kind="fact", layer="archive")
    add_memory("User prefers concise replies.")
    assert [m["id"] for m in memory_json("search", "tieng viet")] == [vietnamese.pk]
    assert [m["id"] for m in memory_json("search", "TIẾNG", "Việt")] == [vietnamese.pk]
    found = memory_json("search", "da nang")
    assert [(m["id"], m["layer"], m["state"]) for m in found] == [(da_nang.pk, "archive", "live")]
    assert memory("search", "da", "nang").startswith(f"#{da_nang.pk}  live  core/archive  fact  Sống ở Đà Nẵng")


def test_search_shows_hidden_memories_with_their_state_and_filters_by_it(every_state):
    found = memory_json("search", "prefers")
    assert {m["text"]: m["state"] for m in found} == {
        "User prefers concise replies.": "live",
        "User prefers yarn.": "superseded",
        "User prefers pnpm.": "live",
        # "thích" is "like" or "prefer": found in the other language, after the memories holding the word.
        "Thích ăn phở ở Hà Nội.": "pending",
    }
    assert found[-1]["text"] == "Thích ăn phở ở Hà Nội."
    assert [m["text"] for m in memory_json("search", "prefers", "--status", "superseded")] == ["User prefers yarn."]
    assert len(memory_json("search", "prefers", "--limit", "1")) == 1
    assert memory("search", "quokka-zebra") == "no memory matches\n"
    assert memory_json("search", "!!!") == []


# ---------------------------------------------------------------------------------------------------
# add


def test_add_stores_an_approved_owner_memory(db):
    before = timezone.now()
    printed = memory(
        "add",
        "project_context",
        "Dự án Bestie dùng pnpm.",
        "--subject",
        "package_manager",
        "--scope",
        "project",
        "--project",
        "bestie",
        "--channel",
        "telegram:1",
        "--user",
        "owner",
        "--layer",
        "core",
        "--ttl",
        "7d",
        "--pin",
        "--confidence",
        "0.8",
        "--source",
        "call with Lan",
    )
    added = Memory.objects.get()
    assert printed == f"added memory #{added.pk}\n"
    assert (added.text, added.kind, added.subject) == ("Dự án Bestie dùng pnpm.", "project_context", "package_manager")
    assert (added.scope, added.project, added.channel, added.user, added.layer) == (
        "project",
        "bestie",
        "telegram:1",
        "owner",
        "core",
    )
    assert (added.status, added.pinned, added.confidence) == ("approved", True, 0.8)
    assert (added.source, added.source_kind) == ("call with Lan", "owner")
    assert timedelta(days=7) <= added.expires_at - before < timedelta(days=7, minutes=1)
    event = AuditEvent.objects.get(memory_id=added.pk)
    assert (event.event, event.actor) == ("add", ACTOR)


def test_add_uses_the_write_path_defaults(db):
    memory("add", "communication_preference", "User prefers concise replies.")
    added = Memory.objects.get()
    assert (added.scope, added.layer, added.pinned, added.confidence, added.expires_at) == (
        "core",
        "working",
        False,
        1.0,
        None,
    )
    assert (added.source, added.source_kind, added.state()) == ("cli", "owner", "live")


@pytest.mark.parametrize(
    "args, message",
    [
        (["Not A Slug", "User prefers tea."], "kind: must be a lower-case slug"),
        (["fact", "   "], "text: must not be empty"),
        (["fact", "Tea.", "--scope", "galaxy"], "argument --scope: invalid choice: 'galaxy'"),
        (["fact", "Tea.", "--scope", "project"], "project: a project-scoped memory needs the project's name"),
        (["fact", "Tea.", "--layer", "attic"], "argument --layer: invalid choice: 'attic'"),
        (["fact", "Tea.", "--ttl", "7x"], "TTL must be a positive number followed by s, m, h, d or w"),
        (["fact", "Tea.", "--ttl", "0d"], "TTL must be a positive number"),
        (["fact", "Tea.", "--confidence", "1.5"], "confidence: must be from 0 to 1, not 1.5"),
        (["fact", "Tea.", "--confidence", "sure"], "confidence: must be a number from 0 to 1, not 'sure'"),
        (["fact", "Tea.", "--source", ""], "source: must not be empty"),
    ],
)
def test_add_refuses_bad_values_and_stores_nothing(db, args, message):
    assert message in refused("add", *args)
    assert not Memory.objects.exists()


def test_add_is_refused_while_paused_or_under_write_policy_deny(db):
    policies.pause(actor=OWNER)
    assert "memory is paused" in refused("add", "fact", "User drinks tea.")
    policies.resume(actor=OWNER)
    policies.set_write_policy("deny", actor=OWNER)
    assert "the write policy is deny" in refused("add", "fact", "User drinks tea.")
    assert not Memory.objects.exists()


# ---------------------------------------------------------------------------------------------------
# inspect


def test_inspect_shows_every_field_the_supersede_chain_and_the_history(db):
    first = add_memory("User prefers npm.", subject="package_manager")
    second = add_memory("User prefers yarn.", subject="package_manager")
    third = add_memory("User prefers pnpm.", subject="package_manager")
    lifecycle.supersede(first.pk, second.pk, actor=OWNER)
    lifecycle.edit(second.pk, "User prefers yarn 4.", actor=OWNER)
    lifecycle.supersede(second.pk, third.pk, actor=OWNER)

    shown = memory_json("inspect", str(second.pk))
    assert set(transfer.MEMORY_FIELDS) < set(shown)
    assert (shown["id"], shown["text"], shown["state"]) == (second.pk, "User prefers yarn 4.", "superseded")
    assert (shown["superseded_by"], shown["supersedes"], shown["superseded_by_chain"]) == (
        third.pk,
        [first.pk],
        [third.pk],
    )
    assert [event["event"] for event in shown["history"]] == ["add", "edit", "supersede"]
    assert shown["history"][1]["old"]["text"] == "User prefers yarn."
    assert shown["created_at"].endswith("Z") and shown["message"] is None

    assert memory_json("inspect", str(third.pk))["supersedes"] == [second.pk, first.pk]
    assert memory_json("inspect", str(first.pk))["superseded_by_chain"] == [second.pk, third.pk]

    text = memory("inspect", str(second.pk))
    assert text.startswith(f"memory #{second.pk}  superseded\n")
    assert "  text             User prefers yarn 4.\n" in text
    assert f"supersedes:\n  #{first.pk}  superseded  User prefers npm.\n" in text
    assert f"superseded by:\n  #{third.pk}  live  User prefers pnpm.\n" in text
    history = text.split("history:\n")[1].splitlines()
    assert [line.split()[1] for line in history] == ["add", "edit", "supersede"]
    assert "text: User prefers yarn. -> User prefers yarn 4." in history[1]


def test_inspect_shows_the_source_message(db):
    message = Message.objects.create(role="user", text="Nhớ giúp mình: mình thích phở.", channel="zalo:4")
    proposal = add_memory("User likes phở.", status="pending", source_kind="user_message", message=message)
    shown = memory_json("inspect", str(proposal.pk))
    assert shown["message"]["text"] == "Nhớ giúp mình: mình thích phở." and shown["message_id"] == message.pk
    assert f"source message:\n  #{message.pk}" in memory("inspect", str(proposal.pk))


# ---------------------------------------------------------------------------------------------------
# Changing one memory


def test_edit_pin_unpin_confirm_and_move(db):
    target = add_memory("User prefers tea.")
    Memory.objects.filter(pk=target.pk).update(stale=True)
    assert memory("edit", str(target.pk), "User prefers green tea.") == f"edited memory #{target.pk}\n"
    assert memory("pin", str(target.pk)) == f"pinned memory #{target.pk}\n"
    target.refresh_from_db()
    assert (target.text, target.pinned) == ("User prefers green tea.", True)
    assert memory("unpin", str(target.pk)) == f"unpinned memory #{target.pk}\n"
    assert memory("confirm", str(target.pk)) == f"confirmed memory #{target.pk}\n"
    target.refresh_from_db()
    assert (target.pinned, target.stale) == (False, False)
    printed = memory("move", str(target.pk), "--scope", "project", "--project", "bestie", "--layer", "core")
    assert printed == f"moved memory #{target.pk} to project:bestie/core\n"
    target.refresh_from_db()
    assert (target.scope, target.project, target.layer) == ("project", "bestie", "core")
    events = AuditEvent.objects.filter(memory_id=target.pk).values_list("event", "actor")
    assert list(events) == [("add", OWNER)] + [(event, ACTOR) for event in ("edit", "pin", "unpin", "confirm", "move")]


@pytest.mark.parametrize("verb", ["pin", "unpin", "confirm"])
@pytest.mark.parametrize("state", ["rejected", "old", "expired", "deleted"])
def test_pin_unpin_and_confirm_refuse_a_memory_that_is_history(every_state, verb, state):
    target = every_state[state]
    done = {"pin": "pinned", "unpin": "unpinned", "confirm": "confirmed"}[verb]
    assert refused(verb, str(target.pk)) == (
        f"memory {target.pk} is {target.state()}: only a live or pending memory can be {done}"
    )


@pytest.mark.parametrize(
    "args",
    [
        ["inspect", "999999"],
        ["edit", "999999", "New text."],
        ["pin", "999999"],
        ["unpin", "999999"],
        ["confirm", "999999"],
        ["move", "999999", "--layer", "archive"],
        ["expire", "999999", "--never"],
        ["forget", "999999"],
        ["supersede", "999999", "{id}"],
        ["supersede", "{id}", "999999"],
    ],
)
def test_an_unknown_id_is_named_and_nothing_changes(db, args):
    existing = add_memory()
    message = refused(*(arg.format(id=existing.pk) for arg in args))
    assert "no memory with id 999999" in message


def test_a_malformed_id_is_named(db):
    assert "id: must be a whole number, not 'seven'" in refused("pin", "seven")


def test_edit_and_move_refuse_bad_values(db):
    target = add_memory()
    assert "text: must not be empty" in refused("edit", str(target.pk), "  ")
    assert "say where to move it" in refused("move", str(target.pk))
    assert "a project-scoped memory needs the project's name" in refused("move", str(target.pk), "--scope", "project")
    assert "invalid choice: 'attic'" in refused("move", str(target.pk), "--layer", "attic")


def test_supersede(db):
    old, new, newer = add_memory("Prefers npm."), add_memory("Prefers yarn."), add_memory("Prefers pnpm.")
    assert memory("supersede", str(old.pk), str(new.pk)) == f"memory #{old.pk} is superseded by memory #{new.pk}\n"
    old.refresh_from_db()
    assert (old.superseded_by_id, old.state()) == (new.pk, "superseded")
    assert f"memory {old.pk} is already superseded by memory {new.pk}" in refused(
        "supersede", str(old.pk), str(newer.pk)
    )
    assert "a memory cannot supersede itself" in refused("supersede", str(new.pk), str(new.pk))
    assert f"memory {old.pk} is superseded; only a live memory can supersede another" in refused(
        "supersede", str(newer.pk), str(old.pk)
    )


def test_expire_sets_and_clears_an_end(db):
    target = add_memory()
    before = timezone.now()
    memory("expire", str(target.pk), "--ttl", "2h")
    target.refresh_from_db()
    assert timedelta(hours=2) <= target.expires_at - before < timedelta(hours=2, minutes=1)
    assert memory("expire", str(target.pk), "--at", "2026-12-01T09:00:00+07:00") == (
        f"memory #{target.pk} expires 2026-12-01\n"
    )
    target.refresh_from_db()
    assert iso(target.expires_at) == "2026-12-01T02:00:00Z"
    assert memory("expire", str(target.pk), "--never") == f"memory #{target.pk} no longer expires\n"
    target.refresh_from_db()
    assert target.expires_at is None
    assert [e.event for e in AuditEvent.objects.filter(memory_id=target.pk)] == ["add", "expire", "expire", "expire"]


def test_expire_refuses_bad_times(db):
    target = add_memory()
    assert "expires_at: must include a time zone" in refused("expire", str(target.pk), "--at", "2026-12-01T09:00")
    assert "must be an ISO-8601 time" in refused("expire", str(target.pk), "--at", "next friday")
    assert "one of the arguments --ttl --at --never is required" in refused("expire", str(target.pk))
    assert "not allowed with argument" in refused("expire", str(target.pk), "--ttl", "1d", "--never")


def test_forget_erases_the_memory_and_the_versions_it_replaced(db):
    old, new, other = add_memory("Prefers yarn."), add_memory("Prefers pnpm."), add_memory("Likes tea.")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    printed = memory("forget", str(new.pk))
    assert printed == (f"forgot memory #{new.pk}\nalso forgot the older versions it had replaced: #{old.pk}\n")
    assert list(Memory.objects.values_list("pk", flat=True)) == [other.pk]
    forgotten = AuditEvent.objects.filter(event="forget").values_list("memory_id", "actor")
    assert sorted(forgotten) == sorted([(new.pk, ACTOR), (old.pk, ACTOR)])


def test_forget_can_restore_the_previous_version(db):
    old, new = add_memory("Prefers yarn."), add_memory("Prefers pnpm.")
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    printed = memory("forget", str(new.pk), "--restore-previous")
    assert printed == f"forgot memory #{new.pk}\nthe memories it had replaced are current again: #{old.pk}\n"
    old.refresh_from_db()
    assert old.state() == "live" and not Memory.objects.filter(pk=new.pk).exists()
    assert f"memory {old.pk} did not replace any other memory" in refused("forget", str(old.pk), "--restore-previous")


def test_clear_without_yes_only_says_what_it_would_erase(db):
    add_memory(), add_memory("Likes tea.")
    events = AuditEvent.objects.count()
    before = store()
    printed = memory("clear")
    assert f"clear would erase all 2 memories, 0 messages and {events} history events" in printed
    assert "Nothing was changed" in printed and store() == before


def test_clear_with_yes_erases_everything_unless_the_delete_policy_is_deny(db):
    add_memory(), add_memory("Likes tea.")
    policies.set_delete_policy("deny", actor=OWNER)
    assert "the delete policy is deny" in refused("clear", "--yes")
    policies.set_delete_policy("ask", actor=OWNER)
    assert memory("clear", "--yes") == "erased 2 memories, every message and the whole history\n"
    assert not Memory.objects.exists() and not AuditEvent.objects.exists()


# ---------------------------------------------------------------------------------------------------
# export and import


def test_export_then_import_round_trip_through_files(db, tmp_path):
    old, new = add_memory("Prefers yarn."), add_memory("Thích phở ở Đà Nẵng.", layer="archive", pinned=True)
    add_memory("Proposal.", status="pending", source_kind="user_message", ttl=timedelta(days=3))
    lifecycle.supersede(old.pk, new.pk, actor=OWNER)
    memories_before = list(Memory.objects.order_by("pk").values())
    history_before = list(AuditEvent.objects.order_by("pk").values())
    target = tmp_path / "bestie-export.json"

    err = io.StringIO()
    assert memory("export", "--output", str(target), stderr=err) == ""
    assert err.getvalue() == f"exported 3 memories and {len(history_before)} history events to {target}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["bestie-export.json"]
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document["format"] == "bestie-memory-export" and len(document["memories"]) == 3

    memory("clear", "--yes")
    assert memory("import", str(target), "--dry-run") == (
        f"{target} is a valid export of 3 memories and {len(history_before)} history events; "
        "dry run, nothing was changed\n"
    )
    assert not Memory.objects.exists()
    assert memory("import", str(target)) == f"imported 3 memories and {len(history_before)} history events\n"
    assert list(Memory.objects.order_by("pk").values()) == memories_before
    assert list(AuditEvent.objects.order_by("pk").values()) == history_before


def test_export_to_stdout_and_import_from_stdin(db, monkeypatch):
    add_memory("Người dùng thích câu trả lời ngắn gọn.")
    exported = memory("export")
    assert json.loads(exported)["memories"][0]["text"] == "Người dùng thích câu trả lời ngắn gọn."
    memory("clear", "--yes")
    monkeypatch.setattr("sys.stdin", io.StringIO(exported))
    assert memory_json("import", "-") == {"memories": 1, "history": 1, "dropped_message_links": 0, "dry_run": False}
    assert Memory.objects.get().text == "Người dùng thích câu trả lời ngắn gọn."


def test_import_refuses_a_malformed_document_and_imports_nothing(db, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "bestie-memory-export", "version": 1, "memories": [\n{"id": "x"}\n]}')
    message = refused("import", str(broken))
    assert "line" in message
    assert f"cannot read {tmp_path / 'missing.json'}: No such file or directory" in refused(
        "import", str(tmp_path / "missing.json")
    )
    assert not Memory.objects.exists()


def test_export_to_a_directory_that_does_not_exist_fails_cleanly(db, tmp_path):
    add_memory()
    target = tmp_path / "nowhere" / "export.json"
    assert f"cannot write {target}: No such file or directory" in refused("export", "--output", str(target))


def test_an_unknown_verb_or_a_missing_one_is_a_usage_error(db):
    with pytest.raises(CommandError, match="invalid choice: 'remember'"):
        memory("remember")
    with pytest.raises(CommandError, match="the following arguments are required: VERB"):
        memory()
