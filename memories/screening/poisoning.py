"""Instruction-like text (SPEC §3, poisoning defence): a proposal that reads as a standing order to the
assistant ("Always …", "Ignore previous instructions", "Skip the checks", "Từ giờ trở đi …") is never
approved without the owner, whatever the write policy.

A description of the owner is not an order: "User always drinks coffee at 7" and "Người dùng không bao
giờ ăn cay" describe habits. So "always"/"never" count only where an order starts: at the start of a
sentence, after "please"/"hãy", or after "you should", "bạn phải", "Bestie must" and the like. Phrases
that are an attack wherever they stand ("ignore previous instructions", "from now on") count anywhere.
"""

import re
import unicodedata

# Where an order to the assistant starts: the text's start, a sentence break, or a lead-in.
_LEAD = (
    r"(?:^|[.!?;:\n]\s*|\b(?:please|pls|hãy|vui lòng|xin)\s+"
    r"|\b(?:you|assistant|bestie|the agent|agent|ai|bạn|trợ lý|em)\s+"
    r"(?:should|must|need to|have to|will|shall|can|phải|nên|cần|hãy|sẽ)\s+"
    r"|\b(?:remember to|make sure to|be sure to|nhớ|nhớ là|phải)\s+)"
)
_ORDERS = (
    r"(?:always|never|ignore|disregard|bypass|skip|disable|turn off|switch off|override)\b"
    r"|(?:luôn luôn|luôn|không bao giờ|đừng bao giờ|chớ bao giờ|bỏ qua|vô hiệu hóa|vô hiệu hoá)(?!\w)"
)
_AT_LEAD = re.compile(_LEAD + r"\s*(?:" + _ORDERS + r")", re.IGNORECASE)

_ANYWHERE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*"
    r"(?:previous|prior|above|earlier|preceding|existing|system|safety|your)\s+"
    r"(?:instructions?|prompts?|rules?|guidelines?|directions?|messages?|policies)"
    r"|\b(?:skip|disable|bypass|turn off|switch off)\s+(?:all\s+|any\s+|the\s+|every\s+|your\s+)*"
    r"(?:safety\s+|security\s+|sanity\s+)?(?:checks?|verifications?|validations?|guardrails?|safeguards?|reviews?|approvals?|confirmations?)\b"
    r"|\bfrom now on\b|\bhenceforth\b|\bnew instructions?\s*:|\bsystem prompt\b|\byou are now\b"
    r"|bỏ qua\s+(?:mọi|tất cả|các|những|toàn bộ)?\s*(?:hướng dẫn|chỉ dẫn|chỉ thị|mệnh lệnh|lệnh|quy tắc|yêu cầu)\s+"
    r"(?:trước|trên|cũ|ban đầu)"
    r"|(?:bỏ qua|tắt|vô hiệu hó?o?a|không cần)\s+(?:các\s+|mọi\s+|việc\s+|bước\s+|chức năng\s+)*"
    r"(?:kiểm tra|xác minh|xác nhận|kiểm duyệt)"
    r"|từ (?:giờ|nay|bây giờ) (?:trở đi|về sau)|từ bây giờ(?!\w)",
    re.IGNORECASE,
)

TOOL_OUTPUT = "tool_output"
INSTRUCTION_LIKE = "instruction_like"


def is_instruction_like(text):
    text = unicodedata.normalize("NFC", text or "")
    return bool(_AT_LEAD.search(text) or _ANYWHERE.search(text))


def flags_for(text, source_kind):
    """The poisoning flags of a proposal, in a fixed order; any flag keeps it for the owner's review."""
    flags = []
    if source_kind == TOOL_OUTPUT:
        flags.append(TOOL_OUTPUT)
    if is_instruction_like(text):
        flags.append(INSTRUCTION_LIKE)
    return flags
