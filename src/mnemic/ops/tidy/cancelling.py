"""A plan one entry says, and the other says was called off (tidy 29).

"Rui fährt am 3. März nach Mailand" / "Die Mailand-Tour am 3. März ist gestrichen",
"Dana va a Maracaibo en diciembre" / "Dana canceló el viaje a Maracaibo de diciembre",
"Влітку їдемо до бабусі в Полтаву" / "Поїздку до бабусі в Полтаву скасували",
"3月に老人ホームで慰問コンサートを予定" / "老人ホームでの3月のコンサートは中止": the newer
entry holds a word of calling off (:data:`_CANCEL`, per language) and, in its clause and
the clauses before it, besides that word, function words and a noun that names a plan
("trip", "Reise", "viaje", "поїздку": :data:`_EVENT`), only words of the older entry
(in another form: "Migration" / "Kubernetes-Migration"), at least two of them (the
thing and where or when). *Why the two cannot both be current:* a plan is a statement
about one future event; the word that the same event (the same thing, the same place,
the same date) will not happen ends it. A clause after the cancelling one is its
reason ("..., we stay at home") and so is an agent after it ("cancelled *by the
hospital*", "annullato *dall'officina*"): they are not read.

Apart (a word of the cancelling entry's own): two trips to one place on two dates
("Porto on 12 May" / "the Porto trip on 3 June is off": "June" is its own), a class
cancelled beside another class ("the *yoga* class is cancelled"), another person; an
older entry that is itself negated or cancelled. A plan beside its result ("We aim to
sell 20 bikes in May" / "We sold 14 bikes in May") holds no word of calling off and is
not read here: a result records what came of the plan, and the plan was true when it
was written, so both stand as history (an honest pair, as tidy fresh10's writer
labelled them). Words that also mean something else are not in the list ("dropped"
the keys, "skipped" a meal, "is off" alone without a plan noun or a date shared).

:func:`cancelled` gives the reason, or None.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .lexicon import STOP_WORDS, fold
from .memo import by_text, searched
from .signals import Profile

__all__ = ["AUX", "cancelled", "newer_says", "one_word", "reached", "words_of"]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_CANCEL = re.compile(
    r"(?<!\w)(?:cancell?ed|called off|is off|are off|fell through|"
    r"abgesagt|gestrichen|abgeblasen|findet nicht statt|fällt aus|ausgefallen|"
    r"cancelad[oa]s?|canceló|cancelaron|se cancela|suspendid[oa]|"
    r"annulée?s?|annulé|n'a pas lieu|"
    r"desmarcad[oa]|"
    r"annullat[oa]|è saltat[oa]|non si fa più|disdett[oaie]|"
    # a booking, a membership, a contract called off (tidy 30): "ha disdetto l'iscrizione"
    r"gekündigt|opgezegd|résiliée?s?|cancelou|anuló|anulou|"
    r"afgelast|gaat niet door|ingetrokken|geannuleerd|"
    r"aflyst|avlyst|inställd|inställt|peruttu|peruttiin|"
    r"odwołan[aey]|odwołali|zrušen[aoý]?|zrušili|otkazan[oaie]?|otkazali|"
    r"отменен[аоы]?|отменили|отменён|скасовано|скасували|скасована|"
    r"atšaukė\w*|nebevyks|anulat[ăa]?|anulowan[aey])(?!\w)"
)
"""A word of calling off a planned event, in the languages the reader knows."""
_CJK_CANCEL = re.compile(r"中止|取消|取り消|キャンセル|취소")
_EVENT = frozenset(
    _listed(
        """
        trip trips journey tour holiday holidays visit gig event plan plans booking reise urlaub
        fahrt ausflug termin viaje viajes excursión gira cita voyage sortie séjour visite viagem
        passeio visita viaggio gita reis uitje turen rejsen resan matka wyjazd wycieczka cesta
        výlet zájezd putovanje izlet поездка поездку поїздка поїздку подорож kelionė kelionę
        excursie călătoria călătorie
        """
    )
)
"""Nouns that name a plan ("the Porto *trip*"): the cancelling entry may add one."""
_AUX = frozenset(
    _listed(
        """
        is are was were been be has have had will ist sind war wurde wurden wird es fue fueron
        ha han sido está est sont été ont sera foi foram é è sono stato stata stati er blev
        bliver är var ble je jest był była było został została zostały bio bila bilo su byl byla
        bylo було був була был была были pas
        """
    )
)
"""Auxiliaries a passive of calling off is built with ("*is* off", "*foi* cancelado",
"*je* otkazano"), and French "pas" ("*pas de* répétition")."""
_AGENT = frozenset(
    _listed(
        """
        by von par por pelo pela dal dall dalla dallo door af av przez от від
        """
    )
)
"""A word that begins the agent after a word of calling off ("cancelled *by* ...")."""
_CLAUSE = re.compile(r"[,;:()\u2014\u2013]|\s-\s")
_TOKEN = re.compile(r"[^\W_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_KANA_SPLIT = re.compile(r"[\u3040-\u309f\s、。・,.!！]+")
"""Japanese: the runs between hiragana (particles, endings) and punctuation."""
_HANGUL_PARTICLE = re.compile(r"(?:은|는|이|가|을|를|에는|에서|에|의|도|됐다|되었다|했다)$")


def _words(text: str) -> list[str]:
    return [w for w in _TOKEN.findall(text.replace("'", "' ")) if len(w) > 1 or w.isdigit()]


def _one(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one word in two forms (as :mod:`.stopping` reads
    them: a run of four letters or more, three fifths of the shorter); numbers only
    when equal."""
    if x == y:
        return True
    if x.isdigit() or y.isdigit():
        return False
    short, long_ = sorted((x, y), key=len)
    if len(short) < 4:
        return False
    need = max(4, -(-3 * len(short) // 5))
    return any(short[i : i + need] in long_ for i in range(len(short) - need + 1))


def _read(new: str, m: re.Match[str]) -> str:
    """The part of ``new`` that must say the older entry's plan: the clauses up to the
    end of the one holding the word of calling off, less an agent after that word."""
    before = new[: m.start()]
    after = new[m.end() :]
    cut = _CLAUSE.search(after)
    if cut is not None:
        after = after[: cut.start()]
    kept: list[str] = []
    for w in after.replace("'", "' ").split():
        if w.strip("'") in _AGENT:
            break
        kept.append(w)
    return before + " " + " ".join(kept)


def _latin(new: str, old: str) -> str | None:
    m = searched(_CANCEL, new)
    if m is None:
        return None
    said = _words(old)
    shared = 0
    for w in _words(_read(new, m)):
        if w in STOP_WORDS or w in _AUX:
            continue
        if any(_one(w, o) for o in said):
            shared += 1
        elif w in _EVENT:
            shared += 1  # "the Mallorca *trip*": the older entry says the plan, not its noun
        else:
            return None  # a word of its own: another event, date or person
    return m.group(0) if shared >= 2 else None


AUX = _AUX
"""Auxiliaries (:data:`_AUX`), for the rules that read an event the same way
(:mod:`.rescheduling`)."""
one_word = _one
words_of = _words


def _cjk(new: str, old: str) -> str | None:
    m = searched(_CJK_CANCEL, new)
    if m is None:
        return None
    rest = new[: m.start()]
    if re.search(r"[\uac00-\ud7af]", new):
        parts = [_HANGUL_PARTICLE.sub("", p) for p in rest.split()]
    else:
        parts = _KANA_SPLIT.split(rest)
    parts = [p for p in parts if p]
    if len(parts) < 2 or any(p not in old for p in parts):
        return None  # the thing, and where or when, each said as the older entry says it
    return m.group(0)


_SCALES = (
    (
        re.compile(
            r"(?<!\w)(?:working towards|studying for|is doing|are doing|enrolled (?:in|on)|"
            r"is renovating|are renovating|renovating|arbeitet an|studiert für|macht gerade|"
            r"renoviert|renovieren|está estudiando|está haciendo|prepara|reformando|prépare|"
            r"rénove|rénovent|sta facendo|sta preparando|ristruttura|ristrutturando|"
            r"está a fazer|está fazendo|werkt aan|verbouwt|verbouwen)(?!\w)"
        ),
        re.compile(
            r"(?<!\w)(?:completed|finished|passed|obtained|earned|graduated|"
            r"abgeschlossen|bestanden|fertig|terminó|terminamos|completó|obtuvo|"
            r"aprobó|aprobé|aprobad[oa]|terminé|terminée|obtenu|achevé|finito|finita|completato|conseguito|"
            r"concluiu|terminou|concluído|afgerond|behaald|klaar)(?!\w)"
        ),
    ),
    (
        re.compile(
            r"(?<!\w)(?:engaged to|verlobt mit|comprometid[oa] con|fiancée? à|fiancée? avec|"
            r"fidanzat[oa] con|noiv[oa] de|verloofd met)(?!\w)"
        ),
        re.compile(
            r"(?<!\w)(?:married|verheiratet mit|heiratete|geheiratet|casad[oa] con|se casó con|"
            r"mariée? à|mariée? avec|a épousé|sposat[oa] con|ha sposato|casad[oa] com|"
            r"getrouwd met)(?!\w)"
        ),
    ),
    (
        re.compile(
            r"(?<!\w)(?:applying (?:for|to)|applied (?:for|to)|bewirbt sich|beworben|"
            r"solicita|solicitó|postule|a postulé|candidat[oa]|si candida|candidata-se|"
            r"solliciteert)(?!\w)"
        ),
        re.compile(
            r"(?<!\w)(?:accepted|admitted|got in|rejected|turned down|angenommen|zugelassen|"
            r"abgelehnt|admitid[oa]|aceptad[oa]|rechazad[oa]|admise?|acceptée?|refusée?|"
            r"ammess[oa]|accettat[oa]|respint[oa]|aceite|aceito|recusad[oa]|toegelaten|"
            r"aangenomen|afgewezen)(?!\w)"
        ),
    ),
)
"""States on one scale, per language: a state on the way (working towards a diploma,
engaged, applying, renovating) and the state it ends in (completed, married, accepted
or rejected, finished)."""
_MONTHS = frozenset(
    _listed(
        """
        january february march april may june july august september october november december
        januar februar märz mai juni juli oktober dezember janvier février mars avril juin
        juillet août septembre octobre novembre décembre enero febrero marzo abril mayo junio
        julio agosto septiembre octubre noviembre diciembre gennaio febbraio aprile maggio
        giugno luglio settembre ottobre dicembre janeiro fevereiro março maio junho julho
        setembro outubro novembro dezembro januari februari maart mei augustus
        """
    )
)
"""Months, in the languages of :data:`_SCALES`: the newer entry may say when."""
_YEAR = re.compile(r"(?:19|20)\d\d")
_LIST = re.compile(r",| and | und | y | et | e | en | i | oraz ")


def _reached(new: str, old: str) -> str | None:
    """The word by which ``new`` says the end of a state ``old`` says is on the way,
    with every other content word of ``new`` one of ``old`` and at least one shared."""
    if searched(_LIST, old):
        return None  # "applied to Oxford and Durham": one of two settled, the other open
    for way, end in _SCALES:
        w, e = searched(way, old), searched(end, new)
        if w is None or e is None or searched(end, old):
            continue
        said = _words(old)
        shared = 0
        for x in _words(new[: e.start()] + " " + new[e.end() :]):
            if x in STOP_WORDS or x in _AUX or x in _MONTHS or _YEAR.fullmatch(x):
                continue  # when it was reached: "married Tom *in June*"
            if not any(_one(x, o) for o in said):
                return None  # a word of its own: another course, person or place
            shared += 1
        if shared:
            return e.group(0)
    return None


def newer_says(
    a: Profile, b: Profile, says: Callable[[Profile, Profile, str, str], str | None], what: str
) -> str | None:
    """The reason ``what`` (the words that say it, the older text, the newer) when
    ``says(new, old, n, o)`` (``n``, ``o``: their folded texts) finds the words with
    ``b`` as the newer entry, else with ``a``; None when neither order says it."""
    for new, old in ((b, a), (a, b)):
        verb = says(new, old, fold(new.text), fold(old.text))
        if verb is not None:
            return f"{what} ('{verb}'): '{old.text}' / '{new.text}'"
    return None


def _reaches(new: Profile, old: Profile, n: str, o: str) -> str | None:
    if old.negated or new.negated or searched(_CJK, n):
        return None
    return _reached(n, o)


@by_text
def _scale_marks(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """The scales of :data:`_SCALES` whose state on the way ``text`` (folded) says, and
    those whose end it says: :func:`_reached` reads a pair only when the older says one
    scale's way and the newer that scale's end (tidycost 2: read once per entry)."""
    n = fold(text)
    ways = frozenset(k for k, (way, _) in enumerate(_SCALES) if searched(way, n))
    ends = frozenset(k for k, (_, end) in enumerate(_SCALES) if searched(end, n))
    return ways, ends


def reached(a: Profile, b: Profile) -> str | None:
    """The reason one of ``a``, ``b`` says the state the other says is on the way has
    ended ("working towards the diploma" / "completed the diploma"), or None."""
    (way_a, end_a), (way_b, end_b) = _scale_marks(a.text), _scale_marks(b.text)
    if not (way_a & end_b or way_b & end_a):
        return None  # no scale on the way in one and at its end in the other
    return newer_says(a, b, _reaches, "one says the state was reached")


def _calls_off(new: Profile, old: Profile, n: str, o: str) -> str | None:
    if old.negated or searched(_CANCEL, o) or searched(_CJK_CANCEL, o):
        return None
    return _cjk(n, o) if searched(_CJK, n) else _latin(n, o)


@by_text
def _calls_off_marked(text: str) -> bool:
    """Whether ``text`` (folded) has the words :func:`_calls_off` needs in the newer
    entry (:func:`_cjk`'s in a CJK text, :func:`_latin`'s otherwise): a pair where
    neither has them is never called off (tidycost 2: read once per entry)."""
    n = fold(text)
    return searched(_CJK_CANCEL if searched(_CJK, n) else _CANCEL, n) is not None


def cancelled(a: Profile, b: Profile) -> str | None:
    """The reason one of ``a``, ``b`` says the other's plan was called off (see the
    module docstring), or None."""
    if not (_calls_off_marked(a.text) or _calls_off_marked(b.text)):
        return None
    return newer_says(a, b, _calls_off, "one says it was called off")
