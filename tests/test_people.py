"""Who a memory is about and who a question asks about (``memories.language.people``), and what retrieval
makes of it: a memory about someone else than the one asked about ranks after the others, in the context
(its "person" signal) and in search. The context and search tests run on SQLite and on PostgreSQL."""

import pytest

from memories.language.people import OWNER, about, asked_about, relations_of_names, someone_else, words_for
from memories.models import Memory
from memories.retrieval import build_context
from memories.retrieval.finding import find
from tests.factories import add_memory


@pytest.mark.parametrize(
    ("text", "person"),
    [
        ("User lives in Hanoi.", ("owner", OWNER)),
        ("My blood type is O+.", ("owner", OWNER)),
        ("Người dùng đang sống ở quận Bình Thạnh.", ("owner", OWNER)),
        ("User's brother Quân lives in Berlin.", ("relation", "brother")),
        ("My paternal grandfather's death anniversary is in April.", ("relation", "grandfather")),
        ("Vợ tôi là Thảo, dạy Ngữ văn.", ("relation", "partner")),
        ("Chị gái người dùng tập yoga mỗi tối.", ("relation", "sister")),
        ("Mom's birthday is August 12.", ("relation", "mother")),
        ("Ba mẹ tôi cưới nhau năm 1983.", ("relation", "parents")),
        ("Thảo's older brother Tuấn is an architect.", ("relation", "brother")),
        ("Thảo có nhóm máu A+.", ("name", "thao")),
        ("Sinh nhật Hà là 30/6.", ("name", "ha")),
        ("Hà is expecting her first baby in February.", ("name", "ha")),
        # A mother-in-law is no mother, nor a day of the week anyone.
        ("User's mother-in-law visits on Sundays.", ("relation", "in-law")),
        ("Tối thứ Bảy tôi đánh cầu lông.", ("owner", OWNER)),
        ("The first-aid box is in the kitchen.", None),
        # Typed without marks, a name's capital is no mark: "vo" is still "vợ".
        ("sinh nhat vo anh Tu (chi Hanh) la 5/9", ("relation", "partner")),
        ("me Lan tap yoga moi sang", ("relation", "mother")),
        # Sunday is no one.
        ("Chủ nhật nào Thảo cũng chạy 5 km.", ("name", "thao")),
        ("Chu nhat Thao chay 10k", ("name", "thao")),
    ],
)
def test_a_memory_is_about_the_first_one_it_mentions(text, person):
    assert about(text) == person


def test_a_question_asks_about_the_people_it_names_and_not_whoever_answers_who():
    assert asked_about("What is my blood type?") == {("owner", OWNER)}
    assert asked_about("nhom mau cua toi") == {("owner", OWNER)}
    assert ("relation", "partner") in asked_about("What's my wife's blood type?")
    assert asked_about("Vợ dậy lúc mấy giờ?") == {("relation", "partner")}
    assert asked_about("sinh nhat me ngay may") == {("relation", "mother")}
    # Company is not whom it asks about; a question asking who is answered by anyone.
    assert asked_about("Mình chơi tennis với Phúc lúc nào?") == {("owner", OWNER)}
    assert asked_about("Who takes the kids to school?") is None
    assert asked_about("Ai đưa bọn nhỏ đi học?") is None
    # "US" is a country, and a package manager no boss.
    assert asked_about("Which US state was Sam in?") == {("name", "sam")}
    assert asked_about("What package manager do I use?") == {("owner", OWNER)}
    assert asked_about("wifi password") is None


def test_names_are_placed_by_what_the_owners_memories_say_of_them():
    texts = [
        "Vợ tôi là Thảo, dạy Ngữ văn.",
        "Em gái tôi là Thu Hà, làm dược sĩ.",
        "My manager is Priya Raman in Singapore.",
        "Lan is the user's wife.",
        "Chị Hoa, chị gái của Minh, bị dị ứng tôm.",
        "Mẹ Linh sống ở Hạ Long.",  # Linh's mother: nothing says who Linh is
    ]
    assert relations_of_names(texts) == {
        "thao": "partner",
        "thu": "sister",
        "ha": "sister",
        "priya": "boss",
        "raman": "boss",
        "lan": "partner",
        "hoa": "sister",
    }


def test_someone_else_is_told_only_when_both_are_known():
    owner, wife, mother = ("owner", OWNER), ("relation", "partner"), ("relation", "mother")
    names = {"thao": "partner"}
    assert someone_else({owner}, wife)
    assert someone_else({owner, wife}, owner)
    assert someone_else({owner}, ("name", "thao"), names)
    assert not someone_else({owner}, owner)
    assert not someone_else({("name", "thao")}, wife, names)
    # The wife is Thảo, so Huy is not her; but the children may be Huy.
    assert someone_else({wife}, ("name", "huy"), names)
    assert not someone_else({("relation", "children")}, ("name", "huy"), names)
    # Parents may be the mother; a name nothing places may be the owner called by name.
    assert not someone_else({("relation", "parents")}, mother)
    assert not someone_else({owner}, ("name", "huy"), names)
    # Someone else's people are not the owner's: "What is John teaching his siblings?"
    assert not someone_else({("name", "john"), ("relation", "siblings")}, ("relation", "brother"))
    assert not someone_else(None, wife)


@pytest.mark.django_db
def test_the_context_and_search_put_the_one_asked_about_first():
    mine = add_memory("My blood type is O+.").pk
    wifes = add_memory("Thảo có nhóm máu A+.").pk
    add_memory("Vợ tôi là Thảo, dạy Ngữ văn ở trường THPT.")
    brother = add_memory("User's brother Quân lives in Berlin.").pk
    home = add_memory("Người dùng đang sống ở quận Bình Thạnh, TP. Hồ Chí Minh.").pk
    add_memory("The wifi router is in the living room cabinet.")

    def context(query):
        return [item for item in build_context(query, record_access=False).items if item.layer == "working"]

    def searched(query):
        return list(find(Memory.objects.all(), query).values_list("pk", flat=True))

    assert [item.id for item in context("nhom mau cua toi")][:1] == [mine]
    assert [item.id for item in context("What's my wife's blood type?")][:1] == [wifes]
    assert [item.id for item in context("where do I live?")][:1] == [home]
    assert [item.id for item in context("where does my brother live?")][:1] == [brother]
    # The memory about someone else keeps its words' signals and shows what it lost.
    item = next(item for item in context("where do I live?") if item.id == brother)
    match = item.signals["relevance"] + item.signals.get("semantic", 0.0)
    assert item.signals["person"] == pytest.approx(-0.5 * match, abs=1e-4)
    assert searched("where do I live")[:1] == [home]
    assert searched("blood type")[:2] == [mine, wifes]  # no one asked about: words alone
    assert searched("what is my wife's blood type")[:1] == [wifes]


def searched(query):
    return list(find(Memory.objects.all(), query).values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_word_for_someone_finds_the_other_words_for_them():
    add_memory("The dog goes to training school.")
    children = add_memory("The children go to Sunrise school on weekdays, by bus, with their friends.").pk
    add_memory("The package manager of the shop is pnpm.")

    def context(query):
        return [item.id for item in build_context(query, record_access=False).items if item.layer == "working"]

    assert context("which school do the kids go to?")[:1] == [children]
    # A package manager is nobody's boss; one's manager is.
    assert context("Who's my boss?") == []
    manager = add_memory("User's manager is Quang.").pk
    add_memory("The manager of the café is Hòa.")
    assert context("Who's my boss?") == [manager]
    assert searched("who is my boss") == [manager]
    # Read in English, "sếp" is a boss or a manager: one's own comes first.
    assert searched("sếp của tôi là ai")[:1] == [manager]


@pytest.mark.django_db
def test_a_relation_asked_about_is_found_by_the_name_the_owners_memories_give_it():
    add_memory("Vợ tôi là Thảo.")
    teaches = add_memory("Thảo dạy Ngữ văn ở trường THPT.").pk
    add_memory("User's brother is Khoa.")
    works = add_memory("Khoa works at Vietcombank.").pk
    add_memory("Người dùng làm việc ở FPT.")
    add_memory("User teaches a Python class on Saturdays.")

    def context(query):
        return [item.id for item in build_context(query, record_access=False).items if item.layer == "working"]

    assert context("vợ tôi dạy môn gì")[:1] == [teaches]
    assert teaches in context("what does my wife teach?")[:2]
    assert context("where does my brother work?")[:1] == [works]
    assert context("anh trai tôi làm ở đâu")[:1] == [works]
    assert searched("where does my brother work")[:1] == [works]
    # A relation no memory names is its words alone.
    assert context("what does my sister teach?")[:1] != [teaches]


def test_a_relation_is_looked_up_by_its_words_but_syllables_mostly_another_word():
    assert ("father",) in words_for("father") and ("dad",) in words_for("father")
    # Folded, "bố" is "bo", as "bò" (beef) is: the index cannot tell them apart.
    assert not {("bo",), ("ba",), ("cha",)} & set(words_for("father"))
    assert ("anh", "trai") in words_for("brother")


def test_a_question_is_read_for_its_first_few_people():
    query = " ".join(f"my friend Name{chr(97 + i)}" for i in range(20))
    assert len(asked_about(query)) <= 8


@pytest.mark.parametrize(
    "query", ["replies in English unless asked otherwise", "decided to move the thesis to PostgreSQL", "Go or Rust?"]
)
def test_a_language_or_a_tool_is_no_one_asked_about(query):
    assert asked_about(query) is None
