"""Memories as vectors: made in the background, kept beside the memories, searched in memory (issue 15).

Each memory that is live or pending has, when embeddings are on (``memories.language.embeddings``), one
``MemoryVector`` row: its text's passage embedding under the configured model. The rows are made by the
job cluster after a write (``embed_soon``; a proposal never waits for a model), by a schedule every
minute that catches what a busy moment left, and by ``bestie memory embeddings build``. A text that
changes loses its vector in the write's own transaction (``text_changed``) and gets a new one; a memory
that is erased takes its vector with it (``erase``). Vectors of another model are not used, and are
replaced by a build.

Search is brute force over a float32 matrix each process keeps (``index()``): 100,000 memories of 384
numbers are 150 MB and one query is a matrix-vector product of a few milliseconds, with no extension on
either database (the same answers on SQLite and PostgreSQL). The matrix follows the table: each search
reads the rows made since it last looked, and when the counts differ, which ids are gone.

Similarities are compared within a language: a Vietnamese question is closer to every Vietnamese text
than to the English one that answers it. A memory's ``closeness`` is how far its similarity to the query
stands above the query's similarity to the memories of its language and to a few fixed sentences of
that language (``ANCHORS``), in standard deviations: the same scale for every model and language; in a
large store a memory must stand out among the owner's own, in a small one the fixed sentences decide.
"""

import hashlib
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from memories.language import embeddings
from memories.language.words import VIETNAMESE, language_of
from memories.models import Memory, MemoryVector, Status
from memories.rows import among

log = logging.getLogger(__name__)

# The task (``memories.lifecycle.proposals.embed_and_check``): vectors, then what they show of proposals.
TASK = "memories.lifecycle.proposals.embed_and_check"
SCHEDULE = "embed memories"
# How many memories one build step reads, and the model embeds at once.
STEP = 256
# The most vectors one search asks its queryset about.
MAX_LOOKED = 12800
# How often a search counts the table's rows to find vectors deleted or committed out of order (about
# 10 ms at 100,000 rows on PostgreSQL, more while its visibility map is behind).
RECOUNT_SECONDS = 10.0
# A process asks the job cluster for vectors at most this often; the minute schedule does the rest.
ENQUEUE_SECONDS = 2.0


# Sentences about nothing in particular, in the way memories are written: what a query's similarity to
# an unrelated memory of each language looks like, under whatever model.
ANCHORS = {
    "": (
        "User keeps a spare key in the blue drawer.",
        "The team meeting moved to Thursday afternoon.",
        "User's sister studies architecture abroad.",
        "User prefers window seats on long flights.",
        "The printer on the second floor is broken.",
        "User started learning the guitar last spring.",
        "User's car is due for an oil change in March.",
        "User likes documentaries about deep-sea animals.",
        "The landlord raised the rent by five percent.",
        "User donates blood twice a year.",
        "User's favourite board game is Carcassonne.",
        "User waters the tomato plants every evening.",
        "The gym closes early on public holidays.",
        "User is allergic to cat hair.",
        "User's laptop battery lasts about four hours.",
        "User wants to visit Iceland in winter.",
    ),
    VIETNAMESE: (
        "Người dùng để chìa khóa dự phòng trong ngăn kéo màu xanh.",
        "Cuộc họp nhóm dời sang chiều thứ Năm.",
        "Chị gái của người dùng học kiến trúc ở nước ngoài.",
        "Người dùng thích ngồi cạnh cửa sổ trên chuyến bay dài.",
        "Máy in ở tầng hai bị hỏng.",
        "Người dùng bắt đầu học đàn ghi-ta từ mùa xuân năm ngoái.",
        "Xe của người dùng cần thay dầu vào tháng Ba.",
        "Người dùng thích xem phim tài liệu về sinh vật biển sâu.",
        "Chủ nhà tăng tiền thuê thêm năm phần trăm.",
        "Người dùng hiến máu hai lần mỗi năm.",
        "Trò chơi cờ bàn yêu thích của người dùng là Carcassonne.",
        "Người dùng tưới cây cà chua mỗi tối.",
        "Phòng tập đóng cửa sớm vào ngày lễ.",
        "Người dùng bị dị ứng lông mèo.",
        "Pin máy tính xách tay của người dùng dùng được khoảng bốn tiếng.",
        "Người dùng muốn đi Iceland vào mùa đông.",
    ),
}


def text_sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()


def _numpy():
    import numpy

    return numpy


def to_bytes(vector):
    return _numpy().asarray(vector, dtype="<f4").tobytes()


def from_bytes(data):
    return _numpy().frombuffer(bytes(data), dtype="<f4")


def embeddable():
    """The memories that should have a vector: live or pending (not rejected, superseded or soft-deleted)."""
    return Memory.objects.filter(
        status__in=(Status.APPROVED, Status.PENDING), superseded_by__isnull=True, deleted_at__isnull=True
    )


# The write path's hooks.


def text_changed(ids):
    """The text of these memories changed (inside the write's transaction): their vectors go, and new ones
    are asked for once it commits."""
    if not embeddings.enabled():
        return
    MemoryVector.objects.filter(memory_id__in=list(ids))._raw_delete(MemoryVector.objects.db)
    embed_soon()


def erase(ids):
    """Delete the vectors of memories being erased (inside the erasure's transaction), embeddings on or off."""
    MemoryVector.objects.filter(memory_id__in=list(ids))._raw_delete(MemoryVector.objects.db)


def erase_all():
    MemoryVector.objects.all()._raw_delete(MemoryVector.objects.db)


_last_enqueued = [0.0]


def embed_soon():
    """Ask the job cluster for the missing vectors once the current transaction commits (at most every
    ``ENQUEUE_SECONDS`` per process; the minute schedule catches what falls between)."""
    if embeddings.enabled():
        transaction.on_commit(_enqueue)


def _enqueue():
    now = time.monotonic()
    if now - _last_enqueued[0] < ENQUEUE_SECONDS:
        return
    _last_enqueued[0] = now
    try:
        from django_q.models import Schedule
        from django_q.tasks import async_task

        Schedule.objects.get_or_create(
            name=SCHEDULE, defaults={"func": TASK, "schedule_type": Schedule.MINUTES, "minutes": 1, "repeats": -1}
        )
        async_task(TASK, task_name=SCHEDULE)
    except Exception:  # the write has committed; a broker that is down must not fail it (the build catches up)
        log.exception("could not ask the job cluster for vectors")


def unschedule():
    """Embeddings are off: the minute schedule goes."""
    from django_q.models import Schedule

    Schedule.objects.filter(name=SCHEDULE).delete()


# Status and building.


@dataclass(frozen=True)
class VectorStatus:
    mode: str
    model: str
    memories: int  # that should have a vector
    current: int  # with a vector of this model for their text as it is
    missing: int  # with no vector of this model
    stale: int  # with a vector of this model for an older text
    other_models: int  # vectors of another model
    available: bool
    problem: str = ""

    def as_json(self):
        return {
            "mode": self.mode,
            "model": self.model,
            "memories": self.memories,
            "current": self.current,
            "missing": self.missing,
            "stale": self.stale,
            "other_models": self.other_models,
            "available": self.available,
            "problem": self.problem,
        }


def status(*, check=True):
    """Counts of vectors against memories; ``check`` also loads the model to say whether it works."""
    mode, model = embeddings.mode(), embeddings.model_name()
    memories = current = stale = 0
    rows = embeddable().values_list("text", "vector__model", "vector__text_sha256").order_by()
    for text, vector_model, sha in rows.iterator(chunk_size=2000):
        memories += 1
        if vector_model == model and model:
            if sha == text_sha256(text):
                current += 1
            else:
                stale += 1
    other = MemoryVector.objects.exclude(model=model).count() if model else MemoryVector.objects.count()
    available, problem = False, ""
    if mode == embeddings.OFF:
        problem = "embeddings are off (BESTIE_EMBEDDINGS=off)"
    elif check:
        try:
            embeddings.embedder()
            available = True
        except embeddings.Unavailable as error:
            problem = str(error)
    return VectorStatus(
        mode=mode,
        model=model,
        memories=memories,
        current=current,
        missing=memories - current - stale,
        stale=stale,
        other_models=other,
        available=available,
        problem=problem,
    )


@dataclass(frozen=True)
class Built:
    made: int
    missing: int  # still without a current vector (0 when done)


def _work(after, model, stale):
    """The next memories after id ``after`` whose vector is missing or of another model, and with
    ``stale`` of an older text too (which reads and hashes every text): ``(last id read, [(id, text), …])``."""
    rows = embeddable().filter(pk__gt=after)
    if not stale:
        rows = rows.filter(Q(vector__isnull=True) | ~Q(vector__model=model))
    rows = list(rows.order_by("pk").values_list("pk", "text", "vector__model", "vector__text_sha256")[:STEP])
    if not rows:
        return None, []
    todo = [(pk, text) for pk, text, vector_model, sha in rows if vector_model != model or sha != text_sha256(text)]
    return rows[-1][0], todo


def _save(model, done):
    """Store vectors made from ``[(id, text, vector), …]``, for those memories whose text is still the one
    embedded (an edit or an erasure while the model ran wins)."""
    with transaction.atomic():
        wanted = {pk: text for pk, text, _ in done}
        still = set(
            embeddable().filter(pk__in=list(wanted)).select_for_update().values_list("pk", "text").order_by().iterator()
        )
        now = timezone.now()
        rows = [
            MemoryVector(
                memory_id=pk,
                model=model,
                text_sha256=text_sha256(text),
                language=language_of(text),
                vector=to_bytes(vector),
                made_at=now,
            )
            for pk, text, vector in done
            if (pk, text) in still
        ]
        MemoryVector.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["memory"],
            update_fields=["model", "text_sha256", "language", "vector", "made_at"],
        )
    return len(rows)


def build(*, progress=None, limit=None, stale=True):
    """Make every missing or stale vector of the configured model, in steps (each stored as it is made:
    an interrupted build goes on where it stopped). ``progress(done, total)`` is called after each step.
    ``stale=False`` (the job after writes) leaves out the texts changed behind the write path's back, which
    only reading and hashing every text finds: the write path drops a vector when it changes the text.
    Raises ``embeddings.Unavailable`` when the model cannot embed."""
    embedder = embeddings.embedder()
    if embedder is None:
        raise embeddings.Unavailable("embeddings are off (BESTIE_EMBEDDINGS=off)")
    model = embedder.name
    total = status(check=False).memories if progress else 0
    made, read, after, attempted = 0, 0, 0, 0
    while limit is None or made < limit:
        last, todo = _work(after, model, stale)
        if last is None:
            break
        read += STEP
        after = last
        if limit is not None:
            todo = todo[: limit - made]
        attempted += len(todo)
        for start in range(0, len(todo), embeddings.BATCH):
            batch = todo[start : start + embeddings.BATCH]
            vectors = embedder.passages([text for _, text in batch])
            made += _save(model, [(pk, text, vector) for (pk, text), vector in zip(batch, vectors, strict=True)])
        if progress:
            progress(min(read, total), total)
    if not stale:
        return Built(made=made, missing=attempted - made)
    left = status(check=False)
    return Built(made=made, missing=left.missing + left.stale)


# Search.


class Index:
    """One model's vectors, as a matrix kept in this process and brought up to date before each search."""

    def __init__(self, model):
        self.model = model
        self.lock = threading.Lock()
        self._reset()

    def _reset(self):
        numpy = _numpy()
        self.ids = numpy.zeros(0, dtype=numpy.int64)
        self.vietnamese = numpy.zeros(0, dtype=bool)
        self.matrix = None
        self.size = 0  # rows in use, holes included
        self.holes = 0
        self.counted = 0.0  # when the table's rows were last counted (time.monotonic())
        self.position = {}  # memory id -> row
        self.seen = None  # the newest made_at read

    def _grow(self, rows, dimensions):
        numpy = _numpy()
        if self.matrix is None:
            self.matrix = numpy.zeros((max(1024, rows), dimensions), dtype=numpy.float32)
            self.ids = numpy.full(len(self.matrix), -1, dtype=numpy.int64)
            self.vietnamese = numpy.zeros(len(self.matrix), dtype=bool)
        elif self.size + rows > len(self.matrix):
            capacity = max(2 * len(self.matrix), self.size + rows)
            matrix = numpy.zeros((capacity, dimensions), dtype=numpy.float32)
            matrix[: self.size] = self.matrix[: self.size]
            ids = numpy.full(capacity, -1, dtype=numpy.int64)
            ids[: self.size] = self.ids[: self.size]
            vietnamese = numpy.zeros(capacity, dtype=bool)
            vietnamese[: self.size] = self.vietnamese[: self.size]
            self.matrix, self.ids, self.vietnamese = matrix, ids, vietnamese

    def _put(self, rows):
        if not rows:
            return
        self._grow(len(rows), len(from_bytes(rows[0][2])))
        for memory_id, language, data, made_at in rows:
            vector = from_bytes(data)
            if len(vector) != self.matrix.shape[1]:
                continue
            row = self.position.get(memory_id)
            if row is None:
                row = self.size
                self.size += 1
                self.position[memory_id] = row
                self.ids[row] = memory_id
            self.matrix[row] = vector
            self.vietnamese[row] = language == VIETNAMESE
            if self.seen is None or made_at > self.seen:
                self.seen = made_at

    def _drop(self, gone):
        for memory_id in gone:
            row = self.position.pop(memory_id)
            self.ids[row] = -1
            self.holes += 1
            self.matrix[row] = 0.0

    def refresh(self):
        rows = MemoryVector.objects.filter(model=self.model)
        if self.seen is not None:
            # A row made a moment before the newest one seen but committed after it is found below, by
            # the counts.
            rows = rows.filter(made_at__gt=self.seen)
        self._put(list(rows.values_list("memory_id", "language", "vector", "made_at").iterator(chunk_size=2000)))
        # Counting costs milliseconds at 100,000 rows: at most once every RECOUNT_SECONDS. A vector
        # deleted since is no harm meanwhile: every search keeps only ids of its queryset.
        if time.monotonic() - self.counted < RECOUNT_SECONDS:
            return
        self.counted = time.monotonic()
        counted = MemoryVector.objects.filter(model=self.model).aggregate(newest=Max("made_at"), stored=Count("*"))
        newest, stored = counted["newest"], counted["stored"]
        went_back = self.seen is not None and (newest is None or newest < self.seen)
        if went_back or self.holes > max(1024, self.size // 4):
            # The table is older than what was read (a backup restored under this process), or the matrix
            # is mostly holes: read it all again.
            self._reset()
            self.refresh()
            return
        if stored != len(self.position):
            present = set(MemoryVector.objects.filter(model=self.model).values_list("memory_id", flat=True))
            self._drop([memory_id for memory_id in self.position if memory_id not in present])
            missing = present.difference(self.position)
            if missing:
                self._put(
                    list(
                        MemoryVector.objects.filter(model=self.model, memory_id__in=among(missing)).values_list(
                            "memory_id", "language", "vector", "made_at"
                        )
                    )
                )

    def similarities(self, vector):
        """``(ids, similarities, vietnamese)`` over every vector, holes left out."""
        numpy = _numpy()
        if self.matrix is None or not self.size:
            return numpy.zeros(0, dtype=numpy.int64), numpy.zeros(0, dtype=numpy.float32), numpy.zeros(0, dtype=bool)
        scores = self.matrix[: self.size] @ vector
        if not self.holes:
            return self.ids[: self.size], scores, self.vietnamese[: self.size]
        keep = self.ids[: self.size] >= 0
        return self.ids[: self.size][keep], scores[keep], self.vietnamese[: self.size][keep]


_indexes = {}
_indexes_lock = threading.Lock()


def index(model):
    """This process's index of ``model``'s vectors, up to date with the table."""
    with _indexes_lock:
        found = _indexes.get(model)
        if found is None:
            found = _indexes[model] = Index(model)
    with found.lock:
        found.refresh()
    return found


def forget_indexes():
    """Drop every process index (tests, and a database that was replaced under this process)."""
    with _indexes_lock:
        _indexes.clear()


@lru_cache(maxsize=8)
def _anchors(model):
    embedder = embeddings.embedder()
    return {language: embedder.passages(texts) for language, texts in ANCHORS.items()}


@lru_cache(maxsize=512)
def _query_vector(model, query):
    return embeddings.embedder().queries([query])[0]


def _baseline(model, vector, scores, vietnamese):
    """For each language, the mean and spread of the query's similarity to the memories of that language
    and to the fixed unrelated sentences of it: in a large store the memories decide (a memory must stand
    out among the owner's own), in a small one the sentences do."""
    numpy = _numpy()
    found = {}
    for language, anchors in _anchors(model).items():
        stored = scores[vietnamese] if language == VIETNAMESE else scores[~vietnamese]
        together = numpy.concatenate([anchors @ vector, stored])
        found[language] = (float(numpy.mean(together)), max(float(numpy.std(together)), 0.01))
    return found


@dataclass(frozen=True)
class Neighbours:
    """The memories closest in meaning to a text: ``closeness`` (standard deviations above unrelated
    sentences of the memory's language) and ``similarity`` (the cosine) by memory id, best first."""

    closeness: dict
    similarity: dict


_embedding_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="query-embedding")


def query_vector_soon(query):
    """Start embedding ``query`` in a thread of its own (the model does not hold the GIL), so that the
    words can be looked up meanwhile; ``nearest(…, vector=…)`` takes the answer. None when off."""
    if not embeddings.enabled():
        return None
    return _embedding_thread.submit(lambda: _query_vector(embeddings.embedder().name, query))


def nearest(query, queryset, limit, *, wide=4, vector=None):
    """The at most ``limit`` memories of ``queryset`` closest in meaning to ``query``. Looks at the
    ``wide × limit`` closest of all vectors and keeps those in ``queryset``, then further (eight times as
    many, up to ``MAX_LOOKED``) while too few are. None when embeddings are off;
    raises ``embeddings.Unavailable`` when the model cannot embed."""
    embedder = embeddings.embedder()
    if embedder is None:
        return None
    vector = vector.result() if vector is not None else _query_vector(embedder.name, query)
    return _ranked(embedder.name, vector, queryset, limit, wide)


def nearest_to(memory_id, queryset, limit, *, wide=4):
    """``nearest`` for a stored memory: the memories of ``queryset`` closest in meaning to it, by its own
    vector. Empty when it has none yet; None when embeddings are off."""
    embedder = embeddings.embedder()
    if embedder is None:
        return None
    found = index(embedder.name)
    row = found.position.get(memory_id)
    if row is None:
        return Neighbours({}, {})
    return _ranked(embedder.name, found.matrix[row].copy(), queryset.exclude(pk=memory_id), limit, wide)


def _best_allowed(ids, ranking, queryset, want, *, first, mask=None, also=None):
    """The rows of the ``want`` best of ``ids`` by ``ranking`` (ties: the lower id first), under ``mask``,
    that are in ``queryset`` or are ``also``, best first. The ``first`` best are asked about; when too few
    of them are the queryset's (another user's store is larger), as many more as the share found so far
    says is enough, with half again to spare, at most eight times as far each time and ``MAX_LOOKED`` in
    all, before settling for fewer."""
    numpy = _numpy()
    rows = numpy.arange(len(ids)) if mask is None else numpy.flatnonzero(mask)
    if not len(rows):
        return []
    kept, looked, count = [], 0, min(len(rows), first)
    while True:
        top = rows[numpy.argpartition(-ranking[rows], count - 1)[:count]]
        top = top[numpy.lexsort((ids[top], -ranking[top]))][looked:]
        allowed = set(queryset.filter(pk__in=among(ids[top])).values_list("pk", flat=True).order_by())
        kept += [row for row in top if int(ids[row]) in allowed or (also is not None and ids[row] == also)]
        if len(kept) >= want or count == len(rows) or count >= MAX_LOOKED:
            return kept[:want]
        enough = count + int(1.5 * (want - len(kept)) * count / max(len(kept), 1))
        looked, count = count, min(len(rows), MAX_LOOKED, count * 8, max(enough, count + want))


def _ranked(model, vector, queryset, limit, wide):
    numpy = _numpy()
    ids, scores, vietnamese = index(model).similarities(vector)
    if not len(ids):
        return Neighbours({}, {})
    baseline = _baseline(model, vector, scores, vietnamese)
    mean = numpy.where(vietnamese, baseline[VIETNAMESE][0], baseline[""][0])
    spread = numpy.where(vietnamese, baseline[VIETNAMESE][1], baseline[""][1])
    closeness = (scores - mean) / spread
    kept = _best_allowed(ids, closeness, queryset, limit, first=wide * limit)
    return Neighbours(
        closeness={int(ids[row]): round(float(closeness[row]), 4) for row in kept},
        similarity={int(ids[row]): round(float(scores[row]), 4) for row in kept},
    )


def neighbours_within(groups, k):
    """For each group (a list of memory ids), each member's ``k`` closest other members in meaning, under the
    configured model: ``{(a, b), …}`` with ``a < b``. Members without a current vector are left out. The
    work is a matrix product per group, in blocks of rows: a group of 20,000 memories takes seconds.
    Raises ``embeddings.Unavailable`` when embeddings are off or the model cannot be named."""
    numpy = _numpy()
    model = embeddings.model_name()
    if not model:
        raise embeddings.Unavailable("embeddings are off (BESTIE_EMBEDDINGS=off)")
    found = index(model)
    pairs = set()
    for ids in groups:
        members = [memory_id for memory_id in ids if memory_id in found.position]
        if len(members) < 2:
            continue
        matrix = found.matrix[[found.position[memory_id] for memory_id in members]]
        members = numpy.array(members, dtype=numpy.int64)
        take = min(k, len(members) - 1)
        for start in range(0, len(members), 512):
            scores = matrix[start : start + 512] @ matrix.T
            for offset in range(len(scores)):
                scores[offset, start + offset] = -2.0
            closest = numpy.argpartition(-scores, take - 1, axis=1)[:, :take]
            for offset, row in enumerate(closest):
                first = int(members[start + offset])
                for other in members[row]:
                    pairs.add((min(first, int(other)), max(first, int(other))))
    return pairs


# A memory and its closest in the other language are counterparts when their similarity is at least this
# times the mean of what each has with its ``COUNTERPART_NEIGHBOURS`` closest there (chosen on the blind
# tune set: bench/meaning_quality.py).
COUNTERPART_MARGIN = 1.03
COUNTERPART_NEIGHBOURS = 4


def _yardstick(scores, anchor_scores):
    """The mean of the ``COUNTERPART_NEIGHBOURS`` best of ``scores`` and ``anchor_scores`` (last axis)."""
    numpy = _numpy()
    pool = numpy.concatenate([scores, anchor_scores], axis=-1)
    take = min(COUNTERPART_NEIGHBOURS, pool.shape[-1])
    return numpy.partition(pool, pool.shape[-1] - take, axis=-1)[..., -take:].mean(axis=-1)


def _margin(similarity, yardstick_a, yardstick_b):
    return float(similarity) / ((float(yardstick_a) + float(yardstick_b)) / 2)


def _found_and_anchors():
    model = embeddings.model_name()
    if not model:
        raise embeddings.Unavailable("embeddings are off (BESTIE_EMBEDDINGS=off)")
    anchors = _anchors(model)
    return index(model), (anchors[VIETNAMESE], anchors[""])


def counterparts_within(groups, ranks, *, across=True):
    """For each group (a list of memory ids), the pairs of members in the two languages that are each among
    the other's ``ranks`` closest in the other language: ``[(a, b, margin, counterparts)]`` with ``a <
    b``. ``margin`` is their similarity over the mean similarity of each to its ``COUNTERPART_NEIGHBOURS``
    closest in the other's language, the fixed unrelated sentences of that language among them (so that a
    store with few memories has a yardstick too); ``counterparts`` when they are each other's closest
    there and stand out by at least ``COUNTERPART_MARGIN``, as bitext mining finds a sentence's
    translation. With ``across`` false, the pairs of members in one language, by the same rule. Members
    without a current vector are left out. Raises ``embeddings.Unavailable`` when embeddings are off."""
    numpy = _numpy()
    found, anchors = _found_and_anchors()
    pairs = []
    for ids in groups:
        members = [memory_id for memory_id in ids if memory_id in found.position]
        rows = numpy.array([found.position[memory_id] for memory_id in members], dtype=numpy.int64)
        if len(rows) < 2:
            continue
        vietnamese = found.vietnamese[rows]
        members = numpy.array(members, dtype=numpy.int64)
        # Each language's members, with the fixed sentences of that language (anchors: Vietnamese, other).
        languages = [(vietnamese, anchors[0]), (~vietnamese, anchors[1])]
        if across:
            if vietnamese.all() or not vietnamese.any():
                continue
            sides = [languages]
        else:
            sides = [(language, language) for language in languages if language[0].sum() >= 2]
        for first, second in sides:
            pairs.extend(_close_pairs(found, members, rows, first, second, ranks))
    return pairs


def _closest(matrix, theirs, anchors, ranks, same):
    """For each row of ``matrix``, its ``ranks`` closest rows of ``theirs`` (closest first) and its
    yardstick (``_yardstick``: its closest there and among ``anchors``); ``same`` when ``theirs`` is
    ``matrix``, whose rows are not their own closest. One partial sort of each row serves both."""
    numpy = _numpy()
    take = min(ranks, len(theirs) - same)
    keep = min(max(take, COUNTERPART_NEIGHBOURS), len(theirs) - same)
    best, mean = [], []
    for start in range(0, len(matrix), 512):
        block = matrix[start : start + 512]
        scores = block @ theirs.T
        if same:
            scores[numpy.arange(len(block)), numpy.arange(start, start + len(block))] = -2.0
        top = numpy.argpartition(-scores, keep - 1, axis=1)[:, :keep]
        top_scores = numpy.take_along_axis(scores, top, axis=1)
        order = numpy.argsort(-top_scores, axis=1, kind="stable")
        best.append(numpy.take_along_axis(top, order, axis=1)[:, :take])
        mean.append(_yardstick(top_scores, block @ anchors.T))
    return numpy.concatenate(best), numpy.concatenate(mean)


def _close_pairs(found, members, rows, first, second, ranks):
    """``counterparts_within``'s pairs between the members of ``first`` and of ``second`` (each a mask over
    ``members`` and the fixed sentences of its language: two languages, or one language twice)."""
    same = first is second
    (mask_a, anchors_a), (mask_b, anchors_b) = first, second
    sides = (members[mask_a], members[mask_b])
    mine = found.matrix[rows[mask_a]]
    matrices = (mine, mine if same else found.matrix[rows[mask_b]])
    # Each side looks in the other's language, so against the other's sentences.
    closest_a, yardstick_a = _closest(matrices[0], matrices[1], anchors_b, ranks, same)
    if same:
        closest_b, yardstick_b = closest_a, yardstick_a
    else:
        closest_b, yardstick_b = _closest(matrices[1], matrices[0], anchors_a, ranks, False)
    pairs = []
    for i, mine in enumerate(closest_a):
        for j in mine:
            theirs = closest_b[j]
            if i not in theirs or (same and j < i):
                continue
            margin = _margin(matrices[0][i] @ matrices[1][j], yardstick_a[i], yardstick_b[j])
            a, b = sorted((int(sides[0][i]), int(sides[1][j])))
            counterparts = mine[0] == j and theirs[0] == i and margin >= COUNTERPART_MARGIN
            pairs.append((a, b, round(margin, 4), bool(counterparts)))
    return pairs


def counterparts_of(memory_id, queryset):
    """``(across, within)``: the memory of ``queryset`` that is ``memory_id``'s counterpart in the other
    language, as ``counterparts_within`` finds them among ``queryset`` and ``memory_id``, and its closest in
    its own language by the same rule; each ``(id, margin)`` or None. Only the closest vectors are looked
    at, as a search does: a proposal costs three products of one vector with the matrix and a few
    indexed lookups, whatever the size of the store. Raises ``embeddings.Unavailable`` when embeddings are
    off."""
    found, anchors = _found_and_anchors()
    row = found.position.get(memory_id)
    if row is None:
        return None, None
    vector = found.matrix[row].copy()
    language = bool(found.vietnamese[row])
    similarities = found.similarities(vector)
    return tuple(
        _counterpart(found, anchors, memory_id, vector, language, similarities, queryset, across)
        for across in (True, False)
    )


def _counterpart(found, anchors, memory_id, vector, language, similarities, queryset, across):
    # anchors: (Vietnamese, other); "theirs" is the language looked in, "mine" the memory's own.
    mine = anchors[0] if language else anchors[1]
    theirs = (anchors[1] if language else anchors[0]) if across else mine
    ids, scores, vietnamese = similarities
    wanted = (vietnamese != language) if across else (vietnamese == language) & (ids != memory_id)
    closest = _best_allowed(
        ids, scores, queryset, COUNTERPART_NEIGHBOURS, first=8 * COUNTERPART_NEIGHBOURS, mask=wanted
    )
    if not closest:
        return None
    counterpart_id, similarity = int(ids[closest[0]]), scores[closest[0]]
    counterpart = found.matrix[found.position[counterpart_id]].copy()
    back_ids, back_scores, back_vietnamese = found.similarities(counterpart)
    back = _best_allowed(
        back_ids,
        back_scores,
        queryset,
        COUNTERPART_NEIGHBOURS,
        first=8 * COUNTERPART_NEIGHBOURS,
        mask=(back_vietnamese == language) & (back_ids != counterpart_id),
        also=memory_id,
    )
    if not back or back_ids[back[0]] != memory_id:
        return None
    margin = _margin(
        similarity, _yardstick(scores[closest], theirs @ vector), _yardstick(back_scores[back], mine @ counterpart)
    )
    return (counterpart_id, round(margin, 4)) if margin >= COUNTERPART_MARGIN else None
