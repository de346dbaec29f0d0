"""A labelled set for the doctor's duplicate detection: memories with the group each belongs to.

Each frame is one block (user, kind, subject) with a slot; every value of the slot is one group of
paraphrases (case, diacritics, word order, a different verb of wanting, the owner named or not, a typo,
an added detail), and the other values of the same frame are its look-alikes: same words but the slot,
which must not be grouped with it ("prefers pnpm" / "prefers npm", "9am" / "10am", Huế / Hà Nội).
Negated look-alikes ("does not like", "không thích") are groups of their own. English and Vietnamese.

``memories()`` yields ``(key, user, kind, subject, text, group)``; two memories are duplicates exactly
when their ``group`` is equal.
"""

# (user, kind, subject, paraphrase templates, values, negated templates)
FRAMES = [
    (
        "owner",
        "preference",
        "package manager",
        ["User prefers {v}.", "user likes {v}", "Always use {v} for JavaScript projects.", "The user wants {v}."],
        ["pnpm", "npm", "yarn", "bun"],
        ["User does not want {v}."],
    ),
    (
        "owner",
        "preference",
        "language",
        [
            "User prefers {v} replies.",
            "Always answer in {v}.",
            "Replies in {v}, please.",
            "User wants {v}-first answers.",
        ],
        ["Vietnamese", "English", "French"],
        [],
    ),
    (
        "lan",
        "preference",
        "ngôn ngữ",
        [
            "Người dùng thích trả lời bằng {v}.",
            "nguoi dung thich tra loi bang {v}",
            "Luôn trả lời bằng {v}.",
            "Trả lời bằng {v}, người dùng thích.",
        ],
        ["tiếng Việt", "tiếng Anh", "tiếng Nhật"],
        ["Người dùng không thích trả lời bằng {v}."],
    ),
    (
        "owner",
        "preference",
        "drink",
        ["User likes {v}.", "USER LIKES {v}", "{v}: the user likes it.", "User likes {v} in the morning."],
        ["green tea", "black coffee", "orange juice", "iced milk tea"],
        ["User does not like {v}.", "User hates {v}."],
    ),
    (
        "minh",
        "preference",
        "đồ uống",
        [
            "Người dùng thích {v}.",
            "nguoi dung thich {v}",
            "{v} là món người dùng thích.",
            "Người dùng thích {v} mỗi sáng.",
        ],
        ["cà phê sữa đá", "trà đá", "nước dừa", "sinh tố bơ"],
        ["Người dùng không thích {v}."],
    ),
    (
        "owner",
        "preference",
        "food",
        ["User loves {v}.", "user loves {v}!", "The user loves {v} a lot.", "Loves {v}, the user does."],
        ["phở bò", "bún chả", "cơm tấm", "bánh xèo", "sushi"],
        ["User never eats {v}."],
    ),
    (
        "minh",
        "preference",
        "món ăn",
        ["Chủ nhân thích ăn {v}.", "chu nhan thich an {v}", "Thích ăn {v}.", "Chủ nhân rất thích ăn {v} ở Hà Nội."],
        ["phở gà", "bún bò Huế", "mì Quảng", "bánh cuốn"],
        ["Chủ nhân không ăn {v}."],
    ),
    (
        "owner",
        "communication_preference",
        "schedule",
        [
            "Don't message Lan before {v}.",
            "do not message lan before {v}",
            "Never message Lan before {v}.",
            "Lan: no messages before {v}.",
        ],
        ["8am", "9am", "10am"],
        [],
    ),
    (
        "minh",
        "communication_preference",
        "lịch",
        [
            "Không nhắn tin cho Minh trước {v}.",
            "khong nhan tin cho minh truoc {v}",
            "Trước {v} không nhắn tin cho Minh.",
        ],
        ["7 giờ sáng", "8 giờ sáng", "9 giờ sáng"],
        [],
    ),
    (
        "owner",
        "fact",
        "home",
        ["User lives in {v}.", "user lives in {v}", "The user lives in {v} now.", "Lives in {v}."],
        ["Huế", "Đà Nẵng", "Hà Nội", "Berlin", "Lisbon"],
        ["User no longer lives in {v}."],
    ),
    (
        "lan",
        "fact",
        "nơi ở",
        ["Người dùng sống ở {v}.", "nguoi dung song o {v}", "Sống ở {v}.", "Người dùng hiện sống ở {v} với gia đình."],
        ["Huế", "Đà Lạt", "Nha Trang", "Cần Thơ"],
        [],
    ),
    (
        "owner",
        "project_context",
        "stack",
        [
            "Project bestie uses {v}.",
            "project bestie uses {v}",
            "Bestie project uses {v}.",
            "Project bestie uses {v} in production.",
        ],
        ["PostgreSQL", "SQLite", "Django", "Docker", "Terraform"],
        ["Project bestie does not use {v}."],
    ),
    (
        "minh",
        "project_context",
        "công nghệ",
        [
            "Dự án shop dùng {v}.",
            "du an shop dung {v}",
            "Dự án shop sử dụng {v}.",
            "Dự án shop dùng {v} cho phần deploy.",
        ],
        ["React", "Vite", "Redis", "Kubernetes"],
        ["Dự án shop không dùng {v}."],
    ),
    (
        "owner",
        "addressing",
        "name",
        [
            "Address the owner as {v}.",
            "address the owner as {v}",
            "Call the owner {v}.",
            "Always address the owner as {v}.",
        ],
        ["anh Minh", "chị Lan", "Tom", "Sarah"],
        [],
    ),
    (
        "lan",
        "addressing",
        "cách xưng hô",
        ["Gọi chủ nhân là {v}.", "goi chu nhan la {v}", "Luôn gọi chủ nhân là {v}."],
        ["anh Hùng", "chị Thảo", "em Khoa"],
        ["Đừng gọi chủ nhân là {v}."],
    ),
    (
        "owner",
        "fact",
        "family",
        [
            "{v} is the owner's sister.",
            "{v} is the owners sister",
            "The owner's sister is {v}.",
            "{v} is the owner's sister and lives nearby.",
        ],
        ["Lan", "Mai", "Thảo", "Anna"],
        ["{v} is not the owner's sister."],
    ),
    (
        "minh",
        "fact",
        "gia đình",
        ["{v} là em gái của chủ nhân.", "{v} la em gai cua chu nhan", "Em gái của chủ nhân là {v}."],
        ["Lan", "Mai", "Thảo"],
        [],
    ),
    (
        "owner",
        "decision",
        "tooling",
        [
            "Decided to move bestie to {v}.",
            "decided to move bestie to {v}",
            "Bestie moves to {v}, decided.",
            "Decided to move bestie to {v} after the review.",
        ],
        ["uv", "poetry", "pip-tools"],
        [],
    ),
    (
        "lan",
        "communication_preference",
        "tone",
        [
            "User prefers {v} replies.",
            "user prefers {v} replies",
            "Replies should be {v}.",
            "User prefers {v} replies without small talk.",
        ],
        ["formal", "casual", "playful"],
        [],
    ),
    (
        "minh",
        "fact",
        "công việc",
        [
            "Chủ nhân làm việc tại {v}.",
            "chu nhan lam viec tai {v}",
            "Làm việc tại {v}.",
            "Chủ nhân làm việc tại {v} từ năm ngoái.",
        ],
        ["ngân hàng", "bệnh viện", "trường học", "công ty phần mềm"],
        ["Chủ nhân không còn làm việc tại {v}."],
    ),
]

# Typos in longer words still make the same memory: (frame index, value, text).
TYPOS = [
    (0, "pnpm", "User preferrs pnpm."),
    (5, "phở bò", "User lovse phở bò."),
    (9, "Berlin", "User lives in Berlim."),
    (11, "PostgreSQL", "Project bestie uses PostgreSLQ."),
    (15, "Lan", "Lan is the owner's sisster."),
]


def memories():
    key = 0
    for index, (user, kind, subject, templates, values, negated) in enumerate(FRAMES):
        for value in values:
            group = f"{index}:{value}"
            for template in templates:
                key += 1
                yield key, user, kind, subject, template.format(v=value), group
            for _n, template in enumerate(negated):
                key += 1
                # Negations of one fact say the same thing as each other: one group of their own.
                yield key, user, kind, subject, template.format(v=value), f"{group}:not"
            for frame, typo_value, text in TYPOS:
                if frame == index and typo_value == value:
                    key += 1
                    yield key, user, kind, subject, text, group


def group_count():
    return len({row[5] for row in memories()})
