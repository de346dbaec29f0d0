"""A question in one language finds a memory written in the other with the words alone (embeddings off, the
default): the lexicon reads the query in the other language (``translation.in_other_language``) and the
lexical backend looks those words up too. Every test runs on SQLite and on PostgreSQL."""

import pytest

from memories import lifecycle
from memories.language.translation import MOST_UNITS, MemoryWords, in_other_language
from memories.models import Memory
from memories.retrieval import build_context
from memories.retrieval.finding import find
from memories.retrieval.relevance import TRANSLATED, backend, tokens
from tests.factories import add_memory

pytestmark = pytest.mark.django_db


def remember(text):
    return add_memory(text).pk


def _memory(text):
    return MemoryWords(tokens(text))


def found(query):
    return [item.id for item in build_context(query, record_access=False).items if item.layer == "working"]


def searched(query):
    """Search as the owner types it: the ids found, best first."""
    return list(find(Memory.objects.all(), query).values_list("pk", flat=True))


@pytest.fixture
def owner_store():
    """An owner's memories in both languages, with look-alikes: another person's allergy, a run that is
    no diet, a reminder every two hours ("tiếng" is also an hour)."""
    return {
        "vegetarian": remember("User is vegetarian."),
        "runs": remember("Người dùng chạy bộ mỗi sáng lúc 6 giờ."),
        "hoa_shrimp": remember("Chị Hoa bị dị ứng tôm."),
        "peanuts": remember("User is allergic to peanuts."),
        "da_nang": remember("Người dùng sống ở Đà Nẵng."),
        "pnpm": remember("User prefers pnpm as the package manager."),
        "vietnamese": remember("Trả lời người dùng bằng tiếng Việt."),
        "water": remember("Remind the user to drink water every 2 hours."),
        "minh_job": remember("Minh works as a software engineer."),
        "coffee": remember("User drinks black coffee at 7am."),
    }


def test_a_vietnamese_question_finds_the_english_memory(owner_store):
    assert owner_store["vegetarian"] in found("Người dùng có ăn chay không?")
    # Typed without diacritics, as on a phone.
    assert owner_store["vegetarian"] in found("nguoi dung an chay khong")
    assert found("Minh làm nghề gì?")[0] == owner_store["minh_job"]


def test_an_english_question_finds_the_vietnamese_memory(owner_store):
    assert found("What is Hoa allergic to?")[0] == owner_store["hoa_shrimp"]
    assert found("where does the user live?")[0] == owner_store["da_nang"]
    assert found("what language should you reply in?")[0] == owner_store["vietnamese"]


def test_diacritics_tell_the_words_apart(owner_store):
    # "chay" (vegetarian) is not "chạy" (run): the memory about running is no answer.
    assert owner_store["runs"] not in found("is the user vegetarian?")
    assert owner_store["runs"] not in found("does the user eat vegan food?")


def test_a_translation_of_one_word_in_three_is_not_the_answer(owner_store):
    # "tiếng" is an hour too; the question asks which language to answer in.
    answer = found("trả lời bằng tiếng gì")
    assert answer[0] == owner_store["vietnamese"]
    assert owner_store["water"] not in answer


def test_a_memory_in_the_query_language_keeps_its_full_relevance():
    own = remember("Người dùng ăn chay trường.")
    other = remember("User is vegetarian.")
    scores = dict(backend().candidates(Memory.objects.all(), "người dùng ăn chay", 10))
    assert scores[own] > scores[other]
    assert (
        scores[other] <= TRANSLATED + 0.1
    )  # at most the translated share of "all of the query", and a short memory's bonus


def test_names_are_carried_as_they_are_and_the_owner_words_are_not():
    units = in_other_language("What is Hoa allergic to?")
    assert {unit.meaning for unit in units} == {frozenset({"hoa"}), frozenset({"allergic"})}
    assert in_other_language("Người dùng có ăn chay không?")[0].meaning >= {"vegetarian"}
    # Words no lexicon entry knows give nothing to look up.
    assert in_other_language("xyzzy plugh") == ()


def test_names_of_several_words_and_names_that_start_a_question():
    units = {unit.read_from: unit for unit in in_other_language("Who lives in Hanoi?")}
    assert ("hà", "nội") in units[("hanoi",)].spellings
    assert units[("hanoi",)].found_in(_memory("Người dùng sống ở Hà Nội."))
    (hanoi,) = (unit for unit in in_other_language("Cà phê ở Hà Nội") if unit.read_from == ("ha", "noi"))
    assert hanoi.found_in(_memory("Lan lives in Hanoi."))
    # A question starting with a phrase the lexicon knows names nothing; one starting with a name does.
    assert all(not unit.typed for unit in in_other_language("Điện thoại của tôi là máy gì?"))
    assert [unit.read_from for unit in in_other_language("Minh làm nghề gì?") if unit.typed] == [("minh",)]
    # A name of one syllable is no word: "Hoa" is not read as "flower".
    (hoa,) = (unit for unit in in_other_language("Hoa dị ứng gì?") if unit.typed)
    assert hoa.meaning == {"hoa"}


def test_a_unit_is_found_by_its_stem_or_its_phrase():
    vegetarian = in_other_language("người dùng ăn chay")[0]
    assert vegetarian.found_in(_memory("The user has been vegetarian since 2019."))
    assert not vegetarian.found_in(_memory("The user likes vegetables."))
    (allergic,) = (unit for unit in in_other_language("is Hoa allergic?") if "allergic" in unit.meaning)
    assert allergic.found_in(_memory("Hoa bị dị ứng tôm."))
    assert allergic.found_in(_memory("Hoa bi di ung tom"))  # a memory typed without diacritics


def test_a_forgotten_memory_is_not_found_across_languages(owner_store):
    lifecycle.forget(owner_store["vegetarian"], actor="owner:test", confirmed=True)
    assert owner_store["vegetarian"] not in found("Người dùng có ăn chay không?")


def test_search_finds_the_memory_in_the_other_language_after_its_own_words(owner_store):
    own = remember("Người dùng ăn chay từ năm 2019.")
    found_ids = list(find(Memory.objects.all(), "ăn chay").values_list("pk", flat=True))
    assert found_ids[0] == own
    assert owner_store["vegetarian"] in found_ids
    assert owner_store["runs"] not in found_ids
    # Every word the lexicon carries, and every name: Hoa's allergy, not the owner's.
    assert list(find(Memory.objects.all(), "Hoa allergy").values_list("pk", flat=True)) == [owner_store["hoa_shrimp"]]
    assert not find(Memory.objects.all(), "   ").exists()


def test_search_needs_the_words_of_a_question_that_say_which_memory_is_meant(owner_store):
    da_nang = remember("User lives in Da Nang with his wife.")

    # "which", "should", "I", "do", "where", "gì", "ở", "đâu" say nothing about which memory is meant.
    assert searched("which package manager should I use?") == [owner_store["pnpm"]]
    assert searched("where do I live") == [da_nang, owner_store["da_nang"]]
    assert searched("sống ở đâu") == [owner_store["da_nang"], da_nang]
    assert searched("trả lời bằng tiếng gì") == [owner_store["vietnamese"]]
    # A search of nothing but such words looks for them as they are.
    assert set(searched("the")) == {owner_store["pnpm"], owner_store["water"]}


def test_search_takes_a_word_typed_with_diacritics_or_of_two_letters_whole(owner_store):
    sleeps = remember("User sleeps around 11pm and wakes at 6am.")
    bus = remember("Người dùng đi làm bằng xe buýt số 12.")
    daughter = remember("Bé An đi ngủ lúc 8 giờ tối.")
    remember("The owner tries to be in bed by 11 p.m. and puts his phone away at 10:30.")

    # "ngủ" (sleep) is a syllable, not the start of "người"; "đi ngủ" finds the memories about sleep.
    assert bus not in searched("tôi mấy giờ đi ngủ")
    assert searched("tôi mấy giờ đi ngủ")[:2] == [daughter, sleeps]
    # "An" is a name, and not the start of "and": what holds it all comes first.
    assert searched("What time does An go to bed?")[:1] == [daughter]
    # Typed without diacritics, a word may be the start of a longer one, as one types.
    assert owner_store["pnpm"] in searched("packa")


def test_tieng_is_an_hour_only_after_a_number_and_a_language_names_the_language_spoken():
    english = remember("Always answer in English unless the user writes in Vietnamese.")
    water = remember("Remind the user to drink water every 2 hours.")
    remember("User practises the piano for an hour after dinner.")
    # In which language: the answer names one; "tiếng" is no hour there.
    assert found("trả lời bằng tiếng gì?") == [english]
    assert found("what language should you answer in?")[0] == english
    # After a number it is an hour and only that.
    assert found("nhắc uống nước mấy tiếng một lần?")[0] == water
    units = in_other_language("nhắc uống nước mỗi 2 tiếng")
    assert [unit.meaning for unit in units if unit.read_from == ("tieng",)] == [frozenset({"hour"})]


def test_an_english_question_naming_a_kind_finds_the_things_of_it_written_in_vietnamese():
    """ "pets" finds "con chó", "exercise" finds "chạy bộ", "editor" a borrowed name; a word whose first sense
    is another ("viên", a pill before a tablet) is no thing of the kind."""
    dog = remember("Người dùng nuôi một con chó tên Vàng.")
    runs = remember("Người dùng chạy bộ 5km vào sáng thứ Bảy.")
    neovim = remember("Người dùng dùng Neovim để viết code.")
    staff = remember("Người dùng là nhân viên ngân hàng.")
    remember("Người dùng thích ăn phở bò.")
    assert found("what pets do I have?") == [dog]
    assert found("do I exercise?") == [runs]
    assert found("which editor do I use?")[0] == neovim
    assert staff not in found("what devices do I have?")


def test_search_finds_the_things_of_a_kind_in_both_languages():
    cats = remember("User has two cats, Mít and Na.")
    dog = remember("Người dùng nuôi một con chó tên Vàng.")
    shop = remember("User walks to the pet shop on Saturdays.")
    remember("User has a new laptop.")

    assert set(searched("what pets do I have")) == {cats, dog}
    # A thing is itself, and the word of a kind still finds itself.
    assert set(searched("cats")) == {cats}
    assert set(searched("pet shop")) == {shop}


def test_when_no_memory_holds_every_word_search_shows_those_holding_most_of_the_query(owner_store):
    neovim = remember("User uses Neovim as the main editor.")
    for text in ("Lan uses an iPhone.", "The team uses Slack.", "User uses dark mode everywhere."):
        remember(text)

    # No memory holds "often": the one holding the rest of the question is shown.
    assert searched("how often should I drink water?") == [owner_store["water"]]
    assert searched("what kind of coffee does the user drink in the morning?")[0] == owner_store["coffee"]
    # "use" alone is not most of a question about package managers, nor "like" of one about quokkas.
    assert neovim not in searched("which package manager should I use?")
    assert searched("do quokkas like zebras") == []
    # A question of only unknown words finds nothing, and every word still comes first.
    assert searched("zzyzx quokka") == []
    assert searched("drink water") == [owner_store["water"]]


def test_search_shows_the_memories_holding_most_of_the_query_after_those_holding_all_of_it_across():
    motorbike = remember("Người dùng đang học lái xe máy.")
    car = remember("User's car is a white VinFast VF8.")
    remember("User's laptop is a ThinkPad.")

    # "car" and "drive" are "xe" and "lái" in the memory in Vietnamese; the one saying "car" comes too.
    assert searched("what car do I drive") == [motorbike, car]


def test_a_long_query_is_read_in_the_other_language_only_in_part():
    query = " ".join(f"Name{chr(97 + i % 26)}{chr(97 + i // 26)} likes coffee" for i in range(150))[:2000]
    assert len(in_other_language(query)) == MOST_UNITS
    remember("Người dùng thích cà phê.")
    found(query)  # and the context is assembled from them without an error


def test_an_owner_asks_about_their_work_pay_computer_and_workouts_in_plain_words():
    """A question names what it asks for by its kind (``states.ASKED_KINDS_OF``): a job by what one does
    ("works as", "làm kế toán"), a computer by its make, pay by "lương", working out by the gym; a Vietnamese
    question finds the things of its kind written in Vietnamese too ("thú cưng" finds "nuôi chó")."""
    engineer = remember("User works as a data engineer at Tiki.")
    accountant = remember("Người dùng làm kế toán cho một công ty xây dựng.")
    laptop = remember("User's laptop is a ThinkPad X1 Carbon.")
    salary = remember("Người dùng có lương 25 triệu một tháng.")
    gym = remember("User goes to the gym on Monday, Wednesday and Friday at 6am.")
    dog = remember("Người dùng nuôi một con chó tên Vàng.")
    motorbike = remember("User rides a Honda Vision motorbike.")
    colleague = remember("User's colleague Tuan sits next to them.")
    remember("User's favourite food is phở bò.")

    assert searched("what is my job")[:2] == [engineer, accountant]
    assert set(searched("tôi làm nghề gì")[:2]) == {engineer, accountant}
    assert colleague not in searched("what's my occupation")
    assert found("what is my job")[0] == engineer
    assert searched("what computer do I use") == [laptop]
    assert searched("how much do I earn") == [salary]
    assert searched("when do I work out")[0] == gym
    assert found("how often do I work out?")[0] == gym
    assert searched("tôi có thú cưng không") == [dog]
    assert searched("what vehicle do I have") == [motorbike]


def test_an_owner_asks_which_bank_and_whether_someone_is_sick():
    bank = remember("Người dùng gửi tiết kiệm ở Techcombank.")
    illness = remember("Bố của người dùng bị tiểu đường.")
    dad = remember("User's dad lives in Huế.")
    remember("User walks along the river bank on Sundays.")

    assert bank in searched("which bank do I use")[:2]
    # The memory saying all of it first, then the one saying most of it.
    assert searched("is my dad sick") == [illness, dad]
    assert found("is my dad sick?")[0] == illness


def test_a_question_about_a_kind_finds_the_state_that_rules_it_out():
    """ "Do I eat meat?" is answered by "User is vegetarian", "am I married?" by "User is single"
    (``states.RULES_OUT``), in the other language as well."""
    vegetarian = remember("User is vegetarian.")
    single = remember("Người dùng vẫn còn độc thân.")
    teetotal = remember("User is teetotal.")
    remember("User eats phở bò on Sundays.")

    assert searched("do I eat meat?")[0] == vegetarian
    assert found("do I eat meat?")[0] == vegetarian
    assert searched("am I married?") == [single]
    assert searched("do I drink alcohol?") == [teetotal]


def test_a_thing_is_found_by_any_of_its_names():
    kubernetes = remember("User deploys the shop to Kubernetes.")
    k8s = remember("The homelab runs k8s on three mini PCs.")
    javascript = remember("User writes the front end in JavaScript.")
    saigon = remember("User lives in Saigon.")
    remember("User has a cat named Mochi.")

    assert set(searched("k8s")) == {kubernetes, k8s}
    assert set(searched("kubernetes")) == {kubernetes, k8s}
    assert searched("js") == [javascript]
    assert searched("hcmc") == [saigon]
    assert set(found("where do I run k8s?")) >= {kubernetes, k8s}


def test_what_one_rides_is_a_vehicle():
    """("drive" is not read so: "who drives our car?" asks about the car it names, not every vehicle.)"""
    scooter = remember("User takes a Honda SH scooter to work.")
    car = remember("User's car is a Mazda CX-5.")
    remember("User is allergic to shrimp.")

    assert set(searched("what do I ride")) == {scooter, car}
