"""The core profile: which memories are suggested for it, promoting and demoting through the write path,
approving a proposal into it, and its page (full page and htmx fragment)."""

from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from memories import lifecycle
from memories.models import AuditEvent, Memory, MemorySettings
from review import profile
from tests.console import ACTOR, HTMX, events, propose, text_of
from tests.factories import add_memory

pytestmark = pytest.mark.django_db


def kind_of(kind, subject="", scope="core", pinned=False):
    return SimpleNamespace(kind=kind, subject=subject, scope=scope, pinned=pinned)


# ---------------------------------------------------------------------------------------------------
# The suggestion rule


@pytest.mark.parametrize(
    "memory",
    [
        kind_of("communication_preference"),
        kind_of("communication_preference", "reply_length"),
        kind_of("addressing"),
        kind_of("identity", "name"),
        kind_of("identity_rule"),
        kind_of("preference", "language"),
        kind_of("preference", "Reply language"),
        kind_of("preference", "ngôn ngữ"),
        kind_of("preference", "xưng hô"),
        kind_of("preference", "tone"),
        kind_of("fact", "name"),
        kind_of("fact", "pronouns"),
        kind_of("decision", "release", pinned=True),
    ],
    ids=lambda m: f"{m.kind}:{m.subject}{':pinned' if m.pinned else ''}",
)
def test_what_the_profile_holds_is_suggested(memory):
    assert profile.belongs_to_profile(memory)


@pytest.mark.parametrize(
    "memory",
    [
        kind_of("preference", "package_manager"),
        kind_of("preference"),
        kind_of("fact", "home"),
        kind_of("fact", "cat_name"),
        kind_of("project_context", "language"),  # the project's programming language
        kind_of("decision", "release"),  # a decision the owner has not pinned
        kind_of("inside_joke"),
        kind_of("communication_preference", scope="project"),  # one project only, not everywhere
        kind_of("addressing", scope="session"),
    ],
    ids=lambda m: f"{m.kind}:{m.subject}:{m.scope}{':pinned' if m.pinned else ''}",
)
def test_what_it_does_not_hold_is_not(memory):
    assert not profile.belongs_to_profile(memory)


def test_suggestions_are_live_working_memories_of_the_profile_in_the_core_order():
    language = add_memory("User prefers Vietnamese replies.", subject="language", confidence=0.9)
    address = add_memory("Call the user anh Minh.", kind="addressing", confidence=1.0)
    pinned = add_memory("Reply briefly.", kind="communication_preference", pinned=True, confidence=0.6)
    add_memory("User prefers pnpm.", subject="package_manager")
    add_memory("Already core.", kind="addressing", layer="core")
    add_memory("Archived.", kind="addressing", layer="archive")
    stale = add_memory("Speak French.", subject="language")
    lifecycle.mark_stale([stale.pk], actor=ACTOR)
    propose("Pending.", kind="addressing")
    gone = add_memory("Deleted.", kind="addressing")
    lifecycle.soft_delete([gone.pk], actor=ACTOR, confirmed=True)

    assert [m.pk for m in profile.suggestions()] == [pinned.pk, address.pk, language.pk]
    assert [m.pk for m in profile.suggestions(limit=1)] == [pinned.pk]


def test_suggestions_are_read_in_slices_and_found_past_the_first():
    """Reading the candidates whole, PostgreSQL's cursor sorted every one of them first (60-80 ms at 100k
    memories): they are read a slice at a time, and what only a later slice holds is still found."""
    for i in range(profile.SUGGESTION_SLICE + 30):
        add_memory(f"User likes dish number {i}.", subject="food", confidence=0.9)
    wanted = add_memory("Call the user anh Minh.", kind="addressing", confidence=0.5)

    with CaptureQueriesContext(connection) as queries:
        found = profile.suggestions()

    assert [memory.pk for memory in found] == [wanted.pk]
    assert len(queries) == 2 and all("LIMIT" in query["sql"] for query in queries)


# ---------------------------------------------------------------------------------------------------
# Promote, demote, approve into core


def test_promote_and_demote_move_the_layer_through_the_write_path():
    memory = add_memory("Call the user anh Minh.", kind="addressing")

    profile.promote(memory.pk, actor=ACTOR)
    assert Memory.objects.get(pk=memory.pk).layer == "core"
    profile.demote(memory.pk, actor=ACTOR)
    assert Memory.objects.get(pk=memory.pk).layer == "working"

    moves = events(memory.pk, "move")
    assert [(e.actor, e.old, e.new) for e in moves] == [
        (ACTOR, {"layer": "working"}, {"layer": "core"}),
        (ACTOR, {"layer": "core"}, {"layer": "working"}),
    ]


@pytest.mark.parametrize(
    "setup, move, error",
    [
        ("pending", profile.promote, "is pending: only a live memory can join the core profile"),
        ("rejected", profile.promote, "is rejected: only a live memory can join the core profile"),
        ("core", profile.promote, "is already in the core profile"),
        ("working", profile.demote, "is not in the core profile"),
    ],
)
def test_a_move_that_cannot_be_says_why_and_changes_nothing(setup, move, error):
    if setup in ("pending", "rejected"):
        memory = propose("Call the user anh Minh.", kind="addressing")
        if setup == "rejected":
            lifecycle.reject([memory.pk], actor=ACTOR)
    else:
        memory = add_memory("Call the user anh Minh.", kind="addressing", layer=setup)
    before = (list(Memory.objects.values()), AuditEvent.objects.count())

    with pytest.raises(lifecycle.LifecycleError, match=error):
        move(memory.pk, actor=ACTOR)
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before


def test_an_unknown_id_is_named():
    with pytest.raises(lifecycle.NotFound, match="999999"):
        profile.promote(999_999, actor=ACTOR)


def test_approve_into_core_is_both_or_neither():
    memory = propose("Call the user anh Minh.", kind="addressing")

    profile.approve_into_core(memory.pk, actor=ACTOR)

    memory.refresh_from_db()
    assert (memory.status, memory.layer) == ("approved", "core")
    assert [e.event for e in events(memory.pk)][-2:] == ["move", "approve"]

    before = (list(Memory.objects.values()), AuditEvent.objects.count())
    with pytest.raises(lifecycle.LifecycleError, match="not pending"):
        profile.approve_into_core(memory.pk, actor=ACTOR)
    decided = add_memory("Reply briefly.", kind="communication_preference")
    with pytest.raises(lifecycle.LifecycleError, match="not pending"):
        profile.approve_into_core(decided.pk, actor=ACTOR)
    assert Memory.objects.get(pk=decided.pk).layer == "working"
    assert AuditEvent.objects.count() == before[1] + 1  # only the add of ``decided``


# ---------------------------------------------------------------------------------------------------
# What the page shows


def test_curation_shows_what_a_request_gets_and_why_the_rest_is_left_out(settings):
    settings.BESTIE_CONFIDENCE_FLOOR = 0.5
    everywhere = add_memory("User prefers Vietnamese replies.", subject="language", layer="core")
    other_user = add_memory("Call Lan chị Lan.", kind="addressing", user="lan", layer="core")
    unsure = add_memory("User may be called Minh.", kind="addressing", layer="core", confidence=0.2)
    stale = add_memory("Speak French.", subject="language", layer="core")
    lifecycle.mark_stale([stale.pk], actor=ACTOR)
    suggestion = add_memory("Call the user anh Minh.", kind="addressing")

    shown = profile.curation()

    assert [item.id for item in shown.profile.memories] == [everywhere.pk]
    reasons = {item.memory.pk: item.left_out for item in shown.core}
    assert reasons[everywhere.pk] == ""
    assert reasons[other_user.pk].startswith("not for this request")
    assert reasons[unsure.pk].startswith("not for this request")
    assert reasons[stale.pk].startswith("stale")
    assert [item.memory.pk for item in shown.suggestions] == [suggestion.pk]
    assert shown.suggestions[0].tokens > 0

    as_lan = profile.curation(user="lan")
    assert {item.id for item in as_lan.profile.memories} == {everywhere.pk, other_user.pk}


def test_curation_says_what_does_not_fit_the_budget():
    MemorySettings.objects.filter(pk=MemorySettings.load().pk).update(core_budget_tokens=20)
    first = add_memory("User prefers Vietnamese replies.", subject="language", layer="core", pinned=True)
    second = add_memory("Call the user anh Minh, always, in every single reply.", kind="addressing", layer="core")

    shown = profile.curation()

    assert [item.id for item in shown.profile.memories] == [first.pk]
    assert shown.profile.over_budget
    assert {item.memory.pk: item.left_out for item in shown.core}[second.pk] == "does not fit the core budget"
    assert profile.overflows(second.pk) and not profile.overflows(first.pk)


def test_curation_while_paused_says_so():
    memory = add_memory("User prefers Vietnamese replies.", subject="language", layer="core")
    MemorySettings.objects.update(paused=True)

    shown = profile.curation()

    assert shown.profile.paused and shown.core[0].memory.pk == memory.pk
    assert shown.core[0].left_out == "memory is paused"


# ---------------------------------------------------------------------------------------------------
# The page


def test_the_page_full_and_as_a_fragment(console):
    core = add_memory("User prefers Vietnamese replies.", subject="language", layer="core")
    suggestion = add_memory("Call the user anh Minh.", kind="addressing")
    add_memory("User prefers pnpm.", subject="package_manager")

    full = text_of(console.get("/core/"))
    fragment = text_of(console.get("/core/", **HTMX))

    assert '<a href="/core/">Core profile</a>' in full and "<html" in full
    assert "Pinning alone does not inject it" in full and "Only core is always injected" in full
    assert "<html" not in fragment and fragment.lstrip().startswith('<section id="profile">')
    for page in (full, fragment):
        tokens = MemorySettings.load().core_budget_tokens
        assert f"/ {tokens} tokens" in page and f'max="{tokens}"' in page
        assert "- User prefers Vietnamese replies (confirmed " in page
        assert f'id="core-{core.pk}"' in page and f'action="/core/{core.pk}/demote/"' in page
        assert f'id="suggestion-{suggestion.pk}"' in page and f'action="/core/{suggestion.pk}/promote/"' in page
        assert 'hx-target="#profile"' in page
        assert "User prefers pnpm." not in page


def test_an_empty_store_says_what_to_promote(console):
    page = text_of(console.get("/core/"))

    assert "0 / " in page and "Nothing is always injected yet" in page
    assert "No live memory is in the core layer." in page


def test_promote_in_place_changes_the_tokens(console):
    memory = add_memory("Call the user anh Minh.", kind="addressing")
    assert "0 / " in text_of(console.get("/core/", **HTMX))

    response = console.post(f"/core/{memory.pk}/promote/", {"user": "", "next": "/core/"}, **HTMX)

    page = text_of(response)
    tokens = profile.curation().profile.tokens
    assert tokens > 0 and f"{tokens} / " in page
    assert f"#{memory.pk} is in the core profile: always injected." in page
    assert f'id="core-{memory.pk}"' in page and f'id="suggestion-{memory.pk}"' not in page
    assert Memory.objects.get(pk=memory.pk).layer == "core"
    assert [e.actor for e in events(memory.pk, "move")] == [ACTOR]


def test_demote_without_javascript_goes_back_with_a_message(console):
    memory = add_memory("Call the user anh Minh.", kind="addressing", layer="core")

    response = console.post(f"/core/{memory.pk}/demote/", {"user": "lan", "next": "/core/?user=lan"}, follow=True)

    assert response.redirect_chain[-1][0] == "/core/?user=lan"
    assert f"#{memory.pk} is back in working: injected only when relevant." in text_of(response)
    assert Memory.objects.get(pk=memory.pk).layer == "working"


def test_the_request_shown_travels_with_a_move(console):
    memory = add_memory("Call Lan chị Lan.", kind="addressing", user="lan")

    page = text_of(console.get("/core/?user=lan"))
    form = page.split(f'action="/core/{memory.pk}/promote/"')[1].split("</form>")[0]
    assert 'name="user" value="lan"' in form and 'name="next" value="/core/?user=lan"' in form

    after = text_of(console.post(f"/core/{memory.pk}/promote/", {"user": "lan"}, **HTMX))
    assert "- Call Lan chị Lan (confirmed " in after


def test_a_promotion_over_the_budget_warns(console):
    MemorySettings.objects.filter(pk=MemorySettings.load().pk).update(core_budget_tokens=12)
    add_memory("User prefers Vietnamese replies.", subject="language", layer="core", pinned=True)
    memory = add_memory("Call the user anh Minh in every reply.", kind="addressing")

    page = text_of(console.post(f"/core/{memory.pk}/promote/", **HTMX))

    assert "It does not fit the core budget" in page and "left out: does not fit the core budget" in page
    assert Memory.objects.get(pk=memory.pk).layer == "core"


def test_a_refused_move_shows_the_reason_and_changes_nothing(console):
    memory = propose("Call the user anh Minh.", kind="addressing")
    before = (list(Memory.objects.values()), AuditEvent.objects.count())

    page = text_of(console.post(f"/core/{memory.pk}/promote/", **HTMX))
    missing = text_of(console.post("/core/999999/demote/", follow=True))

    assert f"memory {memory.pk} is pending: only a live memory can join the core profile" in page
    assert "999999" in missing
    assert (list(Memory.objects.values()), AuditEvent.objects.count()) == before


def test_a_too_long_request_field_is_an_error_not_a_500(console):
    response = console.get("/core/?user=" + "x" * 500)

    assert response.status_code == 200 and "at most" in text_of(response)


def test_moves_need_a_csrf_token(owner):
    memory = add_memory("Call the user anh Minh.", kind="addressing")
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)

    assert client.post(f"/core/{memory.pk}/promote/").status_code == 403
    assert client.post(f"/pending/{memory.pk}/approve-core/").status_code == 403
    assert Memory.objects.get(pk=memory.pk).layer == "working"


def test_text_is_escaped(console):
    add_memory("<script>alert(1)</script>", kind="addressing")

    page = text_of(console.get("/core/"))

    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# ---------------------------------------------------------------------------------------------------
# The pending queue suggests the core layer for the profile's proposals


def test_the_queue_suggests_core_for_a_proposal_of_the_profile(console):
    address = propose("Call the user anh Minh.", kind="addressing")
    tea = propose("User likes tea.")

    page = text_of(console.get("/pending/"))
    item = page.split(f'id="item-{address.pk}"')[1].split("</li>")[0]
    other = page.split(f'id="item-{tea.pk}"')[1].split("</li>")[0]

    assert "suggested for core" in item and f'action="/pending/{address.pk}/approve-core/"' in item
    assert "Approve into core" in item
    assert "suggested for core" not in other and "approve-core" not in other


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_approve_into_core(console, headers):
    memory = propose("Call the user anh Minh.", kind="addressing")

    response = console.post(f"/pending/{memory.pk}/approve-core/", **headers)

    memory.refresh_from_db()
    assert (memory.status, memory.layer) == ("approved", "core")
    if headers:
        assert f"Approved #{memory.pk} into the core profile." in text_of(response)
    assert "- Call the user anh Minh (confirmed " in text_of(console.get("/core/"))


def test_approve_into_core_of_a_flagged_proposal_takes_the_second_step(console):
    memory = propose("Always call the user boss.", kind="addressing", source_kind="tool_output", flags=["tool_output"])

    item = text_of(console.get("/pending/")).split(f'id="item-{memory.pk}"')[1].split("</li>")[0]
    asked = text_of(console.post(f"/pending/{memory.pk}/approve-core/", **HTMX))

    assert "Approve into core…" in item
    assert "Approve anyway" in asked and f'hx-post="/pending/{memory.pk}/approve-core/"' in asked
    assert (Memory.objects.get(pk=memory.pk).status, Memory.objects.get(pk=memory.pk).layer) == ("pending", "working")

    console.post(f"/pending/{memory.pk}/approve-core/", {"confirm": "yes"}, **HTMX)
    memory.refresh_from_db()
    assert (memory.status, memory.layer) == ("approved", "core")
