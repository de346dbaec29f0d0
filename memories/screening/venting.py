"""One-off venting (SPEC §3): a passing mood is not a memory. "Ugh, traffic was awful today", "User is
exhausted right now", "Hôm nay mệt quá", "Người dùng đang bực vì kẹt xe" are refused when an agent proposes
them, unless the user asked to remember it ("remember …", "nhớ giúp …") in the proposal or in the message
it came from.

The same words often carry something lasting: "User finds pop-up notifications annoying", "User is fed up
with Jira and is moving the team to Linear", "Người dùng hay mệt vào buổi chiều", "User's son is stressed
about his exams in June". So a text is venting when it voices a mood of the moment and says nothing that
lasts:
- the mood of the moment is an interjection ("Ugh", "Haizz", "Trời ơi"), a complaint ("User complained
  that …", "than thở", "kêu trời"), a present state ("is exhausted", "feels down", "đang bực", "hơi cáu
  vì"), an intensified mood ("so annoying", "mệt muốn xỉu", "chán quá", "tức thật"), or a judgement
  ("awful", "a nightmare", "tồi tệ") or a mood that is often a trait ("nervous", "lo lắng") placed in the
  moment ("today", "again", "!", "hôm nay", "lại");
- something lasting is a preference, a habit or a condition ("prefers", "gets cranky when", "hay", "mỗi
  khi"), a plan or a date ("plans to", "next Friday", "in June", "định", "tháng Sáu"), a lesson, a request
  or feedback to the assistant, a question asked, or another person's state ("User's wife", "Mẹ của người
  dùng").
A venting text that slips through is stored or queued, and the doctor reports it as noise; a lasting one
refused is lost. So where a text has both, it is kept, and words with an everyday second meaning ("quê",
"tức là", "low", "done") are left out. The doctor uses the same test.

Every way of finding a mood needs one of a known set of words (or "?!"), so a text without any of them is
answered from its set of words, without running the patterns: most memories are that (~2 µs, not ~40).
"""

import re
import unicodedata

# The flag of an imported memory that reads as venting: kept for the owner to decide, never approved alone.
VENTING = "venting"


def _phrases(text):
    """A ``|``-separated list of plain phrases, longest first."""
    return sorted({phrase.strip() for phrase in text.split("|")}, key=lambda phrase: (-len(phrase), phrase))


def _pattern(phrases):
    """The alternation matching any of ``phrases``: either apostrophe, any run of spaces."""
    return "|".join(re.escape(p).replace("'", "['’]").replace(r"\ ", r"\s+") for p in phrases)


_INTERJECTIONS_ANYWHERE = _phrases("ugh|ughh|ughhh|argh|arghh|grr|grrr|ffs|haiz|haizz|haizzz|hazz")
_INTERJECTIONS_FIRST = _phrases(
    "sigh|whew|phew|damn it|damn|dammit|omg|jeez|geez|seriously|honestly|trời ơi|trời đất ơi|trời đất|"
    "ôi trời|ôi|ối|hừ|chết tiệt|xời|má ơi"
)
_INTERJECTIONS_ALONE = _phrases("man|god|lord")  # only when a comma or "!" follows: "Man United" is a club
_COMPLAINTS = _phrases(
    "vented|venting|let off steam|letting off steam|blew off steam|complained|complaining|grumbled|grumbling|"
    "ranted|ranting|moaned|moaning|whined|whining|sighed|griped|expressed frustration|expressed annoyance|"
    "can't believe|one of those days|what a day|what a long day|what a bad day|what a rough day|"
    "what a rubbish day|what a terrible day|long day|bad day|rough day|rubbish day|losing patience|"
    "lost patience|wrecked their mood|wrecked his mood|wrecked her mood|wrecked my mood|ruined their mood|"
    "ruined my mood|soured the whole day|soured their day|soured my day|am i right|so over|hate this|"
    "hate it|hate everything|hate my life|ready to throw|ready to scream|want to scream|wants to scream|"
    "snapped that|snapped at|muttered that|huffed|fumed|in a huff|in a strop|like screaming|like crying|"
    "want to cry|wants to cry|be over already|just be over|going wrong|gone wrong|went wrong|just brilliant|"
    "just great|just perfect|just what i needed|losing the will|was cross that|is cross that|am cross that|"
    "were cross that"
)
_COMPLAINTS_VI = _phrases(
    "than thở|than vãn|than phiền|than là|than rằng|phàn nàn|kêu ca|kêu trời|càu nhàu|cằn nhằn|càm ràm|"
    "lầm bầm|tâm trạng tệ|tâm trạng xấu|tâm trạng không tốt|tâm trạng không vui|tâm trạng đang tệ|"
    "muốn khùng|phát khùng|khùng luôn|điên mất|điên lên|phát điên|chán đời|nổ tung|không có hứng|hết hứng|"
    "mất hứng|cụt hứng|chẳng muốn làm gì|xui quá|xui ghê|khổ quá|khổ ghê|khổ thân|bó tay|nực cười|"
    "phí thời gian|muốn khóc|tức anh ách|ấm ức|quạu|sốt ruột|vậy trời|thế này|gì đâu mà|kêu là|kêu rằng|"
    "mất ngon|dữ vậy|tận mạng|muốn nổ đầu|hết chịu nổi|không tả nổi|bực mình ghê|cau có|hậm hực"
)
# Moods of the moment, and moods that are often traits ("User is scared of dogs", "Người dùng sợ độ cao"):
# those count only in the moment.
_MOODS = _phrases(
    "tired|exhausted|drained|wiped out|knackered|shattered|worn out|run down|burnt out|burned out|sleepy|"
    "bored|sad|glum|gloomy|miserable|bummed|gutted|blah|meh|unmotivated|deflated|discouraged|disappointed|"
    "heartbroken|lonely|embarrassed|humiliated|grumpy|cranky|crabby|moody|sulky|hangry|irritated|irritable|"
    "annoyed|peeved|ticked off|irate|angry|furious|fuming|seething|livid|mad at|pissed|pissed off|salty|"
    "frustrated|exasperated|fed up|upset|overwhelmed|frazzled|flustered|rattled|restless|antsy|on edge|"
    "stressed|stressed out|over it|losing it|losing my mind|losing their mind|at my wits' end|"
    "at their wits' end|in a bad mood|in a foul mood|in a terrible mood|in a grumpy mood|in a rotten mood|"
    "in a sour mood|in a mood|down in the dumps|feeling down|feeling blue|feels down|feel down|feels blue|"
    "grouchy|tetchy|ratty|shirty|narked|miffed|vexed|disgruntled|stroppy|zonked"
)
_TRAITS = _phrases("anxious|nervous|worried|scared|afraid|frightened|depressed|jealous|envious|insecure|homesick")
_MOODS_VI = _phrases(
    "mệt mỏi|mệt|đuối|oải|uể oải|kiệt sức|buồn ngủ|buồn|chán nản|chán chường|chán|bực bội|bực mình|bực|"
    "cáu kỉnh|cáu tiết|cáu|tức giận|tức|điên tiết|giận dỗi|giận|hờn|stress|căng thẳng|khó chịu|ngán ngẩm|ngán|"
    "nản|ức chế|bứt rứt|bồn chồn|xuống tinh thần|cô đơn|thất vọng|hụt hẫng|xấu hổ|ngượng|tủi thân|ngộp|"
    "ngột ngạt|bế tắc|khùng|điên|ghét|quạu|ấm ức|sốt ruột|quê độ|hậm hực|cau có|bực dọc|cáu gắt|nóng máu|"
    "đau đầu|nhức đầu|mệt lả|rã rời|ngao ngán|chán ngắt|buồn bực|bực tức"
)
# Hating something is a dislike that lasts ("Người dùng rất ghét đồ ăn cay"), not a state of the moment, unless
# placed in it ("Hôm nay ghét cả thế giới") or intensified alone ("Ghét quá!").
_STATES_VI = [mood for mood in _MOODS_VI if mood != "ghét"]
_TRAITS_VI = _phrases("lo lắng|sợ|hồi hộp|ghen tị|ghen|tự ti|nhớ nhà")
_JUDGEMENTS = _phrases(
    "awful|terrible|horrible|horrendous|nightmare|brutal|unbearable|ruined|stupid|cursed|annoying|the worst|"
    "sucks|sucked|took forever|sick of|tired of|fed up with|had enough|can't stand|rubbish|rude|"
    "infuriating|maddening"
)
_JUDGEMENTS_VI = _phrases("tồi tệ|tệ hại|tệ|xui xẻo|xui|hỏng hết|cũng hỏng|không chịu nổi|trục trặc|mặn chát")

_DEGREE_EN = (
    r"(?:(?:so|very|really|a bit|a little|kind of|kinda|pretty|totally|super|quite|extremely|utterly|just|"
    r"absolutely|completely|feeling|getting|properly|well|seriously|majorly|thoroughly|still|now|rather)\s+)*"
)
_DEGREE_VI = r"(?:(?:rất|hơi|khá|cực kỳ|cực kì|quá|thấy|cảm thấy|thật sự|thực sự|đang|bị|vẫn|còn|vẫn còn)\s+)*"
_BE_EN = (
    r"is|am|are|was|were|i['’]m|they['’]re|he['’]s|she['’]s|we['’]re|you['’]re|feels?|feeling|felt|got|getting|"
    r"seems?|been|looks?"
)
_INTENSE_VI = (
    r"quá trời|quá xá|quá|ghê|thật sự|thực sự|thật|thiệt|lắm|kinh khủng|dã man|muốn xỉu|muốn chết|muốn khóc|"
    r"muốn khùng|muốn điên|rã rời|đi mất|chết đi được|chết mất|không chịu nổi|phát điên|điên|hoài|dễ sợ|luôn|"
    r"không tả nổi|muốn nổ đầu|tận mạng|dữ vậy|dữ dằn|hết chịu nổi|quá đi|quá chừng"
)
# "tức là" is "that is", "buồn cười" is "funny": not moods.
_NOT_A_MOOD_VI = r"(?!tức là|buồn cười)"

# A mood of the moment, whatever else the text says.
_OUTBURST = re.compile(
    rf"^\W*(?:{_pattern(_INTERJECTIONS_FIRST)})(?!\w)"
    rf"|^\W*(?:{_pattern(_INTERJECTIONS_ALONE)})(?=\s*[,!])"
    rf"|\b(?:{_pattern(_INTERJECTIONS_ANYWHERE)})\b"
    rf"|\b(?:{_pattern(_COMPLAINTS)})\b"
    rf"|(?<!\w)(?:{_pattern(_COMPLAINTS_VI)})(?!\w)"
    r"|\?!|!\?|\?\?|\bseriously[.!?]*\s*$"
    r"|\b(?:had|having) an? \w+ day\b"
    r"|(?<!\w)(?:người dùng|mình|tôi|em|anh|chị|cô|chú|bác|ông|bà)(?: (?-i:[A-ZĐ]\w*))? than(?!\w)"
    # a present state: "is exhausted", "feels a bit down", "— absolutely livid", "đang bực", "hơi cáu vì"
    rf"|\b(?:{_BE_EN})\s+{_DEGREE_EN}(?:{_pattern(_MOODS)})\b"
    rf"|(?:^|[,;:.!?—–-])\s*{_DEGREE_EN}(?:{_pattern(_MOODS)})\b"
    rf"|\b(?:{_BE_EN})\s+{_DEGREE_EN}(?:{_pattern(_TRAITS)}) that\b"
    rf"|\bfeel(?:s|ing)?\s+{_DEGREE_EN}(?:down|blue|low)\b"
    rf"|(?<!\w)(?:đang|cảm thấy|thấy|nên|hơi|rất|bị)\s+{_DEGREE_VI}{_NOT_A_MOOD_VI}(?:{_pattern(_STATES_VI)})(?!\w)"
    rf"|(?<!\w){_NOT_A_MOOD_VI}(?:{_pattern(_MOODS_VI)})\s+(?:vì|do|{_INTENSE_VI})(?!\w)"
    # an intensified mood: "so annoying"
    rf"|\bso (?:annoying|tiring|frustrating|boring|exhausting|irritating|stressful|done|{_pattern(_MOODS)})\b"
    r"|\b(?:exhausting|unbearable|infuriating|maddening)\s*[.!]",
    re.IGNORECASE,
)

# A judgement, or a mood that is often a trait, is venting when placed in the moment: "traffic was awful
# today", "User is nervous right now", "lại hỏng, tệ quá", "Người dùng đang lo lắng vì hôm nay …".
_JUDGEMENT = re.compile(
    rf"\b(?:{_pattern(_JUDGEMENTS)}|{_pattern(_TRAITS)}|worst \w+ ever)\b"
    rf"|(?<!\w){_NOT_A_MOOD_VI}(?:{_pattern(_JUDGEMENTS_VI)}|{_pattern(_MOODS_VI)}|{_pattern(_TRAITS_VI)})(?!\w)",
    re.IGNORECASE,
)
_MOMENT = re.compile(
    r"\b(?:today|today['’]s|tonight|this (?:morning|afternoon|evening|week)|right now|at the moment|just now|"
    r"yesterday|again|these days|lately|all (?:day|morning|afternoon|evening|night|week))\b|!"
    r"|(?<!\w)(?:hôm nay|tối nay|sáng nay|chiều nay|trưa nay|đêm nay|lúc này|bây giờ|hôm qua|tối qua|tuần này|"
    r"dạo này|vừa mới|vừa|lại|hoài|cả ngày|cả buổi|suốt buổi|suốt ngày|quá trời|quá xá|dã man|bữa nay|nãy giờ|"
    r"mới nãy|ban nãy|giờ này)(?!\w)",
    re.IGNORECASE,
)

# Words too common in memories to tell the patterns whether to run.
_COMMON = frozenset("a with this over what those feeling that thẳng này thân người dùng cũng muốn".split())


def _trigger(phrase):
    """The word of ``phrase`` that says most about whether it is there: its longest uncommon word."""
    words = re.findall(r"\w+", phrase.lower())
    return max(reversed(words), key=lambda word: (word not in _COMMON, len(word)))


# Every pattern above needs one of these words (or "?!", "!?", "??").
_TRIGGERS = frozenset(
    _trigger(phrase)
    for phrases in (
        _INTERJECTIONS_ANYWHERE,
        _INTERJECTIONS_FIRST,
        _INTERJECTIONS_ALONE,
        _COMPLAINTS,
        _COMPLAINTS_VI,
        _MOODS,
        _TRAITS,
        _MOODS_VI,
        _TRAITS_VI,
        _JUDGEMENTS,
        _JUDGEMENTS_VI,
    )
    for phrase in phrases
) | frozenset(
    # the words the patterns spell out themselves
    (
        "day",
        "than",
        "down",
        "blue",
        "low",
        "tiring",
        "frustrating",
        "boring",
        "exhausting",
        "irritating",
        "stressful",
        "done",
        "worst",
    )
)
_WORD = re.compile(r"\w+")

_MONTHS = (
    r"january|february|march|april|may|june|july|august|september|october|november|december|"
    r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_WEEKDAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_KIN_EN = (
    r"son|daughter|wife|husband|partner|mom|mum|mother|dad|father|parents?|brother|sister|kids?|child|children|"
    r"friend|boss|manager|colleague|team|baby|grandma|grandpa|grandmother|grandfather"
)
_KIN_VI = r"con trai|con gái|con|vợ|chồng|mẹ|bố|ba|má|anh trai|chị gái|em trai|em gái|bạn|sếp|đồng nghiệp|ông|bà"

# Something lasting: a preference, a habit or condition, a plan or date, a lesson, a request or feedback
# to the assistant, a question asked, another person's state.
_LASTING = re.compile(
    r"\b(?:prefers?|preferred|likes|liked|(?:i|we|they|you|would|really|also) like|dislikes?|loves?|"
    r"(?<!just )wants?|would rather|usually|always|never|often|every|each|when|whenever|if|tends? to|gets|"
    r"easily|avoid|avoids|should|plans?|planning|going to|will|decided|deciding|moving|switch(?:ed|ing)? to|"
    r"(?<!n['’]t )quit|looking for|buy|since|all the time|constantly|chronic|diagnosed|daily|weekly|monthly|"
    r"from now on|going forward|next (?:week|month|year|time|\w+day)|by q[1-4]|in future|in the future|lesson|learned|"
    r"asked|asks|tips?|how to|suggest|remind|assistant|bestie|bot|answers?|replies|replied|reply|"
    r"(?:don['’]?t|do not) (?:use|send|call|suggest|remind|mention|ask|book|schedule|add|reply|answer|bring|"
    r"say|show|recommend|wake|disturb)|"
    rf"in (?:{_MONTHS})|(?:on|next|this coming) (?:{_WEEKDAYS})s?|"
    rf"\w+['’]s? (?:{_KIN_EN})|(?:{_MONTHS}) \d{{1,2}}|\d{{1,2}} (?:{_MONTHS}))\b"
    r"|\b\d{1,2}[/.]\d{1,2}\b"
    r"|(?<!\w)(?:thích|không thích|ghét ăn|(?<!chẳng )(?<!chỉ )muốn(?! chết| xỉu| khóc| nổ| khùng| điên)|thường|"
    r"hay|luôn(?=\s+\w)(?!\s+(?:á|à|ấy|đó|nè|rồi|vậy|nha|nhé|hà)(?!\w))|dễ(?! sợ)|không bao giờ|mỗi khi|"
    r"mỗi lần|mỗi|lúc nào cũng|khi|nếu|tránh|"
    r"nên (?:nhắc|gợi ý|tránh|trả lời|hỏi|dùng|chọn|đặt|để ý|báo|gửi|giữ|mua|ăn|uống|ngủ|nghỉ|tắt|bật|dành|"
    r"luôn|thường|hạn chế|ưu tiên)|quyết định|định|tính|sẽ|chuyển (?:sang|qua|về|đến|tới|nhà|hẳn)|"
    r"kế hoạch|lần sau|sau này|về sau|từ nay|từ khi|từ tháng|tuần sau|tháng sau|năm sau|ngày mai|cuối tháng|"
    r"tháng (?!này|rồi|trước|qua)\w+|bài học|rút ra|hỏi|nhắc|gợi ý|đừng|hãy|trợ lý|bestie|bot|trả lời|"
    rf"(?:{_KIN_VI})(?: của)? (?:người dùng|anh|chị|em|cô|chú|bác|ông|bà|bạn))(?!\w)",
    re.IGNORECASE,
)

# The user asked for it to be kept ("I can't remember", "không nhớ là" are not asking).
_REMEMBER = re.compile(
    r"(?<!n['’]t )(?<!not )(?<!never )\b(?:remember|don['’]?t forget|keep in mind|make a note|note that|take note)\b"
    r"|(?<!không )(?<!chẳng )(?<!chả )(?<!\w)(?:nhớ (?:giúp|giùm|hộ|là|rằng|nhé|nha|cho)|ghi nhớ|lưu lại|ghi lại|"
    r"đừng quên)(?!\w)",
    re.IGNORECASE,
)


def _normal(text):
    return unicodedata.normalize("NFC", text or "")


def _may_vent(text):
    """False when ``text`` has none of the words every way of finding a mood needs."""
    return "?!" in text or "!?" in text or "??" in text or not _TRIGGERS.isdisjoint(_WORD.findall(text.lower()))


def is_venting(text, message_text=""):
    """True when ``text`` voices a mood of the moment, says nothing lasting, and neither it nor the message
    it came from (``message_text``) asks for it to be kept."""
    text = _normal(text)
    if not _may_vent(text):
        return False
    moment = _OUTBURST.search(text) or (_JUDGEMENT.search(text) and _MOMENT.search(text))
    if not moment or _LASTING.search(text):
        return False
    return not (_REMEMBER.search(text) or _REMEMBER.search(_normal(message_text)))
