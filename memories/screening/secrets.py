"""The secret filter: what must never be stored as a memory (SPEC §3).

``find_secrets`` runs on every write, so it is built for speed: every pattern is compiled once, and each
pattern runs only when a plain substring it needs ("sk-", "://", "mật", "stk", ...) is in the text. A
finding's ``reason`` names the kind of secret, never the secret.

Mentioning a topic is not a secret: "asked how password managers work" has the keyword but no value
after it, so the keyword detectors look for a value shaped like a secret right after the keyword.
"""

import base64
import binascii
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext_lazy
from mnemonic import Mnemonic
from stdnum import iban, luhn
from stdnum.exceptions import ValidationError
from stdnum.iso7064 import mod_97_10

from memories.language.folding import fold


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int
    end: int
    reason: str


PASSWORD = "password"
PIN = "PIN"
API_KEY = "API key"
ACCESS_TOKEN = "access token"
PRIVATE_KEY = "private key"
CONNECTION_STRING = "connection string"
JWT = "JWT"
CARD_NUMBER = "card number"
IBAN = "IBAN"
BANK_ACCOUNT = "bank account number"
OTP = "one-time code"
SEED_PHRASE = "seed phrase"
TWO_FACTOR_SECRET = "two-factor secret"

# Translated when shown (the console speaks Vietnamese or English).
_REASONS = {
    PASSWORD: gettext_lazy("looks like a password"),
    PIN: gettext_lazy("looks like a PIN"),
    API_KEY: gettext_lazy("looks like an API key"),
    ACCESS_TOKEN: gettext_lazy("looks like an access token"),
    PRIVATE_KEY: gettext_lazy("looks like a private key"),
    CONNECTION_STRING: gettext_lazy("looks like a connection string with a password"),
    JWT: gettext_lazy("looks like a JWT"),
    CARD_NUMBER: gettext_lazy("looks like a card number"),
    IBAN: gettext_lazy("looks like an IBAN"),
    BANK_ACCOUNT: gettext_lazy("looks like a bank account number"),
    OTP: gettext_lazy("looks like a one-time code"),
    SEED_PHRASE: gettext_lazy("looks like a seed phrase"),
    TWO_FACTOR_SECRET: gettext_lazy("looks like a two-factor secret"),
}


def _finding(kind, start, end):
    return Finding(kind, start, end, _REASONS[kind])


# What looks like a secret and is public by design, or published to be copied: a public key ("ssh-ed25519
# AAAA…", a PEM "PUBLIC KEY" block), a key's fingerprint, a publishable key, an object's id, a JWT's
# header alone, the documentation's own example values and test cards.
_PUBLIC = re.compile(
    r"(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com)\s+AAAA[A-Za-z0-9+/]+=*"
    r"|-----BEGIN (?:RSA |EC )?PUBLIC KEY-----.*?(?:-----END (?:RSA |EC )?PUBLIC KEY-----|$)"
    r"|\b(?:SHA256|SHA1|MD5):[A-Za-z0-9+/:=]{16,}"
    r"|\bpk_(?:test|live)_[A-Za-z0-9]+"
    r"|(?<![\w-])(?:cus|pi|ch|pm|evt|acct|price|prod|sub|in|txn|req|seti|src|cs|po|prc|chatcmpl|asst|thread|run|msg|"
    r"batch|call|file)[_-][A-Za-z0-9]{8,}"
    r"|(?<![\w.-])eyJ[A-Za-z0-9_-]{10,}(?![\w.-])"
    r"|AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    # A value named a public key (WireGuard's "PublicKey = …", "pubkey: …").
    r"|(?i:\b(?:public[_ -]?key|pub[_ -]?key)s?\b)\s*[:=]\s*[\"']?[A-Za-z0-9+/_-]{16,}={0,2}",
    re.DOTALL,
)
_PUBLIC_NEEDLES = ("aaaa", "public", "pubkey", "pub_key", "sha256:", "sha1:", "md5:", "pk_", "_", "eyj", "example", "-")
# Card numbers the payment providers publish for tests (Stripe, VNPay's sandbox), in a text saying so.
_TEST_CARDS = frozenset(
    {
        "4242424242424242",
        "4000056655665556",
        "5555555555554444",
        "2223003122003222",
        "5200828282828210",
        "378282246310005",
        "371449635398431",
        "6011111111111117",
        "3056930009020004",
        "3566002020360505",
        "6200000000000005",
        "9704198526191432198",
    }
)
_TEST_WORDS = re.compile(r"(?i)\b(?:test|testing|sandbox|demo|example|sample|docs?|documentation|thử|tài liệu|ví dụ)\b")


def _published_example(value):
    """AWS's documented example key pair, which its documentation asks readers to copy."""
    return value in ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")


def _published_test_data(text):
    """A provider's published test data (a test card, its sandbox OTP) quoted from its documentation."""
    return _TEST_WORDS.search(text) and any(
        _CARD_SEPARATOR.sub("", match.group()) in _TEST_CARDS for match in _CARD.finditer(text)
    )


def _public_spans(text, lowered):
    spans = []
    if _has_any(lowered, _PUBLIC_NEEDLES):
        spans = [match.span() for match in _PUBLIC.finditer(text)]
    if _TEST_WORDS.search(text):
        for match in _CARD.finditer(text):
            if _CARD_SEPARATOR.sub("", match.group()) in _TEST_CARDS:
                spans.append((match.start(), _card_details_end(text, match.end())))
    return spans


# A UUID is an object's id (mem0's and OpenMemory's memory ids, a request id). Its digit groups can pass
# for a card number's and its hex for a 2FA word ("2fa" in "2fad0f69-…"), which it never holds; a
# password or a token that is a UUID is still found by the words around it.
_UUID_IN_TEXT = re.compile(r"(?<![0-9A-Fa-f-])[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f-])")
_NEVER_IN_A_UUID = frozenset({CARD_NUMBER, TWO_FACTOR_SECRET})


def _outside_uuids(text, found):
    uuids = [match.span() for match in _UUID_IN_TEXT.finditer(text)]
    return [
        f
        for f in found
        if f.kind not in _NEVER_IN_A_UUID or not any(start <= f.start and f.end <= end for start, end in uuids)
    ]


# Short texts found clean (a user, a channel, a source like "telegram message"): every write screens
# them again, and they repeat. Only clean ones are kept, so no secret stays in this process's memory.
_CLEAN_SHORT = set()
_SHORT = 100
_CLEAN_KEPT = 4096


def find_secrets(text):
    """Every secret in ``text``, in order, overlapping finds merged into the first."""
    if not text or text in _CLEAN_SHORT:
        return []
    found = _find(text)
    if not found and len(text) <= _SHORT:
        if len(_CLEAN_SHORT) >= _CLEAN_KEPT:
            _CLEAN_SHORT.clear()
        _CLEAN_SHORT.add(text)
    return found


def _find(text):
    lowered = text.lower()
    found = []
    for detect in _DETECTORS:
        found.extend(detect(text, lowered))
    if found and _published_test_data(text):
        return []
    if found and "-" in text:
        found = _outside_uuids(text, found)
    if found:
        public = _public_spans(text, lowered)
        found = [f for f in found if not any(start <= f.start and f.end <= end for start, end in public)]
    if not found:
        return found
    found.sort(key=lambda f: (f.start, -f.end))
    merged = [found[0]]
    for finding in found[1:]:
        last = merged[-1]
        if finding.start < last.end:
            if finding.end > last.end:
                merged[-1] = Finding(last.kind, last.start, finding.end, last.reason)
        else:
            merged.append(finding)
    return merged


def redact(text):
    """``text`` with every secret replaced by ``[redacted <kind>]``."""
    findings = find_secrets(text)
    if not findings:
        return text
    parts, position = [], 0
    for finding in findings:
        parts.append(text[position : finding.start])
        parts.append(f"[redacted {finding.kind}]")
        position = finding.end
    parts.append(text[position:])
    return "".join(parts)


# ---------------------------------------------------------------------------------------------------
# Secrets recognisable by their shape alone

_SHAPES = [
    (
        PRIVATE_KEY,
        ("private key",),
        re.compile(
            # Up to its END line, or to the end of the text when it was cut short.
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*)",
            re.DOTALL,
        ),
    ),
    # A Wi-Fi QR code's payload: WIFI:T:WPA;S:Home;P:the password;;
    (PASSWORD, ("wifi:",), re.compile(r"(?i)\bWIFI:(?:[A-Z]:[^;]*;)*?P:(?P<secret>(?:\\;|[^;])+)")),
    # An e-mail address and a password beside it: "bi@icloud.com / Bin@2014apple", "mail | pass".
    (
        PASSWORD,
        ("@",),
        # Not a URL's user and path: "https://user@example.test/repo.git".
        re.compile(
            r"(?<![\w.+/-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+\s*[/|]\s*(?P<strong>[^\s/|,]{6,}?)(?=[.,;!?)]?(?:\s|$))"
        ),
    ),
    (
        PRIVATE_KEY,
        ("putty-user-key-file",),
        # A PuTTY key file, from its first line to its MAC (all of it: the public lines name the key).
        re.compile(r"PuTTY-User-Key-File-\d+:.*?(?:Private-MAC:\s*[0-9a-fA-F]+|\Z)", re.DOTALL),
    ),
    (
        CONNECTION_STRING,
        ("://",),
        re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@]*:(?P<password>[^\s@/]+)@[^\s]+"),
    ),
    (API_KEY, ("sk-ant-",), re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    (API_KEY, ("sk-",), re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    (ACCESS_TOKEN, ("gh", "github_pat_"), re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")),
    (ACCESS_TOKEN, ("glpat-",), re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    (API_KEY, ("akia", "asia", "abia", "acca"), re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b")),
    (API_KEY, ("aiza",), re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    (ACCESS_TOKEN, ("xox", "xapp-"), re.compile(r"\bxox[abposre]-[A-Za-z0-9-]{10,}|\bxapp-[A-Za-z0-9-]{10,}")),
    (API_KEY, ("_live_", "_test_"), re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    (ACCESS_TOKEN, (":aa",), re.compile(r"\b\d{6,12}:AA[A-Za-z0-9_-]{30,}")),
    (API_KEY, ("sg.",), re.compile(r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}")),
    (ACCESS_TOKEN, ("npm_", "hf_"), re.compile(r"\b(?:npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,})")),
    (ACCESS_TOKEN, ("k.eyj",), re.compile(r"\b[sp]k\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    (OTP, ("g-",), re.compile(r"\bG-\d{6}\b")),
    (JWT, ("eyj",), re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    (ACCESS_TOKEN, ("bearer",), re.compile(r"\b[Bb]earer\s+[A-Za-z0-9._~+/-]{16,}=*")),
    # A credential in a URL's query string: ...?access_token=..., &api_key=..., &sig=...,
    # &X-Goog-Signature=..., &X-Amz-Credential=...: a parameter with a credential's word in its name.
    (
        ACCESS_TOKEN,
        ("=",),
        re.compile(
            r"[?&](?:[\w.]+[-_.])?(?:access_?token|token|api_?key|key|secret|auth|sig|signature|credential|"
            r"client_?secret|security[-_]token|session[-_]?token)=[A-Za-z0-9._~%+/-]{12,}",
            re.IGNORECASE,
        ),
    ),
    (PASSWORD, ("=",), re.compile(r"[?&](?:password|passwd|pass|pwd)=[^&\s]{4,}", re.IGNORECASE)),
    # A login and its password side by side: "login: admin / S3cure!Pass".
    (
        PASSWORD,
        (" /",),
        re.compile(
            r"(?i)\b(?:login|username|user|tài khoản|tk|acc|account)\b[^/\n]{0,30}?\s/\s*(?P<strong>[^\s/]{4,}?)"
            r"(?=[.,;!?)]?(?:\s|$))"
        ),
    ),
    # A command's user and password: "curl -u admin:F%MTNp&9E1", "wget --user=bob:…".
    (
        PASSWORD,
        ("-u", "--user"),
        re.compile(r"(?:^|\s)(?:-u|--user)[ =]['\"]?[^\s:'\"]+:(?P<strong>[^\s'\"]{4,})"),
    ),
    # A code said before what it is for: "nhập mã 553311 để xác thực", "use code 553311 to log in".
    (
        OTP,
        ("mã", "code"),
        re.compile(
            r"(?i)\b(?:mã|code)\s+(?P<secret>\d{4,8})\s+(?:để|to)\s+"
            r"(?:xác thực|xác nhận|xác minh|đăng nhập|verify|log ?in|sign ?in|confirm)"
        ),
    ),
]


# ---------------------------------------------------------------------------------------------------
# Secrets recognisable by their structure: NAME=value, a credential header, a webhook's secret path,
# a vendor's prefix, a token spaced out or split over lines


def _name_parts(name):
    """``db_password`` -> {db, password}; ``SharedAccessKey`` -> {shared, access, key, sharedaccesskey}."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    parts = {part for part in re.split(r"[-_.]+", spaced.lower()) if part}
    return parts | {name.lower().replace("-", "").replace("_", "").replace(".", "")}


_PASSWORD_NAMES = frozenset({"password", "passwd", "pwd", "pass", "passphrase", "passcode", "matkhau", "mk"})
_CREDENTIAL_NAMES = frozenset(
    {
        "secret",
        "token",
        "key",
        "apikey",
        "accesskey",
        "accountkey",
        "sharedaccesskey",
        "privatekey",
        "clientsecret",
        "credential",
        "credentials",
        "auth",
        "authorization",
        "sessionid",
        "session",
        "sid",
        "signature",
        "sig",
        "cookie",
        "bearer",
    }
)
# Names that say what is not a secret: a public or publishable key, an idempotency key, a key's name.
_HARMLESS_NAMES = frozenset({"public", "publishable", "pub", "idempotency", "name", "id", "type", "algorithm", "file"})
_ASSIGNMENT = re.compile(
    r"(?<![\w$])(?P<name>[A-Za-z][A-Za-z0-9_.-]{1,60})[\"']?\s*(?::=|=>|=|:)\s*"
    r"(?:(?P<quote>[\"'])(?P<quoted>[^\"'\n]{4,200})(?P=quote)|(?P<value>[^\s\"',;&)]{4,200}))"
)
# What is given to a name without being a value: code that reads it ("os.environ[…]", "getenv(…)"),
# a YAML tag ("!vault"), a template.
_NOT_A_VALUE = re.compile(r"^(?:[A-Za-z_][\w.]*[\[(]|!)")
_SESSION_NAMES = frozenset({"session", "sessionid", "sid", "cookie"})
# Every name above holds one of these: a text without any has no NAME=secret in it.
_SECRET_NAME_STEMS = (
    "pass",
    "pwd",
    "secret",
    "token",
    "key",
    "auth",
    "sess",
    "sid",
    "cookie",
    "sig",
    "credential",
    "bearer",
    "mk",
    "matkhau",
)
_UUID = re.compile(r"(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _assignments(text, lowered):
    """``db_password: "…"``, ``DOPPLER_TOKEN=…``, ``AccountKey=…;``, ``sessionid=…``: a value given to a
    name that says it is a secret."""
    if ("=" not in text and ":" not in text) or not _has_any(lowered, _SECRET_NAME_STEMS):
        return
    position = 0
    while match := _ASSIGNMENT.search(text, position):
        parts = _name_parts(match["name"])
        group = "quoted" if match["quoted"] else "value"
        # "committed: SECRET_KEY = '…'": what looked like a value may be the next name.
        position = match.start(group) if group == "value" else match.end()
        value = match[group] if group == "quoted" else match[group].rstrip(_TRAILING)
        if parts & _HARMLESS_NAMES or value.startswith("//") or _NOT_A_VALUE.match(value):
            continue
        if _PLACEHOLDER.match(value) or value.startswith(("$", "%")) or _published_example(value):
            continue
        start = match.start(group)
        if parts & _PASSWORD_NAMES and (match["quoted"] or _strong_value(value)):
            yield _finding(PASSWORD, start, start + len(value))
        elif parts & _CREDENTIAL_NAMES and len(value) >= 12 and not _UUID.match(value) and _credential_like(value):
            yield _finding(ACCESS_TOKEN if parts & _SESSION_NAMES else API_KEY, start, start + len(value))


# "Authorization: Basic dXNlcjpwYXNz": a login and its password, base64-encoded.
_BASIC = re.compile(r"\bBasic\s+(?P<value>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")


def _basic_credentials(text, lowered):
    if "basic" not in lowered:
        return
    for match in _BASIC.finditer(text):
        try:
            decoded = base64.b64decode(match["value"] + "=" * (-len(match["value"]) % 4), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            continue
        if ":" in decoded and decoded.isprintable():
            yield _finding(PASSWORD, match.start("value"), match.end("value"))


# A webhook URL is its own credential: whoever has it may post. Its secret is the path after "hooks".
_WEBHOOK = re.compile(
    r"https?://[^\s/]*(?:hook)[^\s/]*(?:/[^\s/?#]+)+|https?://[^\s]+?/(?:api/)?webhooks?/[^\s/?#]+(?:/[^\s/?#]+)+",
    re.IGNORECASE,
)


def _webhooks(text, lowered):
    if "hook" not in lowered:
        return
    for match in _WEBHOOK.finditer(text):
        url = match.group().rstrip(_TRAILING)
        path = url.split("://", 1)[1].split("/", 1)[1] if "/" in url.split("://", 1)[1] else ""
        segments = [segment for segment in path.split("/") if segment]
        # Documentation pages about webhooks have words for segments; a hook's own path has ids.
        if len(segments) >= 2 and sum(any(c.isdigit() for c in segment) for segment in segments) >= 1:
            yield _finding(ACCESS_TOKEN, match.start(), match.start() + len(url))


# A vendor's prefix and a random tail: gsk_…, lin_api_…, pypi-…, dop_v1_…, r8_…, shpat_…, dp.pt.…
_PREFIXED = re.compile(
    r"(?<![\w.-])[a-z][a-z0-9]{1,9}(?:[_.-][a-z0-9]{1,8}){0,2}[_.-](?P<tail>[A-Za-z0-9]{20,})(?![\w-])"
)


_TAIL = re.compile(r"[_.-][A-Za-z0-9]{20}")


def _prefixed_tokens(text, lowered):
    if not _TAIL.search(text):
        return
    for match in _PREFIXED.finditer(text):
        if _random_looking(match["tail"], min_entropy=3.8):
            yield _finding(API_KEY, match.start(), match.end())


# Three random-looking parts joined by dots, like a Discord bot token (a JWT starts with "eyJ").
_DOTTED = re.compile(r"(?<![\w.-])[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}(?![\w.-])")


def _dotted_tokens(text, lowered):
    if text.count(".") < 2:
        return
    for match in _DOTTED.finditer(text):
        if _random_looking(match.group().replace(".", ""), min_entropy=4.0):
            yield _finding(ACCESS_TOKEN, match.start(), match.end())


# A key spaced out into short chunks for reading, or over several lines: joined again, it is a key.
_CHUNKS = re.compile(r"(?<![\w-])(?:[A-Za-z0-9_+/=-]{2,12}[ \t]*(?:\n|[ \t])[ \t]*){3,}[A-Za-z0-9_+/=-]{1,12}(?![\w-])")
_LINES = re.compile(r"(?<![\w-])[A-Za-z0-9_-]{16,}(?:[ \t]*\n[ \t]*[A-Za-z0-9_-]{12,})+")


# A letter beside a digit: a spaced-out key has several; prose has few or none.
_LETTER_DIGIT = re.compile(r"[A-Za-z]\d|\d[A-Za-z]")


def _digit_count(text):
    return sum(map(text.count, "0123456789"))  # ten C-level counts: a regex costs several times more


def _spaced_tokens(text, lowered):
    patterns = []
    if _digit_count(text) >= 3 and len(_LETTER_DIGIT.findall(text)) >= 3:
        patterns.append(_CHUNKS)
    if "\n" in text:
        patterns.append(_LINES)
    for pattern in patterns:
        for match in pattern.finditer(text):
            chunks = match.group().split()
            joined = "".join(chunks)
            if len(joined) < 24 or not _random_looking(joined, min_entropy=4.2):
                continue
            # Cut for reading, a key comes in pieces of one length (the last may be shorter); words and
            # numbers that happen to sit side by side do not.
            if pattern is _CHUNKS:
                lengths = Counter(len(chunk) for chunk in chunks[:-1])
                length, count = lengths.most_common(1)[0]
                if length < 3 or count < (len(chunks) - 1) * 0.75:
                    continue
            yield _finding(API_KEY, match.start(), match.end())


# Digits said in words (a voice note, a call): "năm hai chín một, bốn hai tám chín", "five two nine one".
_DIGIT_WORDS = {
    "zero": "0",
    "oh": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "không": "0",
    "khong": "0",
    "linh": "0",
    "một": "1",
    "mot": "1",
    "mốt": "1",
    "hai": "2",
    "ba": "3",
    "bốn": "4",
    "bon": "4",
    "tư": "4",
    "năm": "5",
    "nam": "5",
    "lăm": "5",
    "sáu": "6",
    "sau": "6",
    "bảy": "7",
    "bay": "7",
    "tám": "8",
    "tam": "8",
    "chín": "9",
    "chin": "9",
}
_SPOKEN = re.compile(
    r"(?<!\w)(?:(?:" + "|".join(sorted(map(re.escape, _DIGIT_WORDS), key=len, reverse=True)) + r")(?!\w)[\s,.-]*){4,}"
)
_SPOKEN_SECRET_BEFORE = re.compile(
    r"(?i)(?:password|passcode|mật khẩu|mat khau|mật mã|mk|pass|pin|otp|mã|code|két|safe)\W+(?:\w+\W+){0,6}$"
)


def _spoken_numbers(text, lowered):
    if lowered.count(" ") < 3 or sum(map(_DIGIT_WORDS.__contains__, lowered.split())) < 3:
        return
    for match in _SPOKEN.finditer(lowered):
        digits = "".join(_DIGIT_WORDS[word] for word in re.findall(r"\w+", match.group()))
        end = match.start() + len(match.group().rstrip(" ,.-"))
        if 13 <= len(digits) <= 19 and luhn.is_valid(digits) and _CARD_PREFIX.match(digits):
            yield _finding(CARD_NUMBER, match.start(), end)
        elif _SPOKEN_SECRET_BEFORE.search(lowered, max(0, match.start() - 60), match.start()):
            yield _finding(PIN if len(digits) <= 8 else PASSWORD, match.start(), end)


# A two-factor setup key: base32, often in groups of four, after "setup key", "2FA", "authenticator".
_TWO_FACTOR_WORDS = re.compile(
    r"(?i)setup key|secret key|2fa|two-factor|authenticator|totp|otpauth|mã bí mật|khóa thiết lập|khoá thiết lập|"
    r"mã thiết lập|xác thực 2 lớp|xác thực hai lớp"
)
# Upper case, or lower case as Google shows it ("xti4 hzug qd75 wmth"); not both in one key.
_BASE32 = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:[A-Z2-7]{4}[ -]?){3,}[A-Z2-7]{2,8}|(?:[a-z2-7]{4}[ -]?){3,}[a-z2-7]{2,8})(?![A-Za-z0-9])"
)


_TWO_FACTOR_NEEDLES = (
    "setup key",
    "secret key",
    "2fa",
    "two-factor",
    "authenticator",
    "totp",
    "otpauth",
    "bí mật",
    "thiết lập",
    "xác thực",
)


def _two_factor_secrets(text, lowered):
    if not _has_any(lowered, _TWO_FACTOR_NEEDLES):
        return
    for said in _TWO_FACTOR_WORDS.finditer(text):
        for match in _BASE32.finditer(text, said.end(), min(len(text), said.end() + 120)):
            value = re.sub(r"[ -]", "", match.group())
            if len(value) >= 16 and sum(c.isdigit() for c in value) >= 2 and sum(c.isalpha() for c in value) >= 8:
                yield _finding(TWO_FACTOR_SECRET, match.start(), match.end())
                break


# A ~/.pgpass line: host:port:database:user:password.
_PGPASS = re.compile(r"(?m)(?:^|\s)[\w.*-]+:(?:\d{2,5}|\*):[\w*.-]+:[\w*.@-]+:(?P<secret>\S{4,})(?=\s|$)")
# A MAC address (3C:84:6A:1F:92:D0) or an IPv6 one has the colons of such a line and is not one.
_HEX_PAIRS = re.compile(r"[0-9A-Fa-f]{1,4}(?::+[0-9A-Fa-f]{1,4}){4,}")


def _pgpass_lines(text, lowered):
    if text.count(":") < 4:
        return
    for match in _PGPASS.finditer(text):
        if _strong_value(match["secret"]) and not _HEX_PAIRS.fullmatch(match.group().strip().rstrip(_TRAILING)):
            yield _finding(PASSWORD, match.start("secret"), match.end("secret"))


# A row of a browser's password export: …,https://site/login,username,password,…
_CREDENTIAL_ROW = re.compile(
    r"https?://[^\s,\"]+\"?\s*,\s*\"?(?P<user>[^\",\s]+)\"?\s*,\s*\"?(?P<secret>[^\",\s]{4,})\"?(?=\s*(?:,|$))",
    re.MULTILINE,
)


def _credential_rows(text, lowered):
    if "," not in text or "://" not in text:
        return
    for match in _CREDENTIAL_ROW.finditer(text):
        if _strong_value(match["secret"]) and "://" not in match["secret"]:
            yield _finding(PASSWORD, match.start("secret"), match.end("secret"))


# A password given without its name, in a text about logging in: "tài khoản Shopee mình đặt là
# Bichngoc!93", "my Netflix login is … and it's Sunflower#2207". Shaped as password rules ask: upper
# and lower case, a digit and a symbol other than the ones names and versions use ("-", ".", "_", "'").
_LOGIN_WORDS = re.compile(
    r"\b(?:log ?in|logins?|sign ?in|accounts?|acct|credentials?|tài khoản|tai khoan|tk|đăng nhập|dang nhap)\b"
)
_LOGIN_NEEDLES = ("log", "sign", "account", "acct", "credential", "tài khoản", "tai khoan", "tk", "đăng nhập", "dang")
_SYMBOL = re.compile(r"[!@#$%^&*+=?~|<>\\]")
_EMAIL = re.compile(r"[^@\s]+@[\w-]+(?:\.[\w-]+)+")


def _unnamed_passwords(text, lowered):
    if not _SYMBOL.search(text) or not _has_any(lowered, _LOGIN_NEEDLES) or not _LOGIN_WORDS.search(lowered):
        return
    for token in _TOKEN.finditer(text):
        start, end, _ = _clean_value(text, token.start(), token.end())
        value = text[start:end]
        if (
            8 <= len(value) <= 64
            and value.isascii()
            and _SYMBOL.search(value)
            and any(c.isupper() for c in value)
            and any(c.islower() for c in value)
            and any(c.isdigit() for c in value)
            and not value.startswith(("@", "/", "~", "."))
            and "://" not in value
            and not _EMAIL.fullmatch(value)
        ):
            yield _finding(PASSWORD, start, end)


def _has_any(text, needles):
    for needle in needles:  # a plain loop: any() over a generator costs more than the searches
        if needle in text:
            return True
    return False


def _shapes(text, lowered):
    for kind, needles, pattern in _SHAPES:
        if not _has_any(lowered, needles):
            continue
        groups = pattern.groupindex
        for match in pattern.finditer(text):
            if "strong" in groups and not _strong_value(match["strong"]):
                continue
            if "password" in groups and _PLACEHOLDER.match(match["password"]):
                continue
            group = "secret" if "secret" in groups else "strong" if "strong" in groups else 0
            yield _finding(kind, *match.span(group))


# A long token mixing upper case, lower case and digits with the spread of a random string, outside a
# URL (whose paths hold document ids): a key pasted without saying what it is.
# Percent-escapes and dots may sit inside one ("s%3Aqfu8ZC9z….fvWFjlkR…", a signed session cookie).
_LONG_TOKEN = re.compile(r"(?<![\w/.=?&%-])[A-Za-z0-9_+-](?:[A-Za-z0-9_+%.-]{30,})[A-Za-z0-9_+-]={0,2}(?![\w/.=])")
_URL = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\bwww\.\S+")


def _entropy(value):
    counts = Counter(value)
    length = len(value)
    return -sum(n / length * math.log2(n / length) for n in counts.values())


def _random_looking(value, min_entropy=4.0):
    upper = sum(c.isupper() for c in value)
    lower = sum(c.islower() for c in value)
    digits = sum(c.isdigit() for c in value)
    return upper >= 2 and lower >= 2 and digits >= 2 and _entropy(value) >= min_entropy


def _long_tokens(text, lowered):
    urls = None
    for match in _LONG_TOKEN.finditer(text):
        if not _random_looking(match.group()):
            continue
        if urls is None:
            urls = [m.span() for m in _URL.finditer(text)]
        if any(start <= match.start() < end for start, end in urls):
            continue
        yield _finding(API_KEY, match.start(), match.end())


# ---------------------------------------------------------------------------------------------------
# Numbers: cards (Luhn and a card network's prefix), IBANs (ISO 7064 check digits)

_CARD_SEPARATOR = re.compile(r"[ .-]")
_CARD = re.compile(r"(?<![\d.,/-])\d(?:[ .-]?\d){12,18}(?![\d/]|[.,-]\d)")
# Said to be a card: then any grouping counts ("55695 247128 65 626"), not only a card's own.
_CARD_WORDS = re.compile(
    r"(?i)\b(?:cards?|visa|master ?card|amex|american express|jcb|unionpay|discover|diners|maestro|napas|"
    r"thẻ|the visa|so the|số thẻ|cvv|cvc|cid|exp(?:iry|ires)?|hết hạn|het han)\b"
)
# Issuer prefixes of the networks people carry cards of (Visa, Mastercard, Amex, Discover, JCB,
# UnionPay, Diners, Maestro, NAPAS in Vietnam): a Luhn-valid order number seldom starts like one.
_CARD_PREFIX = re.compile(r"4|5[1-5]|2[2-7]|3[47]|6011|6[45]|35|62|30|36|38|50|5[6-9]|6[0-9]|9704")
_CARD_CONTEXT_NOT = re.compile(
    r"(?i)(?:order|invoice|tracking|đơn hàng|don hang|mã đơn|ma don|vận đơn|hóa đơn|hoá đơn|ticket|"
    r"booking|phone|điện thoại|sđt|sdt|isbn|imei|serial|mst|mã số thuế|cccd|cmnd)\W*(?:\w+\W+){0,3}$"
)


# A device's own number (IMEI, serial) passes Luhn by design: named so, it is not a card.
_DEVICE_NUMBER = re.compile(r"(?i)\b(?:imei|meid|serial|s/n|số seri|số serial)\b")


def _card_grouping(number):
    """Written as cards are: in one piece, in fours (the last group shorter), or 4-6-5/4-6-4 (Amex,
    Diners) -- not any run of numbers that happens to add up to 16 digits."""
    groups = _CARD_SEPARATOR.split(number)
    lengths = [len(group) for group in groups]
    return (
        len(groups) == 1
        or (all(n == 4 for n in lengths[:-1]) and 1 <= lengths[-1] <= 4)
        or lengths in ([4, 6, 5], [4, 6, 4])
    )


def _cards(text, lowered):
    for match in _CARD.finditer(text):
        digits = _CARD_SEPARATOR.sub("", match.group())
        if not 13 <= len(digits) <= 19 or not _CARD_PREFIX.match(digits):
            continue
        said = _CARD_WORDS.search(text, max(0, match.start() - 40), min(len(text), match.end() + 40))
        if not said and not _card_grouping(match.group()):
            continue
        if not luhn.is_valid(digits):
            continue
        if _CARD_CONTEXT_NOT.search(text[max(0, match.start() - 40) : match.start()]):
            continue
        if not said and _DEVICE_NUMBER.search(text, max(0, match.start() - 80), match.start()):
            continue
        yield _finding(CARD_NUMBER, match.start(), _card_details_end(text, match.end()))


# What goes with a card number and is as secret: its expiry and its security code, just after it.
_CARD_DETAIL = re.compile(
    r"(?i)\W{0,4}(?:(?:exp(?:iry|ires|\.)?|valid thru|hết hạn|het han|hsd|hạn)\W{0,3}\d{1,2}\s*[/-]\s*\d{2,4}"
    r"|(?:cvv2?|cvc2?|cid|csc|mã bảo mật|ma bao mat|mã cvv)\W{0,3}\d{3,4}|\d{1,2}/\d{2}(?!\d))"
)


def _card_details_end(text, end):
    """Where a card number's details end: its expiry and CVV, when they follow it."""
    for _ in range(3):
        detail = _CARD_DETAIL.match(text, end)
        if detail is None:
            break
        end = detail.end()
    return end


_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")


def _iban_checks(value, said):
    """Its check digits (ISO 7064 mod 97) hold and, unless the text says IBAN, its country's layout."""
    try:
        if said:
            number = iban.compact(value)
            mod_97_10.validate(number[4:] + number[:4])
        else:
            iban.validate(value)
    except ValidationError:
        return False
    return True


def _ibans(text, lowered):
    said = "iban" in lowered
    for match in _IBAN.finditer(text):
        if _iban_checks(match.group(), said):
            yield _finding(IBAN, match.start(), match.end())


# ---------------------------------------------------------------------------------------------------
# Seed phrases: twelve or more words of the BIP-39 list in a row


@lru_cache(maxsize=1)
def _bip39():
    return Mnemonic("english")


@lru_cache(maxsize=1)
def _bip39_words():
    return frozenset(_bip39().wordlist)


def _checksummed(words):
    """The first run of 24, 21, 18, 15 or 12 of ``words`` (a run of the list's words) whose BIP-39 checksum
    holds, as ``(first, last)`` indexes: a wallet's phrase always has it, twelve words of a list seldom
    do (one time in sixteen)."""
    for length in (24, 21, 18, 15, 12):
        for first in range(len(words) - length + 1):
            if _bip39().check(" ".join(words[first : first + length])):
                return first, first + length - 1
    return None


_WORD_RUN = re.compile(r"(?:\b[a-z]{3,8}\b[\s,;.-]+(?:\d{1,2}[.)]?\s+)?){11,}[a-z]{3,8}\b")
_RUN_WORD = re.compile(r"[a-z]{3,8}")
# Said, just before or just after, to be a wallet's words.
_SEED_CONTEXT = re.compile(
    r"(?i)\b(?:seed|recovery|mnemonic|backup|wallet|ledger|trezor|metamask|phantom|exodus|secret (?:phrase|words?))\b|"
    r"cụm từ (?:khôi phục|bí mật|hạt giống)|từ khóa khôi phục|cum tu khoi phuc|\bví\b|(?:12|24) từ(?! vựng)"
)


def _seed_phrases(text, lowered):
    if text.count(" ") < 11:
        return
    for match in _WORD_RUN.finditer(text):
        words = list(_RUN_WORD.finditer(match.group()))
        known = _bip39_words()
        said = _SEED_CONTEXT.search(text, max(0, match.start() - 60), min(len(text), match.end() + 40))
        start = run = 0
        best = None
        for index, word in enumerate(words):
            if word.group() in known:
                if run == 0:
                    start = index
                run += 1
                if run >= 12:
                    best = (start, index)
            else:
                run = 0
        # Twelve words of the list, not said to be a seed, must carry a seed's checksum.
        if best is not None and not said:
            window = _checksummed([word.group() for word in words[best[0] : best[1] + 1]])
            best = None if window is None else (best[0] + window[0], best[0] + window[1])
        # After "seed phrase:" a few words off the list (a typo, another language's list) still count.
        if best is None and said and sum(w.group() in known for w in words) >= len(words) * 3 // 4:
            best = (0, len(words) - 1)
        if best is not None:
            yield _finding(SEED_PHRASE, match.start() + words[best[0]].start(), match.start() + words[best[1]].end())


# ---------------------------------------------------------------------------------------------------
# Secrets recognisable by what is said before them: "mật khẩu là ...", "STK ...", "OTP ..."

_PASSWORD_WORDS = (
    r"passwords?|passwd|passphrase|passcode|pwd|pw|pass|mật khẩu|mat khau|mật mã|mat ma|mk|"
    r"mã mở khóa|mã mở khoá|unlock code"
)
_PIN_WORDS = (
    r"pin code|pin number|mã pin|ma pin|số pin|mã số pin|door code|gate code|alarm code|lock code|"
    r"safe code|keypad code|mã cửa|ma cua|mã khóa cửa|mã khoá cửa|mã két|ma ket|mã cổng|ma cong|"
    r"mở bằng mã|mo bang ma|mở khóa bằng mã|mở khoá bằng mã|opens? with (?:the )?code|unlocks? with (?:the )?code|"
    r"mã khóa màn hình|mã khoá màn hình|mã màn hình|screen ?lock(?: code| pin)?|lock ?screen (?:code|pin)|"
    r"passcode|mã mở máy|mật mã điện thoại|"
    r"(?:garage|locker|padlock|lockbox|key ?safe|entry|access|building door|front door) code|"
    r"code (?:for|to|of) (?:the |my |our |your )?(?:garage|gate|door|front door|back door|safe|alarm|locker|"
    r"padlock|lockbox|storage unit|shed|apartment|flat|house)|"
    r"mã mở (?:cửa|cổng|két|tủ)|ma mo (?:cua|cong|ket|tu)|mã tủ|mã két sắt|"
    # An ATM card's code: "thẻ ATM của mẹ mã là 7391".
    r"(?:thẻ atm|the atm|atm card|debit card|thẻ ghi nợ)[^.;!?\d]{0,30}?(?:mã|ma|code|số)(?= là| la| is|:)"
)
_OTP_WORDS = (
    r"otp|mã xác thực|mã xác minh|mã xác nhận|ma xac thuc|ma xac nhan|mã kích hoạt|"
    r"verification code|security code|confirmation code|one[- ]time (?:code|password|passcode)|"
    r"2fa code|auth code|login code|sign-in code|mã đăng nhập|mã bảo mật"
)
_BACKUP_CODE_WORDS = r"backup codes?|recovery codes?|mã dự phòng|mã khôi phục"
_BANKS = (
    r"vietcombank|vcb|techcombank|tcb|vietinbank|bidv|agribank|acb|mb|mbbank|mb bank|tpbank|vpbank|"
    r"sacombank|hdbank|shb|vib|ocb|msb|seabank|eximbank|scb|lpbank|nam a bank|hsbc|citibank|chase"
)
_ACCOUNT_WORDS = (
    r"stk|số tài khoản|so tai khoan|số tk|tài khoản ngân hàng|tk ngân hàng|"
    r"account (?:number|no\.?|#)|acct\.? ?(?:no\.?|number|#)|bank account|"
    rf"(?:tài khoản|tk|account)\s+(?:{_BANKS})|(?:{_BANKS})\s+(?:account|acct)"
)
_KEY_WORDS = (
    r"api[_ -]?keys?|apikey|access[_ -]?keys?(?:[_ -]id)?|secret[_ -]?(?:access[_ -]?)?keys?|secrets?|"
    r"tokens?|access[_ -]?tokens?|auth[_ -]?tokens?|refresh[_ -]?tokens?|client[_ -]?secret|keys?|"
    r"khóa(?: api| bí mật)?|khoá(?: api| bí mật)?|mã truy cập|mã bí mật|webhook secret|signing secret"
)
# A keyword inside a URL or a word ("?q=password+manager", "1Password", "passport") is not one.
_BEFORE = r"(?<![\w/=?&+.-])"
_AFTER = r"(?=[\s:=\"'.,]|$)"
# Searched in the lower-cased text (a case-insensitive search is several times slower), each only when
# one of its stems is there at all; only "PIN" in capitals is told apart from "pin" (the memory action)
# in the text itself.
_KEYWORDS = [
    (
        "otp",
        ("otp", "mã", "ma xac", "code", "one-time", "one time", "2fa"),
        re.compile(rf"\b(?<!-)(?:{_OTP_WORDS})(?![\w-])"),
    ),
    (
        "backup",
        ("backup", "recovery", "dự phòng", "khôi phục"),
        re.compile(rf"\b(?<!-)(?:{_BACKUP_CODE_WORDS})(?![\w-])"),
    ),
    (
        "password",
        ("pass", "pw", "mk", "mật", "mat ", "mã mở", "unlock"),
        re.compile(rf"\b{_BEFORE}(?:{_PASSWORD_WORDS}){_AFTER}"),
    ),
    (
        "pin",
        ("pin", "code", "mã", "ma pin", "ma cua", "ma ket", "ma cong", "mo bang", "ma mo", "số", "lock", "mật mã"),
        re.compile(rf"\b(?<!-)(?:{_PIN_WORDS})(?![\w-])"),
    ),
    (
        "account",
        ("stk", "số", "so tai", "tk", "tài khoản", "account", "acct"),
        re.compile(rf"\b(?<!-)(?:{_ACCOUNT_WORDS})(?![\w-])"),
    ),
    # A bank's name with a long number right after it: "ck qua techcombank 19036625184017".
    (
        "bank",
        ("bank", "vcb", "tcb", "bidv", "acb", "mb", "shb", "vib", "ocb", "msb", "scb", "chase"),
        re.compile(rf"\b(?<!-)(?:{_BANKS})(?![\w-])"),
    ),
    # "account 483920174" in a text about moving money.
    (
        "banking",
        ("account", "acct", "tài khoản", "tai khoan", "tk"),
        re.compile(r"\b(?<!-)(?:account|acct|tài khoản|tai khoan|tk)(?![\w-])"),
    ),
    # Variable names count: OPENAI_API_KEY=..., aws_secret_access_key = ...
    (
        "key",
        ("key", "secret", "token", "khóa", "khoá", "mã truy", "mã bí"),
        re.compile(rf"(?<![a-z0-9-])(?:{_KEY_WORDS})(?![a-z0-9-])"),
    ),
]
# Their values are digits: in a text without one they cannot be there.
_DIGIT_KINDS = frozenset({"otp", "pin", "account", "bank", "banking"})
_A_DIGIT = re.compile(r"\d")
_PIN_IN_CAPITALS = re.compile(r"(?<![\w-])PIN(?![\w-])")
# "pass" is also an everyday word: a boarding pass, a bus pass.
_NOT_PASSWORD_BEFORE = re.compile(r"(?i)(?:boarding|bus|season|day|hall|free|mountain|back|ski)\s+$")

_TOKEN = re.compile(r"\S+")
_SEPARATOR_WORDS = frozenset(
    {
        "is",
        "was",
        "=",
        ":",
        "-",
        "->",
        "=>",
        "là",
        "la",
        "are",
        "is:",
        "là:",
        "=:",
        "'s",
        "’s",
        "thành",
        "thanh",
    }
)
# Words between a separator and the value: "was changed to ...", "giờ đổi thành ...".
_TRANSITIONS = frozenset(
    fold(w)
    for w in """
    changed set updated reset now to still currently become becomes giờ bây đã đổi thành sang vẫn hiện
    ngày sinh birthday sđt
""".split()
)
# Words that may stand between the keyword and the value: "mật khẩu wifi 12345678", "mk fb: ...".
_QUALIFIERS = frozenset(
    fold(w)
    for w in """
    wifi wi-fi email e-mail gmail mail fb facebook zalo instagram ig tiktok admin root router modem
    laptop computer phone máy tính điện thoại ngân hàng bank app account tài khoản tk cũ mới new old my
    the our his her their của tôi mình em anh chị ấy bạn mẹ bố ba vợ chồng con nhà home office công ty
    vps server db database ssh sudo github gitlab aws icloud apple google outlook netflix shopee momo
    zalopay vcb vietcombank techcombank tcb mb acb bidv vietinbank tpbank vpbank sacombank agribank atm
    thẻ card login đăng nhập user for of
""".split()
)
# Lower-case words that follow "password is" in talk about passwords, not in telling one.
_NOT_VALUES = frozenset(
    fold(w)
    for w in """
    required needed optional mandatory weak strong stored saved kept incorrect wrong correct expired
    changed reset the a an not too very still now being in on at managed shared long short secure
    insecure encrypted hashed same different valid invalid empty set missing and or but also only just
    hidden protected secret private safe unsafe ok okay fine good bad easy hard simple complex forgotten
    lost leaked compromised rotated updated used reused unique random generated temporary default
    case sensitive locked unlocked enabled disabled visible managers manager policy policies rules
    length format field prompt reminder hint sharing change changes rotation expiry expiration
    for with from by of to about this that these those it its something anything nothing what which
    how why when where who please here there above below later soon tomorrow today yesterday
""".split()
)
_TRAILING = ".,;!?)]}'\"”’"
_LEADING = "([{'\"“‘`"
_DATE_LIKE = re.compile(
    r"^(?:\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{1,2}:\d{2}(?::\d{2})?|\d{1,2}h\d{0,2}|v?\d+(?:\.\d+)+|"
    r"\d+(?:%|k|m|h|d|s|ms|gb|mb|kb|px|am|pm|st|nd|rd|th|x|chars?|characters|digits?|phút|giờ|ngày))$",
    re.IGNORECASE,
)


def _keyword_secrets(text, lowered):
    if len(lowered) != len(text):  # a few letters lower-case to two characters: keep the offsets right
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    digits = _A_DIGIT.search(text) is not None
    matches = [
        (kind, match.start(), match.end())
        for kind, stems, pattern in _KEYWORDS
        if (digits or kind not in _DIGIT_KINDS) and _has_any(lowered, stems)
        for match in pattern.finditer(lowered)
    ]
    if "PIN" in text:
        matches.extend(("pin", m.start(), m.end()) for m in _PIN_IN_CAPITALS.finditer(text))
    for kind, start, end in matches:
        if kind == "password" and _NOT_PASSWORD_BEFORE.search(text[max(0, start - 12) : start]):
            continue
        finding = _VALUE_AFTER[kind](text, end)
        if finding is not None:
            yield finding


def _tokens_after(text, position, limit):
    """Up to ``limit`` (start, end, token) after ``position``."""
    tokens = []
    for token in _TOKEN.finditer(text, position, min(len(text), position + 160)):
        tokens.append((token.start(), token.end(), token.group()))
        if len(tokens) == limit:
            break
    return tokens


def _split_separator(text, start, end):
    """A token may carry its separator: "mk:abc123", "pass=abc123", "phê:" -> (value start, end, had)."""
    token = text[start:end]
    if token.endswith(":"):
        return end, end, True
    for separator in (":=", "=", ":"):
        head, found, _ = token.partition(separator)
        if found and (not head or fold(head) in _QUALIFIERS):
            return start + len(head) + len(found), end, True
    return start, end, False


def _clean_value(text, start, end):
    """The value without quotes or the sentence's punctuation around it."""
    quoted = start < end and text[start] in _LEADING
    while start < end and text[start] in _LEADING:
        start += 1
    while end > start and text[end - 1] in _TRAILING:
        end -= 1
    return start, end, quoted


# What documentation puts where a password goes: PASSWORD, <password>, ${DB_PASSWORD}, {{ token }}, ****.
_PLACEHOLDER = re.compile(
    r"(?i)^(?:\$\{?\w+\}?|<[^>]*>?|\{\{?[^}]*\}?\}?|%\(\w+\)s|[*x•.]{3,}|"
    r"(?:your[_-]?|my[_-]?|db[_-]?)?(?:password|passwd|pass|pwd|secret|token|mật[_ ]?khẩu)s?)$"
    r"|^(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$"
)


def _strong_value(value):
    """Shaped like a password: digits, symbols or mixed case, and not a date, time, version or a
    placeholder."""
    if len(value) < 4 or not value.isascii() or _DATE_LIKE.match(value) or _PLACEHOLDER.match(value):
        return False
    return (
        any(c.isdigit() for c in value)
        or any(not c.isalnum() for c in value)
        or (any(c.isupper() for c in value[1:]) and any(c.islower() for c in value))
    )


_PIECES = re.compile(r"[-_.]+")
_YEAR = re.compile(r"(?:19|20)\d\d")


def _bare_password_like(value):
    """Without "is" or ":" the value must look the part: "pass wifi 88889999", "password letmein99",
    not "pass --dry-run", "passwords for 2FA-enabled accounts", "password of user-123", "for 2026"."""
    if value.startswith("-") or _YEAR.fullmatch(value):
        return False
    if not _PIECES.search(value):
        return True
    if any(not c.isalnum() and c not in "-_." for c in value):
        return True
    return any(
        len(piece) >= 4 and any(c.isalpha() for c in piece) and any(c.isdigit() for c in piece)
        for piece in _PIECES.split(value)
    )


# "set the router password to ...": after these verbs "to" introduces the value.
_SET_BEFORE = re.compile(r"(?i)\b(?:set|sets|change|changed|changes|reset|update|updated)\b[^.;!?]{0,40}$")


def _password_after(text, position):
    if text.startswith(",", position):  # a list of field names: "username,password,note"
        return None
    separated = False
    words = 0  # words before the separator that are not qualifiers
    transitions = 0
    for start, end, token in _tokens_after(text, position, 10):
        start, end, carried = _split_separator(text, start, end)
        if carried:
            separated = True
            if start == end:
                continue
        token = text[start:end]
        folded = fold(token)
        if not carried and (
            folded in _SEPARATOR_WORDS
            or (folded == "to" and not separated and _SET_BEFORE.search(text, max(0, position - 60), position))
        ):
            separated = True
            continue
        value_start, value_end, quoted = _clean_value(text, start, end)
        value = text[value_start:value_end]
        if separated:
            if (quoted and len(value) >= 4) or _strong_value(value):
                return _finding(PASSWORD, value_start, value_end)
            clause_end = value_end == len(text) or text[value_end] in _TRAILING
            if (
                not words
                and not transitions
                and clause_end
                and len(value) >= 4
                and value.isascii()
                and value.isalpha()
                and fold(value) not in _NOT_VALUES
            ):
                return _finding(PASSWORD, value_start, value_end)
            if folded in _TRANSITIONS and transitions < 2:
                transitions += 1
                continue
            return None
        if folded in _QUALIFIERS:
            continue
        if not words and _strong_value(value) and _bare_password_like(value):
            return _finding(PASSWORD, value_start, value_end)
        words += 1
        if words > 3 or token[-1:] in ".;!?":
            return None
    return None


# A code ends where its digits end: "0912 345 678" after "OTP sẽ gửi về số" is a phone number, not a code.
_DIGITS_VALUE = re.compile(r"[:=#]?\s*[*#]?(?<!\d )(?<!\d\.)(?<!\d-)(\d(?:[ .-]?\d){3,7})[*#]?(?![\d/:-]|[ .,-]\d)")
# Backup codes come in pairs of digit groups or letters and digits: 48213-99012, k7fd-29xq.
_BACKUP_CODE_VALUE = re.compile(r"[:=#]?\s*((?=[a-z]*\d)[A-Za-z0-9]{4,6}[ -]?[A-Za-z0-9]{4,6})(?![\w-])")
_ACCOUNT_VALUE = re.compile(r"[:=#]?\s*(\d(?:[ .-]?\d){5,22})(?![\d/:-]|[.,]\d)")
_LONG_ACCOUNT_VALUE = re.compile(r"[:=#]?\s*(\d(?:[ .-]?\d){7,22})(?![\d/:-]|[.,]\d)")
# Moving money: where "account 483920174" is a bank account, not a customer or a game account.
_BANKING = re.compile(
    r"\b(?:wire|transfer|checking|savings|deposit|routing|swift|iban|bank|banking|chuyển khoản|chuyen khoan|ck|"
    r"chuyển tiền|chuyen tien|nhận tiền|ngân hàng|ngan hang)\b"
)


def _digits_after(kind, pattern, max_words):
    def find(text, position):
        for start, _, token in _tokens_after(text, position, max_words + 1):
            match = pattern.match(text, start)
            if match and not _DATE_LIKE.match(token.rstrip(_TRAILING)) and not _YEAR.fullmatch(match.group(1)):
                return _finding(kind, match.start(1), match.end(1))
            if token[-1:] in ".;!?" and not token[:-1].isdigit():
                return None
        return None

    return find


# A hotline ("Hotline Vietcombank 1900 545413", "OTP không tới, gọi tổng đài 1900 6060"): a service
# number, or said to be a phone.
_SERVICE_NUMBER = re.compile(r"(?:1800|1900)")
_PHONE_BEFORE = re.compile(
    r"(?i)\b(?:hotline|tổng đài|tong dai|call|gọi|goi|phone|điện thoại|dien thoai|sđt|sdt|liên hệ)\b"
)


def _not_a_phone(find):
    def find_not_a_phone(text, position):
        finding = find(text, position)
        if finding is None or _SERVICE_NUMBER.match(text, finding.start):
            return None
        if _PHONE_BEFORE.search(text, max(0, position - 40), finding.start):
            return None
        return finding

    return find_not_a_phone


def _in_banking_text(find):
    def find_in_banking_text(text, position):
        if not _BANKING.search(text.lower()):
            return None
        return find(text, position)

    return find_in_banking_text


_KEY_VALUE = re.compile(r"[A-Za-z0-9_+/=~.-]{16,}")
_SEGMENTS = re.compile(r"[-_/+=~.]+")


def _key_after(text, position):
    for start, end, _token in _tokens_after(text, position, 7):
        start, end, _ = _split_separator(text, start, end)
        start, end, _ = _clean_value(text, start, end)
        value = text[start:end]
        # A path ("~/.ssh/id_ed25519") says where a key is kept, not what it is.
        if _KEY_VALUE.fullmatch(value) and not value.startswith(("~", "/", "./", "../")) and _credential_like(value):
            return _finding(API_KEY, start, end)
    return None


def _credential_like(value):
    """Letters and digits mixed inside one piece: "a3f9c0de..." is, "claude-3-5-sonnet-20241022" and
    "my_api_key_2024" (words and numbers side by side) are not."""
    mixed = any(any(c.isalpha() for c in piece) and any(c.isdigit() for c in piece) for piece in _SEGMENTS.split(value))
    return mixed and sum(c.isdigit() for c in value) >= 2 and _entropy(value) >= 3.0


_VALUE_AFTER = {
    "password": _password_after,
    "pin": _digits_after(PIN, _DIGITS_VALUE, 6),
    # An SMS often says what the code is for before the code: "Ma OTP giao dich ... la 482913".
    "otp": _not_a_phone(_digits_after(OTP, _DIGITS_VALUE, 14)),
    "backup": _digits_after(OTP, _BACKUP_CODE_VALUE, 12),
    "account": _digits_after(BANK_ACCOUNT, _ACCOUNT_VALUE, 6),
    "bank": _not_a_phone(_digits_after(BANK_ACCOUNT, _LONG_ACCOUNT_VALUE, 0)),
    "banking": _in_banking_text(_not_a_phone(_digits_after(BANK_ACCOUNT, _ACCOUNT_VALUE, 1))),
    "key": _key_after,
}

_DETECTORS = (
    _shapes,
    _long_tokens,
    _cards,
    _ibans,
    _seed_phrases,
    _keyword_secrets,
    _assignments,
    _basic_credentials,
    _webhooks,
    _prefixed_tokens,
    _dotted_tokens,
    _spaced_tokens,
    _spoken_numbers,
    _two_factor_secrets,
    _credential_rows,
    _pgpass_lines,
    _unnamed_passwords,
)
