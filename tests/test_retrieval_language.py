"""How retrieval reads a natural-language query (SPEC §4): the other forms of its English words, and
Vietnamese left as it is. Every test runs on SQLite and on PostgreSQL."""

import pytest

from memories.language.words import asks_when, english_forms, tells_when
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


# ---------------------------------------------------------------------------------------------------
# What answers a question


def test_a_question_asking_when_prefers_the_memory_that_says_when():
    why = everywhere("Lan moved to Hue for work.")
    when = everywhere("Lan moved to Hue in 2019.")
    vi_why = everywhere("Lan chuyển vào Huế để học.")
    vi_when = everywhere("Lan chuyển vào Huế năm 2019.")

    assert found("When did Lan move to Hue?")[:2] == [when, why]
    assert found("What year did Lan move to Hue?")[:2] == [when, why]
    assert found("Why did Lan move to Hue?")[:2] == [why, when]
    assert found("Lan chuyển vào Huế khi nào?")[:2] == [vi_when, vi_why]
    assert found("Lan chuyển vào Huế để làm gì?")[:2] == [vi_why, vi_when]


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


def test_in_an_english_query_a_vietnamese_name_is_still_matched_whole():
    tuan = everywhere("Tuan goes running on Mondays.")
    everywhere("Tuanh has a bakery.")

    assert found("When does Tuan go?") == [tuan]
