"""Retrieval and prompt assembly (SPEC §4): scoring, tiers, budgets, governance, access statistics."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from governance import doctor, rebalance
from memories import lifecycle
from memories.lifecycle import policies
from memories.models import Layer, Memory, MemorySettings, Scope
from memories.retrieval import build_context
from memories.retrieval.context import MIN_MATCH, MIN_SCORE, Weights
from memories.retrieval.prompt import core_report, line, line_tokens, prompt_tokens
from memories.retrieval.relevance import query_terms
from tests.cli import memory, memory_json, refused
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 5, 2, 9, 0, tzinfo=UTC)


def working_ids(context):
    return [item.id for item in context.items if item.layer == Layer.WORKING]


def everywhere(text, **fields):
    """A working memory of no particular user, project or channel."""
    return add_memory(text, **fields).pk


def same_relevance_pair(**first):
    """Two memories the query "espresso" finds equally relevant; ``first`` changes the first one."""
    a = everywhere("Likes espresso after lunch.", **first)
    b = everywhere("Likes espresso after dinner.")
    return a, b


# ---------------------------------------------------------------------------------------------------
# Each signal moves the ranking


def test_relevance_ranks_the_memory_with_more_of_the_query_first():
    two_words = everywhere("The monorepo is built with pnpm.")
    all_words = everywhere("The monorepo uses pnpm workspaces.")
    unrelated = everywhere("Likes green tea.")

    context = build_context("pnpm workspace for the monorepo")

    assert working_ids(context) == [all_words, two_words]
    assert unrelated not in working_ids(context)
    first, second = context.items
    assert first.signals["relevance"] > second.signals["relevance"]


def test_recency_prefers_the_memory_confirmed_more_recently():
    with time_machine.travel(NOW - timedelta(days=300), tick=False):
        old = everywhere("Likes espresso after lunch.")
    with time_machine.travel(NOW - timedelta(days=1), tick=False):
        recent = everywhere("Likes espresso after dinner.")
    with time_machine.travel(NOW, tick=False):
        context = build_context("espresso", record_access=False)
    assert working_ids(context) == [recent, old]
    assert context.items[0].signals["recency"] > context.items[1].signals["recency"]


def test_access_count_prefers_the_memory_used_more_often():
    rarely, often = same_relevance_pair()
    Memory.objects.filter(pk=often).update(access_count=40)
    context = build_context("espresso", record_access=False)
    assert working_ids(context) == [often, rarely]
    assert context.items[0].signals["access"] > 0 == context.items[1].signals["access"]


def test_confidence_prefers_the_surer_memory():
    unsure, sure = same_relevance_pair(confidence=0.6)
    context = build_context("espresso", record_access=False)
    assert working_ids(context) == [sure, unsure]


def test_pinned_working_memory_ranks_above_an_equal_unpinned_one():
    pinned, plain = same_relevance_pair(pinned=True)
    # Without the pin the younger id would win the tie; make sure the pin is what decides.
    context = build_context("espresso", record_access=False)
    assert working_ids(context) == [pinned, plain]
    assert context.items[0].signals["pinned"] == Weights().pinned


def test_context_match_prefers_the_users_own_memory_over_an_everyone_memory():
    anyone = everywhere("Likes espresso after lunch.")
    mine = everywhere("Likes espresso after dinner.", user="lan")
    context = build_context("espresso", user="lan", record_access=False)
    assert working_ids(context) == [mine, anyone]
    assert context.items[0].signals["context"] > context.items[1].signals["context"]


def test_signals_cannot_lift_an_unrelated_memory_above_a_match():
    with time_machine.travel(datetime.now(UTC) - timedelta(days=800), tick=False):
        match = everywhere("Deploys the shop with Terraform.", confidence=0.5)
    loved = everywhere("Deploys the garden by hand.", pinned=True)
    Memory.objects.filter(pk=loved).update(access_count=1000)
    context = build_context("terraform deploys")
    assert working_ids(context)[0] == match


# ---------------------------------------------------------------------------------------------------
# Tiers: core first, pinned first, never what is not injectable


def test_core_tier_comes_first_pinned_first_even_without_a_match():
    working = everywhere("Uses pnpm for the shop.")
    core = add_memory("Replies in Vietnamese.", layer=Layer.CORE).pk
    pinned = add_memory("Call the owner anh Minh.", layer=Layer.CORE, pinned=True).pk

    context = build_context("pnpm")

    assert [item.id for item in context.items] == [pinned, core, working]
    assert context.prompt.splitlines()[0].startswith("- Call the owner anh Minh (confirmed ")


def test_a_pinned_core_memory_is_present_when_the_core_tier_overflows():
    policies.set_budgets(actor=OWNER, core=20)
    pinned = add_memory("Call the owner anh Minh.", layer=Layer.CORE, pinned=True).pk
    overflow = [
        add_memory(f"Core fact number {n} that is long enough to need many tokens.", layer=Layer.CORE).pk
        for n in range(5)
    ]
    context = build_context("anything")
    ids = [item.id for item in context.items]
    assert ids[0] == pinned
    assert sum(item.tokens for item in context.items) <= 20
    left_out = {item.id: item.reason for item in context.near_misses}
    assert set(left_out) <= set(overflow) and left_out
    assert set(left_out.values()) == {"core budget"}


def test_the_prompt_rebalance_and_the_doctor_pack_the_core_tier_alike():
    """Retrieval used to pack the core tier by score (a query-relevant memory first) and the doctor and
    rebalance by confidence: rebalance then demoted the core memory the prompt injected."""
    sure = add_memory(
        "Call the owner anh Minh, with his name first, in every reply and every message.",
        subject="addressing",
        layer=Layer.CORE,
        confidence=1.0,
    ).pk
    relevant = add_memory(
        "User prefers pnpm over npm and yarn.", subject="package manager", layer=Layer.CORE, confidence=0.8
    ).pk
    # Room for the first line of the tier, not for both.
    sure_line = line(Memory.objects.get(pk=sure).text, NOW)
    policies.set_budgets(actor=OWNER, core=line_tokens(sure_line) + 1)
    context = build_context("which package manager should I use, pnpm or npm?")
    injected = [item.id for item in context.items if item.layer == Layer.CORE]
    report = core_report(MemorySettings.load())
    demoted = [i for move in rebalance.plan().moves if move.to_layer == Layer.WORKING for i in move.ids]
    assert injected == report.fits == [sure]
    assert demoted == report.overflow == [relevant]
    assert [(item.id, item.reason) for item in context.near_misses] == [(relevant, "core budget")]
    assert doctor.analyze().core["overflow"] == [relevant]


def test_what_is_not_injectable_is_never_in_the_prompt():
    live = everywhere("Espresso is the live one.")
    stale = everywhere("Espresso stale memory.")
    Memory.objects.filter(pk=stale).update(stale=True)
    archived = add_memory("Espresso archived memory.", layer=Layer.ARCHIVE).pk
    pending = add_memory("Espresso pending memory.", status="pending").pk
    rejected = add_memory("Espresso rejected memory.", status="pending").pk
    lifecycle.reject([rejected], actor=OWNER)
    old = everywhere("Espresso superseded memory.")
    newer = everywhere("Espresso newer memory.")
    lifecycle.supersede(old, newer, actor=OWNER)
    expired = everywhere("Espresso expired memory.", ttl=timedelta(hours=1))
    deleted = everywhere("Espresso soft-deleted memory.")
    Memory.objects.filter(pk=deleted).update(deleted_at=datetime.now(UTC))

    later = datetime.now(UTC) + timedelta(hours=2)
    context = build_context("espresso memory", now=later)

    shown = {item.id for item in context.items} | {item.id for item in context.near_misses}
    assert {live, newer} <= shown
    assert not shown & {stale, archived, pending, rejected, old, expired, deleted}
    assert "stale" not in context.prompt and "archived" not in context.prompt


# ---------------------------------------------------------------------------------------------------
# Governance


def test_governed_keeps_only_this_user_project_and_session():
    mine = everywhere("Espresso for me.", user="lan")
    anyone = everywhere("Espresso for anyone.")
    other_user = everywhere("Espresso for minh.", user="minh")
    this_project = everywhere("Espresso in bestie.", scope=Scope.PROJECT, project="bestie")
    other_project = everywhere("Espresso in shop.", scope=Scope.PROJECT, project="shop")
    this_session = everywhere("Espresso in this chat.", scope=Scope.SESSION, channel="telegram:1")
    other_session = everywhere("Espresso in another chat.", scope=Scope.SESSION, channel="telegram:2")
    unsure = everywhere("Espresso maybe.", confidence=0.2)

    context = build_context("espresso", user="lan", project="bestie", channel="telegram:1")

    assert context.governance == "governed"
    assert set(working_ids(context)) == {mine, anyone, this_project, this_session}
    excluded = {other_user, other_project, other_session, unsure}
    assert not excluded & {item.id for item in context.near_misses}

    policies.set_governance_policy("full", actor=OWNER)
    context = build_context("espresso", user="lan", project="bestie", channel="telegram:1")
    assert context.governance == "full"
    assert set(working_ids(context)) == {mine, anyone, this_project, this_session} | excluded
    # Under full, the mismatches are allowed but rank below the memories that match the request.
    ranked = working_ids(context)
    assert ranked.index(mine) < ranked.index(other_user)
    assert ranked.index(this_project) < ranked.index(other_project)


def test_paused_memory_injects_nothing_and_says_so():
    everywhere("Likes espresso.")
    add_memory("Call the owner anh Minh.", layer=Layer.CORE, pinned=True)
    policies.pause(actor=OWNER)
    before = list(Memory.objects.values("pk", "access_count", "last_accessed_at"))

    context = build_context("espresso")

    assert context.paused is True
    assert context.prompt == "" and context.items == () and context.tokens == 0
    assert list(Memory.objects.values("pk", "access_count", "last_accessed_at")) == before


# ---------------------------------------------------------------------------------------------------
# Budgets, limit, near-misses, ages


def test_working_budget_is_respected_exactly():
    first = everywhere("Espresso espresso in the morning.")
    second = everywhere("Espresso at noon, a double.")
    third = everywhere("Espresso late at night with a long story about why it is needed then.")
    full = build_context("espresso", record_access=False)
    assert working_ids(full) == [first, second, third]
    tokens = {item.id: item.tokens for item in full.items}

    exact = build_context("espresso", budget_tokens=tokens[first] + tokens[second], record_access=False)
    assert working_ids(exact) == [first, second]
    assert exact.tokens == tokens[first] + tokens[second]
    assert [(item.id, item.reason) for item in exact.near_misses] == [(third, "budget")]

    short = build_context("espresso", budget_tokens=tokens[first] + tokens[second] - 1, record_access=False)
    assert working_ids(short) == [first]
    assert [(item.id, item.reason) for item in short.near_misses] == [(second, "budget"), (third, "budget")]


def test_prompt_tokens_never_exceed_the_budgets():
    policies.set_budgets(actor=OWNER, core=30, working=40)
    for n in range(8):
        add_memory(f"Core rule {n}: keep replies short.", layer=Layer.CORE)
        everywhere(f"Espresso note {n} about coffee beans.")
    context = build_context("espresso coffee")
    core = sum(item.tokens for item in context.items if item.layer == Layer.CORE)
    working = sum(item.tokens for item in context.items if item.layer == Layer.WORKING)
    assert 0 < core <= 30 and 0 < working <= 40
    assert prompt_tokens(context.prompt) <= context.tokens == core + working


def test_a_memory_sharing_one_word_of_a_long_question_is_not_lifted_in_by_the_other_signals():
    """Same user and project, recently confirmed, fully confident: 0.2 of its score, none of it the question's."""
    shared = add_memory("Lan hikes on Sunday.", user="owner", project="bestie", pinned=True).pk
    for n in range(30):
        everywhere(f"Sunday note {n}: the weekly review.")
    roast = everywhere("Roasts espresso beans for the farmers market.")
    question = "which espresso beans should I roast for the farmers market on Sunday"
    context = build_context(question, user="owner", project="bestie", record_access=False)
    missed = {item.id: item for item in context.near_misses}
    assert working_ids(context) == [roast]
    assert missed[shared].reason == "match"
    assert missed[shared].score >= MIN_SCORE
    assert missed[shared].signals["relevance"] < MIN_MATCH


def test_limit_caps_the_working_memories_and_names_the_rest():
    ids = [everywhere(f"Espresso number {n}.") for n in range(4)]
    context = build_context("espresso", limit=2, record_access=False)
    assert len(working_ids(context)) == 2
    assert {item.reason for item in context.near_misses} == {"limit"}
    assert set(working_ids(context)) | {item.id for item in context.near_misses} == set(ids)


def test_a_weak_match_is_a_near_miss_for_its_score():
    strong = everywhere("Roasts espresso beans at home on weekends.")
    weak = everywhere("Weekends are for hiking.", confidence=0.5)
    context = build_context("espresso beans roast weekends", record_access=False)
    assert working_ids(context) == [strong]
    assert [(item.id, item.reason) for item in context.near_misses] == [(weak, "score")]


def test_each_line_carries_its_age():
    with time_machine.travel(NOW, tick=False):
        everywhere("Prefers pnpm.")
    context = build_context("pnpm")
    assert context.prompt == "- Prefers pnpm (confirmed 2026-05-02)"
    assert line("Uses uv.", NOW) == "- Uses uv (confirmed 2026-05-02)"


# ---------------------------------------------------------------------------------------------------
# Access statistics


def test_access_statistics_are_updated_in_one_statement_for_what_was_injected(django_assert_max_num_queries):
    injected = [everywhere(f"Espresso memory number {n}.") for n in range(6)]
    core = add_memory("Replies in Vietnamese.", layer=Layer.CORE).pk
    left_out = everywhere("Espresso memory that will not fit the limit.")
    Memory.objects.filter(pk=left_out).update(confidence=0.5)
    at = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    with CaptureQueriesContext(connection) as queries:
        context = build_context("espresso memory", limit=6, now=at)

    updates = [query["sql"] for query in queries.captured_queries if query["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    assert {item.id for item in context.items} == {*injected, core}
    for memory_id in (*injected, core):
        stored = Memory.objects.get(pk=memory_id)
        assert (stored.access_count, stored.last_accessed_at) == (1, at)
    assert Memory.objects.get(pk=left_out).access_count == 0

    # The number of statements does not grow with the number of memories injected.
    with django_assert_max_num_queries(len(queries.captured_queries)):
        build_context("espresso memory", now=at)


def test_a_preview_records_no_access():
    memory_id = everywhere("Likes espresso.")
    build_context("espresso", record_access=False)
    assert Memory.objects.get(pk=memory_id).access_count == 0


# ---------------------------------------------------------------------------------------------------
# Text matching


def test_vietnamese_matches_without_diacritics_either_way():
    pho = everywhere("Người dùng thích ăn phở bò ở Hà Nội.")
    plain = everywhere("Nguoi dung thich bun cha o Da Nang.")
    other = everywhere("Người dùng thích cà phê sữa đá.")

    assert working_ids(build_context("pho bo ha noi", record_access=False))[0] == pho
    assert working_ids(build_context("bún chả Đà Nẵng", record_access=False))[0] == plain
    assert other not in working_ids(build_context("phở Hà Nội", record_access=False))


def test_diacritics_typed_in_the_query_decide_between_words_that_fold_alike():
    name = everywhere("Tuấn works as a civil engineer.")
    week = everywhere("Đi công tác tuần này, làm việc từ xa.")
    assert working_ids(build_context("Tuấn", record_access=False)) == [name, week]
    assert working_ids(build_context("tuần", record_access=False)) == [week, name]
    # "chợ" (a market) is a word to look for, "cho" (for) is not.
    assert [term.text for term in query_terms("giờ đi chợ cho tôi")] == ["gio", "di", "cho"]
    assert [term.text for term in query_terms("gio di cho toi")] == ["gio", "di"]


def test_a_vietnamese_syllable_typed_without_diacritics_is_not_a_prefix():
    everywhere("Quang sống ở Hà Nội.")
    district = everywhere("Văn phòng ở quận Ba Đình.")
    assert working_ids(build_context("quan Ba Dinh", record_access=False)) == [district]


def test_two_common_syllables_side_by_side_find_their_memory(monkeypatch):
    """ "đi chợ" (going to the market): both syllables are everywhere, the word they make is not."""
    market = everywhere("Lịch đi chợ của chủ nhân là sáng Chủ nhật.")
    for n in range(60):
        everywhere(f"Đi công tác {n} ngày, mua quà cho mẹ.")
    # As on a large store, where neither syllable alone is rare enough to be asked for by rank.
    monkeypatch.setattr("memories.retrieval.relevance.LexicalBackend.selective_documents", 1)
    assert working_ids(build_context("giờ đi chợ", record_access=False))[0] == market


def test_natural_language_queries_drop_stopwords_and_match_any_word():
    assert [term.text for term in query_terms("What tools do I use for the shop?")] == ["tool", "use", "shop"]
    memory_id = everywhere("The shop is built with Django.")
    assert working_ids(build_context("What tools do I use for the shop?")) == [memory_id]


def test_a_question_naming_a_kind_of_thing_finds_the_things_of_it():
    """ "package manager" is one term matching pnpm, npm, yarn…; "pets" also matches a cat or dogs."""
    terms = query_terms("Which package manager should I use?")
    assert [term.word for term in terms] == ["package manager", "use"]
    assert {"npm", "pnpm", "yarn", "pip"} <= {terms[0].text, *terms[0].forms}
    pnpm = everywhere("User prefers pnpm over npm for JavaScript projects.")
    neovim = everywhere("User uses Neovim as the main editor.")
    # As in any store, many memories say "uses".
    for text in ("User uses a standing desk.", "Lan uses an iPhone.", "The team uses Slack.", "User uses dark mode."):
        everywhere(text)
    cat = everywhere("User has a cat named Mochi.")
    dogs = everywhere("Lan walks the two dogs after dinner.")
    assert working_ids(build_context("Which package manager should I use?", record_access=False))[0] == pnpm
    assert set(working_ids(build_context("do I have pets?", record_access=False))) == {cat, dogs}
    assert working_ids(build_context("which editor?", record_access=False)) == [neovim]
    notes = everywhere("User writes everything down in Obsidian.")
    assert working_ids(build_context("Which notes app do I use?", record_access=False))[0] == notes
    # In Vietnamese too, through the kind the words mean ("thú cưng" is a pet).
    assert set(working_ids(build_context("Người dùng có nuôi thú cưng không?", record_access=False))) == {cat, dogs}
    # A word that is only part of a kind's name is itself: a package is no package manager.
    assert pnpm not in working_ids(build_context("where is the package?", record_access=False))


def test_a_light_verb_of_a_question_counts_for_less_than_its_rarity():
    """In a small store "uses" is as rare as "pnpm": the question is about package managers all the same."""
    pnpm = everywhere("User prefers pnpm over npm for JavaScript projects.")
    neovim = everywhere("User uses Neovim as the main editor.")
    everywhere("Remind the user to drink water every 2 hours.")
    assert working_ids(build_context("which package manager should I use?", record_access=False)) == [pnpm, neovim]
    assert working_ids(build_context("which editor do I use?", record_access=False))[0] == neovim


def test_word_forms_match_through_their_stem():
    memory_id = everywhere("User prefers concise replies.")
    assert working_ids(build_context("preferred reply style")) == [memory_id]


def test_rankings_are_identical_on_sqlite_and_postgresql():
    """Run on both databases by the suite; the expected order is explicit, so both must produce it."""
    with time_machine.travel(NOW, tick=False):
        ids = {
            "all three": everywhere("User keeps pnpm workspaces in the monorepo."),
            "two": everywhere("The monorepo is built with pnpm."),
            "pnpm only": everywhere("pnpm is the package manager for the shop."),
            "workspace only": everywhere("Workspace settings live at the repository root."),
            "none": everywhere("User likes green tea."),
        }
    with time_machine.travel(NOW - timedelta(days=200), tick=False):
        ids["two, older"] = everywhere("The monorepo is built with pnpm!")
    with time_machine.travel(NOW, tick=False):
        context = build_context("pnpm workspace monorepo", record_access=False)
    names = {memory_id: name for name, memory_id in ids.items()}
    assert [names[memory_id] for memory_id in working_ids(context)] == [
        "all three",
        "two",
        "two, older",
        "workspace only",
    ]
    assert [(names[item.id], item.reason) for item in context.near_misses] == [("pnpm only", "score")]


# ---------------------------------------------------------------------------------------------------
# Validation


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"query": "  "}, "query: must not be empty"),
        ({"query": "x" * 2001}, "query: is 2001 characters long; the limit is 2000"),
        ({"query": "tea", "budget_tokens": 0}, "budget_tokens: must be a positive whole number, not 0"),
        ({"query": "tea", "limit": "3"}, "limit: must be a positive whole number, not '3'"),
        ({"query": "tea", "user": 5}, "user: must be text, not 5"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(arguments, message):
    memory_id = everywhere("Likes tea.")
    with pytest.raises(lifecycle.InvalidValue) as error:
        build_context(arguments.pop("query"), **arguments)
    assert str(error.value) == message
    assert Memory.objects.get(pk=memory_id).access_count == 0


# ---------------------------------------------------------------------------------------------------
# bestie memory context


def test_cli_prints_the_prompt_each_score_and_the_near_misses():
    with time_machine.travel(NOW, tick=False):
        shown = everywhere("Prefers pnpm for the shop.", confidence=1.0)
        everywhere("Prefers pnpm for the garden.", confidence=0.9)
    out = memory("context", "pnpm", "--limit", "1")
    assert "- Prefers pnpm for the shop (confirmed 2026-05-02)" in out
    assert f"#{shown}  working  score " in out
    assert "relevance " in out and "recency " in out
    assert "left out: limit" in out
    assert Memory.objects.get(pk=shown).access_count == 0


def test_cli_json_has_the_api_shape():
    memory_id = everywhere("Prefers pnpm.", user="lan")
    answer = memory_json("context", "pnpm", "--user", "lan", "--budget", "100")
    assert set(answer) == {"prompt", "items", "tokens", "paused", "governance", "meaning", "near_misses"}
    (item,) = answer["items"]
    assert set(item) == {"id", "text", "layer", "score", "signals", "confirmed_at"}
    assert item["id"] == memory_id and item["confirmed_at"].endswith("Z")
    assert set(item["signals"]) == {"relevance", "context", "recency", "access", "confidence", "pinned"}
    assert answer["paused"] is False and answer["tokens"] == prompt_tokens(answer["prompt"] + "\n")


def test_cli_says_when_memory_is_paused():
    everywhere("Prefers pnpm.")
    policies.pause(actor=OWNER)
    assert "PAUSED" in memory("context", "pnpm")
    assert memory_json("context", "pnpm")["paused"] is True


def test_cli_errors():
    assert "query: must not be empty" in refused("context", "  ")
    assert "argument --budget: must be a whole number from 1 to 1000000000, not '0'" in refused(
        "context", "pnpm", "--budget", "0"
    )
    assert "argument --limit: must be a whole number from 1 to 1000000000, not 'many'" in refused(
        "context", "pnpm", "--limit", "many"
    )
    assert "the following arguments are required: QUERY" in refused("context")


# ---------------------------------------------------------------------------------------------------
# The console's retrieval preview


def test_preview_needs_a_login(client):
    response = client.get("/preview/?q=pnpm")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_preview_shows_the_prompt_scores_by_signal_and_near_misses(console):
    with time_machine.travel(NOW, tick=False):
        shown = everywhere("Prefers pnpm for the <shop>.", confidence=1.0)
        missed = everywhere("Prefers pnpm for the garden.", confidence=0.9)
    response = console.get("/preview/", {"q": "pnpm", "limit": 1})
    page = response.content.decode()
    assert response.status_code == 200
    assert "- Prefers pnpm for the &lt;shop&gt; (confirmed 2026-05-02)" in page
    assert "<shop>" not in page
    assert f'href="/memories/{shown}/"' in page and f'href="/memories/{missed}/"' in page
    assert '<th title="relevance">words of the request</th>' in page
    assert '<th title="recency">recently confirmed</th>' in page
    assert "left out: past the most working memories asked for" in page
    assert "The words of the request count in both languages" in page
    assert Memory.objects.get(pk=shown).access_count == 0


def test_preview_without_a_query_shows_the_form_only(console):
    page = console.get("/preview/").content.decode()
    assert 'name="q"' in page and "Near-misses" not in page


def test_preview_says_when_memory_is_paused(console):
    everywhere("Prefers pnpm.")
    policies.pause(actor=OWNER)
    page = console.get("/preview/", {"q": "pnpm"}).content.decode()
    assert "Memory is paused: nothing is injected." in page and "Prefers pnpm" not in page


def test_preview_shows_bad_input_next_to_its_field(console):
    everywhere("Prefers pnpm.")
    page = console.get("/preview/", {"q": "pnpm", "budget": "0"}).content.decode()
    assert "Ensure this value is greater than or equal to 1." in page
    assert "Prefers pnpm" not in page
