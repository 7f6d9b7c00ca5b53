"""The words tidy reads past: function words, frame words and the names of values'
kinds, in en, de, es, fr and zh, and the function words of pt, it and nl
(:mod:`.signals` leaves them out of an entry's content words).

* **Function words** (``the``, ``nach``, ``hasta``, ``的``) carry no subject or value.
* **Frame words**: everyday verbs and adverbs of habit that hold a fact together without
  being its subject or its value. "The backups *go* to /srv" and "the backups *are
  stored* in /srv" say one thing; "the user *drinks* tea in the evening" and "in the
  evening the user *has* tea" too. Two wordings of one fact differ mostly in such words;
  two facts differ in what they are about (the key: "breakfast" / "lunch") or in their
  value.
* **Kind names**: a word naming the kind of a value the entry holds is frame beside
  that value: "Python *version* for X: 3.10" and "X uses Python 3.10", "*deadline*
  for the report: June 22" and "the report is *due* June 22".

The lists are general (common words of each language in their frequent forms, not the
wording of any one kind of fact). Latin words, frame words among them, are compared by
their :func:`stem`, so one form covers the inflections that share it; forms whose stem
is also a common noun's ("handle", "commence" / "commentaire") are left out. Chinese
frame words end a run of characters before it is cut into bigrams.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache
from typing import Any

import snowballstemmer

__all__ = [
    "ABBREVIATIONS",
    "FRAME_NOUNS",
    "FRAME_STEMS",
    "FRAME_ZH",
    "IN_CHARGE",
    "MOVED_TO",
    "MOVES",
    "REPORTS_TO",
    "KIND_NAMES",
    "LIKING",
    "PHRASES",
    "STOP_CHARS",
    "STOP_WORDS",
    "SYNONYMS",
    "CONCEPTS",
    "concepts",
    "fold",
    "same_verb",
    "verb_links",
    "read_moves",
    "in_charge",
    "spelled_out",
    "stem",
]

_STEM = 6
_local = threading.local()


def _english() -> Any:
    found = getattr(_local, "stemmer", None)  # a stemmer keeps state between calls
    if found is None:
        found = _local.stemmer = snowballstemmer.stemmer("english")
    return found


ABBREVIATIONS = {
    "db": "database",
    "dbs": "databases",
    "prod": "production",
    "repo": "repository",
    "repos": "repositories",
    "env": "environment",
    "envs": "environments",
    "config": "configuration",
    "configs": "configurations",
    "cfg": "configuration",
    "auth": "authentication",
    "k8s": "kubernetes",
    "pg": "postgresql",
    "postgres": "postgresql",
    "docs": "documentation",
    "msg": "message",
    "msgs": "messages",
    "dir": "directory",
    "dirs": "directories",
    "info": "information",
    "app": "application",
    "apps": "applications",
    "deps": "dependencies",
    "perf": "performance",
    "admin": "administrator",
    "admins": "administrators",
    "js": "javascript",
    "dev": "development",
}
"""Common technical abbreviations, by the word they stand for: "Staging *DB*" and "the
staging *database*" are one subject. Only abbreviations with one reading in technical
notes, or whose readings share a stem ("dev": development, developer); not "ts", "conf",
"ops" or "spec"."""


def _synonyms(table: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for row in table.strip().splitlines():
        word, others = row.split(":")
        out |= dict.fromkeys(others.split(), word.strip())
    return out


SYNONYMS = _synonyms(
    """
    short: brief concise terse succinct kurz kurze kurzen knapp knappe breve breves
        brevi corto corta cortos cortas corti courte courtes bref brève brèves curto
        curta curtos curtas kort korte beknopt beknopte
    live: lives lived living wohnt wohnen lebt leben vive viven vivir vit vivent vivre
        habite habitent habiter mora moram morar abita abitano abitare woont wonen
    database: datenbank datenbanken databank databanken
    production: produktion
    answer: reply replies response responses answers antwort antworten respuesta
        respuestas réponse réponses risposta risposte resposta respostas antwoord
        antwoorden
    """.replace("\n        ", " ")
)
"""Words that say one thing in the short notes an agent keeps about how to answer, by
one of them: "wants *brief* answers" and "likes *short* replies", "respuestas *breves*"
and "respuestas *cortas*" are one preference. Not the forms with another common reading
("court", "corte": a haircut, a court)."""


_CONCEPTS = {
    # a word for a habit not held, read as that negation in its language: "vegetarian"
    # is "does not eat meat", "Vegetarier" "isst kein Fleisch"
    "not meat": "vegetarian",
    "kein fleisch": "vegetarier vegetarierin",
    "geen vlees": "vegetariër vegetarisch",
    "no carne": "vegetariano vegetariana vegetarianos vegetarianas vegetariani",
    "pas de viande": "végétarien végétarienne végétariens végétariennes",
    "not alcohol": "teetotal teetotaler teetotaller",
    "kein alkohol": "abstinent abstinenzler",
    "no alcohol": "abstemio abstemia",
    "non alcol": "astemio astemia",
}
CONCEPTS = re.compile(
    r"\b(?:is|are|am|ist|bin|sind|es|son|soy|est|sont|suis|è|sono|é|são|sou|zijn|ben)"
    r"(?: (?:a|an|ein|eine|un|une|una|uno|een|um|uma|strictly|streng|strikt|estricto))?"
    r" (" + "|".join(w for words in _CONCEPTS.values() for w in words.split()) + r")\b"
)
_CONCEPT = {w: phrase for phrase, words in _CONCEPTS.items() for w in words.split()}
_CJK_CONCEPTS = (
    (re.compile("是素食者|吃素|は菜食主義者|はベジタリアン"), "不吃肉"),
    # synonyms in Chinese, as SYNONYMS joins Latin ones: 简洁 / 简短, 答复 / 回答
    (re.compile("简洁|简要|简明|精简"), "简短"),
    (re.compile("答复|回复|回应"), "回答"),
)
"""Words that say a negated phrase of general vocabulary, read as that phrase: the one
word a habit not held has, said of who one is ("is vegetarian": "not meat", "teetotal":
"not alcohol", "ist Vegetarier": "kein Fleisch", "是素食者": "不吃肉"), and Chinese
synonyms (简洁 / 简要: 简短, 答复 / 回复: 回答). "User is vegetarian" and "User does not
eat meat" shared no form; read so, they are one fact, and "User eats meat again"
contradicts the first. A diet as a value ("eats vegetarian at lunch") stays as written."""


def concepts(folded: str) -> str:
    """``folded`` text with the words of :data:`CONCEPTS` read as their phrase."""
    folded = CONCEPTS.sub(lambda m: _CONCEPT[m.group(1)], folded)
    for pattern, word in _CJK_CONCEPTS:
        folded = pattern.sub(word, folded)
    return folded


PHRASES = {"pr": "pull request", "prs": "pull requests", "wfh": "works from home",
           "ooo": "out of office", "eod": "end of day"}  # fmt: skip
"""Abbreviations of several words, by those words: "Bram's *PR*" and "Bram's *pull
request*" are one subject (:func:`spelled_out`)."""
_PHRASE = re.compile(r"\b(?:" + "|".join(PHRASES) + r")\b")


def in_charge(folded: str) -> str:
    """``folded`` text with each in-charge relation (:data:`IN_CHARGE`,
    :data:`IN_CHARGE_CJK`) read as the one word "manager", an update marker inside it
    kept ("dépend *maintenant* de")."""
    folded = IN_CHARGE.sub(lambda m: "manager" + (m.group("now") or "") + " ", folded)
    return IN_CHARGE_CJK.sub(" manager ", folded)


IN_CHARGE_CJK = re.compile("经理|上司|领导|主管|负责人|汇报给|汇报|報告して|報告する|報告")
"""The in-charge relation in Chinese and Japanese: "用户的*经理*是王芳" / "用户向王芳*汇报*",
"田中さんの*上司*は佐藤さん" / "佐藤さんに*報告している*"."""


def spelled_out(folded: str) -> str:
    """``folded`` text with the abbreviations of :data:`PHRASES` written out."""
    return _PHRASE.sub(lambda m: PHRASES[m.group(0)], folded)


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """``text`` as the tidy rules compare words: NFKC, case folded, the typographic
    apostrophe as ``'``."""
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


@lru_cache(maxsize=1 << 16)  # each entry's words, read beside every other entry
def stem(word: str) -> str:
    """The key two Latin words (folded) are compared by: the Snowball English stem, cut
    to its first six letters, of the word itself or of the word a common technical
    abbreviation stands for ("db": "database", "prod": "production", "k8s":
    "kubernetes"), its accents folded ("validé" / "valide"). The stem joins the
    inflections of short words ("logs" / "log",
    "tests" / "testing", "emails" / "email") and a verb with its noun where they share it
    ("deploys" / "deployment"); the cut joins long ones in the other languages
    ("nachmittags" / "Nachmittag", "preferido" / "prefiere"), whose language a short
    entry does not tell reliably."""
    word = ABBREVIATIONS.get(word) or SYNONYMS.get(word, word)
    if not word.isalpha():
        return word[:_STEM]
    if not word.isascii() and max(word) < "\u0250":  # Latin letters: "validé" / "valide"
        decomposed = unicodedata.normalize("NFD", word)
        word = "".join(c for c in decomposed if not unicodedata.combining(c))
    return str(_english().stemWord(word))[:_STEM]


def two_words(word: str, other: str) -> bool:
    """Whether two Latin words (folded) of one :func:`stem` are two words: each goes on
    for four letters or more past what they share, and neither ending is a form of one
    word (:data:`SUFFIXES`): "*Kunden*daten" / "*Kunden*konten", "*Produktions*datenbank"
    / "*Produktions*server" (compounds of one head, which the six-letter cut joins), not
    "Nachmittag*s*" / "Nachmittag" nor "Install*ation*" / "install*ieren*"."""
    word, other = _unaccented(word), _unaccented(other)
    n = 0
    while n < min(len(word), len(other)) and word[n] == other[n]:
        n += 1
    rest = (word[n:], other[n:])
    return all(len(r) >= 4 and r not in SUFFIXES for r in rest)


def _unaccented(word: str) -> str:
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=1 << 16)  # the words of two entries, asked of every pair
def same_verb(word: str, other: str) -> bool:
    """Whether one of two stems is a form of the other's verb the stem does not join:
    the German or Dutch past participle, its "ge-" form ("geprüft" / "prüft", "gemaakt"
    / "maakt": a passive against its active, "die Rechnungen werden von Petra
    *geprüft*" / "Petra *prüft* die Rechnungen"), or the infinitive of a Romance verb in
    -ar or -er beside its present ("dejó de *fumar*" / "*fuma*", "manger" / "mange")."""
    return any(
        (len(y) >= 4 and x.startswith("ge") and ("ge" + y)[:_STEM] == x)
        or (len(y) >= 3 and y[-1] in "ae" and (y + "r")[:_STEM] == x and x != y)
        for x, y in ((word, other), (other, word))
    )


def verb_links(word: str) -> frozenset[str]:
    """The stems ``x`` for which :func:`same_verb` holds with ``word`` as its ``y`` (the
    participle or infinitive ``word`` would be read as): ``same_verb(w, t)`` is
    ``w in verb_links(t) or t in verb_links(w)``. Kept per word, so that a pair asks two
    look-ups where it asked every word of one side against every word of the other
    (tidycost 2)."""
    try:
        return _LINKS[word]
    except KeyError:
        pass
    out = set()
    if len(word) >= 4 and ("ge" + word)[:_STEM].startswith("ge"):
        out.add(("ge" + word)[:_STEM])
    if len(word) >= 3 and word[-1] in "ae" and (word + "r")[:_STEM] != word:
        out.add((word + "r")[:_STEM])
    if len(_LINKS) >= 1 << 16:
        _LINKS.clear()
    value = _LINKS[word] = frozenset(out)
    return value


_LINKS: dict[str, frozenset[str]] = {}


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


SUFFIXES = frozenset(
    _listed(
        """
    ation ations ationen ieren iert ierte ierung ierungen ung ungen ment ments ing ings
    er ers ern en es ed ion ions cion ciones sion tion tions zione zioni ite ita itat
    eur eurs euse ant ante ent ente ismus ist isten heit keit lich lichen isch ische
    ischen ive iven able ible ement ements amento amenti imento imiento
    """
    )
)
"""Endings that make another form of one word, not another word: "install*ation*" /
"install*ieren*", "Anforder*ungen*" / "Anforder*ung*" (:func:`two_words`)."""


LIKING = frozenset(
    _listed(
        """
    like likes liked want wants wanted prefer prefers preferred love loves enjoys mag
    mögen möchte will bevorzugt liebt quiere prefiere prefieren veut préfère aime vuole
    preferisce ama quer prefere gosta wil prefereert
    """
    )
)
"""Verbs of liking, one tie between a preference and its value: "likes *long* answers" /
"now wants *brief* replies" (:func:`.frames.aligned`)."""


# Function words and everyday verbs: they carry no subject or value of their own, so a
# pair that differs only in them says the same thing.
STOP_WORDS = frozenset(
    _listed(
        """
    a an the and or but of to in on at by for with from as into onto over under about
    than then so if is are was were be been being am do does did has have had having
    will would shall should can could may might must it its this that these those there
    here which who whom whose what when where how all any some each every both either
    neither also too very just only still always usually often really quite rather much
    many more most less least until till since during after before between through i me
    my we our us you your he him his she her they them their person use uses used using
    run runs prefer prefers preferred like likes liked want wants wanted need
    needs needed keep keeps kept get gets got make makes made go goes went set sets work
    works worked via per etc please note noted remember time times every der die das den
    dem des ein eine einen einem einer eines und oder aber von zu im in am an auf bei
    mit für aus als ist sind war waren sein hat haben hatte wird werden kann muss soll
    es er sie ihr ihre ihren sein seine seinen wir uns man wurde wurden worden bitte
    hinweis nutzt benutzt verwendet mag mögen möchte immer auch sehr nur noch zum zur
    vom beim dass wie was wo wer nach unter über bis vor hinter neben zwischen durch
    gegen um seit ab el la los las un una unos unas y o pero de del al en con por para
    como es son era fue ser está están estar tiene tienen tener usa usan utiliza
    utilizan prefiere prefieren ha han sido nota gusta gustan le les lo se su sus nos
    muy siempre también solo sólo todavía aún ya que hasta desde sobre entre hacia según
    durante le la les un une des et ou mais de du au aux en dans sur avec pour par comme
    est sont était être a ont avoir utilise utilisent préfère aime il elle ils elles son
    sa ses leur leurs très toujours aussi seulement encore que qui sous vers chez depuis
    jusqu entre pendant
    o os as um uma uns umas do da dos das em no na nos nas ao aos às pelo pela pelos
    pelas ou mas são ser estar estão tem têm ter usam gosta muito sempre também só
    ainda já ele ela eles elas seu sua seus suas feira feiras
    il lo gli di della delle dei degli dello dal dalla nel nella nei nelle con su sul
    sulla tra fra ed è sono essere hanno avere usano preferisce piace piacciono molto
    sempre anche ancora più ogni suo sua suoi sue loro alla alle ai
    het een en maar van op aan bij met voor naar uit om te tot is zijn waren wordt
    worden werd heeft hebben hij zij ze wij ons onze hun die dat deze dit wat wie waar
    hoe ook nog altijd heel erg zeer gebruikt gebruiken graag
    का की के को से में पर ने और भी है हैं था थी थे हो गया गई गए रहा रही रहे
    """
    )
)
STOP_CHARS = frozenset(
    "的了是在用我你他她它们也都很就还和与及把被由给对从到向为吗呢吧啊呀个之这那有要会让使已"
    "はをがにでとのもへ"  # Japanese particles
)


_FRAME = """
    doing done take takes took taken taking eat eats ate eaten eating require requires
    required requiring drink drinks drank drinking put puts putting store stores stored
    storing save saves
    saved live lives lived stay stays stayed come comes came coming give gives gave
    given say says said call calls called calling name named names start starts started
    begin begins began begun end ends ended happen happens happened hold holds held
    write writes wrote written find finds found seem seems become becomes became stick
    sticks stuck reach reaches reached sit sits lie lies lay lying belong belongs go
    goes going gone went live listen listens listening answer answers serve serves
    served due usual mostly habitually tend tends preference preferences liegt liegen
    lag lagen steht stehen wohnt wohnen gewohnt
    रहता रहती रहते करता करती करते
    stand geht gehen ging kommt kam nimmt nehmen nahm genommen trinkt trinken getrunken
    isst essen gegessen schreibt schreiben geschrieben heißt heißen nennt nennen genannt
    gibt geben gegeben macht machen gemacht hält halten läuft laufen gelaufen bleibt
    bleiben geblieben beginnt beginnen begonnen startet starten gestartet endet enden
    landet landen gelandet abgelegt legt legen gelegt findet finden gefunden statt gern
    gerne meist meistens gewöhnlich üblich üblicherweise vorliebe va van ir iba fue
    toma toman
    tomar tomó bebe beben beber bebió come comen comer guarda guardan guardar guardado
    pone ponen poner escribe escriben escribir llama llaman llamar llamado hace hacen
    hacer hecho suele suelen soler habitualmente preferencia preferencias debe deben
    deber queda quedan quedar
    vive viven vivir empieza empiezan empezar comienza comienzan comenzar corre corren
    correr escucha escuchan escuchar sirve sirven servir va vont aller allé prend
    prennent prendre pris boit boivent boire bu mange mangent manger met mettent mettre
    mis écrit écrivent écrire appelle appellent appeler appelé nomme nommé fait font
    faire tient tiennent tenir vit vivent vivre reste restent rester finit finissent
    finir écoute écoutent écouter répond répondent répondre tourne tournent tourner doit
    doivent devoir sert servent servir habituellement plus habite habitent habiter
    bevorzugt bevorzugen bevorzugte liebsten lieber braucht brauchen arbeitet arbeiten
    gearbeitet quiere quieren necesita necesitan trabaja trabajan trabajar veut veulent
    besoin travaille travaillent travailler garde gardent
    bebe beber toma tomar vai ir faz fazer escreve escrever trabalha trabalhar mora
    morar quer querer prefere
    beve bere mangia mangiare prende prendere va andare fa fare scrive scrivere lavora
    lavorare vive vivere vuole volere
    drinkt drinken eet eten neemt nemen gaat gaan doet doen schrijft schrijven werkt
    werken woont wonen wil willen prefereert
    verwaltet verwalten gepflegt pflegt pflegen géré gérés gérée gère gèrent gérer
    gestiona gestionan gestionado gestionada gerido gerida gerem gestisce gestito gestita
    gestiscono beheert beheerd beheren
"""

_FRAME_NOUNS = """
    preference preferences drink drinks beverage vorliebe getränk getränke preferencia
    preferencias bebida bebidas préférence préférences boisson boissons
"""

_CATEGORY_NOUNS = """
    sport sports workout workouts exercise hobby hobbies language languages sprache
    deporte deportes ejercicio pasatiempo idioma lenguaje exercice loisir langue
"""

FRAME_NOUNS = frozenset(stem(w) for w in _listed(_FRAME_NOUNS + _CATEGORY_NOUNS))
"""The stems of nouns that name what an everyday verb does ("the user's *drink*",
"sein *Getränk*", "*boisson* du soir": what the user drinks) or the kind of a value said
in words ("*Sport* mittwochs: Laufen", "el *deporte* ... es escalar", "the *language*
of code comments"), frame words even where a capital inside a sentence makes a German
noun of them. Not the nouns technical facts are about ("database", "tool"): "the prod
*DB* is backed up" and "the prod *repo* is backed up" are two facts."""

FRAME_STEMS = frozenset(stem(w) for w in _listed(_FRAME)) | FRAME_NOUNS
"""The stems of the frame words of en, de, es, fr, pt, it and nl."""

FRAME_ZH = (
    "的时候",
    "时候",
    "一般",
    "通常",
    "平时",
    "习惯",
    "总是",
    "经常",
    "喜欢",
    "已经",
    "都",
    "放",
    "跑",
    "喝",
    "吃",
    "写",
    "叫",
    "来一",
    "完成",
    "更喜欢",
    "偏好",
    "监听",
    "运行",
    "存放",
    "保存",
    "存储",
    "开始",
    "结束",
    "住在",
    "住んで",
    "住む",
)
"""Chinese frame words, longest first (removed from the text before it is cut)."""

_KIND_NAMES = {
    # the words that name a kind of value, frame beside a value of that kind: "Python
    # *version* for X: 3.10" and "X uses Python 3.10" say one thing
    ("version",): "version versions versión versiones versionen release 版本",
    ("path",): "path paths location located folder pfad ordner verzeichnis ablageort "
    "speicherort ruta ubicación carpeta chemin emplacement dossier répertoire 路径 位置 目录",
    ("date", "calendar"): "date deadline datum frist abgabe fällig fecha límite plazo vence "
    "vencimiento échéance limite 截止日期 截止 到期 期限",
    ("number",): "port ports puerto localhost limit limits limite limites límite límites "
    "limiet limieten 端口 上限 限制",
    ("id",): "zone zeitzone zona horaria fuseau horaire 时区",
}

KIND_NAMES: dict[str, frozenset[str]] = {
    kind: frozenset(w if w[0] >= "\u3000" else stem(w) for w in _listed(names))
    for kinds, names in _KIND_NAMES.items()
    for kind in kinds
}
"""Per slot kind (``version``, ``path``...): the stems (CJK: the words) that name it."""

IN_CHARGE = re.compile(
    r"\b(?:reports? to|reporting to|line manager|team lead|tech lead|managers?|manages|"
    r"managed by|boss|supervisor|owns|owned by|owners? of|in charge of|responsible for|"
    r"vorgesetzter?|"
    r"vorgesetzten|chefin|teamleiter(?:in)?|berichtet an|zuständig(?: für)?|"
    r"verantwortlich(?: für)?|betreut|jef[ea]|depende de|se encarga del?|encargad[oa] del?|"
    r"rend compte à|s'occupe de|(?:le|la|el) responsable(?: de| del| du| des)?|"
    r"dépend(?P<now> maintenant| désormais)? d(?:e |')|"
    r"als chef(?:in)?|chefe|responde (?:a|à)|responsável por|capo|riporta a|"
    r"si occupa di|leidinggevende|teamleider|rapporteert aan|verantwoordelijk voor|"
    r"eigenaar(?: van)?)\b"
)
"""Who is in charge of whom or what, said as a noun or as a verb: "*manager* is Anna" /
"*reports to* Anna", "Priya *owns* the checklist" / "the *owner* of the checklist is
Priya", "Jonas *betreut* das Deployment" / "für das Deployment ist Jonas *zuständig*",
"la *jefa* de Carlos es Lucía" / "Carlos *depende de* Lucía": one relation, read as the
one word "manager" (:func:`in_charge`). "Chef" only after the German "als" ("hat Petra
*als Chefin*"; an English chef cooks) and "responsable" only as a noun with its article
("*le responsable de* Marc": the person in charge; "responsable" alone is also to blame).
"Dépend de" and "depende de" are also "depends on" (a thing): a thing is no person, and
the other entry rarely holds the same words around it."""

MOVED_TO = re.compile(r"\b(?:has |have )?(?:moved|relocated) to\b(?= [^\W\d])")
"""An English move to a named place (a word follows, not a time: "moved to 10:00" stays
as written), read as "now lives in": "User lives in Berlin" / "User moved to Munich"
share only the generic "user", so they needed the same frame verb and had "lives" and
"moved". Applied to folded (lower-case) text; "moved the repo to GitLab" (something
moved, not the subject) is left as written."""

_PLACE = r"([^\W\d][\w'-]*(?: [^\W\d][\w'-]*)?)"
MOVES = tuple(
    (re.compile(pattern), reading)
    for pattern, reading in (
        # "ist nach München gezogen", "ist letztes Jahr nach Hamburg umgezogen", "zog nach";
        # not "ist von Hamburg nach Berlin gezogen", which names the old value (OLD_VALUE)
        (rf"\b(?:ist|sind|bin)\b(?: (?!von\b)\w+){{0,2}}? nach {_PLACE} (?:um)?gezogen\b",
         r"wohnt jetzt in \1"),
        (r"\b(?:zog|zogen|zieht|ist umgezogen) nach\b(?= [^\W\d])", "wohnt jetzt in"),
        (r"\b(?:se (?:ha |han )?(?:mudó|mudado|mudaron|trasladó|trasladado)|se fue a vivir) a\b"
         r"(?= [^\W\d])", "ahora vive en"),
        (r"\b(?:a déménagé|a emménagé|s'est installée?|est partie? vivre) à\b(?= [^\W\d])",
         "habite maintenant à"),
        (r"\bsi è (?:trasferit[oa]|spostat[oa]) a\b(?= [^\W\d])", "ora vive a"),
        (r"\b(?:mudou-se|se mudou|mudou se) para(?: o| a)?\b(?= [^\W\d])", "agora mora em"),
        (rf"\b(?:is|zijn) naar {_PLACE} (?:verhuisd|getrokken)\b", r"woont nu in \1"),
        (r"\b(?:is |zijn )?verhuisd naar\b(?= [^\W\d])", "woont nu in"),
        ("搬(?:到了|到|去了|去)", "现在住在"),
        (r"(?<=[はがも])\s*([^\sはがもにへ、。]{1,12})(?:に|へ)引っ越(?:した|しました|す)",
         r"今は\1に住んでいる"),
    )
)  # fmt: skip
"""A move to a named place in de, es, fr, it, pt, nl, zh and ja, read as "lives there now" in
the same language ("ist nach München gezogen": "wohnt jetzt in München", "se mudó a":
"ahora vive en", "s'est installé à": "habite maintenant à"), as :data:`MOVED_TO` reads
the English one; the verbs of living are one word (:data:`SYNONYMS`), so "lebt in Köln"
and "wohnt jetzt in Hamburg" share their frame."""


def read_moves(folded: str) -> str:
    """``folded`` text with each move to a named place read as "now lives in"."""
    folded = MOVED_TO.sub("now lives in", folded)
    for pattern, reading in MOVES:
        folded = pattern.sub(reading, folded)
    return folded


REPORTS_TO = re.compile(r"\b(?:reports? to|reporting to)\b")
"""The English verbs of :data:`IN_CHARGE` whose subject has the named person as its
manager: read as "manager is" before the rest of the relation is folded, so "the user
*reports to* Marek" and "the user's manager is Anna" tie their person with the same words
("is" before the name, :func:`.frames.aligned`) and a change of person reads as one.
English only: the other languages' noun forms put the person elsewhere in the sentence
("el jefe de Pablo es Andrés" / "Pablo depende de Andrés"), so the frames would not
align either way."""
