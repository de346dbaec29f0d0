"""Small hand-written bilingual (en/vi) labelled set for Bestie Memory embedding checks.

TARGETS: (id, lang, memory, question_same_language, question_other_language)
DISTRACTORS: same-topic memories that answer none of the questions.
"""

TARGETS = [
    # English memories
    (
        "E1",
        "en",
        "User is allergic to peanuts.",
        "Does the user have any food allergies?",
        "Người dùng bị dị ứng với món ăn gì?",
    ),
    (
        "E2",
        "en",
        "User's daughter Lan starts primary school in September.",
        "When does the user's daughter begin school?",
        "Khi nào con gái của người dùng bắt đầu đi học?",
    ),
    (
        "E3",
        "en",
        "User works as a nurse at Cho Ray Hospital on night shifts.",
        "What is the user's job?",
        "Người dùng làm nghề gì?",
    ),
    (
        "E4",
        "en",
        "User prefers green tea without sugar in the morning.",
        "What does the user like to drink in the morning?",
        "Buổi sáng người dùng thích uống gì?",
    ),
    (
        "E5",
        "en",
        "User's car is a white Toyota Vios bought in 2021.",
        "What car does the user drive?",
        "Người dùng đi xe ô tô gì?",
    ),
    (
        "E6",
        "en",
        "User is learning Japanese and takes lessons every Tuesday evening.",
        "Which foreign language is the user studying?",
        "Người dùng đang học ngoại ngữ nào?",
    ),
    (
        "E7",
        "en",
        "User's mother has high blood pressure and takes medicine daily.",
        "What health problem does the user's mother have?",
        "Mẹ của người dùng có vấn đề sức khỏe gì?",
    ),
    (
        "E8",
        "en",
        "User runs 5 kilometres in the park every Sunday morning.",
        "What exercise does the user do on weekends?",
        "Cuối tuần người dùng tập thể dục gì?",
    ),
    (
        "E9",
        "en",
        "User's favourite band is Coldplay.",
        "Which band does the user like most?",
        "Người dùng thích ban nhạc nào nhất?",
    ),
    (
        "E10",
        "en",
        "User is saving money to buy an apartment in Da Nang.",
        "What is the user saving up for?",
        "Người dùng đang tiết kiệm tiền để làm gì?",
    ),
    (
        "E11",
        "en",
        "User's wedding anniversary is on 14 March.",
        "When is the user's wedding anniversary?",
        "Ngày kỷ niệm cưới của người dùng là khi nào?",
    ),
    (
        "E12",
        "en",
        "User hates spicy food and avoids chili.",
        "Can the user eat spicy dishes?",
        "Người dùng có ăn được cay không?",
    ),
    (
        "E13",
        "en",
        "User has a golden retriever named Milo.",
        "What is the name of the user's dog?",
        "Con chó của người dùng tên là gì?",
    ),
    (
        "E14",
        "en",
        "User's laptop is a MacBook Air with 8 GB of RAM.",
        "What computer does the user use?",
        "Người dùng dùng máy tính xách tay nào?",
    ),
    (
        "E15",
        "en",
        "User wakes up at 5:30 every weekday.",
        "What time does the user get up?",
        "Người dùng thức dậy lúc mấy giờ?",
    ),
    # Vietnamese memories
    ("V1", "vi", "Người dùng ăn chay trường từ năm 2019.", "Người dùng có ăn thịt không?", "Does the user eat meat?"),
    (
        "V2",
        "vi",
        "Người dùng sống ở quận Bình Thạnh, Thành phố Hồ Chí Minh.",
        "Người dùng đang sống ở đâu?",
        "Where does the user live?",
    ),
    (
        "V3",
        "vi",
        "Sinh nhật của người dùng là ngày 2 tháng 9.",
        "Sinh nhật người dùng vào ngày nào?",
        "When is the user's birthday?",
    ),
    (
        "V4",
        "vi",
        "Người dùng bị đau lưng sau khi ngồi làm việc lâu.",
        "Người dùng hay bị đau ở đâu?",
        "Does the user have back problems?",
    ),
    (
        "V5",
        "vi",
        "Người dùng thích đọc truyện trinh thám của Agatha Christie.",
        "Người dùng thích đọc loại sách nào?",
        "What kind of books does the user enjoy?",
    ),
    (
        "V6",
        "vi",
        "Vợ của người dùng tên là Hương, làm giáo viên tiếng Anh.",
        "Vợ người dùng làm nghề gì?",
        "What does the user's wife do for a living?",
    ),
    ("V7", "vi", "Người dùng không uống rượu bia.", "Người dùng có uống bia không?", "Does the user drink alcohol?"),
    (
        "V8",
        "vi",
        "Người dùng muốn đi du lịch Nhật Bản vào mùa hoa anh đào năm sau.",
        "Người dùng dự định đi du lịch ở đâu?",
        "Where is the user planning to travel?",
    ),
    (
        "V9",
        "vi",
        "Người dùng chơi cầu lông với đồng nghiệp vào tối thứ Năm.",
        "Người dùng chơi môn thể thao gì với đồng nghiệp?",
        "What sport does the user play with colleagues?",
    ),
    (
        "V10",
        "vi",
        "Người dùng đang trả góp khoản vay mua nhà mỗi tháng 10 triệu đồng.",
        "Mỗi tháng người dùng trả nợ mua nhà bao nhiêu?",
        "How much does the user pay each month for the home loan?",
    ),
    (
        "V11",
        "vi",
        "Người dùng sợ độ cao và không thích đi máy bay.",
        "Người dùng sợ điều gì?",
        "What is the user afraid of?",
    ),
    (
        "V12",
        "vi",
        "Con trai của người dùng bị hen suyễn.",
        "Con trai người dùng bị bệnh gì?",
        "Does the user's son have a health condition?",
    ),
    (
        "V13",
        "vi",
        "Người dùng thích nghe nhạc Trịnh Công Sơn khi làm việc.",
        "Người dùng nghe nhạc gì lúc làm việc?",
        "What music does the user listen to while working?",
    ),
    (
        "V14",
        "vi",
        "Người dùng đang học thạc sĩ quản trị kinh doanh vào cuối tuần.",
        "Người dùng đang học chương trình sau đại học nào?",
        "What degree is the user studying for?",
    ),
    (
        "V15",
        "vi",
        "Người dùng thường đi làm bằng xe buýt số 19.",
        "Người dùng đi làm bằng phương tiện gì?",
        "How does the user commute to work?",
    ),
]

DISTRACTORS = [
    ("en", "User's colleague Minh is allergic to cats."),
    ("en", "User's son plays football every Saturday afternoon."),
    ("en", "User's brother works as an accountant in Hanoi."),
    ("en", "User bought a new coffee grinder last month."),
    ("en", "User's motorbike needs an oil change soon."),
    ("en", "User watched a documentary about Japanese history."),
    ("en", "User's father had knee surgery last year."),
    ("en", "User wants to try yoga classes near the office."),
    ("en", "User went to a jazz concert with friends in May."),
    ("en", "User's sister recently bought a house in Can Tho."),
    ("en", "User's parents celebrated their 40th wedding anniversary in June."),
    ("en", "User enjoys cooking Italian pasta on weekends."),
    ("en", "User's neighbour has two noisy cats."),
    ("en", "User's phone is an old Samsung Galaxy with a cracked screen."),
    ("en", "User often stays up late watching football matches."),
    ("vi", "Đồng nghiệp của người dùng đang ăn kiêng low-carb."),
    ("vi", "Người dùng từng sống ở Đà Lạt khi còn học đại học."),
    ("vi", "Người dùng tổ chức tiệc sinh nhật cho mẹ vào tháng 11."),
    ("vi", "Người dùng đi khám răng định kỳ sáu tháng một lần."),
    ("vi", "Người dùng đã đọc xong cuốn Nhà giả kim vào tháng trước."),
    ("vi", "Chị gái của người dùng là bác sĩ nhi khoa."),
    ("vi", "Người dùng thỉnh thoảng uống cà phê sữa đá với bạn bè."),
    ("vi", "Người dùng đã đi du lịch Thái Lan vào năm ngoái."),
    ("vi", "Người dùng xem bóng đá Ngoại hạng Anh vào cuối tuần."),
    ("vi", "Người dùng vừa mở thẻ tín dụng mới ở ngân hàng Vietcombank."),
    ("vi", "Người dùng không thích trời mưa vì hay bị kẹt xe."),
    ("vi", "Cháu gái của người dùng bị sốt xuất huyết tuần trước."),
    ("vi", "Người dùng thích hát karaoke vào dịp lễ Tết."),
    ("vi", "Bạn thân của người dùng làm kỹ sư phần mềm ở Singapore."),
    ("vi", "Người dùng đang tìm mua một chiếc xe máy điện cho con."),
]

# cross-language duplicates (same fact, en / vi)
DUP_PAIRS = [
    ("User is vegetarian.", "Người dùng ăn chay."),
    ("User lives in Hanoi.", "Người dùng sống ở Hà Nội."),
    ("User is allergic to shrimp.", "Người dùng bị dị ứng tôm."),
    ("User's son is called Nam.", "Con trai của người dùng tên là Nam."),
    ("User goes to the gym three times a week.", "Người dùng đi tập gym ba lần một tuần."),
    ("User does not like coffee.", "Người dùng không thích cà phê."),
    ("User works as a teacher.", "Người dùng làm giáo viên."),
    ("User's birthday is on 5 May.", "Sinh nhật của người dùng là ngày 5 tháng 5."),
    ("User is afraid of dogs.", "Người dùng sợ chó."),
    ("User wants to learn to play the guitar.", "Người dùng muốn học chơi đàn guitar."),
]

# same topic, different fact (also en / vi, so only meaning differs from DUP_PAIRS)
NONDUP_PAIRS = [
    ("User is vegetarian.", "Người dùng thích ăn thịt bò nướng."),
    ("User lives in Hanoi.", "Người dùng sống ở Thành phố Hồ Chí Minh."),
    ("User is allergic to shrimp.", "Người dùng rất thích ăn tôm hùm."),
    ("User's son is called Nam.", "Con gái của người dùng tên là Mai."),
    ("User goes to the gym three times a week.", "Người dùng ghét tập thể dục."),
    ("User does not like coffee.", "Người dùng uống trà sữa mỗi chiều."),
    ("User works as a teacher.", "Người dùng làm kế toán cho ngân hàng."),
    ("User's birthday is on 5 May.", "Sinh nhật của vợ người dùng là ngày 20 tháng 10."),
    ("User is afraid of dogs.", "Người dùng nuôi hai con mèo."),
    ("User wants to learn to play the guitar.", "Người dùng đã chơi piano được mười năm."),
]


def short_texts():
    """64 texts of 10-25 words (two memories of the same language joined)."""
    mems = {"en": [], "vi": []}
    for _id, lang, m, _a, _b in TARGETS:
        mems[lang].append(m)
    for lang, m in DISTRACTORS:
        mems[lang].append(m)
    out = []
    for lang in ("en", "vi"):
        L = mems[lang]
        for off in (7, 11):
            for i in range(len(L)):
                t = L[i] + " " + L[(i + off) % len(L)]
                n = len(t.split())
                if 10 <= n <= 25:
                    out.append(t)
    en = [t for t in out if t.isascii()][:32]
    vi = [t for t in out if not t.isascii()][:32]
    return en + vi  # 32 English then 32 Vietnamese
