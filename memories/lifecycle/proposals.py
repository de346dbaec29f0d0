"""The agent's write path (SPEC §3, §9): what an assistant proposes, and what the store makes of it.

``propose`` answers every proposal with a ``Proposal`` saying what happened and why:
- ``refused``: paused, the write policy is ``deny``, a secret in it, one-off venting (a passing mood
  with nothing lasting in it, unless the user asked to remember it), or the owner rejected the same
  memory before; nothing is stored;
- ``duplicate``: a live memory of the same user already says it (the same words, case, punctuation and
  diacritics aside, or a typo apart, in an order that puts no one in another's place: "Lan owes Minh" is
  not "Minh owes Lan"); that memory is confirmed instead. A proposal
  already waiting for review is a duplicate too, and is left as it is;
- ``approved`` under the ``allow`` policy, ``pending`` under ``ask``; but proposals from tool output,
  reading like an instruction, or contradicting a live memory of the same user, kind and subject (a
  possible update of it: "prefers npm" against "prefers pnpm") are always ``pending``, with their flags,
  for the owner to look at.
Stored proposals go through ``lifecycle.add``, so the policy, the secret filter and the audit event are
the same as everywhere else; the actor is ``agent:NAME``.

Bad input (a missing source, an unknown kind of source, a TTL of zero) raises ``InvalidValue`` naming the
field, like every other write path, and stores nothing.
"""

import hashlib
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from memories import lifecycle, vectors
from memories.language import attributes, characters, embeddings, partners, people, slots
from memories.language.folding import fold
from memories.language.meaning import (
    across_languages_words,
    closest,
    contradicted,
    denied_words,
    denying,
    denying_across_languages,
    kind_words,
    said_alike,
    said_with_more,
    same_memory,
    saying_the_same,
)
from memories.language.translation import (
    OPPOSED,
    SAME,
    WORDS_TRANSLATED,
    across_languages,
    adds_nothing,
    another_value,
    changed_names,
    details_agree,
    in_other_language,
    lexicon_words,
    named_for_owner,
    names_instead,
    repeated_in_other_words,
    said_otherwise,
    share_between,
    tells_a_change,
    translated_verdict,
)
from memories.language.words import language_of
from memories.lifecycle import (
    MAX_ID,
    MAX_TTL,
    InvalidValue,
    LifecycleError,
    Refused,
    actors,
    clean_characters,
    clean_choice,
    clean_label,
    counts,
)
from memories.models import AuditEvent, Memory, MemorySettings, Message, Policy, Scope, Status, words_of
from memories.rows import among
from memories.screening import secrets
from memories.screening.poisoning import INSTRUCTION_LIKE, TOOL_OUTPUT, flags_for
from memories.screening.venting import VENTING, is_venting
from memories.search import LIVE_CONDITION, SearchTerm, matching, matching_any

APPROVED = "approved"
PENDING = "pending"
DUPLICATE = "duplicate"
REFUSED = "refused"
MAX_MESSAGE_LENGTH = 20_000
MAX_TTL_SECONDS = int(MAX_TTL.total_seconds())
POSSIBLE_UPDATE = "possible_update"
# How many live memories of the same user, kind and subject a proposal is compared with, newest first: the
# ones a repeat is most likely to repeat, and few enough that a proposal costs the same on any store.
CANDIDATES = 50
# Why a flagged memory waits for the owner, said in its answer (and in an import's report).
FLAG_REASONS = {TOOL_OUTPUT: "it comes from tool output", INSTRUCTION_LIKE: "it reads like an instruction"}
# The same, in plain words and in the owner's language: what the console shows before a flagged proposal
# is approved (``needing_second_step``).
FLAG_EXPLANATIONS = {
    TOOL_OUTPUT: gettext_lazy(
        "It comes from tool output (a web page, a file, a command's output), not from you or a conversation: "
        "such text can carry someone else's instructions."
    ),
    INSTRUCTION_LIKE: gettext_lazy(
        "It reads like an order to Bestie (“always …”, “ignore …”, "
        "“skip the checks”): once approved, it goes into Bestie's prompts as a standing order."
    ),
    POSSIBLE_UPDATE: gettext_lazy(
        "It says something different from a memory you already have, so it may be meant to replace it."
    ),
    VENTING: gettext_lazy("It reads as one-off venting: a passing mood, not something lasting."),
}
# A flag's name in a few words, beside a proposal: ``explain_flag`` says what it means.
FLAG_LABELS = {
    TOOL_OUTPUT: gettext_lazy("from tool output"),
    INSTRUCTION_LIKE: gettext_lazy("reads like an order"),
    POSSIBLE_UPDATE: gettext_lazy("may replace a memory"),
    VENTING: gettext_lazy("venting"),
}


def explain_flag(flag):
    """What a flag means, in plain words (the flag itself for one this version does not know)."""
    return FLAG_EXPLANATIONS.get(flag, flag)


def flag_label(flag):
    """A flag in a few plain words (its own words for one this version does not know)."""
    return FLAG_LABELS.get(flag) or words_of(flag)


def needing_second_step(ids):
    """Which of the proposals ``ids`` need the owner's second, explicit step before they are approved:
    the flagged ones (SPEC §3: tool output, instruction-like, a possible update; an import's venting), as
    ``{id: [flag, …]}``. The console approves one of them only after showing its flags in plain words, and
    a bulk approval leaves them out unless the owner ticks that the flagged ones are included too."""
    # An id past the range of ids names no proposal (and would not fit the database's integers).
    ids = [memory_id for memory_id in ids if 1 <= memory_id <= MAX_ID]
    if not ids:
        return {}
    # Any number of ids in one parameter (``rows.among``), whatever the database's limit on parameters.
    return dict(Memory.objects.filter(pk__in=among(ids)).flagged().values_list("pk", "flags"))


@dataclass(frozen=True)
class Proposal:
    id: int | None
    status: str
    reason: str
    flags: tuple = field(default=())


def _ttl(ttl_seconds):
    if ttl_seconds is None:
        return None
    if isinstance(ttl_seconds, bool) or not isinstance(ttl_seconds, int) or ttl_seconds < 1:
        raise InvalidValue("ttl_seconds", f"must be a positive whole number of seconds, not {ttl_seconds!r}")
    if ttl_seconds > MAX_TTL_SECONDS:
        raise InvalidValue("ttl_seconds", f"must be at most {MAX_TTL_SECONDS} ({MAX_TTL.days} days), not {ttl_seconds}")
    return timedelta(seconds=ttl_seconds)


def _message(message_id):
    if message_id is None:
        return None
    try:
        return Message.objects.get(pk=int(message_id))
    except (TypeError, ValueError):
        raise InvalidValue("message_id", f"must be a whole number, not {message_id!r}") from None
    except Message.DoesNotExist:
        raise InvalidValue("message_id", f"no message with id {message_id}") from None


def _lock(user, key, kind, subject):
    """On PostgreSQL, serialize proposals that could be duplicates of each other (same text key, or same
    kind and subject) until the transaction ends. SQLite needs nothing: BEGIN IMMEDIATE already holds
    the database's write lock."""
    if connection.vendor != "postgresql":
        return
    keys = sorted(_lock_keys(user, key, kind, subject))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s), pg_advisory_xact_lock(%s)", keys)


def _lock_keys(user, key, kind, subject):
    return [
        int.from_bytes(hashlib.sha256("\x1f".join(parts).encode()).digest()[:8], "big", signed=True)
        for parts in (("text", user, key), ("subject", user, kind, subject))
    ]


def lock_many(news):
    """``_lock`` for many prepared memories at once (an import's batch), in one statement, the keys in
    one order so that two batches cannot wait for each other."""
    if connection.vendor != "postgresql" or not news:
        return
    keys = sorted(
        {
            lock
            for new in news
            for lock in _lock_keys(*(new.fields[name] for name in ("user", "text_key", "kind", "subject")))
        }
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(key) FROM unnest(%s::bigint[]) AS key", [keys])


# Both duplicate checks are raw SQL: a proposal is on the hot path of every agent turn, and building the
# querysets in the ORM cost several times what the database needs to answer them.
_SAME_TEXT = """
SELECT id, status, text FROM memory
WHERE "user" = %s AND text_key = %s AND superseded_by_id IS NULL AND deleted_at IS NULL
    AND (expires_at IS NULL OR expires_at > %s)
ORDER BY id DESC LIMIT 20
"""
_SAME_SUBJECT = f"""
SELECT id, text FROM memory
WHERE "user" = %s AND kind = %s AND subject = %s AND {LIVE_CONDITION.format(now="%s")}
ORDER BY id DESC LIMIT {CANDIDATES}
"""


def _lookup(sql, params):
    """The rows one of the statements above finds; the current time is its last parameter."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, now])
        return cursor.fetchall()


def propose(
    *,
    text,
    kind,
    source,
    source_kind,
    agent,
    subject="",
    scope=Scope.CORE,
    user="",
    channel="",
    project="",
    confidence=1.0,
    ttl_seconds=None,
    expires_at=None,
    message_id=None,
):
    actor = actors.agent(agent)
    if not (source or "").strip():
        raise InvalidValue("source", "is required: say where this came from (a message, a file, a command)")
    message = _message(message_id)
    try:
        # The secret filter runs before anything is looked up, so a secret is refused as such and never
        # compared to anything.
        new = lifecycle.prepare(
            text=text,
            kind=kind,
            source=source,
            source_kind=source_kind,
            subject=subject,
            scope=scope,
            user=user,
            channel=channel,
            project=project,
            expires_at=expires_at,
            ttl=_ttl(ttl_seconds),
            confidence=confidence,
            message=message,
            refusal="secrets are never stored, whatever the policy",
        )
    except Refused as error:
        return Proposal(None, REFUSED, f"not stored: {error}")
    if is_venting(new.fields["text"], message.text if message else ""):
        return Proposal(
            None,
            REFUSED,
            "not stored: it reads as one-off venting, a passing mood with nothing lasting in it; "
            "it is kept when the user asks to remember it",
        )
    # One transaction from the duplicate lookup to the insert, holding the write lock (SQLite's BEGIN
    # IMMEDIATE, an advisory lock on PostgreSQL): two agents proposing the same memory at once store it
    # once.
    with transaction.atomic():
        try:
            switches = lifecycle.check_writes_allowed()
        except Refused as error:
            return Proposal(None, REFUSED, f"not stored: {error}")
        fields = new.fields
        _lock(fields["user"], fields["text_key"], fields["kind"], fields["subject"])
        found = same_text(fields["text"], _lookup(_SAME_TEXT, [fields["user"], fields["text_key"]]))
        if found is None:
            alike = dict(_lookup(_SAME_SUBJECT, [fields["user"], fields["kind"], fields["subject"]]))
            found = same_words(fields["text"], alike, fields["user"], fields["kind"])
        if found is None:
            translations = translated(*(fields[name] for name in ("user", "kind", "project", "text")))
            found = same_in_other_language(fields["text"], translations, fields["user"])
        if found is not None:
            status, memory_id = found
            if status == Status.APPROVED:
                return _confirm(memory_id, actor)
            if status == Status.PENDING:
                return Proposal(memory_id, DUPLICATE, f"already waiting for the owner's review as memory {memory_id}")
            return Proposal(
                None, REFUSED, f"not stored: the owner rejected the same memory before (memory {memory_id})"
            )
        flags, replaces, fuller = flags_of(fields, alike, translations)
        approve = switches.write_policy == Policy.ALLOW and not flags
        memory = lifecycle.store(new, actor=actor, status=Status.APPROVED if approve else Status.PENDING, flags=flags)
    if approve:
        return Proposal(memory.pk, APPROVED, "stored and approved: the write policy is allow")
    if flags:
        reasons = {**FLAG_REASONS, POSSIBLE_UPDATE: _possible_update(replaces, fuller)}
        why = " and ".join(reasons[flag] for flag in flags)
        return Proposal(
            memory.pk,
            PENDING,
            f"queued for the owner's review: {why}, which is never approved automatically",
            tuple(flags),
        )
    return Proposal(memory.pk, PENDING, "queued for the owner's review: the write policy is ask")


def same_text(text, same):
    """The memory with the same text key that decides what becomes of a new one of ``text``, as
    ``(status, id)``, or None: of ``same`` (``(id, status, text)`` rows, newest first) that say the same
    words in an order meaning the same (``same_memory``), one the owner approved, else one waiting for
    review, else one the owner rejected."""
    return _deciding([(memory_id, status) for memory_id, status, other in same if same_memory(text, other)])


def _deciding(same):
    """Of ``same`` (``(id, status)`` of memories saying the same, newest first), the one that decides: one
    the owner approved, else one waiting for review, else one the owner rejected, as ``(status, id)``."""
    for wanted in (Status.APPROVED, Status.PENDING, Status.REJECTED):
        for memory_id, status in same:
            if status == wanted:
                return wanted, memory_id
    return None


def same_words(text, alike, user="", kind=""):
    """Otherwise: the live memory of the same user, kind and subject (``alike``: ``{id: text}``) that
    says the same, compared word by word, as ``("approved", id)``, or None: in the same words, or, in the
    same language, with the same content words in the same order and another frame ("User loves jasmine
    tea" / "User likes jasmine tea"; ``meaning.said_alike``), of the same people (``same_people``)."""
    twin = closest(text, alike)
    if twin is None:
        twin = next((pk for pk in said_alike(text, alike, kind) if same_people(text, alike[pk], user)), None)
    return None if twin is None else (Status.APPROVED, twin)


def flags_of(fields, alike, translations=None):
    """A new memory's flags (each keeps it for the owner's review), the ids of the live memories it says
    otherwise than: of its subject (``alike``), and of its user elsewhere (``otherwise_elsewhere``, with
    the ``translated`` memories when already found); and the ids of those of its subject whose fact it
    states again with more (``said_again_with_more``). It may be meant to replace any of them."""
    flags = flags_for(fields["text"], fields["source_kind"])
    replaces = said_otherwise(fields["text"], alike, fields["subject"], fields["kind"])
    names = ("user", "kind", "subject", "project", "text")
    elsewhere = otherwise_elsewhere(*(fields[name] for name in names), translations=translations)
    replaces += [pk for pk in elsewhere if pk not in replaces]
    fuller = said_again_with_more(fields["text"], alike, fields["user"], fields["subject"], fields["kind"], replaces)
    if replaces or fuller:
        flags.append(POSSIBLE_UPDATE)
    return flags, replaces, fuller


def said_again_with_more(text, alike, user, subject, kind, known=()):
    """The ids of ``alike`` (``{id: text}``: memories of ``user``) whose fact ``text`` states again with more
    (``said_with_more``), of the same people (``same_people``) or telling a change of it (``tells_a_change``):
    "User lives in Ba Dinh, Hanoi" against "User lives in Hanoi" is not a repeat to drop, but may be meant to
    replace it. (``known``: ids left out.)"""
    return [
        pk
        for pk in said_with_more(text, alike, subject, kind)
        if pk not in known and (same_people(text, alike[pk], user) or tells_a_change(text, alike[pk]))
    ]


def same_people(text, other, user):
    """Two memories of ``user`` that say one fact by their words say it of the same people: the same values
    words leave out (``details_agree``), and where one speaks of the owner and the other names someone, that
    someone may be the owner called by name, but not one of ``user``'s memories names beside the owner
    (``beside_owner``): with "Lan is the user's wife" stored, "Lan lives in Hanoi" is no repeat of "User lives
    in Hanoi", nor "Lan ăn chay" of "User is vegetarian". What is dropped, merged or replaced for a repeat
    rests on it."""
    if not details_agree(text, other):
        return False
    named = named_for_owner(text, other, {fold(user).lower()} if user else set())
    return not (named and beside_owner(user, named))


def beside_owner(user, names):
    """Those of ``names`` (folded) that one of ``user``'s live memories names beside the owner ("Lan is the
    user's wife", "Lan owes the user 200k"): someone other than the owner, whoever they are, unless one says
    it is the owner's name ("User's name is Huy", "Người dùng tên là Huy"). One look-up of the full-text
    index for them all, of the ``CANDIDATES`` newest holding one."""
    live = Memory.objects.live().filter(user=user)
    texts = list(matching_any(live, [((name,), False) for name in names]).values_list("text", flat=True)[:CANDIDATES])
    return {name for name in names if people.placed_beside_owner(name, texts)}


def otherwise_elsewhere(user, kind, subject, project, text, translations=None):
    """``{id: text}``: the live memories of ``user`` beyond its subject's newest that ``text`` says otherwise
    than, by the words alone, as the doctor would report them: those it denies under another kind or subject
    (``denied_elsewhere``), those in the other language (``opposed_in_other_language``; ``translations``:
    what ``translated`` found of them, when the caller has it), those a state or a kind of thing sets
    against it (``ruled_out_elsewhere``), those putting another thing in a slot it fills
    (``slotted_elsewhere``), and those of the other language it denies or that deny it
    (``denied_in_other_language``)."""
    found = denied_elsewhere(user, kind, subject, text)
    if translations is None:
        translations = translated(user, kind, project, text)
    more = opposed_in_other_language(translations)
    more.update(ruled_out_elsewhere(user, project, kind, subject, text))
    more.update(slotted_elsewhere(user, project, text))
    more.update(denied_in_other_language(user, project, kind, text))
    found.update((pk, other) for pk, other in more.items() if pk not in found)
    return found


def same_texts(keys):
    """``_SAME_TEXT`` for many ``(user, text_key)`` pairs in one statement: ``{pair: [(id, status, text), …]}``,
    newest first (pairs with none are left out). At most a few hundred pairs a call."""
    keys = list(dict.fromkeys(keys))
    if not keys:
        return {}
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    pairs = ", ".join(["(%s, %s)"] * len(keys))
    sql = f"""
SELECT id, status, text, "user", text_key FROM memory
WHERE ("user", text_key) IN (VALUES {pairs}) AND superseded_by_id IS NULL AND deleted_at IS NULL
    AND (expires_at IS NULL OR expires_at > %s)
ORDER BY id DESC
"""
    found = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [*(value for key in keys for value in key), now])
        for memory_id, status, text, user, key in cursor.fetchall():
            found.setdefault((user, key), []).append((memory_id, status, text))
    return found


def same_subjects(blocks):
    """``_SAME_SUBJECT`` for many ``(user, kind, subject)`` blocks: ``{block: {id: text}}``, in as few
    statements as SQLite's limit on parameters allows."""
    blocks = list(dict.fromkeys(blocks))
    found = {}
    for start in range(0, len(blocks), _BLOCKS_PER_STATEMENT):
        found.update(_newest_of_subjects(blocks[start : start + _BLOCKS_PER_STATEMENT]))
    return found


# Four parameters a block: well under the 999 of an SQLite built with its old default.
_BLOCKS_PER_STATEMENT = 200


def denied_elsewhere(user, kind, subject, text):
    """``{id: text}``: the live memories of ``user`` under another kind or subject that ``text`` denies
    (``contradict``): "User does not drink coffee anymore", proposed as a preference, against "User drinks
    a black coffee at 7:30am every day", filed as a routine. Only a denial, or a choice of one thing
    instead of another, looks: the full-text index finds the memories holding every word it denies
    (``denied_words``), the ``CANDIDATES`` newest of them."""
    terms = denied_words(text, kind)
    if not terms:
        return {}
    live = Memory.objects.live().filter(user=user).exclude(kind=kind, subject=subject)
    found = dict(matching(live, " ".join(terms)).order_by("-pk").values_list("pk", "text")[:CANDIDATES])
    return {pk: found[pk] for pk in contradicted(text, found, "", kind)}


def ruled_out_elsewhere(user, project, kind, subject, text):
    """``{id: text}``: the live memories of ``user`` and ``project`` under another kind or subject that
    ``text`` denies or is denied by through the kinds of thing they name (``meaning.kind_words``): "User is
    vegetarian" against "User eats beef phở every week", "User has a cat named Mochi" against "User has no
    pets". The full-text index finds the ``CANDIDATES`` newest holding one of those words; the doctor's test
    across kinds decides (``denying``). No statement for a text that names no such thing."""
    phrases = kind_words(text, kind)
    if not phrases:
        return {}
    live = Memory.objects.live().filter(user=user, project=project).exclude(kind=kind, subject=subject)
    found = dict(matching_any(live, phrases).values_list("pk", "text")[:CANDIDATES])
    return {pk: found[pk] for pk in denying(text, found, kind)}


def slotted_elsewhere(user, project, text):
    """``{id: text}``: the live memories of ``user`` and ``project``, whatever their kind and subject, putting
    another thing in a slot ``text`` fills, as the doctor reports them (``slots.otherwise``): "User uses VS Code
    now" against "Neovim is the main editor"; or giving someone a husband or wife ``text`` says they do not
    have, or another one (``partners.otherwise``): "Vy chưa lập gia đình" against "Vy's husband Long works at
    FPT"; or giving someone another birthday, blood type or length of replies (``attributes.otherwise``). The
    full-text index finds the ``CANDIDATES`` newest holding a tool of its kind or a word naming its slot,
    spouse or attribute (``slots.phrases``, ``partners.phrases``, ``attributes.phrases``), and those naming
    someone it speaks of, each looked up once, to tell whether that one is the owner. No statement for a text
    that fills no slot and speaks of no spouse or attribute."""
    found = {}
    live = Memory.objects.live().filter(user=user, project=project)
    texts_naming = _texts_naming(live)
    for read, otherwise, phrases in (
        (slots.slot, slots.otherwise, slots.phrases),
        (partners.spouse, partners.otherwise, partners.phrases),
        (attributes.attribute, attributes.otherwise, attributes.phrases),
    ):
        filled = read(text)
        if filled is None:
            continue
        others = dict(matching_any(live, phrases(filled)).values_list("pk", "text")[:CANDIDATES])
        found.update(
            (pk, other)
            for pk, other in others.items()
            if (theirs := read(other)) is not None and otherwise(filled, theirs, texts_naming)
        )
    return found


def denied_in_other_language(user, project, kind, text):
    """``{id: text}``: the live memories of ``user`` and ``project`` in the other language, whatever their kind
    and subject, that ``text`` denies or that deny it, of the same person, as the doctor reports them
    (``denies_across_languages``): "Anh Khoa không uống rượu bia" against "Khoa drinks beer with his friends
    every Friday night". The full-text index finds the ``CANDIDATES`` newest holding the words both languages
    are read into (``across_languages_words``). No statement for a text that has none."""
    phrases = across_languages_words(text, kind)
    if not phrases:
        return {}
    live = Memory.objects.live().filter(user=user, project=project)
    others = dict(matching_any(live, phrases).values_list("pk", "text")[:CANDIDATES])
    denied = denying_across_languages(text, others, kind)
    if not denied:
        return {}
    texts_naming = _texts_naming(live)
    return {pk: others[pk] for pk in denied if people.one_person(text, others[pk], texts_naming)}


def _texts_naming(live):
    """A ``people.texts_naming_of`` giving the texts of the ``CANDIDATES`` newest of ``live`` holding a name
    (folded), for one proposal."""

    def texts_naming(name):
        return list(matching_any(live, [((name,), False)], common=True).values_list("text", flat=True)[:CANDIDATES])

    return people.texts_naming_of(texts_naming)


@dataclass(frozen=True)
class Translated:
    """A memory whose words mostly translate a proposal's, and what a translation keeps makes of the two."""

    status: str
    text: str
    verdict: str | None  # SAME, OPPOSED or None


def translated(user, kind, project, text):
    """``{id: Translated}``: the memories of ``user``, ``kind`` and ``project`` in the other language whose
    words mostly translate those of ``text`` (``WORDS_TRANSLATED``), approved, pending or rejected but not
    replaced, deleted or expired, each with the doctor's verdict across languages (``translated_verdict``),
    with the words alone. The full-text index finds the ``CANDIDATES`` newest holding one of the
    ``RAREST`` words of ``text`` the lexicon carries into the other language, the rarest in the store (its
    own counts tell, in one statement)."""
    phrases = _rarest_across(text)
    if not phrases:
        return {}
    current = Memory.objects.filter(
        user=user, kind=kind, project=project, superseded_by__isnull=True, deleted_at__isnull=True
    ).not_expired()
    found = matching_any(current, phrases).values_list("pk", "status", "text")[:CANDIDATES]
    mine = lexicon_words(text)
    kept = {}
    for pk, status, other in found:
        share = share_between(mine, lexicon_words(other))
        if share is not None and share >= WORDS_TRANSLATED:
            kept[pk] = Translated(status, other, translated_verdict(text, other, share))
    return kept


def same_in_other_language(text, translations, user):
    """Of ``translations`` (``translated``), the one that says the same as ``text`` and all it says
    (``adds_nothing``), of the same people (``same_people``, ``user``'s memories), which decides what becomes
    of it as ``same_text`` chooses: ``(status, id)`` or None.
    "Người dùng ăn chay" is "User is vegetarian" (the doctor groups them); "Minh nợ Lan 200k" is not "Lan
    owes Minh 200k", and "Người dùng ăn chay từ năm 2020" tells more than "User is vegetarian"."""
    return _deciding(
        [
            (pk, found.status)
            for pk, found in translations.items()
            if found.verdict == SAME and adds_nothing(text, found.text) and same_people(text, found.text, user)
        ]
    )


def opposed_in_other_language(translations):
    """``{id: text}``: the live memories of ``translations`` (``translated``) that say otherwise, as the
    doctor compares memories across languages: "Người dùng sống ở Đà Nẵng" against "User lives in Hanoi"."""
    return {
        pk: found.text
        for pk, found in translations.items()
        if found.verdict == OPPOSED and found.status == Status.APPROVED
    }


# A memory whose words mostly translate a proposal's holds some of the few of them, read in the other
# language, that the fewest memories hold: the write path looks it up by one of the three rarest, so that a
# common word ("người dùng", "user") does not make it walk half the store.
RAREST = 3
# A word held by more memories than this (or this share of the store) is too common to look a memory up by:
# a proposal whose words all are is left to the doctor, which compares each memory with its block's.
RARE_DOCUMENTS = 200
RARE_SHARE = 0.002


def _rarest_across(text):
    """``matching_any``'s phrases for ``opposed_in_other_language``: the spellings of the ``RAREST`` words and
    phrases of ``text`` read in the other language (``in_other_language``) that some memory holds and few
    do (``RARE_DOCUMENTS``); English stems as prefixes ("liv" for "lives"), Vietnamese words whole. None
    when all are common."""
    units = in_other_language(text, first_words_too=True)
    if not units:
        return []
    spelt = {
        (spelling, unit.english): [SearchTerm(fold(word).lower(), unit.english) for word in spelling]
        for unit in units
        for spelling in unit.spellings
    }
    held_by, total = counts.documents({term for terms in spelt.values() for term in terms})
    held = {key: min(held_by[term] for term in terms) for key, terms in spelt.items()}
    documents = {unit: sum(held[spelling, unit.english] for spelling in unit.spellings) for unit in units}
    rare = [unit for unit in units if 0 < documents[unit] <= max(RARE_DOCUMENTS, total * RARE_SHARE)]
    rarest = sorted(rare, key=lambda unit: (documents[unit], unit.spellings))[:RAREST]
    return [(spelling, unit.english) for unit in rarest for spelling in unit.spellings]


def forget_counts():
    """Ask the store again for every word's count (tests: each starts with its own store)."""
    counts.forget()


def _possible_update(otherwise, fuller=()):
    """Why a possible update waits: the memories it says otherwise than, and those it says more than."""

    def memories(ids):
        return ("memory " if len(ids) == 1 else "memories ") + ", ".join(map(str, ids))

    says = [f"otherwise than {memories(otherwise)}"] if otherwise else []
    says += [f"more than {memories(fuller)}"] if fuller else []
    them = "it" if len(otherwise) + len(fuller) == 1 else "them"
    return f"it says {' and '.join(says)}, so it may be meant to replace {them}"


@dataclass(frozen=True)
class Replaced:
    """A live memory that a possible update says otherwise than."""

    pk: int
    text: str


def _newest_of_subjects(blocks):
    """``{(user, kind, subject): {id: text}}``: the live memories of each block that a proposal compares
    itself with (``_SAME_SUBJECT``), all in one statement of one ``LIMIT`` per block."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    parts, params = [], []
    for index, block in enumerate(blocks):
        parts.append(f"SELECT {index} AS block, id, text FROM ({_SAME_SUBJECT}) AS subject_{index}")
        params += [*block, now]
    found = {block: {} for block in blocks}
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(parts), params)
        for index, memory_id, text in cursor.fetchall():
            found[blocks[index]][memory_id] = text
    return found


def possible_updates(proposals):
    """For each proposal flagged ``possible_update`` among ``proposals`` (memories): the live memories it
    says otherwise than, as ``{proposal id: [Replaced, …]}``, newest first, compared as ``propose`` does
    (with the 50 newest of its user, kind and subject): one statement for them all, and those of each
    proposal's look beyond them (``otherwise_elsewhere``): one for a denial, two for words the lexicon
    carries into the other language, one for a kind of thing or a state, one for a slot it fills, one for
    what it denies, or is denied by, in the other language (and one for each name those need told apart)."""
    flagged = [memory for memory in proposals if POSSIBLE_UPDATE in (memory.flags or [])]
    if not flagged:
        return {}
    blocks = list(dict.fromkeys((memory.user, memory.kind, memory.subject) for memory in flagged))
    alike = _newest_of_subjects(blocks)
    found = {}
    for memory in flagged:
        texts = alike[memory.user, memory.kind, memory.subject]
        ids = said_otherwise(memory.text, texts, memory.subject, memory.kind)
        close = {pk: text for pk, text in meaning_alike(memory).items() if pk not in texts}
        ids += [pk for pk in said_otherwise(memory.text, close, "", memory.kind) if pk not in ids]
        ids += said_again_with_more(memory.text, texts, memory.user, memory.subject, memory.kind, ids)
        ids += said_again_with_more(memory.text, close, memory.user, "", memory.kind, ids)
        texts = {**texts, **close}
        elsewhere = otherwise_elsewhere(memory.user, memory.kind, memory.subject, memory.project, memory.text)
        texts.update(elsewhere)
        ids += [pk for pk in elsewhere if pk not in ids]
        opposed = {pk: text for pk, text in opposed_counterpart(memory).items() if pk not in ids}
        texts.update(opposed)
        ids += list(opposed)
        if ids:
            found[memory.pk] = [Replaced(pk, texts[pk]) for pk in ids]
    return found


# With embeddings on, a proposal is also compared with this many live memories of its user and kind closest
# to it in meaning, whatever their subject (an agent gives one fact other subject slugs).
MEANING_NEIGHBOURS = 10


def meaning_alike(memory):
    """``{id: text}``: the live memories of ``memory``'s user and kind closest to it in meaning, in its
    language (where words can be set side by side); empty with embeddings off, with no vector for it yet,
    or when the model cannot be used."""
    if not embeddings.enabled():
        return {}
    live = Memory.objects.live().filter(user=memory.user, kind=memory.kind)
    try:
        found = vectors.nearest_to(memory.pk, live, MEANING_NEIGHBOURS)
    except embeddings.Unavailable:
        return {}
    if not found or not found.closeness:
        return {}
    language = language_of(memory.text)
    texts = dict(live.filter(pk__in=list(found.closeness)).values_list("pk", "text"))
    return {pk: texts[pk] for pk in found.closeness if pk in texts and language_of(texts[pk]) == language}


def opposed_counterpart(memory, pairs=None):
    """``{id: text}``: the live memory of ``memory``'s user and kind that is its counterpart in the other
    language (``vectors.counterparts_of``) when, by what a translation keeps, it says otherwise
    (``across_languages``): "Người dùng không uống cà phê nữa" against "User drinks coffee every morning";
    or its counterpart or its closest in its own language when that one names something else in its
    place (``names_instead``): "User uses VS Code now" against "Neovim is the user's main editor",
    "Người dùng sống ở Huế" against "User lives in Hanoi"; or its closest in its own language when that one
    says the same of another value (``another_value``): "The team moved the Atlas release to April 30"
    against "Project Atlas must launch by 15 March". Empty otherwise, with embeddings off, or when the
    model cannot be used. (``pairs``: what ``counterparts_of`` found among them, when the caller has it.)"""
    if not embeddings.enabled():
        return {}
    live = Memory.objects.live().filter(user=memory.user, kind=memory.kind)
    found = {}
    try:
        across, closest = pairs or vectors.counterparts_of(memory.pk, live)
    except embeddings.Unavailable:
        return {}
    texts = dict(live.filter(pk__in=[pair[0] for pair in (across, closest) if pair]).values_list("pk", "text"))
    if across and across[0] in texts:
        other = texts[across[0]]
        if across_languages(memory.text, other) == OPPOSED or names_instead(memory.text, other):
            found[across[0]] = other
    if closest and closest[0] in texts:
        other = texts[closest[0]]
        if names_instead(memory.text, other) or another_value(memory.text, other):
            found[closest[0]] = other
    found.update(_changed_elsewhere(memory, found))
    return found


def _changed_elsewhere(memory, found):
    """``{id: text}``: among the live memories of ``memory``'s user and project whatever their kind, its
    closest in each language (each the other's, standing out as counterparts do), when one of the two gives
    another value of the same thing, or says it is new and names something else in place: the doctor's
    rule across kinds, so that "User uses VS Code now", proposed as a preference, meets "Neovim is the main
    editor", filed as a fact. (``found``: those already known, left out.)"""
    everyone = Memory.objects.live().filter(user=memory.user, project=memory.project)
    try:
        pairs = vectors.counterparts_of(memory.pk, everyone)
    except embeddings.Unavailable:
        return {}
    close = [pair[0] for pair in pairs if pair and pair[0] not in found]
    texts = dict(everyone.filter(pk__in=close).values_list("pk", "text"))
    return {
        pk: text for pk, text in texts.items() if another_value(memory.text, text) or changed_names(memory.text, text)
    }


MEANING_ACTOR = "system:meaning"
# A memory the write policy ``allow`` approved at once is checked by meaning like a proposal when its vector
# is made within this long of the write (the job runs within a minute of writes). Older ones are left to the
# doctor: turning embeddings on, or changing the model, is not a review of the past.
RECHECKED_WITHIN = timedelta(hours=1)


def embed_and_check():
    """The job cluster's task after writes: every missing vector (``vectors.build``), then each pending
    proposal that got one is compared with the memories closest to it in meaning. One that says the same
    as one of them is merged into it (``same_by_meaning``: superseded by it, which is confirmed, as a
    duplicate proposal is); one that says otherwise than one of them is flagged a possible update (with the
    write path's own comparison), so it is never approved in passing. So is a memory an agent wrote a
    moment ago that the write policy ``allow`` approved at once, and nobody has touched since: a repeat is
    merged, and one that says otherwise goes back to the queue, flagged, as it would have if words had
    shown it (SPEC §3: a possible update is queued). Off, the task's schedule goes."""
    if not embeddings.enabled():
        vectors.unschedule()
        return "embeddings are off"
    started = timezone.now()
    made = vectors.build(stale=False)
    fresh = Memory.objects.filter(vector__made_at__gte=started)
    merged = flagged = queued = 0
    for memory in fresh.pending().order_by("pk").iterator():
        near = _Near.of(memory)
        if _merge_by_meaning(memory, near):
            merged += 1
        elif POSSIBLE_UPDATE not in memory.flags and _flag_by_meaning(memory, near):
            flagged += 1
    for memory in _approved_by_policy(fresh, started):
        near = _Near.of(memory)
        if _merge_by_meaning(memory, near):
            merged += 1
        elif _flag_by_meaning(memory, near, reopen=True):
            queued += 1
    return (
        f"{made.made} vectors made, {made.missing} missing, {merged} repeats merged into the memory they repeat, "
        f"{flagged} proposals flagged as possible updates, {queued} approved by the write policy queued again"
    )


def _approved_by_policy(fresh, started):
    """The live memories of ``fresh`` that an agent wrote as approved (the write policy ``allow``) within
    ``RECHECKED_WITHIN`` of ``started``, and that no one but an agent has changed since."""
    agents = Q(actor__startswith=actors.AGENT_PREFIX)
    added = AuditEvent.objects.filter(agents, event=AuditEvent.Event.ADD, at__gte=started - RECHECKED_WITHIN)
    touched = AuditEvent.objects.filter(memory_id=OuterRef("pk")).exclude(agents)
    return fresh.live().filter(pk__in=added.values("memory_id")).exclude(Exists(touched)).order_by("pk")


# A repeat found by meaning is merged, and so hidden, without the owner: across the languages, at least half
# the words the lexicon knows of the two must translate each other (the doctor, which only reports, compares
# counterparts sharing any; on the open blind sets every false merge shared a third or less).
MERGED_TRANSLATED = 0.5
# A repeat in other words of its own language is merged only among at least so many other live memories of its
# user and kind: the closest stands out from the rest only where there is a rest (in a store of two memories the
# model's closest is the other one whatever it says; on the blind pair sets, each pair alone in a store, that
# merged 7 look-alikes, and none on the blind meaning sets).
IN_OTHER_WORDS_AMONG = 8


@dataclass(frozen=True)
class _Near:
    """What the job's checks of one memory look at, found once: its closest in meaning in its language
    (``meaning_alike``) and its counterparts (``vectors.counterparts_of``), among the live memories of its
    user and kind."""

    alike: dict
    pairs: tuple

    @classmethod
    def of(cls, memory):
        live = Memory.objects.live().filter(user=memory.user, kind=memory.kind)
        try:
            pairs = vectors.counterparts_of(memory.pk, live)
        except embeddings.Unavailable:
            pairs = (None, None)
        return cls(meaning_alike(memory), pairs)


def same_by_meaning(memory, near):
    """The id of the live memory of ``memory``'s user, kind and project that says the same as it, and all
    it says, among those close in meaning (``near``), as the doctor groups them with embeddings on: among
    its closest in its own language, the same fact by the words (``saying_the_same``, ``details_agree``:
    "User prefers replies in Vietnamese" and "User wants answers in Vietnamese" under two subjects), or its
    closest there saying it in other words and no more (``repeated_in_other_words``, among a rest of
    ``IN_OTHER_WORDS_AMONG`` others at least: "User prefers dark mode in every app" and "The user likes all of
    his apps set to a dark theme"); its counterpart in the other language when half their words translate each
    other (``MERGED_TRANSLATED``), a translation keeps all it says (``translated_verdict``) and it tells nothing
    more (``adds_nothing``): "Lan nợ Minh 200 nghìn" and "Lan owes Minh 200k", not "Minh nợ Lan 200k". None
    otherwise."""
    across = near.pairs[0]
    looked = [*near.alike, *(pair[0] for pair in near.pairs if pair)]
    if not looked:
        return None
    mine = dict(Memory.objects.live().filter(pk__in=looked, project=memory.project).values_list("pk", "text"))
    alike = {pk: text for pk, text in near.alike.items() if pk in mine}
    for pk in saying_the_same(memory.text, alike, memory.kind):
        if same_people(memory.text, alike[pk], memory.user):
            return pk
    # In its own language, one fact in other words (``in_other_words``), as the doctor groups it: its closest
    # standing out from the rest, where there is a rest to stand out from (``IN_OTHER_WORDS_AMONG``).
    within = near.pairs[1]
    closest = mine.get(within[0]) if within else None
    if closest is not None and repeated_in_other_words(memory.text, closest) and _among_a_rest(memory):
        if same_people(memory.text, closest, memory.user):
            return within[0]
    other = mine.get(across[0]) if across else None
    if other is None:
        return None
    share = share_between(lexicon_words(memory.text), lexicon_words(other))
    merged = (
        share is not None
        and share >= MERGED_TRANSLATED
        and translated_verdict(memory.text, other, share) == SAME
        and adds_nothing(memory.text, other)
        and same_people(memory.text, other, memory.user)
    )
    return across[0] if merged else None


def _among_a_rest(memory):
    """Whether ``memory``'s user and kind have ``IN_OTHER_WORDS_AMONG`` other live memories at least (one
    query, counting no further), asked only of a repeat found in other words."""
    others = Memory.objects.live().filter(user=memory.user, kind=memory.kind).exclude(pk=memory.pk)
    return others.values("pk")[:IN_OTHER_WORDS_AMONG].count() >= IN_OTHER_WORDS_AMONG


def _merge_by_meaning(memory, near):
    """``memory`` superseded by the live memory that says the same (``same_by_meaning``), which is
    confirmed: True; False when there is none, or when that one is no longer live."""
    twin = same_by_meaning(memory, near)
    if twin is None:
        return False
    try:
        with transaction.atomic():
            lifecycle.supersede(
                memory.pk, twin, actor=MEANING_ACTOR, note=f"close in meaning to memory {twin}, and says the same"
            )
            lifecycle.confirm(twin, actor=MEANING_ACTOR, note=f"memory {memory.pk} said the same")
    except LifecycleError:
        return False
    return True


def _said_otherwise_by_meaning(memory, near):
    """The ids of the live memories close in meaning to ``memory`` (``near``) that it says otherwise than."""
    replaces = said_otherwise(memory.text, near.alike, "", memory.kind) if near.alike else []
    replaces += said_again_with_more(memory.text, near.alike, memory.user, "", memory.kind, replaces)
    return replaces + [pk for pk in opposed_counterpart(memory, near.pairs) if pk not in replaces]


def _flag_by_meaning(memory, near, *, reopen=False):
    """Flag ``memory`` a possible update when it says otherwise than a memory close in meaning (``near``);
    ``reopen``: a memory the write policy approved goes back to the queue first. True when flagged."""
    replaces = _said_otherwise_by_meaning(memory, near)
    if not replaces:
        return False
    note = "close in meaning to memories " + ", ".join(map(str, replaces)) + ", and may be meant to replace them"
    with transaction.atomic():
        if reopen:
            lifecycle.reopen([memory.pk], actor=MEANING_ACTOR, note=note + "; back to the queue")
        lifecycle.add_flag(memory.pk, POSSIBLE_UPDATE, actor=MEANING_ACTOR, note=note)
    return True


def approve_as_update(memory_id, replaced_ids, *, actor):
    """Approve a proposal and let it supersede ``replaced_ids``, the memories it says otherwise than (as
    ``possible_updates`` lists them now): all in one transaction, or nothing if one of them is no longer
    such a memory."""
    replaced_ids = sorted(lifecycle.clean_ids(replaced_ids))
    with transaction.atomic():
        proposal = lifecycle.get_memory(memory_id, for_update=True)
        current = {row.pk for row in possible_updates([proposal]).get(proposal.pk, [])}
        gone = [pk for pk in replaced_ids if pk not in current]
        if gone:
            raise LifecycleError(
                _("Memory #%(id)s no longer says otherwise than %(ids)s; look at it again.")
                % {"id": memory_id, "ids": ", ".join(f"#{pk}" for pk in gone)}
            )
        lifecycle.approve([proposal.pk], actor=actor)
        for pk in replaced_ids:
            lifecycle.supersede(pk, proposal.pk, actor=actor, note="approved as its update")
    return replaced_ids


def _confirm(memory_id, actor):
    lifecycle.confirm(memory_id, actor=actor)
    return Proposal(memory_id, DUPLICATE, f"already remembered as memory {memory_id}; confirmed it instead")


def record_message(*, role, text, agent, user="", channel="", project=""):
    """Keep one conversation message as provenance. Secrets in it are redacted before it is stored;
    while memory is paused nothing is kept (raises ``Refused``)."""
    actors.agent(agent)
    role = clean_choice("role", role, Message.Role)
    text = characters.strip(clean_characters("text", text))
    if not text:
        raise InvalidValue("text", "must not be empty")
    if len(text) > MAX_MESSAGE_LENGTH:
        raise InvalidValue("text", f"is {len(text)} characters long; the limit is {MAX_MESSAGE_LENGTH}")
    fields = dict(
        user=clean_label("user", user),
        channel=clean_label("channel", channel),
        project=clean_label("project", project),
    )
    with transaction.atomic():
        if MemorySettings.load().paused:
            raise Refused("memory is paused: no messages are kept until `bestie memory resume`")
        return Message.objects.create(
            role=role, text=secrets.redact(text), **{name: secrets.redact(value) for name, value in fields.items()}
        )
