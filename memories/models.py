"""The memory record, its audit history, conversation messages and the owner's settings (SPEC §2, §3)."""

from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# What ``Memory.state`` says, in the owner's language (the console, domain errors); the API and the CLI's
# JSON keep the words themselves.
STATE_LABELS = {
    "live": _("live"),
    "stale": _("stale"),
    "pending": _("pending"),
    "approved": _("approved"),
    "rejected": _("rejected"),
    "superseded": _("superseded"),
    "expired": _("expired"),
    "deleted": _("deleted"),
}


def state_label(state):
    return STATE_LABELS.get(state, state)


# The kinds agents and the owner use most, in plain words; any other kind reads as its words
# (``kind_label``). A kind is a free slug: this table names the common ones, it does not limit them.
KIND_LABELS = {
    "preference": _("preference"),
    "fact": _("fact"),
    "communication_preference": _("communication preference"),
    "addressing": _("how to address you"),
    "identity": _("identity"),
    "identity_rule": _("identity rule"),
    "decision": _("decision"),
    "project": _("project"),
    "project_context": _("project context"),
    "relationship": _("relationship"),
    "person": _("person"),
    "contact": _("contact"),
    "schedule": _("schedule"),
    "routine": _("routine"),
    "event": _("event"),
    "health": _("health"),
    "work": _("work"),
    "goal": _("goal"),
    "task": _("task"),
    "place": _("place"),
    "note": _("note"),
    "instruction": _("instruction"),
    "inside_joke": _("inside joke"),
}


def words_of(slug):
    """A slug as the words it is made of: ``package_manager`` reads "package manager"."""
    return " ".join(slug.replace("_", " ").split())


def kind_label(kind):
    """A memory's kind in the owner's words: ``communication_preference`` reads "communication preference"."""
    return KIND_LABELS.get(kind) or words_of(kind)


# The labels are the console's words for each value, in the owner's language; the API, the CLI and the
# export keep the values themselves. Where a memory applies reads "scope · layer": "everywhere · working
# memory".
class Scope(models.TextChoices):
    CORE = "core", _("everywhere")
    PROJECT = "project", _("one project")
    SESSION = "session", _("one session")


class Layer(models.TextChoices):
    CORE = "core", _("core profile")
    WORKING = "working", _("working memory")
    ARCHIVE = "archive", pgettext_lazy("layer", "archive")


class Status(models.TextChoices):
    PENDING = "pending", _("pending")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")


class SourceKind(models.TextChoices):
    USER_MESSAGE = "user_message", _("user message")
    TOOL_OUTPUT = "tool_output", _("tool output")
    AGENT_INFERENCE = "agent_inference", _("agent inference")
    IMPORT = "import", _("import")
    OWNER = "owner", _("owner")
    CONSOLIDATION = "consolidation", _("consolidation")


class Policy(models.TextChoices):
    ALLOW = "allow", _("allow")
    ASK = "ask", _("ask")
    DENY = "deny", _("deny")


class Governance(models.TextChoices):
    GOVERNED = "governed", _("governed")
    FULL = "full", _("full")


# A memory neither written nor used for this long is unused: rebalance archives it, cleanup marks it stale.
UNUSED_DAYS = 180


class MemoryQuerySet(models.QuerySet):
    def not_expired(self, now=None):
        now = now or timezone.now()
        return self.filter(Q(expires_at__isnull=True) | Q(expires_at__gt=now))

    def expired(self, now=None):
        return self.filter(expires_at__lte=now or timezone.now())

    def live(self, now=None):
        """Approved, not superseded, not expired, not soft-deleted: what Bestie may know today."""
        return self.filter(status=Status.APPROVED, superseded_by__isnull=True, deleted_at__isnull=True).not_expired(now)

    def injectable(self, now=None):
        """Live, not stale, and outside the archive: the only rows a prompt may ever see."""
        return self.live(now).filter(stale=False).exclude(layer=Layer.ARCHIVE)

    def pending(self, now=None):
        """Proposals waiting for the owner's decision."""
        return self.filter(status=Status.PENDING, superseded_by__isnull=True, deleted_at__isnull=True).not_expired(now)

    def flagged(self):
        """Rows the write path flagged (tool output, instruction-like, a possible update, venting): a
        proposal among them is approved only in a second, explicit step (``proposals.needing_second_step``)."""
        return self.exclude(flags=[])

    def due_for_review(self, now=None):
        """Live memories confirmed longer ago than ``BESTIE_DRIFT_AGE_DAYS``: the drift review's (SPEC §5)."""
        now = now or timezone.now()
        return self.live(now).filter(confirmed_at__lt=now - timedelta(days=settings.BESTIE_DRIFT_AGE_DAYS))

    def unused(self, now=None):
        """Written and last used (if ever) more than ``UNUSED_DAYS`` ago."""
        since = (now or timezone.now()) - timedelta(days=UNUSED_DAYS)
        return self.filter(Q(created_at__lt=since) & (Q(last_accessed_at__isnull=True) | Q(last_accessed_at__lt=since)))

    STATES = ("pending", "approved", "rejected", "live", "stale", "superseded", "expired", "deleted")

    def in_state(self, state, now=None):
        """Rows whose ``Memory.state`` reads ``state``, in the same order of precedence (deleted,
        superseded, expired, then the decision). ``live`` is SPEC §2's live, stale rows included;
        ``approved`` is the stored decision, whatever became of the memory since."""
        now = now or timezone.now()
        current = self.filter(deleted_at__isnull=True)
        unreplaced = current.filter(superseded_by__isnull=True)
        states = {
            "pending": lambda: self.pending(now),
            "approved": lambda: self.filter(status=Status.APPROVED),
            "rejected": lambda: unreplaced.not_expired(now).filter(status=Status.REJECTED),
            "live": lambda: self.live(now),
            "stale": lambda: self.live(now).filter(stale=True),
            "superseded": lambda: current.filter(superseded_by__isnull=False),
            "expired": lambda: unreplaced.expired(now),
            "deleted": lambda: self.filter(deleted_at__isnull=False),
        }
        if state not in states:
            raise ValueError(f"state must be one of {', '.join(self.STATES)}, not {state!r}")
        return states[state]()


class Memory(models.Model):
    text = models.TextField()
    kind = models.SlugField(max_length=64, db_index=False)
    subject = models.CharField(max_length=100, blank=True, default="")
    scope = models.CharField(max_length=16, choices=Scope.choices, default=Scope.CORE)
    user = models.CharField(max_length=100, blank=True, default="")
    channel = models.CharField(max_length=100, blank=True, default="")
    project = models.CharField(max_length=100, blank=True, default="")
    layer = models.CharField(max_length=16, choices=Layer.choices, default=Layer.WORKING)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    pinned = models.BooleanField(default=False)
    stale = models.BooleanField(default=False)
    # Indexed by the partial index ``memory_superseded_by`` below, not by a plain one: SQLite estimates
    # ``superseded_by_id IS NULL`` (true of nearly every row) as selective as one id and would read
    # whole queues through a plain index on it.
    superseded_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="supersedes", db_index=False
    )
    expires_at = models.DateTimeField(null=True, blank=True)
    confidence = models.FloatField(default=1.0, validators=[MinValueValidator(0.0), MaxValueValidator(1.0)])
    source = models.TextField()
    source_kind = models.CharField(max_length=32, choices=SourceKind.choices)
    # Indexed by the partial index ``memory_from_message`` below: most memories have no message, and every
    # index a new row enters costs a proposal about 30 µs on a 100k store.
    message = models.ForeignKey(
        "Message", null=True, blank=True, on_delete=models.SET_NULL, related_name="memories", db_index=False
    )
    flags = models.JSONField(default=list, blank=True)
    # ``memories.language.meaning.text_key(text)``, kept by the write path: same key, same words.
    text_key = models.CharField(max_length=40, blank=True, default="", editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(default=timezone.now)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    access_count = models.PositiveIntegerField(default=0)
    deleted_at = models.DateTimeField(null=True, blank=True)

    objects = MemoryQuerySet.as_manager()

    class Meta:
        db_table = "memory"
        verbose_name_plural = "memories"
        ordering = ["id"]
        indexes = [
            models.Index(fields=["status", "layer", "scope"], name="memory_status_layer_scope"),
            # Only rows that expire: every query on it compares (expires_at <= now), which implies NOT NULL.
            models.Index(fields=["expires_at"], condition=Q(expires_at__isnull=False), name="memory_expires"),
            models.Index(fields=["message"], condition=Q(message__isnull=False), name="memory_from_message"),
            models.Index(fields=["kind", "subject"], name="memory_kind_subject"),
            models.Index(fields=["user", "text_key"], name="memory_user_text_key"),
            # Ending in id: "the newest of a subject" (the duplicate check) reads the index in order on
            # PostgreSQL too, as SQLite does with the rowid every index ends in.
            models.Index(fields=["user", "kind", "subject", "status", "id"], name="memory_user_kind_subject"),
            models.Index(fields=["confirmed_at"], name="memory_confirmed"),
            models.Index(fields=["created_at"], name="memory_created"),
            # The queue, oldest first. ``status`` leads although the condition fixes it: the queue's
            # ``status = 'pending'`` then matches this index as well as memory_status_layer_scope, and
            # this one, already in order, wins whatever statistics the planner has (with none, or
            # sampled ones, it took the other and sorted 100k rows: 160-240 ms a page). It holds every
            # column ``Memory.objects.pending()`` and ``flagged()`` compare, so the dashboard counts the
            # queue and its flagged proposals from the index alone (not 12,000 rows of the table, 15 ms
            # each, at 100k), and a filter on flags reads only the rows it shows.
            models.Index(
                fields=["status", "created_at", "id", "expires_at", "flags"],
                condition=Q(status="pending", superseded_by__isnull=True, deleted_at__isnull=True),
                name="memory_pending",
            ),
            # The core tier in retrieval's order (pinned, then the most confident and recently confirmed):
            # a prompt reads its first few rows instead of sorting every core memory.
            models.Index(fields=["layer", "status", "pinned", "confidence", "confirmed_at"], name="memory_tier_rank"),
            models.Index(
                fields=["superseded_by"], condition=Q(superseded_by__isnull=False), name="memory_superseded_by"
            ),
            # The live memories (and the stale ones) of the console, without reading a row of the table: the
            # dashboard's count per layer (every column it compares is here), and a layer's newest first
            # (the memory list's ``state=live&layer=…``). Only approved rows that are still current enter it,
            # so a proposal costs it nothing. ``status`` leads although the condition fixes it, for the same
            # reason as ``memory_pending``: without it the planner, with sampled statistics, went through
            # ``memory_status_layer_scope`` and read 60,000 rows of a 100k store (50 ms a count).
            models.Index(
                fields=["status", "layer", "id", "stale", "expires_at", "pinned"],
                condition=Q(status="approved", superseded_by__isnull=True, deleted_at__isnull=True),
                name="memory_live",
            ),
            # The drift review's queue in its order (oldest confirmation first, then id) and its count of all
            # that are due, from the index alone.
            models.Index(
                fields=["status", "confirmed_at", "id", "expires_at"],
                condition=Q(status="approved", superseded_by__isnull=True, deleted_at__isnull=True),
                name="memory_live_confirmed",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(confidence__gte=0.0) & Q(confidence__lte=1.0), name="memory_confidence_range"
            ),
            models.CheckConstraint(condition=~Q(source=""), name="memory_source_required"),
            models.CheckConstraint(condition=~Q(text=""), name="memory_text_required"),
            models.CheckConstraint(condition=~Q(superseded_by=models.F("id")), name="memory_not_self_superseded"),
        ]

    def __str__(self):
        # Never the text: this string ends up in admin logs, which forgetting must not have to chase.
        return f"memory #{self.pk} ({self.kind})"

    def state(self, now=None):
        """One word for where this memory stands, in the order that decides what a reader sees."""
        now = now or timezone.now()
        if self.deleted_at:
            return "deleted"
        if self.superseded_by_id:
            return "superseded"
        if self.expires_at and self.expires_at <= now:
            return "expired"
        if self.status != Status.APPROVED:
            return self.status
        return "stale" if self.stale else "live"

    def is_live(self, now=None):
        return self.state(now) in ("live", "stale")


class MemoryVector(models.Model):
    """What a memory's text means, as the embeddings model ``model`` put it (``memories.vectors``): derived
    from the text like the full-text index, made in the background after a write, made again when the text
    changes (``text_sha256`` is that of the text it was made from) and erased with the memory."""

    memory = models.OneToOneField(Memory, on_delete=models.CASCADE, primary_key=True, related_name="vector")
    model = models.CharField(max_length=200)
    text_sha256 = models.CharField(max_length=64)
    # "vi" for a text written with Vietnamese letters, else "": similarities are compared within a language.
    language = models.CharField(max_length=8, blank=True, default="")
    # float32, little-endian, unit length.
    vector = models.BinaryField()
    made_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "memory_vector"
        indexes = [models.Index(fields=["model", "made_at"], name="memory_vector_model_made")]

    def __str__(self):
        return f"vector of memory #{self.memory_id} ({self.model})"


class AuditEvent(models.Model):
    """One change to a memory (or to the settings), with who made it and the values before and after.

    ``memory_id`` is a plain number, not a foreign key: the history outlives a forgotten memory, which
    then keeps only the hash of its text here.
    """

    # Each labelled as a noun, for "Revert this move" as well as the timeline.
    class Event(models.TextChoices):
        ADD = "add", pgettext_lazy("history", "addition")
        PROPOSE = "propose", pgettext_lazy("history", "proposal")
        APPROVE = "approve", pgettext_lazy("history", "approval")
        REJECT = "reject", pgettext_lazy("history", "rejection")
        EDIT = "edit", pgettext_lazy("history", "edit")
        PIN = "pin", pgettext_lazy("history", "pin")
        UNPIN = "unpin", pgettext_lazy("history", "unpin")
        MOVE = "move", pgettext_lazy("history", "move")
        SUPERSEDE = "supersede", pgettext_lazy("history", "replacement")
        MERGE = "merge", pgettext_lazy("history", "merge")
        CONFIRM = "confirm", pgettext_lazy("history", "confirmation")
        MARK_STALE = "mark_stale", pgettext_lazy("history", "marking as stale")
        EXPIRE = "expire", pgettext_lazy("history", "expiry")
        ARCHIVE = "archive", pgettext_lazy("history", "archiving")
        RESTORE = "restore", pgettext_lazy("history", "restoring")
        FORGET = "forget", pgettext_lazy("history", "forgetting")
        IMPORT = "import", pgettext_lazy("history", "import")
        POLICY = "policy", pgettext_lazy("history", "policy change")
        TOKEN = "token", pgettext_lazy("history", "token change")
        REQUEST_FORGET = "request_forget", pgettext_lazy("history", "request to erase")
        KEEP = "keep", pgettext_lazy("history", "keeping")
        REOPEN = "reopen", pgettext_lazy("history", "reopening")

    memory_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    event = models.CharField(max_length=32, choices=Event.choices)
    actor = models.CharField(max_length=150)
    at = models.DateTimeField(default=timezone.now, db_index=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    text_sha256 = models.CharField(max_length=64, blank=True, default="")
    note = models.TextField(blank=True, default="")

    class Meta:
        db_table = "memory_history"
        ordering = ["id"]

    def __str__(self):
        return f"{self.event} #{self.memory_id} by {self.actor}"


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", _("user")
        ASSISTANT = "assistant", _("assistant")
        TOOL = "tool", _("tool")

    role = models.CharField(max_length=16, choices=Role.choices)
    text = models.TextField()
    user = models.CharField(max_length=100, blank=True, default="")
    channel = models.CharField(max_length=100, blank=True, default="")
    project = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "memory_message"
        ordering = ["id"]
        indexes = [models.Index(fields=["role", "created_at"], name="message_role_created")]

    def __str__(self):
        return f"message #{self.pk} ({self.role})"


class MemorySettings(models.Model):
    """The owner's switches: one row, read on every write and every prompt."""

    write_policy = models.CharField(max_length=8, choices=Policy.choices, default=Policy.ASK)
    delete_policy = models.CharField(max_length=8, choices=Policy.choices, default=Policy.ASK)
    governance_policy = models.CharField(max_length=16, choices=Governance.choices, default=Governance.GOVERNED)
    paused = models.BooleanField(default=False)
    core_budget_tokens = models.PositiveIntegerField(default=settings.BESTIE_CORE_BUDGET_TOKENS)
    working_budget_tokens = models.PositiveIntegerField(default=settings.BESTIE_WORKING_BUDGET_TOKENS)
    # Since when a forget waits for a reader to let the WAL be truncated (``lifecycle.forgetting``).
    erasure_pending_since = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "memory_settings"
        verbose_name_plural = "memory settings"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="memory_settings_singleton")]

    def __str__(self):
        return "memory settings"

    @classmethod
    def load(cls):
        """The row, made on first use. Every write and every prompt reads it, so the query is raw SQL:
        building it with the ORM costs several times what the database needs to answer it."""
        for row in cls.objects.raw(f"SELECT * FROM {cls._meta.db_table} WHERE id = 1"):
            return row
        return cls.objects.get_or_create(pk=1)[0]


class TokenScope(models.TextChoices):
    """What an agent's token lets it do (SPEC §9)."""

    PROPOSE = "propose", _("propose memories and record messages")
    RECALL = "recall", _("ask for context")
    READ = "read", _("list and search memories")
    FORGET = "forget", _("ask to erase memories")


def default_token_scopes():
    return [TokenScope.PROPOSE.value, TokenScope.RECALL.value]


class AgentToken(models.Model):
    """A bearer token of one agent (SPEC §9). Only the SHA-256 of the token is kept: the plaintext is
    shown once, when it is made. A revoked token stays listed, and its name may be given out again.

    ``scopes`` say what it may do; ``users``, when not empty, are the only users whose memories it sees
    and writes; after ``expires_at`` it opens nothing."""

    name = models.SlugField(max_length=64)
    token_sha256 = models.CharField(max_length=64, unique=True)
    scopes = models.JSONField(default=default_token_scopes)
    users = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "agent_token"
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["name"], condition=Q(revoked_at__isnull=True), name="agent_token_active_name_unique"
            )
        ]

    def __str__(self):
        return f"agent token {self.name}"

    @property
    def expired(self):
        return self.expires_at is not None and self.expires_at <= timezone.now()


class DeletionRequest(models.Model):
    """An agent asked to erase a memory while the delete policy is ``ask`` (SPEC §9): it waits for the
    owner beside the proposals. Approving forgets the memory (and this request with it); rejecting keeps
    the memory, and the agent's asking again is refused."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        REJECTED = "rejected", _("rejected")

    memory = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="deletion_requests")
    agent = models.SlugField(max_length=64)
    reason = models.TextField(blank=True, default="")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    requested_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        db_table = "memory_deletion_request"
        ordering = ["requested_at", "id"]
        indexes = [
            models.Index(fields=["status", "requested_at"], condition=Q(status="pending"), name="deletion_pending")
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["memory"], condition=Q(status="pending"), name="deletion_request_one_pending_per_memory"
            )
        ]

    def __str__(self):
        return f"deletion request #{self.pk} for memory #{self.memory_id} by agent {self.agent}"


class _SearchEntry(models.Model):
    """A row of an SQLite FTS5 index (``memories.search``), joined to its record by rowid.

    Unmanaged: the index is created by ``memories.search.install``; on PostgreSQL these models are
    never queried (an expression index does the job there).
    """

    text = models.TextField()
    rank = models.FloatField()

    class Meta:
        abstract = True
        managed = False

    def __str__(self):
        return f"{self._meta.db_table} entry #{self.pk}"


class MemorySearchEntry(_SearchEntry):
    memory = models.OneToOneField(
        Memory,
        primary_key=True,
        db_column="rowid",
        db_constraint=False,
        on_delete=models.DO_NOTHING,
        related_name="search_entry",
    )

    class Meta(_SearchEntry.Meta):
        db_table = "memory_fts"


class MessageSearchEntry(_SearchEntry):
    message = models.OneToOneField(
        Message,
        primary_key=True,
        db_column="rowid",
        db_constraint=False,
        on_delete=models.DO_NOTHING,
        related_name="search_entry",
    )

    class Meta(_SearchEntry.Meta):
        db_table = "message_fts"


@models.TextField.register_lookup
class Match(models.Lookup):
    """``text__match``: an FTS5 MATCH on an SQLite full-text index column."""

    lookup_name = "match"

    def as_sql(self, compiler, connection):
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} MATCH {rhs}", [*lhs_params, *rhs_params]
