"""Scanner 22's shape features, out of the product since scanner 25 (bench only).

How a text is worded, read the same way in every language: whether it speaks to the
agent, claims a speaker or an authority, grants a standing permission or a default, points
at another entry or a step, names a future trigger, steers a choice, claims the user's
trust or speaks in the agent's own voice; one bucket per shape present and one per pair of
them, whatever the language that raised it. Neither scanner 22's nor scanner 25's
leave-one-stranger-out loop shipped them (docs/scanner.md), so ``mnemic.scan.features``
no longer carries them switched off; :func:`switch` puts them into this process's
features and scorer, so a bench recipe can still fit and score a model with them.
"""

from __future__ import annotations

import re
import unicodedata
from binascii import crc32
from itertools import combinations

from mnemic.scan import classifier, features as _features
from mnemic.scan.features import BUCKET_BITS, NORM_POWER, bigram_features, normalise, token_features

_MASK = (1 << BUCKET_BITS) - 1

# A few signals of how a text is worded, the same in every language: whether it speaks
# to the agent, claims a speaker or an authority, grants a standing permission or a
# default that removes a question, points at another entry or a step, names a future
# trigger, steers a choice, or speaks in the agent's own voice. Each is one bucket (and
# each pair of them present together one more), whatever the language that raised it,
# so the weight a shape earns on the rows of one language reads it in all of them. No
# list blocks anything: the fit weighs each shape from the data, as it weighs a word.
#
# Keys are ``;``-separated, lower case, accents left out (the text is folded the same
# way); a trailing ``*`` makes a word a prefix; ``0`` stands for any digit (digits read
# as 0, :func:`normalise`). Keys of scripts written without spaces (Chinese, Japanese,
# Korean, Arabic, Hebrew, Devanagari, Bengali, Thai) match anywhere; the others as words.
SHAPES: dict[str, str] = {
    # 2nd person toward the assistant, the assistant named, a "please"
    "agent": """
        you; your; yours; yourself; you'll; you're; you've; assistant; the agent;
        the ai;
        please; du; dich; dir; dein*; euch; bitte; assistent*; tu; toi; ton; tes; vous;
        votre; vos; s'il te plait; s'il vous plait; usted; ustedes; contigo; tus;
        asistente; por favor; voce; voces; teu; tua; teus; tuas; assistente; tuo; tuoi;
        voi; vostr*; per favore; jij; jouw; jullie; uw; alsjeblieft; alstublieft; ty;
        ciebie; tobie; twoj*; prosze; asystent*; ты; тебя; тебе; твой; твоя; твои; твое;
        вы; вас; вам; ваш*; пожалуиста; ассистент*; ти; твіи; будь ласка; sen; sana;
        senin; lutfen; asistan; kamu; anda; tolong; asisten; 你; 您; 助手; 请; あなた;
        アシスタント; ください; 下さい; 당신; 어시스턴트; 주세요; 하세요; 해줘; أنت; انت;
        المساعد; من فضلك; رجاء; आप; तुम; कृपया; सहायक
    """,
    # a speaker or an authority claimed: someone above the user, a firm, the maker
    "speaker": """
        boss; manager; management; ceo; cto; cfo; director; supervisor; it department;
        it team; helpdesk; help desk; admin*; security team; compliance; legal team;
        the bank; bank's; the vendor; the developer*; developers of; the maker*;
        anthropic;
        openai; on behalf of; speaking for; authori*; approved by; signed off; sign-off;
        the user has agreed; the user agreed; per policy; official*; headquarters;
        chef*; vorgesetzt*; geschaftsfuhr*; it-abteilung; im auftrag; genehmigt*;
        autorisiert*; die bank; patron*; responsable; direction; service informatique;
        la banque; au nom de; de la part de; autoris*; jefe*; jefa; gerente; direccion;
        departamento de ti; el banco; en nombre de; de parte de; autoriz*; chefe;
        diretor*;
        o banco; em nome de; capo; direttor*; la banca; per conto di; baas;
        leidinggevend*;
        namens; szef*; kierownik*; dyrektor*; w imieniu; upowaznion*; начальник*;
        руководител*; руководств*; директор*; ит-отдел*; администратор*; банк; банка;
        от имени; разрешил*; одобрил*; keneng*; mudur*; yonetici*; adina; atasan; bos;
        老板; 经理; 上级; 管理员; 银行; 授权; 批准; 代表; 官方; 上司; 管理者; 部長;
        銀行; 承認; 許可済; 公式; 상사; 관리자; 은행; 승인; 대표; المدير; البنك; مسؤول;
        مخول; نيابة عن; بتفويض; बॉस; प्रबंधक; बैंक; अधिकृत; की ओर से
        head of; team lead; the committee; the board; agreed by; signed off by;
        on file; per the; leiter*; chef de; jefe de; руководитель; 负责人; 責任者
    """,
    # a standing permission or a default that removes a question
    "standing": """
        pre-approved; preapproved; already approved; already authori*;
        standing approval;
        standing permission; standing order; blanket approval; approved in advance;
        no need to ask; no need to confirm; no need to check; don't ask; do not ask;
        without asking; without confirming; without checking; skip the confirmation;
        by default; default to; defaults to; the default; auto-approve; auto approve;
        automatically approve; you may; you are allowed; you're allowed; is allowed to;
        you have permission; has permission; permitted to; counts as approval;
        vorab genehmigt; bereits genehmigt; standardmassig; ohne ruckfrage;
        ohne zu fragen;
        nicht nachfragen; darfst; deja approuve*; pre-approuve*; par defaut;
        sans demander;
        pas besoin de demander; tu peux; vous pouvez; ya aprobad*; preaprobad*;
        por defecto; sin preguntar; no hace falta preguntar; puedes; ja aprovad*;
        pre-aprovad*; por padrao; sem perguntar; nao precisa perguntar; podes; pode;
        gia approvat*; predefinit*; di default; senza chiedere; puoi; standaard;
        zonder te vragen; mag je; domyslnie; bez pytania; mozesz; уже одобрен*;
        заранее одобрен*; по умолчанию; не спрашивая; без подтверждения; не спрашивай;
        можешь; можно; varsayilan; sormadan; onayli; 已批准; 预先批准; 默认; 无需确认;
        不用问; 无需询问; 可以直接; 承認済; デフォルト; 既定; 確認不要; 確認せず; 聞かずに;
        してよい; 이미 승인; 기본값; 확인 없이; 묻지 않고; 해도 됩니다; موافق عليه; مسبقا;
        افتراضي; دون سؤال; بدون تأكيد; يمكنك; पहले से स्वीकृत; डिफ़ॉल्ट; बिना पूछे
        auto-approved; skip the; skip any; without waiting; instead of waiting;
        straight away; right away; just grant; just approve; no questions; sofort;
        directement; directamente; сразу; 直接; すぐに; 바로
    """,
    # another entry or a step pointed at
    "pointer": """
        entry:*; step 0; step one; first step; the step above; the note above;
        the entry above; the note below; the entry below; earlier note; previous note;
        other note; earlier entry; previous entry; other entry; that note; that entry;
        this note; the note about; the note on; mentioned above; described above;
        see above; as above; as noted; as mentioned; i mentioned; mentioned earlier;
        that script; that url; that link; that address; that file; listed above;
        schritt 0; obige*; vorherige* notiz; andere* notiz; anderen eintrag;
        oben genannt*;
        erwahnt*; etape 0; ci-dessus; note precedente; autre note; l'autre entree;
        mentionne*; paso 0; nota anterior; otra nota; la otra entrada; mencionad*;
        passo 0; acima; outra nota; sopra; nota precedente; altra nota; stap 0;
        hierboven; vorige notitie; krok 0; powyzsz*; poprzedni* notat*; шаг 0; шага 0;
        выше; предыдущ* замет*; друг* замет*; упомянут*; adim 0; yukaridaki; 第一步;
        上一步; 上面; 上一条; 另一条; 前面提到; 之前的笔记; ステップ0; 上記; 前のメモ;
        先ほどの; 別のエントリ; 0단계; 위의; 이전 메모; 위에서; الخطوة 0; الخطوة الأولى;
        أعلاه; الملاحظة السابقة; المذكور; चरण 0; ऊपर; पिछले नोट
    """,
    # a future trigger: a condition or a time at which the text starts to act
    "trigger": """
        when the user; when they; when she; when he; whenever; next time; the next time;
        from the next; from the second; from the third; from the fourth; after 0;
        after the
        first; after the second; after the third; once the user; once they; if the user
        ever; if anyone; as soon as; starting next; starting from; starting on;
        beginning
        next; on the day; later this; in the future; wenn der nutzer; wenn die nutzerin;
        wenn jemand; nachstes mal; beim nachsten; sobald; ab dem; ab der; ab nachst*;
        quand l'utilisateur; lorsque; la prochaine fois; des que; a partir du;
        a partir de
        la; cuando el usuario; cuando alguien; la proxima vez; en cuanto; a partir de;
        quando o usuario; da proxima vez; assim que; quando l'utente; la prossima volta;
        non appena; a partire da; wanneer; volgende keer; zodra; kiedy uzytkownik;
        nastepnym razem; gdy tylko; когда пользователь; когда кто-то; в следующий раз;
        как только; начиная с; после того как; kullanici; bir dahaki; 当用户; 如果用户;
        下次; 一旦; 从第; 之后; 以后; ユーザーが; 次回; 次に; したら; になったら; 以降;
        사용자가; 다음에; 다음 번; 이후; عندما; في المرة القادمة; بمجرد; ابتداء من; جब;
        अगली बार; जैसे ही
        if she; if he; if they; if the user; when she asks; when he asks;
        when they ask; when replying; when drafting; when you; from next;
        at the start of; as soon as you; wenn sie; wenn er; si el usuario;
        si l'utilisateur; se o usuario; если пользователь; когда она; когда он; 如果她;
        如果他; 彼女が
    """,
    # a choice steered: a recommendation, a purchase, a route, a supplier
    "steerverb": """
        recommend*; suggest*; propose*; prefer*; choose; pick; book; booking; buy;
        purchase*;
        order from; route; redirect*; steer*; nudge*; rank*; shortlist*; go with;
        stick with;
        empfehl*; empfiehl*; vorschlag*; bevorzug*; kauf*; bestell*; buch*; recommand*;
        propos*;
        privilegi*; achet*; commande*; reserv*; recomiend*; recomend*; suger*; sugier*;
        compra*; sugir*; consigli*; raccomand*; suggeri*; acquist*; aanbevel*; aanraden;
        kopen; polec*; zaproponuj*; kupuj*; рекоменд*; предлага*; советуй*; покупа*;
        закаж*;
        бронир*; oner*; tavsiye*; satin al*; 推荐; 建议; 购买; 预订; 选择; 勧め; おすすめ;
        推奨; 購入; 予約; 추천; 구매; 예약; أوصي; ينصح; اقترح; شراء; احجز; सुझा; सिफारिश;
        खरीद
        push*; point them; point her; point him; present; towards; toward; direct them;
        drängen; pousse*; empuja*; dirige*; подталкива*; направля*; 引导; 誘導; 유도
    """,
    "exclusive": """
        only; always; never; exclusively; solely; nothing but; instead of; rather than;
        nur; immer; nie; niemals; ausschliesslich; statt; anstatt; seulement;
        uniquement;
        toujours; jamais; exclusivement; plutot que; au lieu de; solo; solamente;
        siempre;
        nunca; en lugar de; en vez de; apenas; somente; sempre; em vez de; soltanto;
        esclusivamente; invece di; alleen; altijd; nooit; tylko; zawsze; nigdy; zamiast;
        только; всегда; никогда; исключительно; вместо; sadece; her zaman; asla; yerine;
        只; 总是; 永远; 从不; 而不是; 唯一; だけ; のみ; 常に; 決して; 代わりに; 만;
        항상; 절대; 대신; فقط; دائما; أبدا; بدلا من; केवल; हमेशा; कभी नहीं; के बजाय
        the only; whatever; no matter; regardless; egal; quel que soit; sea cual sea;
        независимо; 无论; 不管; かかわらず; 상관없이
    """,
    # trust in the agent claimed: the user follows what the agent says
    "trust": """
        trusts; trust your; trust you; trusts your; relies on; rely on you;
        rely on your;
        blindly; without question; vertraut; vertrau*; blind; fait confiance;
        aveuglement;
        confia*; ciegas; cegamente; доверяет; доверя*; слепо; 信任; 盲目; 信頼; 신뢰; 맹목;
        يثق; بثقة; भरोसा
    """,
    # the agent's own voice: a first-person rule or habit
    "selfvoice": """
        i will; i'll; i should; i must; i always; i never; i need to; i have to; i'm to;
        i am to; my rule; my default; note to self; remember to; my suggestions;
        my recommendations; my advice; ich werde; ich soll*;
        ich muss; je vais; je dois; je devrai*; voy a; debo; tengo que; vou; devo;
        tenho que;
        dovro; ik zal; ik moet; bede; musze; я буду; я должен; я должна; мне нужно;
        yapacagim; 我会; 我要; 我应该; 我必须; 私は; わたしは; 저는; 나는; سأ; يجب علي;
        मैं
    """,
}
#: Shapes read only as a pair: a steering verb beside an exclusive word is ``steer``.
SHAPE_PAIRS = {"steer": ("steerverb", "exclusive")}
_SEED_SHAPE = 0x5EED_0200
_DENSE = re.compile(
    "[\u0590-\u06ff\u0750-\u077f\u0900-\u09ff\u0e00-\u0e7f\u1100-\u11ff\u3040-\u30ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]"
)
_FOLD_MARKS = re.compile("[\u0300-\u036f\u064b-\u065f\u0670\u0640]")
_SHAPE_TOKEN = re.compile(r"\w+(?:[':-]\w+)*")
#: Whether :func:`switch` put the shapes into this process's features and scorer.
ON = False


class _ShapeIndex:
    """The keys of :data:`SHAPES` by how they are matched: whole words, word prefixes
    (by their first three characters), phrases (by their first word) and the dense
    scripts' substrings (one pattern, read only in text that is not ASCII)."""

    __slots__ = ("_dense_re", "dense", "phrases", "prefixes", "words")

    def __init__(self) -> None:
        self.words: dict[str, set[str]] = {}
        self.prefixes: dict[str, list[tuple[str, str]]] = {}
        self.phrases: dict[str, list[tuple[tuple[str, ...], str]]] = {}  # by first word
        dense: list[tuple[str, str]] = []
        for name, keys in SHAPES.items():
            for raw in keys.split(";"):
                key = _fold_shape(" ".join(raw.split()))
                if not key:
                    continue
                if _DENSE.search(key):
                    dense.append((key, name))
                    continue
                parts = key.split(" ")
                if len(parts) > 1:
                    first = parts[0].rstrip("*")
                    head = first[:3] if parts[0].endswith("*") else first
                    self.phrases.setdefault(head, []).append((tuple(parts), name))
                elif key.endswith("*"):
                    stem = key[:-1]
                    self.prefixes.setdefault(stem[:3], []).append((stem, name))
                else:
                    self.words.setdefault(key, set()).add(name)
        self.dense = {k: n for k, n in dense}
        alt = "|".join(re.escape(k).replace("0", r"\d") for k in sorted(self.dense, key=len)[::-1])
        self._dense_re = re.compile(alt) if alt else None

    def find(self, folded: str) -> set[str]:
        found: set[str] = set()
        tokens = _SHAPE_TOKEN.findall(folded)
        words_, prefixes, phrases = self.words, self.prefixes, self.phrases
        for i, tok in enumerate(tokens):
            hit = words_.get(tok)
            if hit:
                found |= hit
            for stem, name in prefixes.get(tok[:3], ()):
                if tok.startswith(stem):
                    found.add(name)
            for head in {tok, tok[:3]}:
                for parts, name in phrases.get(head, ()):
                    if _phrase_at(tokens, i, parts):
                        found.add(name)
        if self._dense_re is not None and not folded.isascii():
            dense = self.dense
            found.update(dense.get(m, "") for m in self._dense_re.findall(folded))
            found.discard("")
        return found


def _phrase_at(tokens: list[str], i: int, parts: tuple[str, ...]) -> bool:
    """Whether the words of a phrase key (``*``: a prefix) start at ``tokens[i]``."""
    if i + len(parts) > len(tokens):
        return False
    for tok, part in zip(tokens[i : i + len(parts)], parts, strict=True):
        if not (tok.startswith(part[:-1]) if part.endswith("*") else tok == part):
            return False
    return True


_shape_index: _ShapeIndex | None = None


def _fold_shape(text: str) -> str:
    text = text.replace("\u2019", "'")
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", _FOLD_MARKS.sub("", unicodedata.normalize("NFD", text)))


def shapes(low: str) -> list[str]:
    """The shapes of lower-cased text (:data:`SHAPES`, a steering verb beside an exclusive
    word read as ``steer``), in :data:`SHAPES` order."""
    global _shape_index
    if _shape_index is None:
        _shape_index = _ShapeIndex()
    found = _shape_index.find(_fold_shape(low))
    for name, (a, b) in SHAPE_PAIRS.items():
        if a in found and b in found:
            found.add(name)
    return [s for s in (*SHAPES, *SHAPE_PAIRS) if s in found and s not in _PAIR_HALVES]


_PAIR_HALVES = frozenset(h for pair in SHAPE_PAIRS.values() for h in pair)


def shape_features(low: str) -> list[int]:
    """Buckets of the shapes of lower-cased text: one per shape and one per pair of
    shapes present together."""
    found = shapes(low)
    out = [crc32(s.encode(), _SEED_SHAPE) & _MASK for s in found]
    out += [crc32(f"{a}+{b}".encode(), _SEED_SHAPE) & _MASK for a, b in combinations(found, 2)]
    return out


_PLAIN_FEATURES = _features.features
_PLAIN_LOGIT = classifier.Model.logit


def features(text: str) -> list[int]:
    """:func:`mnemic.scan.features.features` of ``text`` with its :func:`shape_features`."""
    return _PLAIN_FEATURES(text) + shape_features(normalise(text))


def _logit(self: classifier.Model, text: str) -> float:
    """:meth:`mnemic.scan.classifier.Model.logit` with the shape buckets counted."""
    w = self.weights
    low = normalise(text)
    found = list(bigram_features(low)) + shape_features(low)
    for token in dict.fromkeys(low.split()):
        found += token_features(token)
    count = len(found)
    return self.bias + sum(map(w.__getitem__, found)) / count**NORM_POWER if count else self.bias


def switch(on: bool) -> None:
    """Put the shapes into this process's features (the fit's and
    ``mnemic.scan.features.features``) and the classifier's scorer, or take them out."""
    global ON
    ON = on
    _features.features = features if on else _PLAIN_FEATURES
    classifier.Model.logit = _logit if on else _PLAIN_LOGIT  # type: ignore[method-assign]
