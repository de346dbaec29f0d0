"""Held-out meaning set 8 for the memory doctor (duplicates, contradictions, look-alikes).

Written blind on 2026-12-05 by someone who saw only a short description of the memory doctor task
(no project code, docs or other data sets were read).

Users (one household plus a close friend, Da Nang / Quy Nhon / Saigon):
  khoi  - Tran Dang Khoi, the owner (software engineer in Da Nang; wife Diep, son Thinh, daughter Bao Ngoc)
  diep  - Vu Ngoc Diep, the owner's wife (pharmacist)
  xuan  - Le Thi Xuan, the owner's mother (retired teacher in Quy Nhon)
  phong - Tran Dang Phong, the owner's younger brother (UX designer in Saigon)
  vinh  - Ho Quang Vinh, the owner's close friend (cafe owner)

Memories are Vietnamese (with diacritics, or typed without diacritics / chat style) or English.
Members of one group state the same fact, often across languages, with different subject slugs.
CONTRADICTIONS: unordered pairs of groups (same user) that cannot both be true now; every other
pair of groups of one user is meant to be compatible. LOOKALIKES: compatible pairs of groups (same
user) that share names, places, numbers or topic but state different facts.
"Strictly cross-language" pair: one group is all Vietnamese, the other all English.

Counts (checked with a script that imports this module):
  memories: 208 (khoi 91 = 44%, diep 29, xuan 29, phong 30, vinh 29)
  language: Vietnamese 115 (55%; 38 of them without diacritics / chat style), English 93 (45%)
  groups: 131 (68 with 2+ members, 63 singletons); multi-member sizes: 60 x 2, 7 x 3, 1 x 4
  groups per user: khoi 57, diep 19, xuan 18, phong 19, vinh 18
  multi-member groups mixing Vietnamese and English: 63 (same-language only: 5)
  duplicate pairs (same group): 87 (73 of them cross-language)
  contradiction pairs: 36 (strictly cross-language 16;
    with some cross-language member pair 36; with some same-language member pair 20)
  look-alike pairs: 27 (strictly cross-language 13;
    with some cross-language member pair 27; with some same-language member pair 14)
  contradictions per user: khoi 18, diep 5, xuan 4, phong 5, vinh 4
  look-alikes per user: khoi 12, diep 3, xuan 4, phong 4, vinh 4
"""

MEMORIES = [
    (
        "h8-001", "khoi", "communication_preference", "tone",
        "The user wants short, direct answers with no preamble.",
        "khoi-tone-concise",
    ),
    (
        "h8-002", "phong", "relationship", "engagement",
        "Phong is engaged to his girlfriend Kieu Oanh; the wedding is planned for May.",
        "phong-engaged-oanh",
    ),
    ("h8-003", "phong", "fact", "chỗ ở", "Phong đang thuê căn hộ ở TP Thủ Đức, Sài Gòn.", "phong-lives-thuduc"),
    (
        "h8-004", "vinh", "fact", "staff",
        "Vinh's employee Hau manages the night shift at the café.",
        "vinh-hau-night-shift",
    ),
    (
        "h8-005", "phong", "preference", "sau rieng",
        "Phong ghet sau rieng lam, ngui mui la muon oi",
        "phong-hates-durian",
    ),
    (
        "h8-006", "diep", "preference", "drinks",
        "Diep is a coffee person - she would always pick coffee over tea.",
        "diep-prefers-coffee",
    ),
    (
        "h8-007", "xuan", "communication_preference", "giao tiếp",
        "Khi nói chuyện với bà Xuân nên nói chậm, câu ngắn, vì bà hơi lãng tai.",
        "xuan-speak-slowly",
    ),
    (
        "h8-008", "khoi", "routine", "don con",
        "Khôi đón Thịnh vào thứ Năm chứ không phải thứ Tư; thứ Tư là Diệp đi đón.",
        "khoi-pickup-thursday",
    ),
    (
        "h8-009", "phong", "project_context", "side project",
        "Phong is building a barbershop booking app called Hot on the side; the beta is planned for January.",
        "phong-app-hot",
    ),
    ("h8-010", "phong", "fact", "tiền", "Anh Khôi đang nợ Phong 8 triệu và chưa trả.", "phong-khoi-owes-phong-8m"),
    (
        "h8-011", "khoi", "fact", "xe máy",
        "Từ tháng 9 Khôi cho Vinh mượn chiếc xe máy Honda Vision.",
        "khoi-lends-vision-to-vinh",
    ),
    (
        "h8-012", "khoi", "communication_preference", "ngon ngu tra loi",
        "Người dùng yêu cầu luôn trả lời bằng tiếng Anh, kể cả khi anh nhắn tiếng Việt, để luyện tiếng Anh.",
        "khoi-reply-english",
    ),
    (
        "h8-013", "khoi", "health", "medication",
        "The user takes 5 mg of amlodipine for his blood pressure every morning.",
        "khoi-amlodipine",
    ),
    (
        "h8-014", "phong", "preference", "fruit",
        "Durian is Phong's favourite fruit; he buys it whenever it's in season.",
        "phong-loves-durian",
    ),
    (
        "h8-015", "diep", "preference", "ca phe",
        "c Diep ghien ca phe, thich ca phe hon tra nhieu",
        "diep-prefers-coffee",
    ),
    ("h8-016", "vinh", "health", "an cay", "a Vinh ko an cay dc, an vao la dau bao tu", "vinh-no-spicy"),
    (
        "h8-017", "vinh", "preference", "food",
        "Vinh puts extra chili in everything and always orders the spiciest mi Quang.",
        "vinh-loves-chili",
    ),
    (
        "h8-018", "vinh", "project_context", "mat bang",
        "a Vinh dang kiem mat bang o Hoi An de em gai la Thu mo tiem banh",
        "vinh-hoian-bakery-thu",
    ),
    (
        "h8-019", "vinh", "fact", "khoản vay",
        "Vinh đã trả hết khoản vay ngân hàng 200 triệu cho quán hồi tháng 6.",
        "vinh-repaid-bank",
    ),
    (
        "h8-020", "xuan", "fact", "travel",
        "Each Lunar New Year, Xuan takes a flight down to Ho Chi Minh City to stay with her son Phong.",
        "xuan-flies-tet",
    ),
    (
        "h8-021", "khoi", "routine", "morning drink",
        "Every morning before work the user makes himself a phin of Vietnamese coffee.",
        "khoi-coffee-every-morning",
    ),
    ("h8-022", "phong", "fact", "xe", "Phong chay xe Exciter mau do", "phong-exciter"),
    (
        "h8-023", "xuan", "health", "thuoc",
        "ba Xuan bi tieu duong type 2, uong metformin 500mg sang 1 vien toi 1 vien",
        "xuan-metformin",
    ),
    (
        "h8-024", "phong", "health", "hen suyễn",
        "Phong bị hen suyễn, lúc nào cũng mang theo bình xịt Ventolin.",
        "phong-asthma",
    ),
    (
        "h8-025", "vinh", "communication_preference", "tiếng Việt",
        "Vinh dặn chỉ nhắn bằng tiếng Việt vì anh không đọc được tiếng Anh.",
        "vinh-vietnamese-only",
    ),
    (
        "h8-026", "khoi", "fact", "employer",
        "The user works at Hai Van Soft, where he leads the backend team.",
        "khoi-employer-haivan",
    ),
    ("h8-027", "khoi", "routine", "đón con", "chieu T4 nao a Khoi cung don Thinh luc 5h", "khoi-pickup-wednesday"),
    ("h8-028", "khoi", "fact", "nợ", "Vinh còn nợ Khôi 15 triệu từ vụ góp vốn mở quán cà phê.", "khoi-vinh-owes-15m"),
    ("h8-029", "khoi", "routine", "giac ngu", "a Khoi thuong ngu truoc 10h toi", "khoi-sleep-early"),
    (
        "h8-030", "khoi", "preference", "coffee",
        "The user quit coffee completely in March because it was wrecking his sleep.",
        "khoi-quit-coffee",
    ),
    (
        "h8-031", "diep", "project_context", "course",
        "Diep is taking an online pharmacy-chain management course on Tuesday and Thursday evenings.",
        "diep-online-course",
    ),
    (
        "h8-032", "xuan", "relationship", "sister",
        "Xuan's younger sister Thoa moved in with her last year, so the two of them now live together.",
        "xuan-lives-with-thoa",
    ),
    (
        "h8-033", "diep", "routine", "exercise",
        "Diep goes to a yoga class near home at 6 am on Mondays and Wednesdays.",
        "diep-yoga-mon-wed",
    ),
    (
        "h8-034", "khoi", "communication_preference", "nhac viec",
        "nhac viec cho a Khoi thi gui zalo nha, dung gui mail",
        "khoi-reminders-zalo",
    ),
    ("h8-035", "vinh", "preference", "coffee", "Vinh drinks his coffee black with no sugar.", "vinh-black-coffee"),
    (
        "h8-036", "diep", "routine", "mother-in-law",
        "Diep calls her mother-in-law Xuan every Saturday evening.",
        "diep-calls-xuan-saturday",
    ),
    ("h8-037", "khoi", "fact", "xe hơi", "a Khoi dang chay VF8 mau xanh duong", "khoi-car-vf8"),
    ("h8-038", "phong", "routine", "hut thuoc", "Phong van hut thuoc, tam nua goi 1 ngay", "phong-smokes"),
    (
        "h8-039", "khoi", "routine", "running",
        "The user runs 5 km along the Han River on Tuesday, Thursday and Saturday mornings.",
        "khoi-running-tue-thu-sat",
    ),
    (
        "h8-040", "khoi", "health", "blood pressure",
        "The user's doctor took him off amlodipine in October; he no longer takes any blood pressure medication.",
        "khoi-bp-med-stopped",
    ),
    ("h8-041", "vinh", "fact", "business", "Vinh owns Gio Chieu, a café on Bach Dang street.", "vinh-cafe-owner"),
    (
        "h8-042", "vinh", "fact", "school fees",
        "Vinh pays 25 million VND in school fees for his daughter every semester.",
        "vinh-school-fees-25m",
    ),
    (
        "h8-043", "diep", "fact", "sợ độ cao",
        "Diệp rất sợ độ cao, không bao giờ chịu đi cáp treo.",
        "diep-fear-heights",
    ),
    (
        "h8-044", "vinh", "decision", "expansion",
        "Vinh has decided to open a second Gio Chieu branch in Hoi An in Q2 next year.",
        "vinh-hoian-branch",
    ),
    (
        "h8-045", "diep", "routine", "sữa",
        "Tối nào trước khi ngủ chị Diệp cũng uống một ly sữa bò tươi.",
        "diep-milk-nightly",
    ),
    (
        "h8-046", "diep", "relationship", "em gái",
        "Diệp có em gái tên Quyên đang sống ở Hội An.",
        "diep-sister-quyen-hoian",
    ),
    ("h8-047", "vinh", "health", "bệnh gút", "Vinh bị gút, bác sĩ dặn kiêng bia và hải sản.", "vinh-gout"),
    ("h8-048", "khoi", "fact", "tien no", "a Vinh tra du 15tr cho a Khoi r, ko con no gi", "khoi-vinh-repaid-15m"),
    (
        "h8-049", "diep", "fact", "doc sach",
        "c Diep dat muc tieu doc 30 cuon sach trong nam nay",
        "diep-reading-30-books",
    ),
    (
        "h8-050", "khoi", "project_context", "dự án",
        "Khôi đang dẫn dắt dự án chuyển hệ thống thanh toán lên Kubernetes, hạn chót cuối tháng 11.",
        "khoi-project-payment-k8s",
    ),
    (
        "h8-051", "khoi", "project_context", "work",
        "a Khoi dang lead team backend ben Hai Van Soft",
        "khoi-employer-haivan",
    ),
    (
        "h8-052", "diep", "preference", "ba na hills",
        "Diep rides the Ba Na Hills cable car every time relatives visit; she loves the view from the top.",
        "diep-cable-car-bana",
    ),
    ("h8-053", "xuan", "preference", "ăn chay", "Ngày rằm bà Xuân ăn chay cả ngày.", "xuan-vegetarian-ram"),
    (
        "h8-054", "khoi", "routine", "học thêm",
        "Thịnh đi học thêm tiếng Anh lúc 8 giờ sáng Chủ nhật, Khôi chở bé đi.",
        "khoi-son-english-8am",
    ),
    (
        "h8-055", "phong", "relationship", "người yêu",
        "Phong đã đính hôn với bạn gái Kiều Oanh, dự định cưới vào tháng 5.",
        "phong-engaged-oanh",
    ),
    ("h8-056", "xuan", "routine", "đi chùa", "Bà Xuân đi chùa Long Khánh vào ngày rằm hàng tháng.", "xuan-pagoda-ram"),
    (
        "h8-057", "khoi", "communication_preference", "giờ nhắn tin",
        "Cuối tuần đừng nhắn tin hay gọi cho Khôi trước 9 giờ sáng.",
        "khoi-no-msg-before-9-weekend",
    ),
    ("h8-058", "khoi", "fact", "dog", "Khoi has a Phu Quoc dog called Muc.", "khoi-dog-muc"),
    ("h8-059", "vinh", "health", "gout", "Vinh has gout; his doctor told him to avoid beer and seafood.", "vinh-gout"),
    ("h8-060", "phong", "health", "thuốc lá", "Phong hút khoảng nửa bao thuốc lá mỗi ngày.", "phong-smokes"),
    (
        "h8-061", "vinh", "relationship", "marital status",
        "Vinh is divorced and currently lives alone.",
        "vinh-divorced",
    ),
    (
        "h8-062", "xuan", "routine", "pagoda",
        "Xuan visits Long Khanh pagoda on the 15th of every lunar month.",
        "xuan-pagoda-ram",
    ),
    (
        "h8-063", "khoi", "fact", "học phí",
        "Học phí của Thịnh là 5 triệu mỗi tháng, Khôi đóng vào đầu tháng.",
        "khoi-tuition-5m",
    ),
    ("h8-064", "phong", "fact", "motorbike", "Phong rides a red Yamaha Exciter.", "phong-exciter"),
    ("h8-065", "vinh", "relationship", "con gai", "con gai a Vinh ten Su, dang hoc lop 1", "vinh-daughter-su"),
    (
        "h8-066", "xuan", "health", "diabetes",
        "Xuan has type 2 diabetes and takes metformin 500 mg twice a day.",
        "xuan-metformin",
    ),
    ("h8-067", "khoi", "health", "rượu bia", "Khôi không uống rượu bia, đã bỏ hẳn từ năm 2021.", "khoi-no-alcohol"),
    (
        "h8-068", "vinh", "project_context", "nhân viên",
        "Vinh đang dạy Hậu pha chế để cậu ấy đi thi barista.",
        "vinh-teaching-hau-barista",
    ),
    (
        "h8-069", "khoi", "routine", "the thao",
        "a Khoi chay 5km o song Han, T3 T5 T7, buoi sang",
        "khoi-running-tue-thu-sat",
    ),
    (
        "h8-070", "vinh", "fact", "loan",
        "Vinh still owes the bank 200 million VND on the loan he took for the café.",
        "vinh-owes-bank-200m",
    ),
    (
        "h8-071", "khoi", "health", "bé Bảo Ngọc",
        "Bảo Ngọc, con gái 4 tuổi của Khôi, bị dị ứng tôm.",
        "khoi-daughter-shrimp-allergy",
    ),
    (
        "h8-072", "xuan", "relationship", "con cái",
        "Bà Xuân có 3 người con: Khôi, Phong và chị Hạnh ở Đà Lạt.",
        "xuan-three-children",
    ),
    (
        "h8-073", "xuan", "communication_preference", "speaking",
        "Speak slowly and in short sentences with Xuan; she is a little hard of hearing.",
        "xuan-speak-slowly",
    ),
    ("h8-074", "khoi", "health", "thuốc", "Khôi uống thuốc huyết áp amlodipine 5mg mỗi sáng.", "khoi-amlodipine"),
    (
        "h8-075", "khoi", "preference", "meetings",
        "The user keeps his mornings free of meetings until 10 am so he can code.",
        "khoi-meeting-free-morning",
    ),
    (
        "h8-076", "phong", "fact", "debt",
        "Phong owes his brother Khoi 8 million VND and promised to repay it before Tet.",
        "phong-owes-khoi-8m",
    ),
    ("h8-077", "vinh", "relationship", "daughter", "Vinh's daughter Su is in first grade.", "vinh-daughter-su"),
    (
        "h8-078", "khoi", "routine", "chạy bộ",
        "Khôi chạy bộ 5km dọc sông Hàn vào sáng thứ Ba, thứ Năm và thứ Bảy.",
        "khoi-running-tue-thu-sat",
    ),
    (
        "h8-079", "khoi", "decision", "travel",
        "The user's family has decided to travel to Japan next April for the cherry blossoms.",
        "khoi-japan-trip-april",
    ),
    ("h8-080", "diep", "preference", "tea", "Diep prefers tea to coffee, oolong in particular.", "diep-prefers-tea"),
    (
        "h8-081", "phong", "project_context", "app",
        "app dat lich cat toc cua Phong (ten Hot) du kien beta thang 1",
        "phong-app-hot",
    ),
    (
        "h8-082", "diep", "fact", "job",
        "Diep works as a pharmacist at Binh An pharmacy on Nguyen Van Linh street.",
        "diep-job-pharmacist",
    ),
    ("h8-083", "khoi", "preference", "bia", "a Khoi bo bia r (tu 2021), ko uong giot nao nua", "khoi-no-alcohol"),
    (
        "h8-084", "diep", "project_context", "side business",
        "Diep runs a small Facebook page selling handmade soap and gets about 30 orders a month.",
        "diep-soap-30-orders",
    ),
    (
        "h8-085", "xuan", "routine", "tet",
        "Xuan flies to Saigon every Tet to spend the holiday with Phong.",
        "xuan-flies-tet",
    ),
    (
        "h8-086", "xuan", "routine", "tutoring",
        "Xuan tutors a few 9th graders in literature at her home on Monday and Wednesday evenings.",
        "xuan-tutors-grade9",
    ),
    ("h8-087", "khoi", "fact", "car", "The user drives a blue VinFast VF8.", "khoi-car-vf8"),
    ("h8-088", "phong", "fact", "tien nha", "tien nha cua Phong 7tr/thang", "phong-rent-7m"),
    (
        "h8-089", "khoi", "routine", "ca phe",
        "sang nao a Khoi cung pha 1 phin ca phe truoc khi di lam",
        "khoi-coffee-every-morning",
    ),
    (
        "h8-090", "khoi", "communication_preference", "reply language",
        "Always reply to the user in English, even when he writes in Vietnamese - he wants the practice.",
        "khoi-reply-english",
    ),
    (
        "h8-091", "khoi", "health", "allergy",
        "The user is allergic to shrimp; eating it gives him hives.",
        "khoi-shrimp-allergy",
    ),
    (
        "h8-092", "khoi", "routine", "school pickup",
        "The user picks up his son Thinh at 5 pm every Wednesday.",
        "khoi-pickup-wednesday",
    ),
    (
        "h8-093", "xuan", "routine", "hàng xóm",
        "Buổi tối bà Xuân hay sang nhà bà Cúc hàng xóm xem phim bộ.",
        "xuan-tv-at-cuc",
    ),
    (
        "h8-094", "khoi", "health", "cà phê",
        "Khôi đã bỏ hẳn cà phê từ tháng 3 vì uống vào là mất ngủ.",
        "khoi-quit-coffee",
    ),
    (
        "h8-095", "khoi", "fact", "scooter",
        "The user bought his Honda Vision scooter second-hand from Vinh back in 2019.",
        "khoi-bought-vision-from-vinh",
    ),
    (
        "h8-096", "khoi", "fact", "school",
        "The user's son Thinh is a third grader at Hoa Cuong Primary School.",
        "khoi-son-school",
    ),
    (
        "h8-097", "khoi", "fact", "money",
        "Vinh has paid the user back the full 15 million VND; they are square now.",
        "khoi-vinh-repaid-15m",
    ),
    (
        "h8-098", "diep", "routine", "lịch tập",
        "Diệp đã chuyển lịch tập yoga sang sáng thứ Bảy và Chủ nhật, ngày thường không tập nữa.",
        "diep-yoga-weekends",
    ),
    (
        "h8-099", "phong", "fact", "income",
        "Phong makes an extra 7 million VND a month from freelance design work.",
        "phong-freelance-7m",
    ),
    (
        "h8-100", "diep", "project_context", "tiệm bánh",
        "Diệp và em gái Quyên tính năm sau mở một tiệm bánh nhỏ ở Hội An.",
        "diep-bakery-plan",
    ),
    (
        "h8-101", "diep", "fact", "công việc",
        "Chị Diệp là dược sĩ ở nhà thuốc Bình An trên đường Nguyễn Văn Linh.",
        "diep-job-pharmacist",
    ),
    (
        "h8-102", "phong", "fact", "du lịch",
        "Tháng trước Phong và Duy đi phượt Đà Lạt bằng xe máy.",
        "phong-dalat-trip-duy",
    ),
    (
        "h8-103", "khoi", "routine", "gọi mẹ",
        "Chủ nhật nào Khôi cũng gọi video cho mẹ ở Quy Nhơn.",
        "khoi-mother-call-sunday",
    ),
    ("h8-104", "khoi", "fact", "birthday", "The user's birthday is September 14.", "khoi-birthday-sep14"),
    ("h8-105", "khoi", "fact", "sinh nhat", "sinh nhat a Khoi la 19/4 nha", "khoi-birthday-apr19"),
    ("h8-106", "phong", "health", "smoking", "Phong quit smoking two years ago.", "phong-quit-smoking"),
    (
        "h8-107", "khoi", "fact", "home",
        "The user and his family live in Hai Chau district, Da Nang.",
        "khoi-home-haichau",
    ),
    ("h8-108", "phong", "fact", "làm việc từ xa", "Phong làm việc ở nhà, công ty cho remote 100%.", "phong-remote"),
    (
        "h8-109", "diep", "relationship", "mẹ chồng",
        "Diệp hay mua thuốc bổ gửi cho mẹ chồng là bà Xuân.",
        "diep-supplements-for-xuan",
    ),
    (
        "h8-110", "khoi", "decision", "cong viec",
        "Anh Khôi đã nghỉ ở Hải Vân Soft, hiện làm CTO cho startup giao vận GoShip.",
        "khoi-employer-goship",
    ),
    ("h8-111", "vinh", "fact", "quan", "quan ca phe Gio Chieu tren Bach Dang la cua a Vinh", "vinh-cafe-owner"),
    ("h8-112", "phong", "fact", "nợ", "Phong nợ anh Khôi 8 triệu, hứa trả trước Tết.", "phong-owes-khoi-8m"),
    (
        "h8-113", "khoi", "decision", "du lịch",
        "Gia đình Khôi đã chốt đi Nhật vào tháng 4 năm sau để ngắm hoa anh đào.",
        "khoi-japan-trip-april",
    ),
    (
        "h8-114", "phong", "routine", "office",
        "Phong has to be in the office five days a week; his company doesn't allow remote work.",
        "phong-office-5-days",
    ),
    (
        "h8-115", "khoi", "communication_preference", "quiet hours",
        "On weekends, don't message or call the user before 9 am.",
        "khoi-no-msg-before-9-weekend",
    ),
    (
        "h8-116", "vinh", "communication_preference", "language",
        "Vinh wants the assistant to message him in English so he keeps his English sharp.",
        "vinh-english-messages",
    ),
    (
        "h8-117", "khoi", "project_context", "payments migration",
        "The user is leading the migration of the payment system to Kubernetes, due at the end of November.",
        "khoi-project-payment-k8s",
    ),
    (
        "h8-118", "diep", "project_context", "khóa học",
        "Diệp đang học khóa quản trị chuỗi nhà thuốc online vào tối thứ Ba và thứ Năm.",
        "diep-online-course",
    ),
    (
        "h8-119", "khoi", "decision", "xe",
        "Khôi đã bán xe ô tô hồi tháng 10, giờ đi đâu cũng gọi Grab.",
        "khoi-car-sold",
    ),
    ("h8-120", "xuan", "fact", "mèo", "Bà Xuân nuôi hai con mèo tên Mun và Bông.", "xuan-cats"),
    ("h8-121", "xuan", "fact", "nơi ở", "Bà Xuân sống một mình ở phường Ghềnh Ráng, Quy Nhơn.", "xuan-lives-alone"),
    ("h8-122", "xuan", "fact", "pets", "Xuan has two cats named Mun and Bong.", "xuan-cats"),
    ("h8-123", "vinh", "relationship", "gia đình", "Vinh đã có vợ, vợ tên là Mỹ Duyên.", "vinh-married-duyen"),
    (
        "h8-124", "khoi", "fact", "job",
        "Khoi left Hai Van Soft last month and is now the CTO of GoShip, a logistics startup.",
        "khoi-employer-goship",
    ),
    (
        "h8-125", "khoi", "fact", "address",
        "Since August the user's family has lived in Son Tra district; they moved out of Hai Chau.",
        "khoi-moved-sontra",
    ),
    (
        "h8-126", "diep", "fact", "di lai",
        "c Diep ko biet lai oto, ngay nao cung di xe buyt di lam",
        "diep-no-driving-bus",
    ),
    (
        "h8-127", "vinh", "fact", "quán cà phê",
        "Vinh là chủ quán cà phê Gió Chiều trên đường Bạch Đằng.",
        "vinh-cafe-owner",
    ),
    (
        "h8-128", "khoi", "routine", "breakfast",
        "The user eats breakfast with his kids at 6:30 every morning.",
        "khoi-breakfast-with-kids",
    ),
    (
        "h8-129", "diep", "routine", "yoga schedule",
        "Diep moved her yoga classes to Saturday and Sunday mornings and no longer goes on weekdays.",
        "diep-yoga-weekends",
    ),
    (
        "h8-130", "khoi", "project_context", "dự án cũ",
        "Năm 2022 Khôi từng làm dự án chuyển hệ thống chấm công lên Kubernetes, dự án đó đã xong.",
        "khoi-old-project-timekeeping",
    ),
    (
        "h8-131", "khoi", "decision", "gym",
        "The user cancelled his California Fitness membership in August and no longer goes to the gym.",
        "khoi-gym-cancelled",
    ),
    (
        "h8-132", "diep", "communication_preference", "tin nhắn",
        "Chị Diệp thích nhận tin nhắn thoại hơn là tin nhắn chữ.",
        "diep-voice-messages",
    ),
    ("h8-133", "khoi", "routine", "ăn sáng", "Khôi gần như không bao giờ ăn sáng.", "khoi-skips-breakfast"),
    ("h8-134", "xuan", "relationship", "grandchildren", "Xuan has three grandchildren.", "xuan-three-grandchildren"),
    (
        "h8-135", "phong", "relationship", "dating",
        "Phong is single and isn't seeing anyone right now.",
        "phong-single",
    ),
    (
        "h8-136", "khoi", "routine", "beer",
        "The user has a few beers with Vinh every Saturday night.",
        "khoi-beers-saturday",
    ),
    (
        "h8-137", "vinh", "decision", "mở rộng",
        "Vinh quyết định mở chi nhánh thứ hai của Gió Chiều ở Hội An vào quý 2 năm sau.",
        "vinh-hoian-branch",
    ),
    (
        "h8-138", "khoi", "fact", "con trai",
        "Thịnh, con trai Khôi, đang học lớp 3 ở Trường Tiểu học Hòa Cường.",
        "khoi-son-school",
    ),
    ("h8-139", "khoi", "fact", "nhà", "Gia đình Khôi đang sống ở quận Hải Châu, Đà Nẵng.", "khoi-home-haichau"),
    ("h8-140", "khoi", "fact", "sinh nhật", "Sinh nhật của anh Khôi là ngày 14 tháng 9.", "khoi-birthday-sep14"),
    (
        "h8-141", "diep", "communication_preference", "messages",
        "Diep prefers voice messages to text messages.",
        "diep-voice-messages",
    ),
    (
        "h8-142", "khoi", "fact", "công việc",
        "Khôi đang làm trưởng nhóm backend ở công ty Hải Vân Soft.",
        "khoi-employer-haivan",
    ),
    (
        "h8-143", "diep", "relationship", "sister",
        "Diep's younger sister Quyen lives in Hoi An.",
        "diep-sister-quyen-hoian",
    ),
    ("h8-144", "phong", "health", "asthma", "Phong has asthma and always carries a Ventolin inhaler.", "phong-asthma"),
    (
        "h8-145", "khoi", "health", "đầu gối",
        "Từ khi bị chấn thương đầu gối hồi tháng 6, Khôi đã ngừng chạy bộ hoàn toàn.",
        "khoi-running-stopped-knee",
    ),
    (
        "h8-146", "khoi", "communication_preference", "ngôn ngữ",
        "Khôi muốn trợ lý trả lời bằng tiếng Việt, trừ khi anh hỏi bằng tiếng Anh.",
        "khoi-reply-vietnamese",
    ),
    (
        "h8-147", "khoi", "health", "an uong",
        "a Khoi di ung tom nha, dat do an nho dan bo tom ra",
        "khoi-shrimp-allergy",
    ),
    (
        "h8-148", "khoi", "routine", "lịch làm việc",
        "Khôi không nhận họp trước 10 giờ sáng, buổi sáng anh dành để code.",
        "khoi-meeting-free-morning",
    ),
    (
        "h8-149", "khoi", "fact", "rang ca phe",
        "cuoi tuan a Khoi hay rang ca phe o nha roi giao cho quan cua Vinh",
        "khoi-roasts-beans-for-vinh",
    ),
    (
        "h8-150", "vinh", "communication_preference", "messaging",
        "Only write to Vinh in Vietnamese; he can't read English.",
        "vinh-vietnamese-only",
    ),
    (
        "h8-151", "diep", "fact", "nghe nghiep",
        "c Diep lam duoc si o nha thuoc Binh An (Nguyen Van Linh)",
        "diep-job-pharmacist",
    ),
    (
        "h8-152", "xuan", "relationship", "em gai",
        "Từ năm ngoái bà Xuân ở chung nhà với em gái là bà Thoa.",
        "xuan-lives-with-thoa",
    ),
    (
        "h8-153", "khoi", "relationship", "mother",
        "The user video-calls his mother in Quy Nhon every Sunday.",
        "khoi-mother-call-sunday",
    ),
    (
        "h8-154", "diep", "routine", "yoga",
        "Diệp tập yoga ở studio gần nhà lúc 6 giờ sáng thứ Hai và thứ Tư.",
        "diep-yoga-mon-wed",
    ),
    (
        "h8-155", "xuan", "routine", "day them",
        "ba Xuan van day kem Van cho may dua lop 9 o nha, toi T2 va T4",
        "xuan-tutors-grade9",
    ),
    ("h8-156", "phong", "relationship", "tinh cam", "Phong van doc than, chua co nguoi yeu", "phong-single"),
    ("h8-157", "diep", "preference", "đồ uống", "Diệp thích trà hơn cà phê, nhất là trà ô long.", "diep-prefers-tea"),
    ("h8-158", "xuan", "fact", "may bay", "ba Xuan chua di may bay lan nao, so lam", "xuan-never-flown"),
    (
        "h8-159", "khoi", "fact", "family money",
        "The user sends his mother 5 million VND every month.",
        "khoi-mother-allowance-5m",
    ),
    ("h8-160", "khoi", "fact", "birthplace", "The user was born in Hue.", "khoi-born-hue"),
    (
        "h8-161", "xuan", "health", "tiểu đường",
        "Bà Xuân bị tiểu đường type 2, đang uống metformin 500mg ngày 2 lần.",
        "xuan-metformin",
    ),
    (
        "h8-162", "khoi", "relationship", "debt",
        "Vinh still owes the user 15 million VND from the café investment.",
        "khoi-vinh-owes-15m",
    ),
    (
        "h8-163", "khoi", "communication_preference", "văn phong",
        "Khôi thích câu trả lời ngắn gọn, đi thẳng vào vấn đề, không rào đón.",
        "khoi-tone-concise",
    ),
    (
        "h8-164", "phong", "fact", "apartment",
        "Phong rents an apartment in Thu Duc City, Saigon.",
        "phong-lives-thuduc",
    ),
    (
        "h8-165", "khoi", "health", "huyet ap",
        "bs cho a Khoi ngung thuoc huyet ap tu thang 10 r, gio ko uong thuoc gi",
        "khoi-bp-med-stopped",
    ),
    (
        "h8-166", "khoi", "fact", "lịch hẹn",
        "Khôi có lịch khám răng ở nha khoa Kim lúc 8 giờ sáng thứ Bảy tuần sau.",
        "khoi-dentist-saturday",
    ),
    (
        "h8-167", "vinh", "communication_preference", "ngôn ngữ",
        "Vinh muốn trợ lý nhắn tin cho anh bằng tiếng Anh để giữ vốn tiếng Anh.",
        "vinh-english-messages",
    ),
    ("h8-168", "phong", "fact", "work", "Phong is a UX designer at a fintech company in District 1.", "phong-job-ux"),
    (
        "h8-169", "khoi", "communication_preference", "language",
        "Answer the user in Vietnamese unless he writes to you in English.",
        "khoi-reply-vietnamese",
    ),
    (
        "h8-170", "phong", "fact", "motorbike loan",
        "Phong lent his Exciter to his colleague Duy for a week.",
        "phong-lent-exciter-duy",
    ),
    ("h8-171", "khoi", "fact", "thú cưng", "Người dùng nuôi một con chó Phú Quốc tên là Mực.", "khoi-dog-muc"),
    ("h8-172", "xuan", "fact", "career", "Xuan is a retired literature teacher.", "xuan-retired-teacher"),
    (
        "h8-173", "phong", "fact", "money owed",
        "Khoi owes Phong 8 million VND that he hasn't paid back yet.",
        "phong-khoi-owes-phong-8m",
    ),
    ("h8-174", "vinh", "relationship", "hon nhan", "a Vinh ly hon r, gio song 1 minh", "vinh-divorced"),
    ("h8-175", "diep", "routine", "commute", "Diep drives her own Kia Morning to work every day.", "diep-drives-kia"),
    ("h8-176", "khoi", "fact", "may tinh", "may lam viec cua a Khoi la MacBook Pro M3", "khoi-macbook"),
    (
        "h8-177", "xuan", "health", "eyes",
        "Xuan had cataract surgery on both eyes and no longer needs glasses, not even for reading.",
        "xuan-cataract",
    ),
    ("h8-178", "vinh", "relationship", "wife", "Vinh is married; his wife's name is My Duyen.", "vinh-married-duyen"),
    (
        "h8-179", "khoi", "communication_preference", "reminders",
        "Send the user's reminders by email only; he has muted Zalo.",
        "khoi-reminders-email-only",
    ),
    (
        "h8-180", "vinh", "fact", "vay ngan hang",
        "a Vinh tat toan khoan vay 200tr o ngan hang r, tu thang 6",
        "vinh-repaid-bank",
    ),
    ("h8-181", "xuan", "fact", "home", "Xuan lives on her own in Ghenh Rang ward, Quy Nhon.", "xuan-lives-alone"),
    (
        "h8-182", "khoi", "decision", "đầu tư",
        "Sau đợt lỗ năm 2022, Khôi quyết định không đầu tư tiền mã hóa nữa.",
        "khoi-no-crypto",
    ),
    (
        "h8-183", "khoi", "routine", "daughter",
        "The user takes his daughter Bao Ngoc for a dental check-up at Kim Dental every six months.",
        "khoi-daughter-dentist-kim",
    ),
    (
        "h8-184", "khoi", "preference", "food",
        "Never suggest shrimp dishes to Khoi - he is allergic to shrimp.",
        "khoi-shrimp-allergy",
    ),
    (
        "h8-185", "diep", "health", "tiêu hóa",
        "Diệp không dung nạp lactose, uống sữa bò là bị đau bụng.",
        "diep-lactose",
    ),
    (
        "h8-186", "khoi", "communication_preference", "nhắc việc",
        "Khôi muốn được nhắc việc qua Zalo, không qua email.",
        "khoi-reminders-zalo",
    ),
    (
        "h8-187", "khoi", "fact", "nha o",
        "nha a Khoi chuyen qua Son Tra o tu thang 8 r, ko con o Hai Chau nua",
        "khoi-moved-sontra",
    ),
    (
        "h8-188", "xuan", "health", "diabetes treatment",
        "Xuan's doctor switched her from metformin to insulin injections last month.",
        "xuan-insulin",
    ),
    (
        "h8-189", "khoi", "health", "knee injury",
        "The user hasn't run at all since he hurt his knee in June.",
        "khoi-running-stopped-knee",
    ),
    (
        "h8-190", "diep", "health", "lactose",
        "Diep is lactose intolerant; cow's milk upsets her stomach.",
        "diep-lactose",
    ),
    (
        "h8-191", "khoi", "routine", "sleep",
        "The user usually stays up past 1 am working on side projects.",
        "khoi-sleep-late",
    ),
    (
        "h8-192", "khoi", "communication_preference", "cách trả lời",
        "Người dùng muốn câu trả lời thật chi tiết, giải thích đầy đủ từng bước một.",
        "khoi-tone-detailed",
    ),
    ("h8-193", "xuan", "fact", "nghề cũ", "Bà Xuân là giáo viên dạy Văn đã nghỉ hưu.", "xuan-retired-teacher"),
    (
        "h8-194", "khoi", "project_context", "du an k8s",
        "du an dua payment len k8s do a Khoi lead, deadline cuoi thang 11",
        "khoi-project-payment-k8s",
    ),
    ("h8-195", "khoi", "fact", "son", "Thinh, the user's son, is 8 years old.", "khoi-son-age-8"),
    (
        "h8-196", "phong", "fact", "công việc",
        "Phong làm thiết kế UX cho một công ty fintech ở quận 1.",
        "phong-job-ux",
    ),
    (
        "h8-197", "khoi", "health", "dị ứng",
        "Khôi bị dị ứng tôm, ăn vào là nổi mẩn đỏ khắp người.",
        "khoi-shrimp-allergy",
    ),
    (
        "h8-198", "vinh", "fact", "mặt bằng",
        "Vinh chuyển 25 triệu tiền thuê mặt bằng quán vào ngày 5 hàng tháng.",
        "vinh-rent-25m",
    ),
    (
        "h8-199", "xuan", "health", "mắt",
        "Bà Xuân phải đeo kính lão mới đọc được tin nhắn trên điện thoại.",
        "xuan-reading-glasses",
    ),
    (
        "h8-200", "phong", "project_context", "dự án riêng",
        "Phong đang tự làm app đặt lịch cắt tóc tên là Hớt, định ra bản beta vào tháng 1.",
        "phong-app-hot",
    ),
    ("h8-201", "khoi", "fact", "quê quán", "Anh Khôi sinh ra và lớn lên ở Quy Nhơn.", "khoi-born-quynhon"),
    (
        "h8-202", "khoi", "fact", "laptop",
        "The user's only work computer is a ThinkPad running Linux; he doesn't own a Mac.",
        "khoi-thinkpad-only",
    ),
    ("h8-203", "khoi", "fact", "học vấn", "Khôi học đại học ngành công nghệ thông tin ở Huế.", "khoi-university-hue"),
    (
        "h8-204", "xuan", "health", "tiem insulin",
        "ba Xuan ko uong metformin nua, bs chuyen qua tiem insulin tu thang truoc",
        "xuan-insulin",
    ),
    (
        "h8-205", "khoi", "decision", "crypto",
        "After losing money in 2022, the user decided to stay out of crypto for good.",
        "khoi-no-crypto",
    ),
    (
        "h8-206", "khoi", "routine", "tap gym",
        "a Khoi van tap gym o California Fitness 4 buoi/tuan",
        "khoi-gym-4x-week",
    ),
    ("h8-207", "vinh", "preference", "cafe", "a Vinh uong ca phe den ko duong", "vinh-black-coffee"),
    (
        "h8-208", "xuan", "relationship", "neighbour",
        "Xuan's neighbour Mrs. Cuc keeps a spare key to her house.",
        "xuan-neighbour-cuc-key",
    ),
]

CONTRADICTIONS = [
    ("khoi-employer-haivan", "khoi-employer-goship"),
    ("khoi-quit-coffee", "khoi-coffee-every-morning"),
    ("khoi-vinh-owes-15m", "khoi-vinh-repaid-15m"),
    ("khoi-birthday-sep14", "khoi-birthday-apr19"),
    ("khoi-running-tue-thu-sat", "khoi-running-stopped-knee"),
    ("khoi-car-vf8", "khoi-car-sold"),
    ("khoi-home-haichau", "khoi-moved-sontra"),
    ("khoi-reply-vietnamese", "khoi-reply-english"),
    ("khoi-tone-concise", "khoi-tone-detailed"),
    ("khoi-amlodipine", "khoi-bp-med-stopped"),
    ("khoi-pickup-wednesday", "khoi-pickup-thursday"),
    ("khoi-sleep-early", "khoi-sleep-late"),
    ("khoi-no-alcohol", "khoi-beers-saturday"),
    ("khoi-macbook", "khoi-thinkpad-only"),
    ("khoi-gym-cancelled", "khoi-gym-4x-week"),
    ("khoi-skips-breakfast", "khoi-breakfast-with-kids"),
    ("khoi-born-quynhon", "khoi-born-hue"),
    ("khoi-reminders-zalo", "khoi-reminders-email-only"),
    ("diep-yoga-mon-wed", "diep-yoga-weekends"),
    ("diep-lactose", "diep-milk-nightly"),
    ("diep-prefers-tea", "diep-prefers-coffee"),
    ("diep-no-driving-bus", "diep-drives-kia"),
    ("diep-fear-heights", "diep-cable-car-bana"),
    ("xuan-lives-alone", "xuan-lives-with-thoa"),
    ("xuan-metformin", "xuan-insulin"),
    ("xuan-never-flown", "xuan-flies-tet"),
    ("xuan-cataract", "xuan-reading-glasses"),
    ("phong-engaged-oanh", "phong-single"),
    ("phong-owes-khoi-8m", "phong-khoi-owes-phong-8m"),
    ("phong-quit-smoking", "phong-smokes"),
    ("phong-remote", "phong-office-5-days"),
    ("phong-hates-durian", "phong-loves-durian"),
    ("vinh-married-duyen", "vinh-divorced"),
    ("vinh-english-messages", "vinh-vietnamese-only"),
    ("vinh-owes-bank-200m", "vinh-repaid-bank"),
    ("vinh-no-spicy", "vinh-loves-chili"),
]

LOOKALIKES = [
    ("khoi-born-hue", "khoi-university-hue"),
    ("khoi-son-age-8", "khoi-son-english-8am"),
    ("khoi-lends-vision-to-vinh", "khoi-bought-vision-from-vinh"),
    ("khoi-mother-allowance-5m", "khoi-tuition-5m"),
    ("khoi-dentist-saturday", "khoi-daughter-dentist-kim"),
    ("khoi-shrimp-allergy", "khoi-daughter-shrimp-allergy"),
    ("khoi-quit-coffee", "khoi-roasts-beans-for-vinh"),
    ("khoi-mother-call-sunday", "khoi-mother-allowance-5m"),
    ("khoi-project-payment-k8s", "khoi-old-project-timekeeping"),
    ("khoi-no-msg-before-9-weekend", "khoi-meeting-free-morning"),
    ("khoi-son-school", "khoi-son-english-8am"),
    ("khoi-vinh-owes-15m", "khoi-lends-vision-to-vinh"),
    ("diep-supplements-for-xuan", "diep-calls-xuan-saturday"),
    ("diep-soap-30-orders", "diep-reading-30-books"),
    ("diep-sister-quyen-hoian", "diep-bakery-plan"),
    ("xuan-three-children", "xuan-three-grandchildren"),
    ("xuan-neighbour-cuc-key", "xuan-tv-at-cuc"),
    ("xuan-retired-teacher", "xuan-tutors-grade9"),
    ("xuan-pagoda-ram", "xuan-vegetarian-ram"),
    ("phong-lent-exciter-duy", "phong-dalat-trip-duy"),
    ("phong-rent-7m", "phong-freelance-7m"),
    ("phong-exciter", "phong-lent-exciter-duy"),
    ("phong-lives-thuduc", "phong-rent-7m"),
    ("vinh-hau-night-shift", "vinh-teaching-hau-barista"),
    ("vinh-rent-25m", "vinh-school-fees-25m"),
    ("vinh-hoian-branch", "vinh-hoian-bakery-thu"),
    ("vinh-cafe-owner", "vinh-black-coffee"),
]
