"""Frame words: everyday verbs and adverbs of habit that hold a fact together without
being its subject or its value, in en, de, es, fr and zh.

"The backups *go* to /srv" and "the backups *are stored* in /srv" say one thing; "the
user *drinks* tea in the evening" and "in the evening the user *has* tea" too. Two
wordings of one fact differ mostly in such words, two facts differ in what they are
about (the key: "breakfast" / "lunch") or in their value, so :mod:`.signals` leaves
these out of an entry's content words, beside the function words it already drops.

The lists are general (common verbs of each language in their frequent forms, not the
wording of any one kind of fact); Latin words are matched by their stem (the first
:data:`~.signals.STEM` letters), so one form in the list covers its inflections that
share those letters. Chinese frame words are removed from the text before it is cut
into bigrams.
"""

from __future__ import annotations

__all__ = ["FRAME_STEMS", "FRAME_ZH", "KIND_NAMES"]

_STEM = 6

_FRAME = """
    be is are was take takes took taken taking have has had eat eats ate eaten eating
    drink drinks drank drinking put puts putting store stores stored storing save saves
    saved live lives lived stay stays stayed come comes came coming give gives gave
    given say says said call calls called calling name named names start starts started
    begin begins began begun end ends ended happen happens happened hold holds held
    write writes wrote written find finds found seem seems become becomes became stick
    sticks stuck reach reaches reached sit sits lie lies lay lying belong belongs go
    goes going gone went live listen listens listening answer answers serve serves
    served due usual mostly habitually tend tends liegt liegen lag lagen steht stehen
    stand geht gehen ging kommt kam nimmt nehmen nahm genommen trinkt trinken getrunken
    isst essen gegessen schreibt schreiben geschrieben heißt heißen nennt nennen genannt
    gibt geben gegeben macht machen gemacht hält halten läuft laufen gelaufen bleibt
    bleiben geblieben beginnt beginnen begonnen startet starten gestartet endet enden
    landet landen gelandet abgelegt legt legen gelegt findet finden gefunden statt gern
    gerne meist meistens gewöhnlich üblich üblicherweise va van ir iba fue toma toman
    tomar tomó bebe beben beber bebió come comen comer guarda guardan guardar guardado
    pone ponen poner escribe escriben escribir llama llaman llamar llamado hace hacen
    hacer hecho suele suelen soler habitualmente debe deben deber queda quedan quedar
    vive viven vivir empieza empiezan empezar comienza comienzan comenzar corre corren
    correr escucha escuchan escuchar sirve sirven servir va vont aller allé prend
    prennent prendre pris boit boivent boire bu mange mangent manger met mettent mettre
    mis écrit écrivent écrire appelle appellent appeler appelé nomme nommé fait font
    faire tient tiennent tenir vit vivent vivre reste restent rester finit finissent
    finir écoute écoutent écouter répond répondent répondre tourne tournent tourner doit
    doivent devoir sert servent servir habituellement plus
"""

FRAME_STEMS = frozenset(w[:_STEM] for w in _FRAME.split())
"""The stems of the frame words of en, de, es and fr."""

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
    ("number",): "port ports puerto localhost 端口",
    ("id",): "zone zeitzone zona horaria fuseau horaire 时区",
}

KIND_NAMES: dict[str, frozenset[str]] = {
    kind: frozenset(w if w[0] >= "\u3000" else w[:_STEM] for w in names.split())
    for kinds, names in _KIND_NAMES.items()
    for kind in kinds
}
"""Per slot kind (``version``, ``path``...): the stems (CJK: the words) that name it."""
