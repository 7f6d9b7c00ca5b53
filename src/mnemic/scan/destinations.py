"""Destination identifiers in a memory entry, and whether it sets a standing rule about one
(scanner 18, issue 29).

Harm that reads as an ordinary preference or fact ("the vendor's new IBAN is ...", "the
usual delivery address", "both domains are ours", "also send the weekly report to ...")
carries few words an attacker must use, and those few differ in every language. What
every such note must carry is the **identifier itself**: the account, card, wallet,
e-mail address, domain or number that money, data, trust or replies are to go to. This
module finds those identifiers without reading any language, validates the ones that
carry a checksum (IBAN mod 97, card numbers by Luhn, US routing numbers, Base58Check and
bech32 wallet addresses: a valid checksum is evidence the string was copied from a real
account, not typed at random), and reads what the entry asks about them:

* a **payment identifier** (a valid IBAN, a Luhn-valid card number, a wallet address, a
  number written as an account with a bank code: sort code or IFSC, or a
  payment handle such as a UPI id) in an entry the intent layer reads as an instruction
  about it (paying, sending, replacing, "from now on", "without asking", a payee word) is
  a standing rule about where the user's money goes;
* **two identifiers of one kind**, one put in the other's place (the intent layer's
  ``swap``), is a replacement;
* a **look-alike**: a domain or e-mail domain a letter or two away from another one in
  the entry or in the rest of the store (``northline-logistics.co`` beside
  ``northllne-logistics.co``), or one that is another store domain's name with words
  added, is a trust relation a person should confirm;
* a **wildcard sender** (``*@some-domain``) trusts every address of a domain;
* a **contact destination** (e-mail address, phone number, domain) with the intent
  layer's ``swap``, or with ``send`` and a habit or persistence word, redirects replies,
  reports or account recovery.

Such an entry is **held** for a person with a reason that names the identifier ("asks
future sessions to pay to IBAN LT12 3250 …: confirm it is the user's own instruction"),
never blocked on this signal alone (:func:`standing` returns the reason; the pipeline
turns it into a hold). A record of a past fact that only names an identifier (a receipt,
a transfer that was made) is not held at level ``balanced``; at level ``strict`` every
payment identifier is asked about (:func:`payment_identifiers`), the policy a demanding
user may want (docs/scanner.md, "Scanner 18", gives its cost).

Pure Python, no network: a few regexes over the text and the intent layer's concept tags
(already computed for the entry).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ._lexicon_harm import _close  # one edit apart: the look-alike test of misspelt keys

__all__ = [
    "Identifier",
    "Standing",
    "identifiers",
    "iban_valid",
    "lookalike",
    "luhn_valid",
    "displaced",
    "hosts",
    "payment_identifiers",
    "routing_valid",
    "standing",
    "wallet_valid",
]

#: Kinds of identifier money goes to.
PAYMENT_KINDS = frozenset({"iban", "card", "wallet", "account", "payhandle"})
#: Kinds of identifier data, replies, trust or account recovery go to.
CONTACT_KINDS = frozenset({"email", "domain", "phone"})
_LABEL = {
    "iban": "IBAN",
    "card": "card number",
    "wallet": "wallet address",
    "account": "account number",
    "payhandle": "payment handle",
    "email": "e-mail address",
    "domain": "domain",
    "phone": "phone number",
}


class Identifier(NamedTuple):
    """One destination identifier: its ``kind``, the ``text`` as written, a ``key`` to
    compare it by (digits and letters only, lower case; the host for an address), where
    it is, and whether a checksum it carries holds (``None``: it carries none)."""

    kind: str
    text: str
    key: str
    start: int
    end: int
    valid: bool | None


class Standing(NamedTuple):
    """Why an entry is held: ``relation`` (payment, replacement, lookalike, wildcard,
    redirect) and a sentence a person can act on."""

    relation: str
    reason: str


# ---------------------------------------------------------------------------------------
# Checksums.


def _digits(text: str) -> str:
    """The digits of ``text`` in ASCII (any script's decimal digits)."""
    out = []
    for c in text:
        if c.isdigit():
            d = unicodedata.digit(c, -1)
            if d >= 0:
                out.append(str(d))
    return "".join(out)


def iban_valid(text: str) -> bool:
    """Whether ``text`` (spaces and dashes allowed) is an IBAN whose mod-97 check holds."""
    s = "".join(c for c in text.upper() if c.isalnum())
    if not 15 <= len(s) <= 34 or not s[:2].isalpha() or not s[2:4].isdigit():
        return False
    moved = s[4:] + s[:4]
    number = "".join(str(int(c, 36)) for c in moved if c.isascii())
    return len(number) >= len(moved) and int(number) % 97 == 1


def luhn_valid(digits: str) -> bool:
    """Whether the digit string passes the Luhn check (card numbers)."""
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = ord(c) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return len(digits) >= 2 and total % 10 == 0


def routing_valid(digits: str) -> bool:
    """Whether a nine-digit string passes the ABA routing-number check (3-7-1 weights)."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    w = (3, 7, 1) * 3
    return sum(int(c) * k for c, k in zip(digits, w, strict=True)) % 10 == 0


_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _bech32_polymod(values: Iterable[int]) -> int:
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk


def wallet_valid(address: str) -> bool:
    """Whether a Bitcoin address's checksum holds (Base58Check, or bech32 / bech32m for
    ``bc1``); an Ethereum ``0x`` address carries none that is always present: ``False``."""
    a = address.strip()
    if a.lower().startswith("bc1"):
        a = a.lower()
        hrp, _, data = a.rpartition("1")
        if not data or any(c not in _BECH32 for c in data) or len(data) < 7:
            return False
        values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
        values += [_BECH32.index(c) for c in data]
        return _bech32_polymod(values) in (1, 0x2BC830A3)
    if a[:1] in ("1", "3") and all(c in _B58 for c in a):
        n = 0
        for c in a:
            n = n * 58 + _B58.index(c)
        raw = n.to_bytes(25, "big") if n.bit_length() <= 200 else b""
        if len(raw) != 25:
            return False
        body, check = raw[:-4], raw[-4:]
        return hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check
    return False


# ---------------------------------------------------------------------------------------
# Finding identifiers.

_IBAN = re.compile(r"(?<![\w])[A-Z]{2}\d{2}(?:[ \-]?[A-Z0-9]){11,30}(?![\w])")
_WALLET = re.compile(
    r"(?<![\w])(?:bc1[a-z0-9]{6,87}(?:…[a-z0-9]{1,8})?|[13][1-9A-HJ-NP-Za-km-z]{25,34}"
    r"|0x[0-9a-fA-F]{40})(?![\w])"
)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?![\w-])", re.I)
# A payment handle: a name, "@" and a provider without a dot (UPI "name@okaxis").
_HANDLE = re.compile(r"(?<![\w.+-])[\w.-]{2,}@[a-z]{2,12}(?![\w.@-])", re.I)
_URL = re.compile(r"\b(?:https?|s?ftps?|ssh|wss?)://([^\s/\"'<>:?#]+)", re.I)
_WILDCARD = re.compile(r"\*@([a-z0-9-]+(?:\.[a-z0-9-]+)+)", re.I)
_TLD = (
    "com|net|org|io|co|app|dev|site|info|biz|xyz|me|cc|online|cloud|link|click|top|live|"
    "shop|store|support|help|services|group|email|pro|ru|cn|de|fr|it|nl|br|jp|kr|in|ua|"
    "tr|es|uk|eu|us|ch|at|be|se|no|fi|dk|pl|cz|sk|hu|ro|bg|hr|gr|pt|ie|lt|lv|ee|su|tk|to|"
    "ly|gg|st|id|my|vn|th|ph|sg|hk|tw|au|nz|za|ng|ke|mx|ar|cl|pe|il|ir|pk|bd|ae|sa|eg"
)
_BARE = re.compile(
    r"(?<![\w@./:-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:" + _TLD + r"))(?![\w-]|\.\w)",
    re.I,
)
# A run of digits read as one number: groups of 2-8 digits joined by one space, dash,
# dot or slash ("4471 0093 2281", "20-91-44", "2801445512/2010", "10140-55512231").
_DIGITS = r"[\d\u0660-\u0669\u06f0-\u06f9\u0966-\u096f\u09e6-\u09ef]"
_NUMBER = re.compile(
    rf"(?<![\w.,/+-])\+?{_DIGITS}{{2,}}(?:[ \-./]{_DIGITS}{{1,10}}){{0,6}}(?![\w]|[.,]\d)"
)
_SORT_CODE = re.compile(r"(?<![\w-])\d{2}-\d{2}-\d{2}(?![\w-])")
_IFSC = re.compile(r"(?<![\w])[A-Z]{4}0[A-Z0-9]{6}(?![\w])")
_DATE = re.compile(r"^\d{1,4}[-./]\d{1,2}[-./]\d{1,4}$")
_CARD_LENGTHS = range(13, 20)


# After "@" without a dot: a payment provider ("name@okaxis"), unless it is a host or a
# systemd template instance ("app@localhost", "wg-quick@home").
_NOT_PROVIDERS = frozenset({"localhost", "home", "host", "local", "server", "example"})


def _in_code(text: str, at: int) -> bool:
    """Whether ``at`` lies inside a `code span` or a URL (an odd number of backticks
    before it on its line, or "://" in the same word)."""
    line_start = text.rfind("\n", 0, at) + 1
    if text.count("`", line_start, at) % 2:
        return True
    word_start = max(text.rfind(" ", 0, at), text.rfind("\n", 0, at)) + 1
    return "://" in text[word_start:at]


def _host_key(host: str) -> str:
    return host.lower().rstrip(".").removeprefix("www.")


def identifiers(text: str) -> list[Identifier]:
    """Every destination identifier in ``text``, in order of position (IBANs, card
    numbers, wallets, account numbers, payment handles, e-mail addresses, domains and
    URLs' hosts, phone numbers). A bank code (a sort code, an IFSC) is an ``account``; any
    other run of at least seven digits (not a date, not an amount, not a ``+`` phone
    number) is a ``number``, which :func:`standing` reads as an account when a bank code,
    a payee word or a payment system's name stands beside it. A card number starts as
    card networks' numbers do (2-6) and passes Luhn."""
    found: list[Identifier] = []
    taken = bytearray(len(text) + 1)

    def add(kind: str, start: int, end: int, key: str, valid: bool | None) -> None:
        if any(taken[start:end]):
            return
        taken[start:end] = b"\x01" * (end - start)
        found.append(Identifier(kind, text[start:end], key, start, end, valid))

    for m in _URL.finditer(text):
        add("domain", m.start(), m.end(), _host_key(m.group(1)), None)
    for m in _EMAIL.finditer(text):
        add("email", m.start(), m.end(), m.group().lower(), None)
    for m in _HANDLE.finditer(text):
        provider = m.group().rsplit("@", 1)[1].lower()
        if provider not in _NOT_PROVIDERS and not _in_code(text, m.start()):
            add("payhandle", m.start(), m.end(), m.group().lower(), None)
    for m in _WALLET.finditer(text):
        s = m.group()
        if s[:1] in "13" and (s.isdigit() or s.isalpha() or s.islower() or s.isupper()):
            continue  # a word or a number, not a mixed-case Base58 string
        add("wallet", m.start(), m.end(), s.lower(), wallet_valid(s) if "…" not in s else None)
    if any(c.isdigit() for c in text):
        for m in _IBAN.finditer(text):
            s = m.group().rstrip(" -")
            if sum(c.isdigit() for c in s) >= 8:
                add("iban", m.start(), m.start() + len(s), _key(s), iban_valid(s))
        for m in _IFSC.finditer(text):
            add("account", m.start(), m.end(), m.group().lower(), None)
        for m in _SORT_CODE.finditer(text):
            add("account", m.start(), m.end(), _digits(m.group()), None)
        for m in _NUMBER.finditer(text):
            s = m.group().rstrip(" -./")
            digits = _digits(s)
            if len(digits) < 7 or _DATE.match(s):
                continue
            if s.startswith("+"):
                add("phone", m.start(), m.start() + len(s), digits, None)
            elif len(digits) in _CARD_LENGTHS and digits[0] in "23456" and luhn_valid(digits):
                add("card", m.start(), m.start() + len(s), digits, True)
            else:
                # A routing number's check passes for one nine-digit number in ten: it is
                # recorded as evidence, never enough to make a number an account.
                routing = len(digits) == 9 and routing_valid(digits)
                add("number", m.start(), m.start() + len(s), digits, True if routing else None)
    for m in _BARE.finditer(text):
        add("domain", m.start(1), m.end(1), _host_key(m.group(1)), None)
    found.sort(key=lambda i: i.start)
    return found


def _key(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def payment_identifiers(text: str) -> list[Identifier]:
    """The identifiers of ``text`` that money is paid to and that a checksum or a bank
    code vouches for (a valid IBAN, a Luhn-valid card number, a valid wallet, an account
    beside a bank code): what level ``strict`` asks about in any entry."""
    ids = identifiers(text)
    bank_code = any(i.kind == "account" for i in ids)
    return [
        i
        for i in ids
        if (i.kind in ("iban", "card", "wallet") and i.valid is not False)
        or i.kind in ("account", "payhandle")
        or (i.kind == "number" and bank_code)
    ]


# ---------------------------------------------------------------------------------------
# Look-alikes.


def _registrable(host: str) -> str:
    """The name a domain is registered under, without its top-level part
    (``mail.northline-logistics.co`` -> ``northline-logistics``)."""
    parts = host.split(".")
    if len(parts) >= 3 and len(parts[-1]) == 2 and parts[-2] in ("co", "com", "org", "net", "ac"):
        parts = parts[:-1]
    return parts[-2] if len(parts) >= 2 else parts[0]


def _hosts(ids: Iterable[Identifier]) -> dict[str, str]:
    """``{host: as written}`` of the domains and e-mail domains among ``ids``."""
    out: dict[str, str] = {}
    for i in ids:
        if i.kind == "domain":
            out.setdefault(i.key, i.text)
        elif i.kind == "email":
            out.setdefault(i.key.rsplit("@", 1)[1], i.text)
    return out


def lookalike(host: str, known: Iterable[str], *, added_words: bool = True) -> str | None:
    """The host among ``known`` that ``host`` imitates, if any: its registered name a
    letter or two away (``northllne-logistics`` for ``northline-logistics``), or, with
    ``added_words``, the other's name with words added (``northline-logistics-billing``)."""
    mine = _registrable(host)
    if len(mine) < 5:
        return None
    for other in known:
        theirs = _registrable(other)
        if other == host or len(theirs) < 5 or theirs == mine:
            continue  # the same name under another top-level domain, or a subdomain
        if _close(mine, theirs):
            return other
        if (
            added_words
            and len(theirs) >= 6
            and re.search(rf"(?:^|-){re.escape(theirs)}(?:-|$)", mine)
        ):
            return other
    return None


# ---------------------------------------------------------------------------------------
# What an entry asks about them.

# Payment systems whose accounts are a phone number, an e-mail address or a short id,
# by their own names (Latin and native spellings): a number beside one is where money goes.
_RAILS = re.compile(
    r"(?<![\w])(?:upi|pix|chave pix|gcash|paymaya|maya|promptpay|paynow|paybill|m-?pesa|"
    r"jazzcash|easypaisa|bkash|nagad|paytm|phonepe|bizum|swish|vipps|mobilepay|twint|blik|"
    r"venmo|zelle|cash ?app|paypal|revolut|monzo|wise|alipay|wechat pay|kakaopay|toss|"
    r"qiwi|yoomoney|sbp|сбп|юmoney|ovo|gopay|dana|momo|zalopay|"
    r"พร้อมเพย์|支付宝|微信支付|카카오페이|নগদ|বিকাশ)(?![\w])",
    re.I,
)

# Concepts of the intent layer that make a payment identifier the object of an
# instruction: paying, a payee word, sending, replacing, setting up, "without asking",
# urgency, a habit, a claimed approval.
_MONEY_ACTS = frozenset(
    {"pay", "payee", "send", "swap", "persist", "covert", "urgent", "habit", "approved"}
)
_STANDING = frozenset({"habit", "persist", "covert"})
# The identifier a reason names first: where the money goes, before a bank code.
_RANK = {"iban": 0, "card": 0, "wallet": 0, "payhandle": 1, "number": 2, "phone": 2, "email": 2}
_RANK["account"] = 3


def _short(text: str, limit: int = 34) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _name(i: Identifier) -> str:
    check = " (checksum valid)" if i.valid else ""
    return f"{_LABEL.get(i.kind, 'number')} {_short(i.text)}{check}"


def hosts(text: str) -> list[str]:
    """The domains ``text`` names (URL hosts, bare domains, e-mail domains): what a new
    entry's look-alikes are compared with."""
    return list(_hosts(identifiers(text)))


def standing(
    text: str,
    sentences: Sequence[tuple[str, frozenset[str]]],
    known_hosts: Iterable[str] = (),
    *,
    level: str = "balanced",
) -> Standing | None:
    """Why ``text`` sets a standing rule about a destination, or ``None``.

    ``sentences`` are its sentences with the intent layer's concepts stated in each
    (negated ones left out); ``known_hosts``, the domains of the rest of the store (a
    look-alike of one is held). At ``level`` ``strict`` any payment identifier vouched for
    by a checksum or a bank code is held, even in a record of a past payment; at
    ``lenient`` only payment rules and look-alikes are."""
    ids = identifiers(text)
    found = _wildcard(text) or _lookalike(ids, known_hosts)
    if found is not None or not ids:
        return found
    concepts: set[str] = set()
    for _, present in sentences:
        concepts |= present
    money = [i for i in ids if i.kind in PAYMENT_KINDS]
    numbers = [i for i in ids if i.kind == "number"]
    if numbers and (money or "payee" in concepts or "pay" in concepts):
        money += numbers  # an account number beside a bank code, or named as one
    elif not money and _RAILS.search(text):
        # A number, e-mail address or handle given for a payment system by its name
        # (UPI, Pix, GCash, PromptPay...): the same name in every language.
        money = [i for i in ids if i.kind in ("number", "email", "phone")]
    if money and (level == "strict" or not _MONEY_ACTS.isdisjoint(concepts)):
        first = min(money, key=lambda i: (_RANK[i.kind], i.start))
        if _MONEY_ACTS.isdisjoint(concepts):
            return Standing(
                "payment",
                f"records {_name(first)}, where money may be paid: confirm it is the "
                "user's (level strict asks about every payment identifier)",
            )
        what = "in place of another" if "swap" in concepts else "from now on"
        return Standing(
            "payment",
            f"asks future sessions to pay to {_name(first)} {what}: confirm the user "
            "gave this account (a note can claim a call-back that never happened)",
        )
    if level == "lenient":
        return None
    contacts = [i for i in ids if i.kind in CONTACT_KINDS or i.kind == "number"]
    if not contacts:
        return None
    if "swap" in concepts:
        kinds: dict[str, list[Identifier]] = {}
        for i in contacts:
            kinds.setdefault(i.kind, []).append(i)
        for same in kinds.values():
            if len(same) >= 2 and same[0].key != same[1].key:
                return Standing(
                    "replacement",
                    f"puts {_name(same[1])} in place of {_short(same[0].text)} (or the "
                    "reverse) for future sessions: confirm which one is right",
                )
        return Standing(
            "replacement",
            f"puts {_name(contacts[0])} in place of another for future sessions (replies, "
            "account recovery or reports would go there): confirm it is the user's own",
        )
    if "send" in concepts and not _STANDING.isdisjoint(concepts):
        # A domain inside a `code span` is a command's argument, not a recipient.
        addr = [i for i in contacts if i.kind in ("email", "phone")]
        addr = addr or [i for i in contacts if not _in_code(text, i.start)]
        if not addr:
            return None
        return Standing(
            "redirect",
            f"asks future sessions to keep sending something to {_name(addr[0])}: "
            "confirm this recipient",
        )
    return None


# Brands whose domains are imitated to take payments, logins or mail, by their registered
# names (distinctive ones only: a brand a letter away from a common word, such as
# "booking" and "cooking" or "revolut" and "revolt", is left out).
BRANDS = (
    "paypal.com",
    "google.com",
    "amazon.com",
    "microsoft.com",
    "facebook.com",
    "instagram.com",
    "whatsapp.com",
    "linkedin.com",
    "netflix.com",
    "github.com",
    "gitlab.com",
    "dropbox.com",
    "docusign.com",
    "coinbase.com",
    "wellsfargo.com",
    "citibank.com",
    "santander.com",
    "barclays.com",
    "salesforce.com",
    "atlassian.com",
    "shopify.com",
    "airbnb.com",
    "aliexpress.com",
)


def _lookalike(ids: Sequence[Identifier], known_hosts: Iterable[str]) -> Standing | None:
    """A domain of the entry a letter away from another of the entry, or imitating one
    already in memory, or a letter or two from a well-known brand's."""
    mine = _hosts(ids)
    known = sorted(set(known_hosts) - set(mine))
    for host, written in mine.items():
        twin = lookalike(host, [h for h in mine if h != host], added_words=False)
        where = "in this entry"
        if twin is None and known:
            twin, where = lookalike(host, known), "already in memory"
        if twin is None:
            twin, where = lookalike(host, BRANDS, added_words=False), "a well-known brand"
        if twin is not None:
            return Standing(
                "lookalike",
                f"names {_short(written)}, which looks like {twin} ({where}): a look-alike "
                "domain may be trusted or paid by mistake; confirm it is the real one",
            )
    return None


def _wildcard(text: str) -> Standing | None:
    wild = _WILDCARD.search(text)
    if wild is None:
        return None
    return Standing(
        "wildcard",
        f"trusts every sender at {wild.group(1)}: confirm future sessions should treat "
        "this domain's mail as trusted",
    )


# Kinds a second identifier displaces: where money goes, and a phone number in "+" form.
_DISPLACED_KINDS = PAYMENT_KINDS | {"phone"}


def displacing(text: str) -> bool:
    """Whether ``text`` gives a payment identifier or a phone number (one that
    :func:`displaced` compares)."""
    return any(i.kind in _DISPLACED_KINDS for i in _identifiers_memo(text))


def displaced(
    text: str, neighbours: Sequence[str], same_name: Callable[[str, str], bool]
) -> Standing | None:
    """A payment identifier or phone number of ``text`` given for something one of
    ``neighbours`` (the rest of the store) already holds another identifier of the same
    kind for (``same_name(text, neighbour)``: the two share a naming word, such as a
    vendor's name): the new one would displace the stored one."""
    mine = [i for i in identifiers(text) if i.kind in _DISPLACED_KINDS]
    if not mine:
        return None
    kinds = {i.kind for i in mine}
    for other in neighbours:
        if other == text:
            continue
        theirs = [i for i in _identifiers_memo(other) if i.kind in kinds]
        pairs = [(a, b) for a in mine for b in theirs if a.kind == b.kind and a.key != b.key]
        if pairs and same_name(text, other):
            new, old = pairs[0]
            return Standing(
                "displaced",
                f"gives {_name(new)} for what memory already holds {_short(old.text)} for "
                f"({_short(other, 60)!r}): confirm which one future sessions should use",
            )
    return None


_memo: dict[str, tuple[Identifier, ...]] = {}


def _identifiers_memo(text: str) -> tuple[Identifier, ...]:
    """:func:`identifiers`, remembered: a store's entries are each other's neighbours."""
    hit = _memo.get(text)
    if hit is None:
        hit = tuple(identifiers(text))
        if len(_memo) >= 2048:
            _memo.clear()
        _memo[text] = hit
    return hit
