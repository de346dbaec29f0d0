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

import datetime
import itertools
import json
import math
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import NamedTuple, Protocol

from django.conf import settings
from django.db import connection
from django.db.models import F, FloatField, Func
from django.utils import timezone
from django.utils.module_loading import import_string

from memories import search
from memories.language import people
from memories.language.folding import fold
from memories.language.states import other_names, things_of_kind
from memories.language.translation import (
    MemoryWords,
    carries_nothing,
    in_other_language,
    spelt_as_things_of_kinds,
)
from memories.language.words import (
    INDEX_WORD,
    SHORTEST_PREFIX,
    asks_when,
    asks_where,
    could_be_vietnamese,
    english_forms,
    named_period,
    names_a_room,
    names_written,
    one_typo_away,
    phrasal_read,
    phrasal_words,
    reads_as_english,
    says_nothing,
    search_stem,
    singular,
    tells_when,
    tells_where,
)
from memories.search import PG_VOCABULARY, after_prefix, matching_any, pg_matches, pg_tsquery, pg_vector

# Words at least this long match as a prefix ("prefer" finds "preferred", "work" finds "works"), unless
# they are written with diacritics or could be a Vietnamese syllable typed without them: those are
# distinct words ("an" must not find "anh", "quan" not "quang", "tuan" not "tuanh").
PREFIX_LENGTH = 4
# A query word typed with diacritics that meets the same letters with other diacritics ("Tuấn", a name,
# and "tuần", a week) counts this much.
OTHER_DIACRITICS = 0.5
# A query word no memory holds, typed without diacritics and at least this long, is taken for a typo of
# the word one letter away that the most memories hold ("educaton" for "education"). Shorter words have
# too many neighbours, and a Vietnamese syllable typed bare is a word of its own ("quan" is not "quang").
TYPO_LENGTH = 5
# At most this many words of a query are corrected, the longest first: each costs a look at the
# vocabulary (about 1.5 ms on a 100,000-memory SQLite store). The vocabulary is read from the word's first
# letters on, where most of its neighbours are; the others are looked up one by one.
TYPOS = 2
TYPO_START = 3
# A memory found through the query read in the other language (the lexicon's words: "Người dùng ăn chay
# không?" finds "User is vegetarian") is this much as relevant as one holding the query's own words.
TRANSLATED = 0.8


# Verbs a question is built on that say little of which memory is meant: "which package manager should I
# use?" asks about package managers, so a memory saying only "uses" counts for less than its rarity says
# (in a small store "uses" may be as rare as "pnpm"); "how do I take my coffee?" asks about coffee.
LIGHT_VERBS = frozenset({"use", "have", "get", "take"})
LIGHT = 0.5


@dataclass(frozen=True)
class Term:
    """One word of a query as the index is asked for it: folded, maybe shortened to its stem, the word as
    typed when it carried diacritics, and its other English forms that the stem does not reach ("went"
    for "go", "hiking" for "hike"), which count as the word itself."""

    text: str
    prefix: bool
    accented: str = ""
    forms: frozenset = frozenset()
    # The word as typed, folded: what a typo is corrected from.
    word: str = field(default="", compare=False)
    # A name written without diacritics in a query typed with them: "An" is not "ăn" (eat) there.
    name: bool = False
    # Forms that count only after a word saying whose: "boss" is "my manager", not "package manager".
    after_whose: frozenset = frozenset()

    def matches(self, word):
        return (word.startswith(self.text) if self.prefix else word == self.text) or word in self.forms

    def weight(self, original):
        if not self.accented or original == self.accented:
            return 1.0
        return 0.0 if self.name else OTHER_DIACRITICS


def tokens(text):
    """The words of ``text`` as the full-text index splits them: ``[(as written, folded), …]``, both
    lower-case."""
    written = INDEX_WORD.findall(unicodedata.normalize("NFC", text).casefold())
    folded = INDEX_WORD.findall(fold(text))
    if len(written) != len(folded):
        folded = [fold(word) for word in written]
    return list(zip(written, folded))


def _term(written, folded, english, marked=False, names=frozenset()):
    """A word with diacritics is matched as it is; one that could be a Vietnamese syllable typed without
    them is matched whole too, with its English forms only in a query that reads as English (its "go" is
    the verb), and as it is in a query typed with diacritics (``marked``: there "chay", vegetarian, is
    not "chạy", run; and a name of ``names`` nothing else: "An" is not "ăn"); any other word by its stem,
    as a prefix when long enough, and its other English forms."""
    if written != folded:
        return Term(folded, prefix=False, accented=written, word=folded)
    if could_be_vietnamese(folded):
        forms = english_forms(folded) if english else frozenset()
        accented = written if marked else ""
        return Term(
            folded, prefix=False, accented=accented, forms=forms, word=folded, name=bool(accented) and folded in names
        )
    stem = search_stem(folded)
    term = Term(stem, prefix=len(stem) >= PREFIX_LENGTH or (stem != folded and len(stem) >= 3), word=folded)
    return replace(term, forms=frozenset(form for form in english_forms(folded) if not term.matches(form)))


def _light(term):
    return singular(term.word) in LIGHT_VERBS


def _could_be_a_typo(term):
    word = term.word
    return not term.accented and len(word) >= TYPO_LENGTH and word.isalpha() and not could_be_vietnamese(word)


def _content(query):
    """The query's words, stopwords as None, whether it reads as English, whether it is typed with
    diacritics and the words it writes as names (``names_written``)."""
    found = tokens(phrasal_read(query, in_queries=True))
    english = reads_as_english(folded for _, folded in found)
    marked = any(written != folded for written, folded in found)
    names = names_written(query)
    content = [None if nothing else word for word, nothing in zip(found, says_nothing(found, names))]
    return content, found, english, marked, names


def query_terms(query):
    """The terms of a natural-language query: without stopwords (unless that leaves nothing), stemmed,
    each once; in English, a word or two naming a kind of thing also find the things of it."""
    content, found, english, marked, names = _content(query)
    words = [word for word in content if word] or found
    terms = _with_things_of_kinds(words, [_term(*word, english, marked, names) for word in words], english)
    phrasal = phrasal_words(query)
    terms = [_with_other_words(term, phrasal.get(term.word, ())) for term in terms]
    return list({term.text: term for term in terms}.values())


def _with_other_words(term, phrasal=()):
    """A word for someone also matches the other words for them: "mom" finds "User's mother", "kids" finds
    "children" (``people.other_words_for``), "boss" "my manager" (``people.words_after_whose_for``); a
    thing's name its other names: "k8s" finds "Kubernetes" (``states.other_names``); a phrasal verb's word
    the words a memory may say it with (``phrasal``: "go to bed" finds "goes to bed" and "sleeps",
    ``phrasal_words``)."""
    whose = people.words_after_whose_for(term.accented or term.word)
    others = people.other_words_for(term.word) | other_names(term.word) | set(phrasal) | whose
    if not others:
        return term
    return replace(term, forms=term.forms | {word for word in others if not term.matches(word)}, after_whose=whose)


def _with_things_of_kinds(words, terms, english):
    """``terms`` (one per word of ``words``) where a word naming a kind also matches the things of it ("pets"
    finds "User has a cat"), and two words naming one ("package manager") are one term matching them
    ("User prefers pnpm"): ``states.things_of_kind``. English words only: typed without diacritics, and
    in a query that reads as English unless no Vietnamese syllable is spelt so."""
    names = [
        singular(folded) if written == folded and (english or not could_be_vietnamese(folded)) else ""
        for written, folded in words
    ]
    found, index = [], 0
    while index < len(terms):
        pair = tuple(names[index : index + 2])
        things = things_of_kind(pair) if len(pair) == 2 else frozenset()
        if things:
            first = min(things)
            found.append(Term(first, prefix=False, forms=search.words_of_kind(pair) - {first}, word=" ".join(pair)))
            index += 2
            continue
        term = terms[index]
        kind = search.words_of_kind(tuple(names[index : index + 1]))
        if kind:
            term = replace(term, forms=term.forms | {form for form in kind if not term.matches(form)})
        found.append(term)
        index += 1
    return found


def query_pairs(query):
    """Neighbouring content words of the query, as terms: "bún đậu", "đi chợ", "package manager".
    Vietnamese words are often two syllables, so a memory holding both side by side means more."""
    content, _, english, marked, names = _content(query)
    return [
        (_term(*first, english, marked, names), _term(*second, english, marked, names))
        for first, second in zip(content, content[1:])
        if first and second
    ]


class Across(NamedTuple):
    """A query read in the other language: its units ``[(QueryUnit, idf)]``, the rows of the queryset that
    spell the rarest of them (``[(id, text)]``, the database's best first), ``held_across`` (the words
    each unit some memory holds was read from, and its idf) and the names the owner's memories give the
    relations it asks about (``names_of_relations``), which its own words are read with too."""

    units: list
    rows: list
    held_across: tuple
    names: dict = {}


class RelevanceBackend(Protocol):
    def candidates(self, queryset, query, limit):
        """The at most ``limit`` rows of ``queryset`` most relevant to ``query``, best first, as
        ``[(memory id, relevance), …]``; relevance is 0 for nothing of the query, about 1 for all of
        it; rows with no relevance at all are left out."""


@dataclass(frozen=True)
class BM25:
    """Okapi BM25 with the usual constants; ``relevance`` divides it by what a memory of average
    length holding each known query word once would score: 1 is "all of the query", a shorter memory
    or a repeated word scores a little more, and the order is BM25's."""

    k1: float = 1.2
    b: float = 0.75
    # A pair of neighbouring query words found side by side adds this share of the rarer word's weight.
    pair: float = 0.5
    # For a question asking when (or where), a memory that says when (a day, a week, a year; or where, a
    # place's name) scores this much more.
    answer: float = 0.2

    def relevance(self, terms, frequencies, total, texts, pairs=(), asks="", written_in=None, unheld=0.0):
        """``asks``: what the question asks for, "when", "where" or nothing. ``written_in``, for a query
        naming a day or a month: ``(ids of the memories among texts written then, number of memories
        written then)``; the period counts as one more query word. ``unheld``: the weight of the query's
        words no memory holds as they are but one in the other language does (``LexicalBackend.translated``);
        they are part of "all of the query" too."""
        known = [term for term in terms if frequencies[term] > 0]
        idf = [_idf(frequencies[term], total) * (LIGHT if _light(term) else 1.0) for term in known]
        period_ids, period_documents = written_in or (frozenset(), 0)
        period_idf = _idf(period_documents, total) if period_documents else 0.0
        if not sum(idf) + period_idf:
            return {}
        ideal = sum(idf) + period_idf + unheld
        # Each word of a memory is looked up once: exact terms by their text, prefix terms one by one.
        exact, prefixes = {}, []
        for index, term in enumerate(known):
            if term.prefix:
                prefixes.append((index, term.text))
            else:
                exact.setdefault(term.text, []).append(index)
            for form in term.forms:
                exact.setdefault(form, []).append(index)
        position = {term: index for index, term in enumerate(known)}
        neighbours = [(position[a], position[b]) for a, b in pairs if a in position and b in position]
        documents = [(memory_id, text, tokens(text)) for memory_id, text in texts]
        average = sum(len(document) for _, _, document in documents) / len(documents) if documents else 1
        scores = {}
        for memory_id, text, document in documents:
            counts = [0.0] * len(known)
            found = []
            words = [folded for _, folded in document]
            for place, (written, folded) in enumerate(document):
                if folded.endswith("ing") and names_a_room(words, place):
                    matched = [index for index, term in enumerate(known) if term.text == folded]
                else:
                    matched = exact.get(folded, [])
                    if prefixes:
                        matched = matched + [index for index, text in prefixes if folded.startswith(text)]
                weighed = [
                    (index, known[index].weight(written))
                    for index in matched
                    if folded not in known[index].after_whose or (place and words[place - 1] in people.WHOSE_INDEXED)
                ]
                for index, weight in weighed:
                    counts[index] += weight
                found.append([index for index, weight in weighed if weight])
            norm = self.k1 * (1 - self.b + self.b * len(document) / average)
            score = sum(
                idf[index] * count * (self.k1 + 1) / (count + norm) for index, count in enumerate(counts) if count
            )
            if memory_id in period_ids:
                score += period_idf * (self.k1 + 1) / (1 + norm)
            for first, second in neighbours:
                if any(first in here and second in after for here, after in zip(found, found[1:])):
                    score += self.pair * min(idf[first], idf[second])
            if score and _answers(asks, text, document):
                score *= 1 + self.answer
            if score:
                scores[memory_id] = score / ideal
        return scores

    def translated_relevance(self, units, texts):
        """``{id: relevance}`` of ``texts`` for a query read in the other language: ``units`` are its
        ``(QueryUnit, idf)``; a memory scores each it spells once, divided as ``relevance`` divides."""
        ideal = sum(idf for _, idf in units)
        documents = [(memory_id, MemoryWords(tokens(text))) for memory_id, text in texts]
        average = sum(len(words.folded) for _, words in documents) / len(documents) if documents else 1
        scores = {}
        for memory_id, words in documents:
            norm = self.k1 * (1 - self.b + self.b * len(words.folded) / average)
            score = sum(idf for unit, idf in units if unit.found_in(words)) * (self.k1 + 1) / (1 + norm)
            if score:
                scores[memory_id] = score / ideal
        return scores


def _answers(asks, text, words):
    if asks == "when":
        return tells_when(words)
    return asks == "where" and tells_where(text)


def _idf(documents, total):
    return math.log(1 + (total - documents + 0.5) / (documents + 0.5))


class LexicalBackend:
    """Full-text relevance: candidates from the database's index, scored with BM25 over them.

    Natural-language queries use OR: a memory matching some of the words is a candidate. To keep the
    work bounded on a large store, the index is asked first for the rarest words (whose documents
    together stay under ``selective_documents``), ranked by the database. Words too common to pick
    anything out on their own (like "user" in a store of "User prefers …") only fill the remaining
    places, newest first. Memories written on the day (or in the month) the query names, then memories
    holding two neighbouring query words side by side ("đi chợ") get up to half the places first. BM25
    then scores every candidate against every word of the query, and against the named day as one more
    word. A word no memory holds is first read as the known word one typo away, if there is one.
    """

    selective_documents = 2000
    # The same for the query read in the other language: its words come on top of the query's own.
    translated_documents = 500
    scoring = BM25()

    def candidates(self, queryset, query, limit, *, unknown_words_count=False, across=None):
        """``unknown_words_count``: a word of the query that no memory holds, in either language, is part of
        "all of the query" too, as rare as a word one memory holds (search's partial matches: "which
        package manager should I use?" is not all "uses"); the context leaves such words out. ``across``:
        the query already read in the other language (``read_across``, at least ``limit`` rows)."""
        across = across or self.read_across(queryset, query, limit)
        translated = self.translated(queryset, query, limit, across)
        scores = self.in_own_words(queryset, query, limit, across, unknown_words_count)
        for memory_id, score in translated.items():
            scores[memory_id] = max(scores.get(memory_id, 0.0), TRANSLATED * score)
        return sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))[:limit]

    def in_own_words(self, queryset, query, limit, across, unknown_words_count=False):
        """``{id: relevance}`` of the rows of queryset that hold the query's own words (BM25), a word naming a
        relation the names ``across`` (``read_across``) gives it too. Its ``held_across``: ``(words the unit
        was read from, idf)`` of the query's units memories in the other language hold; one some of whose
        words no memory holds as they are is part of "all of the query" too, so the words that are left do
        not make all of it ("where do I live" is not all "user", "mấy giờ đi ngủ" not all "đi").
        ``unknown_words_count``: as ``candidates`` says."""
        held_across = across.held_across
        terms = with_names_of_relations(query_terms(query), across.names)
        if not terms:
            return {}
        words = tokens(query)
        frequencies, total = search.frequencies(terms)
        own = {term.word: frequencies[term] for term in terms}
        unheld = sum(
            idf
            for read_from, idf in held_across
            if any(not own.get(word) for word in read_from) and own.keys() & set(read_from)
        )
        corrected = self.corrected(
            [term for term in terms if not frequencies[term] and _could_be_a_typo(term)],
            english=reads_as_english(folded for _, folded in words),
        )
        if corrected:
            terms = [corrected.get(term, term) for term in terms]
            frequencies.update(search.frequencies(list(corrected.values()))[0])
        known = sorted((term for term in terms if frequencies[term]), key=lambda term: (frequencies[term], term.text))
        if unknown_words_count:
            read_across = {word for read_from, _ in held_across for word in read_from}
            unheld += sum(_idf(1, total) for term in terms if not frequencies[term] and term.word not in read_across)
        period = self.written_then(queryset, query)
        if not known and not period:
            return {}
        selective, documents = [], 0
        for term in known:
            if documents + frequencies[term] > self.selective_documents:
                break
            selective.append(term)
            documents += frequencies[term]
        pairs = [(corrected.get(first, first), corrected.get(second, second)) for first, second in query_pairs(query)]
        # Two rare words are found by the ranked query below; a pair with a common one may not be.
        phrases = [
            list(pair)
            for pair in pairs
            if not (pair[0].prefix or pair[1].prefix)
            and frequencies.get(pair[0])
            and frequencies.get(pair[1])
            and not (pair[0] in selective and pair[1] in selective)
        ]
        # Up to half the places for the memories written in the period the query names (those holding its
        # words first), then for memories holding two query words side by side: for Vietnamese, where
        # "đi chợ" is one word of two common syllables, no single syllable would find them.
        rows = []
        if period:
            written_then, _ = period
            if known:
                rows = list(self._ranked(written_then, known)[: limit // 2])
            found = [memory_id for memory_id, _ in rows]
            rows += list(
                written_then.exclude(pk__in=found).order_by("-id").values_list("id", "text")[: limit // 2 - len(rows)]
            )
        if phrases and len(rows) < limit // 2:
            # At most this many memories hold the phrases: as many as hold their rarer words.
            at_most = sum(min(frequencies[term] for term in phrase) for phrase in phrases)
            found = [memory_id for memory_id, _ in rows]
            rows += list(self._newest(queryset.exclude(pk__in=found), phrases, at_most)[: limit // 2 - len(rows)])
        if selective:
            found = [memory_id for memory_id, _ in rows]
            rows += list(self._ranked(queryset.exclude(pk__in=found), selective)[: limit - len(rows)])
        if known and len(rows) < limit:
            found = [memory_id for memory_id, _ in rows]
            at_most = sum(frequencies[term] for term in known)
            rows += list(
                self._newest(queryset.exclude(pk__in=found), [[term] for term in known], at_most)[: limit - len(rows)]
            )
        written_in = None
        if period:
            written_then, documents = period
            ids = [memory_id for memory_id, _ in rows]
            written_in = (frozenset(written_then.filter(pk__in=ids).values_list("id", flat=True)), documents)
        asks = "when" if asks_when(words) else "where" if asks_where(words) else ""
        return self.scoring.relevance(terms, frequencies, total, rows, pairs, asks, written_in, unheld)

    def translated(self, queryset, query, limit, across=None):
        """``{id: relevance}`` of the at most ``limit`` rows of queryset that hold the query's words read in
        the other language (``translation.in_other_language``), the rarest first: each word or phrase of the
        query a row's own words mean, or that it names, counts once, by its rarity (BM25 with one
        occurrence). Unlike the query's own words, those no memory holds count in what "all of the query" is:
        a translation that finds one word of three has not found the question."""
        across = across or self.read_across(queryset, query, limit)
        return self.scoring.translated_relevance(across.units, across.rows[:limit])

    def in_other_words(self, queryset, query, limit, across=None):
        """The ids of the at most ``limit`` rows of queryset, the database's best first, that spell every
        word of the query the lexicon carries into the other language and every name it gives, and hold
        every other word of it but function words as it is: search's "every word" across languages."""
        units, rows, *_ = across or self.read_across(queryset, query, limit)
        read = tokens(phrasal_read(query))
        words = [
            folded
            for (_, folded), nothing in zip(read, says_nothing(read, names_written(query)))
            if not nothing and not carries_nothing(folded)
        ]
        found = []
        for memory_id, text in rows[:limit]:
            held = MemoryWords(tokens(text))
            spelled = [unit for unit, _ in units if unit.found_in(held)]
            read = {word for unit in spelled for word in unit.read_from}
            if len(spelled) == len(units) and all(
                word in read or any(folded.startswith(word) for folded in held.folded) for word in words
            ):
                found.append(memory_id)
        return found

    def read_across(self, queryset, query, limit):
        """The query read in the other language (``Across``), for ``translated`` and ``in_other_words``: one
        reading serves both, the database's best ``limit`` rows for any smaller limit as well, and the names
        of the relations it asks about, looked up once for the query's own words too."""
        names = names_of_relations(queryset, query)
        units = spelt_as_things_of_kinds(in_other_language(query))
        if not units:
            return Across([], [], (), names)
        if names:
            # A word naming a relation is spelt by the names the owner's memories give it too.
            units = [
                unit._replace(names=tuple(sorted(names[relation])))
                if (relation := people.relation_named(*unit.read_from)) in names
                else unit
                for unit in units
            ]
        spelt = {
            spelling: [Term(fold(word), prefix=unit.english and len(word) >= SHORTEST_PREFIX) for word in spelling]
            for unit in units
            for spelling in unit.spellings
        }
        spelt |= {(name,): [Term(name, prefix=False)] for unit in units for name in unit.names}
        # A kind's things in the query's own language: Vietnamese words, whole.
        spelt |= {s: [Term(fold(word), prefix=False) for word in s] for unit in units for s in unit.spelt_here}
        frequencies, total = search.frequencies(list({term for terms in spelt.values() for term in terms}))
        # A phrase is held by at most as many memories as its rarest word.
        held = {spelling: min(frequencies[term] for term in terms) for spelling, terms in spelt.items()}
        # A unit's memories, at most all of them: its spellings may be held by the same ones.
        documents = {unit: min(total, sum(held[spelling] for spelling in unit.every_spelling)) for unit in units}
        known = [unit for unit in units if documents[unit]]
        held_across = [(unit.read_from, _idf(documents[unit], total)) for unit in known]
        # Spelt as the query is (a name, a borrowed word), a unit's memories are the query's own words' too.
        own = {folded for _, folded in tokens(query)}
        searched = sorted(
            (s for unit in known for s in unit.every_spelling if held[s] and not {fold(word) for word in s} <= own),
            key=lambda s: (held[s], s),
        )
        selective, found = [], 0
        for spelling in searched:
            if found + held[spelling] > self.translated_documents:
                break
            selective.append(spelt[spelling])
            found += held[spelling]
        rows = list(self._spelled(queryset, selective)[:limit]) if selective else []
        return Across([(unit, _idf(documents[unit], total)) for unit in units], rows, held_across, names)

    def written_then(self, queryset, query):
        """For a query naming a day or a month ("on 16 June, 2023", "in July 2023", in the current time
        zone): ``(the rows of queryset written then, number of memories written then)``, or None."""
        named = named_period(query, timezone.localdate())
        if not named:
            return None
        start, end = (timezone.make_aware(datetime.datetime.combine(day, datetime.time.min)) for day in named)
        documents = queryset.model.objects.filter(created_at__gte=start, created_at__lt=end).count()
        if not documents:
            return None
        return queryset.filter(created_at__gte=start, created_at__lt=end), documents

    def corrected(self, unknown, english):
        """``{term: the term of the word one typo away that the most memories hold}`` for the ``unknown``
        terms that have one (``english``: the query reads as English)."""
        unknown = sorted(unknown, key=lambda term: (-len(term.word), term.word))[:TYPOS]
        if not unknown:
            return {}
        neighbours = {term: one_typo_away(term.word) for term in unknown}
        starts = {term.word[:TYPO_START] for term in unknown}
        elsewhere = {word for words in neighbours.values() for word in words if word[:TYPO_START] not in starts}
        held = self.held(elsewhere, starts)
        found = {}
        for term, words in neighbours.items():
            best = min((word for word in words if word in held), key=lambda word: (-held[word], word), default=None)
            if best:
                found[term] = _term(best, best, english)
        return found

    # Each database's part (document frequencies are ``search.frequencies``): which words the store holds, a
    # ranked OR query, an unranked newest-first one.

    def held(self, words, starts=()):
        """``{word: number of memories holding it}`` for those of ``words`` some memory holds, and for every
        word some memory holds that begins with one of ``starts``."""
        if connection.vendor == "sqlite":
            table, documents = "temp.memory_fts_vocabulary", "doc"
            words_held = "term IN (SELECT value FROM json_each(%s))"
            params = [json.dumps(sorted(words))]
        else:
            table, documents = PG_VOCABULARY, "documents"
            words_held = "term = ANY(%s)"
            params = [sorted(words)]
        selects = [f"SELECT term, {documents} FROM {table} WHERE {words_held}"]
        for start in sorted(starts):
            selects.append(f"SELECT term, {documents} FROM {table} WHERE term >= %s AND term < %s")
            params += [start, after_prefix(start)]
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(selects), params)
            return {word: int(count) for word, count in cursor.fetchall() if count > 0}

    def _ranked(self, queryset, terms):
        return self._spelled(queryset, [[term] for term in terms])

    def _spelled(self, queryset, phrases):
        """Rows holding any of ``phrases`` (each a list of terms side by side), as the database ranks them."""
        if connection.vendor == "sqlite":
            expression = " OR ".join(
                _fts_term(words[0]) if len(words) == 1 else '"' + " ".join(term.text for term in words) + '"'
                for words in phrases
            )
            return (
                queryset.filter(search_entry__text__match=expression)
                .order_by("search_entry__rank", "id")
                .values_list("id", "text")
            )
        tsquery = pg_tsquery(
            " | ".join("(" + " <-> ".join(_pg_term(term) for term in words) + ")" for words in phrases)
        )
        rank = Func(pg_vector(), tsquery, template="ts_rank(%(expressions)s)", output_field=FloatField())
        return (
            queryset.filter(pg_matches(tsquery))
            .annotate(relevance_rank=rank)
            .order_by("-relevance_rank", "id")
            .values_list("id", "text")
        )

    def _newest(self, queryset, phrases, at_most):
        """Rows holding any of ``phrases`` (each a list of terms side by side), newest first; at most
        ``at_most`` memories hold them."""
        if connection.vendor == "sqlite":
            expression = " OR ".join(
                _fts_term(words[0])
                if len(words) == 1
                else " OR ".join(
                    '"' + " ".join(spelling) + '"'
                    for spelling in itertools.product(*([term.text, *sorted(term.forms)] for term in words))
                )
                for words in phrases
            )
            # Ordered by the index's rowid, not memory.id: SQLite then walks the index backwards and
            # stops at the limit instead of sorting every match.
            return (
                queryset.filter(search_entry__text__match=expression)
                .order_by(F("search_entry__memory_id").desc())
                .values_list("id", "text")
            )
        expression = " | ".join("(" + " <-> ".join(_pg_term(term) for term in words) + ")" for words in phrases)
        newest = F("id").desc()
        if at_most <= self.selective_documents:
            # Few rows hold them: PostgreSQL is to find them in the GIN index and sort them, not walk the
            # primary key backwards past every other memory (``id + 0`` is not the key's order). When many
            # do, walking backwards meets enough of them soon.
            newest = (F("id") + 0).desc()
        return queryset.filter(pg_matches(pg_tsquery(expression))).order_by(newest).values_list("id", "text")


def _fts_term(term):
    main = f'"{term.text}"*' if term.prefix else f'"{term.text}"'
    return " OR ".join([main, *(f'"{form}"' for form in sorted(term.forms))])


def _pg_term(term):
    main = f"{term.text}:*" if term.prefix else term.text
    return "(" + " | ".join([main, *sorted(term.forms)]) + ")" if term.forms else main


@lru_cache(maxsize=4)
def _backend(path):
    return import_string(path)()


def backend():
    """The relevance backend ``BESTIE_RELEVANCE_BACKEND`` names."""
    return _backend(settings.BESTIE_RELEVANCE_BACKEND)


# The memories naming someone that are read for who they are to the owner, and the best candidates of a
# query that are read for whom they are about (``about_someone_else``).
NAMES_LOOKED_AT = 50
SUBJECTS_LOOKED_AT = 20


def about_someone_else(queryset, asked, texts):
    """The ids of ``texts`` (``{id: text}``, best first; the first ``SUBJECTS_LOOKED_AT``) about someone other
    than the one a query asks about (``asked``: ``people.asked_about``; ``people.someone_else``), the names
    in either read as the relations the memories of ``queryset`` holding them say they are (the
    ``NAMES_LOOKED_AT`` newest): "where do I live" is not answered by "User's brother lives in Berlin", nor
    "Vợ dậy lúc mấy giờ?" by "Ngày thường tôi dậy lúc 5h15"."""
    if not asked:
        return set()
    asked_names = {value for kind, value in asked if kind == "name"}
    relations, looked_up = {}, set()
    if not people.asks_about_someone(asked):
        # Only names: it asks about someone when a memory says who one of them is ("Thảo thích ăn gì?").
        relations, looked_up = _relations_of_names(queryset, asked_names), asked_names
        if not people.asks_about_someone(asked, relations):
            return set()
    subjects = {
        memory_id: people.about(text) for memory_id, text in itertools.islice(texts.items(), SUBJECTS_LOOKED_AT)
    }
    named = {value for kind, value in filter(None, subjects.values()) if kind == "name"} | asked_names
    relations |= _relations_of_names(queryset, named - looked_up)
    return {memory_id for memory_id, subject in subjects.items() if people.someone_else(asked, subject, relations)}


def names_of_relations(queryset, query):
    """``{relation: folded names}`` for the relations ``query`` asks about (``people.asked_about``) that the
    owner's memories name ("Vợ tôi là Thảo": the partner is "thao"; the ``NAMES_LOOKED_AT`` newest memories
    holding a word for the relation are read): "what does my wife teach?" is answered by "Thảo dạy Ngữ
    văn"."""
    relations = {value for kind, value in people.asked_about(query) or () if kind == "relation"}
    found = {}
    for relation in relations:
        phrases = [(words, False) for words in people.words_for(relation)]
        # Not ``common``: its count is of each word, and "bà xã" is rare where "bà" and "xã" are not.
        placing = matching_any(queryset, phrases).values_list("text", flat=True)[:NAMES_LOOKED_AT]
        names = frozenset(name for name, its in people.relations_of_names(placing).items() if its == relation)
        if names:
            found[relation] = names
    return found


def with_names_of_relations(terms, names):
    """``terms`` with a word naming a relation also matching the names the owner's memories give it
    (``names``: ``names_of_relations``)."""
    if not names:
        return terms
    found = []
    for term in terms:
        relation = people.relation_named(term.accented or term.word)
        if relation in names:
            term = replace(term, forms=term.forms | {name for name in names[relation] if not term.matches(name)})
        found.append(term)
    return found


def _relations_of_names(queryset, names):
    if not names:
        return {}
    placing = matching_any(queryset, [((name,), False) for name in names], common=True).values_list("text", flat=True)
    return people.relations_of_names(placing[:NAMES_LOOKED_AT])
