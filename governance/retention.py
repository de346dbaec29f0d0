"""Message retention (SPEC §6): raw conversation messages are kept ``BESTIE_MESSAGE_RETENTION_DAYS``."""

import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from governance.jobs import Batches, recorded
from memories import lifecycle
from memories.models import Message


@dataclass(frozen=True)
class RetentionResult:
    retention_days: int
    deleted: int
    batches: int = 0


@recorded("message_retention")
def message_retention(now=None, days=None):
    """Delete raw messages older than ``BESTIE_MESSAGE_RETENTION_DAYS`` (0 keeps them forever).
    Memories that came from them keep their text and source; only the link goes."""
    days = settings.BESTIE_MESSAGE_RETENTION_DAYS if days is None else days
    if not days:
        return RetentionResult(retention_days=0, deleted=0)
    cutoff = (now or timezone.now()) - timedelta(days=days)
    batches, deleted, count = Batches(), 0, 0
    while True:
        started = time.monotonic()
        with transaction.atomic():
            ids = list(
                Message.objects.filter(created_at__lt=cutoff)
                .order_by("pk")
                .values_list("pk", flat=True)[: batches.size]
            )
            if not ids:
                break
            deleted += Message.objects.filter(pk__in=ids).delete()[1].get("memories.Message", 0)
        batches.took(time.monotonic() - started)
        count += 1
    if deleted:
        # Raw messages may hold what the owner wanted gone: out of the WAL too, as forgetting does.
        transaction.on_commit(lifecycle.finish_erasure)
    return RetentionResult(retention_days=days, deleted=deleted, batches=count)
