"""PostgreSQL's full-text index: the stored ``search_vector`` follows every write, forgetting leaves
nothing of it, ``bestie_fold`` folds as ``fold`` does, and the candidate queries are served by the GIN
index."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memories import lifecycle
from memories.language.folding import fold
from memories.language.meaning import text_key
from memories.models import Memory
from memories.retrieval import build_context
from memories.search import PG_INDEXES
from tests.factories import OWNER, add_memory

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db]


def stored_vector(memory_id):
    with connection.cursor() as cursor:
        cursor.execute("SELECT search_vector::text FROM memory WHERE id = %s", [memory_id])
        row = cursor.fetchone()
    return row and row[0]


def test_the_vector_is_stored_on_insert_follows_an_edit_and_goes_with_forgetting():
    memory = add_memory("Lives in Đà Nẵng near the Hàn river.", kind="fact")
    assert stored_vector(memory.pk) == "'da':3 'han':7 'in':2 'lives':1 'nang':4 'near':5 'river':8 'the':6"

    lifecycle.edit(memory.pk, "Moved to Huế in May.", actor=OWNER)
    assert stored_vector(memory.pk) == "'hue':3 'in':4 'may':5 'moved':1 'to':2"
    # A change that is not the text (here the access count) leaves the vector as it was.
    Memory.objects.filter(pk=memory.pk).update(access_count=7)
    assert stored_vector(memory.pk) == "'hue':3 'in':4 'may':5 'moved':1 'to':2"

    lifecycle.forget(memory.pk, actor=OWNER, confirmed=True)
    assert stored_vector(memory.pk) is None
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM memory WHERE search_vector @@ to_tsquery('simple', 'hue')")
        assert cursor.fetchone()[0] == 0


def vocabulary(*terms):
    with connection.cursor() as cursor:
        cursor.execute("SELECT term, documents FROM memory_vocabulary WHERE term = ANY (%s)", [list(terms)])
        return dict(cursor.fetchall())


def test_the_vocabulary_counts_every_memory_and_word_and_forgets_with_them():
    start = vocabulary("")[""]
    first = add_memory("Quokkazephyr lives in Huế, on the mobile-app team.", kind="fact")
    second = add_memory("Lan lives in Huế too.", kind="fact")
    # As FTS5 counts words: "mobile" and "app", not the parser's "mobile-app" beside them.
    assert vocabulary("mobile-app", "mobile", "app") == {"mobile": 1, "app": 1}
    assert vocabulary("", "quokkazephyr", "hue", "lives", "lan") == {
        "": start + 2,
        "quokkazephyr": 1,
        "hue": 2,
        "lives": 2,
        "lan": 1,
    }
    lifecycle.edit(second.pk, "Lan moved to Đà Lạt.", actor=OWNER)
    assert vocabulary("", "hue", "lives", "lan", "lat", "moved") == {
        "": start + 2,
        "hue": 1,
        "lives": 1,
        "lan": 1,
        "lat": 1,
        "moved": 1,
    }
    Memory.objects.filter(pk=first.pk).update(access_count=3)
    assert vocabulary("quokkazephyr", "hue") == {"quokkazephyr": 1, "hue": 1}

    lifecycle.forget(first.pk, actor=OWNER, confirmed=True)
    assert vocabulary("", "quokkazephyr", "hue", "lives") == {"": start + 1}
    # What the index counts is what the table holds, word for word.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT term, count(*) FROM memory, unnest(tsvector_to_array(search_vector)) AS term"
            " WHERE term !~ '[[:punct:]]' GROUP BY term"
            " UNION ALL SELECT '', count(*) FROM memory EXCEPT SELECT term, documents FROM memory_vocabulary"
        )
        assert cursor.fetchall() == []


def test_bestie_fold_folds_every_latin_letter_as_fold_does():
    letters = [chr(code) for code in (*range(0x20, 0x7F), *range(0xC0, 0x250), *range(0x1E00, 0x1F00))]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT array_agg(bestie_fold(letter) ORDER BY n) FROM unnest(%s::text[]) WITH ORDINALITY AS t(letter, n)",
            [letters],
        )
        folded = cursor.fetchone()[0]
    assert [(letter, got) for letter, got in zip(letters, folded) if got != fold(letter)] == []


def test_no_extension_is_needed():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_depend d JOIN pg_extension e ON d.refobjid = e.oid"
            " JOIN pg_proc p ON d.objid = p.oid WHERE p.proname = 'bestie_fold'"
        )
        assert cursor.fetchone()[0] == 0
        cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = 'bestie_fold'")
        assert "unaccent" not in cursor.fetchone()[0]


def test_the_candidate_queries_use_the_gin_index():
    # Enough rows, with statistics, that reading them all would cost the planner more than the index.
    now = timezone.now()
    filler = [f"Filler note {index} about gardening and the weather." for index in range(5000)]
    wanted = [f"Người dùng thích ăn phở ở Hà Nội, lần {index}." for index in range(20)]
    wanted += [f"User prefers pnpm for project {index}." for index in range(20)]
    Memory.objects.bulk_create(
        Memory(
            text=text,
            text_key=text_key(text),
            kind="preference",
            source="test",
            source_kind="owner",
            status="approved",
            confirmed_at=now,
            created_at=now,
        )
        for text in filler + wanted
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory")
    with CaptureQueriesContext(connection) as captured:
        build_context("nguoi dung thich an pho o ha noi pnpm", record_access=False)
    searches = [query["sql"] for query in captured.captured_queries if "search_vector" in query["sql"]]
    assert len(searches) >= 2
    # The document frequencies come from the vocabulary, not from the table: of the query's own words and of
    # its words read in the other language.
    frequencies = [query["sql"] for query in captured.captured_queries if "memory_vocabulary" in query["sql"]]
    assert len(frequencies) == 2
    for sql in frequencies:
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN " + sql)
            plan = "\n".join(line for (line,) in cursor.fetchall())
        assert "on memory " not in plan and "memory_vocabulary_pkey" in plan, plan
    for sql in searches:
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
            plan = "\n".join(line for (line,) in cursor.fetchall())
        assert f"Bitmap Index Scan on {PG_INDEXES['memory']}" in plan, plan
        assert "Seq Scan on memory " not in plan, plan
