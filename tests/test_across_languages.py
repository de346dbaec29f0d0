"""What a translation keeps: names, numbers and polarity decide between a memory and its counterpart in the
other language; and which language a text is in."""

import pytest

from memories.language.meaning import contradict, meaning, says_changed, variant_of
from memories.language.translation import (
    OPPOSED,
    SAME,
    across_languages,
    adds_nothing,
    another_value,
    details_agree,
    in_other_language,
    lexicon_words,
    names_agree,
    names_in,
    names_instead,
    relatives_agree,
    translated_share,
    translated_verdict,
    values_instead,
)
from memories.language.translation import (
    values as values_of,
)
from memories.language.words import counts_in_digits, language_of

FEW_WORDS_TRANSLATED = [
    # Only the people agree: another fact of them.
    ("Bà Hạnh cần chữ to, tin nhắn ngắn.", "Bà Hạnh prefers phone calls to texting.", None),
    ("Đề tài luận văn của Quốc là nhận dạng chữ viết tay.", "Quốc's thesis is on machine translation.", None),
    # A time of day or how often alike says little: things of every kind are done then.
    ("Bà Ngọc đi bộ mỗi sáng.", "Bà Ngọc takes her blood pressure pills every morning.", None),
    ("Bà Ngọc đi bộ mỗi ngày.", "Bà Ngọc takes her blood pressure pills every day.", None),
    # A pet's name is whom it is said of, as a person's is.
    ("Người dùng nuôi một con chó tên Lu.", "User's dog Lu is due for a rabies shot next week.", None),
    # A value or a thing both give besides the people.
    ("Chị Vân xài iPhone 14 làm máy chính.", "Vân's main phone is an iPhone 14.", SAME),
    ("Chị Vân đang làm Rau Sạch, một ứng dụng đặt rau.", "Vân is building Rau Sạch, a grocery app.", SAME),
]


@pytest.mark.parametrize(
    ("vietnamese", "english", "verdict"),
    [
        ("Dự án mobile-app dùng pnpm cho phần deploy.", "Project mobile-app uses pnpm for the deploy work.", SAME),
        # A tool is a name, borrowed as it is: another one, or one named on one side only, is another fact.
        ("Dự án mobile-app dùng pnpm cho phần deploy.", "Project mobile-app uses Django for the deploy work.", None),
        ("Dự án mobile-app dùng uv cho phần budget.", "Project mobile-app uses pnpm for the budget work.", None),
        ("Anh Huy dùng Neovim để code.", "Huy codes in Neovim.", SAME),
    ],
)
def test_a_tool_named_in_one_language_must_be_the_one_the_other_names(vietnamese, english, verdict):
    share = translated_share(vietnamese, english)
    assert translated_verdict(vietnamese, english, share) == verdict
    assert translated_verdict(english, vietnamese, share) == verdict


def test_an_honorific_may_be_the_relative_and_a_word_typed_without_diacritics_is_no_relative_by_chance():
    # "anh Khôi" may be the brother an English text names.
    assert translated_share("Phúc nợ anh Lộc 8 triệu.", "Phuc owes his brother Loc 8 million VND.") > 0
    # "bo" is "bỏ" (leave out) there, not "bố" (father).
    assert translated_share("User is allergic to shrimp.", "a Loc di ung tom, dat do an nho dan bo tom ra") > 0
    # A relative one names and the other does not is still someone else.
    assert translated_share("User likes tea.", "Mẹ thích trà.") == 0.0


@pytest.mark.parametrize(("vietnamese", "english", "verdict"), FEW_WORDS_TRANSLATED)
def test_of_two_texts_few_of_whose_words_translate_the_people_alone_make_no_same_fact(vietnamese, english, verdict):
    share = translated_share(vietnamese, english)
    assert share < 0.5
    assert across_languages(vietnamese, english) == SAME
    assert translated_verdict(vietnamese, english, share) == verdict
    assert translated_verdict(english, vietnamese, share) == verdict


def test_across_languages_what_a_translation_keeps_decides():
    assert across_languages("Lan owes Minh 200k.", "Lan nợ Minh 200 nghìn.") == SAME
    assert across_languages("User is vegetarian.", "Người dùng ăn chay.") == SAME
    assert across_languages("Huy lives in Hanoi.", "Anh Huy sống ở Hà Nội.") == SAME
    assert across_languages("Minh's birthday is August 12.", "Sinh nhật Minh là ngày 12 tháng 8.") == SAME
    # The parties in each other's places cannot both be so, in two languages as in one ("Lan owes Minh" /
    # "Minh owes Lan"); the owner may be one of them. After "with", or in a passive, they may change places.
    assert across_languages("Lan owes Minh 200k.", "Minh nợ Lan 200k.") == OPPOSED
    assert across_languages("Yến còn nợ anh Phong 20 triệu.", "Phong owes Yến 20 million VND.") == OPPOSED
    assert across_languages("User owes Tuấn 5 million.", "Tuấn nợ người dùng 5 triệu.") == OPPOSED
    assert across_languages("Lan plays tennis with Minh.", "Minh chơi tennis với Lan.") is None
    # The values of two things of a kind are no value in place of another.
    phone = "Budget for the new phone is 10 million."
    assert across_languages("Ngân sách mua màn hình mới là 5 triệu.", phone) is None
    assert across_languages("Ngân sách mua điện thoại là 5 triệu.", phone) == OPPOSED
    # What one chose in place of a thing the other says was chosen.
    honeymoon = "Chị Vân với anh Lộc đổi ý, đi Bali hưởng tuần trăng mật thay vì Hokkaido."
    assert across_languages("Vân and Lộc will go to Hokkaido for their honeymoon.", honeymoon) == OPPOSED
    assert across_languages("Vân and Lộc will go to Bali for their honeymoon.", honeymoon) == SAME
    # What one denies in a clause of its own, the other says: Telegram, not Zalo / Zalo, not Telegram.
    telegram = "Send Lộc his reminders on Telegram, not Zalo."
    assert across_languages(telegram, "nhac a Loc qua zalo nhe, a k dung telegram") == OPPOSED
    assert across_languages(telegram, "Nhắc anh Lộc qua Telegram, đừng dùng Zalo.") == SAME
    # Whom both speak of is nothing set aside; a debt not paid back yet is owed still ("nợ" is no "no").
    assert across_languages("Vân hates cilantro.", "Đừng cho ngò rí vào món của chị Vân, chị ghét ngò rí.") == SAME
    owes = "Lộc owes Phúc 8 million VND that he hasn't paid back yet."
    assert across_languages("Anh Lộc đang nợ Phúc 8 triệu và chưa trả.", owes) == SAME
    assert across_languages("Minh gave Lan a book.", "Lan được Minh tặng một cuốn sách.") is None
    # Places, named in either order, are no parties.
    assert across_languages("Vy sống ở quận Cầu Giấy, Hà Nội.", "Vy lives in Hanoi, in Cầu Giấy district.") is None
    # Someone else in the owner's place, maybe the owner by name: neither.
    assert across_languages("User owes Tuấn 500k.", "Tuấn đang nợ anh Huy 500k.") is None
    assert across_languages("Server has 32GB of RAM.", "Máy chủ có 64GB RAM.") == OPPOSED
    assert across_languages("User lives in Hanoi.", "Người dùng sống ở Đà Nẵng.") is None
    assert across_languages("User drinks coffee.", "Người dùng không uống cà phê.") == OPPOSED
    # A language is a value.
    assert across_languages("User wants replies in Vietnamese.", "Anh muốn trả lời bằng tiếng Việt.") == SAME
    assert across_languages("User wants replies in English.", "Anh muốn trả lời bằng tiếng Việt.") == OPPOSED
    # All in lower case, a text shows no names: one of the other's must be spelt in it.
    assert across_languages("User lives in Hanoi.", "nguoi dung song o ha noi") == SAME
    assert across_languages("User lives in Hanoi.", "nguoi dung song o da nang") is None


@pytest.mark.parametrize(
    ("vietnamese", "english", "share"),
    [
        ("Người dùng ăn chay.", "User is vegetarian.", 1.0),
        ("nguoi dung an chay truong", "User is vegetarian.", 1.0),  # typed without diacritics
        ("Sáng nào cũng uống 1 ly cf đen.", "User drinks a cup of black coffee every morning.", 1.0),  # chat's "cf"
        ("Anh Huy bị dị ứng đậu phộng.", "User is allergic to peanuts.", 1.0),
        ("Người dùng ăn chay. Thích cà phê đen.", "User is vegetarian and likes black coffee.", 1.0),
        ("Người dùng ăn chay.", "User drinks black coffee at 7am.", 0.0),
        # A name starting the English text is compared as a name, not as a word; an irregular verb is its base.
        ("Bà Bích uống amlodipine mỗi sáng.", "Bích takes amlodipine every morning.", 1.0),
        ("Tuấn đi Đà Lạt tháng trước.", "Tuấn went to Đà Lạt last month.", 1.0),
        # Someone else's allergy: a wife on one side only.
        ("Vợ anh Khoa bị dị ứng tôm.", "User is allergic to shrimp.", 0.0),
        ("Trang's older brother lives in Cần Thơ.", "Ba mẹ Trang ở Cần Thơ.", 0.0),
        # Nothing the lexicon knows on one side: the words cannot tell.
        ("Người dùng là Huy.", "User's name is Huy.", None),
    ],
)
def test_translated_share_is_the_share_of_words_that_translate_each_other(vietnamese, english, share):
    assert translated_share(vietnamese, english) == share
    assert translated_share(english, vietnamese) == share


def test_translated_share_counts_what_one_side_says_more():
    # "ăn chay" translates, "không ăn thịt cá" (no meat or fish) is more than the English says.
    assert 0.3 < translated_share("Anh Huy là người ăn chay, không ăn thịt cá.", "User is vegetarian.") < 0.7


def test_names_agree_with_the_owner_named_or_left_out():
    assert names_agree("Neovim is the user's main editor.", "Anh dùng Neovim làm editor chính.")
    assert names_agree("Lan is the user's wife.", "Vợ của người dùng tên là Lan.")
    assert not names_agree("Minh is ten years older than Tuấn.", "Tuấn is ten years older than Minh.")
    assert not names_agree("Tuấn owes the user 500k.", "Anh Huy còn nợ Tuấn 500 nghìn.")


@pytest.mark.parametrize(
    ("english", "vietnamese", "agree"),
    [
        # The owner and a relative in other places: who borrowed from whom, who picks up whom.
        ("User borrowed 20 million VND from his younger brother.", "Em trai vay người dùng 20 triệu.", False),
        ("User picks up his wife from work at 6 pm.", "Vợ người dùng đón người dùng lúc 6h chiều.", False),
        # The owner alone is not the owner's father alone, typed without diacritics or not.
        ("User is allergic to dust.", "bo nguoi dung di ung bui", False),
        ("User is allergic to dust.", "Bố người dùng dị ứng bụi.", False),
        # A relative whose the owner is, however it is said, is one party; "bỏ" typed plain is no father.
        ("User's wife Trang prefers green tea.", "Vợ người dùng chị Trang thích trà xanh.", True),
        ("User's mother is named Hanh.", "Mẹ của người dùng tên là Hạnh.", True),
        ("User lives with his wife in Hanoi.", "Người dùng sống với vợ ở Hà Nội.", True),
        ("User quit smoking.", "nguoi dung bo thuoc la", True),
        # A child whose the owner is, by "con" or "nhà": the owner's child, not the owner.
        ("User's son Khoa is in grade 3.", "Bé Khoa con người dùng học lớp 5.", True),
        ("User's son is in grade 3.", "Bé trai nhà người dùng đang học lớp ba.", True),
    ],
)
def test_the_owner_and_a_relative_must_be_in_the_same_places(english, vietnamese, agree):
    assert relatives_agree(english, vietnamese) is agree
    assert relatives_agree(vietnamese, english) is agree


@pytest.mark.parametrize(
    ("vietnamese", "english", "verdict"),
    [
        # Lending where the other owes, the parties in the same places: the debt the other way round.
        ("Người dùng nợ Đức 5 triệu.", "User lent Đức 5 million.", OPPOSED),
        ("Anh Tùng cho anh Đức vay 5 triệu.", "Tùng owes Đức 5 million.", OPPOSED),
        # Told from the other side, the parties in each other's places: no contradiction.
        ("Người dùng cho Nam mượn 2 triệu.", "Nam borrowed 2 million from the user.", None),
        ("Nam nợ người dùng 2 triệu.", "User lent Nam 2 million.", None),
        ("Lan nợ Minh 200 nghìn.", "Lan owes Minh 200k.", SAME),
        # Whom one lends to may take a few words: "cho em gái là Huyền vay".
        (
            "Hồi tháng 5 chị Nguyệt cho em gái là Huyền vay 20 triệu.",
            "Nguyệt lent her sister Huyền 20 million in May.",
            SAME,
        ),
    ],
)
def test_a_debt_lent_is_owed_the_other_way_round(vietnamese, english, verdict):
    assert across_languages(vietnamese, english) == verdict
    assert details_agree(vietnamese, english) == (verdict != OPPOSED)


def test_a_vietnamese_word_for_owing_is_no_negation():
    assert not meaning("Lan nợ Minh 200k").negated
    assert meaning("Lan không nợ Minh").negated


def test_a_word_that_folds_into_a_negation_is_none_where_diacritics_are_typed():
    # "cà chua" is a tomato, "chưa" is "not yet"; without diacritics "chua" is read as the negation.
    assert not meaning("Anh Huy rất thích đậu hũ sốt cà chua.").negated
    assert meaning("Anh chưa ăn canh chua.").negated
    assert meaning("anh huy chua an sang").negated
    tofu = "Anh Huy rất thích món đậu hũ sốt cà chua."
    assert across_languages(tofu, "User really likes tofu in tomato sauce.") == SAME


def test_a_word_english_does_not_have_starting_a_sentence_is_a_name():
    assert names_instead("User uses VS Code now.", "Neovim is the main editor.")
    assert names_agree("Tuấn is the user's younger brother.", "Tuấn là em trai của anh Huy.")
    # An English word, a title or a Vietnamese word starting a sentence is no name.
    assert not names_instead("Budget for the laptop is 15 million VND.", "Budget for the phone is 10 million VND.")
    assert names_agree("Mrs Ngọc has type 2 diabetes.", "Bà Ngọc bị tiểu đường tuýp 2.")
    assert names_agree("Sáng nào anh cũng uống cà phê.", "User drinks coffee every morning.")


def test_a_text_saying_what_it_states_is_new():
    for text in ("User uses VS Code now.", "Hiện tại người dùng sống ở Đà Nẵng.", "Giờ anh chuyển hẳn sang VSCode."):
        assert says_changed(text)
    # A value gone up or down to another.
    for text in (
        "The parking fee went up to 300k.",
        "Hoa raised her monthly savings to 6 million.",
        "Tiền gửi xe tăng lên 300 nghìn.",
        "Chị Hoa nâng tiền tiết kiệm hằng tháng lên 6 triệu.",
        "Cholesterol của bố giảm từ 240 xuống còn 200.",
        # The thing between may be written with a hyphen.
        "From December the user raised his full-day guiding fee to 1 million VND.",
        # A plan moved to another time, in either language, as chat types it too.
        "The user's follow-up has been moved to 22 December.",
        "lich tai kham cua ong doi qua 22/12 r",
    ):
        assert says_changed(text)
    for text in (
        "Neovim is the main editor.",
        "Anh dậy lúc 7 giờ sáng.",
        "Nhà có nội thất hiện đại.",
        "Hoa went up to Sa Pa for the weekend.",
        "Chị Hoa tăng ca tối thứ Sáu.",
    ):
        assert not says_changed(text)


def test_an_honorific_or_a_currency_is_not_a_name():
    # "Chị" starting a sentence is not part of Mai's name; "VND" is a unit a paraphrase writes in words.
    assert names_agree("Chị Mai sống ở Đà Lạt.", "Mai lives in Da Lat.")
    assert names_agree("Budget for the new laptop is 15 million VND.", "ngan sach laptop moi tam 15tr")
    assert not names_agree("Chị Mai sống ở Đà Lạt.", "Chị Lan sống ở Đà Lạt.")


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("Người dùng ăn chay trường.", "vi"),
        ("nguoi dung an chay truong", "vi"),
        ("Anh Huy dùng tmux trong terminal", "vi"),
        ("Tuấn owes the user 500k.", ""),
        ("User eats beef phở several times a week.", ""),
        ("Lan wakes up at 6am.", ""),
        # Typed plainly: names and loanwords aside, a word ending as only English words do, an English
        # function word with no letter only Vietnamese has.
        ("trang chay xe air blade di lam hang ngay", "vi"),
        ("sang cn nao a cung goi video cho ba me o Hue", "vi"),
        ("huy codes mostly in neovim", ""),
        ("Khoa is Thảo's fiancé.", ""),
        # A French mark makes no Vietnamese syllable of an English word.
        ("Vinh owns Gio Chieu, a café on Bach Dang street.", ""),
        ("Vinh mở quán café ở Đà Nẵng.", "vi"),
        # A name with marks starting an English sentence, and a Vietnamese sentence starting with a capital.
        ("Quyên goes to yoga on Tuesdays.", ""),
        ("Bà Ngọc prefers phone calls to texting.", ""),
        ("Đức lives in Thủ Đức.", ""),
        ("Tú left Viettel in March.", ""),
        ("Đức chơi games mỗi tối.", "vi"),
        ("Hôm qua Khánh không đi bơi.", "vi"),
        # Typed without marks, with English loanwords and a Vietnamese function word.
        ("a Loc dang lead team backend ben Song Han", "vi"),
        ("chieu nay a Loc review code, toi deploy", "vi"),
        ("Dùng pnpm cho frontend", "vi"),
        ("team lead backend", ""),
        # A name that folds to a Vietnamese word ("Tuấn", "tuan": a week) in an English sentence.
        ("Tuấn is a cook at a restaurant in Huế.", ""),
        ("Tuấn went to Đà Lạt last month.", ""),
        ("nhan zalo cho a Loc, dung gui mail nha", "vi"),
        ("Family trip: Da Lat, March 2027.", ""),
        ("Deadline moved to Friday", ""),
    ],
)
def test_the_language_of_a_text_is_that_of_most_of_its_words(text, language):
    assert language_of(text) == language


def test_a_counterpart_with_another_value_contradicts():
    assert across_languages("User wears size 42 shoes.", "Cỡ giày của người dùng là 43.") == OPPOSED
    # A number shared and one more is a detail, not another value.
    assert across_languages("User drinks coffee at 7:30.", "Anh uống cà phê lúc 7 giờ.") == SAME


def test_days_and_months_are_translated_not_names_and_having_stopped_is_a_negation():
    assert (
        across_languages("Thảo runs 5 km every Sunday morning.", "Sáng Chủ nhật nào chị Thảo cũng chạy 5 cây số.")
        == SAME
    )
    assert across_languages("Thảo no longer drinks matcha.", "Chị Thảo đã bỏ uống matcha.") == SAME
    assert across_languages("User quit coffee.", "Người dùng uống cà phê mỗi sáng.") == OPPOSED
    # Without "đã": quitting what one does or takes ("bỏ hút thuốc", "bỏ thuốc lá rồi", "cai cà phê").
    assert across_languages("User smokes.", "Người dùng bỏ thuốc lá rồi.") == OPPOSED
    assert across_languages("User quit smoking.", "Người dùng bỏ hút thuốc.") == SAME
    assert across_languages("User no longer drinks coffee.", "Người dùng cai cà phê rồi.") == SAME
    # What one is preferred to is nothing affirmed: not calling agrees with preferring messages to calls.
    assert across_languages("User prefers Zalo messages over phone calls.", "a thich nhan zalo, dung goi dt") is None
    assert across_languages("User prefers phone calls over Zalo messages.", "a thich nhan zalo, dung goi dt") == OPPOSED
    # An allergy keeps one from what it is to: not eating it agrees with it; denying the allergy does not.
    assert across_languages("The user is allergic to shrimp.", "Người dùng không ăn được tôm vì bị dị ứng.") is None
    assert across_languages("Người dùng bị dị ứng tôm.", "User does not eat shrimp.") is None
    assert across_languages("The user is allergic to shrimp.", "Người dùng không bị dị ứng tôm.") == OPPOSED
    # Cutting something out for good ("cắt hẳn"), and being free of it ("smoke-free"), are quitting it.
    assert across_languages("Người dùng cắt hẳn trà sữa từ tháng 11.", "User drinks milk tea every week.") == OPPOSED
    assert across_languages("Người dùng cắt hẳn trà sữa.", "User no longer drinks milk tea.") == SAME
    assert (
        across_languages("The user has been smoke-free since 2022.", "Người dùng đã bỏ thuốc lá từ năm 2022.") == SAME
    )
    # "Only" some of what the other names; one thing preferred to another, the other way round.
    assert (
        across_languages("Bếp Nhà lúc ra mắt sẽ chỉ có bản iOS.", "Bếp Nhà will launch on iOS and Android.") == OPPOSED
    )
    assert across_languages("Người dùng chỉ dùng Zalo.", "User uses Zalo.") == SAME
    assert across_languages("Bếp Nhà ra mắt bản iOS thôi.", "Bếp Nhà will launch on iOS and Android.") == OPPOSED
    calls = "Bà Bích thích được gọi điện hơn là nhắn tin, vì mắt kém."
    assert across_languages(calls, "Bích now prefers Zalo text messages to phone calls.") == OPPOSED
    assert across_languages(calls, "Bích prefers phone calls over text messages.") == SAME
    # "Mongo" is MongoDB, "Postgres" PostgreSQL.
    assert (
        across_languages("Người dùng thấy Mongo tiện hơn Postgres.", "User prefers PostgreSQL over MongoDB.") == OPPOSED
    )
    # One thing chosen and another left, said with "instead of" or with a clause that stops it.
    assert (
        across_languages(
            "Ngân chuyển hết ghi chú sang app Ghi Nhanh, thôi dùng sổ giấy.",
            "Ngân keeps all her notes in the Ghi Nhanh app instead of paper notebooks.",
        )
        == SAME
    )


def test_what_a_translation_changes_is_not_held_against_it():
    # Multi-word names, times after noon, days by number, languages, a blood type told more exactly.
    assert across_languages("User cancelled the trip to Hanoi.", "Anh Khoa đã hủy chuyến ra Hà Nội.") == SAME
    assert (
        across_languages("t3 t5 a Khoa don Phuc luc 16h30", "User picks up Phúc at 4:30pm, Tuesdays and Thursdays.")
        == SAME
    )
    assert across_languages("t3 t5 a Khoa don Phuc luc 16h30", "User picks up Phúc at 4:30pm on Tuesdays.") is None
    assert across_languages("Người dùng muốn trả lời bằng tiếng Việt.", "Always reply to Khoa in Vietnamese.") == SAME
    assert across_languages("Nhóm máu của anh Khoa là O.", "User's blood type is O+.") == SAME


SIDE_CLAUSE_DENIALS = [
    # What the first clause says agrees; the clause after it denies what the other does not say.
    ("Người dùng uống trà xanh mỗi sáng, không uống cà phê.", "User drinks green tea every morning.", None),
    ("Mẹ đi bộ mỗi sáng, không đi khi trời mưa.", "Mom walks every morning.", None),
    ("Only write to Vinh in Vietnamese; he cannot read English.", "Nhắn cho Vinh bằng tiếng Việt.", None),
    ("Lan bakes bread on Sundays; she does not sell it.", "Chị Lan nướng bánh mì vào Chủ nhật.", None),
    # It denies what the other says.
    ("Người dùng uống trà xanh mỗi sáng, không uống cà phê.", "User drinks coffee every morning.", OPPOSED),
    ("Chị Thảo thích mèo, không thích chó.", "Thảo loves dogs.", OPPOSED),
    ("Đức chỉ muốn họp buổi sáng, không họp chiều.", "Đức prefers meetings in the afternoon.", OPPOSED),
    ("Bé Vy học piano, không học vẽ nữa.", "Vy takes drawing classes.", OPPOSED),
    # The first clause denies.
    ("Người dùng không uống cà phê nữa.", "User drinks coffee every morning.", OPPOSED),
]


NO_DENIAL_AFTER_ALL = [
    # Had without something in it: "không đường" is sugar-free ("không đá bóng" is not playing football).
    ("Mẹ uống trà sen không đường.", "Mom drinks lotus tea with no sugar.", SAME),
    ("Anh Tú uống cà phê sữa đá, không đường.", "Tú drinks iced milk coffee, no sugar.", SAME),
    ("Mẹ chỉ uống bia không cồn.", "Mom only drinks alcohol-free beer.", SAME),
    # What both deny, however each says it: being loath to, deciding against, keeping free of, leaving.
    ("Ông Bảy ngại đi máy bay.", "Grandpa Bảy doesn't like flying.", SAME),
    ("Chị Mai quyết định không mua xe.", "Mai decided against buying a car.", SAME),
    ("Anh Tú không họp vào thứ Sáu.", "Tú keeps Fridays free of meetings.", SAME),
    ("Anh Tú đã nghỉ ở Viettel.", "Tú left Viettel in March.", SAME),
    ("Anh Tú làm ở Viettel.", "Tú left Viettel in March.", OPPOSED),
    # What the other denies in a reason of its own is nothing it says: both deny reading English (the reason is
    # read as no more of the fact, the side clause as more, so they are not told the same either).
    (
        "Nhắn cho bà Tư bằng tiếng Việt vì bà không đọc được tiếng Anh.",
        "Write to Mrs Tư in Vietnamese; she can't read English.",
        None,
    ),
    # Telling an agent not to do something is no negation of a fact that tells it nothing.
    ("Đừng gợi ý món có đậu phộng cho bé Na.", "Na is allergic to peanuts.", None),
    ("Never book morning flights for Tú.", "Anh Tú ngủ dậy muộn.", None),
    # It is one of what the other tells.
    ("Đừng nhắn cho chị Mai sau 9 giờ tối.", "Message Mai after 9pm.", OPPOSED),
    ("Gửi email cho anh Minh.", "Never send Minh emails.", OPPOSED),
]


@pytest.mark.parametrize(("vietnamese", "english", "verdict"), SIDE_CLAUSE_DENIALS + NO_DENIAL_AFTER_ALL)
def test_a_negation_negates_a_translation_only_where_it_denies_what_the_other_says(vietnamese, english, verdict):
    assert across_languages(vietnamese, english) == verdict
    assert across_languages(english, vietnamese) == verdict


def test_a_plural_in_ees_and_a_verb_of_two_words_are_the_words_the_lexicon_knows():
    # "6" and "six" are a number each says, whose values agree.
    assert translated_share("Tiệm chị Mai có 6 nhân viên.", "Mai's shop has six employees.") == 1.0
    assert translated_share("Bà Tư dậy lúc 5 giờ sáng.", "Mrs Tư gets up at 5am.") == 1.0
    assert translated_share("ba Tu hay ngu luc 9h toi", "Mrs Tư usually goes to bed at 9pm.") > 0
    assert translated_share("Bà Tư dậy lúc 5 giờ sáng.", "Mrs Tư goes to bed at 9pm.") == 0.0


def test_a_day_of_the_week_is_a_value_and_bang_before_a_way_of_going_is_by():
    # "thứ Bảy" is a value, as "Saturday" is (a name); "bằng xe buýt" is by bus, not a degree.
    assert translated_share("User goes swimming on Saturday mornings.", "Sáng thứ Bảy người dùng đi bơi.") >= 0.7
    assert translated_share("User takes the bus to work.", "Người dùng đi làm bằng xe buýt.") >= 0.7
    assert across_languages("User wakes up at 5:30.", "Người dùng dậy lúc 6 rưỡi.") == OPPOSED
    assert across_languages("User wakes up at 5:30.", "Người dùng dậy lúc 5 rưỡi.") == SAME


def test_a_thing_had_without_something_is_no_denial_but_not_doing_something_is():
    assert not meaning("Mẹ uống trà sen không đường.").negated
    assert not meaning("User drinks his coffee black with no sugar.").negated
    assert not meaning("Mom drinks tea, no sugar.").negated
    assert meaning("Người dùng không đá bóng nữa.").negated
    assert meaning("User drinks no milk.").negated
    assert meaning("The user wants answers with no preamble.").negated
    assert not meaning("The class is free of charge.").negated
    assert not meaning("Tú left Hanoi for Saigon in 2019.").negated
    assert not meaning("Tú turned left at the bank.").negated
    assert not meaning("Chị Mai lo ngại về học phí.").negated


@pytest.mark.parametrize(
    ("text", "times"),
    [
        ("Người dùng chạy bộ mỗi sáng.", {"time morning", "often 1/day"}),
        ("nguoi dung chay bo buoi sang", {"time morning"}),
        ("Thảo runs on Saturday mornings.", {"time morning", "day 7"}),
        ("Mẹ gọi điện vào tối Chủ nhật, không gọi buổi chiều.", {"time evening", "time afternoon", "day 8"}),
        ("User works night shifts.", {"time evening"}),
        # Not a time of day: a meal, light, creative, height, optimal, going over, an hour's part of it.
        ("Người dùng ăn tối với gia đình.", set()),
        ("Người dùng thích ánh sáng tự nhiên, sáng tạo nội dung.", set()),
        ("Chiều cao của bé Vy là 1m20, tối ưu.", {120.0}),
        ("a Khoi sang Singapore roi", set()),
        ("Người dùng dậy lúc 6 giờ sáng.", {6.0}),
        # "rưỡi" is half past, as ":30" is.
        ("Mẹ dậy lúc 5 giờ rưỡi sáng.", {5.0, 30.0}),
        ("Mom wakes at 5:30am.", {5.0, 30.0}),
    ],
)
def test_a_time_of_day_is_a_value_a_translation_keeps(text, times):
    assert values_of(text) == times


def test_how_often_is_a_value_however_either_language_writes_it():
    assert values_of("Người dùng chạy bộ 3 lần một tuần.") == {"often 3/week"}
    assert values_of("User runs twice a week.") == {"often 2/week"}
    assert values_of("Người dùng chạy bộ 5km mỗi ngày.") == {5.0, "often 1/day"}
    assert across_languages("Người dùng chạy bộ 3 lần một tuần.", "User runs twice a week.") == OPPOSED
    assert across_languages("Người dùng chạy bộ mỗi ngày.", "User runs once a week.") == OPPOSED
    assert across_languages("Người dùng chạy bộ mỗi ngày.", "User runs daily.") == SAME
    assert across_languages("a Khoi tap gym tuan 3 buoi", "Khoi goes to the gym three times a week.") == SAME
    assert across_languages("Người dùng đi bơi hai lần mỗi tuần.", "User swims twice a week.") == SAME
    assert across_languages("Bà Mai uống thuốc ngày 2 lần.", "Mai takes her pills twice a day.") == SAME
    # How often is set against how often only: "sáng 1 viên tối 1 viên" says it in other words.
    assert (
        across_languages("ba Mai uong aspirin 80mg sang 1 vien toi 1 vien", "Mai takes aspirin 80 mg twice a day.")
        == SAME
    )


def test_another_time_of_day_is_another_value():
    assert across_languages("Người dùng chạy bộ mỗi sáng.", "User runs every morning.") == SAME
    assert across_languages("Người dùng chạy bộ mỗi sáng.", "User runs every evening.") == OPPOSED
    assert across_languages("Mẹ gọi điện cho user mỗi tối Chủ nhật.", "Mom calls the user every Sunday night.") == SAME
    assert across_languages("Mẹ gọi điện cho user mỗi tối Chủ nhật.", "Mom calls the user every evening.") is None
    assert across_languages("Người dùng dậy lúc 6 giờ sáng.", "User wakes up at 6am.") == SAME
    assert across_languages("a Khoi di ngu luc 11h toi", "Khoi goes to bed at 11pm.") == SAME
    # A time of day is set against one only: an hour, which gives its own, or days leave it out.
    assert across_languages("Anh Tùng bơi lúc 6 giờ chiều.", "Tung swims at 6pm.") == SAME
    assert across_languages("Sáng nào anh Tùng cũng bơi lúc 6 rưỡi.", "Tung swims at 6:30am every day.") == SAME
    assert across_languages("a Tung boi t3 t5 luc 6h", "Tung swims on Tuesdays and Thursdays at 6am.") == SAME
    assert across_languages("3 giờ sáng anh Tùng đã dậy.", "Tùng gets up at 3am.") == SAME


def test_what_a_translation_keeps_tells_other_facts_apart():
    # A word borrowed as it is, whose someone is, another letter.
    assert across_languages("Thảo is allergic to shrimp.", "Chị Thảo cũng bị dị ứng penicillin.") is None
    assert across_languages("Đạt is Khoa's direct manager.", "Khoa là quản lý trực tiếp của Đạt.") is None
    assert across_languages("User's blood type is O.", "Nhóm máu của anh Khoa là A.") == OPPOSED
    assert not details_agree("Nhóm máu của anh Khoa là O.", "a Khoa nhom mau A")


def test_days_and_months_are_values_by_name_or_by_number():
    assert across_languages("Lan's thesis is due on May 30, 2027.", "Lan phải nộp luận văn vào ngày 30/5/2027.") == SAME
    assert across_languages("Minh's birthday is August 12.", "Sinh nhật Minh là ngày 12 tháng 8.") == SAME
    assert across_languages("User works out at the gym on Mondays.", "a Khoa tap gym t2") == SAME
    # A month and a year in place of a month and a year: another date.
    assert across_languages("The launch moved to August 2027.", "Dự kiến ra mắt vào tháng 5/2027.") == OPPOSED


def test_numbers_in_words_and_whose_with_an_honorific():
    assert across_languages("Tín is three years older than Quân.", "Tín lớn hơn Quân 2 tuổi.") == OPPOSED
    assert across_languages("Vinh is Quân's manager.", "Sếp trực tiếp của anh Quân là anh Vinh.") == SAME
    assert across_languages("Quân is Vinh's manager.", "Sếp trực tiếp của anh Quân là anh Vinh.") is None
    assert across_languages("Tuấn is the user's younger brother.", "Tuấn là em trai của anh Huy.") == SAME


def test_two_joined_by_and_share_whose_they_are():
    assert (
        across_languages(
            "Thảo and Khoa's wedding is on 10 October 2027.", "Đám cưới của chị Thảo và anh Khoa là ngày 10/10/2027."
        )
        == SAME
    )


def test_vietnamese_chat_short_forms_read_as_their_words():
    chat, written = meaning("ng dung ko uong cf nua"), meaning("người dùng không uống cà phê nữa")
    assert chat.negated and written.negated and chat.content == written.content


def test_another_value_is_one_value_in_place_of_another_in_either_language():
    assert another_value("Lan's thesis deadline is June 15, 2027.", "Lan's thesis is due on May 30, 2027.")
    assert another_value("Ngân sách mua laptop mới là 15 triệu.", "Ngân sách cho laptop mới là 10 triệu đồng.")
    assert another_value("Monthly rent is 6 million VND.", "User pays 8M VND a month in rent.")
    assert another_value("Tuấn là sinh viên năm 3.", "Tuấn đang là sinh viên năm 4.")
    assert another_value("User wears size 42 shoes.", "Cỡ giày của người dùng là 43.")


def test_one_height_or_hour_written_two_ways_is_one_value_and_another_is_another():
    assert across_languages("An is 115 cm tall.", "Bé An cao 1m15.") == SAME
    assert across_languages("An is 120 cm tall.", "Bé An cao 1m15.") == OPPOSED
    assert across_languages("Dad goes to bed at 10pm.", "Bố đi ngủ lúc 11 giờ tối.") == OPPOSED
    # "11pm" read both ways is still one time, in place of "1 giờ sáng".
    assert across_languages("User goes to bed at 11pm.", "Người dùng đi ngủ lúc 1 giờ sáng.") == OPPOSED
    assert across_languages("User goes to bed at 11pm.", "Người dùng đi ngủ lúc 11 giờ tối.") == SAME


def test_at_a_place_after_a_verb_is_where_it_is_done_not_living_there():
    def units(text):
        return lexicon_words(text).units

    assert not any("liv" in unit for unit in units("Người dùng làm việc ở Viettel."))
    assert not any("liv" in unit for unit in units("Người dùng ăn trưa ở văn phòng."))
    assert any("liv" in unit for unit in units("Người dùng ở Hà Nội."))
    assert any("liv" in unit for unit in units("Chị Hằng sống ở Đà Nẵng."))
    assert across_languages("User works at Viettel.", "Người dùng làm ở Viettel.") == SAME
    assert across_languages("Chị Hằng sống ở Đà Nẵng.", "Hằng lives in Da Nang.") == SAME


def test_a_sentence_starting_with_a_name_no_word_is_is_not_about_the_one_the_other_says_whose():
    thao, phuc = (
        "Thảo's own dentist appointment is on 10 December at 5pm.",
        "Phúc có lịch khám răng 9h sáng ngày 10/12.",
    )
    assert not names_agree(thao, phuc)
    assert not another_value(thao, phuc)
    # A word of the language starting the sentence names no one: the owner's appointment may be Thảo's.
    assert names_agree(thao, "Lịch khám răng ngày 10/12 lúc 5 giờ chiều.")


def test_another_value_is_not_a_value_left_out_another_kind_of_value_or_another_polarity():
    # The same amount written two ways; a time told more exactly.
    assert not another_value("User's monthly rent is 12 million dong.", "User rents the flat for 12M VND a month.")
    assert not another_value("User drinks coffee at 7:30.", "User drinks coffee at 7.")
    # Two hours is not a Sunday.
    assert not another_value("Phúc may play games for 2 hours.", "Phúc plays football on Sunday.")
    # Not the same polarity, or not the same people.
    assert not another_value("User no longer runs 5 km.", "User runs 10 km.")
    assert not another_value("Lan owes Minh 200k.", "Minh owes Lan 500k.")
    # Two things of a kind, each with its own value.
    assert not another_value("Budget for the new laptop is 15 million VND.", "Budget for the new phone is 10 million.")
    assert not another_value("Ngân sách cho laptop mới là 10 triệu đồng.", "Ngân sách mua màn hình mới là 5 triệu.")
    # How often, or a time of day: things of every kind are done then.
    assert not another_value("Người dùng chạy bộ 3 lần một tuần.", "Người dùng đi bơi hai lần mỗi tuần.")
    assert not another_value("User runs every morning.", "User reads the news every evening.")


def test_two_things_of_a_kind_are_not_one_named_in_place_of_the_other():
    assert not names_instead("User has a cat named Mochi.", "The user has a dog named Lu.")
    assert not names_instead("Người dùng nuôi một con mèo tên Mochi.", "The user has a dog named Lu.")
    assert names_instead("User has a cat named Mochi.", "Người dùng nuôi một con mèo tên Bơ.")


def test_what_is_also_so_puts_nothing_in_the_place_of_another():
    assert not another_value("Project Atlas must launch by 15 March.", "Project Orion is also due on 20 March.")
    assert not names_instead("Trang phụ trách dòng serum Sen.", "Trang cũng phụ trách chiến dịch son Hồng.")
    assert not names_instead("User lives in Hanoi.", "User also lives in Da Nang in the summer.")
    # "nào … cũng" is every, not also.
    assert another_value("Sáng Chủ nhật nào chị Thảo cũng chạy 5 km.", "Sáng Chủ nhật chị Thảo chạy 10 km.")


@pytest.mark.parametrize(
    "text, values",
    [
        ("User rents the flat for 12M VND a month.", {12_000_000.0}),
        ("Tiền phòng của Long mỗi tháng 4 triệu.", {4_000_000.0}),
        # An amount as chat types it: "7tr5" is 7.5 million, "1k5" 1,500; "tháng 12 triệu" no month.
        ("Mai chuyen tro qua Hai Chau r, 2tr5/thang", {2_500_000.0}),
        ("tien tieu cua Bao 1k5 AUD/thang", {1_500.0}),
        ("Mỗi tháng 12 triệu tiền nhà.", {12_000_000.0}),
        # When a new value holds from, typed without marks, is none of its values.
        ("dc chi Thu tang luong len 7tr5 tu thang 12 roi", {7_500_000.0}),
        ("tang luong len 7tr5 tu T12", {7_500_000.0}),
        ("Chuyến đi dời sang tháng 4/2027.", {"month 4", 2027.0}),
        ("Nhà giá 2 tỷ.", {2_000_000_000.0}),
        ("User runs 5m sprints.", {5.0}),
        # A run's "k" is kilometres, an amount's thousands.
        ("Lan does a 10k run on Sundays.", {10.0, "day 8"}),
        ("Lan owes Minh 200k.", {200_000.0}),
        # A length in metres is one in centimetres; an hour of the evening is one of the 24-hour clock.
        ("Bé An cao 1m15.", {115.0}),
        ("An is 1.15 m tall.", {115.0}),
        ("An is 115 cm tall.", {115.0}),
        ("Bố đi ngủ lúc 10 giờ tối.", {10.0, 22.0}),
        ("Mẹ về nhà lúc 5 giờ 30 chiều.", {5.0, 30.0, 17.0}),
        ("Mẹ dậy lúc 5 giờ sáng.", {5.0}),
        # When a new value holds from is none of its values; a span from one date to another is.
        ("Giá croissant đã tăng lên 38 nghìn từ tháng 10.", {38_000.0}),
        ("Tháng 11/2026 bác sĩ đã tăng liều lên 75mcg.", {75.0}),
        ("Since March 2026 the user pays 5 million a month now.", {5_000_000.0}),
        ("The trip is now from 20 December to 5 January.", {20.0, "month 12", 5.0, "month 1"}),
        ("The family's Da Lat trip is now in April 2027.", {"month 4", 2027.0}),
    ],
)
def test_amounts_and_months_are_read_as_written(text, values):
    assert values_of(text) == values


@pytest.mark.parametrize(
    "text, other",
    [
        ("Người dùng ăn chay.", "User is vegetarian."),
        ("Con gái của người dùng tên là Mai.", "User's daughter is named Mai."),
        ("Lan nợ Minh 200 nghìn.", "Lan owes Minh 200k."),
        ("Lan owes Minh 200k.", "Lan nợ Minh 200 nghìn."),
        # Whom it is about may be named in one only; a place is written alike.
        ("Anh Huy thích phở.", "User likes phở."),
        ("Người dùng sống ở Đà Nẵng.", "User lives in Da Nang."),
        ("chi Mai o Sai Gon", "Mai lives in Ho Chi Minh City."),  # one place by two names
        ("Thao o Q3 Sai Gon", "Thảo lives in District 3, Ho Chi Minh City."),  # its kind in other words
        # A narrower denial tells nothing the broader one does not.
        ("User does not drink coffee after 2pm.", "Người dùng không uống cà phê."),
    ],
)
def test_a_translation_that_tells_nothing_more(text, other):
    assert adds_nothing(text, other)


@pytest.mark.parametrize(
    "text, other",
    [
        ("Người dùng ăn chay từ năm 2020.", "User is vegetarian."),  # a value more
        ("Người dùng bị dị ứng đậu phộng rất nặng.", "User is allergic to peanuts."),  # words more
        ("User lives in Hanoi with his wife.", "Người dùng sống ở Hà Nội."),
        ("User is vegetarian.", "User is a vegetarian."),  # one language: not this test's
        ("Người dùng không uống cà phê.", "User does not drink coffee after 2pm."),  # a broader denial
        ("Cô Hoa sinh ra ở Thanh Hoá.", "Hoa was born in 1958."),  # a name more: where, not when
    ],
)
def test_a_translation_that_tells_more(text, other):
    assert not adds_nothing(text, other)


def test_a_vietnamese_name_is_no_english_number():
    # Folded, "tên" (a name) is "ten".
    assert values_of("Con gái của người dùng tên là Mai.") == set()
    assert values_of("User has ten cats.") == {10.0}


def test_a_name_that_folds_like_a_day_is_a_name():
    # "Thủ" folds as "thứ" does, but "Đức" is no number of a day; "Thu" before a capitalised word is no Thursday.
    assert names_in("Anh Tú sống ở Thủ Đức.") == ["tu", "thuduc"]
    assert names_in("Anh Tú chạy bộ thứ Năm và Chủ nhật, học tiếng Đức.") == ["tu"]
    assert names_in("He runs on Thu and Sun.") == []


def test_days_written_short_one_after_another_are_days():
    assert names_in("He swims Tue Thu Sat at 6am.") == []


def test_a_names_kind_of_place_is_no_part_of_it():
    assert names_in("He runs along the Han River.") == names_in("Anh chạy dọc sông Hàn.") == ["han"]
    assert names_in("He lives in Thu Duc City.") == names_in("Anh sống ở TP Thủ Đức.") == ["thuduc"]
    assert names_in("His son is at Hoa Cuong Primary School.") == ["hoacuong"]
    assert across_languages("Anh Tú sống ở TP Thủ Đức.", "Tú lives in Thu Duc City.") == SAME
    # The names that are people's too stay names: "Hồ", "Quân", "Dương".
    assert names_in("Anh sống ở Hồ Tây, gần anh Quân.") == ["hotay", "quan"]


def test_a_memory_may_say_the_owners_name_but_not_someone_elses_as_theirs():
    from memories.language.translation import owner_named

    assert owner_named("User's name is Huy.") == {"huy"}
    assert owner_named("Address the user as 'chị Thảo' and refer to yourself as 'em'.") == {"thao"}
    assert owner_named("Người dùng muốn được gọi thẳng tên 'Thảo', không thêm 'chị'.") == {"thao"}
    assert owner_named("Con gái của người dùng tên là Mai.") == set()
    assert owner_named("Vợ người dùng được gọi là Lan.") == set()


def test_a_vietnamese_number_in_words_counts_only_before_what_it_counts():
    assert counts_in_digits("Người dùng có ba con.") == "Người dùng có 3 con."
    assert counts_in_digits("Bố người dùng sáu mươi lăm tuổi.") == "Bố người dùng 65 tuổi."
    assert (
        counts_in_digits("Bé An mười hai tuổi, tập bơi hai buổi một tuần.") == "Bé An 12 tuổi, tập bơi 2 buổi một tuần."
    )
    # "hai", "bốn", "sáu", "bảy", "tám" and numbers of two words are numbers before any word.
    assert counts_in_digits("Thảo có hai chị gái.") == "Thảo có 2 chị gái."
    assert counts_in_digits("Công ty có hai mươi lăm nhân viên.") == "Công ty có 25 nhân viên."
    # A father, a weekday, a year, a nickname after an honorific, a street's name: no numbers.
    for text in (
        "Ba người dùng là bác sĩ.",
        "Ba tôi thích câu cá.",
        "Họp vào thứ Ba.",
        "Năm nay người dùng 30 tuổi.",
        "Anh Hai ở Cần Thơ, chú Sáu bán phở.",
        "Nhà ở đường Hai Bà Trưng.",
    ):
        assert counts_in_digits(text) == text


def test_a_count_in_words_or_digits_is_one_value_in_either_language():
    assert across_languages("User has three children.", "Người dùng có ba con.") == SAME
    assert across_languages("User has two kids.", "Người dùng có 2 con.") == SAME
    assert across_languages("User has two kids.", "Người dùng có ba con.") == OPPOSED
    assert across_languages("User owns two cats.", "Người dùng nuôi ba con mèo.") == OPPOSED
    # A number in each is a word each translates: the share is what the lexicon pairs, whichever the numbers.
    assert (
        translated_share("User goes to the gym three times a week.", "Người dùng đi tập gym ba buổi một tuần.") >= 0.7
    )
    assert translated_share("User has three children.", "Người dùng có ba con.") == 1.0


def test_working_at_a_place_is_work_when_read_across():
    assert [unit.english for unit in in_other_language("Người dùng làm ở Viettel", first_words_too=True)] == [
        False,
        True,
    ]
    assert "work" in in_other_language("anh trai tôi làm ở đâu")[-1].meaning


def test_a_name_starting_an_english_sentence_is_no_word_it_merely_spells():
    # "Lan" is no form of "lane", "Minh" no English word for being a syllable of "Hồ Chí Minh".
    assert translated_share("Lan is the user's wife.", "Lan là vợ anh Huy.") == 1.0
    assert translated_share("Minh's birthday is August 12.", "Sinh nhật Minh là ngày 12 tháng 8.") == 1.0
    assert translated_share("Lan owes Minh 200k.", "Lan nợ Minh 200 nghìn.") == 1.0


def test_who_someone_is_said_beside_their_name_speaks_of_them_not_of_another():
    # "Bin, the user's son" is Bin, whom the Vietnamese calls by name alone.
    vietnamese = "Tuấn nợ Dũng 5 triệu."
    assert translated_share(vietnamese, "Tuấn owes Dũng 5 million.") == 1.0
    for english in ("Tuấn owes his colleague Dũng 5 million.", "Tuấn owes Dũng, his colleague, 5 million."):
        assert translated_share(vietnamese, english) == 1.0
    # Without the name the relative is someone the other does not speak of.
    assert translated_share(vietnamese, "Tuấn owes his colleague 5 million.") == 0.0
    assert translated_share("Bin bị dị ứng tôm.", "Bin, the user's son, is allergic to shrimp.") == 1.0
    assert translated_share("Bin bị dị ứng tôm.", "The user's son is allergic to shrimp.") == 0.0


def test_thang_before_a_name_is_no_month():
    # "cho thằng Phúc mượn" speaks of a guy, not of a month's pay.
    lent = "Người dùng cho thang Phuc muon 2tr, Phuc chua tra"
    assert translated_share(lent, "His pay is 6 million VND per month.") < 0.6
    assert translated_share("Tháng 12 tiệm đóng cửa lúc 5h.", "In December the shop closes at 5pm.") == 1.0


def test_initials_chat_writes_for_a_word_are_no_word_borrowed():
    # "CLB" is "câu lạc bộ", no English word the other must spell.
    english = "The user plays badminton with the Vietnamese student club every Wednesday night."
    assert across_languages("Tối thứ 4 người dùng đi đánh cầu lông với CLB sinh viên Việt Nam.", english) == SAME
    assert "benh" in meaning("bs dặn ông tái khám ở BV Đà Nẵng").content


def test_parties_in_each_others_places_oppose_only_a_fact_said_in_words_that_translate():
    for english, vietnamese, verdict in (
        ("Lan owes Minh 200k.", "Minh nợ Lan 200k.", OPPOSED),
        ("Hiếu reports to the user.", "Người dùng báo cáo cho Hiếu.", OPPOSED),
        # Two things taught, each by one of them: both may be so.
        ("His cousin Bảo teaches the user the guitar.", "Người dùng kèm toán cho em họ Bảo.", None),
        ("Linh teaches her younger sister Hà watercolour painting.", "Em gái Hà dạy Linh nấu ăn.", None),
    ):
        assert translated_verdict(english, vietnamese, translated_share(english, vietnamese)) == verdict


def test_numbers_of_another_kind_are_no_word_translated():
    # A share of a salary is no amount of rent.
    assert translated_share("Mỗi tháng anh Huy tiết kiệm 20% lương.", "User pays 8 million VND a month in rent.") < 0.7
    assert translated_share("Bà Tư dậy lúc 5 giờ sáng.", "Mrs Tư goes to bed at 9pm.") == 0.0


def test_two_texts_each_naming_or_giving_what_the_other_does_not_are_two_facts():
    english = "Lan writes her thesis in LaTeX on Overleaf."
    for vietnamese, verdict in (
        ("Lan đã viết xong chương 3 của luận văn.", None),
        ("Lan viết luận văn bằng LaTeX trên Overleaf.", SAME),
    ):
        assert translated_verdict(english, vietnamese, translated_share(english, vietnamese)) == verdict


def test_a_date_in_each_is_a_word_translated_and_an_honorific_before_a_name_no_word():
    assert (
        translated_share("Lan's thesis deadline is June 15, 2027.", "Hạn nộp luận văn của Lan là ngày 15/6/2027.")
        == 1.0
    )
    # "Bé Na" is Na, no baby: the English one speaks of no one else.
    assert translated_share("User has a 4-year-old daughter named Na.", "Bé Na, con gái anh Huy, năm nay 4 tuổi.") > 0.7
    # Another person's birthday on another date is no contradiction, however well the words translate.
    vietnamese, english = "Sinh nhật của chị Hoa là ngày 3/7.", "Lan's birthday is on 4 July."
    assert translated_verdict(vietnamese, english, translated_share(vietnamese, english)) is None


def test_words_saying_a_name_is_one_and_stopping_are_read_alike_in_both_languages():
    # "tên là" and "named" say who, as an honorific does; "given up" is quitting, "no longer" no word.
    assert translated_share("Lan is the user's wife.", "Vợ của người dùng tên là Lan.") == 1.0
    assert translated_share("User's wife is named Thảo.", "Vợ người dùng tên là Thảo.") == 1.0
    assert (
        translated_share("Người dùng đã ngừng chơi cầu lông.", "User has given up badminton and no longer plays.")
        >= 0.7
    )


def test_one_name_in_place_of_another_is_a_value_not_someone_a_rule_is_about():
    def verdict(english, vietnamese):
        return translated_verdict(english, vietnamese, translated_share(english, vietnamese))

    assert verdict("User lives in Hanoi.", "Người dùng sống ở Đà Nẵng.") == OPPOSED
    assert verdict("User works at FPT Software.", "Người dùng làm ở Viettel.") == OPPOSED
    # Two people one may not message early are two rules.
    assert verdict("Don't call Minh after 9pm.", "Đừng gọi cho Thảo sau 9h tối.") is None
    # Whom both name the fact is of; the place each gives is its value.
    assert verdict("Khoa lives in Da Nang.", "Khoa sống ở Hà Nội.") == OPPOSED
    assert verdict("Khoa lives in Da Nang.", "Khoa sống ở Đà Nẵng.") == SAME


def test_a_name_vietnamese_also_has_as_a_word_starting_a_sentence_is_still_someone():
    # "Lan" is an orchid, "Tuấn" handsome, "Minh" oneself: starting a sentence they are not read as names,
    # but they are not the one the other text names.
    assert not names_agree("Minh likes tea.", "Lan thích trà.")
    assert not names_agree("Lan plays tennis on Saturdays.", "Minh chơi tennis vào thứ Bảy.")
    assert not names_agree("Huy works at FPT.", "Tuấn làm ở FPT.")
    # "Hoa" is a flower too, which the English text does not speak of.
    assert not names_agree("Lan likes tea.", "Hoa thích trà.")
    assert names_agree("Hoa likes tea.", "Hoa thích trà.")
    assert across_languages("Minh likes tea.", "Lan thích trà.") is None
    assert across_languages("Minh likes tea.", "Minh thích trà.") == SAME
    # The owner, however called, may be the one named.
    assert names_agree("Tuấn is the user's younger brother.", "Tuấn là em trai của anh Huy.")
    # "Bình thường" is "usually"; "Bình" alone, calling no one "anh" or "chị", is someone.
    assert not names_agree("Bình thường người dùng ăn sáng ở nhà.", "Bình hay ăn sáng ở nhà.")
    assert names_agree("Sáng nào anh cũng uống cà phê.", "User drinks coffee every morning.")


def test_a_language_and_a_name_its_language_has_as_a_word_translate():
    # "Japanese" is capitalised yet a word "tiếng Nhật" translates; "Mai" is a name, not an apricot, when
    # the other text names her.
    assert translated_share("Mai học tiếng Nhật.", "Mai is learning Japanese.") == 1.0
    assert across_languages("Mai học tiếng Nhật.", "Mai is learning Japanese.") == SAME
    assert translated_share("Mai học tiếng Nhật.", "Lan is learning Japanese.") < 1.0


def test_a_relative_by_marriage_is_not_the_relative():
    # "mẹ vợ" is the wife's mother: not "mother" alone, but "mother-in-law".
    assert translated_share("User's mother lives in Nam Định.", "Mẹ vợ của người dùng sống ở Nam Định.") == 0.0
    assert translated_share("User's mother-in-law lives in Nam Định.", "Mẹ vợ của người dùng sống ở Nam Định.") == 1.0
    assert translated_share("User's mother-in-law lives in Nam Định.", "Mẹ của người dùng sống ở Nam Định.") == 0.0


def test_a_tomcat_is_no_female_cat():
    assert translated_share("User's cat Mochi is female.", "Con mèo Mochi của người dùng là mèo cái.") == 1.0
    assert translated_share("User's cat Mochi is female.", "Con mèo Mochi của người dùng là mèo đực.") < 0.7


def test_a_word_starting_a_sentence_is_someone_only_when_it_is_a_given_name():
    # "Từ" (from) is no "Tú": a value raised from this month is the fee's, not someone's.
    fee = "Phí gửi xe hằng tháng ở văn phòng của người dùng là 300 nghìn."
    assert names_agree(fee, "Từ tháng này phí gửi xe ở văn phòng tăng lên 350 nghìn mỗi tháng.")
    assert not names_agree("Lan likes tea.", "Hoa thích trà.")


def test_an_email_address_is_a_value_no_other_address_is():
    assert "address minh@acme.com" in values_of("User's work email is Minh@acme.com.")
    personal, work = (
        values_of("User's personal email is minh.tran88@gmail.com."),
        values_of("User's work email is minh@acme.com."),
    )
    assert values_instead(personal, work)
    assert another_value("User's email is minh@acme.com.", "User's email is minh@beta.vn.")
    assert not another_value("User's work email is minh@acme.com.", "Work email of the owner: minh@acme.com")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User's personal email is minh.tran88@gmail.com.", "User's work email is minh@acme.com."),
        ("SĐT cá nhân của người dùng: 0912 333 444.", "Số điện thoại công ty của người dùng: 028 3822 1234."),
    ],
)
def test_two_things_kept_for_other_uses_are_no_value_in_place_of_the_other(a, b):
    assert not another_value(a, b)


def test_values_of_two_things_in_one_language_are_no_value_in_place_of_the_other():
    rent, electricity = "User's rent is 8 million VND per month.", "User's electricity bill is about 800k a month."
    assert not another_value(rent, electricity)
    assert not another_value("Người dùng dậy lúc 6 giờ sáng.", "Người dùng đi làm lúc 7 giờ sáng.")
    assert another_value("Lan's thesis deadline is June 15.", "Lan's thesis is due on May 30.")
    assert another_value("User's rent is 8 million VND per month.", "User's rent is 9 million VND per month.")


def test_where_one_was_born_is_no_place_where_one_lives_now_replaces():
    assert not names_instead("User was born in Hanoi.", "User currently lives in Da Nang.")
    assert not names_instead("Quê người dùng ở Huế.", "Người dùng sống ở Hà Nội.")
    assert names_instead("User was born in Hanoi.", "User was born in Hue.")
    assert names_instead("User lives in Hanoi.", "User lives in Da Nang.")


def test_names_of_two_people_or_of_things_kept_for_other_uses_are_no_value_replaced():
    assert not names_instead("User owes his friend Khoa 5 million VND.", "User's colleague Duc owes him 5 million VND.")
    assert not names_instead("Người dùng dùng Windows ở máy tính ở nhà.", "Người dùng dùng Ubuntu ở máy công ty.")
    assert names_instead("Người dùng dùng Windows.", "Người dùng dùng Ubuntu.")


def test_these_days_and_from_this_month_say_when_and_that_it_is_new():
    assert says_changed("Từ tháng này người dùng đi làm bằng xe buýt.")
    assert says_changed("Mai vừa đo mắt lại, giờ cận 2,5 độ.")
    assert not says_changed("Người dùng ngủ lúc 10 giờ.")
    assert meaning("Dạo này Mai thức khuya.").content == meaning("Mai thức khuya.").content


def test_the_word_the_assistant_calls_itself_by_is_a_value():
    assert "self em" in values_of("Chị Thảo muốn trợ lý xưng em, gọi chị.")
    assert another_value("Chị Thảo muốn trợ lý xưng em, gọi chị.", "Chị Thảo dặn trợ lý xưng tôi và gọi chị.")
    assert not another_value("Chị Thảo muốn trợ lý xưng em.", "Khi nói chuyện với chị Thảo, trợ lý xưng em.")


def test_two_people_each_doing_something_is_no_value_replaced():
    assert not names_instead("Quân hates durian.", "Hòa loves durian.")
    assert not names_instead("Quân nuôi một con mèo tên Mướp.", "Chị Hòa nuôi một con chó tên Bim.")
    # One named as a value, or the same one doing two things, still is.
    assert names_instead("Obsidian is the main notes app.", "User keeps notes in Notion now.")
    assert names_instead("Quân nuôi một con mèo tên Mướp.", "Quân nuôi một con mèo tên Miu.")


def test_what_two_people_have_or_someone_a_relation_names_is_no_value_replaced():
    assert not names_instead("Quân's gym fee is 600k a month.", "Học phí tiếng Anh của Hòa là 600k/tháng.")
    assert not names_instead("User's father lives in Vinh.", "User's father-in-law lives in Huế.")
    assert not names_instead("User's sister lives in Huế.", "User lives in Hanoi.")
    assert names_instead("User's dentist is Dr. Phong.", "User's dentist is Dr. Vinh.")


def test_a_name_and_its_short_form_are_one_name():
    assert not names_instead("User rides a Yamaha Sirius.", "Người dùng chạy xe Sirius.")
    assert not names_instead("User's dentist is Dr. Phong.", "Nha sĩ của người dùng là BS Phong.")
    assert names_instead("User rides a Yamaha Sirius.", "Người dùng chạy xe Wave.")


def test_two_people_each_named_doing_one_thing_are_two_facts():
    assert not names_agree("Quân dắt chó đi dạo lúc 6h.", "Hòa dắt chó đi dạo lúc 6h.")
    # "Tú" is no part of "Tuesday".
    swims = "Quân swims at the Kỳ Hòa pool on Tuesday evenings."
    assert across_languages("Tú bơi ở hồ Kỳ Hòa tối thứ Ba.", swims) != SAME
    assert across_languages("Quân bơi ở hồ Kỳ Hòa tối thứ Ba.", swims) == SAME


def test_two_people_said_to_be_something_are_two_but_a_name_given_as_the_value_is_one():
    assert not names_instead("Phúc is 38.", "Ngọc is 35.")
    assert another_value("Phúc is 38.", "Phúc is 39.")
    assert names_instead("Obsidian is the main notes app.", "Notion is now the user's notes app.")


def test_avoiding_something_is_not_doing_it_across_languages():
    assert across_languages("Người dùng không ăn đồ ngọt sau 8 giờ tối.", "User avoids sweets after 8 pm.") == SAME
    assert across_languages("Người dùng ăn đồ ngọt sau 8 giờ tối.", "User avoids sweets after 8 pm.") == OPPOSED


def test_two_events_one_has_are_two_not_one_value_in_place_of_another():
    assert not another_value("User has a haircut on May 4.", "User has a haircut appointment on May 18.")
    assert not names_instead("User has a flight to Đà Lạt on July 2.", "Người dùng có chuyến bay đi Phú Quốc ngày 9/7.")
    # One said to have moved is the same event: its old date is no more.
    assert another_value("User's haircut appointment is on May 4.", "User's haircut appointment moved to May 18.")


def test_the_language_asked_for_is_not_the_one_said_to_be_written():
    asked = "Always reply in English, even if I message you in Vietnamese."
    assert values_of(asked) == {"language english"}
    assert across_languages("Luôn trả lời bằng tiếng Việt.", asked) == OPPOSED
    assert not details_agree("Luôn trả lời bằng tiếng Việt.", asked)


def test_a_value_aimed_at_is_no_value_had_in_its_place():
    weighs, goal = "User weighs 80 kg.", "User's goal weight is 70 kg."
    assert not another_value(weighs, goal)
    assert not contradict(variant_of(weighs), variant_of(goal), False)
    assert across_languages("Người dùng nặng 80kg.", goal) is None
    assert another_value("User's goal weight is 75 kg.", goal)
    # Aimed at on one side, said another way on the other, is still one fact.
    assert (
        across_languages("Người dùng đang học tiếng Hàn để thi TOPIK 4.", "User studies Korean, aiming for TOPIK 4.")
        == SAME
    )
