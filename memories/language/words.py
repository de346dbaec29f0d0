"""Words: how texts are split, which words carry nothing, the two stems, a query word's other English
forms, and a text's words in order.

Two stems for two jobs, both of English endings only (folded Vietnamese words never end in "s"):
- ``singular`` is the canonical form a memory's words are keyed and compared by ("replies" -> "reply",
  "prefers" -> "prefer"); it changes only plurals and third persons, since "lived" and "lives" may be
  different facts;
- ``search_stem`` is the prefix every form of a query word starts with ("replies" -> "repl", "moving" ->
  "mov"), so a query finds "reply", "replied" and "replies" alike; ``english_forms`` adds the forms no
  prefix reaches ("went" for "go", "hiking" for "hike", "children" for "child").
"""

import datetime
import functools
import re
import unicodedata
from typing import NamedTuple

from memories.language.folding import fold

WORD = re.compile(r"\w+")
# As the full-text index splits words: letters and digits, never the underscore.
INDEX_WORD = re.compile(r"[^\W_]+")

# Filler that does not change what a memory says. Negations ("not", "never", "không", "chưa") and
# quantities are deliberately absent. Words are compared folded, so a filler word must not fold into a
# Vietnamese content word: "an" is "ăn" (eat), "the" is "thể", "do" is "đỏ" (red), "cua" is "cua"
# (crab) as well as "của"; those stay.
FILLER_WORDS = frozenset(
    """
    a is are was were been being of for by with and or that this these those its as very really just
    also does did user users owner
    la va rat
    """.split()
)
# Phrases naming the owner, folded: "Người dùng thích …" and "User likes …" say the same as "Thích …".
_OWNER_PHRASES = re.compile(r"\b(?:nguoi dung|chu nhan|the user|the owner)\b")

# Words of a query that say nothing about which memory is meant: function words, the hedges and reporting
# verbs of a question ("would she likely", "what did he say about"), and the pieces the index splits off
# "Lan's", "didn't" or "I'll" ("s", "didn", "t", "ll"; not "don", which is "đơn" typed bare). Vietnamese
# ones are written with their diacritics: typed with them, only the same word is left out ("chợ", a
# market, is not "cho", for); typed without, their folded form is, so "cho" is left out but "da" (đã, and
# Đà of Đà Nẵng) and "ban" (bạn, a friend) are not in the list at all.
ENGLISH_QUERY_STOPWORDS = frozenset(
    """
    a about after again all also am an and any are as at be been before being both but by can could
    did do does doing during each for from had has have having he her here hers him his how i if in
    into is it its just me more most my myself no nor not now of on once only or other our ours out
    over own please same she should so some such than that the their theirs them then there these
    they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours yourself tell know remember recall anything something
    likely might probably possibly perhaps many much say says said mention mentions mentioned
    s t d ll m re ve doesn didn isn aren wasn weren haven hasn hadn couldn shouldn wouldn
    """.split()
)
VIETNAMESE_QUERY_STOPWORDS = frozenset(
    """
    của là và có không được cho với những các một này đó thì mà ở gì nào sao tôi nhé ơi về từ trong
    trên khi hay hoặc cũng sẽ rồi chưa vậy như nên phải làm ấy kia đây đâu mấy
    """.split()
)
_FOLDED_QUERY_STOPWORDS = ENGLISH_QUERY_STOPWORDS | {fold(word) for word in VIETNAMESE_QUERY_STOPWORDS}


# Words that frame an English question when "of" follows ("what kind of music"): a kind person is not.
_QUESTION_FRAMES = frozenset("kind kinds type types sort sorts".split())


def is_query_stopword(written, folded, following=""):
    """Whether a query word (as typed, lower-case, and folded; ``following`` is the next word, folded) says
    nothing about which memory is meant."""
    if written != folded:
        return written in VIETNAMESE_QUERY_STOPWORDS
    return folded in _FOLDED_QUERY_STOPWORDS or (folded in _QUESTION_FRAMES and following == "of")


def says_nothing(words, names=frozenset()):
    """For each word of a query (``[(lower-case as written, folded), …]``, in order), whether it says nothing
    about which memory is meant (``is_query_stopword``, with the word after it, unless the two say something
    together: ``_SAYING_TOGETHER``), nor does a question asking when in words the memory answering it does not
    hold (``_ASKING_WHEN``). ``names``: the folded words the
    query writes as names (``names_written``), which always say something ("What time does An go to bed?")."""
    folded = [word for _, word in words]
    following = folded[1:] + [""]
    pairs = list(enumerate(zip(folded, folded[1:])))
    asking = {index + half for index, pair in pairs if pair in _ASKING_WHEN for half in (0, 1)}
    together = {index + half for index, pair in pairs if pair in _SAYING_TOGETHER for half in (0, 1)}
    return [
        word not in names and index not in together and (index in asking or is_query_stopword(written, word, after))
        for index, ((written, word), after) in enumerate(zip(words, following))
    ]


def names_written(query):
    """The words (folded, lower-case) ``query`` writes as names: capitalised inside a sentence, two letters or
    more ("An" in "What time does An go to bed?", not "I"); none when most of its words are capitalised (a
    title, or a query typed in capitals)."""
    placed = list(words_placed(query))
    capitalised = {
        folded.lower() for word, folded, first in placed if word[:1].isupper() and not first and len(word) > 1
    }
    if 2 * sum(word[:1].isupper() for word, _, _ in placed) > len(placed):
        return frozenset()
    return frozenset(capitalised)


class PhrasalVerb(NamedTuple):
    """A verb and the words after it that mean what one other word does (``meaning``): "gets up" is "wake".
    ``in_queries``: the words a memory may say it with, when a query is read for that word instead of its
    own (None: a query keeps its own words, as "get up" may be "gets up" in a memory and "up" is anywhere)."""

    pattern: re.Pattern
    meaning: str
    in_queries: tuple | None


def _phrasal(pattern, meaning, in_queries=None):
    return PhrasalVerb(re.compile(rf"\b{pattern}\b", re.IGNORECASE), meaning, in_queries)


# "when do I work out?" asks about workouts, not work; "what time do I go to bed?" about sleep however a memory
# says it ("sleeps at 11pm", "goes to bed at 11pm", "bedtime"); "when did my father pass away?" about a death,
# not a passport. The lexicon reads the Vietnamese words as the ``meaning``: "dậy" is wake, "đi ngủ" sleep.
GOING_TO_BED = _phrasal(r"(?:go|goes|went|going|gone)\s+to\s+(?:bed|sleep)", "sleep", ("bed", "bedtime"))
PHRASAL_VERBS = (
    _phrasal(r"work(?:s|ed|ing)?\s+out", "workout", ()),
    _phrasal(r"(?:get|gets|got|getting)\s+up", "wake"),
    GOING_TO_BED,
    _phrasal(r"pass(?:es|ed|ing)?\s+away", "die", ("passed", "deceased", "death", "dead")),
    _phrasal(r"(?:give|gives|gave|given|giving)\s+up", "quit"),
)


# A relative by marriage, read as the lexicon glosses one ("mẹ vợ": "mother", "inlaw"): "mother-in-law" is
# "mother inlaw" (``IN_LAW.sub(" inlaw", text)``).
IN_LAW = re.compile(r"[-\s]in[-\s]laws?\b", re.IGNORECASE)


def phrasal_read(text, in_queries=False):
    """``text`` with each phrasal verb written as the one word it means, as the lexicon reads it: "gets up"
    -> "wake", "went to bed" -> "sleep" (``PHRASAL_VERBS``); ``in_queries``: only those a query is read for
    ("work out" -> "workout"; not "get up")."""
    for phrasal in PHRASAL_VERBS:
        if not in_queries or phrasal.in_queries is not None:
            text = phrasal.pattern.sub(f" {phrasal.meaning} ", text)
    return text


def phrasal_words(query):
    """``{meaning: the other words a memory may say it with}`` for the phrasal verbs ``query`` is read for:
    "what time do I go to bed?" -> ``{"sleep": ("bed", "bedtime")}``."""
    return {
        phrasal.meaning: phrasal.in_queries
        for phrasal in PHRASAL_VERBS
        if phrasal.in_queries and phrasal.pattern.search(query)
    }


# The shortest stem that finds a word by its beginning in the index ("liv" finds "lives", "living").
SHORTEST_PREFIX = 3


def search_words(query):
    """The folded words a search for ``query`` needs every one of, in order, each once, as ``(word, prefix)``:
    its words but those that say nothing about which memory is meant ("which package manager should I use?"
    needs "package", "manager" and "use"), unless that leaves none ("the" is searched as it is). A word may
    be the start of a longer one (typed as one searches) unless it is typed with diacritics, a Vietnamese
    syllable whole ("ngủ", sleep, is not the start of "người"), or is shorter than ``SHORTEST_PREFIX`` ("An"
    is not the start of "and")."""
    found = [
        (written, fold(written).lower())
        for written in re.findall(r"\w+", unicodedata.normalize("NFC", phrasal_read(query, in_queries=True)).casefold())
    ]
    content = [word for word, nothing in zip(found, says_nothing(found, names_written(query))) if not nothing] or found
    prefix = {}
    for written, folded in content:
        prefix[folded] = prefix.get(folded, False) or (written == folded and len(folded) >= SHORTEST_PREFIX)
    return list(prefix.items())


# "es" goes with the "s" after a hiss ("boxes", "watches", "wishes", "classes"), not after a silent "e"
# ("headaches", "houses", "shoes"), and after an "o" only in the verbs and nouns that take it.
_SINGULAR_ENDINGS = (
    *((hiss + "es", hiss) for hiss in ("ss", "sh", "x", "zz", "tch", "nch", "rch", "each", "oach")),
    ("ies", "y"),
    ("ss", "ss"),
    ("us", "us"),
    ("is", "is"),
    ("s", ""),
)
_ES_AFTER_O = {
    "goes": "go",
    "does": "do",
    "echoes": "echo",
    "heroes": "hero",
    "potatoes": "potato",
    "tomatoes": "tomato",
}
_SEARCH_SUFFIXES = ("ing", "ies", "ed", "s")


def singular(word):
    """ "replies" -> "reply", "prefers" -> "prefer", "class" and "status" as they are."""
    if len(word) <= 3 or word[-1] != "s":
        return word
    if word in _ES_AFTER_O:
        return _ES_AFTER_O[word]
    for ending, replacement in _SINGULAR_ENDINGS:
        if word.endswith(ending):
            return word[: -len(ending)] + replacement
    return word


# A folded word that could be a Vietnamese syllable typed without its diacritics: "an", "quan", "tuan".
# Such words are matched whole, never stemmed or taken as a prefix ("an" is not "anh", "quan" not "quang").
# Its vowels are the ones Vietnamese writes together: "eat", "team" or "food" are no syllable.
_VIETNAMESE_SYLLABLE = re.compile(
    r"(ngh|ng|nh|ch|gh|gi|kh|ph|qu|th|tr|[bcdghklmnpqrstvx])?"
    r"(oai|oay|oeo|oao|uay|uoi|uou|uya|uye|uyu|ieu|yeu|a[iouy]?|e[ou]?|i[aeu]?|o[aeio]?|u[aeiouy]?|ye?)"
    r"(ng|nh|ch|[cmnpt])?"
)


def could_be_vietnamese(word):
    """Whether a folded word could be a Vietnamese syllable typed without diacritics ("quan", "go")."""
    return bool(_VIETNAMESE_SYLLABLE.fullmatch(word))


# The English function words of a query that no Vietnamese syllable is spelt like ("what", "when", "did",
# "is"): one of them says the query is English, so its "go" or "run" is the English verb. Single letters
# ("s" of "Lan's") are left out: a Vietnamese chat writes "k" or "m" for whole words.
_ENGLISH_MARKERS = frozenset(
    word for word in ENGLISH_QUERY_STOPWORDS if len(word) > 1 and not could_be_vietnamese(word)
)


def reads_as_english(folded_words):
    """Whether a query (its folded words) is English: it has one of the function words above."""
    return any(word in _ENGLISH_MARKERS for word in folded_words)


# English words whose forms do not share a stem, one word a group: the common irregular verbs (base, past,
# past participle; their "-s" and "-ing" forms are regular) and nouns (singular, plural). Function verbs
# ("be", "have", "do") are query stopwords and left out.
_IRREGULAR_VERBS = """
    arise arose arisen / awake awoke awoken / bear bore borne born / beat beaten / become became /
    begin began begun / bend bent / bite bit bitten / bleed bled / blow blew blown / break broke broken /
    breed bred / bring brought / build built / burn burnt / buy bought / catch caught /
    choose chose chosen / come came / creep crept / deal dealt / dig dug / draw drew drawn /
    dream dreamt / drink drank drunk / drive drove driven / eat ate eaten / fall fell fallen / feed fed /
    feel felt / fight fought / find found / flee fled / fly flew flown flies / forget forgot forgotten /
    forgive forgave forgiven / freeze froze frozen / get got gotten / give gave given / go goes went gone /
    grow grew grown / hang hung / hear heard / hide hid hidden / hold held / keep kept / kneel knelt /
    know knew known / lay laid / lead led / lean leant / learn learnt / leave left / lend lent /
    light lit / lose lost / make made / mean meant / meet met / pay paid / ride rode ridden /
    ring rang rung / rise rose risen / run ran / say said / see saw seen / seek sought / sell sold /
    send sent / shake shook shaken / shine shone / shoot shot / show shown / shrink shrank shrunk /
    sing sang sung / sink sank sunk / sit sat / sleep slept / slide slid / speak spoke spoken /
    spend spent / spin spun / spring sprang sprung / stand stood / steal stole stolen / stick stuck /
    sting stung / strike struck / swear swore sworn / sweep swept / swim swam swum / swing swung /
    take took taken / teach taught / tear tore torn / tell told / think thought / throw threw thrown /
    understand understood / wake woke woken / wear wore worn / weep wept / win won / write wrote written
"""
_IRREGULAR_NOUNS = """
    child children / person people / man men / woman women / foot feet / tooth teeth / mouse mice /
    goose geese / knife knives / wife wives / life lives / leaf leaves / wolf wolves / half halves /
    shelf shelves / thief thieves
"""
_VOWELS = frozenset("aeiou")


def _inflections(base):
    """The regular "-s", "-ed" and "-ing" forms of an English base word, spelling changes included."""
    if base.endswith("ie") and len(base) <= 4:
        return {base + "s", base + "d", base[:-2] + "ying"}  # "die", "dying"; "lie", "tie"
    if base.endswith("e") and not base.endswith("ee"):
        return {base + "s", base + "d", base[:-1] + "ing"}
    if base.endswith("y") and len(base) >= 3 and base[-2] not in _VOWELS:
        return {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
    if base.endswith(("s", "x", "z", "ch", "sh", "o")):
        return {base + "es", base + "ed", base + "ing"}
    # A short word ending in one vowel and one consonant doubles it: "shop", "shopped", "shopping".
    if len(base) <= 4 and base[-1] not in "aeiouwxy" and base[-2] in _VOWELS and base[-3:-2] not in _VOWELS:
        return {base + "s", base + base[-1] + "ed", base + base[-1] + "ing"}
    return {base + "s", base + "ed", base + "ing"}


def _irregular_groups():
    """Each irregular form and every form of its word (of both words, for a form like "lives")."""
    groups = {}
    for table, inflected in ((_IRREGULAR_VERBS, True), (_IRREGULAR_NOUNS, False)):
        for line in table.split("/"):
            base, *others = line.split()
            regular = {form for form in _inflections(base) if not form.endswith("ed")} if inflected else set()
            forms = frozenset({base, *others, *regular})
            for form in forms:
                groups[form] = groups.get(form, frozenset()) | forms
    return groups


_IRREGULAR_FORMS = _irregular_groups()
# Past forms that are other words as often: a direction, a flower, a tool, an insect, a vaccine ("left",
# "rose", "saw", "flies", "shot").
_OTHER_WORDS_TOO = frozenset("left found saw lay lit rose bit fell flies shot born borne sat ring spring".split())
# Each irregular verb's or noun's other forms and its base: "went" and "goes" are "go", "drank" is "drink",
# "children" is "child" ("lives" stays: "life" or "live").
IRREGULAR_BASE = {
    form: base
    for base, *others in (line.split() for line in (_IRREGULAR_VERBS + "/" + _IRREGULAR_NOUNS).split("/"))
    for form in others
    if form not in _OTHER_WORDS_TOO and form != "lives"
}


def english_forms(word):
    """The other forms of a folded English query word: irregular ones ("went": "go", "goes", "going",
    "gone"; "children": "child") or else the regular inflections of its singular ("hikes": "hike",
    "hiked", "hiking"; "family": "families"). Guessed forms that no memory holds cost nothing. Numbers
    and single letters have none."""
    if len(word) < 2 or not word.isalpha():
        return frozenset()
    base = singular(word)
    forms = _IRREGULAR_FORMS.get(word) or _IRREGULAR_FORMS.get(base) or {base, *_inflections(base)}
    return frozenset(forms) - {word}


# What a question asking "when" is answered by: words of time (folded English, Vietnamese as written: its
# folded forms are other words, "tuần" a week and "Tuấn" a name), years and times of day. "May" and "March"
# are left out: more often a verb than a month.
_ENGLISH_TIME_WORDS = frozenset(
    """
    today tonight yesterday tomorrow recently lately ago since week weeks weekend weekends month months
    year years day days night nights morning mornings afternoon evening hour hours
    monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays
    fridays saturdays sundays january february april june july august september october november
    december spring summer autumn winter
    """.split()
)
_VIETNAMESE_TIME_WORDS = frozenset("hôm tuần tháng năm ngày giờ sáng trưa chiều tối đêm lúc".split())
_TIME = re.compile(r"(19|20)\d\d|\d{1,2}(am|pm|h)|\d{1,2}(st|nd|rd|th)")
# The questions that ask when, as folded words side by side: English "what time", "which year", "how
# long"; Vietnamese "khi nào", "bao giờ", "mấy giờ", "bao lâu", "hôm nào".
_WHEN_PAIRS = frozenset(
    [
        *((asking, noun) for asking in ("what", "which") for noun in ("time", "date", "day", "week", "month", "year")),
        ("how", "long"),
        *(("khi", "nao"), ("luc", "nao"), ("bao", "gio"), ("may", "gio"), ("bao", "lau")),
        *((noun, "nao") for noun in ("hom", "ngay", "tuan", "thang", "nam")),
    ]
)
_AUXILIARIES = frozenset("did does do is was will are were has have had can could should would".split())
# The questions asking at what time or for how long, whose words an answer need not hold, writing a time of
# day or a length as it will ("11pm", "23:00", "lúc 11 giờ", "5h45", "for three years"): "what time do I go
# to bed?" is answered by "sleeps at 11pm", "bao giờ hộ chiếu hết hạn?" by "hết hạn tháng 3". Not the
# questions naming a unit of the calendar, which the answer often names too ("the second week of every
# month", "năm 2019", "tháng 6").
_ASKING_WHEN = frozenset(
    [("what", "time"), ("which", "time"), ("how", "long"), ("bao", "gio"), ("may", "gio"), ("bao", "lau")]
)
# Stopwords that say something together: "làm ở", "làm tại" is working somewhere ("anh trai tôi làm ở đâu").
_SAYING_TOGETHER = frozenset([("lam", "o"), ("lam", "tai")])


def asks_when(words):
    """Whether a query (its ``(as written, folded)`` words, lower-case) asks when: it starts with "when",
    has "when" asking a question ("remind me when is the dentist"), or one of the pairs above."""
    folded = [word for _, word in words]
    if folded[:1] == ["when"]:
        return True
    pairs = list(zip(folded, folded[1:]))
    return any(pair in _WHEN_PAIRS or (pair[0] == "when" and pair[1] in _AUXILIARIES) for pair in pairs)


def tells_when(words):
    """Whether a text (its ``(as written, folded)`` words, lower-case) says when: a word of time, a year,
    a time of day or a day of the month."""
    return any(
        folded in _ENGLISH_TIME_WORDS or written in _VIETNAMESE_TIME_WORDS or _TIME.fullmatch(folded)
        for written, folded in words
    )


# The questions that ask where, as folded words side by side: English "which city", "what country";
# Vietnamese "ở đâu", "đi đâu", "chỗ nào", "nước nào". What answers them: a name (a capitalised word) after
# "in", "at", "to", "from", "ở", "tại", "đến"…
_PLACE_NOUNS = "country countries city cities state states place places town towns location restaurant park island"
_WHERE_PAIRS = frozenset(
    [
        *((asking, noun) for asking in ("what", "which") for noun in _PLACE_NOUNS.split()),
        *(("o", "dau"), ("di", "dau"), ("cho", "nao"), ("noi", "nao"), ("nuoc", "nao"), ("tinh", "nao")),
    ]
)
_BEFORE_A_PLACE = re.compile(
    r"\b(?:in|at|to|from|near|around|visit|visits|visited|visiting|ở|tại|đến|từ|sang|ra|vào)\s+(?:the\s+)?(\w)",
    re.IGNORECASE,
)


def asks_where(words):
    """Whether a query (its ``(as written, folded)`` words, lower-case) asks where: it starts with
    "where", has "where" asking a question, or one of the pairs above."""
    folded = [word for _, word in words]
    if folded[:1] == ["where"]:
        return True
    pairs = list(zip(folded, folded[1:]))
    return any(pair in _WHERE_PAIRS or (pair[0] == "where" and pair[1] in _AUXILIARIES) for pair in pairs)


def tells_where(text):
    """Whether a text (as written, capitals and all) names a place: a capitalised word after "in", "at",
    "to", "ở", "tại"…"""
    return any(match.group(1).isupper() for match in _BEFORE_A_PLACE.finditer(text))


# Numbers in words, the one table each language's readers take theirs from: English ones, and Vietnamese
# digits with their marks, said alone ("ba con") or only inside a number ("hai mươi tư", "ba mươi lăm",
# "hai mươi mốt"); folded, as most readers compare them ("mot", "hai", "ba", "bon", "nam", "sau", "bay", "tam",
# "chin").
ENGLISH_NUMBERS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
    )
} | {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}
VIETNAMESE_DIGITS = {"một": 1, "hai": 2, "ba": 3, "bốn": 4, "năm": 5, "sáu": 6, "bảy": 7, "bẩy": 7, "tám": 8, "chín": 9}
IN_VIETNAMESE_NUMBERS = {"mốt": 1, "tư": 4, "lăm": 5}
FOLDED_VIETNAMESE_DIGITS = {fold(word): value for word, value in VIETNAMESE_DIGITS.items()}

# An amount's scale, folded, the one table the readers of amounts take theirs from: "200k" and "200 nghìn" are
# 200,000; "15tr", "15 triệu" and "15 million" 15,000,000; "2 tỷ" ("ty", "ti") and "2 billion" 2,000,000,000.
AMOUNT_SCALES = {
    "k": 1_000,
    "nghin": 1_000,
    "ngan": 1_000,
    "tr": 1_000_000,
    "trieu": 1_000_000,
    "million": 1_000_000,
    "ty": 1_000_000_000,
    "ti": 1_000_000_000,
    "billion": 1_000_000_000,
    "bn": 1_000_000_000,
}
# The scales as a regular expression's alternation, the longest first ("trieu" before "tr").
SCALE_WORDS = "|".join(sorted(AMOUNT_SCALES, key=len, reverse=True))
# Digits grouping thousands ("8,000,000", "200.000"), read as thousands in either language.
THOUSANDS = re.compile(r"^\d{1,3}(?:[.,]\d{3})+$")
# In a folded text: an amount with its scale, and a half or the next digit after it ("8tr5", "8 trieu ruoi" are
# 8,500,000), not a race ("5k run"); digits grouping thousands alone; a phone number written in groups ("0912
# 345 678", "+84 912.345.678").
_SCALED = re.compile(
    rf"(?<![\w.,])(\d+(?:[.,]\d+)*)\s*({SCALE_WORDS})"
    r"(?:(\d)(?!\d)|\s+(ruoi)\b)?(?!\w)(?!\s+(?:fun\s+)?(?:runs?|races?|walks?)\b)"
)
_GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?:[.,]\d{3})+(?!(?!d\b)\w|[.,]\d)")
# What any of the three needs: digits apart by a space, a point, a comma or a dash, or a scale after digits.
_MAY_HOLD_AMOUNT = re.compile(rf"\d(?:[ .,-]\+?\d|\s*(?:{SCALE_WORDS}))")
_DONG_AFTER = re.compile(r"(?<=\d{4})d\b")
_RUN = re.compile(r"\b(?:chay|runs?|ran|jogs?)\s*$")
_PHONE = re.compile(r"(?<![\w.,+])((?:\+|0)\d{1,4}(?:[ .-]\d{2,4}){2,3})(?![\w]|[.,]\d)")


def amount(digits, scale=""):
    """The value of ``digits`` (grouping thousands or with a decimal point or comma) times its ``scale``."""
    number = re.sub(r"[.,]", "", digits) if THOUSANDS.match(digits) else digits.replace(",", ".", 1)
    return float(number) * AMOUNT_SCALES.get(scale, 1)


def _scaled(match):
    digits, scale, next_digit, half = match.groups()
    if digits.count(".") + digits.count(",") > 1 and not THOUSANDS.match(digits):
        return match[0]
    if scale == "k" and _RUN.search(match.string, 0, match.start()):
        return match[0]  # "chạy 5k" is a race of 5 km
    value = amount(digits, scale)
    if next_digit or half:
        value += (int(next_digit) / 10 if next_digit else 0.5) * AMOUNT_SCALES[scale]
    return f"{value:.0f}" if value.is_integer() else str(value)


def amounts_in_digits(folded):
    """``folded`` with each amount written as one number of digits, however it was written ("8 million",
    "8,000,000", "8tr" and "8 trieu" are "8000000"), and a phone number written in groups as one ("0912 345
    678" is "0912345678")."""
    if not _MAY_HOLD_AMOUNT.search(folded):
        return folded
    folded = _PHONE.sub(lambda match: re.sub(r"[ .-]", "", match[1]) if _phone_length(match[1]) else match[0], folded)
    folded = _SCALED.sub(_scaled, folded)
    folded = _GROUPED.sub(lambda match: re.sub(r"[.,]", "", match[0]), folded)
    # "200.000đ" is 200,000 dong: the sign apart from its amount.
    return _DONG_AFTER.sub(" d", folded)


def _phone_length(written):
    return 9 <= sum(character.isdigit() for character in written) <= 13


# Vietnamese numbers in words, with their marks. "hai", "bốn", "sáu", "bảy" and "tám" are numbers before any
# word ("hai chị gái"), and so are numbers of two words ("hai mươi lăm nhân viên", "mười hai"); "ba" (also a
# father), "năm" (also a year) and "chín" (also ripe) only before what they count ("ba con", "năm con mèo", "ba
# năm"), never before "người dùng" ("ba người dùng" is the user's father). None is an ordinal ("thứ Hai"), a
# name written with a capital ("Hai Bà Trưng") or a nickname after an honorific ("anh Hai", "chú Sáu"). A text
# typed without marks has "hai", "ba" and "bon". "một" is as often "a" as one.
_VIETNAMESE_DIGITS = VIETNAMESE_DIGITS | IN_VIETNAMESE_NUMBERS | {"bon": 4}
_COUNTED = (
    "con đứa người cái chiếc quả trái cuốn quyển căn ngôi tầng lần buổi ngày tuần tháng năm tiếng giờ phút tuổi "
    "cốc ly chai lon gói điếu bát tô chén cân ký cây bộ đôi km kg triệu nghìn ngàn trăm tỷ tỉ cuộc bài môn tập"
).split()
_COUNTED += sorted({fold(word) for word in _COUNTED} - set(_COUNTED))
_DIGIT = "hai|ba|bốn|năm|sáu|bảy|bẩy|tám|chín"
_NOT_AFTER = "".join(
    rf"(?<!{word} )"
    for word in "thứ thu anh chị chú cô bác ông bà em dì cậu mợ thím dượng".split()
    + "Thứ Anh Chị Chú Cô Bác Ông Bà Em Dì Cậu".split()
)
_VIETNAMESE_NUMBER = re.compile(
    rf"(?<!\w){_NOT_AFTER}(?:"
    rf"(?i:(?P<tens>{_DIGIT})\s+mươi(?:\s+(?P<ones>mốt|hai|ba|bốn|tư|lăm|sáu|bảy|bẩy|tám|chín))?"
    rf"|(?P<ten>mười)(?:\s+(?P<teen>một|hai|ba|bốn|lăm|sáu|bảy|bẩy|tám|chín))?)(?=\s+\w)"
    rf"|(?P<plain>hai|bốn|sáu|bảy|bẩy|tám)(?=\s+\w)"
    rf"|(?i:(?P<digit>{_DIGIT}|bon))(?=\s+(?i:{'|'.join(_COUNTED)})(?!\w)(?!\s+dùng\b|\s+dung\b))"
    r")"
)

_MAY_COUNT = re.compile(rf"(?<!\w)(?:{_DIGIT}|mười|bon)(?!\w)", re.IGNORECASE)


def _vietnamese_number(match):
    def digit(name):
        return _VIETNAMESE_DIGITS.get((match[name] or "").lower(), 0)

    if match["tens"]:
        return str(10 * digit("tens") + digit("ones"))
    if match["ten"]:
        return str(10 + digit("teen"))
    return str(digit("plain") or digit("digit"))


def counts_in_digits(text):
    """``text`` with the Vietnamese numbers it says in words before what they count written in digits: "Người
    dùng có ba con" is "… có 3 con", "hai mươi lăm tuổi" "25 tuổi"; "Ba người dùng", "thứ Ba", "năm nay" stay."""
    if not _MAY_COUNT.search(text):
        return text
    return _VIETNAMESE_NUMBER.sub(_vietnamese_number, text)


# The days a question names ("on 16 June, 2023", "August 11th", "in July 2023", "2023-06-16", "ngày 16
# tháng 6 năm 2023", "tháng 6 năm 2023"), read from its folded text. A month alone names no period: "in
# June" is too often a plan or a habit, and "may" or "march" a verb.
# The calendar, folded: the months and the days of the week in English; the Vietnamese days of the week by
# number ("thứ 2, 4 và 6", "t3") and by name ("thứ Hai" is 2, "Chủ nhật" and "CN" Sunday).
MONTHS = "january february march april may june july august september october november december".split()
WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
VIETNAMESE_WEEKDAYS = {"hai": 2, "ba": 3, "tu": 4, "nam": 5, "sau": 6, "bay": 7}
DAYS_BY_NUMBER = r"\b(?:thu|t)\s*([2-7](?:\s*(?:,|va|and|-)\s*(?:thu\s*|t)?[2-7])*)\b"
DAY_BY_NAME = r"\bthu (hai|ba|tu|nam|sau|bay)\b|\bchu nhat\b|\bcn\b"
# Each month's name and short forms -> its number.
MONTH_NUMBERS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
# A month as written, in full or short, with its dot ("Sept."), longest first: a group of its own.
MONTH_WRITTEN = "(" + "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True)) + r")\.?"
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_NAMED_DAYS = [
    # (pattern, the groups of day, month and year), each found anywhere in the folded query.
    (re.compile(rf"\b{_ORDINAL}\s+(?:of\s+)?{MONTH_WRITTEN}(?:\s*,?\s*{_YEAR})?\b"), (1, 2, 3)),
    (re.compile(rf"\b{MONTH_WRITTEN}\s+{_ORDINAL}\b(?:\s*,?\s*{_YEAR}\b)?"), (2, 1, 3)),
    (re.compile(rf"\b{MONTH_WRITTEN}\s*,?\s*{_YEAR}\b"), (None, 1, 2)),
    (re.compile(rf"\b{_YEAR}-(\d{{1,2}})-(\d{{1,2}})\b"), (3, 2, 1)),
    (re.compile(rf"\bngay\s+(\d{{1,2}})\s+thang\s+(\d{{1,2}})(?:\s*(?:nam\s+|,\s*|/)?{_YEAR})?\b"), (1, 2, 3)),
    (re.compile(rf"\bthang\s+(\d{{1,2}})\s*(?:nam\s+|,\s*|/){_YEAR}\b"), (None, 1, 2)),
]


def _month_number(text):
    return MONTH_NUMBERS.get(text) or int(text)


def _period(day, month, year, today):
    """The named day (or month, when ``day`` is None) as ``(first day, day after)``; a day without a year
    is its last occurrence up to ``today``. None for a day no calendar has."""
    try:
        if day is None:
            first = datetime.date(year, month, 1)
            return first, datetime.date(year + month // 12, month % 12 + 1, 1)
        first = datetime.date(year or today.year, month, day)
        if year is None and first > today:
            first = first.replace(year=today.year - 1)
        return first, first + datetime.timedelta(days=1)
    except ValueError:
        return None


def named_period(text, today):
    """The days a query names, from the first to the last, as ``(first day, day after the last)``, or None:
    "on 16 June, 2023", "between August 11 and August 15 2023" (a day without its year takes the year
    named beside it), "in July 2023", "ngày 16 tháng 6"."""
    folded = fold(text)
    named, taken = [], set()
    for pattern, (day, month, year) in _NAMED_DAYS:
        for match in pattern.finditer(folded):
            span = set(range(*match.span()))
            if not span & taken:
                taken |= span
                named.append(
                    (
                        int(match.group(day)) if day else None,
                        _month_number(match.group(month)),
                        int(match.group(year)) if match.group(year) else None,
                    )
                )
    years = [year for _, _, year in named if year]
    periods = [_period(day, month, year or (years[0] if years else None), today) for day, month, year in named]
    periods = [period for period in periods if period]
    if not periods:
        return None
    return min(first for first, _ in periods), max(after for _, after in periods)


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def names_a_room(folded_words, place):
    """Whether the word at ``place`` of ``folded_words`` is the "-ing" of a room ("living room", "dining room",
    "meeting room"): a kind of room, not the verb, so that "where do I live" (or "sống ở đâu") is not answered
    by "the router is in the living room". Retrieval matches it only to a query word spelt as it is."""
    return (
        folded_words[place].endswith("ing")
        and place + 1 < len(folded_words)
        and folded_words[place + 1] in ("room", "rooms")
    )


def one_typo_away(word):
    """Every word one typo from a folded ``word``: a letter left out, added or changed, or two neighbouring
    letters swapped ("educaton" -> "education", "persue" -> "pursue")."""
    splits = [(word[:index], word[index:]) for index in range(len(word) + 1)]
    left_out = {start + end[1:] for start, end in splits if end}
    swapped = {start + end[1] + end[0] + end[2:] for start, end in splits if len(end) > 1}
    changed = {start + letter + end[1:] for start, end in splits if end for letter in _LETTERS}
    added = {start + letter + end for start, end in splits for letter in _LETTERS}
    return (left_out | swapped | changed | added) - {word}


def search_stem(word):
    """A crude English stem that every form of the word starts with: "replies" and "replied" -> "repl",
    "moving" -> "mov"."""
    for suffix in _SEARCH_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) >= 4 and word[-1] == word[-2]:
                word = word[:-1]
            break
    if len(word) >= 5 and word.endswith("e"):
        word = word[:-1]
    return word


# Where a sentence ends: the next word starts one, and a capital there says nothing of a name.
SENTENCE_END = re.compile(r"[.!?;:\n]")
# A word as written: letters only.
WRITTEN_WORD = re.compile(r"[^\W\d_]+")


def words_placed(text):
    """``(word, folded, first)`` for each word of ``text`` as written, ``first`` when it starts a sentence."""
    tokens = list(WRITTEN_WORD.finditer(text))
    for index, match in enumerate(tokens):
        first = not index or bool(SENTENCE_END.search(text, tokens[index - 1].end(), match.start()))
        yield match.group(), fold(match.group()), first


def spelt_as_a_name(word):
    """A word in capitals or with a capital inside ("VS", "VSCode", "LaTeX"): a name even where a sentence
    starts."""
    return word.isupper() or any(letter.isupper() for letter in word[1:])


# A proposal compares itself with up to 50 memories of its subject, and the next proposal on that subject
# with mostly the same ones: their words are worked out once.
@functools.lru_cache(maxsize=4096)
def words(text):
    """The words that carry a memory's meaning, folded and singular, sorted (word order does not count)."""
    folded = _OWNER_PHRASES.sub(" ", fold(text))
    return tuple(sorted(singular(word) for word in WORD.findall(folded) if word not in FILLER_WORDS))


# A memory's words in the order it says them (``sequence``), with three marks standing for what the
# order is read around: the owner (who is often one of the parties), the joints of a list or of clauses
# ("and", "or", a comma before a space), and "is" (whose two sides may change places).
OWNER = "@"
JOINT = "&"
IS = "="
POSSESSIVE = "'s"
_OWNER_WORDS = frozenset(["user", "users", "owner"])
_JOINTS = frozenset(["and", "or", "va", "hoac"])
_COPULAS = frozenset(["is", "are", "was", "were", "la"])
# A comma or a full stop only joins when a space or the end follows: "1,5" and "1.5" are numbers.
_SEQUENCE_TOKEN = re.compile(r"(\w+)(['’]s\b)?|[,;.!?]+(?=\s|$)")


@functools.lru_cache(maxsize=4096)
def sequence(text):
    """The words of ``text`` as ``words`` keeps them (folded, singular, no filler), in the text's order,
    with the marks above; a possessive stays on its word ("Lan's" -> "lan's"), since it says whose."""
    folded = _OWNER_PHRASES.sub(" user", fold(text))
    tokens = []
    for match in _SEQUENCE_TOKEN.finditer(folded):
        word, possessive = match.groups()
        if word is None or word in _JOINTS:
            token = JOINT
        elif word in _COPULAS:
            token = IS
        elif word in _OWNER_WORDS:
            token = OWNER + (POSSESSIVE if possessive else "")
        elif word in FILLER_WORDS:
            continue
        else:
            token = singular(word) + (POSSESSIVE if possessive else "")
        if token == JOINT and (not tokens or tokens[-1] == JOINT):
            continue
        tokens.append(token)
    if tokens and tokens[-1] == JOINT:
        tokens.pop()
    return tuple(tokens)


VIETNAMESE = "vi"
# Letters only Vietnamese uses among the languages written in Latin letters (with "đ", the breve, the horn
# and the dot below or hook above), and the marks it shares with French or Spanish.
_VIETNAMESE_MARKS = re.compile("[ăắằẳẵặđơớờởỡợưứừửữựạảẹẻẽịỉĩọỏụủũỵỷỹầấẩẫậềếểễệồốổỗộàáâãèéêìíòóôõùúý]", re.IGNORECASE)
# Of those, the letters no other language written in Latin letters has: "đ", the breve, the horn, the dot
# below, the hook above, and the circumflex with a tone.
_VIETNAMESE_ONLY = re.compile("[ăắằẳẵặđơớờởỡợưứừửữựạảẹẻẽịỉĩọỏụủũỵỷỹầấẩẫậềếểễệồốổỗộ]", re.IGNORECASE)
# The share of a text's words that must look Vietnamese for it to be Vietnamese, with some of them marked
# and with none.
_VIETNAMESE_SHARE = 0.6
_UNMARKED_VIETNAMESE_SHARE = 0.75
_ENGLISH_ENDING = re.compile(r"[a-z]{2,}(?:s|ed|ing)")
# Typed without marks, Vietnamese function words and words of time no English text has: with one of them, a
# text with English loanwords ("a Khoi dang lead team backend") needs no more words looking Vietnamese than a
# text with marks does.
_PLAIN_VIETNAMESE = frozenset(
    "cua nha nhe dang khong duoc roi voi thi cung nhung cho dung len cuoi thang tuan hom sang chieu trua moi"
    " nhieu gio phut".split()
)
# Vietnamese chat writes some words in letters no syllable has: "ng" (người), "ko" (không), "dc" (được).
_CHAT_WORDS = frozenset("ng ko dc cf ny vs hok khg kh nx bn mk nhg ck vk cn".split())
_PLAIN_OR_CHAT = _PLAIN_VIETNAMESE | _CHAT_WORDS


def _judged_words(text):
    """The words of ``text`` that tell its language: not numbers or single letters, and not names (a word
    capitalised inside a sentence is the same in both languages: "Minecraft", "Đà Nẵng")."""
    found, first = [], True
    for match in re.finditer(r"[^\W_]+|[.!?;:\n]", text):
        word = match.group()
        if word in ".!?;:\n":
            first = True
            continue
        if len(word) > 1 and not any(c.isdigit() for c in word) and (first or not word[0].isupper()):
            found.append(word)
        first = False
    return found


def language_of(text):
    """``"vi"`` for a text in Vietnamese, else ``""``. Most of its words (names aside) must look Vietnamese:
    written with its marks, a chat abbreviation ("ko", "ng"), or a syllable it could be typed without
    them that is no English function word. Typed without any marks, it must have no English function word
    at all and nearly every word must look so ("nguoi dung an chay"). An English sentence with a
    Vietnamese name or dish in it ("Tuấn owes the user 500k") stays English; a Vietnamese one with an
    English word or two ("Anh Huy dùng tmux trong terminal") stays Vietnamese."""
    written = _judged_words(text)
    if not written:
        return ""
    folded = [fold(word).lower() for word in written]
    # A word with marks is Vietnamese as a syllable of it: "café" and "fiancé" are English words with a French
    # mark.
    marks = [
        bool(_VIETNAMESE_MARKS.search(word)) and could_be_vietnamese(plain) for word, plain in zip(written, folded)
    ]
    marked = sum(marks)
    if reads_as_english(folded) and not any(_VIETNAMESE_ONLY.search(word) for word in written):
        return ""  # "is", "the", with at most a French mark: "Khoa is Thảo's fiancé"
    looking = marked + sum(
        not mark and (plain in _CHAT_WORDS or could_be_vietnamese(plain) and plain not in _ENGLISH_MARKERS)
        for mark, plain in zip(marks, folded, strict=True)
    )
    # The first word of a sentence may be a name with marks ("Quyên goes to yoga"): marks on those alone do not
    # make a text with English endings Vietnamese.
    marked_inside = any(mark and not word[0].isupper() for mark, word in zip(marks, written, strict=True))
    if not marked_inside and any(
        _ENGLISH_ENDING.fullmatch(plain) and not could_be_vietnamese(plain) for plain in folded
    ):
        return ""  # "wakes", "planned", "running": no Vietnamese syllable ends so
    judged = len(written)
    if not marked_inside and marked:
        # Marks on capitalised words alone are a name's: "Tú left Viettel in March" is judged on its other words.
        looking, judged, marked = looking - marked, judged - marked, 0
        if not judged:
            return VIETNAMESE
    plainly = marked or _PLAIN_OR_CHAT.intersection(folded)
    typed_plainly = {plain for word, plain in zip(written, folded, strict=True) if word.lower() == plain}
    if (marked or _PLAIN_OR_CHAT & typed_plainly) and not reads_as_english(folded):
        # Vietnamese borrows English words as they are ("a Khoi dang lead team backend"): with no English
        # function word, a word no syllable is spelt like is one of those, and tells neither language; one
        # with an English ending ("eats", "times") is no word borrowed.
        judged -= sum(
            not mark
            and plain not in _CHAT_WORDS
            and not could_be_vietnamese(plain)
            and not _ENGLISH_ENDING.fullmatch(plain)
            for mark, plain in zip(marks, folded, strict=True)
        )
        if judged <= 0:
            return ""
    share = _VIETNAMESE_SHARE if plainly else _UNMARKED_VIETNAMESE_SHARE
    return VIETNAMESE if looking >= share * judged else ""
