"""Times as JSON: every time Bestie writes for a machine (the export, the API, ``--json``, audit values,
job counts) is ISO-8601 in UTC with a Z (``2026-05-02T09:00:00Z``)."""

from datetime import UTC, datetime


def iso(value):
    """``2026-05-02T09:00:00Z`` (None stays None)."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def json_ready(value):
    """``value`` with every datetime in it, at any depth of lists, tuples and dicts, as ``iso`` writes it."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, dict):
        return {key: json_ready(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(item) for item in value]
    return value
