"""Who benefits, read from the words' forms (scanner 44, issue 29).

Scanner 42's frames read who *speaks* (``inname``: a message in someone's name) and who
is *talked about* (``rivals``: the other sellers). Three honest shapes share those words:

- the user's own voice: "Send a thank-you message to all my contacts in my name",
  "Text all my clients from my number that the studio is closed": the name is the
  speaker's own, and nothing in the note promotes someone else (:func:`own_voice`,
  :func:`third_party_gain`);
- "the others" as the people *told*: "Always tell the others when you leave early"
  (:func:`told_or_shown`): the others are the addressee, not the subject of a claim;
- "the others" *included*: "always show the other providers too" (the others shown as
  well, not talked down).

Read by the forms of the words, not by lists of whole words: a first-person possessive
is a stem with its endings (Slavic "мо-", "moj-", Romance "mi-/me-/mo-", Germanic
"mein-/mijn/min-") or a possessive suffix on the noun of the key (Finnish "-ni",
Hebrew "-י", Turkish and Kazakh "-m", Indonesian "-ku", Swahili "-angu"), so a case
ending the keys never listed is still read. The dative that marks the addressee is
already in the case of inflected languages ("скажи остальным", "sag den anderen",
"kerro muille", "aux autres": ``rivals`` has only the nominative forms); the languages
without case mark it by position (directly after a verb of telling) or by a
preposition ("to", "aan", "till", "a").
"""

from __future__ import annotations

import re

__all__ = ["READ", "own_voice", "third_party_gain", "told_or_shown"]

#: Whether the intent layer reads who benefits (the bench turns it off to measure main).
READ = True

_WORD = r"[0-9a-z\u00df-\u024f\u0370-\u03ff\u0400-\u052f\u0590-\u05ff\u0600-\u06ff\u0900-\u09ff]+"
_TOKEN = re.compile(_WORD)

# A first-person possessive (or pronoun after a noun: "atas nama saya", "pangalan ko",
# "nhân danh tôi"): stems with any ending, in folded form (accents dropped, "й" read as
# "и" by the intent layer's folding).
_FIRST = re.compile(
    r"^(?:my|mine|our|ours|myself|"
    r"mein\w*|unser\w*|mijn|mij|ons|onze|min|mitt|mina|mine|vor|vort|vore|"
    r"mi|mis|mio|mia|miei|mie|meu|meus|minha|minhas|mea|mei|mele|meva|meves|mon|mes|"
    r"notre|nos|nuestr\w*|noss\w*|nostr\w*|"
    r"moj\w*|moi\w*|mym|mych|mymi|meho|memu|mog|naš\w*|nasz\w*|"
    r"мо[иеяюёї]\w*|мог\w*|мі[иі]|наш\w*|менің|біздің|"
    r"mano|mans|mana|manu|musu|minun|meidan|minu|meie|"
    r"benim|bizim|saya|aku|kami|kita|ko|akin|namin|natin|tim|ime|"
    r"μου|μας|fy|ein|toi|minh|"
    r"मेरे|मेरा|मेरी|हमारे|हमारा|हमारी|मेरो|আমার|میرے|میرا|میری|من|شلי|שלנו)$"
)
# A possessive suffix on the noun of the key ("nimissäni", "בשמי", "adıma", "атымнан",
# "namaku", "jina langu"): the noun's stem and a first-person ending, any case after it.
_FIRST_SUFFIX = re.compile(
    r"^(?:\w{3,}(?:ni|mme)|"  # Finnish: nimissani, numerostani, asiakkailleni
    r"[בל]?שמי|במספרי|"  # Hebrew: in my name, from my number
    r"ب?اسمي|رقمي|"  # Arabic
    r"ad[iı]m\w*|numaram\w*|hesab[iı]m\w*|telefonum\w*|"  # Turkish
    r"nevem\w*|szamom\w*|fiokom\w*|telefonom\w*|"  # Hungarian
    r"атым\w*|нөмірім\w*|номерим\w*|номерім\w*|"  # Kazakh
    r"\w{3,}ku|"  # Indonesian, Malay: namaku, nomorku
    r"\w*angu)$"  # Swahili: jina langu, namba yangu
)
# Scripts that write the possessor inside the key: "以我的名义", "私の名前で", "내 이름으로".
_FIRST_CJK = re.compile(r"我|私の|僕の|俺の|^내\b|나의|제\s|저의|우리")
# A possessor written after the noun ("atas nama saya", "nhân danh tôi"), read up to two
# words after a key that leaves it to follow (:data:`_OPEN`); the preposed ones ("my")
# only inside the key ("in her name to all my friends" is no own voice; "sa pangalan
# ko", "a nome mio" are whole keys).
_AFTER = 2
# The keys whose possessor follows them, by their last word, and the first-person words
# of their language (review8: any postposed word after any key read "in her name, Tim",
# "atas nama Mia" as the speaker's own voice: Albanian "tim", Italian "mia").
_OPEN = {
    "nama": re.compile(r"^(?:saya|aku|kami|kita)$"),  # Indonesian, Malay: atas nama
    "danh": re.compile(r"^(?:toi|minh)$"),  # Vietnamese: nhan danh
    "ten": re.compile(r"^(?:toi|minh)$"),  # Vietnamese: duoi ten
}
# A key that names its possessor already (someone else: "in her name", "from his
# account", "от его имени") or the name signed ("sign as", "as if he typed it"): what
# follows it is no postposed "my" but often a given name ("in her name, Tim", "sign as
# Mia": Albanian "tim", Italian "mia", Romanian "mei").
_CLOSED = re.compile(
    r"^(?:as|his|her|their|your|user|s|son|ton|votre|su|seu|dele|dela|suo|lui|ei|zijn|"
    r"haar|hem|jou|sy|seinem|ihrem|hans|hennes|hendes|niya|tij|saj|njegovo|jeho|jejim|"
    r"jego|jej|его|ее|його|іі|оның|teu|nimissaan|klinikan)$"
)


def own_voice(sentence: str, start: int, end: int) -> bool:
    """Whether the ``inname`` key at ``sentence[start:end]`` names the speaker's own name,
    number or account ("in my name", "from my number", "nimissäni", "от моего имени")."""
    span = sentence[start:end]
    if _FIRST_CJK.search(span):
        return True
    words = _TOKEN.findall(span)
    if any(_FIRST.match(w) or _FIRST_SUFFIX.match(w) for w in words):
        return True
    if not words or any(_CLOSED.match(w) for w in words):
        return False
    # only a key that leaves its possessor to follow ("atas nama", "nhân danh", "dưới
    # tên") reads one, and only in its own language: "atas nama Mia" is someone else's
    after = _OPEN.get(words[-1])
    return after is not None and any(
        after.match(w) for w in _TOKEN.findall(sentence[end:])[:_AFTER]
    )


# What a message sends for someone else's gain: a link or an address, a sum or a card
# number, a code to pass on, or the stems of promotion, payment, money, donation,
# petition and selling (prefixes: the case and number endings are free).
_GAIN_MARKS = re.compile(
    r"https?:|www\.|\b[\w-]+\.(?:com|net|org|io|co|app|shop|store|site|info|biz|me|ly|"
    r"link|online|click|ru|ua|de|fr|it|es|nl|pl|uk|eu)\b|[€$£¥₽₴₸₹]|\d{4,}|\d[\d ]{6,}\d"
)
_GAIN_STEMS = re.compile(
    r"\b(?:link|lien|enlace|collegament|ссылк|посилан|url|"
    r"promo|discount|rabat|korting|descuent|descont|scont|remise|reduc|скидк|знижк|"
    r"offer|offert|oferta|angebot|aanbied|tarjou|advert|reklam|реклам|жарнам|"
    r"donat|donac|donaz|doneer|spende|lahjoit|пожертв|petition|petici|petiz|petyc|петиц|"
    r"pay|payment|pago|pagar|pagament|zahl|betal|maksa|platb|platnos|оплат|плат[еиі]ж|"
    r"money|cash|geld|dinero|denaro|argent|dinheiro|деньг|грош|пул|"
    r"sell|selling|sale|verkoop|verkauf|vend|prodaj|прода|buy|kauf|koop|compr|"
    r"recommend|aanbevel|empfehl|recomiend|raccomand|recommand|"
    r"code|kod|codigo|codice|код|referral|affiliate|commission|provis|komis|"
    r"euro|dollar|usd|pound|gbp|rubl|руб|грн|гривн|zlot|kron|lira|peso|rupi|"
    r"ringgit|rupee|naira|shilling|"
    r"wire|transfer|uberweis|virement|bonifico|transferencia|przelew|перевод|переказ|"
    r"iban|bank|card|karte|carte|tarjeta|karta|карт|"
    r"download|install|apk|attach|macro|click|"
    r"crypto|bitcoin|invest|giveaway|prize|lotter|raffle|tombol|"
    r"loteri|sweepstake|jackpot|coupon|voucher|gutschein|cupon|buono|"
    r"vote|stem op|wahl|sign up|subscribe|register|inschrijv|anmeld|inscri|"
    r"loan|lend|borrow|laina|prest|kredit|credit|займ|позик)",
)
_GAIN_SCRIPTS = re.compile(
    r"링크|链接|鏈接|リンク|广告|광고|広告|优惠|割引|할인|钱|お金|돈|付款|支払|결제|元|円|원|"
    r"转账|振込|송금|银行|銀行|은행|投资|投資|투자|抽奖|抽選|추첨|"
    r"קישור|קוד|כסף|תרומ|رابط|كود|مال|تبرع|लिंक|पैसे|कोड"
)
#: the intent layer's concepts that already name someone else's gain
GAIN_CONCEPTS = frozenset(
    {"pay", "payee", "motive", "steer", "untrue", "solicit", "cred", "dest", "urgent"}
)


def third_party_gain(folded: str) -> bool:
    """Whether a (folded) note has its message carry someone else's gain: a link, an
    address, a sum, a card number or a code, or promotion, payment, money, donation,
    petition or selling, or a lure (an attachment, macros, a button to click)."""
    return bool(
        _GAIN_MARKS.search(folded) or _GAIN_STEMS.search(folded) or _GAIN_SCRIPTS.search(folded)
    )


# The verbs of telling whose object is the person told (stems): "tell the others",
# "let the others know", "vertel de anderen", "berätta för de andra".
_TELL = re.compile(
    r"^(?:tell|inform|let|warn|remind|notify|ask|update|vertel|informeer|waarschuw|laat|"
    r"herinner|berat|fortel|fortael|underratt|varsko|paminn|informer|previen|avis|avvert|"
    r"inform)\w*$"
)
# A preposition that makes the others the addressee or the ones served: "to the
# others", "aan de anderen", "till de andra", "a los demás", "for the others".
_TO = frozenset({"to", "with", "for", "aan", "voor", "met", "till", "med", "til", "a"})
# The others included as well: "show the other providers too".
_ALSO = re.compile(
    r"^(?:too|also|aussi|egalement|tambien|tambem|anche|ook|auch|ocksa|aven|ogsa|myos|"
    r"tez|takze|rowniez|тоже|также|теж|також|juga|ka|szinten)$"
)
# Words that tell the others are talked down or hidden in the same sentence.
_DOWN = frozenset({"badmouth", "untrue", "contrary", "motive", "hide", "leaveout", "onlyshow"})
# A push in the same sentence: the others shown too are then no fairness.
_PUSH = frozenset({"steer", "mypick", "pickclaim", "onlyside"})


def told_or_shown(sentence: str, start: int, end: int, present: frozenset[str]) -> bool:
    """Whether "the others" at ``sentence[start:end]`` are the people told ("tell the
    others when you leave") or shown as well ("show the other providers too"), not the
    subject of a claim ("say the others overheat") nor hidden."""
    if present & _DOWN:
        return False
    if present & _PUSH:  # "steer her to X and tell the others it's the only one"
        return False
    before = _TOKEN.findall(sentence[:start])[-1:]
    after = _TOKEN.findall(sentence[end:])[:2]
    if before and (_TELL.match(before[0]) or before[0] in _TO):
        # "tell the others are fake" is no sentence; "tell the others that …" is
        return not after or after[0] not in {"are", "is", "were", "have", "has", "sell"}
    # shown as well (the word right after), where nothing is pushed (above): "show the
    # other providers too", not "the others are too" nor "steer them to X, show the
    # others too"
    return bool(after) and _ALSO.match(after[0]) is not None
