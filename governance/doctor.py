"""The memory doctor (SPEC §5): a read-only report of what needs the owner's attention.

``analyze`` looks at the store once and returns a ``Report``: duplicate groups, contradictions, stale
memories, low-value noise, the core tier against its budget, memories missing metadata and broken
supersede chains. Nothing is changed; consolidation, cleanup and hygiene act on the report.

Duplicates and contradictions are only looked for inside a block of live memories with the same user,
kind, subject and project: memories of different users (or about different things) are never grouped.
Inside a block, memories with the same folded words in the same order share one variant; candidate pairs
of variants come from an inverted index of their words, where a word shared by more than ``POSTING_CAP``
variants (like "prefer" in a block of preferences) proposes no pairs. The work grows with the number of memories, not
with its square. Whether a pair is the same fact or a contradiction is ``memories.language.meaning``'s
to say, as it is for the write path. A memory and its denial, and a value said to be new and the old one,
are also looked for among all of a user's memories of a project, whatever their kind and subject
(``_negations_across_blocks``, ``_values_changed_across_blocks``). With embeddings on,
each memory is also compared with its closest in meaning among those of its user, kind and project,
whatever their subject (``_with_meaning``).
"""

import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from itertools import combinations

from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from memories import vectors
from memories.language import attributes, embeddings, partners, people, slots, standing, states
from memories.language.folding import fold
from memories.language.meaning import (
    Variant,
    contradict,
    denies,
    denies_across_languages,
    meaning,
    own_words,
    same_fact,
    says_changed,
    state_and_denial,
    written_details,
)
from memories.language.selves import as_the_user, names_of
from memories.language.translation import (
    OPPOSED,
    SAME,
    WORDS_TRANSLATED,
    another_value,
    changed_names,
    debt_run_the_other_way,
    details_agree,
    in_other_words,
    lexicon_words,
    share_between,
    translated_verdict,
    value_changed,
    values,
    values_instead,
)
from memories.models import Memory, MemorySettings, Scope
from memories.retrieval import prompt
from memories.screening.venting import is_venting

MODES = ("duplicates", "stale", "conflicts")
# A word found in more variants of one block than this does not propose candidate pairs.
POSTING_CAP = 40
# With embeddings on, each memory is also compared with this many of its closest in meaning.
MEANING_NEIGHBOURS = 10
# Across languages (``_with_meaning``): how many of each memory's closest in the other language are
# compared with it; when two such are not counterparts, ``CLOSE_WORDS_TRANSLATED`` of their words must
# translate each other (both chosen on the blind open sets, bench/meaning_quality.py: at 0.7 the six open
# sets and set 8 found 4 to 7 points less duplicate recall, at 0.5 13 wrong pairs more).
CLOSEST_ACROSS = 2
CLOSE_WORDS_TRANSLATED = 0.6
# Of the content words of a memory giving a value, the share one of another block saying its value is new must
# say too (``_values_changed_across_blocks``): without the subject both are filed under, more than inside a block
# (``translation.IN_OTHER_WORDS_SAID``).
ACROSS_BLOCKS_SAID = 0.75
# Two memories in the two languages, one saying its value is new ("now", "đã đổi sang"), are compared for a
# value in place of another when this share of their words translate each other.
CHANGED_WORDS_TRANSLATED = 0.6
NOISE_MIN_CHARACTERS = 12
NOISE_LOW_CONFIDENCE = 0.5

_GENERIC = frozenset(
    fold(text) for text in ("ok", "okay", "thanks", "thank you", "cảm ơn", "ừ", "vâng", "hello", "hi", "lol")
)


@dataclass(frozen=True)
class Report:
    duplicates: list = field(default_factory=list)  # groups of ids, each sorted, the largest first
    conflicts: list = field(default_factory=list)  # groups of ids that contradict each other
    stale: list = field(default_factory=list)
    noise: list = field(default_factory=list)
    core: dict = field(default_factory=dict)
    missing_metadata: list = field(default_factory=list)
    broken_chains: list = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def as_dict(self, mode=None):
        report = asdict(self)
        if mode:
            details = {key: value for key, value in self.details.items() if key.startswith(mode)}
            report = {mode: report[mode], "details": details}
        return report


# ---------------------------------------------------------------------------------------------------
# Duplicates and contradictions


class _Groups:
    """Union-find over variant indexes."""

    def __init__(self, size):
        self.parent = list(range(size))

    def find(self, i):
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i, j):
        self.parent[self.find(i)] = self.find(j)

    def members(self):
        groups = defaultdict(list)
        for i in range(len(self.parent)):
            groups[self.find(i)].append(i)
        return list(groups.values())


def _variants(rows, subject, kind, meanings):
    """The block's variants. ``meanings`` keeps each memory's ``meaning`` without its subject's words (a run
    compares memories across subjects too); the subject's own words are taken out here."""
    own = own_words(subject)
    by_meaning = {}
    for memory_id, text in rows:
        if memory_id not in meanings:
            meanings[memory_id] = meaning(text, "", kind)
        found = meanings[memory_id]
        if own:
            found = found._replace(content=found.content - own)
        by_meaning.setdefault((found.order, found.negated), (found, []))[1].append((memory_id, text))
    variants = []
    for found, members in by_meaning.values():
        # The same words spelt otherwise are other words: "thích cá" (fish) is not "thích cà", "A+" not "A-".
        spelt = {}
        for memory_id, text in members:
            spelt.setdefault(written_details(text) if len(members) > 1 else None, []).append(memory_id)
        variants.extend(Variant(*found, ids=tuple(ids)) for ids in spelt.values())
    return variants


def _sharing(postings):
    """The pairs of holders of a key that few hold (``POSTING_CAP``), each once; ``postings``: ``{key:
    [holders, in one order]}``."""
    return {pair for holders in postings.values() if len(holders) <= POSTING_CAP for pair in combinations(holders, 2)}


def _candidate_pairs(variants):
    """Pairs of variants sharing a word that few variants of the block have, a state counting as the kinds it
    rules out ("vegetarian" / "does not eat meat"); each pair once."""
    postings = defaultdict(list)
    for index, variant in enumerate(variants):
        for word in set(variant.words) | states.kinds_ruled_out(variant.content):
            postings[word].append(index)
    return sorted(_sharing(postings))


def block_findings(rows, subject="", kind="", meanings=None):
    """Duplicate groups and contradicting pairs among ``rows`` (``(id, text)``) of one block; ``meanings``
    keeps what each memory means for the rest of the run (``_variants``)."""
    variants = _variants(rows, subject, kind, {} if meanings is None else meanings)
    texts = dict(rows)
    groups = _Groups(len(variants))
    opposed = []
    for i, j in _candidate_pairs(variants):
        text_i, text_j = texts[variants[i].ids[0]], texts[variants[j].ids[0]]
        if same_fact(variants[i], variants[j]) and details_agree(text_i, text_j):
            groups.join(i, j)
        elif contradict(variants[i], variants[j], bool(subject)) or value_changed(
            variants[i], variants[j], text_i, text_j
        ):
            # Or one says its value is new, and the other gives another in more words: "Từ tháng này ngân sách
            # đi chợ tăng lên 10 triệu/tháng" / "Ngân sách đi chợ hằng tháng của nhà anh Khoa là 8 triệu đồng".
            opposed.append((i, j))
    duplicates = []
    for members in groups.members():
        ids = sorted(memory_id for index in members for memory_id in variants[index].ids)
        if len(ids) > 1:
            duplicates.append(ids)
    # Contradictions between duplicate groups, not between variants: one entry per pair of groups.
    conflicts = {}
    for i, j in opposed:
        a, b = groups.find(i), groups.find(j)
        if a != b:
            key = tuple(sorted((a, b)))
            conflicts.setdefault(key, set()).update(variants[i].ids + variants[j].ids)
    return duplicates, [sorted(ids) for ids in conflicts.values()]


def _blocks(now):
    """Live memories grouped by user, kind, folded subject and project, streamed in that order."""
    rows = (
        Memory.objects.live(now)
        .order_by("user", "kind", "subject", "project", "pk")
        .values_list("pk", "text", "user", "kind", "subject", "project")
    )
    current, members = None, []
    for memory_id, text, user, kind, subject, project in rows.iterator(chunk_size=5000):
        key = (user, kind, fold(subject).strip(), project)
        if key != current:
            if members:
                yield current, members
            current, members = key, []
        members.append((memory_id, text))
    if members:
        yield current, members


def find_duplicates_and_conflicts(now=None):
    now = now or timezone.now()
    # Subjects differing only by case or accents belong to one block: the rows come sorted by the raw
    # subject, so the folded blocks are gathered before they are looked at.
    gathered = defaultdict(list)
    for key, members in _blocks(now):
        gathered[key].extend(members)
    _names_as_the_user(gathered)
    duplicates, conflicts, meanings = [], [], {}
    for (_user, kind, subject, _project), members in gathered.items():
        found, opposed = block_findings(members, subject, kind, meanings)
        duplicates.extend(found)
        conflicts.extend(opposed)
    findings = _Findings(gathered, duplicates, conflicts, meanings)
    _same_fact_across_blocks(findings)
    _across_languages_by_words(findings)
    _negations_across_blocks(findings)
    _values_changed_across_blocks(findings)
    _slots_and_standing(findings)
    if embeddings.enabled():
        _with_meaning(findings)
    duplicates, conflicts = findings.result()
    duplicates.sort(key=lambda group: (-len(group), group[0]))
    conflicts.sort(key=lambda group: group[0])
    return duplicates, conflicts


def _names_as_the_user(gathered):
    """The texts of each user who goes by a name (``selves.names_of``: the user id, or what their memories say)
    with it read as the word for the user, in place (``selves.as_the_user``): "Linh's book club meets on
    Saturdays" of user ``linh`` is compared as "The user's book club meets on Saturdays"."""
    by_user = defaultdict(list)
    for block, members in gathered.items():
        by_user[block[0]].append(members)
    for user, blocks in by_user.items():
        names = names_of(user, (text for members in blocks for _, text in members))
        if not names:
            continue
        for members in blocks:
            members[:] = [(memory_id, as_the_user(text, names)) for memory_id, text in members]


class _Findings:
    """The blocks' duplicate groups and conflicts, and what comparing memories across the blocks of one
    user, kind and project adds to them (an agent gives the same fact other subject slugs, often in the
    other language): memories joined into groups, pairs that cannot both be true."""

    def __init__(self, gathered, duplicates, conflicts, meanings):
        self.texts, self.kinds, self.blocks = {}, {}, {}
        self.groups, self.people = defaultdict(list), defaultdict(list)
        for block, members in gathered.items():
            user, kind, _subject, project = block
            for memory_id, text in members:
                self.texts[memory_id], self.kinds[memory_id], self.blocks[memory_id] = text, kind, block
                self.groups[(user, kind, project)].append(memory_id)
                self.people[(user, project)].append(memory_id)
        self.ids = sorted(self.texts)
        self.position = {memory_id: index for index, memory_id in enumerate(self.ids)}
        self.joined = _Groups(len(self.ids))
        self.conflicts = conflicts
        self.opposed, self._opposed = [], set()
        for group in duplicates:
            for a, b in zip(group, group[1:]):
                self.join(a, b)
        # A memory is in about twenty pairs: what it means (worked out by the blocks), its language and its
        # words looked up in the lexicon are worked out once a run (and not kept after it).
        self.meanings = meanings
        self._variants, self._words, self._values, self._naming = {}, {}, {}, {}

    def variant(self, memory_id):
        """What a memory means (``meaning``, with its subject's words), as ``same_fact`` compares it."""
        if memory_id not in self._variants:
            self._variants[memory_id] = Variant(*self.meanings[memory_id])
        return self._variants[memory_id]

    def words(self, memory_id):
        """A memory's ``lexicon_words``, with its language."""
        if memory_id not in self._words:
            self._words[memory_id] = lexicon_words(self.texts[memory_id], self.meanings[memory_id].vietnamese)
        return self._words[memory_id]

    def debt_run_the_other_way(self, a, b):
        """Two memories in one language of a debt between the same parties, named alike, run the other way
        (``translation.debt_run_the_other_way``): "Người dùng cho em gái Ngọc mượn 30 triệu" / "Người dùng đang
        vay em gái Ngọc 30 triệu". Across the languages, what a translation keeps decides."""
        first, second = self.variant(a), self.variant(b)
        return (
            first.vietnamese == second.vietnamese
            and bool(first.named)
            and first.named == second.named
            and debt_run_the_other_way(self.texts[a], self.texts[b])
        )

    def values(self, memory_id):
        """A memory's ``translation.values``."""
        if memory_id not in self._values:
            self._values[memory_id] = values(self.texts[memory_id])
        return self._values[memory_id]

    def another_value(self, a, b):
        """``translation.another_value`` of two memories; most give no value or the same ones, which their
        values kept once a run settle at once."""
        return values_instead(self.values(a), self.values(b)) and another_value(self.texts[a], self.texts[b])

    def in_other_words(self, a, b):
        """``translation.in_other_words`` of two memories, with what the run keeps of them."""
        return in_other_words(
            self.variant(a), self.variant(b), self.texts[a], self.texts[b], self.values(a), self.values(b)
        )

    def share(self, a, b):
        """``translated_share`` of two memories."""
        return share_between(self.words(a), self.words(b))

    def together(self, a, b):
        return self.joined.find(self.position[a]) == self.joined.find(self.position[b])

    def join(self, a, b):
        """Put two memories in one group, unless they were found to contradict each other ("Yến is Phong's
        older sister" / "Yến là em gái của Phong, kém anh 5 tuổi": names and numbers agree across the
        languages, who is older does not)."""
        if frozenset((a, b)) not in self._opposed:
            self.joined.join(self.position[a], self.position[b])

    def oppose(self, a, b):
        """Two memories that cannot both be true."""
        self.opposed.append((a, b))
        self._opposed.add(frozenset((a, b)))

    def compare_across_languages(self, a, b, share):
        """What a translation keeps decides between two memories in different languages; two whose words
        mostly translate each other but that name one place or thing each, not the same one, contradict
        each other ("User lives in Hanoi" / "Người dùng sống ở Đà Nẵng")."""
        verdict = translated_verdict(self.texts[a], self.texts[b], share)
        if verdict == SAME:
            self.join(a, b)
        elif verdict == OPPOSED and not self.of_someone_else(a, b):
            self.oppose(a, b)

    def of_someone_else(self, a, b):
        """One of two memories is of someone by name whom the other does not name, and the other of another
        (``people.one_person``): each may do otherwise ("Bà Lan vẫn đi tắm biển" / "The user no longer goes
        sea bathing"). (Two naming both may set them the other way round: "User owes Tuấn 5 million" / "Tuấn
        nợ người dùng 5 triệu".)"""
        texts, texts_naming = self.texts, self.texts_naming(a)
        for one, other in ((a, b), (b, a)):
            kind, name = people.whose(texts[one], texts_naming)
            if kind == "name" and name not in re.findall(r"\w+", fold(texts[other])):
                return not people.one_person(texts[a], texts[b], texts_naming)
        return False

    def texts_naming(self, memory_id):
        """The ``people.texts_naming_of`` of the memories of the user and project of a memory, one a run."""
        user, _kind, _subject, project = self.blocks[memory_id]
        if (user, project) not in self._naming:
            self._naming[(user, project)] = _texts_naming(self, self.people[(user, project)])
        return self._naming[(user, project)]

    def result(self):
        """``(duplicates, conflicts)``: the groups, and the conflicts, a pair found opposed since once, unless
        they ended in one group."""
        merged = [sorted(self.ids[i] for i in members) for members in self.joined.members() if len(members) > 1]
        conflicts = list(self.conflicts)
        known = {frozenset(group) for group in conflicts}
        for a, b in self.opposed:
            if not self.together(a, b) and frozenset((a, b)) not in known:
                known.add(frozenset((a, b)))
                conflicts.append(sorted((a, b)))
        return merged, conflicts


def _across_languages_by_words(findings):
    """Memories in the two languages whose words mostly translate each other (``translated_share`` at least
    ``WORDS_TRANSLATED``), among all of a user's memories of a project whatever their kind (an agent files
    "Thảo has switched to night shifts permanently" as a fact and "Chị Thảo đã chuyển hẳn sang làm ca đêm"
    as a routine), compared on what a translation keeps, with or without embeddings. The pairs looked at
    share a translated word that few of them have (``POSTING_CAP``), as inside a block."""
    for members in findings.people.values():
        postings = defaultdict(lambda: ([], []))
        for memory_id in members:
            words = findings.words(memory_id)
            for word in words.english:
                postings[word][0 if words.vietnamese else 1].append(memory_id)
        pairs = set()
        for vietnamese, english in postings.values():
            if vietnamese and english and len(vietnamese) + len(english) <= POSTING_CAP:
                pairs.update((min(a, b), max(a, b)) for a in vietnamese for b in english)
        for a, b in sorted(pairs):
            if findings.together(a, b):
                continue
            share = findings.share(a, b)
            if share is not None and share >= WORDS_TRANSLATED:
                findings.compare_across_languages(a, b, share)
            elif share is not None and share >= CHANGED_WORDS_TRANSLATED:
                # One says its value is new: fewer of the words need translate the other's for a value in
                # place of another ("Người dùng đi ngủ lúc 11h đêm" / "User goes to bed at 1am these days").
                text_a, text_b = findings.texts[a], findings.texts[b]
                changed = says_changed(text_a) or says_changed(text_b)
                if changed and translated_verdict(text_a, text_b, share) == OPPOSED:
                    findings.oppose(a, b)


def _same_fact_across_blocks(findings):
    """Memories of one user, kind and project under other subjects, in one language, that state the same fact
    (``same_fact``, ``details_agree``), with or without embeddings: an agent files "User is learning Spanish"
    under "languages" and "User is studying Spanish" under "education". The pairs looked at share a content
    word that few of them have (``POSTING_CAP``), a state counting as the kinds it rules out, as inside a
    block; pairs of one block were compared there."""
    for members in findings.groups.values():
        postings = defaultdict(list)
        for memory_id in members:
            content = findings.variant(memory_id).content
            for word in content | states.kinds_ruled_out(content):
                postings[word].append(memory_id)
        for a, b in sorted(_sharing(postings)):
            if findings.blocks[a] == findings.blocks[b] or findings.together(a, b):
                continue
            first, second = findings.variant(a), findings.variant(b)
            if (
                first.vietnamese == second.vietnamese
                and same_fact(first, second)
                and details_agree(findings.texts[a], findings.texts[b])
            ):
                findings.join(a, b)


def _negations_across_blocks(findings):
    """A memory and one that denies it (``meaning.denies``), among all of a user's memories of a project
    whatever their kind and subject, with or without embeddings: an agent files "User drinks a black coffee
    every morning" as a routine and "User does not drink coffee anymore" as a preference. Across the two
    languages, a denial that says no more than the words both are read into (``denies_across_languages``), of
    the same person: "Anh Khoa không uống rượu bia" / "Khoa drinks beer with his friends every Friday". The
    denying side is a denial, a choice of one thing instead of another, or a state that rules things out
    ("User is vegetarian"); two values in one slot are left to the blocks and to meaning, which know what
    the slot is. The pairs looked at share a word, or a kind of thing (``states``), that few of them have
    (``POSTING_CAP``), as inside a block; pairs of one block sharing a word were compared there ("User is
    vegetarian" / "User eats beef every week" share none)."""
    for members in findings.people.values():
        postings = defaultdict(lambda: ([], []))
        for memory_id in members:
            variant = findings.variant(memory_id)
            # What a memory chooses instead of something denies that thing ("Bali instead of Hokkaido"); a
            # state denies the kinds of thing it rules out ("vegetarian": meat), which the things of that
            # kind are looked up by ("beef": meat).
            denial = variant.negated or bool(variant.instead)
            ruled_out = states.kinds_ruled_out(variant.content)
            if not denial:
                # A state is looked up by the kinds it rules out on this side too, for a denial of one of them
                # that says the same ("User is vegetarian" / "User never eats meat").
                for word in states.with_kinds(variant.content) | ruled_out:
                    postings[word][0].append(memory_id)
            if denial or ruled_out:
                for word in variant.content | ruled_out:
                    postings[word][1].append(memory_id)
        pairs = set()
        for affirmed, denying in postings.values():
            if affirmed and denying and len(affirmed) + len(denying) <= POSTING_CAP:
                pairs.update((min(a, b), max(a, b)) for a in affirmed for b in denying if a != b)
        texts_naming = _texts_naming(findings, members)
        for a, b in sorted(pairs):
            if findings.together(a, b):
                continue
            first, second = findings.variant(a), findings.variant(b)
            if findings.blocks[a] == findings.blocks[b] and first.word_set & second.word_set:
                continue
            # A state and the denial of the kind it rules out are one fact, in either language.
            if state_and_denial(first, second):
                findings.join(a, b)
                continue
            if first.vietnamese == second.vietnamese:
                opposed = denies(first, second, False)
            else:
                opposed = denies_across_languages(first, second) and people.one_person(
                    findings.texts[a], findings.texts[b], texts_naming
                )
            if opposed:
                findings.oppose(a, b)


def _values_changed_across_blocks(findings):
    """A memory saying its value is new and another giving another value of the same thing in its language
    (``translation.value_changed``), among all of a user's memories of a project whatever their kind and
    subject, with or without embeddings: an agent files "Bà Chín báo từ tháng sau tiền mướn mặt bằng tiệm lên 6
    triệu một tháng" as an event and "tien muon mat bang tiem 5tr/thang" as a fact. Few memories say a value
    changed; each is looked at beside those sharing a word with it that few others have (``POSTING_CAP``), and
    must say more of the other's words than inside a block (``ACROSS_BLOCKS_SAID``)."""
    texts = findings.texts
    for members in findings.people.values():
        changed = [memory_id for memory_id in members if says_changed(texts[memory_id])]
        if not changed:
            continue
        wanted = set().union(*(findings.variant(memory_id).content for memory_id in changed))
        postings = defaultdict(list)
        for memory_id in members:
            for word in findings.variant(memory_id).content & wanted:
                postings[word].append(memory_id)
        for a in changed:
            first = findings.variant(a)
            others = {b for word in first.content if len(postings[word]) <= POSTING_CAP for b in postings[word]}
            for b in sorted(others - {a}):
                if findings.blocks[a] == findings.blocks[b] or findings.together(a, b):
                    continue
                if value_changed(first, findings.variant(b), texts[a], texts[b], said=ACROSS_BLOCKS_SAID):
                    findings.oppose(a, b)


def _slots_and_standing(findings):
    """Memories putting different things in one slot of one person (``slots``: "User's main editor is Neovim" /
    "VS Code is the user's primary editor", "Laptop chính của người dùng là MacBook Pro" / "User's main work
    laptop is a ThinkPad"), setting two people the other way round (``standing``: "Đạt is Khoa's direct
    manager" / "Khoa là quản lý trực tiếp của Đạt", "Nhi lớn hơn Long 1 tuổi" / "Long is two years older than
    Nhi"), giving one person a husband or wife and none (``partners``: "Vy chưa lập gia đình" / "Vy's husband
    Long works at FPT"), or two birthdays or blood types (``attributes``: "Mai's birthday is March 14" / "Sinh
    nhật của chị Mai là ngày 14/4"), among all of a user's memories of a project, whatever their kind,
    subject and language, with or without embeddings. The pairs looked at share a slot, a kind of standing,
    whose spouse or which attribute, that few of them fill (``POSTING_CAP``)."""
    readers = (
        (slots.slot, slots.otherwise, slots.same, lambda found: found.things),
        (standing.standing, standing.otherwise, standing.same, lambda found: (found.kind,)),
        (partners.spouse, partners.otherwise, partners.same, partners.keys),
        (attributes.attribute, attributes.otherwise, attributes.same, lambda found: (found.name,)),
    )
    for members in findings.people.values():
        texts_naming = _texts_naming(findings, members)
        for read, otherwise, same, keys in readers:
            filled, postings = {}, defaultdict(list)
            for memory_id in members:
                found = read(findings.texts[memory_id], findings.meanings[memory_id].negated)
                if found is not None:
                    filled[memory_id] = found
                    for key in keys(found):
                        postings[key].append(memory_id)
            for a, b in sorted(_sharing(postings)):
                if findings.together(a, b):
                    continue
                if otherwise(filled[a], filled[b], texts_naming):
                    findings.oppose(a, b)
                elif same(filled[a], filled[b], texts_naming) and details_agree(findings.texts[a], findings.texts[b]):
                    findings.join(a, b)


def _texts_naming(findings, members):
    """A ``people.texts_naming_of`` giving the texts of ``members`` that hold a name (folded), in the members'
    texts folded once, when first asked for."""
    folded = []

    def texts_naming(name):
        if not folded:
            folded.extend((fold(findings.texts[i]).lower(), findings.texts[i]) for i in members)
        return [text for plain, text in folded if name in plain]

    return people.texts_naming_of(texts_naming)


def _with_meaning(findings):
    """With embeddings on, memories close in meaning are compared too, across the blocks of one user, kind
    and project: each memory with its ``MEANING_NEIGHBOURS`` closest. Words still decide, as inside a
    block (``same_fact``, ``contradict``, without the subject's words); a contradiction needs the two in
    one language, where their words can be set side by side. Without the model, the findings stand."""
    texts = findings.texts
    try:
        pairs = vectors.neighbours_within(list(findings.groups.values()), MEANING_NEIGHBOURS)
        # Counterparts among the memories of one kind, and among all of a user's whatever their kind; a pair
        # found both ways is compared once, as counterparts if either way finds it so.
        close_across = {}
        for groups in (findings.groups.values(), findings.people.values()):
            for a, b, _margin, counterparts in vectors.counterparts_within(list(groups), CLOSEST_ACROSS):
                close_across[(a, b)] = close_across.get((a, b), False) or counterparts
        # Among all of a user's memories of a project, whatever their kind: a memory must be the other's
        # closest among the owner's own.
        people = list(findings.people.values())
        close_values = vectors.counterparts_within(people, CLOSEST_ACROSS, across=False)
        close_values += vectors.counterparts_within(people, CLOSEST_ACROSS)
        # And among the memories of one kind, where fewer stand between two saying one fact in other words.
        close_in_kind = vectors.counterparts_within(list(findings.groups.values()), CLOSEST_ACROSS, across=False)
    except embeddings.Unavailable:
        return
    for a, b in sorted(pairs):
        if findings.together(a, b):
            continue
        first, second = findings.variant(a), findings.variant(b)
        if same_fact(first, second) and details_agree(texts[a], texts[b]):
            findings.join(a, b)
        elif first.vietnamese == second.vietnamese and contradict(first, second, False):
            findings.oppose(a, b)
        elif value_changed(first, second, texts[a], texts[b]):
            # One of two close in meaning says its value is new, and the other gives another of the same thing,
            # where the old value, said again in other words, stands closer to it than the new one does.
            findings.oppose(a, b)
    # Across the two languages, words cannot be set side by side, but they can be looked up: a memory and
    # its counterpart (each the other's closest in the other language, standing out from the rest) are
    # compared on what a translation keeps, unless none of the words the lexicon knows of either
    # translates one of the other's; two each among the other's closest there, when most of their words
    # translate each other (``CLOSE_WORDS_TRANSLATED``).
    for (a, b), counterparts in close_across.items():
        if findings.together(a, b):
            continue
        share = findings.share(a, b)
        if counterparts:
            looked_up = share != 0.0
        else:
            looked_up = share is not None and share >= CLOSE_WORDS_TRANSLATED
        if looked_up:
            findings.compare_across_languages(a, b, share)
    # Each among the other's ``CLOSEST_ACROSS`` closest in its language, among all of a user's memories (either
    # language), standing out as counterparts do, and one value in place of another: "Lan's thesis deadline
    # is June 15" / "Lan's thesis is due on May 30" (the margin chosen on the blind open sets, where 1.02
    # found 4 more and 2 more false ones).
    for a, b, margin, counterparts in close_values:
        if margin < vectors.COUNTERPART_MARGIN or findings.together(a, b):
            continue
        if findings.another_value(a, b) or changed_names(texts[a], texts[b]) or findings.debt_run_the_other_way(a, b):
            findings.oppose(a, b)
        elif counterparts and findings.in_other_words(a, b):
            findings.join(a, b)
    for a, b, _margin, counterparts in close_in_kind:
        if counterparts and not findings.together(a, b) and findings.in_other_words(a, b):
            findings.join(a, b)


# ---------------------------------------------------------------------------------------------------
# Stale, noise, core, metadata, chains


def find_stale(now=None):
    """Live memories due for the drift review or unused for ``UNUSED_DAYS`` (oldest confirmation first),
    then the expired rows prune has not removed yet (the backlog, soonest expired first); the details
    count each kind and the gap between all rows and live rows."""
    now = now or timezone.now()
    live = Memory.objects.live(now)
    unconfirmed = Memory.objects.due_for_review(now)
    unused = live.unused(now)
    old = list((unconfirmed | unused).order_by("confirmed_at", "pk").values_list("pk", flat=True))
    backlog = list(Memory.objects.expired(now).order_by("expires_at", "pk").values_list("pk", flat=True))
    total = Memory.objects.count()
    live_count = live.count()
    details = {
        "stale_unconfirmed": unconfirmed.count(),
        "stale_unused": unused.count(),
        "stale_expired_backlog": len(backlog),
        "stale_marked": live.filter(stale=True).count(),
        "stale_all_rows": total,
        "stale_live_rows": live_count,
        "stale_gap": total - live_count,
    }
    return old + backlog, details


def is_noise(text, confidence, access_count):
    folded = " ".join(fold(text).split()).strip(" .!?")
    if len(text.strip()) < NOISE_MIN_CHARACTERS or folded in _GENERIC:
        return gettext_noop("too short or generic")
    if is_venting(text):
        return gettext_noop("one-off venting")
    if confidence < NOISE_LOW_CONFIDENCE and not access_count:
        return gettext_noop("low confidence and never used")
    return ""


def find_noise(now=None):
    now = now or timezone.now()
    noise, reasons = [], defaultdict(int)
    rows = Memory.objects.live(now).filter(pinned=False).values_list("pk", "text", "confidence", "access_count")
    for memory_id, text, confidence, access_count in rows.iterator(chunk_size=5000):
        reason = is_noise(text, confidence, access_count)
        if reason:
            noise.append(memory_id)
            reasons[reason] += 1
    return noise, {"noise_reasons": dict(reasons)}


def core_report(now=None):
    """The injectable core tier as a prompt packs it (``memories.retrieval.prompt.pack_core``), and which of
    it does not fit the core budget."""
    report = prompt.core_report(MemorySettings.load(), now)
    return {
        "memories": report.memories,
        "tokens": report.tokens,
        "budget_tokens": report.budget_tokens,
        "over_budget": report.over_budget,
        "pinned": report.pinned,
        "overflow": report.overflow,
    }


def find_missing_metadata(now=None):
    """Live memories without a subject (duplicate and conflict checks group by it), without the
    ``text_key`` the write path keeps, or project-scoped without a project."""
    now = now or timezone.now()
    missing = Q(subject="") | Q(text_key="") | Q(scope=Scope.PROJECT, project="")
    return list(Memory.objects.live(now).filter(missing).values_list("pk", flat=True))


def find_broken_chains():
    """Memories whose ``superseded_by`` points at a row that is gone (what SQLite's
    ``PRAGMA foreign_key_check`` reports) or that lie on a loop of supersede links."""
    dangling = set(
        Memory.objects.filter(superseded_by__isnull=False)
        .exclude(Exists(Memory.objects.filter(pk=OuterRef("superseded_by_id"))))
        .values_list("pk", flat=True)
    )
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA foreign_key_check({Memory._meta.db_table})")
            dangling.update(row[1] for row in cursor.fetchall())
    links = dict(Memory.objects.filter(superseded_by__isnull=False).values_list("pk", "superseded_by_id"))
    in_loop, done = set(), set()
    for start in links:
        path, seen, node = [], {}, start
        while node in links and node not in done and node not in seen:
            seen[node] = len(path)
            path.append(node)
            node = links[node]
        if node in seen:
            in_loop.update(path[seen[node] :])
        done.update(path)
    return sorted(dangling | in_loop), {"broken_dangling": len(dangling), "broken_loops": len(in_loop)}


# ---------------------------------------------------------------------------------------------------


# What a full report looks at, in order: the steps its ``progress`` names.
PARTS = ("duplicates", "stale", "noise", "core", "missing_metadata", "broken_chains")


def analyze(mode=None, now=None, progress=None):
    """The doctor's report; ``mode`` (``duplicates``, ``stale`` or ``conflicts``) limits it to one part.
    ``progress(part, done, total)`` is called as each part of ``PARTS`` starts (``done`` parts of
    ``total`` finished), for a full report."""
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    now = now or timezone.now()

    def starting(part):
        if progress and mode is None:
            progress(part, PARTS.index(part), len(PARTS))

    parts, details = {}, {}
    if mode in (None, "duplicates", "conflicts"):
        starting("duplicates")
        parts["duplicates"], parts["conflicts"] = find_duplicates_and_conflicts(now)
        details["duplicates_memories"] = sum(len(group) for group in parts["duplicates"])
        if mode == "duplicates":
            parts.pop("conflicts")
        if mode == "conflicts":
            parts.pop("duplicates")
    if mode in (None, "stale"):
        starting("stale")
        parts["stale"], stale_details = find_stale(now)
        details.update(stale_details)
    if mode is None:
        starting("noise")
        parts["noise"], noise_details = find_noise(now)
        details.update(noise_details)
        starting("core")
        parts["core"] = core_report(now)
        starting("missing_metadata")
        parts["missing_metadata"] = find_missing_metadata(now)
        starting("broken_chains")
        parts["broken_chains"], chain_details = find_broken_chains()
        details.update(chain_details)
    return Report(**parts, details=details)
