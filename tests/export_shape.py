"""The exported record shape, read the slow, obvious way through the ORM's converters: the reference the
fast export and ``list --json`` paths are checked against."""

from memories.transfer import HISTORY_FIELDS, MEMORY_FIELDS, history_dict, memory_dict  # noqa: F401


def memory_rows(queryset):
    return queryset.order_by("id").values_list(*MEMORY_FIELDS.values()).iterator(chunk_size=2000)


def history_rows(queryset):
    return queryset.order_by("id").values_list(*HISTORY_FIELDS.values()).iterator(chunk_size=2000)
