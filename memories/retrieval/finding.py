"""Search as the owner and the agents use it (the console, ``bestie memory search``, ``GET
/api/v1/memories?q=``): the memories that hold the query's words, and with embeddings on those that
mean what it asks, in one ranking.

Words alone is ``memories.search.matching``: every memory holding every word, best first, then the
memories in the other language that spell every word the lexicon carries there and every name the query
gives (``LexicalBackend.in_other_words``: "ăn chay" finds "User is vegetarian"). When no memory holds
every word, in either language (a question: "how often should I drink water?"), the memories holding
most of it are found instead: the context's relevance (BM25 over the query's own words and its words read
in the other language), in which a word no memory holds counts as one of the query's rarest, at least
``MOST_OF_THE_QUERY`` ("which package manager should I use?" is not mostly "uses"); those come after the
memories in the other language holding every word ("what car do I drive?" shows "Người dùng học lái xe"
before "User's car is a VinFast", and both).

With embeddings on, the best ``WORD_MATCHES`` of those and the memories closest in meaning are fused by
reciprocal rank (each list gives ``1 / (RANK_OFFSET + rank)``), so a memory found two ways comes first
and a paraphrase finds its memory. A memory found by meaning alone must stand out: at least
``CLOSENESS_FLOOR`` standard deviations above unrelated sentences and within ``CLOSENESS_SPREAD`` of the
closest one. When the model cannot be used, search is words alone.

Of the memories found, those about someone other than the one the query asks about come after the others
("where do I live" shows where the owner lives before where their brother does): ``people``.
"""

import logging

from django.db import connection
from django.db.models import IntegerField
from django.db.models.expressions import RawSQL

from memories import vectors
from memories.language import embeddings, people
from memories.retrieval.relevance import SUBJECTS_LOOKED_AT, LexicalBackend, about_someone_else
from memories.search import matching

log = logging.getLogger(__name__)

WORD_MATCHES = 500
MEANING_MATCHES = 50
RANK_OFFSET = 10
# Measured on the blind bilingual retrieval set's tune part against questions about other people
# (docs/benchmarks.md): 2.0 gave nearly every unrelated question three memories by meaning.
CLOSENESS_FLOOR = 3.0
CLOSENESS_SPREAD = 1.0
MOST_OF_THE_QUERY = 0.35


def _by_meaning(queryset, query):
    try:
        found = vectors.nearest(query, queryset, MEANING_MATCHES)
    except embeddings.Unavailable as error:
        log.warning("search by words alone: %s", error)
        return None
    if found is None:
        return None
    if not found.closeness:
        return []
    best = max(found.closeness.values())
    floor = max(CLOSENESS_FLOOR, best - CLOSENESS_SPREAD)
    return [memory_id for memory_id, value in found.closeness.items() if value >= floor]


def _asked_about_first(queryset, asked, order):
    """``order`` with those of its first ``SUBJECTS_LOOKED_AT`` about someone other than the one a query asks
    about (``asked``) after the others (``relevance.about_someone_else``): "where do I live" shows where the
    owner lives before where their brother does."""
    if not asked:
        return order
    shown = order[:SUBJECTS_LOOKED_AT]
    texts = dict(queryset.filter(pk__in=shown).values_list("pk", "text"))
    others = about_someone_else(queryset, asked, {pk: texts[pk] for pk in shown if pk in texts})
    if not others:
        return order
    return [pk for pk in shown if pk not in others] + [pk for pk in shown if pk in others] + order[len(shown) :]


def find(queryset, query):
    """The memories of ``queryset`` that match ``query``, best first (a queryset)."""
    by_words = matching(queryset, query, kinds=True)
    if not query.strip():
        return by_words
    backend = LexicalBackend()
    # Read once in the other language: for every word there, and for most of the query if need be.
    read = backend.read_across(queryset, query, WORD_MATCHES)
    across = backend.in_other_words(queryset, query, WORD_MATCHES, read)
    by_meaning = _by_meaning(queryset, query) if embeddings.enabled() else None
    words = list(by_words.values_list("pk", flat=True)[:WORD_MATCHES])
    asked = people.asked_about(query)
    most = []
    if not words:
        found = backend.candidates(queryset, query, MEANING_MATCHES, unknown_words_count=True, across=read)
        most = [memory_id for memory_id, relevance in found if relevance >= MOST_OF_THE_QUERY]
        if not across:
            words, most = most, []
    elif not across and by_meaning is None and not asked:
        return by_words
    if by_meaning is None:
        order = list(dict.fromkeys([*words, *across, *most]))
    else:
        fused = {}
        for ranking in (words, across, most, by_meaning):
            for rank, memory_id in enumerate(ranking):
                fused[memory_id] = fused.get(memory_id, 0.0) + 1.0 / (RANK_OFFSET + rank)
        order = sorted(fused, key=lambda memory_id: (-fused[memory_id], memory_id))
    if not order:
        return queryset.none()
    order = _asked_about_first(queryset, asked, order)
    return queryset.filter(pk__in=order).order_by(_position(queryset.model, order), "pk")


def _position(model, order):
    """Each of ``order``'s ids by its place in it, as one SQL ``CASE``: built by Django of one ``When`` an id,
    the hundreds a common word finds took longer to compile than the query takes to run."""
    column = f"{connection.ops.quote_name(model._meta.db_table)}.{connection.ops.quote_name(model._meta.pk.column)}"
    return RawSQL(
        f"CASE {column} " + " ".join(["WHEN %s THEN %s"] * len(order)) + " END",
        [value for place, memory_id in enumerate(order) for value in (memory_id, place)],
        output_field=IntegerField(),
    )
