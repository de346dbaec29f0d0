"""The memory doctor on crafted data: each category of the report, and ``bestie memory analyze``."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.management.base import CommandError

from governance import doctor
from memories import lifecycle
from memories.models import Layer, Memory, MemorySettings
from tests.cli import memory, memory_json, store
from tests.factories import OWNER, add_memory

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


def pref(text, subject="language", user="owner", kind="preference", **fields):
    return add_memory(text, kind=kind, subject=subject, user=user, **fields).pk


def test_the_seeds_three_language_preferences_form_one_group(db, frozen):
    a = pref("User prefers Vietnamese.")
    b = pref("User wants Vietnamese-first.")
    c = pref("Always answer in Vietnamese with diacritics.")
    report = doctor.analyze("duplicates")
    assert report.duplicates == [[a, b, c]]


def test_duplicates_ignore_case_diacritics_and_word_order(db, frozen):
    a = pref("Người dùng thích cà phê sữa đá.", subject="drink")
    b = pref("nguoi dung thich CA PHE SUA DA", subject="drink")
    c = pref("Cà phê sữa đá, người dùng thích.", subject="drink")
    assert doctor.analyze("duplicates").duplicates == [[a, b, c]]


def test_without_embeddings_words_that_translate_group_a_fact_with_its_translation(db, frozen):
    # Other subject slugs, the other language, no model: the lexicon looks the words up.
    vegetarian = pref("User is vegetarian.", subject="diet")
    an_chay = pref("Người dùng ăn chay.", subject="ăn uống")
    pref("User drinks black coffee at 7am.", subject="coffee")
    hanoi = pref("User lives in Hanoi.", subject="home", kind="fact")
    # Typed all in lower case, a text shows no names: "da nang" is not Hanoi.
    danang = pref("nguoi dung song o da nang", subject="noi o", kind="fact")
    vietnamese = pref("Anh Huy muốn trợ lý trả lời bằng tiếng Việt.", subject="ngôn ngữ")
    english = pref("User wants the assistant to reply in English.", subject="replies")
    pref("Lan owes Minh 200k.", subject="debt", kind="fact")
    pref("Minh nợ Lan 200 nghìn.", subject="nợ", kind="fact")
    duplicates, conflicts = doctor.find_duplicates_and_conflicts()
    assert duplicates == [sorted((vegetarian, an_chay))]
    # A language is a value: one in place of the other cannot both hold.
    assert sorted((vietnamese, english)) in conflicts
    assert sorted((hanoi, danang)) not in conflicts


def test_the_owner_and_someone_in_each_others_places_are_no_duplicate_under_one_subject(db, frozen):
    # Words set side by side leave the owner out, and the Vietnamese subject lends the English text "nợ".
    owes = pref("Người dùng còn nợ Tuấn 500 nghìn.", subject="nợ", kind="fact")
    owed = pref("Tuấn owes the user 500k.", subject="nợ", kind="fact")
    again = pref("User owes Tuấn 500k.", subject="nợ", kind="fact")
    duplicates, conflicts = doctor.find_duplicates_and_conflicts()
    assert duplicates == [sorted((owes, again))]
    assert sorted((owes, owed)) in conflicts and sorted((owed, again)) in conflicts


def test_a_translation_filed_under_another_kind_is_grouped_with_its_fact(db, frozen):
    # An agent files one fact as a fact in one language and as a routine in the other.
    shifts = pref("Tú has moved to the night shift for good.", subject="work", kind="fact")
    ca_dem = pref("Anh Tú đã chuyển hẳn sang làm ca đêm.", subject="ca làm", kind="routine")
    pref("Anh Tú chạy bộ mỗi sáng.", subject="chạy bộ", kind="routine")
    duplicates, _ = doctor.find_duplicates_and_conflicts()
    assert duplicates == [sorted((shifts, ca_dem))]


def test_duplicates_in_one_language_are_never_grouped_across_users_kinds_or_projects(db, frozen):
    pref("User prefers Vietnamese.", user="owner")
    pref("User prefers Vietnamese.", user="lan")
    pref("User prefers Vietnamese.", kind="fact")
    pref("User prefers Vietnamese.", scope="project", project="shop")
    assert doctor.analyze("duplicates").duplicates == []


def test_one_fact_under_two_subjects_is_grouped_without_embeddings(db, frozen):
    # Agents give one fact other subject slugs; the words decide, as inside one subject.
    learning = pref("User is learning Spanish.", subject="languages")
    studying = pref("User is studying Spanish.", subject="education")
    pref("User is studying law.", subject="education")
    pref("User's sister is learning Spanish.", subject="family")
    assert doctor.analyze("duplicates").duplicates == [[learning, studying]]


def test_look_alikes_are_not_duplicates(db, frozen):
    pref("User prefers pnpm.", subject="package manager")
    pref("User prefers npm.", subject="package manager")
    pref("Don't message Lan before 9am.", subject="schedule")
    pref("Don't message Lan before 10am.", subject="schedule")
    pref("User likes coffee.", subject="drink")
    pref("User does not like coffee.", subject="drink")
    assert doctor.analyze("duplicates").duplicates == []


def test_only_live_memories_are_grouped(db, frozen):
    pref("User prefers Vietnamese.")
    pref("User prefers Vietnamese.", status="pending")
    pref("User prefers Vietnamese.", ttl=timedelta(seconds=1))
    with time_machine.travel(NOW + timedelta(hours=1), tick=False):
        assert doctor.analyze("duplicates").duplicates == []


def test_contradictions_in_both_languages(db, frozen):
    pnpm = pref("User prefers pnpm.", subject="package manager")
    npm = pref("User prefers npm.", subject="package manager")
    likes = pref("Người dùng thích cà phê.", subject="drink")
    dislikes = pref("Người dùng không thích cà phê.", subject="drink")
    early = pref("Don't message Lan before 9am.", subject="schedule")
    late = pref("Don't message Lan before 10am.", subject="schedule")
    never = pref("User never drinks tea.", subject="tea")
    drinks = pref("User drinks tea every morning.", subject="tea")
    pref("User prefers tea.", subject="")
    pref("User prefers dark mode.", subject="")
    assert doctor.analyze("conflicts").conflicts == sorted(
        [[pnpm, npm], [likes, dislikes], [early, late], [never, drinks]]
    )


def test_a_denial_filed_under_another_kind_and_subject_is_a_contradiction(db, frozen):
    # An agent files a habit as a routine and its end as a preference or a fact, no model needed.
    coffee = pref("User drinks a black coffee at 7:30am every day.", subject="morning", kind="routine")
    no_coffee = pref("User does not drink coffee anymore.", subject="coffee")
    yoga = pref("Chị Thảo tập yoga lúc 6 giờ 30 sáng thứ Hai, thứ Tư.", subject="tập luyện", kind="routine")
    no_yoga = pref("Chị Thảo đã nghỉ tập yoga.", subject="sức khỏe", kind="fact")
    # Another verb for the same habit, and a denial in one clause of a text that says all the other says.
    matcha = pref("Thảo has an iced matcha latte every afternoon around 3pm.", subject="drinks", kind="routine")
    no_matcha = pref("Thảo no longer drinks matcha.", subject="matcha")
    firebase = pref("The backend of Bếp Nhà is Firebase.", subject="backend", kind="project_context")
    supabase = pref(
        "Bếp Nhà moved its backend to Supabase and no longer uses Firebase.", subject="stack", kind="decision"
    )
    conflicts = doctor.analyze("conflicts").conflicts
    for pair in ([coffee, no_coffee], [yoga, no_yoga], [matcha, no_matcha], [firebase, supabase]):
        assert pair in conflicts


def test_a_thing_named_and_denied_or_chosen_against_is_a_contradiction(db, frozen):
    figma = pref("Chị Thảo thiết kế UI bằng Figma.", subject="công cụ")
    sketch = pref("Chị Thảo đã chuyển hẳn sang Sketch, không dùng Figma nữa.", subject="thiết kế", kind="decision")
    hokkaido = pref("Tuần trăng mật của chị Thảo và anh Khoa là ở Hokkaido.", subject="trăng mật", kind="decision")
    bali = pref("Chị Thảo với anh Khoa đổi ý, đi Bali hưởng tuần trăng mật thay vì Hokkaido.", subject="du lịch")
    conflicts = doctor.analyze("conflicts").conflicts
    assert [figma, sketch] in conflicts and [hokkaido, bali] in conflicts


def test_leaving_a_named_thing_for_another_or_moving_elsewhere_is_a_contradiction(db, frozen):
    neovim = pref("Neovim is the main editor.", subject="editor")
    vscode = pref("User switched from Neovim to VS Code.", subject="editor")
    proxmox = pref("Homelab của anh Huy chạy Proxmox VE.", subject="homelab", kind="project_context")
    unraid = pref("Anh Huy đã thay Proxmox bằng Unraid cho homelab.", subject="homelab", kind="project_context")
    hanoi = pref("Vy sống ở Hà Nội.", subject="home", kind="fact")
    saigon = pref("Vy đã chuyển vào Sài Gòn.", subject="home", kind="fact")
    danang = pref("User lives in Đà Nẵng.", subject="city", kind="fact")
    moved = pref("User moved to Đà Nẵng.", subject="city", kind="fact")
    pref("The launch moved to April.", subject="city", kind="fact")
    report = doctor.analyze()
    for pair in ([neovim, vscode], [proxmox, unraid], [hanoi, saigon]):
        assert pair in report.conflicts
    # Having moved there is living there; a launch moved to April is no move of home.
    assert report.duplicates == [[danang, moved]]


def test_a_state_and_what_it_rules_out_and_a_denial_of_a_kind_are_contradictions(db, frozen):
    # Filed under other kinds and subjects, as agents do, and found without a model.
    vegetarian = pref("Người dùng ăn chay trường.", subject="ăn uống")
    beef = pref("Người dùng ăn phở bò vài lần mỗi tuần.", subject="ăn sáng", kind="routine")
    single = pref("User is single.", subject="relationship", kind="fact")
    wife = pref("Lan is the user's wife.", subject="family", kind="relationship")
    no_pets = pref("User has no pets.", subject="pets", kind="fact")
    cat = pref("User has a cat named Mochi.", subject="cat", kind="fact")
    never = pref("The user never exercises.", subject="health", kind="fact")
    gym = pref("User goes to the gym every Monday and Thursday evening.", subject="gym", kind="routine")
    conflicts = doctor.analyze("conflicts").conflicts
    for pair in ([vegetarian, beef], [single, wife], [no_pets, cat], [never, gym]):
        assert pair in conflicts


def test_a_kind_denied_in_one_clause_denies_each_thing_of_it(db, frozen):
    no_pets = pref("Trang has no pets; her apartment building bans them.", subject="pets", kind="fact")
    corgi = pref("Trang has a corgi named Bơ.", subject="dog", kind="fact")
    tea = pref("Trang has green tea every morning.", subject="drinks", kind="routine")
    conflicts = doctor.analyze("conflicts").conflicts
    assert [no_pets, corgi] in conflicts
    assert not any(tea in group for group in conflicts)


def test_a_denial_in_one_language_of_what_the_other_says(db, frozen):
    no_alcohol = pref("Anh Khoa không uống rượu bia.", subject="rượu bia", kind="health")
    beer = pref("Khoa drinks beer with his friends every Friday night.", subject="friday", kind="routine")
    no_pets = pref("Người dùng không nuôi thú cưng nào.", subject="thú cưng", kind="fact")
    cat = pref("User has a cat named Mochi.", subject="cat", kind="fact")
    # A denial saying more than both languages are read into, and someone else's habit, are left alone.
    late = pref("Anh Khoa không uống bia sau 10 giờ tối.", subject="bia", kind="health")
    pref("Lan is the user's wife.", subject="family", kind="relationship")
    wine = pref("Lan drinks wine every Saturday.", subject="lan", kind="routine")
    conflicts = doctor.analyze("conflicts").conflicts
    assert [no_alcohol, beer] in conflicts and [no_pets, cat] in conflicts
    assert not any(late in group or wine in group for group in conflicts)


def test_a_denial_across_languages_of_a_word_both_write_alike(db, frozen):
    # English words Vietnamese takes as they are ("yoga", "golf") are read across without the lexicon.
    quit_yoga = pref("User has stopped doing yoga and now does Pilates twice a week.", subject="exercise")
    yoga = pref("Người dùng tập yoga 3 buổi mỗi tuần vào buổi tối.", subject="yoga", kind="routine")
    no_golf = pref("Người dùng không chơi golf nữa.", subject="golf")
    golf = pref("User plays golf on Sunday mornings.", subject="weekend", kind="routine")
    # A word of a name is no such word: leaving VS Code denies no writing of code.
    left_vscode = pref("gio a code chu yeu tren Cursor, bo VS Code r", subject="editor")
    code = pref("When writing code or code comments for the user, use English.", subject="code", kind="instruction")
    allergy = pref("The user is allergic to shrimp.", subject="allergy", kind="health")
    no_shrimp = pref("Người dùng không ăn được tôm vì bị dị ứng.", subject="đồ ăn", kind="health")
    conflicts = doctor.analyze("conflicts").conflicts
    assert [quit_yoga, yoga] in conflicts and [no_golf, golf] in conflicts
    assert sorted((allergy, no_shrimp)) not in conflicts
    assert not any(left_vscode in group and code in group for group in conflicts)


def test_a_thing_dropped_for_another_and_a_value_from_next_month_are_changes(db, frozen):
    variety = pref("Ruộng nhà anh Tư sạ giống lúa OM5451.", subject="giống lúa", kind="fact")
    switched = pref("vu nay anh Tu bo OM5451 r, chuyen qua sa ST25 het", subject="giong lua", kind="decision")
    rent = pref("tien muon mat bang tiem 5tr/thang, dua cho ba Chin", subject="mat bang", kind="fact")
    raised = pref(
        "Bà Chín báo từ tháng sau tiền mướn mặt bằng tiệm lên 6 triệu một tháng.", subject="mat bang", kind="fact"
    )
    # What was so once only leaves no employer to be replaced.
    past = pref("Từ 2012 đến 2016 chị Diệp từng làm trình dược viên cho công ty Hoàng Nguyên.", subject="career")
    moved = pref("chi Diep chuyen qua lam duoc si o benh vien Phuc Khang r", subject="cong viec")
    conflicts = doctor.analyze("conflicts").conflicts
    assert sorted([variety, switched]) in conflicts and sorted([rent, raised]) in conflicts
    assert not any(past in group and moved in group for group in conflicts)


def test_a_value_said_to_be_new_contradicts_the_old_one_whatever_their_kind_and_subject(db, frozen):
    rent = pref("tien muon mat bang tiem 5tr/thang, dua cho ba Chin", subject="mat bang", kind="fact")
    raised = pref(
        "Bà Chín báo từ tháng sau tiền mướn mặt bằng tiệm lên 6 triệu một tháng.", subject="tiền", kind="event"
    )
    # Another thing's value, said to be new, is no other value of the rent.
    fee = pref("Từ tháng sau học phí của Ngọc tăng lên 6 triệu một kỳ.", subject="học phí", kind="event")
    conflicts = doctor.analyze("conflicts").conflicts
    assert sorted([rent, raised]) in conflicts
    assert not any(fee in group for group in conflicts)


def test_across_languages_a_denial_of_someone_else_by_name_is_no_contradiction(db, frozen):
    stopped = pref("The user no longer goes sea bathing in the mornings because of his knee.", subject="exercise")
    wife = pref("Bà Lan vẫn đi tắm biển sáng sớm với hội bạn, ngày nào cũng đi.", subject="vợ tắm biển")
    assert sorted([stopped, wife]) in doctor.analyze("conflicts").conflicts
    # Once the owner's memories say who Lan is, she is someone else.
    pref("Người dùng sống với vợ là bà Lan ở Sơn Trà.", subject="nhà ở", kind="fact")
    assert not any(wife in group for group in doctor.analyze("conflicts").conflicts)


def test_a_state_in_one_language_rules_out_what_the_other_says(db, frozen):
    vegetarian = pref("Người dùng ăn chay.", subject="ăn uống")
    beef = pref("User eats beef phở every week.", subject="food", kind="routine")
    teetotal = pref("User is teetotal.", subject="alcohol", kind="health")
    beer = pref("Người dùng uống bia mỗi tối thứ Sáu.", subject="bia", kind="routine")
    # A state for some days, and the wife's habit, rule nothing out.
    pref("Người dùng ăn chay vào ngày rằm.", subject="âm lịch", kind="routine")
    pref("Lan is the user's wife.", subject="family", kind="relationship")
    pref("Vợ người dùng ăn phở bò mỗi tuần.", subject="vợ", kind="fact")
    conflicts = doctor.analyze("conflicts").conflicts
    assert sorted(conflicts) == sorted([sorted([vegetarian, beef]), sorted([teetotal, beer])])


def test_an_allergy_denied_and_one_of_someone_else(db, frozen):
    none = pref("Người dùng không bị dị ứng thực phẩm nào.", subject="dị ứng", kind="health")
    peanut = pref("Anh Huy bị dị ứng đậu phộng.", subject="allergy", kind="health")
    drugs = pref("Thảo has no drug allergies.", subject="medication", kind="health", user="thao")
    penicillin = pref("Thảo is allergic to penicillin.", subject="allergy", kind="health", user="thao")
    # The wife's allergy is not the owner's, and the owner's mother liking tea is not the owner liking it.
    pref("User has no food allergies.", subject="allergy", kind="health", user="khoa")
    pref("User's wife is allergic to shrimp.", subject="wife", kind="health", user="khoa")
    pref("User likes tea.", subject="drinks", user="khoa")
    pref("User's mother likes tea.", subject="drinks", user="khoa")
    report = doctor.analyze()
    assert report.conflicts == [[none, peanut], [drugs, penicillin]]
    assert report.duplicates == []


def test_a_state_of_someone_else_or_for_some_days_rules_nothing_out_of_the_owner(db, frozen):
    vegetarian = pref("User is vegetarian.", subject="diet")
    pref("User's wife Lan eats beef every day.", subject="family", kind="fact")
    pref("Lan eats beef phở every week.", subject="lan", kind="routine")
    pref("User's wife is vegetarian.", subject="wife", kind="fact")
    pref("User eats vegetarian on the 1st and 15th of each lunar month.", subject="lunar", kind="routine")
    pho = pref("The user loves phở bò more than any other dish.", subject="food")
    # Across subjects, a state and another fact of the same person are no slot with two values.
    pref("Thảo is fully vegetarian.", subject="diet", user="thao")
    pref("Thảo's hometown is Hue.", subject="origin", kind="fact", user="thao")
    # Only the owner's own lasting state rules out the owner's phở bò.
    assert doctor.analyze("conflicts").conflicts == [[vegetarian, pho]]


def test_a_former_partner_and_a_clause_denying_a_thing_are_contradictions(db, frozen):
    husband = pref("Chồng của Ngân tên là Tuấn.", subject="chồng", kind="relationship")
    former = pref("Tuấn là chồng cũ của Ngân, hai người đã ly hôn.", subject="hôn nhân", kind="relationship")
    wife = pref("Lan is the user's wife.", subject="wife", kind="relationship", user="minh")
    ex_wife = pref("Lan is the user's ex-wife.", subject="family", kind="relationship", user="minh")
    metformin = pref("Bà Hoà bị tiểu đường, uống metformin ngày hai lần.", subject="thuốc", kind="health", user="hoa")
    insulin = pref("Bà Hoà giờ tiêm insulin, không uống metformin nữa.", subject="điều trị", kind="health", user="hoa")
    # "đường" (sugar) is no typo of "lương" (salary).
    pref("Chị Ngân uống cà phê đen, không đường.", subject="cà phê", user="ngan")
    pref("Lương tháng của chị Ngân là 45 triệu đồng.", subject="lương", kind="fact", user="ngan")
    conflicts = doctor.analyze("conflicts").conflicts
    assert conflicts == sorted([[husband, former], [wife, ex_wife], [metformin, insulin]])


def test_what_was_left_for_another_or_stopped_some_time_ago_is_no_duplicate_but_a_contradiction(db, frozen):
    android = pref("User uses Android.", subject="phone", kind="fact")
    iphone = pref("User switched from Android to iPhone.", subject="devices", kind="fact")
    email = pref("Prefers email.", subject="channel")
    zalo = pref("Prefers Zalo rather than email.", subject="contact")
    google = pref("User works at Google as a designer.", subject="job", kind="fact")
    quit = pref("User quit Google last month.", subject="career", kind="fact")
    gym = pref("User goes to the gym on Mondays.", subject="gym", kind="routine")
    pref("User did not go to the gym last week.", subject="week", kind="fact")
    report = doctor.analyze()
    assert report.duplicates == []
    assert report.conflicts == sorted([[android, iphone], [email, zalo], [google, quit]])
    assert not any(gym in pair for pair in report.conflicts)


def test_what_is_preferred_rather_than_another_is_no_denial(db, frozen):
    zalo = pref("User prefers Zalo.", subject="channel")
    rather = pref("Prefers messages on Zalo rather than email.", subject="channel")
    pref("User reads email every morning.", subject="email", kind="routine")
    report = doctor.analyze()
    assert report.duplicates == [[zalo, rather]] and report.conflicts == []


def test_a_denial_of_something_narrower_or_of_another_persons_habit_is_no_contradiction(db, frozen):
    pref("User likes coffee.", subject="drinks")
    pref("User doesn't drink coffee after 2pm.", subject="drinks")
    # "cay" (spicy) and "cây số" (kilometres) fold alike; eating is not running.
    pref("Chị Thảo không ăn được cay.", subject="ăn cay")
    pref("Sáng Chủ nhật nào chị Thảo cũng chạy 5 cây số.", subject="chạy bộ", kind="routine")
    # A denial in one clause of a text that does not say what the other says.
    pref("Người dùng muốn được gọi thẳng tên 'Thảo', không thêm 'chị'.", subject="xưng hô")
    pref("Podcast của chị Thảo ra 2 tập mỗi tháng.", subject="podcast", kind="project_context")
    pref("Lan drinks coffee every morning.", subject="coffee", kind="routine", user="lan")
    pref("User does not drink coffee anymore.", subject="coffee")
    # Retiring is not stopping: "nghỉ hưu" is no denial.
    pref("Ông Hùng đã nghỉ hưu.", subject="công việc", kind="fact")
    pref("Ông Hùng đã nghỉ hưu và vẫn đi bộ mỗi sáng.", subject="đi bộ", kind="routine")
    assert doctor.analyze("conflicts").conflicts == []


def test_a_contradiction_names_every_member_of_both_duplicate_groups(db, frozen):
    vietnamese = pref("User prefers Vietnamese.")
    vietnamese_again = pref("user prefers vietnamese")
    english = pref("User prefers English.")
    report = doctor.analyze()
    assert report.duplicates == [[vietnamese, vietnamese_again]]
    assert report.conflicts == [[vietnamese, vietnamese_again, english]]


def test_stale_finds_old_confirmations_unused_memories_and_counts_the_backlog(db, frozen):
    with time_machine.travel(NOW - timedelta(days=200), tick=False):
        unused = pref("User lives in Huế.", subject="home")
        used = pref("User works at a bank.", subject="work")
        lifecycle.confirm(used, actor=OWNER)
        expired = pref("User is in Tokyo this week.", subject="travel", ttl=timedelta(days=7))
    with time_machine.travel(NOW - timedelta(days=100), tick=False):
        unconfirmed = pref("User's sister is Lan.", subject="family")
    Memory.objects.filter(pk=used).update(confirmed_at=NOW - timedelta(days=10), last_accessed_at=NOW)
    fresh = pref("User prefers tea.", subject="drink")
    report = doctor.analyze("stale")
    assert report.stale == [unused, unconfirmed, expired]
    assert fresh not in report.stale
    assert report.details["stale_expired_backlog"] == 1
    assert report.details["stale_gap"] == 1
    assert report.details["stale_all_rows"] == 5 and report.details["stale_live_rows"] == 4


def test_noise_short_generic_venting_and_unused_low_confidence(db, frozen):
    short = pref("ok thanks", subject="x")
    venting = pref("Ugh, Mondays are so annoying today.", subject="mood")
    unsure = pref("User might be moving to Berlin someday.", subject="home", confidence=0.3)
    used_unsure = pref("User might visit Tokyo in spring.", subject="travel", confidence=0.3)
    Memory.objects.filter(pk=used_unsure).update(access_count=3)
    pref("ok", subject="x", pinned=True)
    pref("User prefers concise replies without small talk.", subject="tone")
    report = doctor.analyze()
    assert report.noise == [short, venting, unsure]
    assert report.details["noise_reasons"] == {
        "too short or generic": 1,
        "one-off venting": 1,
        "low confidence and never used": 1,
    }


def test_core_budget_overflow_lists_what_does_not_fit_and_never_a_pinned_memory_first(db, frozen):
    settings = MemorySettings.load()
    # The first two lines take 21 and 19 tokens in a prompt, the third 20.
    settings.core_budget_tokens = 45
    settings.save()
    pinned = pref(
        "User's name is Minh and he is the owner of this assistant.", subject="name", layer=Layer.CORE, pinned=True
    )
    pref("User prefers replies in Vietnamese with diacritics.", layer=Layer.CORE)
    unsure = pref(
        "User may like long walks along the river in the evening.", subject="hobby", layer=Layer.CORE, confidence=0.6
    )
    pref("Working memory, not core.", subject="other")
    core = doctor.analyze().core
    assert core["memories"] == 3 and core["pinned"] == [pinned]
    assert core["over_budget"] and core["overflow"] == [unsure]
    assert pinned not in core["overflow"]
    assert core["tokens"] > core["budget_tokens"]


def test_core_within_budget(db, frozen):
    pref("User prefers Vietnamese.", layer=Layer.CORE)
    core = doctor.analyze().core
    assert core["over_budget"] is False and core["overflow"] == []


def test_missing_metadata(db, frozen):
    no_subject = pref("User prefers Vietnamese.", subject="")
    no_key = pref("User prefers tea.", subject="drink")
    Memory.objects.filter(pk=no_key).update(text_key="")
    pref("User prefers coffee.", subject="drink")
    assert doctor.analyze().missing_metadata == [no_subject, no_key]


def test_broken_chains_dangling_links_and_loops(db, frozen):
    a, b, c, d = (pref(f"Fact number {n} about the owner.", subject=f"s{n}") for n in range(4))
    lifecycle.supersede(a, b, actor=OWNER)
    # Written past the write path, as a crash or a hand edit would: foreign keys are checked at commit.
    Memory.objects.filter(pk=c).update(superseded_by_id=d)
    Memory.objects.filter(pk=d).update(superseded_by_id=c)
    dangling = pref("A memory whose replacement is gone.", subject="gone")
    Memory.objects.filter(pk=dangling).update(superseded_by_id=999_999)
    report = doctor.analyze()
    assert report.broken_chains == [c, d, dangling]
    assert report.details["broken_dangling"] == 1 and report.details["broken_loops"] == 2
    # pytest-django checks deferred constraints when the test ends; the dangling link would fail it.
    Memory.objects.filter(pk=dangling).update(superseded_by_id=None)


def test_analyze_json_has_the_documented_shape(db, frozen):
    a = pref("User prefers Vietnamese.")
    b = pref("Always answer in Vietnamese with diacritics.")
    report = memory_json("analyze")
    assert set(report) >= {
        "duplicates",
        "conflicts",
        "stale",
        "noise",
        "core",
        "missing_metadata",
        "broken_chains",
    }
    assert report["duplicates"] == [[a, b]]
    assert memory_json("analyze", "--mode", "duplicates") == {
        "duplicates": [[a, b]],
        "details": {"duplicates_memories": 2},
    }
    assert set(memory_json("analyze", "--mode", "stale")) == {"stale", "details"}
    assert set(memory_json("analyze", "--mode", "conflicts")) == {"conflicts", "details"}


def test_analyze_prints_groups_with_their_texts(db, frozen):
    a = pref("User prefers Vietnamese.")
    b = pref("User wants Vietnamese-first.")
    printed = memory("analyze")
    assert "duplicate groups: 1" in printed
    assert f"#{a} User prefers Vietnamese." in printed and f"#{b} User wants Vietnamese-first." in printed
    assert "broken supersede chains: 0" in printed


def test_analyze_refuses_an_unknown_mode(db):
    with pytest.raises(CommandError, match="invalid choice: 'everything'"):
        memory("analyze", "--mode", "everything")
    with pytest.raises(ValueError, match="mode must be one of"):
        doctor.analyze("everything")


def test_analyze_changes_nothing(db, frozen):
    pref("User prefers Vietnamese.")
    pref("User prefers Vietnamese!")
    before = store()
    memory("analyze")
    assert store() == before


def test_duplicate_search_does_not_compare_every_pair(db, frozen, monkeypatch):
    """Variants sharing only a frequent word are not compared: the posting cap bounds the pairs."""
    monkeypatch.setattr(doctor, "POSTING_CAP", 5)
    rows = [(n, f"User prefers tool{n:03d}x") for n in range(200)]
    compared = []
    original = doctor.same_fact
    monkeypatch.setattr(doctor, "same_fact", lambda a, b: compared.append(1) or original(a, b))
    doctor.block_findings(rows, "tools", "preference")
    assert len(compared) < 200


def test_common_vietnamese_words_and_ordinals_meet_their_english_forms(db, frozen):
    cat = [pref("User has a cat named Miu.", subject="pet"), pref("Người dùng có con mèo tên Miu.", subject="pet")]
    pref("User has a dog named Lu.", subject="pet")
    born = [
        pref("User's birthday is on 12 March.", subject="birthday"),
        pref("User was born on March 12th.", subject="birthday"),
    ]
    pref("User was born on March 13th.", subject="birthday")
    lives = [pref("Người dùng sống ở Huế.", subject="home"), pref("nguoi dung song o Hue", subject="home")]
    assert sorted(doctor.analyze("duplicates").duplicates) == sorted([cat, born, lives])


def test_analyze_prints_a_few_texts_of_a_large_group(db, frozen):
    ids = [pref("User prefers Vietnamese.") for _ in range(8)]
    printed = memory("analyze", "--mode", "duplicates")
    assert ", ".join(f"#{i}" for i in ids) in printed
    assert printed.count("User prefers Vietnamese.") == 5 and "… and 3 more" in printed
