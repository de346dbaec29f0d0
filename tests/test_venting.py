"""One-off venting (SPEC §3): what the test calls a passing mood, and what it lets through. What the write
path does with it is tested with the other refusals in test_proposals.py; the doctor reports venting as
noise with the same test (test_doctor.py)."""

import pytest

from memories.screening import venting
from memories.screening.venting import is_venting
from tests.data.venting_corpus import HELD_OUT_NOT_VENTING, HELD_OUT_VENTING, NOT_VENTING, VENTING

# Refusing a lasting memory loses it; a venting text let through is only stored or queued (and the doctor
# reports it), so the bar for false refusals is the higher one.
MIN_RECALL = 0.95
MAX_FALSE_REFUSALS = 0.02
HELD_OUT_MIN_RECALL = 0.70
VIETNAMESE = "ăâđêôơưáàảãạ"


def test_corpus_is_big_enough_and_in_both_languages():
    assert len(VENTING) >= 100 and len(NOT_VENTING) >= 100
    for corpus in (VENTING, NOT_VENTING):
        vietnamese = sum(any(c in VIETNAMESE for c in text.lower()) for text in corpus)
        assert vietnamese >= 40 and len(corpus) - vietnamese >= 40


def test_corpus_recall_and_false_refusals():
    missed = [text for text in VENTING if not is_venting(text)]
    false_refusals = [text for text in NOT_VENTING if is_venting(text)]
    recall = 1 - len(missed) / len(VENTING)
    false_rate = len(false_refusals) / len(NOT_VENTING)
    print(
        f"\nventing: recall {recall:.1%} ({len(VENTING) - len(missed)}/{len(VENTING)} refused), "
        f"false refusals {false_rate:.1%} ({len(false_refusals)}/{len(NOT_VENTING)})"
    )
    assert recall >= MIN_RECALL, missed
    assert false_rate <= MAX_FALSE_REFUSALS, false_refusals


def test_held_out_set_the_rule_was_not_fitted_to():
    """The fifth blind set measures the rule on new writing: it may miss more, but may not refuse more
    lasting memories. Its first run: 75% refused, no look-alike."""
    missed = [text for text in HELD_OUT_VENTING if not is_venting(text)]
    false_refusals = [text for text in HELD_OUT_NOT_VENTING if is_venting(text)]
    recall = 1 - len(missed) / len(HELD_OUT_VENTING)
    false_rate = len(false_refusals) / len(HELD_OUT_NOT_VENTING)
    print(f"\nventing, held out: recall {recall:.1%}, false refusals {false_rate:.1%}")
    assert recall >= HELD_OUT_MIN_RECALL, missed
    assert false_rate <= MAX_FALSE_REFUSALS, false_refusals


@pytest.mark.parametrize(
    "text",
    [
        "Ugh, the traffic was awful today.",  # an interjection, a judgement in the moment
        "User is exhausted right now.",  # a present state
        "Người dùng đang bực vì kẹt xe.",
        "Chán quá, mưa cả ngày.",  # an intensified mood
        "User complained that the coffee was cold.",  # a complaint
        "Hôm nay người dùng ghét cả thế giới.",  # hating, placed in the moment
    ],
)
def test_a_mood_of_the_moment_is_venting(text):
    assert is_venting(text)


@pytest.mark.parametrize(
    "text",
    [
        "User finds pop-up notifications annoying.",  # a judgement, not placed in the moment
        "User is exhausted after night shifts; avoid morning meetings then.",  # a condition
        "Người dùng hay cáu khi bị đói.",  # a habit
        "User's wife is stressed about her thesis defense next Friday.",  # someone else, a date
        "User was annoyed that the assistant answered in English.",  # feedback to the assistant
        "Người dùng hỏi cách giảm căng thẳng khi làm việc.",  # a question on the topic
        "User paid the electricity bill today.",  # a time word, no mood
        "Người dùng rất ghét đồ ăn cay.",  # hating something is a dislike that lasts
    ],
)
def test_the_same_words_with_something_lasting_are_not(text):
    assert not is_venting(text)


@pytest.mark.parametrize(
    "text",
    [
        "Người dùng về quê hôm nay.",  # "quê" is also "embarrassed", colloquially
        "Tức là hôm nay người dùng nghỉ làm.",  # "tức là": "that is"
        "Hôm nay người dùng xem một phim buồn cười lắm.",  # "buồn cười": funny
        "Người dùng đang lo thủ tục visa hôm nay.",  # "lo": worry, and also "see to"
        "Hôm nay cần in tài liệu khổ A4.",  # "khổ": a paper size
        "User is done with the quarterly report today.",
        "User's blood pressure was low this morning.",
        "Man United won again today!",
        "User transferred the rent today: chuyển khoản lúc 9h.",
        "Bà bán than ở chợ hôm nay.",  # "than": to complain, and charcoal
        "The new app is snappy today and the budget was spent!",
        "Người dùng đi làm bằng xe buýt hôm nay nên về muộn.",  # "nên": "so", not advice
    ],
)
def test_words_with_an_everyday_second_meaning_are_not_moods(text):
    assert not is_venting(text)


def test_the_word_check_never_hides_what_the_patterns_find():
    """``is_venting`` skips the patterns for a text without any of their words; that must change nothing."""
    for text in VENTING + NOT_VENTING + HELD_OUT_VENTING + HELD_OUT_NOT_VENTING:
        text = venting._normal(text)
        found = venting._OUTBURST.search(text) or (venting._JUDGEMENT.search(text) and venting._MOMENT.search(text))
        assert not found or venting._may_vent(text), text


def test_asking_to_remember_in_the_text_or_its_message_keeps_it():
    assert is_venting("Hôm nay mình bực sếp lắm.")
    assert not is_venting("Nhớ giúp mình là hôm nay mình bực sếp lắm.")
    assert not is_venting("Hôm nay mình bực sếp lắm.", "Nhớ giúp mình là hôm nay mình bực sếp lắm nhé")
    assert not is_venting("User was furious at the landlord today.", "Remember this, I'm furious at him today")
    assert is_venting("User was furious at the landlord today.", "I'm furious at him today")
    # Not remembering is not asking to remember.
    assert is_venting("User is fed up right now.", "I can't remember where I parked, I'm so fed up right now")
    assert is_venting("Hôm nay mình bực quá.", "Mình không nhớ là để ví ở đâu, hôm nay bực quá")
