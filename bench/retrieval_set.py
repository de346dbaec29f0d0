"""A labelled retrieval set: memories Bestie should find, and the questions that should find them.

Each family is a kind of memory with a template for the memory and several ways of asking for it:
the same words, other word forms ("prefers" / "preferred"), synonyms and question phrasing, and for
Vietnamese the question typed without diacritics. Every memory names its own entity (a person, a
project, a place) so exactly one memory answers each question. ``PAIRS`` lists (query, memory key); the
store around them comes from ``bench/generate.py``, whose memories use the same words (cities, foods,
tools, projects), so they are hard distractors.

    from bench.retrieval_set import MEMORIES, PAIRS   # {key: text}, [(query, key), …]
"""

import random

# (family, memory template, query templates); {e} is the entity, {a} the answer.
FAMILIES = [
    (
        "birthday",
        "{e}'s birthday is on {a}.",
        ["When is {e}'s birthday?", "what day was {e} born", "remind me of {e} birthday date"],
    ),
    (
        "job",
        "{e} works as {a}.",
        ["What does {e} do for work?", "what is {e}'s job", "where is {e} working these days"],
    ),
    (
        "allergy",
        "The owner is allergic to {e}; {a}.",
        ["Can I eat {e}?", "am I allergic to {e}", "is {e} safe for me"],
    ),
    (
        "deploy",
        "Project {e} is deployed to {a}.",
        ["Where does {e} get deployed?", "which server hosts the {e} project", "how do we deploy {e}"],
    ),
    (
        "meeting",
        "The weekly sync for {e} is {a}.",
        ["When is the {e} meeting?", "what time do we meet about {e}", "{e} sync schedule"],
    ),
    (
        "gift",
        "For {e}'s gift the owner wants to buy {a}.",
        ["What should I buy for {e}?", "present idea for {e}", "gift for {e}"],
    ),
    (
        "vi_home",
        "{e} sống ở {a} cùng gia đình.",
        ["{e} sống ở đâu?", "{e} song o dau", "nhà của {e} ở chỗ nào"],
    ),
    (
        "vi_food",
        "Chủ nhân rất thích món {e} {a}.",
        ["Tôi thích món {e} nào?", "mon {e} yeu thich cua toi", "quán {e} ngon nhất"],
    ),
    (
        "vi_schedule",
        "Lịch {e} của chủ nhân là {a}.",
        ["Khi nào tôi có lịch {e}?", "lich {e} vao luc nao", "giờ {e} của tôi"],
    ),
    (
        "vi_project",
        "Dự án {e} đang dùng {a}.",
        ["Dự án {e} dùng công nghệ gì?", "du an {e} dung gi", "{e} viết bằng gì"],
    ),
    (
        "preference",
        "User prefers {a} when talking about {e}.",
        ["How should you talk to me about {e}?", "preferred style for {e} conversations", "{e} preference"],
    ),
    (
        "vehicle",
        "The owner's {e} is {a}.",
        ["What {e} do I have?", "tell me about my {e}", "which {e} do I own"],
    ),
]

ENTITIES = {
    "birthday": [
        ("Quang", "March 14"),
        ("Hoa", "the 2nd of July"),
        ("Bảo", "October 30"),
        ("Julia", "January 9"),
        ("Peter", "May 21"),
        ("Linh", "August 3"),
        ("Vy", "December 12"),
        ("Marco", "April 17"),
        ("Tuấn", "June 6"),
        ("Chloe", "September 25"),
    ],
    "job": [
        ("Quang", "a nurse at the Bạch Mai hospital"),
        ("Hoa", "a product designer at a fintech start-up"),
        ("Bảo", "a chef in a ramen bar"),
        ("Julia", "a lawyer for a shipping company"),
        ("Peter", "a data engineer"),
        ("Linh", "a primary school teacher"),
        ("Vy", "an architect"),
        ("Marco", "a pilot for a budget airline"),
        ("Tuấn", "a civil engineer on bridges"),
        ("Chloe", "a freelance translator"),
    ],
    "allergy": [
        ("peanuts", "it can be severe"),
        ("shrimp", "only mild itching"),
        ("cats", "sneezing for hours"),
        ("penicillin", "tell any doctor first"),
        ("pollen", "worst in spring"),
        ("lactose", "small amounts are fine"),
        ("crab", "avoid seafood stalls"),
        ("dust mites", "needs a clean bedroom"),
        ("mango", "the skin causes rashes"),
        ("gluten", "mild reactions only"),
    ],
    "deploy": [
        ("atlas", "a Hetzner VPS in Helsinki"),
        ("orchid", "Fly.io in Singapore"),
        ("nimbus", "the home server"),
        ("lotus", "Cloudflare Pages"),
        ("kite", "an AWS Lambda function"),
        ("sparrow", "a Raspberry Pi at the office"),
        ("quartz", "Render's free tier"),
        ("ember", "DigitalOcean droplets"),
        ("maple", "Vercel"),
        ("harbor", "a Kubernetes cluster at work"),
    ],
    "meeting": [
        ("atlas", "every Tuesday at 10am"),
        ("orchid", "Thursday afternoon"),
        ("nimbus", "Monday mornings at 9"),
        ("lotus", "Wednesday at lunch"),
        ("kite", "Friday at 4pm"),
        ("sparrow", "every second Monday"),
        ("quartz", "Tuesday evenings"),
        ("ember", "Thursday at 8am"),
        ("maple", "Wednesday after standup"),
        ("harbor", "the first Friday of the month"),
    ],
    "gift": [
        ("Quang", "a mechanical keyboard"),
        ("Hoa", "a ceramic tea set"),
        ("Bảo", "a Japanese chef's knife"),
        ("Julia", "a fountain pen"),
        ("Peter", "a board game about trains"),
        ("Linh", "children's picture books"),
        ("Vy", "a drawing tablet"),
        ("Marco", "noise-cancelling headphones"),
        ("Tuấn", "a Lego bridge set"),
        ("Chloe", "a Vietnamese-French dictionary"),
    ],
    "vi_home": [
        ("Quang", "quận Ba Đình, Hà Nội"),
        ("Hoa", "Thủ Đức"),
        ("Bảo", "phố cổ Hội An"),
        ("Julia", "Quận 2"),
        ("Peter", "Sơn Trà, Đà Nẵng"),
        ("Linh", "thành phố Vinh"),
        ("Vy", "Cần Thơ"),
        ("Marco", "Hải Phòng"),
        ("Tuấn", "Biên Hòa"),
        ("Chloe", "Vũng Tàu"),
    ],
    "vi_food": [
        ("bún riêu", "ở chợ Bến Thành"),
        ("bánh xèo", "miền Tây"),
        ("chả cá", "Lã Vọng"),
        ("mì Quảng", "ở Đà Nẵng"),
        ("hủ tiếu", "Nam Vang"),
        ("bánh cuốn", "Thanh Trì"),
        ("cao lầu", "Hội An"),
        ("nem rán", "mẹ làm"),
        ("xôi xéo", "buổi sáng"),
        ("bún đậu", "mắm tôm"),
    ],
    "vi_schedule": [
        ("tập gym", "6 giờ sáng thứ Hai, Tư, Sáu"),
        ("học tiếng Anh", "tối thứ Ba"),
        ("đi bơi", "chiều Chủ nhật"),
        ("khám răng", "mỗi sáu tháng"),
        ("chạy bộ", "sáng thứ Bảy"),
        ("họp phụ huynh", "cuối mỗi học kỳ"),
        ("yoga", "tối thứ Năm"),
        ("đi chợ", "sáng Chủ nhật"),
        ("gọi điện cho mẹ", "tối thứ Sáu"),
        ("dọn nhà", "chiều thứ Bảy"),
    ],
    "vi_project": [
        ("atlas", "Go và Redis"),
        ("orchid", "Flutter cho ứng dụng di động"),
        ("nimbus", "Rust và SQLite"),
        ("lotus", "Next.js với Tailwind"),
        ("kite", "FastAPI và Celery"),
        ("sparrow", "Laravel"),
        ("quartz", "Svelte"),
        ("ember", "Elixir Phoenix"),
        ("maple", "Kotlin Spring"),
        ("harbor", "Java Quarkus"),
    ],
    "preference": [
        ("money", "short, factual answers"),
        ("health", "gentle wording and no scare statistics"),
        ("travel", "detailed itineraries"),
        ("politics", "neutral summaries only"),
        ("code", "complete runnable examples"),
        ("family", "a warm and personal tone"),
        ("football", "jokes are fine"),
        ("taxes", "step-by-step lists"),
        ("cooking", "metric units"),
        ("music", "recommendations with links"),
    ],
    "vehicle": [
        ("motorbike", "a red Honda Wave from 2018"),
        ("car", "a grey VinFast VF8"),
        ("bicycle", "a Giant road bike"),
        ("scooter", "an electric Yadea"),
        ("boat", "a small kayak kept at the lake"),
        ("truck", "borrowed from the family business"),
        ("skateboard", "a longboard for the park"),
        ("van", "a camper rented each summer"),
        ("tractor", "at grandpa's farm"),
        ("drone", "a DJI Mini for photos"),
    ],
}


def build(seed=7):
    """``({key: memory text}, [(query, key), …])``: two questions per memory, chosen reproducibly."""
    rng = random.Random(seed)
    memories, pairs = {}, []
    for family, template, questions in FAMILIES:
        for index, (entity, answer) in enumerate(ENTITIES[family]):
            key = f"{family}:{index}"
            memories[key] = template.format(e=entity, a=answer)
            for question in rng.sample(questions, 2):
                pairs.append((question.format(e=entity), key))
    return memories, pairs


MEMORIES, PAIRS = build()
