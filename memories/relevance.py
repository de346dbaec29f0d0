"""How relevant each memory is to a request's query: the pluggable part of retrieval (SPEC §4).

A relevance backend answers one question: given the memories retrieval may use (a queryset) and the
query, which few are the best candidates, and how relevant is each, from 0 to 1?
``BESTIE_RELEVANCE_BACKEND`` names the class (a dotted path); ``LexicalBackend`` is the default and
needs nothing beyond the database's full-text index. A semantic backend (embeddings, fused with the
lexical rank) implements the same ``candidates`` method and nothing that calls it changes.

The lexical relevance is BM25 computed here, in Python, over the candidates the database's index
finds: the index (SQLite FTS5 ``bm25``, PostgreSQL ``ts_rank``) only picks them, so both databases
give the same rows the same relevance and rank them the same way.
"""

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from django.conf import settings
from django.db import connection
from django.db.models import BooleanField, F, FloatField, Func, Value
from django.utils.module_loading import import_string

from memories.text import fold

# Words that say nothing about which memory is meant, folded as the index folds them ("của" is "cua").
# Vietnamese syllables that are also content words once folded ("da" is đã and Đà, "ban" is bạn, a
# friend) are kept.
STOPWORDS = frozenset(
    """
    a about after again all also am an and any are as at be been before being both but by can could
    did do does doing during each for from had has have having he her here hers him his how i if in
    into is it its just me more most my myself no nor not now of on once only or other our ours out
    over own please same she should so some such than that the their theirs them then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself tell know remember recall anything something
    cua la va co khong duoc cho voi nhung cac mot nay thi ma o gi nao sao toi nhe oi ve
    tu trong tren khi hay hoac cung se roi chua vay nhu nen phai lam ay kia day
    """.split()
)
# Words shorter than this match only themselves; longer ones match as a prefix ("prefer" finds
# "preferred"). Vietnamese syllables are short and distinct: "an" must not find "anh".
PREFIX_LENGTH = 4

_WORD = re.compile(r"[^\W_]+")
_SUFFIXES = ("ing", "ies", "ed", "s")


@dataclass(frozen=True)
class Term:
    """One word of a query as the index is asked for it: folded, maybe shortened to its stem."""

    text: str
    prefix: bool

    def matches(self, word):
        return word.startswith(self.text) if self.prefix else word == self.text


def words(text):
    """The folded words of ``text`` as the full-text index splits them."""
    return _WORD.findall(fold(text))


def _stem(word):
    """A crude English stem, so "replies" finds "reply" and "moving" finds "move". Vietnamese folded
    syllables never end in these suffixes, so they pass through unchanged."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) >= 4 and word[-1] == word[-2]:
                word = word[:-1]
            break
    if len(word) >= 5 and word.endswith("e"):
        word = word[:-1]
    return word


def query_terms(query):
    """The terms of a natural-language query: folded, without stopwords (unless that leaves nothing),
    stemmed, each once."""
    found = words(query)
    content = [word for word in found if word not in STOPWORDS] or found
    terms = {}
    for word in content:
        stem = _stem(word)
        term = Term(stem, prefix=len(stem) >= PREFIX_LENGTH or (stem != word and len(stem) >= 3))
        terms.setdefault(term.text, term)
    return list(terms.values())


class RelevanceBackend(Protocol):
    def candidates(self, queryset, query, limit):
        """The at most ``limit`` rows of ``queryset`` most relevant to ``query``, best first, as
        ``[(memory id, relevance from 0 to 1), …]``; rows with no relevance at all are left out."""


@dataclass(frozen=True)
class BM25:
    """Okapi BM25 with the usual constants; ``relevance`` divides it by what a document of average
    length holding each known query word once would score, so 1 means "all of the query"."""

    k1: float = 1.2
    b: float = 0.75

    def relevance(self, terms, frequencies, total, texts):
        idf = {
            term: math.log(1 + (total - frequencies[term] + 0.5) / (frequencies[term] + 0.5))
            for term in terms if frequencies[term] > 0
        }
        ideal = sum(idf.values())
        if not ideal:
            return {}
        documents = {memory_id: words(text) for memory_id, text in texts}
        average = sum(map(len, documents.values())) / len(documents) if documents else 1
        scores = {}
        for memory_id, document in documents.items():
            norm = self.k1 * (1 - self.b + self.b * len(document) / average)
            score = 0.0
            for term, weight in idf.items():
                tf = sum(1 for word in document if term.matches(word))
                if tf:
                    score += weight * tf * (self.k1 + 1) / (tf + norm)
            if score:
                scores[memory_id] = min(1.0, score / ideal)
        return scores


class LexicalBackend:
    """Full-text relevance: candidates from the database's index, scored with BM25 over them.

    Natural-language queries use OR: a memory matching some of the words is a candidate. To keep the
    work bounded on a large store, the index is asked first for the rarest words (whose documents
    together stay under ``selective_documents``), ranked by the database; words too common to pick
    anything out (like "user" in a store of "User prefers …") only fill the remaining places, newest
    first. BM25 then scores every candidate against every word of the query.
    """

    selective_documents = 5000
    scoring = BM25()

    def candidates(self, queryset, query, limit):
        terms = query_terms(query)
        if not terms:
            return []
        frequencies, total = self.frequencies(terms)
        known = sorted((term for term in terms if frequencies[term]), key=lambda term: (frequencies[term], term.text))
        if not known:
            return []
        selective, documents = [], 0
        for term in known:
            if documents + frequencies[term] > self.selective_documents:
                break
            selective.append(term)
            documents += frequencies[term]
        rows = []
        if selective:
            rows = list(self._ranked(queryset, selective)[:limit])
        if len(rows) < limit:
            found = [memory_id for memory_id, _ in rows]
            rest = self._newest(queryset.exclude(pk__in=found), known)[: limit - len(rows)]
            rows += list(rest)
        scores = self.scoring.relevance(terms, frequencies, total, rows)
        return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[:limit]

    # Each database's part: document frequencies, a ranked OR query, an unranked newest-first one.

    def frequencies(self, terms):
        """``({term: number of memories holding it}, number of memories)`` over the whole table."""
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute(
                    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_fts_vocabulary"
                    " USING fts5vocab(main, memory_fts, row)"
                )
                parts, params = ["(SELECT count(*) FROM memory)"], []
                for term in terms:
                    if term.prefix:
                        parts.append("(SELECT coalesce(sum(doc), 0) FROM temp.memory_fts_vocabulary"
                                     " WHERE term >= %s AND term < %s)")
                        params += [term.text, _after_prefix(term.text)]
                    else:
                        parts.append("(SELECT coalesce(sum(doc), 0) FROM temp.memory_fts_vocabulary WHERE term = %s)")
                        params.append(term.text)
            else:
                parts, params = ["(SELECT count(*) FROM memory)"], []
                for term in terms:
                    parts.append(f"(SELECT count(*) FROM memory WHERE {_PG_VECTOR} @@ to_tsquery('simple'::regconfig, %s))")
                    params.append(_pg_term(term))
            cursor.execute("SELECT " + ", ".join(parts), params)
            total, *counts = cursor.fetchone()
        return dict(zip(terms, counts)), total

    def _ranked(self, queryset, terms):
        if connection.vendor == "sqlite":
            expression = " OR ".join(_fts_term(term) for term in terms)
            return (
                queryset.filter(search_entry__text__match=expression)
                .order_by("search_entry__rank", "id")
                .values_list("id", "text")
            )
        tsquery = _pg_tsquery(terms)
        rank = Func(_pg_vector(), tsquery, template="ts_rank(%(expressions)s)", output_field=FloatField())
        return (
            queryset.filter(_pg_condition(tsquery)).annotate(relevance_rank=rank)
            .order_by("-relevance_rank", "id").values_list("id", "text")
        )

    def _newest(self, queryset, terms):
        if connection.vendor == "sqlite":
            expression = " OR ".join(_fts_term(term) for term in terms)
            # Ordered by the index's rowid, not memory.id: SQLite then walks the index backwards and
            # stops at the limit instead of sorting every match.
            return (
                queryset.filter(search_entry__text__match=expression)
                .order_by(F("search_entry__memory_id").desc()).values_list("id", "text")
            )
        return queryset.filter(_pg_condition(_pg_tsquery(terms))).order_by("-id").values_list("id", "text")


def _after_prefix(prefix):
    """The smallest string greater than every string that starts with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _fts_term(term):
    return f'"{term.text}"*' if term.prefix else f'"{term.text}"'


def _pg_term(term):
    return f"{term.text}:*" if term.prefix else term.text


_PG_VECTOR = "to_tsvector('simple'::regconfig, bestie_fold(text))"


def _pg_vector():
    return Func(Func(F("text"), function="bestie_fold"), template="to_tsvector('simple'::regconfig, %(expressions)s)")


def _pg_tsquery(terms):
    expression = " | ".join(_pg_term(term) for term in terms)
    return Func(Value(expression), template="to_tsquery('simple'::regconfig, %(expressions)s)")


def _pg_condition(tsquery):
    return Func(_pg_vector(), tsquery, template="%(expressions)s", arg_joiner=" @@ ", output_field=BooleanField())


@lru_cache(maxsize=4)
def _backend(path):
    return import_string(path)()


def backend():
    """The relevance backend ``BESTIE_RELEVANCE_BACKEND`` names."""
    return _backend(settings.BESTIE_RELEVANCE_BACKEND)
