"""A blind bilingual retrieval set, written 2026-12-03 by a helper who saw only a description of the task; second held-out part.

138 memories (69 English, 69 Vietnamese) and 143 questions; 84 cross-language (48 Vietnamese
questions for English memories, 36 English questions for Vietnamese memories) and 59 same-language
(36 Vietnamese, 23 English); 21 Vietnamese questions typed without diacritics, 25 that name a kind
instead of the thing, 15 short keyword-style queries. Household: Trần Quốc Bảo in Đà Nẵng, wife Thảo,
son Huy (10), daughter Bông (5), parents in Huế, sister Hà, corgi Mít. Every question has exactly one
answering memory; each memory has at least one question.
"""

MEMORIES = {
    # owner, family and friends (owner: Trần Quốc Bảo, Đà Nẵng)
    "owner-job": "Tôi làm trưởng nhóm backend từ xa cho Kestrel Logistics, một công ty ở Singapore, ngồi làm ở nhà tại Đà Nẵng.",
    "wife-job": "Vợ tôi là Thảo, dạy Ngữ văn ở trường THPT Phan Châu Trinh và chủ nhiệm lớp 11A3.",
    "son-school": "Huy is in grade 5 at Lê Văn Tám Primary School, and his homeroom teacher is Ms. Nguyệt.",
    "daughter-kindergarten": "Bông học lớp Chồi ở trường mầm non Hoa Sen, chiều nào cũng phải đón con lúc 16h30.",
    "parents-home": "My parents, Mr. Tín and Mrs. Hoa, still live in the old family house at 42 Chi Lăng street in Huế.",
    "sister-ha": "Em gái tôi là Thu Hà, làm dược sĩ ở một nhà thuốc tại Quận 3, TP.HCM.",
    "sister-ha-baby": "Hà is expecting her first baby in February 2027.",
    "brother-in-law": "Thảo's older brother Tuấn is an architect in Hà Nội.",
    "friend-phuc": "Phúc là bạn thân của tôi từ hồi học đại học, giờ làm kế toán trưởng cho một khách sạn ở Hội An.",
    # birthdays, anniversaries, gifts
    "bday-wife": "Thảo's birthday is November 3, and she has been hinting that she'd love a Kindle Paperwhite.",
    "bday-huy": "Sinh nhật Huy là ngày 9 tháng 5, con muốn năm sau tổ chức tiệc ở khu vui chơi Tini World.",
    "bday-bong": "Bông was born on January 28, 2021.",
    "bday-owner": "Tôi sinh ngày 21 tháng 7 năm 1987.",
    "bday-mom": "Mom's birthday is August 12, and she'd rather have a family dinner than any present.",
    "bday-dad": "Ba tôi sinh ngày 2/10/1958, năm nay tròn 68 tuổi.",
    "bday-sister": "Sinh nhật Hà là 30/6, nó thích được tặng nước hoa, nhất là mùi hương gỗ.",
    "bday-dat": "Sinh nhật Đạt là ngày 5/12, cả team thường góp tiền mua bánh kem.",
    "anniv-wedding": "Thảo and I got married on December 18, 2014, at the Furama Resort.",
    "anniv-parents": "Ba mẹ tôi cưới nhau ngày 25/4/1983.",
    "gio-grandpa": "My paternal grandfather's death anniversary is on the 10th day of the 3rd lunar month, and the whole family gathers in Huế for it.",
    "gift-idea-dad": "Ba rất mê nghe ca Huế và đang muốn có một chiếc đài radio để nghe mỗi sáng.",
    # food and drink
    "food-owner-cilantro": "I can't stand cilantro, so always ask for it to be left out of my food.",
    "food-wife-veg": "Thảo ăn chay vào ngày mùng 1 và ngày rằm âm lịch hằng tháng.",
    "food-owner-fav": "Món tôi mê nhất là mì Quảng gà ở quán bà Mua trên đường Trần Bình Trọng.",
    "food-wife-fav": "Thảo's favourite dish is bún chả cá, and her go-to spot is Bà Lữ on Nguyễn Chí Thanh street.",
    "drink-owner-coffee": "I drink my coffee black with no sugar, two cups before noon and none after.",
    "drink-wife-tea": "Thảo không uống cà phê, sáng nào cũng pha một ấm trà sen.",
    "food-huy-onion": "Huy nhất quyết không ăn hành tây nên phần của con phải nấu riêng.",
    "food-mom-diet": "Mẹ phải kiêng đồ ngọt và ăn ít cơm trắng, thay bằng gạo lứt.",
    "food-bong-milk": "Bông drinks lactose-free milk because regular milk upsets her stomach.",
    # allergies and health
    "allergy-owner-penicillin": "Tôi bị dị ứng penicillin, lần uống năm 2019 nổi mề đay khắp người.",
    "allergy-wife-shrimp": "Thảo is allergic to shrimp and prawns; even shrimp broth makes her lips swell.",
    "allergy-huy-peanut": "Huy bị dị ứng đậu phộng, trong cặp của con lúc nào cũng có một bút tiêm EpiPen.",
    "health-owner-back": "I have a herniated disc at L4-L5 and go to physiotherapy at Vinmec every Tuesday at 6 pm.",
    "health-wife-migraine": "Thảo hay bị đau nửa đầu khi thiếu ngủ, uống một viên Panadol Extra rồi nằm nghỉ là đỡ.",
    "health-owner-eyes": "My glasses prescription is -2.75 in both eyes, last checked in June 2026.",
    "health-dentist": "Cả nhà lấy cao răng ở phòng khám răng Smile 6 tháng một lần, lịch tiếp theo là ngày 15/1/2027.",
    "health-bong-eczema": "Bông has mild eczema on her elbows, and we put Cetaphil Restoraderm on it after her bath.",
    "health-owner-checkup": "Khám sức khỏe định kỳ tháng 9/2026, bác sĩ nói mỡ máu của tôi hơi cao và dặn bớt đồ chiên rán.",
    "blood-type-owner": "My blood type is O+.",
    "blood-type-wife": "Thảo có nhóm máu A+.",
    "doctor-family": "Bác sĩ nhi quen của hai đứa nhỏ là bác sĩ Hạnh ở Bệnh viện Phụ sản – Nhi Đà Nẵng.",
    # medicines
    "med-dad-bp": "Dad takes amlodipine 5 mg every morning for his high blood pressure.",
    "med-mom-diabetes": "Mẹ uống metformin 500mg ngày hai lần sau bữa ăn để trị tiểu đường type 2.",
    "med-owner-vitd": "I take one vitamin D3 2000 IU capsule with breakfast.",
    "med-huy-antihist": "Khi Huy bị nổi mẩn ngứa, bác sĩ dặn cho con uống 5ml siro Aerius.",
    "med-cabinet": "The family first-aid and medicine box is on the top shelf of the kitchen cabinet next to the fridge.",
    # work and colleagues
    "work-manager": "My manager is Priya Raman in Singapore; our one-on-one is every Thursday at 3 pm Vietnam time.",
    "work-teammate": "Đạt là dev frontend trong team, thường review giúp tôi mấy pull request React.",
    "work-standup": "Team stand-up is every weekday at 9:30 on Google Meet.",
    "work-oncall": "Đợt trực on-call tiếp theo của tôi là từ 7/12 đến 14/12/2026.",
    "work-pm": "Marco Bellini, the product manager I work with, is based in Turin, six hours behind us.",
    "work-office": "Mỗi quý tôi bay sang văn phòng Singapore một lần, chuyến tới là tuần bắt đầu 22/2/2027.",
    "work-salary-day": "My salary lands in my Techcombank account on the 25th of every month.",
    "routine-deep-work": "I block 2 to 4 pm every weekday for deep work, with no meetings.",
    # tools and software
    "tool-editor": "I write code in Neovim with a LazyVim config.",
    "tool-browser": "Trình duyệt tôi dùng hằng ngày là Firefox, có cài uBlock Origin.",
    "tool-shell": "My login shell is fish with the Starship prompt.",
    "tool-pkg": "Dự án Python nào tôi cũng quản lý thư viện bằng uv, không dùng pip nữa.",
    "tool-lang": "Our backend services at Kestrel are written in Go.",
    "tool-db": "Cơ sở dữ liệu chính của team là PostgreSQL 16 chạy trên AWS RDS.",
    "tool-os-home": "My personal laptop is a ThinkPad X1 Carbon running Fedora 41.",
    "tool-os-work": "Laptop công ty cấp cho tôi là MacBook Pro M3 chạy macOS.",
    "tool-notes": "I keep personal notes and my journal in Obsidian, synced between devices with Syncthing.",
    "tool-pwmgr": "Cả nhà lưu mật khẩu bằng Bitwarden, tôi là người quản lý tài khoản gia đình.",
    "tool-terminal": "My terminal emulator is WezTerm.",
    "tool-keyboard": "Bàn phím cơ tôi đang dùng là Keychron Q1 lắp switch Gateron Brown.",
    "tool-git": "Work code lives on the company's self-hosted GitLab, and my personal projects are on Codeberg.",
    # pets
    "pet-dog": "Nhà mình nuôi một bé chó corgi tên Mít, năm nay 3 tuổi.",
    "pet-vet": "Mít's vet is Dr. Quang at the PetCare clinic on Điện Biên Phủ street, and his rabies booster is due in March 2027.",
    "pet-food": "Mít bị dị ứng thịt gà nên chỉ ăn hạt Royal Canin vị cá hồi.",
    "pet-walk": "Huy takes Mít for a walk around the block every evening at 6 after homework.",
    # sports and hobbies
    "sport-owner-run": "I run 5 km along Mỹ Khê beach at 5:30 am on Mondays, Wednesdays and Fridays.",
    "sport-badminton": "Tối thứ Bảy tôi đánh cầu lông với Phúc ở nhà thi đấu Tuyên Sơn từ 19h đến 21h.",
    "sport-wife-yoga": "Thảo goes to a yoga class at Zen Studio on Tuesday and Thursday evenings.",
    "sport-huy-football": "Huy tập bóng đá ở trung tâm năng khiếu vào chiều thứ Hai và thứ Sáu.",
    "hobby-wife-orchid": "Thảo grows orchids on the balcony, mostly dendrobiums, and waters them every other morning.",
    "hobby-owner-guitar": "Tôi đang tự học guitar cổ điển, mục tiêu là đánh được bài Romance trước Tết.",
    "hobby-owner-reading": "I'm currently reading Project Hail Mary and aim to finish one book a month.",
    "race-goal": "Tôi đã đăng ký cự ly 21km ở giải Marathon Quốc tế Đà Nẵng tháng 8/2027.",
    "sport-football-team": "I'm an Arsenal fan and will stay up late to watch their matches.",
    # travel
    "travel-tokyo": "We're planning a family trip to Tokyo from March 28 to April 3, 2027, for the cherry blossoms.",
    "travel-passport-wife": "Hộ chiếu của Thảo hết hạn tháng 6/2027, cần làm lại trước chuyến đi Nhật.",
    "travel-passport-owner": "My passport is valid until May 2031.",
    "seat-owner": "On flights I always want an aisle seat.",
    "seat-wife": "Đi máy bay Thảo thích ngồi ghế cạnh cửa sổ để ngắm mây.",
    "travel-tet": "For Tết 2027 we'll drive to Huế on February 4 and stay with my parents until February 10.",
    "travel-loyalty": "Tôi là hội viên Lotusmiles hạng Titanium của Vietnam Airlines.",
    "travel-sg-hotel": "On Singapore work trips I stay at the Park Avenue Rochester because it's a short walk to the office.",
    # money and bills
    "bill-electric": "Tiền điện nhà mình khoảng 1,2 triệu mỗi tháng, trả qua MoMo trước ngày 10.",
    "bill-internet": "Our FPT fibre internet costs 250,000 VND a month and is auto-debited on the 5th.",
    "bill-water": "Tiền nước thường khoảng 180 nghìn một tháng.",
    "money-mortgage": "The house loan from Vietcombank is 14 million VND a month, paid on the 15th, until 2034.",
    "money-tuition": "Học phí mầm non của Bông là 3,8 triệu một tháng, đóng theo quý.",
    "money-budget": "Our grocery budget is 9 million VND a month.",
    "money-invest": "Mỗi tháng tôi mua đều 3 triệu chứng chỉ quỹ ETF VN30 qua app SSI.",
    "money-allowance": "Huy gets 50,000 VND of pocket money every Sunday.",
    "money-insurance": "Hợp đồng bảo hiểm nhân thọ Manulife của tôi đóng phí 24 triệu mỗi năm, hạn đóng vào tháng 3.",
    # home and appliances
    "home-wifi": "The Wi-Fi password is on a sticker under the router in the living-room TV cabinet.",
    "home-aircon": "Máy lạnh Daikin phòng ngủ cần vệ sinh 6 tháng một lần, lần gần nhất là tháng 10/2026.",
    "home-water-heater": "The Ariston water heater in the main bathroom was replaced in August 2025 and is under warranty until August 2027.",
    "home-housekeeper": "Chị Sáu giúp việc theo giờ, đến dọn nhà sáng thứ Tư và sáng thứ Bảy, 80 nghìn một giờ.",
    "home-washer": "Our LG front-loading washing machine shows error OE when the drain filter is clogged.",
    "home-spare-key": "Chìa khóa dự phòng của nhà gửi ở nhà cô Loan hàng xóm số 27.",
    "home-address": "We live in a three-storey house on An Thượng 4 street in Ngũ Hành Sơn district.",
    "home-trash": "Xe rác chạy qua khu nhà mình lúc 20h mỗi tối, trừ Chủ nhật.",
    "home-plumber": "Our go-to plumber is Lộc, who usually comes the same day if we call before noon.",
    # vehicles
    "car-model": "Ô tô nhà mình là chiếc Mazda CX-5 màu trắng, mua năm 2021.",
    "car-service": "The Mazda's next service is due at 45,000 km or in January 2027, whichever comes first.",
    "car-insurance": "Bảo hiểm thân vỏ ô tô mua ở PVI, hết hạn ngày 20/2/2027.",
    "car-inspection": "Hạn đăng kiểm ô tô tiếp theo là ngày 11/6/2027.",
    "bike-wife": "Thảo rides a grey Honda Vision scooter to school.",
    # schooling
    "school-huy-english": "Huy has English classes at ILA on Wednesday and Friday evenings from 5:45 to 7:15.",
    "school-huy-meeting": "Họp phụ huynh cuối học kỳ 1 của Huy vào 8h sáng Chủ nhật 20/12/2026.",
    "school-huy-grades": "Huy is strong at maths but struggles with Vietnamese essay writing, so Thảo tutors him on weekends.",
    "school-bong-uniform": "Thứ Hai và thứ Năm Bông phải mặc đồng phục thể dục màu xanh lá.",
    # how the assistant should answer
    "pref-language": "Reply in Vietnamese when I write in Vietnamese and in English when I write in English.",
    "pref-length": "Trả lời tôi ngắn gọn, tối đa vài gạch đầu dòng, không giải thích dài dòng.",
    "pref-emoji": "Please don't put emojis in replies.",
    "pref-address": "Hãy gọi tôi là anh Bảo và xưng em.",
    "pref-units": "Use 24-hour time, metric units, and day/month/year dates.",
    "pref-reminder": "Nhắc lịch hẹn trước 30 phút, riêng chuyến bay thì nhắc trước một ngày.",
    "pref-tone": "Keep the tone casual and direct, without polite filler.",
    # routines
    "routine-wake": "Ngày thường tôi dậy lúc 5h15, cuối tuần thì ngủ đến 7h.",
    "routine-wife-wake": "Thảo gets up at 5:45 on weekdays to cook breakfast for the kids.",
    "routine-school-run": "I drive the kids to school at 7:00 every morning, and Thảo picks them up in the afternoon.",
    "routine-bed": "Tôi cố đi ngủ trước 23h và tắt điện thoại từ 22h30.",
    "routine-call-parents": "Every Sunday at 8 pm we video-call my parents.",
    "routine-kids-bed": "Bông đi ngủ lúc 20h30, còn Huy lúc 21h30.",
    # shopping and sizes
    "size-shoe-owner": "Tôi đi giày size 42.",
    "size-shoe-wife": "Thảo đi giày size 37.",
    "size-shoe-huy": "Huy has just moved up to shoe size 34.",
    "size-shirt-owner": "Tôi mặc áo sơ mi size L, quần size 31.",
    "size-ring-wife": "Thảo's ring size is 12 in Vietnamese sizing.",
    "shop-groceries": "Sáng Chủ nhật cả nhà đi Co.opmart Hàm Nghi mua đồ ăn cho cả tuần.",
    "shop-online": "I buy most household stuff on Shopee, but electronics only from CellphoneS stores.",
    "shop-wife-skincare": "Thảo chỉ dùng kem chống nắng La Roche-Posay Anthelios, thường mua ở Guardian.",
    "shop-coffee-beans": "I buy 500 g of coffee beans every two weeks from Sơn Trà Roasters.",
}

# Trailing comment tags on each question (for counting only):
#   x = cross-language, s = same language, nd = Vietnamese typed without diacritics,
#   kind = names a kind/category instead of the thing, kw = short keyword-style query.
QUESTIONS = [
    # family and people
    ("Mình đang làm cho công ty nào vậy?", "owner-job"),  # s
    ("Vợ mình dạy môn gì?", "wife-job"),  # s
    ("co giao chu nhiem cua Huy ten gi", "son-school"),  # x nd
    ("Mấy giờ phải đón Bông?", "daughter-kindergarten"),  # s
    ("What street is my parents' house on?", "parents-home"),  # s
    ("What does my sister do for a living?", "sister-ha"),  # x
    ("When is Hà's baby due?", "sister-ha-baby"),  # s
    ("Anh vợ mình làm nghề gì?", "brother-in-law"),  # x
    ("phuc lam nghe gi", "friend-phuc"),  # s nd
    # birthdays, anniversaries, gifts
    ("Sinh nhật vợ nên tặng gì?", "bday-wife"),  # x
    ("Sinh nhật thằng Huy ngày mấy?", "bday-huy"),  # s
    ("What year was Bông born?", "bday-bong"),  # s
    ("my birthday", "bday-owner"),  # x kw
    ("sinh nhat me ngay may", "bday-mom"),  # x nd
    ("How old is Dad turning this year?", "bday-dad"),  # x
    ("What should I give my sister for her birthday?", "bday-sister"),  # x
    ("sinh nhat Dat", "bday-dat"),  # s nd kw
    ("Kỷ niệm ngày cưới của vợ chồng mình là ngày nào?", "anniv-wedding"),  # x
    ("Ba mẹ cưới năm nào?", "anniv-parents"),  # s
    ("Giỗ ông nội vào ngày nào?", "gio-grandpa"),  # x
    ("qua cho ba", "gift-idea-dad"),  # s nd kw
    # food and drink
    ("Is there any herb I don't eat?", "food-owner-cilantro"),  # s kind
    ("vo an chay ngay nao", "food-wife-veg"),  # s nd
    ("Mình thích ăn món gì nhất?", "food-owner-fav"),  # s
    ("Thảo thích ăn món gì nhất?", "food-wife-fav"),  # x
    ("How do I take my coffee?", "drink-owner-coffee"),  # s
    ("What does Thảo drink in the morning?", "drink-wife-tea"),  # x
    ("Huy không chịu ăn loại rau củ nào?", "food-huy-onion"),  # s kind
    ("What foods should Mom stay away from?", "food-mom-diet"),  # x
    ("sua cho Bong loai nao", "food-bong-milk"),  # x nd kind
    # allergies and health
    ("Am I allergic to any medication?", "allergy-owner-penicillin"),  # x kind
    ("Vợ dị ứng món gì?", "allergy-wife-shrimp"),  # x
    ("Đặt lẩu hải sản cho vợ ăn có ổn không?", "allergy-wife-shrimp"),  # x
    ("What is Huy allergic to?", "allergy-huy-peanut"),  # x
    ("Can Huy have a Snickers bar?", "allergy-huy-peanut"),  # x
    ("con cho bi di ung gi", "pet-food"),  # s nd
    ("When is my physio session for my back?", "health-owner-back"),  # s
    ("What medicine works for Thảo's migraines?", "health-wife-migraine"),  # x kind
    ("độ cận của mình bao nhiêu", "health-owner-eyes"),  # x
    ("bao gio di lay cao rang", "health-dentist"),  # s nd
    ("Bông bị chàm thì bôi gì?", "health-bong-eczema"),  # x
    ("Lần khám sức khỏe gần nhất bác sĩ dặn gì?", "health-owner-checkup"),  # s
    ("nhom mau cua toi", "blood-type-owner"),  # x nd kw
    ("What's my wife's blood type?", "blood-type-wife"),  # x
    ("Who's the kids' paediatrician?", "doctor-family"),  # x
    # medicines
    ("What medication is Dad on?", "med-dad-bp"),  # s kind
    ("thuoc huyet ap cua ba", "med-dad-bp"),  # x nd kw
    ("Mẹ uống thuốc tiểu đường gì, liều bao nhiêu?", "med-mom-diabetes"),  # s kind
    ("Mình đang uống thực phẩm bổ sung nào?", "med-owner-vitd"),  # x kind
    ("What do we give Huy when he breaks out in a rash?", "med-huy-antihist"),  # x
    ("hộp thuốc để ở đâu", "med-cabinet"),  # x kw
    # work
    ("Who's my boss?", "work-manager"),  # s
    ("Who on my team does frontend?", "work-teammate"),  # x
    ("What time is the daily standup?", "work-standup"),  # s
    ("Tuần nào mình phải trực on-call?", "work-oncall"),  # s
    ("Marco chênh mình mấy tiếng?", "work-pm"),  # x
    ("Khi nào đi công tác Singapore?", "work-office"),  # s
    ("ngay nao nhan luong", "work-salary-day"),  # x nd
    ("Khi nào mình có thời gian tập trung không họp?", "routine-deep-work"),  # x
    # tools and software
    ("Mình dùng editor nào để code?", "tool-editor"),  # x kind
    ("Which browser do I use?", "tool-browser"),  # x kind
    ("shell của mình là gì", "tool-shell"),  # x kind kw
    ("What Python package manager do I use?", "tool-pkg"),  # x kind
    ("Team mình viết backend bằng ngôn ngữ lập trình gì?", "tool-lang"),  # x kind
    ("which database does the team use", "tool-db"),  # x kind
    ("Laptop cá nhân chạy hệ điều hành gì?", "tool-os-home"),  # x kind
    ("What OS is on my work computer?", "tool-os-work"),  # x kind
    ("Which note-taking app do I use?", "tool-notes"),  # s kind
    ("password manager", "tool-pwmgr"),  # x kind kw
    ("terminal app của mình", "tool-terminal"),  # x kind kw
    ("Bàn phím mình đang xài switch gì?", "tool-keyboard"),  # s
    ("Code cá nhân mình đẩy lên đâu?", "tool-git"),  # x
    # pets
    ("What pets do we have?", "pet-dog"),  # x kind
    ("tiem phong dai cho Mit khi nao", "pet-vet"),  # x nd
    ("Mít ăn hạt gì?", "pet-food"),  # s
    ("Who takes the dog for walks?", "pet-walk"),  # s
    # sports and hobbies
    ("Which days do I go running?", "sport-owner-run"),  # s
    ("Mình chơi môn thể thao nào với Phúc?", "sport-badminton"),  # s kind
    ("Which evenings is Thảo at yoga?", "sport-wife-yoga"),  # s
    ("What sport does Huy do after school?", "sport-huy-football"),  # x kind
    ("Vợ trồng loại hoa gì?", "hobby-wife-orchid"),  # x kind
    ("What instrument am I learning?", "hobby-owner-guitar"),  # x kind
    ("Mình đang đọc sách gì?", "hobby-owner-reading"),  # x
    ("Mình đã đăng ký chạy giải nào?", "race-goal"),  # s
    ("doi bong minh ham mo", "sport-football-team"),  # x nd
    # travel
    ("Chuyến đi Nhật là ngày nào?", "travel-tokyo"),  # x
    ("Does Thảo's passport need renewing?", "travel-passport-wife"),  # x
    ("hộ chiếu của mình còn hạn đến khi nào", "travel-passport-owner"),  # x
    ("Book me a seat on the flight: aisle or window?", "seat-owner"),  # s
    ("vo thich ngoi ghe nao tren may bay", "seat-wife"),  # s nd
    ("Tết này về quê mấy ngày?", "travel-tet"),  # x
    ("What frequent flyer status do I have?", "travel-loyalty"),  # x
    ("Qua Singapore công tác thì ở khách sạn nào?", "travel-sg-hotel"),  # x
    # money and bills
    ("Mỗi tháng nhà mình xài điện hết bao nhiêu tiền?", "bill-electric"),  # s
    ("tiền mạng bao nhiêu một tháng", "bill-internet"),  # x
    ("water bill amount", "bill-water"),  # x kw
    ("How much is the monthly mortgage payment?", "money-mortgage"),  # s
    ("How much is Bông's kindergarten fee?", "money-tuition"),  # x
    ("hoc phi mau giao cua Bong", "money-tuition"),  # s nd kw
    ("Ngân sách đi chợ mỗi tháng là bao nhiêu?", "money-budget"),  # x
    ("Mình đang đầu tư định kỳ vào cái gì?", "money-invest"),  # s
    ("How much pocket money does Huy get?", "money-allowance"),  # s
    ("When is the life insurance premium due?", "money-insurance"),  # x
    # home and appliances
    ("wifi password ở đâu", "home-wifi"),  # x kw
    ("Điều hòa phòng ngủ bao lâu rồi chưa làm vệ sinh?", "home-aircon"),  # s
    ("Bình nóng lạnh còn bảo hành không?", "home-water-heater"),  # x
    ("Is someone coming to clean the house on Wednesday?", "home-housekeeper"),  # x
    ("may giat bao loi OE la sao", "home-washer"),  # x nd
    ("Quên chìa khóa, bị khóa ngoài thì lấy chìa ở đâu?", "home-spare-key"),  # s
    ("What's our home address?", "home-address"),  # s
    ("Mấy giờ đổ rác?", "home-trash"),  # s
    ("Bồn rửa bát bị nghẹt thì gọi ai?", "home-plumber"),  # x
    # vehicles
    ("What car do we drive?", "car-model"),  # x
    ("when's the car due for service", "car-service"),  # s
    ("xe oto bao hiem het han khi nao", "car-insurance"),  # s nd
    ("When is the car's registration inspection due?", "car-inspection"),  # x
    ("Thảo đi loại xe máy gì?", "bike-wife"),  # x kind
    # schooling
    ("Huy học tiếng Anh ở đâu, mấy giờ?", "school-huy-english"),  # x
    ("bao gio hop phu huynh cho Huy", "school-huy-meeting"),  # s nd
    ("Which subject is Huy weakest in?", "school-huy-grades"),  # s
    ("Which days does Bông need her PE uniform?", "school-bong-uniform"),  # x
    # assistant preferences
    ("Nên trả lời mình bằng tiếng gì?", "pref-language"),  # x
    ("How long should your answers be?", "pref-length"),  # x
    ("co duoc dung emoji khong", "pref-emoji"),  # x nd
    ("What should you call me?", "pref-address"),  # x
    ("Định dạng ngày giờ mình muốn là gì?", "pref-units"),  # x
    ("How early should you remind me before a flight?", "pref-reminder"),  # x
    ("What tone should you use with me?", "pref-tone"),  # s
    # routines
    ("Ngày thường mình thức dậy mấy giờ?", "routine-wake"),  # s
    ("Vợ dậy lúc mấy giờ?", "routine-wife-wake"),  # x
    ("Ai đưa bọn nhỏ đi học buổi sáng?", "routine-school-run"),  # x
    ("minh thuong di ngu luc may gio", "routine-bed"),  # s nd
    ("When do we call my parents?", "routine-call-parents"),  # s
    ("Mấy giờ Huy phải đi ngủ?", "routine-kids-bed"),  # s
    # shopping and sizes
    ("cỡ giày của mình", "size-shoe-owner"),  # s kw
    ("Thảo's shoe size", "size-shoe-wife"),  # x kw
    ("Huy's shoe size now?", "size-shoe-huy"),  # s
    ("Mua quần cho mình thì lấy size nào?", "size-shirt-owner"),  # s
    ("I want to buy Thảo a ring, what size?", "size-ring-wife"),  # s
    ("Nhà mình hay đi siêu thị ở đâu?", "shop-groceries"),  # s
    ("mua đồ điện tử ở đâu", "shop-online"),  # x kw
    ("What sunscreen does my wife use?", "shop-wife-skincare"),  # x
    ("Hạt cà phê mua ở đâu?", "shop-coffee-beans"),  # x
]
