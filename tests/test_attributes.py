"""What a person has one of (``memories.language.attributes``): two memories giving one person two birthdays or
two blood types contradict each other in the doctor and when proposed, whatever their kind, subject and
language."""

import pytest

from governance import doctor
from memories.language.attributes import attribute, otherwise
from memories.lifecycle import policies
from tests.factories import OWNER, add_memory, propose, read_otherwise


def _otherwise(a, b, texts=()):
    return read_otherwise(attribute, otherwise, a, b, texts)


@pytest.mark.parametrize(
    ("a", "b", "opposed"),
    [
        ("Hoa's birthday is June 3.", "Sinh nhật của chị Hoa là ngày 3/7.", True),
        ("sn chi Hoa 3/7 nha", "Hoa was born on 3 June 1992.", True),
        ("Nhóm máu của anh Tín là B.", "Tín's blood type is O.", True),
        # AB is a blood type of its own, not B.
        ("Nhóm máu của anh Tín là AB.", "Tín's blood type is B.", True),
        ("Tín's blood type is AB+.", "Nhóm máu của anh Tín là AB.", False),
        # The same day written two ways, a year of birth beside it; two people; a time that is no date.
        ("Hoa's birthday is June 3.", "Hoa was born on 3 June 1992.", False),
        ("Hoa's birthday is June 3.", "Lan's birthday is on 4 July.", False),
        ("Hoa's birthday party starts at 7pm.", "Hoa's birthday is June 3.", False),
        # A denial gives no value.
        ("Tín's blood type is not B.", "Nhóm máu của anh Tín là B.", False),
        # How long replies should be, read clause by clause: a clause denying one length wants the other.
        ("Keep replies brief, no long paragraphs.", "Người dùng muốn được giải thích thật chi tiết.", True),
        ("Trả lời ngắn gọn thôi.", "User wants thorough, in-depth answers.", True),
        ("Keep replies brief, no long paragraphs.", "Trả lời ngắn gọn thôi.", False),
        ("Keep replies brief.", "User has a long commute and answers emails on the bus.", False),
        ("Keep replies brief.", "User answers emails in the long run.", False),
        # "as long as" is no length, even beside a word for replies.
        ("Keep replies brief.", "Reply as long as the user keeps asking.", False),
        # The language replies are wanted in: one, beside a word for replies.
        ("User wants replies in Vietnamese.", "Always answer the user in English.", True),
        ("Người dùng muốn trả lời bằng tiếng Việt.", "User wants replies in English.", True),
        ("User wants replies in Vietnamese.", "Người dùng muốn được trả lời bằng tiếng Việt.", False),
        ("User wants replies in Vietnamese.", "Answer in English unless the user writes in Vietnamese.", False),
        ("User wants replies in Vietnamese.", "User writes commit messages in English.", False),
        ("User wants replies in Vietnamese.", "Don't answer the user in English.", False),
        # The clause naming replies says their language before one naming another ("keep terms in English").
        ("Reply in Vietnamese but keep technical terms in English.", "Luôn trả lời bằng tiếng Anh.", True),
        ("Trả lời bằng tiếng Việt nhé, mấy từ technical giữ nguyên tiếng Anh.", "User wants replies in English.", True),
        (
            "tra loi = tieng Viet, thuat ngu de tieng Anh",
            "Reply in Vietnamese but keep technical terms in English.",
            False,
        ),
        # A clause denying another language leaves the language of the clause naming replies.
        ("tu gio tra loi bang tieng Viet, dung dung tieng Anh nua", "User wants replies in English.", True),
        # A dose of one medicine, named by the word neither language has, in digits, words or another unit.
        ("Bà Hoà uống metformin 500mg, sáng 1 viên tối 1 viên.", "bs đổi thuốc cho bà Hoà r: metformin 850mg", True),
        ("Minh is on amlodipine, five milligrams a day.", "Bác sĩ đã tăng amlodipine của a Minh lên 10mg.", True),
        ("Chị Hằng uống Levothyrox 50mcg mỗi sáng.", "Hằng takes Levothyrox 0.05 mg every morning.", False),
        # The dose is of whom the medicine is, not of who changed it.
        ("Tháng 11 bác sĩ đã tăng liều Levothyrox của chị Lan lên 75mcg.", "Lan takes Levothyrox 50 mcg.", True),
        ("The doctor raised Lan's levothyroxine to 75 mcg.", "Chị Lan uống levothyroxine 50mcg.", True),
        ("The doctor raised Lan's levothyroxine to 75 mcg.", "Chị Mai uống levothyroxine 50mcg.", False),
        # Two medicines, two people, a dose the other adds to, a medicine stopped.
        ("Minh takes allopurinol 300 mg daily.", "Minh takes colchicine 0.5 mg during flares.", False),
        ("Minh takes amlodipine 5 mg.", "Lan takes amlodipine 10 mg.", False),
        ("User takes metformin 500 mg in the morning and 850 mg at night.", "User takes metformin 500 mg.", False),
        ("User no longer takes metformin 500 mg.", "User takes metformin 850 mg.", False),
        ("User drinks 500ml of water before bed.", "User drinks 300ml of water after lunch.", False),
        # Pay for one's work, of whom it is said to be ("lương của Mai", "Mai's salary"), in a month or another
        # period; a pension is no salary.
        ("Mai, the pharmacy assistant, earns 6.5 million VND a month.", "Lương của Mai là 7tr5/tháng.", True),
        ("Lương anh Quân 25 triệu một tháng.", "Quân takes home 32 million dong a month.", True),
        ("Từ tháng 12 chị Thu tăng lương cho Mai lên 7,5 triệu/tháng.", "Mai earns 6.5 million a month.", True),
        ("Lương hưu của bà Xuân là 6 triệu một tháng.", "tu thang 7 luong huu ba Xuan tang len 6tr8/thang", True),
        ("Lương của Mai là 6,5 triệu/tháng.", "Mai earns 6.5 million VND a month.", False),
        ("Lương của Mai là 6,5 triệu/tháng.", "Lương của Vy là 5 triệu/tháng.", False),
        ("Lương của Mai là 6,5 triệu/tháng.", "Mai is paid 25k an hour for weekend shifts.", False),
        ("Bà Xuân's pension is 6 million a month.", "Bà Xuân earns 2 million a month selling vegetables.", False),
        # Pay besides it, a share of it, pay before, an amount given from it.
        ("Mai earns 6.5 million a month.", "Mai earns 2 million a month from tutoring.", False),
        # Pay from a month on is pay; the age beside a pension is no pay before.
        ("From October Mai earns 7.5 million a month.", "Lương của Mai là 6,5 triệu/tháng.", True),
        ("Ông Lịch, 78 years old, gets a pension of 6 million a month.", "Lương hưu của ông Lịch là 5 triệu.", True),
        ("Mai earns 6.5 million a month.", "Mai's Tết bonus is 6 million.", False),
        ("Lương của Mai là 6,5 triệu/tháng.", "Mai saves 20% of her salary.", False),
        ("Lương của Mai là 6,5 triệu/tháng.", "Trước đây lương của Mai là 5 triệu.", False),
        ("Lương hưu của ông Lịch là 6 triệu.", "thang nao ong Lich cung cho Ngan 1tr tu luong huu", False),
    ],
)
def test_one_person_has_one_birthday_blood_type_dose_and_pay(a, b, opposed):
    assert _otherwise(a, b) is opposed
    assert _otherwise(b, a) is opposed


def test_a_name_placed_beside_the_owner_has_a_birthday_of_their_own():
    assert _otherwise("User's birthday is June 3.", "Hoa was born on 4 July.") is True
    assert _otherwise("User's birthday is June 3.", "Hoa was born on 4 July.", ["Hoa is the user's wife."]) is False


# Each: two memories giving one attribute two values, one of another person or thing, a proposal giving it
# a third value, and one giving another attribute; each as (text, kind, subject).
_REPORTED = [
    (
        ("Hoa's birthday is June 3.", "fact", "birthdays"),
        ("Sinh nhật của chị Hoa là ngày 3/7.", "preference", "hoa"),
        ("Lan's birthday is on 4 July.", "fact", "lan"),
        ("Hoa was born on 12 August 1992.", "fact", "hoa-born"),
        ("Minh's blood type is O.", "fact", "minh"),
    ),
    (
        ("Minh takes amlodipine 5 mg every morning.", "health", "pressure"),
        ("Bác sĩ tăng amlodipine của a Minh lên 10mg/ngày.", "fact", "thuốc"),
        ("Minh takes allopurinol 300 mg for gout.", "health", "gout"),
        ("Minh's amlodipine dose is now 7.5 mg.", "health", "huyết áp"),
        ("Minh takes colchicine 0.5 mg during gout flares.", "health", "gout"),
    ),
    (
        ("Mai, the pharmacy assistant, earns 6.5 million VND a month.", "fact", None),
        ("Từ tháng 12 tăng lương cho Mai lên 7,5 triệu/tháng.", "event", "lương"),
        ("Lương của Vy là 5 triệu/tháng.", "fact", "vy"),
        ("Mai's salary is now 8 million a month.", "fact", "staff"),
        ("Mai earns 2 million a month from tutoring.", "fact", "side job"),
    ),
]


def _add(text, kind, subject):
    return add_memory(text, kind=kind, user="owner", **({} if subject is None else {"subject": subject})).pk


@pytest.mark.parametrize(("stored", "other", "bystander", "changed", "unrelated"), _REPORTED)
def test_the_doctor_and_the_write_path_report_them(db, stored, other, bystander, changed, unrelated):
    stored, other = _add(*stored), _add(*other)
    _add(*bystander)
    assert doctor.analyze("conflicts").conflicts == [sorted([stored, other])]
    policies.set_write_policy("allow", actor=OWNER)
    text, kind, subject = changed
    answer = propose(text, kind=kind, subject=subject)
    assert (answer.status, answer.flags) == ("pending", ("possible_update",))
    text, kind, subject = unrelated
    answer = propose(text, kind=kind, subject=subject)
    assert (answer.status, answer.flags) == ("approved", ())
