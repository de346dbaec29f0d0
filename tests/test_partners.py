"""Whether someone has a husband or a wife (``memories.language.partners``): a memory saying one is single and
one naming their spouse, two naming two spouses, or a breakup and the couple, contradict each other in the
doctor and when proposed, whatever their kind, subject and language."""

import pytest

from governance import doctor
from memories.language.partners import NO_ONE, SOMEONE, otherwise, spouse
from memories.lifecycle import policies
from tests.factories import OWNER, add_memory, propose, read_otherwise


def _otherwise(a, b, texts=()):
    return read_otherwise(spouse, otherwise, a, b, texts)


@pytest.mark.parametrize(
    ("text", "whose", "who"),
    [
        ("Vy chưa lập gia đình.", ("name", "vy"), NO_ONE),
        ("Anh Tùng vẫn độc thân.", ("name", "tung"), NO_ONE),
        ("Người dùng chưa kết hôn.", ("owner", "owner"), NO_ONE),
        ("Vy is not married.", ("name", "vy"), NO_ONE),
        ("Vy's husband Long works at FPT.", ("name", "vy"), "long"),
        ("Chồng của chị Vy là anh Long.", ("name", "vy"), "long"),
        ("Mai là vợ anh Tùng.", ("name", "tung"), "mai"),
        ("Mai is Tùng's wife.", ("name", "tung"), "mai"),
        ("Vợ anh Tùng là cô giáo.", ("name", "tung"), SOMEONE),
        ("My wife likes jasmine tea.", ("owner", "owner"), SOMEONE),
    ],
)
def test_whose_spouse_a_memory_speaks_of_and_who_that_is(text, whose, who):
    found = spouse(text)
    assert (found.whose, found.spouse) == (whose, who)


@pytest.mark.parametrize(
    "text",
    [
        # A former spouse is none now; a denial of being single says nothing; a single phone, a single mother,
        # a friend (no name) and "single-handedly" are no one's marriage.
        "Tùng's ex-wife lives in Huế.",
        "Vợ cũ của anh Tùng sống ở Huế.",
        "The user's late husband was a pilot.",
        "User is not single.",
        "User carries a single phone.",
        "Lan is a single mother.",
        "My friend is single.",
        "Tùng single-handedly rebuilt the kitchen.",
        "Bích's husband died in 2019.",
    ],
)
def test_what_speaks_of_no_spouse(text):
    assert spouse(text) is None


@pytest.mark.parametrize(
    ("a", "b", "opposed"),
    [
        ("Vy chưa lập gia đình.", "Vy's husband Long works at FPT.", True),
        ("Tùng is single.", "Vợ anh Tùng là cô giáo.", True),
        ("Chồng của Vy là anh Long.", "Vy's husband is Minh.", True),
        ("User is single.", "Vợ tôi tên là Hoa.", True),
        # Two people, the same spouse said twice, or both single.
        ("Vy is single.", "Lan's husband Long works at FPT.", False),
        ("Chồng của Vy là anh Long.", "Vy's husband Long is a doctor.", False),
        ("Vy's husband works at FPT.", "Vy's husband is Long.", False),
        ("Vy is single.", "Vy chưa lập gia đình.", False),
        # Divorced or widowed is no husband or wife now; single is no one at all, unmarried no spouse only.
        ("Chị Hằng đã ly hôn, hiện sống một mình.", "Hằng's husband is Sang, a tour guide.", True),
        ("Bích is a widow.", "Ông Tường, chồng bà Bích, vẫn còn khỏe mạnh.", True),
        ("Long hiện độc thân, chưa hẹn hò ai.", "Long's girlfriend Nhi is a nurse.", True),
        ("Yến is single.", "Yến got engaged to Sơn in September.", True),
        ("Vy is not married.", "Vy's boyfriend Minh is a pilot.", False),
        ("Long's girlfriend is Nhi.", "Long's girlfriend is Mai.", False),
        # What a spouse named by apposition holds is not the spouse's name.
        ("Vợ anh Quân tên Thu, làm kế toán.", "Laptop chính của chị Thu, vợ anh Quân, là MacBook Air.", False),
        # Two who broke up are no couple, whichever is named first; someone else, or not broken up, may be.
        ("Tuấn với Quỳnh chia tay rồi.", "Bạn gái Tuấn tên là Quỳnh.", True),
        ("Nhi and Long broke up last month.", "Long's girlfriend is Nhi.", True),
        ("User broke up with Nhi.", "User's girlfriend is Nhi.", True),
        ("Long and Nhi separated last year.", "Long's wife is Nhi.", True),
        ("Long broke up with Mai.", "Long's girlfriend is Nhi.", False),
        ("Long và Nhi chưa chia tay.", "Long's girlfriend is Nhi.", False),
        ("Long broke up with Mai.", "Nhi and Long broke up last month.", False),
    ],
)
def test_no_spouse_against_a_spouse_or_two_spouses_cannot_both_be_true(a, b, opposed):
    assert _otherwise(a, b) is opposed
    assert _otherwise(b, a) is opposed


def test_the_owner_and_a_name_are_one_person_only_where_a_memory_says_it_is_the_owners_name():
    assert _otherwise("User is single.", "Lan's husband Long works at FPT.") is False
    assert _otherwise("Người dùng chưa kết hôn.", "Huy's wife is Mai.") is False
    assert _otherwise("Người dùng chưa kết hôn.", "Huy's wife is Mai.", ["User's name is Huy."]) is True


def test_the_doctor_reports_them_whatever_their_kind_subject_and_language(db):
    single = add_memory("Vy chưa lập gia đình.", kind="fact", subject="gia đình").pk
    married = add_memory("Vy's husband Long works at FPT.", kind="relationship", subject="vy").pk
    add_memory("Lan's husband Minh is a pilot.", kind="relationship", subject="lan")
    add_memory("Tùng's ex-wife lives in Huế.", kind="fact", subject="tung")
    add_memory("Tùng is single.", kind="fact", subject="tung-status")
    assert doctor.analyze("conflicts").conflicts == [sorted([single, married])]


def test_the_doctor_and_the_write_path_find_a_breakup_against_the_couple(db):
    couple = add_memory("Bạn gái Tuấn tên là Quỳnh.", kind="relationship", subject="tình cảm", user="owner").pk
    parted = add_memory("Quỳnh và Tuấn đã chia tay.", kind="fact", subject="tuan", user="owner").pk
    assert doctor.analyze("conflicts").conflicts == [sorted([couple, parted])]
    policies.set_write_policy("allow", actor=OWNER)
    answer = propose("Tuan's girlfriend Quynh is a nurse.", kind="relationship", subject="tuan")
    assert (answer.status, answer.flags) == ("pending", ("possible_update",))


def test_a_proposal_giving_a_spouse_to_someone_single_is_a_possible_update(db):
    policies.set_write_policy("allow", actor=OWNER)
    existing = add_memory("Vy chưa lập gia đình.", kind="fact", subject="gia đình", user="owner")
    answer = propose("Vy's husband Long works at FPT.", kind="relationship", subject="vy")
    assert (answer.status, answer.flags) == ("pending", ("possible_update",))
    assert f"says otherwise than memory {existing.pk}" in answer.reason
    answer = propose("Lan's husband Minh is a pilot.", kind="relationship", subject="lan")
    assert (answer.status, answer.flags) == ("approved", ())
