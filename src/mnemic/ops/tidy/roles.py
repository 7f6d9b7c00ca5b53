"""A new holder of a role someone has one of (or a new one of a thing), and a promotion:
updates said with no marker of change (tidy 13).

* **"a new GP"**: "User registered with *a new GP*, Dr. Hughes" beside "User's GP is
  Dr. Patel" (since tidy 14 also an update that names the role and a holder the other
  does not, with no "new": "sees *Dr Park* as GP *now*", "*Desde marzo* ... la Dra.
  Gómez como médico"; whoever is named before the role is the holder then, not whose
  the role is). "New" before (or, in the Romance languages, after) a role a person has
  one of at a time (a manager or boss, a team lead, a GP or family doctor, a dentist, a
  landlord, a spouse or partner: :data:`_ROLES`, in en, de, es, fr, pt, it, nl, ru and
  pl), or a thing most have one of (a phone, a car, a laptop: :data:`_THINGS`), says
  the other entry's holder of that role is no longer the one; the other entry
  names that role and its holder (a name right after it, nothing else of its own), for
  the same person (:func:`_holder`: "Anna has a new GP" is Anna's). Roles a person has
  several of ("a new client", "a new colleague joined") are not in the table.
* **"promoted to"**: "User was promoted to Staff Engineer" beside "User's job title is
  Senior Engineer" (or "works as", or "is a Senior Engineer": a title sharing a word
  with the new one) is a new title. "Wants to be promoted", a promotion of someone else
  and a promotion to the title the other entry already says are not.

:func:`new_holder` and :func:`promotion` give the reason, or None.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .languages import ALSO
from .lexicon import STOP_WORDS, fold, stem
from .memo import per_entry, searched
from .people import ONE_HELD, relatives
from .signals import GENERIC, Profile, profile

__all__ = ["new_holder", "promotion"]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_ROLES = {
    "manager": (
        r"manager|line manager|boss|supervisor|chef|chefin|vorgesetzter|vorgesetzte|"
        r"vorgesetzten|jefe|jefa|patron|patronne|chefe|gerente|capo|baas|leidinggevende|начальник|начальника|"
        r"начальница|руководитель|руководителя|szef|szefa|szefowa|szefową|kierownik|"
        r"kierownika|przełożony|przełożonego"
    ),
    "team lead": r"team lead|tech lead|team leader|teamleiter|teamleiterin",
    "doctor": (
        r"gp|family doctor|doctor|primary care doctor|primary care physician|hausarzt|"
        r"hausärztin|arzt|ärztin|médico de cabecera|médico de familia|médico de família|"
        r"médico|médica|"
        r"médecin traitant|médecin|medico di base|medico di famiglia|medico|huisarts|врач|"
        r"врача|терапевт|терапевта|lekarz rodzinny|lekarza rodzinnego|lekarz|lekarza"
    ),
    "dentist": (
        r"dentist|zahnarzt|zahnärztin|dentista|dentiste|tandarts|стоматолог|стоматолога|"
        r"dentysta|dentystę|dentystka|dentystkę"
    ),
    "landlord": (
        r"landlord|landlady|vermieter|vermieterin|casero|casera|arrendador|arrendadora|"
        r"propriétaire|bailleur|senhorio|senhoria|padrone di casa|huisbaas|verhuurder|"
        r"арендодатель|арендодателя|właściciel mieszkania|właścicielka mieszkania"
    ),
    "spouse": (
        r"spouse|wife|husband|partner|partnerin|boyfriend|girlfriend|ehefrau|ehemann|esposa|"
        r"esposo|marido|pareja|novio|novia|épouse|époux|mari|conjoint|conjointe|moglie|"
        r"marito|fidanzato|fidanzata|namorado|namorada|echtgenote|echtgenoot|жена|жену|муж|"
        r"мужа|żona|żonę|mąż|męża"
    ),
}
"""Roles a person has one of at a time, by the one they are (a GP is a family doctor)."""
_THINGS = {
    "phone": (
        r"phone|mobile|mobile phone|handy|móvil|teléfono|téléphone|portable|celular|"
        r"telemóvel|telefono|cellulare|telefoon|телефон|telefon"
    ),
    "car": r"car|auto|coche|voiture|carro|macchina|машина|samochód",
    "laptop": r"laptop|notebook|portátil|ordinateur portable|portatile|ноутбук",
}
"""Things a person mostly has one of at a time, said the same way ("User's phone is a
Pixel 7" / "User has a new phone, an iPhone 15")."""
_GROUP = {form: group for group, forms in (_ROLES | _THINGS).items() for form in forms.split("|")}
_FORMS = sorted(
    (f for forms in (_ROLES | _THINGS).values() for f in forms.split("|")), key=len, reverse=True
)
_ROLE = re.compile(r"(?<!\w)(" + "|".join(_FORMS) + r")(?!\w)")
_NEW = (
    r"new|neu|neue|neuer|neuen|neuem|neues|nuevo|nueva|nouveau|nouvel|nouvelle|novo|nova|"
    r"nuovo|nuova|nieuw|nieuwe|новый|новая|нового|новую|новым|новой|nowy|nowa|nowego|nową|"
    r"nowym|nowej"
)
_NEW_WORDS = frozenset(stem(w) for w in _NEW.split("|"))
_NEW_BEFORE = re.compile(rf"(?<!\w)(?:{_NEW}) (?:\w+ )?$")
""""New" right before a role, one word between at most ("a *new* family doctor")."""
_NEW_AFTER = re.compile(rf"^ (?:{_NEW})(?!\w)")
""""New" right after it ("un médico *nuevo*")."""
_TITLES = frozenset(
    _listed(
        "dr dra mr mrs ms miss prof herr herrn frau sr sra señor señora mme mlle m dott dottor "
        "signor signora dottoressa dottore dokter doktor доктор pan pani"
    )
)
_POSSESSED = re.compile(
    r"(\w+)(?:'s| of| des| der| del| de| du| da| do| di| van| von)\s+(?:the |la |le |el |a |o )?"
    r"(\w+)"
)
"""A word that owns the next ("*Anna's* GP", "*team* of", "equipo *del* usuario")."""
_TOKEN = re.compile(r"[^\W_]+(?:['.][^\W_]+)*\.?")


@lru_cache(maxsize=4096)  # each entry is judged beside every other
def _roles(text: str) -> list[tuple[int, int, str, bool]]:
    """Each role someone has one of that ``text`` names: where, its group, and whether
    "new" qualifies it."""
    folded = fold(text)
    out = []
    for m in _ROLE.finditer(folded):
        new = bool(_NEW_BEFORE.search(folded[: m.start()]) or _NEW_AFTER.match(folded[m.end() :]))
        out.append((m.start(), m.end(), _GROUP.get(m.group(1), m.group(1)), new))
    return out


def _value(text: str, end: int) -> tuple[str, int] | None:
    """The name ``text`` gives right after a role ending at ``end`` (a run of words with
    a capital, after a copula, an article, a title or "called"), and where it starts."""
    skipped = 0
    words: list[str] = []
    start = -1
    for m in _TOKEN.finditer(text, end):
        token = m.group(0).rstrip(".")
        low = fold(token).rpartition("'")[2]  # "dell'utente": whose it is
        if words:
            if _capital(token) and low not in STOP_WORDS:
                words.append(token)
                continue
            break
        if _capital(token) and low not in STOP_WORDS and low not in _TITLES:
            if stem(low) in GENERIC:
                skipped += 1
                continue
            words.append(token)
            start = m.start()
            continue
        skipped += 1
        if skipped > 5 or not (
            low in _BETWEEN or low in _TITLES or low in _NAMED or stem(low) in GENERIC
        ):
            return None
    return (" ".join(words), start) if words else None


_BETWEEN = frozenset(
    _listed(
        "is are was ist es est é è jest является a an the der die das den dem des ein eine "
        "einen einem einer el la los las un una le les l une o os um uma il lo gli i de het "
        "een del du da do di van von of to dell della dello degli delle dos das"
    )
)
"""What may stand between a role and its holder's name: a copula, an article, whose it
is ("des Nutzers", "del usuario"), not a word of another relation ("met PyCharm")."""


def _capital(token: str) -> bool:
    """Whether ``token`` is written as a name: a capital first, or inside ("iPhone")."""
    return any(c.isupper() for c in token)


_NAMED = frozenset(_listed("called named namens llamado llamada appelé appelée chamado chamada"))


def _holder(text: str, role: tuple[int, int, str, bool]) -> frozenset[str]:
    """Whose the role is, as far as the words say: a name or a word that owns another
    before the role ("*Anna's* manager", "*Anna* has a new GP", "*User's team* has"),
    the user (or nobody named) being the empty set."""
    folded = fold(text)
    before = text[: role[0]]
    out: set[str] = set()
    for i, m in enumerate(_TOKEN.finditer(before)):
        token = m.group(0).rstrip(".")
        low = fold(token).removesuffix("'s").rpartition("'")[2]  # "l'utente"
        if low in STOP_WORDS or stem(low) in GENERIC or low in _TITLES or len(low) < 2:
            continue  # "*У* пользователя": a preposition
        if token[:1].isupper() and (i > 0 or low not in STOP_WORDS):
            out.add(stem(low))
    for m in _POSSESSED.finditer(folded[: role[1]]):
        if m.start(1) >= role[0]:
            break  # the role's own owner ("el jefe *del usuario*"): said after it
        owned = m.group(2)
        if stem(owned) not in GENERIC and m.end() <= role[0]:
            out.add(stem(owned))
        if stem(m.group(1)) not in GENERIC and m.group(1) not in STOP_WORDS:
            out.add(stem(m.group(1)))
    return frozenset(out - _NEW_WORDS)


def new_holder(a: Profile, b: Profile) -> str | None:
    """The reason ``b`` (or ``a``) says the other's holder of a role someone has one of
    was replaced ("a new GP, Dr. Hughes" beside "User's GP is Dr. Patel"); None when
    neither does (see the module docstring)."""
    for new, old in ((b, a), (a, b)):
        if new.negated or old.negated or searched(ALSO, new.folded):
            continue
        said = _cjk_new(new, old)
        if said is not None:
            return said
        for role in _roles(new.text):
            if not role[3] and not (new.update and role[2] in _ROLES):
                continue  # neither "a new GP" nor a person's role with "now", "since"
            found = _old_holder(old, role[2])
            if found is None:
                continue
            was, old_role = found
            now = _value(new.text, role[1]) or _named(new, old, role)
            if not role[3] and now is None:
                continue  # "User now sees the GP monthly": no new holder named
            if now is not None and stem(fold(now[0]).split()[0]) in profile(was).words:
                continue  # the same person: a new GP, Dr. Patel, beside "GP is Dr. Patel"
            holder = _holder(new.text, role)
            if now is not None and now[1] < role[0]:  # "sees *Dr Park* as GP": not whose
                holder -= {stem(fold(w)) for w in now[0].split()}
            if holder != _holder(old.text, old_role):
                continue  # "Anna has a new GP": Anna's, not the user's
            if (relatives(new.text) ^ relatives(old.text)) - ONE_HELD:
                continue  # "a new car *for his son*": someone else's
            extra = new.words - old.words - GENERIC - _NEW_WORDS - _TITLE_STEMS
            if now is not None:
                extra -= profile(now[0]).words
            extra -= profile(fold(new.text)[role[0] : role[1]]).words
            if len(extra) > 1:
                continue  # "a new manager of the sales team": more than a new holder
            said_now = f", {now[0]}" if now is not None else ""
            if not role[3]:  # "sees Dr Park as GP now": no "new", a marker of change
                return f"the {_written(new.text, role)} is now {now[0] if now else '?'} (was {was})"
            return f"a new {_written(new.text, role)}{said_now} (was {was})"
    return None


_TITLE_STEMS = frozenset(stem(t) for t in _TITLES)


def _named(new: Profile, old: Profile, role: tuple[int, int, str, bool]) -> tuple[str, int] | None:
    """A name ``new`` gives that ``old`` does not, before its role ("sees *Dr Park* as
    GP now"): a run of words written with a capital after the first word, no title, no
    user; None when there is none or more than one."""
    names = []
    for i, m in enumerate(_TOKEN.finditer(new.text[: role[0]])):
        token = m.group(0).rstrip(".")
        low = fold(token).rpartition("'")[2].removesuffix("'s")
        if i == 0 or not _capital(token) or low in _TITLES or low in STOP_WORDS:
            continue
        if stem(low) in GENERIC or stem(low) in old.words or low in _NEW_WORDS:
            continue
        names.append((token.removesuffix("'s"), m.start()))
    return names[0] if len(names) == 1 else None


def _written(text: str, role: tuple[int, int, str, bool]) -> str:
    """The role as ``text`` writes it ("GP"), or its group when folding moved letters."""
    return text[role[0] : role[1]] if len(fold(text)) == len(text) else role[2]


def _old_holder(old: Profile, group: str) -> tuple[str, tuple[int, int, str, bool]] | None:
    """The name ``old`` gives as the holder of a role of ``group`` (not a new one), when it
    says nothing else of its own; None otherwise."""
    for role in _roles(old.text):
        if role[2] != group or role[3]:
            continue
        value = _value(old.text, role[1])
        if value is None:
            continue
        rest = old.words - GENERIC - _TITLE_STEMS - profile(value[0]).words
        rest -= profile(fold(old.text)[role[0] : role[1]]).words
        rest -= _holder(old.text, role)
        rest -= {stem(w) for w in _BETWEEN}
        if not rest:
            return value[0], role
    return None


_PROMOTED = re.compile(
    r"(?<!\w)(?:promoted to|promoted as|befördert (?:zum|zur|zu|als)|ascendid[oa] a|"
    r"promu(?:e)? (?:au poste de|comme|à|au rang de)|promovid[oa] (?:a|para)|"
    r"promoss[oa] (?:a|come)|bevorderd tot|повышен[аы]? до|повысили до|"
    r"awansował[aoy]? na|awansowan[aye] na)(?!\w)\s*|(?:晋升为|升职为|升任)"
)
_PROMOTED_BEFORE = re.compile(r"(?<!\w)(?:zum|zur) ([^.,;]+?) befördert(?!\w)")
"""German says the title before the verb ("wurde *zum Teamleiter* befördert")."""
_PLAN = re.compile(
    r"(?<!\w)(?:wants?|hopes?|hoping|expects?|expected|might|could|will|would|should|"
    r"aims?|plans?|wish(?:es)?|up for|to be|to get|möchte|hofft|soll|quiere|espera|veut|"
    r"espère|quer|vuole|wil|хочет|chce)(?!\w)"
)
"""What makes a promotion a wish or a plan ("wants to be promoted to")."""
_TITLE_KEY = re.compile(
    r"(?<!\w)(?:job title|title|role|position|rank|jobtitel|berufsbezeichnung|stelle|titel|"
    r"rolle|puesto|cargo|título|poste|titre|fonction|rôle|função|ruolo|qualifica|"
    r"posizione|functie|должность|stanowisko|works as|working as|is employed as|"
    r"arbeitet als|trabaja como|travaille comme|trabalha como|lavora come|werkt als|"
    r"pracuje jako|работает)(?!\w)|职位|职称|头衔|担任"
)
"""What says an entry's value is a job title ("*job title* is", "*works as*")."""
_WHEN = frozenset(
    stem(w)
    for w in _listed(
        "last this next ago recently year month week today yesterday letzten letztes "
        "letzte vorigen jahr monat woche pasado año mes semana dernier dernière année mois "
        "passado ano scorso scorsa anno vorig vorige jaar maand прошлом году месяце "
        "zeszłym roku"
    )
)
"""Words of when, after a promotion's title ("last May"): no title of their own."""
_CLAUSE_END = re.compile(r"[.,;:!?()]|\b(?:at|in|on|last|this|since|bei|en|à|a partir)\b")


def promotion(a: Profile, b: Profile) -> str | None:
    """The reason ``b`` (or ``a``) says the person the other entry gives a job title was
    promoted to another ("was promoted to Staff Engineer" beside "job title is Senior
    Engineer"); None when neither does."""
    for new, old in ((b, a), (a, b)):
        if new.negated or old.negated or searched(ALSO, new.folded):
            continue
        title, before, after = _promoted_to(new)
        if title is None or _PLAN.search(before):
            continue
        now = profile(title).words - GENERIC
        if not now or now <= old.words:
            continue  # promoted to the title the other already says
        if _promoted_to(old)[0] is not None or profile(after).words - old.words - _WHEN:
            continue  # "... Staff Engineer *in the volunteer club*": maybe another title
        head = [w for w in profile(title).order if w not in GENERIC][-1:]
        if searched(_TITLE_KEY, old.folded) is None and not set(head) & old.words:
            continue  # "is a Senior *Engineer*" / "promoted to Staff *Engineer*": one noun
        if _subject(before) != _subject(fold(old.text)[: _first_key(old)]):
            continue  # "Anna was promoted", "User's manager was": not the user's title
        folded = fold(new.text)
        at = folded.find(title) if len(folded) == len(new.text) else -1
        return f"promoted to {new.text[at : at + len(title)] if at >= 0 else title}".strip()
    return None


@per_entry
def _promoted_to(p: Profile) -> tuple[str | None, str, str]:
    """The title ``p`` says someone was promoted to, the words before that and those
    after it."""
    folded = fold(p.text)
    m = _PROMOTED.search(folded)
    if m is not None:
        rest = folded[m.end() :]
        cut = _CLAUSE_END.search(rest)
        title = rest[: cut.start()] if cut else rest
        return (title.strip() or None), folded[: m.start()], rest[len(title) :]
    m = _PROMOTED_BEFORE.search(folded)
    if m is not None:
        return m.group(1), folded[: m.start()], folded[m.end() :]
    return None, folded, ""


def _first_key(p: Profile) -> int:
    """Where ``p`` starts saying its key (a title word, a copula), for whose it is."""
    m = _TITLE_KEY.search(fold(p.text)) or re.search(
        r"(?<!\w)(?:is|ist|es|est|é|è|jest|является)(?!\w)", fold(p.text)
    )
    return m.start() if m else len(p.text)


def _subject(text: str) -> frozenset[str]:
    """The content words ``text`` (folded: what an entry says before its key or its
    promotion) holds, the user aside: whose the title is ("*anna* was promoted", "the
    user's *manager* was")."""
    return profile(text).words - GENERIC - _AUX


_AUX = frozenset(
    stem(w)
    for w in _listed(
        "been got gotten has was recently just finally officially été ete wurde worden "
        "sido foi stato stata был была został została"
    )
)
"""The auxiliaries and adverbs a promotion is said with ("a *été* promu", "was *just*
promoted"): no one's name."""


_CJK_ROLES = {
    "doctor": "家庭医生|主治医生|主治医|かかりつけ医|医生|주치의",
    "dentist": "牙医|歯医者|치과의사|치과 의사",
    "manager": "经理|老板|上司|领导|상사|사장님",
    "landlord": "房东|大家さん|大家|집주인",
    "phone": "手机|携帯電話|携帯|スマホ|휴대폰|핸드폰|스마트폰",
    "car": "汽车|车子|车|車|자동차|차",
    "laptop": "笔记本电脑|笔记本|电脑|ノートパソコン|パソコン|노트북",
}
"""Roles and things someone has one of, in Chinese, Japanese and Korean (as
:data:`_ROLES` and :data:`_THINGS`)."""
_CJK_ROLE = re.compile(
    "|".join(
        f"(?P<{group}>{forms})"
        for group, forms in sorted(
            _CJK_ROLES.items(), key=lambda kv: -max(map(len, kv[1].split("|")))
        )
    )
)
_CJK_NEW = re.compile(r"(?:新的|新しい|新|새로운|새)\s?$")
""""New" right before a role ("*新*手机", "*新しい*スマホ", "*새* 휴대폰")."""
_CJK_COPULA = re.compile(r"^(?:是|は|는|은|이|가|：|:)\s*")
_CJK_PLAN = re.compile(r"想|打算|计划|准备|要买|たい|予定|つもり|싶|계획|예정")
"""A wish or a plan ("想买新手机", "新しいスマホを買いたい"): no new one yet."""


def _cjk_new(new: Profile, old: Profile) -> str | None:
    """The reason ``new`` says it has a new one of a role or thing (Chinese, Japanese,
    Korean: "用户换了新手机" beside "用户的手机是Pixel 7"), when ``old`` names that role
    and its value (role, a copula, the value: nothing else of its own) for the same
    person; None otherwise."""
    if searched(_CJK_PLAN, new.text) or not searched(_CJK_ROLE, new.text):
        return None  # a plan; or no role to be new (the loop below would find none)
    for m in _CJK_ROLE.finditer(new.text):
        if not _CJK_NEW.search(new.text[: m.start()]):
            continue
        group = m.lastgroup or ""
        for o in _CJK_ROLE.finditer(old.text):
            if o.lastgroup != group or _CJK_NEW.search(old.text[: o.start()]):
                continue
            copula = _CJK_COPULA.match(old.text[o.end() :])
            if copula is None:
                continue
            value = old.text[o.end() + copula.end() :].strip(" 。.、,，")
            before = old.text[: o.start()]
            if not value or value in new.text or re.search(r"[，,、。;；]", value):
                continue  # the old holder named again, or more than one value
            if relatives(new.text) != relatives(old.text) or profile(before).words - GENERIC - {
                "的",
                "の",
                "의",
            }:
                continue  # someone else's ("用户女儿的手机"), or more before the role
            return f"a new {m.group(0)} (was {value})"
    return None
