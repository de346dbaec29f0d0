"""INSERTs for the write path's hot spots: a proposal on every agent turn and its audit event, and the
forget events of a prune that erases 100,000 rows.

``insert`` does what ``instance.save()`` does for a new row (field defaults and ``pre_save``, values
prepared by each field for this database) but builds the statement once per model and database instead
of on every call: the ORM's compiler took longer than SQLite's insert itself. ``insert_many`` does the
same for many rows in one ``executemany``. There are no signal receivers on these models; anything that
needs one must use ``save()``.
"""

from django.db import connection

_STATEMENTS = {}


def _statement(model):
    key = (model, connection.vendor)
    if key not in _STATEMENTS:
        meta = model._meta
        fields = [field for field in meta.local_concrete_fields if field is not meta.pk]
        quote = connection.ops.quote_name
        columns = ", ".join(quote(field.column) for field in fields)
        placeholders = ", ".join(["%s"] * len(fields))
        sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({placeholders})"
        _STATEMENTS[key] = (sql, f"{sql} RETURNING {quote(meta.pk.column)}", fields)
    return _STATEMENTS[key]


def _values(instance, fields):
    return [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]


def insert(instance):
    """INSERT ``instance`` as a new row and set its primary key; returns the instance."""
    _, sql, fields = _statement(type(instance))
    with connection.cursor() as cursor:
        cursor.execute(sql, _values(instance, fields))
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def insert_many(instances):
    """INSERT new rows of one model; their primary keys are not read back. Returns how many."""
    instances = list(instances)
    if not instances:
        return 0
    sql, _, fields = _statement(type(instances[0]))
    with connection.cursor() as cursor:
        cursor.executemany(sql, [_values(instance, fields) for instance in instances])
    return len(instances)
