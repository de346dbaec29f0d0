"""Importing other tools' memories (``bestie memory import --from mem0|openmemory|chatgpt|jsonl|csv``).

``import_foreign`` reads the whole file first (``formats``): a file that is not what its format says
changes nothing. Then each memory goes through the write path as a proposal does (``lifecycle.prepare``
and ``store_many``, with ``propose``'s own duplicate and flag rules), a few hundred a transaction:

- **refused**, with the line or record and the reason: a secret (nothing of it is kept, not even in the
  report), a value the write path refuses (an unknown scope, a confidence of 7), or a memory the owner
  rejected before;
- **skipped**: the same as a current memory of the store (same words in any order, case, punctuation
  and diacritics aside, or a live one of the same subject a typo apart), or as an earlier memory of the
  same file; and what the tool itself had deleted;
- **imported** as ``pending`` for the owner's review, with ``source`` ``TOOL:FILE#ID`` and
  ``source_kind`` ``import``, keeping the tool's ``created_at``. With ``approve`` the owner approves them
  at once (the ``approve`` events are written as for any approval), except the flagged ones: instruction-
  like text, venting (a proposal's venting is refused; an import's was kept by the owner in another tool,
  so the owner decides) and possible updates of a live memory always wait for the owner.

The owner is the actor of every event. A dry run does all of it but the writes.
"""

import math
from collections import defaultdict, deque
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from memories import lifecycle
from memories.language.meaning import closest, same_memory
from memories.lifecycle import MAX_LABEL_LENGTH, InvalidValue, LifecycleError, proposals
from memories.models import Layer, Scope, SourceKind, Status
from memories.screening import secrets
from memories.screening.poisoning import INSTRUCTION_LIKE, TOOL_OUTPUT
from memories.screening.venting import VENTING, is_venting
from memories.transfer.formats import FORMATS, InvalidImport, read

# Memories a transaction writes: short enough for agents' proposals to get the write lock in between.
BATCH = 250
# What a memory from a tool without kinds is, until the owner relabels it.
DEFAULT_KIND = "fact"
_TRUE, _FALSE = frozenset({"true", "yes", "1"}), frozenset({"false", "no", "0", ""})
# The report's words are the owner's language (the console's preview), English on the command line.
_FLAG_REASONS = {
    TOOL_OUTPUT: gettext_lazy("it comes from tool output"),
    INSTRUCTION_LIKE: gettext_lazy("it reads like an instruction"),
    VENTING: gettext_lazy("it reads as one-off venting"),
    proposals.POSSIBLE_UPDATE: gettext_lazy("it says otherwise than a live memory of the same subject"),
}


@dataclass(frozen=True, slots=True)
class Item:
    """One memory of the file in the report: where it is, its text (redacted when refused) and why."""

    where: str
    text: str
    reason: str
    memory_id: int | None = None
    flags: tuple = ()


@dataclass(frozen=True)
class ForeignImport:
    format: str
    file_name: str
    dry_run: bool
    approve: bool
    imported: tuple  # Items stored (or, in a dry run, that would be)
    approved: int  # how many of them the owner approved
    skipped: tuple  # Items: duplicates, deleted in the tool
    refused: tuple  # Items: secrets, values the write path refuses, rejected before

    @property
    def flagged(self):
        return tuple(item for item in self.imported if item.flags)

    @property
    def pending(self):
        return len(self.imported) - self.approved


def import_foreign(source, *, format, file_name, actor, dry_run=False, approve=False, user=None):
    """Import the memories of another tool's file: ``source`` is bytes, text or a file (binary or text);
    ``format`` one of ``FORMATS``; ``file_name`` names the file in each memory's source; ``user``, when
    given, is the user of every memory instead of the tool's. Raises ``InvalidImport`` (the file is not
    the format) or ``Refused`` (paused, write policy deny) before writing anything."""
    if format not in FORMATS:
        raise InvalidValue("format", lifecycle.one_of(FORMATS, format))
    # The end of a long name: it says which file it was.
    file_name = lifecycle.clean_characters("file name", file_name).strip()[-MAX_LABEL_LENGTH:] or "file"
    if user is not None:
        user = lifecycle.clean_label("user", user)
    records = read(format, _bytes(source))
    lifecycle.check_writes_allowed()
    run = _Run(format, file_name, actor, dry_run, approve, user)
    for start in range(0, len(records), BATCH):
        run.batch(records[start : start + BATCH])
        records[start : start + BATCH] = [None] * len(records[start : start + BATCH])
    return ForeignImport(
        format=format,
        file_name=file_name,
        dry_run=dry_run,
        approve=approve,
        imported=tuple(run.imported),
        approved=run.approved,
        skipped=tuple(run.skipped),
        refused=tuple(run.refused),
    )


def _bytes(source):
    data = source if isinstance(source, (bytes, str)) else source.read()
    return data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data


class _Run:
    """One import: what it has done so far, and what of the file it has seen."""

    def __init__(self, format, file_name, actor, dry_run, approve, user):
        self.tool, self.file_name, self.actor = format, file_name, actor
        self.dry_run, self.approve, self.user = dry_run, approve, user
        self.imported, self.skipped, self.refused, self.approved = [], [], [], 0
        # The file's memories so far: by text key (every one), and the newest of each subject.
        self.seen = {}
        self.seen_alike = defaultdict(lambda: deque(maxlen=proposals.CANDIDATES))

    def batch(self, records):
        prepared = []
        for record in records:
            if record.skip:
                # The format's reasons are its own words, marked for translation there.
                self.skipped.append(Item(record.where, _shown(record.fields.get("text")), _(record.skip)))
                continue
            try:
                prepared.append((record, lifecycle.prepare(**self._fields(record))))
            except LifecycleError as error:
                self.refused.append(
                    Item(
                        record.where, _shown(record.fields.get("text")), _("not imported: %(error)s") % {"error": error}
                    )
                )
        if not prepared:
            return
        with nullcontext() if self.dry_run else transaction.atomic():
            news = [new for _, new in prepared]
            if not self.dry_run:
                proposals.lock_many(news)
            same = proposals.same_texts((new.fields["user"], new.fields["text_key"]) for new in news)
            alike = proposals.same_subjects(_block(new.fields) for new in news)
            kept = []
            for record, new in prepared:
                flags = self._check(record, new.fields, same, alike)
                if flags is not None:
                    kept.append((record, new, flags))
            if kept and not self.dry_run:
                self._store(kept)
            elif kept:
                self._report(kept, [None] * len(kept))

    def _fields(self, record):
        given = record.fields
        source = f"{self.tool}:{self.file_name}#{record.ref}"
        if given.get("source") not in (None, ""):
            source += f": {_string('source', given['source'])}"
        return dict(
            text=given["text"],
            kind=_or(given.get("kind"), DEFAULT_KIND),
            source=source,
            source_kind=SourceKind.IMPORT,
            subject=_or(given.get("subject"), ""),
            scope=_or(given.get("scope"), Scope.CORE),
            user=self.user if self.user is not None else _or(given.get("user"), ""),
            channel=_or(given.get("channel"), ""),
            project=_or(given.get("project"), ""),
            layer=_or(given.get("layer"), Layer.WORKING),
            expires_at=_time("expires_at", given.get("expires_at")),
            pinned=_boolean("pinned", given.get("pinned", False)),
            confidence=_number("confidence", given.get("confidence", 1.0)),
            created_at=_time("created_at", given.get("created_at")),
            refusal="secrets are never stored, whatever the policy",
        )

    def _check(self, record, fields, same, alike):
        """The memory's flags if it is to be imported; None once it is reported skipped or refused."""
        key, block = (fields["user"], fields["text_key"]), _block(fields)
        # The same words earlier in the file, in an order meaning the same.
        earlier = next((where for where, text in self.seen.get(key, ()) if same_memory(fields["text"], text)), None)
        if earlier is None:
            mine = dict(enumerate(where for where, _ in self.seen_alike[block]))
            twin = closest(fields["text"], {i: text for i, (_, text) in enumerate(self.seen_alike[block])})
            earlier = None if twin is None else mine[twin]
        if earlier is not None:
            reason = _("duplicate: the same as %(where)s of this file") % {"where": earlier}
            self.skipped.append(Item(record.where, fields["text"], reason))
            return None
        stored = alike.get(block, {})
        found = proposals.same_text(fields["text"], same.get(key, [])) or proposals.same_words(fields["text"], stored)
        if found is not None:
            status, memory_id = found
            if status == Status.REJECTED:
                reason = _("not imported: the owner rejected the same memory before (memory %(id)s)") % {
                    "id": memory_id
                }
                self.refused.append(Item(record.where, fields["text"], reason, memory_id))
            else:
                if status == Status.APPROVED:
                    reason = _("duplicate: already remembered as memory %(id)s") % {"id": memory_id}
                else:
                    reason = _("duplicate: already waiting for review as memory %(id)s") % {"id": memory_id}
                self.skipped.append(Item(record.where, fields["text"], reason, memory_id))
            return None
        flags = proposals.flags_of(fields, stored)[0]
        if is_venting(fields["text"]):
            flags.append(VENTING)
        self.seen.setdefault(key, []).append((record.where, fields["text"]))
        self.seen_alike[block].append((record.where, fields["text"]))
        return flags

    def _store(self, kept):
        memories = lifecycle.store_many(
            [new for _, new, _ in kept], actor=self.actor, status=Status.PENDING, flags=[flags for *_, flags in kept]
        )
        ids = [memory.pk for memory, (*_, flags) in zip(memories, kept, strict=True) if not flags]
        if self.approve and ids:
            lifecycle.approve(ids, actor=self.actor)
        self._report(kept, [memory.pk for memory in memories])

    def _report(self, kept, ids):
        for (record, new, flags), memory_id in zip(kept, ids, strict=True):
            if flags:
                conjunction = _("and")
                why = f" {conjunction} ".join(str(_FLAG_REASONS.get(flag, flag)) for flag in flags)
                reason = _("pending: %(why)s, which is never approved without the owner") % {"why": why}
            elif self.approve:
                reason = _("approved by the owner (--approve)")
                self.approved += 1
            else:
                reason = _("pending: waits for the owner's review")
            self.imported.append(Item(record.where, new.fields["text"], reason, memory_id, tuple(flags)))


def _block(fields):
    return fields["user"], fields["kind"], fields["subject"]


def _shown(text):
    """A refused memory's text as the report may show it: never a secret."""
    return secrets.redact(text) if isinstance(text, str) else ""


def _or(value, default):
    return default if value is None or value == "" else value


def _string(field, value):
    if not isinstance(value, str):
        raise InvalidValue(field, f"must be text, not {value!r}")
    return value


def _time(field, value):
    """An aware datetime from ISO-8601 text; a time without a zone is taken as UTC, as the tools write it."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise InvalidValue(field, f"must be an ISO-8601 time like 2026-12-01T09:00:00Z, not {value!r}")
    try:
        parsed = datetime.fromisoformat(value.strip())
        return (parsed.replace(tzinfo=UTC) if timezone.is_naive(parsed) else parsed).astimezone(UTC)
    except ValueError:
        raise InvalidValue(field, f"must be an ISO-8601 time like 2026-12-01T09:00:00Z, not {value!r}") from None
    except OverflowError:
        raise InvalidValue(field, f"is outside the calendar once in UTC: {value!r}") from None


def _boolean(field, value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().casefold() in _TRUE | _FALSE:
        return value.strip().casefold() in _TRUE
    raise InvalidValue(field, f"must be true or false, not {value!r}")


def _number(field, value):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidValue(field, f"must be a number from 0 to 1, not {value!r}")
    try:
        number = float(value)
    except ValueError:
        raise InvalidValue(field, f"must be a number from 0 to 1, not {value!r}") from None
    if not math.isfinite(number):
        raise InvalidValue(field, f"must be a number from 0 to 1, not {value!r}")
    return number


__all__ = ["BATCH", "FORMATS", "ForeignImport", "InvalidImport", "Item", "import_foreign"]
