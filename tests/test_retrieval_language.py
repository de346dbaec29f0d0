"""How retrieval reads a natural-language query (SPEC §4): the other forms of its English words, the
words of a question that say nothing, what answers a question (when, where, which day), typos, and Vietnamese
left as it is. Every test runs on SQLite and on PostgreSQL."""

from datetime import UTC, date, datetime

import pytest
import time_machine

from memories.language.words import (
    asks_when,
    asks_where,
    could_be_vietnamese,
    english_forms,
    named_period,
    names_written,
    singular,
    tells_when,
    tells_where,
)
from memories.retrieval import build_context
from memories.retrieval.relevance import query_terms, tokens
from tests.factories import add_memory

pytestmark = pytest.mark.django_db


def everywhere(text):
    return add_memory(text).pk


def found(query):
    return [item.id for item in build_context(query, record_access=False).items if item.layer == "working"]


# ---------------------------------------------------------------------------------------------------
# English word forms


def test_an_irregular_verb_finds_its_other_forms_both_ways():
    went = everywhere("Lan went to Da Lat in May.")
    stayed = everywhere("Lan stayed home in May.")
    bought = everywhere("Minh bought a new bike.")
    sold = everywhere("Minh sold his old bike.")

    assert found("Where did Lan go in May?")[0] == went
    assert found("What did Minh buy?")[0] == bought
    assert found("Which bike did Minh go and buy?")[0] == bought
    assert stayed in found("Where did Lan go in May?")
    assert sold in found("What did Minh buy?")
    # And the other way: a question in the past finds the memory in the present.
    goes = everywhere("Hoa goes swimming every Sunday.")
    assert found("Who went swimming?")[0] == goes


def test_an_irregular_plural_finds_its_singular_and_back():
    child = everywhere("Hoa has one child, a son called Bin.")
    everywhere("Hoa has a cat called Miu.")
    people = everywhere("Tuan met new people at the climbing gym.")
    everywhere("Tuan climbs twice a week.")

    assert found("How many children does Hoa have?")[0] == child
    assert found("Which person did Tuan meet at the gym?")[0] == people


def test_regular_forms_the_stem_does_not_reach_are_found():
    hiking = everywhere("Went hiking in the hills with Lan.")
    families = everywhere("Both families met for dinner.")
    shopping = everywhere("Loves shopping for vinyl records.")
    everywhere("Lan likes the hills.")

    assert found("Does she hike?") == [hiking]
    assert found("family dinner")[0] == families
    assert found("What does she shop for?") == [shopping]


def test_two_forms_side_by_side_find_their_memory_among_many(monkeypatch):
    """ "buy tea" finds "bought tea" by the phrase, where neither word alone would pick it out."""
    market = everywhere("Lan bought tea for her mother.")
    for n in range(60):
        everywhere(f"Lan drinks tea {n} times a week and buys cakes.")
    monkeypatch.setattr("memories.retrieval.relevance.LexicalBackend.selective_documents", 1)
    assert found("Did Lan buy tea?")[0] == market


def test_english_forms_are_words_not_numbers():
    assert english_forms("went") == {"go", "goes", "going", "gone"}
    assert english_forms("children") == {"child"}
    assert english_forms("hike") == {"hikes", "hiked", "hiking"}
    assert english_forms("2023") == frozenset()


# ---------------------------------------------------------------------------------------------------
# The words of a question that say nothing about which memory is meant


def test_a_possessive_s_matches_nothing():
    office = everywhere("Lan works from an office in District 1.")
    bike = everywhere("Minh's bike is red.")

    assert found("Where is Lan's office?") == [office]
    assert bike not in found("What's Lan's office like?")
    assert [term.text for term in query_terms("Where's Lan's office? Didn't she say?")] == ["lan", "offic"]


def test_the_frame_and_hedges_of_a_question_are_left_out():
    assert [term.text for term in query_terms("What kind of music would Lan likely enjoy?")] == [
        "music",
        "lan",
        "enjoy",
    ]
    assert [term.text for term in query_terms("What did Minh say he might cook?")] == ["minh", "cook"]
    # "kind" frames a question only before "of".
    assert [term.text for term in query_terms("Is Lan a kind person?")] == ["lan", "kind", "person"]
    sushi = everywhere("Lan loves sushi.")
    said = everywhere("Minh said he is likely to move in June.")
    assert found("What did Lan say about sushi? Would she likely eat it?") == [sushi]
    assert said not in found("What did Lan say about sushi?")


def test_a_phrasal_verb_is_read_as_the_word_it_means_however_a_memory_says_it():
    sleeps = everywhere("User sleeps around 11pm and wakes at 6am.")
    to_bed = everywhere("Lan goes to bed at 10pm.")
    everywhere("User's daughter goes to Sunrise primary school.")
    passport = everywhere("User's passport expires in March 2027.")
    passed = everywhere("Minh's grandfather passed away in 2010.")
    father = everywhere("Bố của người dùng đã mất năm 2019.")

    assert [term.text for term in query_terms("What time do I go to bed?")] == ["sleep"]
    assert set(found("What time do I go to bed?")[:2]) == {sleeps, to_bed}
    # "pass away" is a death, not the start of "passport"; the memory in Vietnamese says "mất" (died).
    assert found("When did my father pass away?")[:1] == [father]
    assert passport not in found("When did my father pass away?")
    assert found("When did Minh's grandfather pass away?")[:1] == [passed]
    assert "dying" in english_forms("die") and "diing" not in english_forms("die")


def test_a_light_verb_counts_for_less_than_what_the_question_is_about():
    coffee = everywhere("User drinks black coffee every morning at 7am.")
    vitamin = everywhere("User takes vitamin D every day.")
    assert found("How do I take my coffee?")[:2] == [coffee, vitamin]


def test_the_words_of_a_question_asking_at_what_time_are_left_out():
    assert [term.text for term in query_terms("What time is the dentist?")] == ["dentist"]
    assert [term.text for term in query_terms("tôi mấy giờ đi ngủ")] == ["di", "ngu"]
    assert [term.text for term in query_terms("bao giờ hộ chiếu hết hạn")] == ["ho", "chieu", "het", "han"]
    # A unit of the calendar the answer may name stays: "the second week of every month".
    assert "week" in [term.text for term in query_terms("Which week am I on call?")]
    sleeps = everywhere("User sleeps around 11pm.")
    bus = everywhere("Người dùng đi làm bằng xe buýt số 12.")
    # "đi" alone is not all of "đi ngủ": the memory that says sleep, in English, comes first.
    assert found("tôi mấy giờ đi ngủ")[:2] == [sleeps, bus]


def test_a_name_written_as_a_name_is_never_a_word_that_says_nothing():
    assert names_written("What time does An go to bed?") == {"an"}
    assert names_written("What Time Does An Go To Bed?") == frozenset()
    assert [term.text for term in query_terms("What time does An go to bed?")] == ["an", "sleep"]
    daughter = everywhere("Bé An đi ngủ lúc 8 giờ tối.")
    owner = everywhere("The owner tries to be in bed by 11 p.m. and puts his phone away at 10:30.")
    assert found("What time does An go to bed?")[:2] == [daughter, owner]
    # In a query typed with diacritics, "An" is not "ăn" (eat); typed without any, it may be.
    (name,) = [term for term in query_terms("Mỗi sáng bé An uống vitamin gì?") if term.text == "an"]
    assert name.weight("an") == 1 and name.weight("ăn") == 0
    (word,) = [term for term in query_terms("Mỗi sáng bé ăn gì?") if term.text == "an"]
    assert word.weight("ân") == 0.5
    (either,) = [term for term in query_terms("moi sang be An uong vitamin gi") if term.text == "an"]
    assert either.weight("ăn") == 1


# ---------------------------------------------------------------------------------------------------
# What answers a question


def test_a_question_asking_when_prefers_the_memory_that_says_when():
    why = everywhere("Lan moved to Hue for work.")
    when = everywhere("Lan moved to Hue in 2019.")
    vi_why = everywhere("Lan chuyển vào Huế để học.")
    vi_when = everywhere("Lan chuyển vào Huế năm 2019.")

    assert found("When did Lan move to Hue?")[:2] == [when, why]
    # "năm 2019" says the year in so many words: the memory in Vietnamese answers too, read in English.
    asked_year = found("What year did Lan move to Hue?")
    assert asked_year[0] in (when, vi_when) and asked_year.index(when) < asked_year.index(why)
    assert found("Why did Lan move to Hue?")[:2] == [why, when]
    assert found("Lan chuyển vào Huế khi nào?")[:2] == [vi_when, vi_why]
    # "Lan moved to Hue for work" answers it too, read in English: of the two in Vietnamese, why comes first.
    asked_why = found("Lan chuyển vào Huế để làm gì?")
    assert asked_why[0] == vi_why and asked_why.index(vi_why) < asked_why.index(vi_when)


def test_when_asks_only_as_a_question_word():
    def asks(query):
        return asks_when(tokens(query))

    assert asks("When did Lan move to Hue?")
    assert asks("remind me when is the dentist")
    assert asks("How long has Minh worked there?")
    assert asks("bao giờ Lan về quê")
    assert not asks("How did Lan feel when she moved to Hue?")
    assert not asks("Where does Lan live?")
    assert tells_when(tokens("Went to Hue last weekend."))
    assert tells_when(tokens("Họp lúc 9h sáng thứ hai."))
    assert not tells_when(tokens("Tuấn thích trà."))


def test_a_question_asking_where_prefers_the_memory_that_names_a_place():
    hiking = everywhere("Lan went hiking with friends last summer.")
    nang = everywhere("Lan went to Da Nang last summer.")
    flat = everywhere("Minh moved to a new flat.")
    hue = everywhere("Minh moved to Hue for work.")
    parents = everywhere("Lan sống cùng bố mẹ.")
    city = everywhere("Lan sống ở Đà Lạt.")

    assert found("Where did Lan go last summer?")[:2] == [nang, hiking]
    assert found("What did Lan do last summer?")[:2] == [hiking, nang]
    assert found("Which city did Minh move to?")[:2] == [hue, flat]
    assert found("Lan sống ở đâu?")[:2] == [city, parents]


def test_where_asks_and_a_place_is_named():
    def asks(query):
        return asks_where(tokens(query))

    assert asks("Where does Lan live?")
    assert asks("Which country did Minh visit?")
    assert asks("hôm qua Lan đi đâu")
    assert not asks("What did Lan eat?")
    assert tells_where("Went to Hue with Minh.")
    assert tells_where("Sống ở Hà Nội từ 2019.")
    assert not tells_where("Went to the gym.")
    assert not tells_where("In 2019 she moved.")


def written_on(text, day):
    return add_memory(text, created_at=datetime(day.year, day.month, day.day, 15, 0, tzinfo=UTC)).pk


def test_a_question_naming_a_day_finds_the_memories_written_that_day():
    gym = written_on("Lan joined a gym near her office.", date(2023, 6, 16))
    cat = written_on("Lan adopted a grey cat.", date(2023, 6, 16))
    bike = written_on("Bought a second-hand bike.", date(2023, 6, 16))
    later = written_on("Lan likes her new gym.", date(2023, 7, 2))
    for n in range(30):
        written_on(f"Lan went swimming in May with friend {chr(97 + n)}x.", date(2023, 5, 1 + n % 28))

    # A memory of that day holding no word of the question is found by its day alone.
    assert set(found("What did Lan do on 16 June, 2023?")[:3]) == {gym, cat, bike}
    assert set(found("Lan làm gì ngày 16 tháng 6 năm 2023?")[:3]) == {gym, cat, bike}
    assert set(found("What happened on 2023-06-16?")) == {gym, cat, bike}
    assert found("What did Lan start at the gym on June 16th, 2023?")[0] == gym
    assert found("What did Lan say about the gym in July 2023?")[0] == later


def test_a_day_without_a_year_is_the_last_one_and_a_day_without_memories_changes_nothing():
    gym = written_on("Lan joined a gym near her office.", date(2023, 6, 16))
    everywhere("Lan goes to the gym on Mondays.")
    with time_machine.travel(datetime(2023, 12, 1, tzinfo=UTC)):
        assert found("What did Lan do at the gym on June 16?")[0] == gym
    assert found("Lan gym on 3 March 2020") == found("Lan gym")


def test_the_days_a_question_names():
    today = date(2026, 12, 1)
    assert named_period("on 16 June, 2023", today) == (date(2023, 6, 16), date(2023, 6, 17))
    assert named_period("on December 1,2023", today) == (date(2023, 12, 1), date(2023, 12, 2))
    assert named_period("between August 11 and August 15 2023", today) == (date(2023, 8, 11), date(2023, 8, 16))
    assert named_period("in July 2023", today) == (date(2023, 7, 1), date(2023, 8, 1))
    assert named_period("in December 2023", today) == (date(2023, 12, 1), date(2024, 1, 1))
    assert named_period("tháng 6 năm 2023", today) == (date(2023, 6, 1), date(2023, 7, 1))
    assert named_period("ngày 3 tháng 5", today) == (date(2026, 5, 3), date(2026, 5, 4))
    assert named_period("on Dec 25th", today) == (date(2025, 12, 25), date(2025, 12, 26))
    assert named_period("in June", today) is None
    assert named_period("may I ask about March?", today) is None
    assert named_period("on 30 February 2023", today) is None


# ---------------------------------------------------------------------------------------------------
# Typos


def test_a_word_no_memory_holds_is_read_as_the_known_word_one_typo_away():
    education = everywhere("Lan went back to university to continue her education in nursing.")
    everywhere("Lan plays badminton on Fridays.")
    pursue = everywhere("Minh wants to pursue a career in law.")

    assert found("What does Lan study in her educaton?")[0] == education
    assert found("What career does Minh want to persue?")[0] == pursue
    assert found("educatoin") == [education]


def test_a_known_word_a_short_word_or_a_vietnamese_syllable_is_never_corrected():
    bakery = everywhere("Minh visited the bakery on Hang Bac street.")
    everywhere("Minh's uncle is a baker.")
    everywhere("Nguyệt thích trà sen.")
    everywhere("The cat sleeps on the sofa.")

    assert found("bakery") == [bakery]
    assert found("nguyen") == []
    assert found("cta") == []


# ---------------------------------------------------------------------------------------------------
# Vietnamese is not English


def test_a_vietnamese_query_gets_no_english_forms():
    table = everywhere("Mua bàn gỗ cho phòng khách.")
    trip = everywhere("Lan went to Hue last spring.")

    assert found("ban go phong khach") == [table]
    assert found("bàn gỗ") == [table]
    assert trip not in found("ban go")
    assert all(not term.forms for term in query_terms("ban go phong khach"))
    assert all(not term.forms for term in query_terms("Minh sống ở đâu"))


@pytest.mark.parametrize(
    ("word", "syllable"),
    [
        *((word, True) for word in "an quan tuan nguyen khuya nguoi huou xoay thuong tieng yeu gieng ngoao".split()),
        # Vowels no Vietnamese syllable writes together.
        *((word, False) for word in "eat meat team read beach food book".split()),
    ],
)
def test_a_word_could_be_a_vietnamese_syllable_only_with_the_vowels_vietnamese_writes_together(word, syllable):
    assert could_be_vietnamese(word) == syllable


def test_an_english_word_no_syllable_is_spelt_like_finds_its_other_forms():
    eats = everywhere("Lan eats oatmeal every morning.")
    everywhere("Lan drinks tea every morning.")
    # "eat" could not be typed for a Vietnamese syllable: it finds "eats" and "ate" as an English word would.
    assert found("what does Lan eat in the morning")[0] == eats
    assert {term.text for term in query_terms("eat")} == {"eat"}
    assert "ate" in query_terms("eat")[0].forms


def test_in_an_english_query_a_vietnamese_name_is_still_matched_whole():
    tuan = everywhere("Tuan goes running on Mondays.")
    everywhere("Tuanh has a bakery.")

    assert found("When does Tuan go?") == [tuan]


def test_a_syllable_without_diacritics_in_a_query_typed_with_them_is_that_word():
    running = everywhere("Người dùng chạy mỗi sáng.")
    vegetarian = everywhere("Người dùng ăn chay mỗi sáng.")
    for other in ("đọc báo", "uống trà", "tưới cây", "nghe nhạc"):
        everywhere(f"Người dùng {other} mỗi sáng.")
    # The shorter memory would come first if "chạy" counted as "chay".
    assert found("Người dùng chay mỗi sáng?")[0] == vegetarian
    # Typed without any diacritics, "chay" may be either.
    assert set(found("nguoi dung chay moi sang")[:2]) == {vegetarian, running}


@pytest.mark.parametrize(
    "plural, one",
    [
        ("goes", "go"),
        ("does", "do"),
        ("boxes", "box"),
        ("watches", "watch"),
        ("wishes", "wish"),
        ("classes", "class"),
        ("beaches", "beach"),
        # A silent "e" stays: only the "s" goes.
        ("headaches", "headache"),
        ("houses", "house"),
        ("shoes", "shoe"),
        ("replies", "reply"),
        ("status", "status"),
    ],
)
def test_a_plural_or_third_person_is_read_as_its_singular(plural, one):
    assert singular(plural) == one
