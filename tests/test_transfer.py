"""Export and import of the whole store (SPEC §10): the document, the round trip, and refused input."""

import io
import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from memories import lifecycle, transfer
from memories.models import AuditEvent, Layer, Memory, MemorySettings, Message, Scope, Status
from memories.search import matching
from tests import export_shape

ACTOR = "owner:test"
VIETNAMESE = "Thích trả lời bằng tiếng Việt có dấu khi ở Đà Nẵng"


def add(text, **fields):
    fields.setdefault("kind", "preference")
    fields.setdefault("source", "telegram:123 message 7")
    fields.setdefault("source_kind", "owner")
    return lifecycle.add(text=text, actor=ACTOR, **fields)


@pytest.fixture
def store():
    """One memory of every kind of state the export must carry, and the history that made them."""
    message = Message.objects.create(role="user", text="nhớ giúp mình nhé", channel="telegram:123")
    memories = {
        "vietnamese": add(
            VIETNAMESE,
            kind="communication_preference",
            subject="language",
            user="owner",
            channel="telegram:123",
            message=message,
            flags=["instruction_like"],
            confidence=0.85,
        ),
        "core_pinned": add("Call the owner Minh", kind="addressing", layer=Layer.CORE, pinned=True),
        "project": add(
            "Uses pnpm, not npm",
            kind="project_context",
            subject="package_manager",
            scope=Scope.PROJECT,
            project="bestie",
        ),
        "session": add(
            "Is on a train right now", kind="fact", scope=Scope.SESSION, channel="cli", ttl=timedelta(hours=2)
        ),
        "archive": add("Liked the 2024 trip to Huế", kind="fact", layer=Layer.ARCHIVE),
        "pending": add("Might move to Hà Nội", kind="fact", status=Status.PENDING, source_kind="agent_inference"),
        "approved": add("Works late on Fridays", kind="fact", status=Status.PENDING, source_kind="user_message"),
        "rejected": add("Always skip the checks", kind="decision", status=Status.PENDING, source_kind="tool_output"),
        "old": add("Prefers npm", kind="preference", subject="package_manager"),
        "new": add("Prefers pnpm", kind="preference", subject="package_manager"),
        "expired": add("Has a dentist appointment", kind="fact"),
        "deleted": add("Old phone model", kind="fact"),
        "stale": add("Lives in Sài Gòn", kind="fact", confidence=0.4),
        "forgotten": add("Something to forget", kind="fact"),
    }
    lifecycle.approve([memories["approved"].pk], actor=ACTOR)
    lifecycle.reject([memories["rejected"].pk], actor=ACTOR)
    lifecycle.supersede(memories["old"].pk, memories["new"].pk, actor=ACTOR)
    lifecycle.set_expiry(memories["expired"].pk, actor=ACTOR, expires_at=timezone.now() - timedelta(days=1))
    lifecycle.pin(memories["archive"].pk, actor=ACTOR)
    lifecycle.forget(memories["forgotten"].pk, actor=ACTOR, confirmed=True)
    Memory.objects.filter(pk=memories["deleted"].pk).update(deleted_at=timezone.now())
    Memory.objects.filter(pk=memories["stale"].pk).update(
        stale=True,
        access_count=12,
        last_accessed_at=timezone.now(),
        # A time without microseconds, which iso() writes without a fraction.
        confirmed_at=datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC),
    )
    return memories


def export(**kwargs):
    return json.loads("".join(transfer.iter_export(**kwargs)))


def without_exported_at(document):
    return {key: value for key, value in document.items() if key != "exported_at"}


def layout(document):
    """The document written the way the exporter writes it: memories[i] on line i + 3."""
    head = {key: document[key] for key in document if key not in ("memories", "history")}
    lines = [json.dumps(head, ensure_ascii=False)[:-1] + ","]
    for name, end in (("memories", "],"), ("history", "]}")):
        records = [json.dumps(record, ensure_ascii=False) for record in document[name]]
        lines += [f'"{name}": [', *(line + "," for line in records[:-1]), *records[-1:], end]
    return "\n".join(lines) + "\n"


def memory_line(index):
    return index + 3


def history_line(document, index):
    return len(document["memories"]) + 5 + index


def store_contents():
    return without_exported_at(export())


# ---------------------------------------------------------------------------------------------------
# Export


def test_export_has_every_record_and_field(db, store):
    text = "".join(transfer.iter_export())
    document = json.loads(text)

    assert list(document) == ["format", "version", "exported_at", "memories", "history"]
    assert document["format"] == "bestie-memory-export"
    assert document["version"] == 1
    assert document["exported_at"].endswith("Z")
    # Archive, pending, rejected, superseded, expired and soft-deleted rows are all there.
    assert [m["id"] for m in document["memories"]] == list(Memory.objects.values_list("id", flat=True))
    assert {m["status"] for m in document["memories"]} == {"approved", "pending", "rejected"}
    assert {m["layer"] for m in document["memories"]} == {"core", "working", "archive"}
    assert {m["scope"] for m in document["memories"]} == {"core", "project", "session"}
    for record in document["memories"]:
        assert list(record) == list(transfer.MEMORY_FIELDS)
        assert type(record["id"]) is int
        assert record["created_at"].endswith("Z") and record["confirmed_at"].endswith("Z")
    assert [e["id"] for e in document["history"]] == list(AuditEvent.objects.values_list("id", flat=True))
    assert all(list(event) == list(transfer.HISTORY_FIELDS) for event in document["history"])
    assert "forget" in {event["event"] for event in document["history"]}

    by_id = {m["id"]: m for m in document["memories"]}
    vietnamese = by_id[store["vietnamese"].pk]
    assert vietnamese["text"] == VIETNAMESE
    assert vietnamese["flags"] == ["instruction_like"]
    assert vietnamese["message_id"] == store["vietnamese"].message_id
    assert by_id[store["old"].pk]["superseded_by"] == store["new"].pk
    assert by_id[store["stale"].pk]["confirmed_at"] == "2025-01-02T03:04:05Z"
    assert by_id[store["deleted"].pk]["deleted_at"].endswith("Z")


def test_export_records_are_memory_dict_and_history_dict_of_the_rows(db, store):
    """The fast export path writes exactly what the shared field set says (also the --json shape)."""
    document = export()

    assert document["memories"] == [
        export_shape.memory_dict(row) for row in export_shape.memory_rows(Memory.objects.all())
    ]
    assert document["history"] == [
        export_shape.history_dict(row) for row in export_shape.history_rows(AuditEvent.objects.all())
    ]


def test_export_puts_one_record_on_each_line(db, store):
    text = "".join(transfer.iter_export())
    document = json.loads(text)
    lines = text.splitlines()

    for index, record in enumerate(document["memories"]):
        assert json.loads(lines[memory_line(index) - 1].rstrip(",")) == record
    for index, record in enumerate(document["history"]):
        assert json.loads(lines[history_line(document, index) - 1].rstrip(",")) == record
    assert "Đà Nẵng" in text


def test_write_export_writes_the_document_and_counts_it(db, store):
    out = io.StringIO()

    result = transfer.write_export(out)

    document = json.loads(out.getvalue())
    assert result == transfer.ExportResult(memories=len(document["memories"]), history=len(document["history"]))
    assert result.memories == Memory.objects.count()
    assert result.history == AuditEvent.objects.count()


def test_export_of_an_empty_store(db):
    document = export()

    assert document["memories"] == [] and document["history"] == []


def test_filtered_export_has_only_those_memories_and_their_history(db, store):
    chosen = Memory.objects.filter(layer=Layer.ARCHIVE) | Memory.objects.filter(pk=store["old"].pk)
    ids = set(chosen.values_list("pk", flat=True))

    document = export(memories=chosen)

    assert {m["id"] for m in document["memories"]} == ids
    assert {e["id"] for e in document["history"]} == set(
        AuditEvent.objects.filter(memory_id__in=ids).values_list("pk", flat=True)
    )
    # The supersede of "old" and the pin of the archived memory are there; other memories' events are not.
    assert {e["event"] for e in document["history"]} == {"add", "pin", "supersede"}


def test_export_of_search_results(db, store):
    document = export(memories=matching(Memory.objects.all(), "da nang"))

    assert [m["id"] for m in document["memories"]] == [store["vietnamese"].pk]
    assert {e["memory_id"] for e in document["history"]} == {store["vietnamese"].pk}


def test_filtered_export_of_nothing(db, store):
    document = export(memories=Memory.objects.none())

    assert document["memories"] == [] and document["history"] == []


def test_export_streams_in_many_small_chunks(db):
    now = timezone.now()
    Memory.objects.bulk_create(
        Memory(text=f"memory number {i}", kind="fact", source="bench", source_kind="owner", created_at=now)
        for i in range(3000)
    )

    chunks = list(transfer.iter_export())

    total = sum(map(len, chunks))
    assert len(chunks) >= 6
    assert max(map(len, chunks)) < total / 4
    assert len(json.loads("".join(chunks))["memories"]) == 3000


# ---------------------------------------------------------------------------------------------------
# Round trip


def test_export_clear_import_export_is_identical(transactional_db, store):
    before = export()

    lifecycle.clear(actor=ACTOR, confirmed=True)
    assert Memory.objects.count() == 0 and AuditEvent.objects.count() == 0 and Message.objects.count() == 0
    result = transfer.import_document(json.dumps(before), actor=ACTOR)

    # Messages are not in the export, and clear erased them: the links to them are dropped and counted.
    linked = [memory for memory in before["memories"] if memory["message_id"] is not None]
    assert linked and result == transfer.ImportResult(
        memories=len(before["memories"]),
        history=len(before["history"]),
        dropped_message_links=len(linked),
        dry_run=False,
    )
    for memory in linked:
        memory["message_id"] = None
    after = export()
    assert without_exported_at(after) == without_exported_at(before)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA foreign_key_check")
            assert cursor.fetchall() == []


def unlinked(document):
    """The document as it comes back after ``clear``, which erases the messages its memories link to."""
    for memory in document["memories"]:
        memory["message_id"] = None
    return without_exported_at(document)


def test_import_reads_a_text_file_in_the_exported_layout(transactional_db, store):
    out = io.StringIO()
    transfer.write_export(out)
    before = json.loads(out.getvalue())
    lifecycle.clear(actor=ACTOR, confirmed=True)

    transfer.import_document(io.StringIO(out.getvalue()), actor=ACTOR)

    assert without_exported_at(export()) == unlinked(before)


def test_import_reads_a_pretty_printed_document(transactional_db, store):
    before = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)

    transfer.import_document(json.dumps(before, indent=4, ensure_ascii=False), actor=ACTOR)

    assert without_exported_at(export()) == unlinked(before)


def test_imported_memories_are_found_by_search_and_keep_their_state(transactional_db, store):
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)

    transfer.import_document(json.dumps(document), actor=ACTOR)

    found = list(matching(Memory.objects.all(), "da nang"))
    assert [m.pk for m in found] == [store["vietnamese"].pk]
    assert found[0].text == VIETNAMESE
    live = set(Memory.objects.live().values_list("pk", flat=True))
    assert store["vietnamese"].pk in live
    assert not live & {store[name].pk for name in ("old", "expired", "deleted", "pending", "rejected")}


def test_new_memories_after_an_import_get_fresh_ids(transactional_db, store):
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)
    # Ids beyond anything the store has handed out, so the id sequence has to be moved past them.
    for record in document["memories"]:
        record["id"] += 1000
        if record["superseded_by"]:
            record["superseded_by"] += 1000
    for event in document["history"]:
        event["id"] += 1000
        event["memory_id"] += 1000
    transfer.import_document(json.dumps(document), actor=ACTOR)

    memory = add("Written after the import")

    # Past the forgotten memory's id too, which only the history still has.
    forgotten = max(e["memory_id"] for e in document["history"])
    assert forgotten > max(m["id"] for m in document["memories"])
    assert memory.pk > forgotten
    assert AuditEvent.objects.filter(memory_id=memory.pk).get().pk > max(e["id"] for e in document["history"])


def test_no_id_handed_out_before_the_import_comes_back(transactional_db, store):
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)
    written_then_forgotten = add("Written and forgotten between the clear and the import")
    lifecycle.forget(written_then_forgotten.pk, actor=ACTOR, confirmed=True)

    transfer.import_document(json.dumps(document), actor=ACTOR)
    memory = add("Written after the import")

    assert memory.pk > written_then_forgotten.pk
    assert AuditEvent.objects.filter(memory_id=memory.pk).count() == 1


def test_import_keeps_text_and_times_exactly(transactional_db):
    document = {
        "format": "bestie-memory-export",
        "version": 1,
        "exported_at": "2026-05-02T10:00:00Z",
        "memories": [
            {
                "id": 41,
                "text": "  Spaces   stay  as they were ",
                "kind": "fact",
                "subject": "",
                "scope": "core",
                "user": "",
                "channel": "",
                "project": "",
                "layer": "working",
                "status": "approved",
                "pinned": False,
                "stale": False,
                "superseded_by": None,
                "expires_at": None,
                "confidence": 1,
                "source": "cli",
                "source_kind": "import",
                "message_id": None,
                "flags": [],
                "created_at": "2024-02-29T23:59:59.000001+07:00",
                "confirmed_at": "2025-01-01T00:00:00Z",
                "last_accessed_at": None,
                "access_count": 0,
                "deleted_at": None,
            }
        ],
        "history": [],
    }

    transfer.import_document(json.dumps(document), actor=ACTOR)

    memory = Memory.objects.get(pk=41)
    assert memory.text == "  Spaces   stay  as they were "
    assert memory.created_at == datetime(2024, 2, 29, 16, 59, 59, 1, tzinfo=UTC)
    assert export()["memories"][0]["created_at"] == "2024-02-29T16:59:59.000001Z"
    assert AuditEvent.objects.count() == 0


# ---------------------------------------------------------------------------------------------------
# Dry run, dropped links, policies


def test_dry_run_checks_everything_and_changes_nothing(transactional_db, store):
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)

    result = transfer.import_document(json.dumps(document), actor=ACTOR, dry_run=True)

    assert result == transfer.ImportResult(
        memories=len(document["memories"]), history=len(document["history"]), dropped_message_links=1, dry_run=True
    )
    assert Memory.objects.count() == 0 and AuditEvent.objects.count() == 0


def test_dry_run_reports_the_same_errors(transactional_db, store):
    document = export()

    with pytest.raises(transfer.InvalidDocument, match="already in the store"):
        transfer.import_document(json.dumps(document), actor=ACTOR, dry_run=True)


def test_links_to_messages_this_store_lacks_are_dropped_and_counted(transactional_db, store):
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)
    Message.objects.all().delete()

    dry = transfer.import_document(json.dumps(document), actor=ACTOR, dry_run=True)
    result = transfer.import_document(json.dumps(document), actor=ACTOR)

    assert dry.dropped_message_links == result.dropped_message_links == 1
    assert Memory.objects.get(pk=store["vietnamese"].pk).message_id is None
    assert Memory.objects.count() == len(document["memories"])


def test_import_is_refused_while_memory_is_paused(transactional_db, store):
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)
    settings = MemorySettings.load()
    settings.paused = True
    settings.save()

    with pytest.raises(lifecycle.Refused, match="paused"):
        transfer.import_document(json.dumps(document), actor=ACTOR)

    assert Memory.objects.count() == 0


# ---------------------------------------------------------------------------------------------------
# Malformed documents: the line and the reason, and nothing imported


def set_field(collection, index, field, value):
    """A change to one field of one record, and where the error about it must point."""

    def change(document):
        document[collection][index][field] = value

    return change, (collection, index)


def memory_field(index, field, value):
    return set_field("memories", index, field, value)


def history_field(index, field, value):
    return set_field("history", index, field, value)


def memory_id(document, index):
    return document["memories"][index]["id"]


def duplicate_id(document):
    document["memories"][3]["id"] = memory_id(document, 1)


def unknown_key(document):
    document["memories"][1]["colour"] = "blue"


def missing_key(document):
    del document["memories"][2]["source"]


def dangling_supersede(document):
    document["memories"][0]["superseded_by"] = 999999


def self_supersede(document):
    document["memories"][4]["superseded_by"] = memory_id(document, 4)


def supersede_loop(document):
    document["memories"][1]["superseded_by"] = memory_id(document, 2)
    document["memories"][2]["superseded_by"] = memory_id(document, 3)
    document["memories"][3]["superseded_by"] = memory_id(document, 1)


def duplicate_history_id(document):
    document["history"][2]["id"] = document["history"][0]["id"]


def set_top(key, value):
    def change(document):
        document[key] = value

    return change


MALFORMED = {
    # name: (change to the parsed document, where the error is, what it says)
    "wrong format": (set_top("format", "something-else"), 1, "format must be 'bestie-memory-export'"),
    "future version": (set_top("version", 2), 1, "version 2 is not supported"),
    "naive exported_at": (set_top("exported_at", "2026-05-02T10:00"), 1, "exported_at must include a time zone"),
    "unknown top-level key": (set_top("comment", "hi"), 1, "the document has the unknown key 'comment'"),
    "bad kind": (*memory_field(2, "kind", "Not A Slug"), "kind must be a lower-case slug"),
    "kind with spaces": (*memory_field(2, "kind", " fact"), "kind must be a lower-case slug"),
    "empty text": (*memory_field(1, "text", "   "), "text must not be empty"),
    "long text": (*memory_field(1, "text", "x" * 2001), "text is 2001 characters long"),
    "empty source": (*memory_field(1, "source", ""), "source must not be empty"),
    "bad scope": (*memory_field(0, "scope", "global"), "scope must be one of core, project"),
    "bad status": (*memory_field(5, "status", "maybe"), "status must be one of"),
    "confidence too high": (*memory_field(3, "confidence", 1.5), "confidence must be from 0 to 1"),
    "confidence as text": (*memory_field(3, "confidence", "0.5"), "confidence must be a number"),
    "pinned as text": (*memory_field(3, "pinned", "yes"), 'pinned must be true or false, not "yes"'),
    "id as text": (*memory_field(3, "id", "7"), 'id must be a positive whole number, not "7"'),
    "negative id": (*memory_field(3, "id", -7), "id must be a positive whole number, not -7"),
    "flags not a list": (*memory_field(3, "flags", "x"), "flags must be an array"),
    "naive time": (*memory_field(4, "created_at", "2026-05-02T10:00:00"), "created_at must include a time zone"),
    "not a time": (
        *memory_field(4, "expires_at", "next tuesday"),
        "expires_at must be an ISO-8601 time like 2026-12-01T09:00:00Z, not 'next tuesday'",
    ),
    "unknown key": (unknown_key, ("memories", 1), "has the unknown key 'colour'"),
    "missing key": (missing_key, ("memories", 2), "lacks the required key source"),
    "record not an object": (set_top("memories", [["not", "an", "object"]]), ("memories", 0), "must be an object"),
    "duplicate id": (duplicate_id, ("memories", 3), "is used twice: memories[1] on line 4 has it too"),
    "dangling superseded_by": (
        dangling_supersede,
        ("memories", 0),
        "superseded_by 999999 is neither in this document nor in the store",
    ),
    "superseded by itself": (self_supersede, ("memories", 4), "superseded_by is the memory's own id"),
    "supersede loop": (supersede_loop, ("memories", 1), "superseded_by goes round in a loop"),
    "bad event": (*history_field(1, "event", "teleport"), "event must be one of add, propose"),
    "history without time zone": (*history_field(1, "at", "2026-05-02 10:00"), "at must include a time zone"),
    "memory_id as text": (*history_field(1, "memory_id", "3"), "memory_id must be a positive whole number"),
    "duplicate history id": (duplicate_history_id, ("history", 2), "is used twice"),
}


def expected_line(document, where):
    if isinstance(where, int):
        return where
    collection, index = where
    return memory_line(index) if collection == "memories" else history_line(document, index)


@pytest.fixture
def exported_then_cleared(store):
    """An export of the store, and a store that has moved on since: cleared, then one new memory."""
    document = export()
    lifecycle.clear(actor=ACTOR, confirmed=True)
    add("Written after the clear")
    return document


@pytest.mark.parametrize("case", MALFORMED)
def test_malformed_document_is_refused_with_line_and_reason(transactional_db, exported_then_cleared, case):
    change, where, reason = MALFORMED[case]
    document = exported_then_cleared
    change(document)
    before = store_contents()

    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(layout(document), actor=ACTOR)

    message = str(error.value)
    assert message.startswith(f"line {expected_line(document, where)}: ")
    assert reason in message
    if not isinstance(where, int):
        collection, index = where
        record = document[collection][index]
        name = f"{collection}[{index}]"
        if isinstance(record, dict):
            name += f" (id {json.dumps(record['id'])})"
        assert f": {name}: " in message
    assert store_contents() == before


def test_error_names_the_record_and_its_id(transactional_db, exported_then_cleared):
    document = exported_then_cleared
    document["memories"][12]["kind"] = "Bad Kind"

    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(layout(document), actor=ACTOR)

    assert str(error.value) == (
        f"line 15: memories[12] (id {memory_id(document, 12)}): kind must be a lower-case slug like preference"
        " or project_context, not 'Bad Kind'"
    )


def test_syntax_error_gives_line_and_column(transactional_db, exported_then_cleared):
    lines = layout(exported_then_cleared).splitlines()
    lines[4] = lines[4].replace('"kind": ', '"kind" ', 1)
    before = store_contents()

    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document("\n".join(lines), actor=ACTOR)

    column = lines[4].index('"kind" ') + len('"kind" ') + 1
    assert str(error.value) == f"line 5 column {column}: Expecting ':' delimiter"
    assert store_contents() == before


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "line 1 column 1: Expecting value"),
        ('{"format": "bestie-memory-export",\n "version": 1,\n', "line 3 column 1: Expecting property name"),
        ("[]", "line 1: the document must be a JSON object"),
        (
            '{"format": "bestie-memory-export", "version": 1, "exported_at": "2026-05-02T10:00:00Z",\n'
            '"memories": {}, "history": []}',
            "line 2: memories must be an array, not an object",
        ),
    ],
)
def test_not_a_document(transactional_db, text, message):
    with pytest.raises(transfer.InvalidDocument, match=f"^{re.escape(message)}"):
        transfer.import_document(text, actor=ACTOR)


def test_duplicate_key_and_nan_are_refused_at_their_record(transactional_db, exported_then_cleared):
    text = layout(exported_then_cleared)
    lines = text.splitlines()
    doubled = lines[:]
    doubled[5] = doubled[5].replace('"stale": false', '"stale": false, "stale": true', 1)
    not_a_number = lines[:]
    not_a_number[6] = not_a_number[6].replace('"confidence": 1.0', '"confidence": NaN', 1)

    with pytest.raises(transfer.InvalidDocument) as twice:
        transfer.import_document("\n".join(doubled), actor=ACTOR)
    with pytest.raises(transfer.InvalidDocument) as nan:
        transfer.import_document("\n".join(not_a_number), actor=ACTOR)

    document = exported_then_cleared
    assert str(twice.value) == f"line 6: memories[3] (id {memory_id(document, 3)}): the key 'stale' appears twice"
    assert str(nan.value) == f"line 7: memories[4] (id {memory_id(document, 4)}): NaN is not a JSON number"


def test_id_clash_with_the_store_says_what_to_do(transactional_db, store):
    document = export()
    before = store_contents()

    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(layout(document), actor=ACTOR)

    message = str(error.value)
    first = memory_id(document, 0)
    assert message.startswith(f"line 3: memories[0] (id {first}): a memory with this id is already in the store")
    assert "import into an empty store, or run `bestie memory clear --yes` first" in message
    assert store_contents() == before


def test_history_id_clash_with_the_store(transactional_db, store):
    document = export()
    document["memories"] = []
    before = store_contents()

    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(layout(document), actor=ACTOR)

    first = document["history"][0]["id"]
    assert str(error.value).startswith(f"line 5: history[0] (id {first}): a history event with this id is already")

    assert store_contents() == before


def test_pretty_printed_document_gets_the_line_of_the_record(transactional_db, exported_then_cleared):
    document = exported_then_cleared
    document["memories"][6]["kind"] = "Bad Kind"
    text = json.dumps(document, indent=2, ensure_ascii=False)
    lines = text.splitlines()
    bad = next(i for i, line in enumerate(lines) if '"Bad Kind"' in line)
    record_start = max(i for i in range(bad) if lines[i] == "    {") + 1

    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(text, actor=ACTOR)

    where = f"line {record_start}: memories[6] (id {memory_id(document, 6)})"
    assert str(error.value).startswith(f"{where}: kind must be a lower-case slug")
