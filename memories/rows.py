"""One-row INSERTs for the write path's hot spots (a proposal on every agent turn, its audit event).

``insert`` does what ``instance.save()`` does for a new row (field defaults and ``pre_save``, values
prepared by each field for this database) but builds the statement once per model and database instead
of on every call: the ORM's compiler took longer than SQLite's insert itself. There are no signal
receivers on these models; anything that needs one must use ``save()``.
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
        sql = (
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({placeholders}) "
            f"RETURNING {quote(meta.pk.column)}"
        )
        _STATEMENTS[key] = (sql, fields)
    return _STATEMENTS[key]


def insert(instance):
    """INSERT ``instance`` as a new row and set its primary key; returns the instance."""
    sql, fields = _statement(type(instance))
    params = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        instance.pk = cursor.fetchone()[0]
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance
