"""Running ``bestie memory`` in-process for the command-line tests."""

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from memories.models import AuditEvent, Memory, MemorySettings


def memory(*args, stderr=None):
    """``bestie memory ARGS``; returns what it printed on stdout."""
    out = io.StringIO()
    call_command("memory", *args, stdout=out, stderr=stderr or io.StringIO())
    return out.getvalue()


def memory_json(*args):
    return json.loads(memory(*args, "--json"))


def store():
    """Everything a command could change."""
    return (
        list(Memory.objects.order_by("pk").values()),
        list(AuditEvent.objects.order_by("pk").values()),
        list(MemorySettings.objects.values()),
    )


def refused(*args):
    """Run a command that must fail; returns its error message, once sure that nothing changed."""
    before = store()
    with pytest.raises(CommandError) as error:
        memory(*args)
    assert store() == before
    return str(error.value)
