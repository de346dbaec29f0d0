"""PostgreSQL: a stored, GIN-indexed ``search_vector`` column on ``memory`` and ``memory_message`` in place
of the GIN expression indexes, ``bestie_fold`` in built-in SQL instead of ``unaccent``, and
``memory_vocabulary`` (each word's number of memories, kept by triggers) for BM25's document frequencies.

``ADD COLUMN … GENERATED ALWAYS AS (…) STORED`` computes every row's vector in one set-based pass; from
then on PostgreSQL computes it on every insert and every change of ``text``. Nothing happens on SQLite,
whose FTS5 index already stores the words.

``memory_vocabulary`` is counted from the vectors in one ``INSERT … SELECT``. Going back drops the
vocabulary, the columns and their indexes; the earlier code recreates its expression indexes on the
next ``migrate``.
"""

from django.db import migrations


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from memories import search

    search.install_stored_vectors(schema_editor.connection)


def backwards(apps, schema_editor):
    from memories import search

    search.uninstall_stored_vectors(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("memories", "0012_memory_plural")]

    operations = [migrations.RunPython(forwards, backwards)]
