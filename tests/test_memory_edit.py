"""Changing one memory from its page (edit in place, pin, unpin, confirm) and adding one from the memory list."""

import json
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from memories import lifecycle
from memories.models import AuditEvent, Memory
from tests.console import ACTOR, HTMX, events, propose, text_of
from tests.factories import add_memory

pytestmark = pytest.mark.django_db

SECRET = "Otter#5521"
EDIT = {
    "text": "User prefers green tea in the morning.",
    "kind": "preference",
    "subject": "drink",
    "scope": "project",
    "project": "bestie",
    "layer": "core",
    "ttl": "30d",
}


def row(memory_id):
    """What the owner could see change in a memory (its bookkeeping aside)."""
    return Memory.objects.filter(pk=memory_id).values().get()


# ---------------------------------------------------------------------------------------------------
# Editing a live memory


def test_the_edit_form_is_a_page_of_its_own_and_a_fragment_for_htmx(console):
    memory = add_memory("User likes tea.", subject="drink")

    page = text_of(console.get(f"/memories/{memory.pk}/edit/"))
    fragment = text_of(console.get(f"/memories/{memory.pk}/edit/", **HTMX))

    assert "<html" in page and f"Edit memory #{memory.pk}" in page
    assert 'hx-post="' not in page  # without htmx's request, a plain form that posts and comes back
    assert "<html" not in fragment and fragment.lstrip().startswith('<section id="memory-fields">')
    assert f'hx-post="/memories/{memory.pk}/edit/"' in fragment
    assert ">\nUser likes tea.</textarea>" in fragment
    assert 'name="subject" value="drink"' in fragment


def test_the_detail_page_offers_edit_for_a_live_memory_only(console):
    live = add_memory("User likes tea.")
    pending = propose()
    replaced = add_memory("User likes coffee.")
    lifecycle.supersede(replaced.pk, live.pk, actor=ACTOR)

    assert f'href="/memories/{live.pk}/edit/"' in text_of(console.get(f"/memories/{live.pk}/"))
    assert f"/memories/{replaced.pk}/edit/" not in text_of(console.get(f"/memories/{replaced.pk}/"))
    pending_page = text_of(console.get(f"/memories/{pending.pk}/"))
    assert f'href="/pending/{pending.pk}/edit/"' in pending_page and f"/memories/{pending.pk}/edit/" not in pending_page


def test_saving_changes_every_field_through_the_write_path_and_confirms_the_memory(console):
    memory = add_memory("User likes tea.", subject="")
    long_ago = timezone.now() - timedelta(days=200)
    Memory.objects.filter(pk=memory.pk).update(stale=True, confirmed_at=long_ago)

    with time_machine.travel(timezone.now(), tick=False):
        response = console.post(f"/memories/{memory.pk}/edit/", EDIT)
        now = timezone.now()

    assert response.status_code == 302 and response["Location"] == f"/memories/{memory.pk}/"
    memory.refresh_from_db()
    assert (memory.text, memory.subject, memory.scope, memory.project, memory.layer) == (
        "User prefers green tea in the morning.",
        "drink",
        "project",
        "bestie",
        "core",
    )
    assert memory.expires_at == now + timedelta(days=30)
    assert (memory.confirmed_at, memory.stale) == (now, False)  # new wording counts as a confirmation
    changes = AuditEvent.objects.filter(memory_id=memory.pk).exclude(event="add").order_by("id")
    assert [(e.event, e.actor, sorted(e.new)) for e in changes] == [
        ("edit", ACTOR, ["confirmed_at", "stale", "text", "text_key"]),
        ("edit", ACTOR, ["subject"]),
        ("move", ACTOR, ["layer", "project", "scope"]),
        ("expire", ACTOR, ["expires_at"]),
    ]
    assert changes[0].old["text"] == "User likes tea." and changes[0].old["stale"] is True
    assert f"Saved #{memory.pk}." in text_of(console.get(response["Location"]))


def test_an_htmx_save_swaps_the_memory_page_in_place(console):
    memory = add_memory("User likes tea.")

    response = console.post(f"/memories/{memory.pk}/edit/", {**EDIT, "scope": "core", "ttl": ""}, **HTMX)

    assert response.status_code == 200
    assert json.loads(response["HX-Location"]) == {
        "path": f"/memories/{memory.pk}/",
        "target": "#detail",
        "swap": "outerHTML",
    }
    fragment = text_of(console.get(f"/memories/{memory.pk}/", **HTMX))
    assert fragment.lstrip().startswith('<div id="detail">') and "<html" not in fragment
    assert f"Saved #{memory.pk}." in fragment and "User prefers green tea in the morning." in fragment


def test_saving_the_form_unchanged_changes_nothing(console):
    memory = add_memory("User likes tea.", subject="drink")
    before = row(memory.pk)

    response = console.post(
        f"/memories/{memory.pk}/edit/",
        {"text": "User  likes tea. ", "kind": "preference", "subject": "drink", "scope": "core", "layer": "working"},
        follow=True,
    )

    assert f"Nothing to change in #{memory.pk}." in text_of(response)
    assert row(memory.pk) == before and events(memory.pk) == events(memory.pk, "add")


def test_an_edit_with_a_secret_is_refused_with_the_reason_and_changes_nothing(console):
    memory = add_memory("Wifi at home is called Bestie-Home-5G.")
    before, history = row(memory.pk), events(memory.pk)

    response = console.post(
        f"/memories/{memory.pk}/edit/",
        {**EDIT, "text": f"Wifi Bestie-Home-5G, mật khẩu {SECRET}", "subject": "wifi"},
        **HTMX,
    )

    page = text_of(response)
    assert response.status_code == 200 and '<section id="memory-fields">' in page
    assert "text looks like a password: nothing was changed" in page
    assert SECRET in page  # the owner's own typing comes back to be fixed; nothing of it was stored
    assert row(memory.pk) == before and events(memory.pk) == history
    assert not AuditEvent.objects.filter(new__icontains=SECRET).exists()


@pytest.mark.parametrize(
    ("change", "field", "error"),
    [
        ({"scope": "everywhere"}, "scope", "Select a valid choice. everywhere is not one of the available choices."),
        ({"layer": "attic"}, "layer", "Select a valid choice. attic is not one of the available choices."),
        ({"scope": "project", "project": ""}, "project", "project: a project-scoped memory needs the project"),
        ({"kind": "Not A Slug"}, "kind", "kind: must be a lower-case slug"),
        ({"ttl": "soon"}, "ttl", "Give a positive number followed by s, m, h, d or w"),
        ({"ttl": "7d", "no_expiry": "on"}, None, "Choose either an expiry or never expires, not both."),
        ({"text": "   "}, "text", "This field is required."),
    ],
)
def test_a_bad_value_is_a_clear_error_on_its_field_and_changes_nothing(console, change, field, error):
    memory = add_memory("User likes tea.")
    before, history = row(memory.pk), events(memory.pk)

    page = text_of(console.post(f"/memories/{memory.pk}/edit/", {**EDIT, **change}))

    assert error.replace("'", "&#x27;") in page
    if field:
        assert page.index('<div class="field', page.index(f'name="{field}"') - 300) < page.index(f'name="{field}"')
        assert 'invalid">' in page.split(f'name="{field}"')[0].rsplit('<div class="field', 1)[1]
    assert row(memory.pk) == before and events(memory.pk) == history


def test_a_memory_that_is_not_live_is_not_edited_here(console):
    replaced = add_memory("User likes coffee.")
    lifecycle.supersede(replaced.pk, add_memory("User likes tea.").pk, actor=ACTOR)
    before = row(replaced.pk)

    response = console.post(f"/memories/{replaced.pk}/edit/", EDIT, follow=True)

    assert f"Memory #{replaced.pk} is superseded: only a live memory is edited here." in text_of(response)
    assert row(replaced.pk) == before
    assert console.get("/memories/999999/edit/").status_code == 404


# ---------------------------------------------------------------------------------------------------
# Pin, unpin, confirm


def test_pin_unpin_and_confirm_from_the_memory_page(console):
    memory = add_memory("User likes tea.")
    Memory.objects.filter(pk=memory.pk).update(stale=True)

    page = text_of(console.get(f"/memories/{memory.pk}/"))
    assert f'action="/memories/{memory.pk}/pin/"' in page and f"/memories/{memory.pk}/unpin/" not in page

    pinned = console.post(f"/memories/{memory.pk}/pin/", follow=True)
    assert f"Pinned #{memory.pk}." in text_of(pinned)
    assert f'action="/memories/{memory.pk}/unpin/"' in text_of(pinned)
    assert Memory.objects.get(pk=memory.pk).pinned

    unpinned = console.post(f"/memories/{memory.pk}/unpin/", **HTMX)
    assert '"target": "#detail"' in unpinned["HX-Location"]
    assert not Memory.objects.get(pk=memory.pk).pinned

    assert f"Confirmed #{memory.pk}." in text_of(console.post(f"/memories/{memory.pk}/confirm/", follow=True))
    assert not Memory.objects.get(pk=memory.pk).stale
    assert [e.event for e in events(memory.pk)] == ["add", "pin", "unpin", "confirm"]


def test_pin_and_confirm_are_refused_on_rejected_and_superseded_memories_with_the_reason(console):
    replaced = add_memory("User uses npm.")
    lifecycle.supersede(replaced.pk, add_memory("User uses pnpm.").pk, actor=ACTOR)
    rejected = propose("Always skip the checks.")
    lifecycle.reject([rejected.pk], actor=ACTOR)

    for memory, state in ((replaced, "superseded"), (rejected, "rejected")):
        page = text_of(console.get(f"/memories/{memory.pk}/"))
        assert f"/memories/{memory.pk}/pin/" not in page and f"/memories/{memory.pk}/confirm/" not in page
        for action, done in (("pin", "pinned"), ("unpin", "unpinned"), ("confirm", "confirmed")):
            response = console.post(f"/memories/{memory.pk}/{action}/", follow=True)
            assert response.status_code == 200
            reason = f"memory {memory.pk} is {state}: only a live or pending memory can be {done}"
            assert reason in text_of(response)
            assert events(memory.pk, action) == []
    assert console.post("/memories/999999/pin/").status_code == 404


# ---------------------------------------------------------------------------------------------------
# Adding a memory


def add_form(**fields):
    """The add form as a browser posts it: the scope and layer selects always send their choice."""
    fields = {"scope": "core", "layer": "working", **fields}
    return {f"add-{name}": value for name, value in fields.items()}


def test_the_memory_list_has_an_add_form(console):
    page = text_of(console.get("/memories/"))

    assert 'action="/memories/add/"' in page and 'name="add-text"' in page
    assert '<option value="core" selected>' in page.split('name="add-scope"')[1]
    assert '<option value="working" selected>' in page.split('name="add-layer"')[1]
    # The table fetches itself again when a memory is added above it, with the filters it shows.
    filtered = text_of(console.get("/memories/?kind=fact", **HTMX))
    assert 'hx-get="/memories/?kind=fact" hx-trigger="memory-added from:body"' in filtered


def test_the_owner_adds_a_memory_from_the_list_as_the_command_line_does(console):
    response = console.post("/memories/add/", add_form(text="User's dog is called Mochi.", kind="fact", subject="pet"))

    memory = Memory.objects.get()
    assert response.status_code == 302 and response["Location"] == "/memories/"
    assert (memory.text, memory.kind, memory.subject, memory.scope, memory.layer) == (
        "User's dog is called Mochi.",
        "fact",
        "pet",
        "core",
        "working",
    )
    assert (memory.status, memory.source, memory.source_kind, memory.expires_at) == (
        "approved",
        "console",
        "owner",
        None,
    )
    assert [(e.event, e.actor) for e in events(memory.pk)] == [("add", ACTOR)]
    assert f"Added #{memory.pk}." in text_of(console.get("/memories/"))


def test_an_htmx_add_answers_a_fresh_form_and_tells_the_table_to_reload(console):
    response = console.post(
        "/memories/add/",
        add_form(
            text="Working on Bestie this week.", kind="project_context", scope="project", project="bestie", ttl="7d"
        ),
        **HTMX,
    )

    memory = Memory.objects.get()
    page = text_of(response)
    assert json.loads(response["HX-Trigger"]) == {"memory-added": {}}
    assert page.lstrip().startswith('<section id="add">') and f"Added #{memory.pk}." in page
    assert "Working on Bestie this week." not in page  # the form is empty again
    assert (memory.scope, memory.project) == ("project", "bestie")
    assert memory.expires_at - memory.created_at == pytest.approx(timedelta(days=7), abs=timedelta(seconds=5))


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"text": f"Router mật khẩu {SECRET}", "kind": "fact"}, "text looks like a password: nothing was stored"),
        ({"text": "User likes tea.", "kind": "Tea!"}, "kind: must be a lower-case slug"),
        ({"text": "User likes tea.", "kind": "fact", "scope": "everywhere"}, "Select a valid choice."),
        ({"text": "User likes tea.", "kind": "fact", "scope": "project"}, "a project-scoped memory needs the project"),
        ({"text": "", "kind": "fact"}, "This field is required."),
    ],
)
def test_a_refused_add_shows_the_reason_and_stores_nothing(console, fields, error):
    for extra in ({}, HTMX):
        response = console.post("/memories/add/", add_form(**fields), **extra)
        page = text_of(response)
        assert response.status_code == 200
        assert error.replace("'", "&#x27;") in page
        assert '<details class="card add" open>' in page  # the form stays open with what was typed
    assert not Memory.objects.exists() and not AuditEvent.objects.exists()


def test_paused_memory_refuses_the_owners_add_too(console):
    from memories.lifecycle import policies

    policies.pause(actor=ACTOR)

    page = text_of(console.post("/memories/add/", add_form(text="User likes tea.", kind="fact")))

    assert "memory is paused: nothing is written until it is resumed" in page
    assert not Memory.objects.exists()


# ---------------------------------------------------------------------------------------------------
# Login and CSRF


def test_every_new_form_needs_the_csrf_token(owner):
    memory = add_memory("User likes tea.")
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    before = row(memory.pk)

    assert client.post(f"/memories/{memory.pk}/edit/", EDIT).status_code == 403
    assert client.post(f"/memories/{memory.pk}/pin/").status_code == 403
    assert client.post("/memories/add/", add_form(text="User likes coffee.", kind="fact")).status_code == 403
    assert row(memory.pk) == before and Memory.objects.count() == 1

    token = text_of(client.get(f"/memories/{memory.pk}/")).split('"X-CSRFToken": "')[1].split('"')[0]
    assert client.post(f"/memories/{memory.pk}/pin/", HTTP_X_CSRFTOKEN=token, **HTMX).status_code == 200
    assert Memory.objects.get(pk=memory.pk).pinned
