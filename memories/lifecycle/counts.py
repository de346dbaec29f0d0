"""How many memories hold a word, as the write path asks it (``proposals._rarest_across``), kept a while.

Most proposals share their words, and a minute's change in the counts does not change which are rare, so a
count is kept ``KEPT_SECONDS``. A count of none is kept only while no memory may have come to hold the word:
a memory this process writes drops the counts of none of its own words (``written``, from the write path),
and on SQLite a commit by any other connection (``PRAGMA data_version``: another thread or process) drops
them all. On PostgreSQL, which tells no such thing, a count of none is not kept. Otherwise a translation
proposed right after its memory would be taken for one no memory holds, and never looked up.
"""

import threading
import time

from django.db import connection

from memories.language.folding import fold
from memories.language.words import INDEX_WORD
from memories.search import SearchTerm, frequencies

KEPT_SECONDS = 60
_MOST_KEPT = 10_000
# term -> (memories holding it, when counted); the terms counted as held by none; the store's size, when
# counted; and each thread's connection with the data_version it last had.
_counts = {}
_none = set()
_total = [0, float("-inf")]
_versions = {}


def documents(terms):
    """``({term: memories holding it}, memories in the store)``, as ``search.frequencies`` counts them; those
    counted within ``KEPT_SECONDS`` are not asked again."""
    if _none and _written_elsewhere():
        _forget_none()
    now = time.monotonic()
    found = {term: kept[0] for term in terms if (kept := _counts.get(term)) and now - kept[1] < KEPT_SECONDS}
    missing = [term for term in terms if term not in found]
    if missing or now - _total[1] >= KEPT_SECONDS:
        if len(_counts) > _MOST_KEPT:
            forget()
        keep_none = connection.vendor == "sqlite"
        # Read before counting: a commit in between is one the counts may have missed.
        before = _version() if keep_none else None
        counts, _total[0] = frequencies(missing)
        _total[1] = now
        if keep_none:
            _versions[threading.get_ident()] = before
        for term, count in counts.items():
            if count or keep_none:
                _counts[term] = (count, now)
                if not count:
                    _none.add(term)
        found.update(counts)
    return found, _total[0]


def written(texts):
    """Memories with these texts were just written (added, or their text changed) by this process: the words
    they hold are no longer held by none."""
    if not _none:
        return
    for text in texts:
        for word in set(INDEX_WORD.findall(fold(text).lower())):
            held = [SearchTerm(word), *(SearchTerm(word[:end], True) for end in range(1, len(word) + 1))]
            for term in held:
                if term in _none:
                    _none.discard(term)
                    _counts.pop(term, None)


def forget():
    """Ask the store again for every word's count (tests, each with its own store; an import)."""
    _counts.clear()
    _none.clear()
    _total[1] = float("-inf")


def _forget_none():
    dropped = list(_none)  # one step under the GIL: another thread may be adding to it
    _none.difference_update(dropped)
    for term in dropped:
        _counts.pop(term, None)


def _version():
    """This thread's SQLite connection and its ``data_version``, which changes when another connection
    commits."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA data_version")
        version = cursor.fetchone()[0]
    return connection.connection, version


def _written_elsewhere():
    """SQLite: whether another connection committed since this thread's connection last looked (a connection
    not seen before may have missed anything)."""
    now = _version()
    seen = _versions.get(threading.get_ident())
    _versions[threading.get_ident()] = now
    return seen is None or seen[0] is not now[0] or seen[1] != now[1]
