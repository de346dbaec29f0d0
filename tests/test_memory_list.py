"""The memory list with its bulk actions, a memory's detail page, the export download and escaping."""

import json
from datetime import UTC, datetime

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories import lifecycle, transfer
from memories.lifecycle import policies
from memories.models import Memory, Message
from tests.console import ACTOR, HTMX, events, plans_of, propose, set_planner_statistics, text_of, uses_index
from tests.factories import add_memory

pytestmark = pytest.mark.django_db


def rows_on(response):
    return {int(part.split("/")[0]) for part in text_of(response).split('<td><a href="/memories/')[1:]}


def test_memory_list_full_page_fragment_and_filters(console):
    live = add_memory("User prefers concise replies.", layer="core", pinned=True)
    archived = add_memory("Old trip to Huế.", layer="archive")
    waiting = propose("User likes tea.")
    lifecycle.reject([propose("Bad idea.").pk], actor=ACTOR)

    full, fragment = console.get("/memories/"), console.get("/memories/?state=live", **HTMX)

    assert "<html" in text_of(full) and "<html" not in text_of(fragment)
    assert len(rows_on(full)) == 4
    assert rows_on(fragment) == {live.pk, archived.pk}
    assert rows_on(console.get("/memories/?state=pending")) == {waiting.pk}
    assert rows_on(console.get("/memories/?layer=archive")) == {archived.pk}
    assert rows_on(console.get("/memories/?pinned=true")) == {live.pk}
    assert rows_on(console.get("/memories/?q=hue")) == {archived.pk}


@pytest.mark.sqlite
@pytest.mark.parametrize("statistics", ["none", "sampled"])
def test_a_layers_live_memories_are_read_newest_first_from_their_index(console, statistics):
    """The dashboard links each layer's live memories (``?state=live&layer=…``): at 100k memories the
    page sorted the layer's 40,000 approved rows to show 50 (70 ms)."""
    for i in range(40):
        add_memory(f"User fact number {i}.", layer=["core", "working", "archive"][i % 3])
    set_planner_statistics(statistics)

    [(sql, plan)] = plans_of(lambda: console.get("/memories/?state=live&layer=working", **HTMX))

    assert uses_index(plan, "memory_live") and "TEMP B-TREE" not in plan, plan


def test_states_are_shown_in_the_owners_language(console):
    live = add_memory("User prefers concise replies.")
    waiting = propose("User likes tea.")
    console.post("/i18n/setlang/", {"language": "vi", "next": "/memories/"})

    listed = text_of(console.get("/memories/"))
    assert '<span class="state live">còn hiệu lực</span>' in listed
    assert '<span class="state pending">chờ duyệt</span>' in listed
    assert '<span class="state live">còn hiệu lực</span>' in text_of(console.get(f"/memories/{live.pk}/"))

    lifecycle.approve([waiting.pk], actor=ACTOR)
    late = console.get(f"/pending/{waiting.pk}/edit/", follow=True)
    assert f"Ký ức #{waiting.pk} đang ở trạng thái còn hiệu lực, không còn chờ duyệt." in text_of(late)
    twice = console.post(f"/pending/{waiting.pk}/approve/", follow=True)
    assert f"{waiting.pk} (còn hiệu lực)" in text_of(twice)


@pytest.mark.parametrize(
    "action, check",
    [
        ("pin", lambda m: m.pinned),
        ("unpin", lambda m: not m.pinned),
        ("confirm", lambda m: not m.stale),
    ],
)
def test_bulk_actions_on_memories_after_a_confirmation(console, action, check):
    memories = [add_memory(f"Memory {i}.", pinned=action == "unpin") for i in range(2)]
    ids = [m.pk for m in memories]

    confirm = console.post("/memories/bulk/", {"ids": ids, "action": action, "next": "/memories/?kind=preference"})
    assert confirm.status_code == 200 and "Memory 0." in text_of(confirm)
    assert events(ids[0], action) == []

    done = console.post(
        "/memories/bulk/", {"ids": ids, "action": action, "confirm": "yes", "next": "/memories/?kind=preference"}
    )
    assert done["Location"] == "/memories/?kind=preference"
    for memory in Memory.objects.filter(pk__in=ids):
        assert check(memory)
        assert [e.actor for e in events(memory.pk, action)] == [ACTOR]


def test_bulk_forget_erases_and_the_delete_policy_deny_refuses_it(console):
    kept, doomed = add_memory("Keep me."), add_memory("Forget me.")
    policies.set_delete_policy("deny", actor=ACTOR)

    refused = console.post("/memories/bulk/", {"ids": [doomed.pk], "action": "forget", "confirm": "yes"}, follow=True)
    assert "delete policy is deny" in text_of(refused)
    assert Memory.objects.filter(pk=doomed.pk).exists()

    policies.set_delete_policy("ask", actor=ACTOR)
    console.post("/memories/bulk/", {"ids": [doomed.pk], "action": "forget", "confirm": "yes"})
    assert not Memory.objects.filter(pk=doomed.pk).exists()
    assert Memory.objects.filter(pk=kept.pk).exists()
    [event] = events(doomed.pk, "forget")
    assert event.actor == ACTOR and event.text_sha256 == lifecycle.text_sha256("Forget me.")


def test_memory_detail_shows_fields_history_and_the_supersede_chain_both_ways(console):
    message = Message.objects.create(role="user", text="btw I switched to pnpm")
    oldest = add_memory("User uses npm.", subject="package_manager")
    middle = add_memory("User uses yarn.", subject="package_manager", message=message)
    newest = add_memory("User uses pnpm.", subject="package_manager")
    lifecycle.supersede(oldest.pk, middle.pk, actor=ACTOR)
    lifecycle.supersede(middle.pk, newest.pk, actor=ACTOR)
    lifecycle.edit(middle.pk, "User uses yarn 4.", actor=ACTOR)

    page = text_of(console.get(f"/memories/{middle.pk}/"))

    assert "User uses yarn 4." in page and "superseded</span>" in page
    assert "btw I switched to pnpm" in page
    replaced_by = page.split("Replaced by")[1].split("Replaces")[0]
    replaces = page.split("Replaces")[1].split("History")[0]
    assert f"/memories/{newest.pk}/" in replaced_by and f"/memories/{oldest.pk}/" not in replaced_by
    assert f"/memories/{oldest.pk}/" in replaces and f"/memories/{newest.pk}/" not in replaces
    history = page.split("History")[1]
    assert (
        history.index('<strong title="add">addition</strong>')
        < history.index('<strong title="supersede">replacement</strong>')
        < history.index('<strong title="edit">edit</strong>')
    )
    assert "<del>User uses yarn.</del> → <ins>User uses yarn 4.</ins>" in history
    assert console.get("/memories/999999/").status_code == 404


def test_a_memorys_page_runs_as_many_queries_however_long_its_history(console, django_assert_max_num_queries):
    """Whether each change can be reverted was read with two queries per event of the history (a memory
    changed twenty times took 37 queries); what followed the events is now read once for all of them."""
    memory = add_memory("User drinks tea.")
    lifecycle.pin(memory.pk, actor=ACTOR)
    with CaptureQueriesContext(connection) as short:
        console.get(f"/memories/{memory.pk}/")
    for turn in range(10):
        lifecycle.edit(memory.pk, f"User drinks {turn + 2} cups of tea.", actor=ACTOR)

    with django_assert_max_num_queries(len(short)):
        page = text_of(console.get(f"/memories/{memory.pk}/"))

    # Only the latest change of each field can be reverted: the last edit and the pin.
    assert page.count("Revert this edit") == 1 and page.count("Revert this pin") == 1


def test_a_rejected_or_superseded_memory_offers_no_pin_or_confirm_and_refuses_them(console):
    live = add_memory("User uses pnpm.")
    replaced = add_memory("User uses npm.")
    lifecycle.supersede(replaced.pk, live.pk, actor=ACTOR)
    rejected = propose("Always skip the checks.")
    lifecycle.reject([rejected.pk], actor=ACTOR)

    page = text_of(console.get(f"/memories/{live.pk}/"))
    assert f"/memories/{live.pk}/pin/" in page and f"/memories/{live.pk}/confirm/" in page
    assert 'value="forget"' in page
    for memory in (replaced, rejected):
        page = text_of(console.get(f"/memories/{memory.pk}/"))
        assert f"/memories/{memory.pk}/pin/" not in page and f"/memories/{memory.pk}/confirm/" not in page
        assert 'value="forget"' in page

    for action, done in (("pin", "pinned"), ("confirm", "confirmed")):
        shown = console.post(
            "/memories/bulk/", {"ids": [live.pk, replaced.pk], "action": action, "confirm": "yes"}, follow=True
        )
        assert f"memory {replaced.pk} is superseded: only a live or pending memory can be {done}" in text_of(shown)
        assert events(live.pk, action) == [] and events(replaced.pk, action) == []
    assert not Memory.objects.get(pk=replaced.pk).pinned


def test_export_download_is_the_transfer_document(console):
    add_memory("User prefers concise replies.", layer="core")
    add_memory("Old trip to Huế.", layer="archive")
    propose("User likes tea.")
    at = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)

    with time_machine.travel(at, tick=False):
        response = console.get("/export/")
        body = b"".join(response.streaming_content).decode()
        expected = "".join(transfer.iter_export())
        filtered = b"".join(console.get("/export/?layer=archive").streaming_content).decode()
        expected_filtered = "".join(transfer.iter_export(Memory.objects.filter(layer="archive")))
        invalid = console.get("/export/?state=galaxy")

    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="bestie-export-20260504-090000.json"'
    assert body == expected
    assert len(json.loads(body)["memories"]) == 3
    assert filtered == expected_filtered
    assert [m["text"] for m in json.loads(filtered)["memories"]] == ["Old trip to Huế."]
    assert invalid.status_code == 400


XSS = "<script>alert(1)</script>"


def test_a_script_in_a_memory_is_escaped_everywhere(console):
    message = Message.objects.create(role="tool", text=f"page said {XSS}")
    memory = propose(
        f"User said {XSS}", source=f"web {XSS}", source_kind="tool_output", flags=["tool_output"], message=message
    )

    for url in ("/pending/", f"/pending/{memory.pk}/edit/", "/memories/", f"/memories/{memory.pk}/"):
        page = text_of(console.get(url))
        assert XSS not in page, url
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, url
    assert XSS not in text_of(console.get("/pending/", **HTMX))
