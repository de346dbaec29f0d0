"""The user called by name (``memories.language.selves``): who goes by which name, the name read as the word for
the user, and the doctor comparing a user's memories so."""

import pytest

from governance import doctor
from memories.language.selves import as_the_user, names_of
from tests.factories import add_memory


@pytest.mark.parametrize(
    ("user", "names"),
    [
        ("linh", {"linh"}),
        ("tung_pham", {"tung pham", "tung"}),
        ("Đức", {"duc"}),
        # The owner's and a store's own words, a channel's id and letters with digits name no one.
        ("owner", set()),
        ("", set()),
        ("telegram:123", set()),
        ("u1", set()),
    ],
)
def test_a_user_id_that_reads_as_a_name_is_one(user, names):
    assert names_of(user) == names


def test_a_users_memories_may_say_their_name():
    texts = ["User's name is Đức.", "Người dùng thích trà đá.", "Vợ người dùng tên là Lan."]
    assert names_of("owner", texts) == {"duc"}


def test_a_users_memories_may_tell_their_name_by_whom_they_are_married_to():
    husband = "The user's husband, Minh, is a civil servant."
    assert names_of("owner", [husband, "Minh's wife Hằng is taking an English class."]) == {"hang"}
    assert names_of("owner", ["User's husband Minh has gout.", "Chồng chị Hằng là anh Minh, công chức."]) == {"hang"}
    # "Mình" is the owner speaking, "Minh" a name.
    assert names_of("owner", ["Vợ mình là Thảo.", "Thảo's husband Khoa runs a café."]) == {"khoa"}
    # Two husbands named for the user, or two people said to be married to the one, tell no name.
    assert names_of("owner", [husband, "User's husband Long is a doctor.", "Minh's wife Hằng sings."]) == set()
    assert names_of("owner", [husband, "Minh's wife Hằng sings.", "Minh's wife Lan cooks."]) == set()
    # Someone else's husband tells nothing of the user.
    assert names_of("owner", ["Lan's husband Minh is a chef.", "Minh's wife Lan sings."]) == set()


@pytest.mark.parametrize(
    ("user", "text", "read"),
    [
        ("linh", "Linh's book club meets on Saturdays.", "The user's book club meets on Saturdays."),
        ("linh", "Saturdays are for Linh's book club.", "Saturdays are for the user's book club."),
        ("linh", "Every Saturday Linh goes to her book club.", "Every Saturday the user goes to her book club."),
        # The honorific goes with the name, even in chat's short form and typed in lower case.
        ("duc", "Anh Đức thích nhắn Zalo hơn gọi điện.", "Người dùng thích nhắn Zalo hơn gọi điện."),
        ("duc", "Vợ a đức tên Lan.", "Vợ người dùng tên Lan."),
        # Typed without marks, the word for the user is too.
        ("lan", "chi lan di boi moi sang chu nhat", "nguoi dung di boi moi sang chu nhat"),
        ("tung_pham", "Tùng Phạm works at the port.", "The user works at the port."),
        # Who the user is to someone, said before the name in English, is the user too.
        ("hang", "Minh's wife Hằng is taking an English class.", "The user is taking an English class."),
        ("nga", "His sister Nga still owes the couple 30 million.", "The user still owes the couple 30 million."),
        # "Từ tháng 10" opens with "from", whoever is called Tư; inside the sentence, after "ông", Tư is the user.
        ("tu", "Từ tháng 10 bác sĩ tăng liều thuốc của ông Tư.", "Từ tháng 10 bác sĩ tăng liều thuốc của người dùng."),
        # A text typed all in lower case shows no capitals: a name is one that is no word of the language as
        # typed ("mai" is tomorrow); in a text with capitals, one in lower case is none.
        ("linh", "linh hoc yoga moi sang", "nguoi dung hoc yoga moi sang"),
        ("mai", "mai đi khám răng", "mai đi khám răng"),
        ("linh", "Chị Hà hỏi thăm linh tinh.", "Chị Hà hỏi thăm linh tinh."),
        # Part of another word or of a longer name is not the name: someone else's, a place's, or the user's
        # full name.
        ("lan", "Lana and Lan Anh live in Hà Lan.", "Lana and Lan Anh live in Hà Lan."),
        ("lan", "Nguyễn Thị Lan is the user's full name.", "Nguyễn Thị Lan is the user's full name."),
    ],
)
def test_the_name_is_read_as_the_word_for_the_user_in_the_texts_language(user, text, read):
    assert as_the_user(text, names_of(user)) == read


def test_what_says_the_name_is_left_as_it_is():
    assert as_the_user("User's name is Đức.", {"duc"}) == "User's name is Đức."
    wish = 'The owner wants to be called "anh Minh" in replies.'
    assert names_of("owner", [wish]) == {"minh"}
    assert as_the_user(wish, {"minh"}) == wish
    assert as_the_user("Anything at all", frozenset()) == "Anything at all"


def test_the_doctor_groups_what_a_user_says_of_themself_by_name_and_as_the_user(db):
    by_name = add_memory("Lan goes swimming every Sunday morning.", kind="routine", subject="swim", user="lan")
    as_user = add_memory("chi lan di boi moi sang chu nhat", kind="routine", subject="boi", user="lan")
    # Another user's memory naming Lan is of someone else to them.
    add_memory("chi lan di boi moi sang chu nhat", kind="routine", subject="boi", user="minh")
    duplicates, _ = doctor.find_duplicates_and_conflicts()
    assert duplicates == [sorted((by_name.pk, as_user.pk))]


def test_the_doctor_sees_the_user_by_name_in_each_others_places(db):
    owes = add_memory("Lan owes Minh 200k.", kind="fact", subject="debt", user="lan")
    owed = add_memory("Minh nợ người dùng 200 nghìn.", kind="fact", subject="nợ", user="lan")
    duplicates, conflicts = doctor.find_duplicates_and_conflicts()
    assert duplicates == []
    assert conflicts == [sorted((owes.pk, owed.pk))]
