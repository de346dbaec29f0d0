"""One thing in a slot (``memories.language.slots``): two memories putting different things in one slot of one
person contradict each other, in the doctor whatever their kind, subject and language, and in the write path."""

import pytest

from governance import doctor
from memories.language import slots
from memories.language.slots import MAIN, ONLY, USED, otherwise, slot
from memories.lifecycle import policies
from tests.factories import OWNER, add_memory, propose, read_otherwise


def _otherwise(a, b, texts=()):
    return read_otherwise(slot, otherwise, a, b, texts)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # The issue's own pair.
        ("User uses VS Code now.", "Neovim is the main editor."),
        ("User's main editor is Neovim.", "VS Code is the user's primary editor for all projects."),
        ("Laptop chính của người dùng là MacBook Pro 14 inch.", "User's main work laptop is a ThinkPad X1 Carbon."),
        ("User's only phone is an iPhone 15.", "Điện thoại chính của anh Khoa là Samsung Galaxy S23."),
        ("The user carries a single phone, an iPhone 15.", "User's main phone is a Pixel 8."),
        ("Giờ anh chuyển hẳn sang VSCode để code rồi.", "Anh dùng Neovim làm editor chính."),
        ("long xai vim thoi", "Long uses VS Code every day."),
        # Where one lives, once one says it moved or lives there now; where one comes from.
        ("Khoa has moved to Đà Nẵng and lives there now.", "User lives in Saigon, District 3."),
        ("Bà Ngọc moved to Saigon to live with her son's family.", "Bà Ngọc sống một mình ở Đà Nẵng."),
        ("Hiện tại người dùng sống ở Đà Nẵng.", "User lives in Hanoi."),
        ("Hoa now lives with the user's family in Đà Nẵng.", "Hoa lives alone in Hội An."),
        ("Mai chuyen tro qua Hai Chau r, gan nha thuoc", "Mai lives in Hòa Khánh."),
        ("Quê chị Thảo ở Cần Thơ.", "Thảo is originally from Huế."),
        ("chi Thao que o Can Tho", "Thảo's hometown is Hue."),
        # One's only pet.
        ("User's only pet is a cat named Miu.", "User's only pet is a dog named Rex."),
        # Where one works, once one says it is new: joined, now, or another left.
        ("User works as a data analyst at Viettel.", "User now works as a product manager at MoMo."),
        ("Người dùng làm kế toán ở Vinamilk.", "ng dùng nghỉ Vinamilk r, giờ làm kế toán cho Shopee"),
        ("User works at FPT.", "User joined MoMo in March."),
        # A notes app and a design tool are slots; all of one's notes or design work is the only one.
        ("Thảo keeps her notes in Obsidian.", "Thảo uses Notion for all of her notes."),
        ("Ghi chú của chị Thảo đều để trong Obsidian.", "Thảo uses Notion for all of her notes."),
        ("Vy làm thiết kế hoàn toàn bằng Figma.", "Vy's main design tool is Sketch; she avoids Figma."),
        # What was left for another is not in the slot, and the other is the one now.
        ("User's main editor is Vim.", "User switched from Vim to Emacs."),
        ("Trình soạn thảo chính của người dùng là Vim.", "Người dùng đã chuyển từ Vim sang Emacs."),
        # What was left is not in the slot ("migrated off").
        (
            "User migrated the app off PostgreSQL; its main database is now MongoDB.",
            "The app's main database is PostgreSQL.",
        ),
    ],
)
def test_different_things_in_one_slot_of_one_person_contradict(a, b):
    assert _otherwise(a, b)
    assert _otherwise(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # Neither says its tool is the one; a main one beside another used now and then.
        ("User uses Vim.", "User uses VS Code."),
        ("User's main editor is Neovim.", "User uses VS Code for notebooks."),
        # The same thing, said twice.
        ("User's main editor is Neovim.", "Anh dùng Neovim làm editor chính."),
        ("User's main bank is Vietcombank.", "Ngân hàng chính của anh là Vietcombank."),
        # Two people's slots.
        ("User's main phone is an iPhone 15.", "My wife's main phone is a Samsung Galaxy S24."),
        ("Điện thoại chính của mẹ là iPhone 15.", "Điện thoại chính của người dùng là Samsung Galaxy S24."),
        # Two slots: a laptop and a phone.
        ("User's main laptop is a ThinkPad.", "User's only phone is an iPhone 15."),
        # A tool the text turns away from is not in its slot.
        ("Long chỉ dùng Vim, không bao giờ đụng tới VS Code.", "Long chỉ dùng Vim."),
        ("User switched from Neovim to VS Code.", "User uses VS Code now."),
        # A district is in a city: two places said plainly may both be true, and a place both name agrees.
        ("User lives in Ba Đình.", "User lives in Hanoi."),
        ("User moved to Hanoi in 2019.", "User lives in Ba Dinh, Hanoi."),
        ("Quê chị Thảo ở Cần Thơ.", "chi Thao que o Can Tho"),
        # Two employers said plainly may both be; a city is where one works, one called by an honorific whom for.
        ("User works at FPT.", "User works for Grab on weekends."),
        ("Người dùng làm việc ở Hà Nội.", "Người dùng giờ làm ở FPT."),
        ("Người dùng đang làm trợ lý cho anh Đạt.", "User joined MoMo in March."),
        # Where one lives is not where one comes from.
        ("User moved to Hanoi.", "User is originally from Huế."),
        # A cache beside the database.
        ("The app's main database is now MongoDB.", "The app uses Redis as a cache."),
        # Two notes apps, neither the only one.
        ("User uses Notion.", "User uses Obsidian."),
        # "Only" saying when or what for a thing is used: it is used beside the main one, not instead of it.
        ("User writes backend services in Go.", "User uses Python only for data scripts and small automation."),
        ("Người dùng code chủ yếu bằng Neovim.", "User opens IntelliJ IDEA only when he has to touch the Java code."),
        ("Anh dùng Neovim làm editor chính.", "Anh chỉ mở IntelliJ khi phải sửa service Java cũ."),
        # A language named as what a tool is used for is not a language used.
        ("User dropped pnpm and now uses Bun for every JavaScript project.", "User writes backend services in Go."),
        ("Ng dùng xài Bun cho mấy project JavaScript.", "Người dùng giờ viết backend bằng Go."),
    ],
)
def test_what_can_both_be_true_is_not_otherwise(a, b):
    assert not _otherwise(a, b)
    assert not _otherwise(b, a)


def test_how_surely_a_memory_says_its_thing_is_the_one():
    assert slot("User's only phone is an iPhone 15.").sure == {"phone": ONLY}
    assert slot("User uses VS Code now.").sure == {"editor": ONLY}
    assert slot("Neovim is the main editor.").sure == {"editor": MAIN}
    assert slot("User uses VS Code for notebooks.").sure == {"editor": USED}
    assert slot("User likes tea.") is None
    # "Chỉ" is "only", but not in "địa chỉ" (an address) or "chỉ số" (an index); "thôi" ending a clause is.
    assert slot("Anh Long dùng Neovim; địa chỉ dotfiles là github.com/long/dots.").sure == {"editor": USED}
    assert slot("Anh Long dùng Neovim, chỉ số WPM là 90.").sure == {"editor": USED}
    assert slot("long xai vim thoi").sure == {"editor": ONLY}
    assert slot("User uses Python only for data scripts.").sure == {"programming language": USED}
    assert slot("User opens IntelliJ only when he has to.").sure == {"editor": USED}
    assert slot("User now uses Bun for all of his JavaScript projects.") is None
    assert slot("User now uses Go for all projects.").things == {"programming language": {"golang"}}
    assert slot("Long chỉ dùng Vim, không bao giờ đụng tới VS Code.").things == {"editor": {"vim"}}


def test_a_name_the_owners_memories_place_beside_them_is_someone_else():
    thu = "Laptop chính của chị Thu, vợ anh Quân, là MacBook Air."
    owner = "Laptop chính của người dùng là MacBook Pro 14 inch."
    # Unplaced, "Thu" may be the owner called by name; placed as the wife, she is not.
    assert _otherwise(owner, "Laptop chính của chị Thu là MacBook Air.")
    assert not _otherwise(owner, thu, texts=[thu])
    wife = "Lan is the user's wife."
    assert not _otherwise("User's only phone is an iPhone 15.", "Lan's main phone is a Pixel 8.", texts=[wife])
    named = "User's name is Lan."
    assert _otherwise("User's only phone is an iPhone 15.", "Lan's main phone is a Pixel 8.", texts=[named])
    # A relation and the name a memory gives it are one person.
    assert not _otherwise("Lan lives in Hanoi now.", "User lives in Da Nang.", texts=[wife])
    wife_named = "Vợ tôi là Thảo."
    assert _otherwise("My wife's only phone is an iPhone 15.", "Thảo's main phone is a Pixel 8.", texts=[wife_named])
    assert not _otherwise("My wife's only phone is an iPhone 15.", "Thảo's main phone is a Pixel 8.")


def test_the_doctor_reports_one_slot_across_kinds_subjects_and_languages(db):
    neovim = add_memory("Neovim is the user's main editor.", kind="preference", subject="editor").pk
    vscode = add_memory("VS Code is the user's primary editor for all projects.", kind="fact", subject="ide").pk
    vim = add_memory("User also uses Vim on servers.", kind="fact", subject="servers").pk
    macbook = add_memory("Laptop chính của người dùng là MacBook Pro 14 inch.", kind="fact", subject="máy tính").pk
    thinkpad = add_memory("User's main work laptop is a ThinkPad X1 Carbon.", kind="fact", subject="laptop").pk
    lan = add_memory("Lan's main laptop is a Dell XPS.", kind="fact", subject="lan").pk
    add_memory("Lan is the user's wife.", kind="relationship", subject="family")
    conflicts = doctor.analyze("conflicts").conflicts
    assert sorted(conflicts) == sorted([sorted([neovim, vscode]), sorted([macbook, thinkpad])])
    assert not any(vim in group or lan in group for group in conflicts)


@pytest.mark.parametrize(
    ("stored", "stored_kind", "proposed", "proposed_kind"),
    [
        ("Neovim is the main editor.", "preference", "User uses VS Code now.", "fact"),
        (
            "Laptop chính của người dùng là MacBook Pro 14 inch.",
            "fact",
            "User's only laptop is a ThinkPad.",
            "preference",
        ),
        # Where one lives, which a move changes.
        ("User lives in Hanoi.", "fact", "User moved to Da Nang last month and lives there now.", "fact"),
        ("Người dùng sống ở Quận 3, TP.HCM.", "fact", "Người dùng đã chuyển ra Hà Nội sống từ tháng trước.", "fact"),
        # Where one works, which a new job changes.
        ("User works as a data analyst at Viettel.", "fact", "User now works as a product manager at MoMo.", "fact"),
    ],
)
def test_a_proposal_filling_a_slot_otherwise_is_a_possible_update(db, stored, stored_kind, proposed, proposed_kind):
    """Whatever the kind and subject each is filed under: the proposal waits for the owner, and says which memory
    it may replace."""
    policies.set_write_policy("allow", actor=OWNER)
    existing = add_memory(stored, kind=stored_kind, subject="tools", user="owner")
    answer = propose(proposed, kind=proposed_kind, subject="setup")
    assert (answer.status, answer.flags) == ("pending", ("possible_update",))
    assert f"says otherwise than memory {existing.pk}" in answer.reason


def test_a_proposal_filling_another_persons_slot_is_no_update(db):
    policies.set_write_policy("allow", actor=OWNER)
    add_memory("Lan is the user's wife.", kind="relationship", subject="family", user="owner")
    add_memory("User's main laptop is a ThinkPad.", kind="fact", subject="laptop", user="owner")
    answer = propose("Lan's main laptop is a Dell XPS.", kind="fact", subject="lan")
    assert (answer.status, answer.flags) == ("approved", ())
    answer = propose("User also uses Vim on servers.", kind="fact", subject="servers")
    assert (answer.status, answer.flags) == ("approved", ())


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("The user carries a single phone, an iPhone 15.", "User's only phone is an iPhone 15.", True),
        ("Tháng 10 Vy đã chuyển vào Sài Gòn sống.", "Vy relocated to Saigon in October and lives there now.", True),
        ("User lives in Saigon, District 3.", "Anh Khoa đang sống ở quận 3, Sài Gòn.", True),
        ("User's main editor is Neovim.", "Anh dùng Neovim làm editor chính.", True),
        # A tool merely used is only part of what a memory says.
        ("User prefers 4-space indentation in Python.", "User prefers 2-space indentation for Python.", False),
        # Said less surely: "main" is not "only".
        ("User lives in Hanoi.", "User moved to Hanoi.", False),
        ("User's only phone is an iPhone 15.", "User's main phone is an iPhone 15.", True),
    ],
)
def test_the_same_things_in_the_same_slots_of_one_person_are_one_fact(a, b, same):
    assert slots.same(slot(a), slot(b), lambda name: []) is same


def test_a_denial_fills_no_slot_but_by_its_other_clauses():
    assert slot("User no longer lives in Hanoi.") is None
    assert slot("User's main bank is not Vietcombank.") is None


def test_the_doctor_groups_one_slot_said_twice_in_other_words(db):
    single = add_memory("The user carries a single phone, an iPhone 15.", kind="fact", subject="devices").pk
    only = add_memory("User's only phone is an iPhone 15.", kind="fact", subject="phone").pk
    four = add_memory("User prefers 4-space indentation in Python.", kind="preference", subject="python").pk
    two = add_memory("User prefers 2-space indentation for Python.", kind="preference", subject="style").pk
    duplicates = doctor.analyze("duplicates").duplicates
    assert [single, only] in duplicates
    assert not any(four in group or two in group for group in duplicates)
