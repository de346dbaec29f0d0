"""Who stands above whom (``memories.language.standing``): two memories setting two people the other way
round, or apart by another number of years, contradict each other in the doctor, whatever their kind, subject
and language."""

import pytest

from governance import doctor
from memories.language.standing import otherwise, standing
from tests.factories import add_memory, read_otherwise


def _otherwise(a, b, texts=()):
    return read_otherwise(standing, otherwise, a, b, texts)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Đạt is Khoa's direct manager.", "Khoa là quản lý trực tiếp của Đạt trong team payments."),
        ("Hiếu is Trang's boss.", "Trang manages Hiếu on the marketing team."),
        ("hieu la sep cua trang", "Hiếu là nhân viên dưới quyền Trang."),
        ("Sếp trực tiếp của anh Quân là anh Vinh.", "Quân is Vinh's manager; Vinh reports to him."),
        ("Khoa is three years older than his sister Vy.", "Vy lớn hơn anh Khoa 2 tuổi."),
        ("nhi hon long 1 tuoi", "Long is two years older than Nhi."),
        # Another number of years.
        ("Minh is 3 years older than Lan.", "Minh lớn hơn Lan 5 tuổi."),
        # The owner called by name.
        ("Đạt is Khoa's direct manager.", "User manages Đạt on the payments team."),
        ("Hiếu là cấp dưới của anh Phong, báo cáo trực tiếp cho anh ấy.", "Phong reports to Hiếu."),
        # An older sibling and a younger one, in either language.
        ("Yến is Phong's older sister.", "Yến là em gái của Phong, kém anh 5 tuổi."),
        ("Tín is Quân's older brother.", "Tín là em trai của Quân."),
        ("Tín là anh trai của Quân.", "Quân is Tín's big brother."),
        ("Lan is Minh's little sister.", "Minh is Lan's younger brother."),
    ],
)
def test_two_people_set_the_other_way_round_contradict(a, b):
    assert _otherwise(a, b)
    assert _otherwise(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Đạt is Khoa's direct manager.", "Dat la sep truc tiep cua a Khoa"),
        ("Nhi lớn hơn Long 1 tuổi.", "nhi hon long 1 tuoi"),
        ("Hiếu is Trang's boss.", "Hiếu manages Lan."),
        ("Minh is older than Lan.", "Minh is 3 years older than Lan."),
        # A boss and an age are two things.
        ("Minh is Lan's boss.", "Lan is 2 years older than Minh."),
        # Someone's relation is not them.
        ("Minh is older than Lan's brother.", "Lan is older than Minh."),
        # One sibling older, said in the other language.
        ("Yến is Phong's older sister.", "Yến là chị gái của Phong."),
    ],
)
def test_what_can_both_be_true_is_not_otherwise(a, b):
    assert not _otherwise(a, b)
    assert not _otherwise(b, a)


def test_a_name_placed_beside_the_owner_is_someone_else():
    wife = "Lan is the user's wife."
    assert _otherwise("User manages Đạt.", "Đạt is Lan's manager.")
    assert not _otherwise("User manages Đạt.", "Đạt is Lan's manager.", texts=[wife])


def test_the_doctor_reports_two_people_the_other_way_round_across_kinds_and_languages(db):
    boss = add_memory("Đạt is Khoa's direct manager.", kind="relationship", subject="manager").pk
    manages = add_memory("Khoa là quản lý trực tiếp của Đạt.", kind="fact", subject="đồng nghiệp").pk
    add_memory("Dat la sep truc tiep cua a Khoa", kind="fact", subject="sep")
    other = add_memory("Hiếu manages Lan.", kind="fact", subject="team").pk
    conflicts = doctor.analyze("conflicts").conflicts
    assert any(boss in group and manages in group for group in conflicts)
    assert not any(other in group for group in conflicts)


def test_the_doctor_groups_one_standing_said_in_two_languages(db):
    english = add_memory("Đạt is Khoa's direct manager.", kind="relationship", subject="manager").pk
    plain = add_memory("Dat la sep truc tiep cua a Khoa", kind="fact", subject="sep").pk
    older = add_memory("Minh is 3 years older than Lan.", kind="fact", subject="age").pk
    other = add_memory("Minh lớn hơn Lan 5 tuổi.", kind="fact", subject="tuổi").pk
    duplicates = doctor.analyze("duplicates").duplicates
    assert [english, plain] in duplicates
    assert not any(older in group or other in group for group in duplicates)
