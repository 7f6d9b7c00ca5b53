"""An activity one entry says, and the other says was stopped (tidy 21).

"Jonas drives the community minibus every other Wednesday" / "Jonas gave up the
minibus driving", "Hän laulaa kirkkokuorossa" / "Hän lopetti kirkkokuorossa
laulamisen", "היא מתנדבת בבנק המזון" / "היא הפסיקה להתנדב בבנק המזון",
"用户每周日去打羽毛球" / "用户已经不打羽毛球了", "Ilie merge la pescuit" / "Ilie nu mai
merge la pescuit" (tidy 29: "no longer", "nu mai"): the newer entry holds a verb of
stopping (:data:`_STOP`, per language) and, besides it, only words of the older entry
(in another form: "drives" / "driving", "laulaa" / "laulamisen", "מתנדבת" /
"להתנדב"); the older entry says the activity, and when (a weekday, "every other"), which
the stopping entry may leave out. The activity does not hold any more: an update.

Apart: a stopping entry with a word of its own ("gave up *smoking*" beside "drives the
minibus": another activity; "*Anna* stopped ..." beside "Jonas ...": another person),
an older entry that is itself negated, and verbs that also mean something else ("left"
the keys, "бросил" a ball, "deixou" something somewhere are not read).

:func:`stopped` gives the reason, or None.
"""

from __future__ import annotations

import re

from .cancelling import newer_says
from .lexicon import STOP_WORDS, fold
from .memo import by_text, searched
from .signals import Profile

__all__ = ["stopped"]


def _listed(text: str) -> list[str]:
    """The words of a word list written as one string."""
    return text.split()


_STOP = re.compile(
    r"(?<!\w)(?:stopped|quit|gave up|given up|aufgehört|aufgegeben|dejó|dejado|ha deixat|"
    r"deixat|arrêté|arrêtée|abandonné|abandonnée|parou|smesso|smessa|gestopt|opgegeven|"
    r"lopetti|lopettanut|slutat|sluttet|stoppet|przestał|przestała|перестал|перестала|"
    r"перестав|перестала|přestal|přestala|prestal|prestala|abbandonato|abbandonata|"
    r"no longer|nu mai)(?!\w)"
    r"|הפסיק(?:ה|ו)?"
)
"""A verb of stopping, as written after an auxiliary ("has *stopped*", "ha *deixat*",
"hat ... *aufgehört*")."""
_CJK_STOP = re.compile(r"已经不再?|不再|已不|やめた|辞めた|그만뒀|그만두었|끊었")
_CJK_END = re.compile(r"[了。.！!]+$")
_AUX = frozenset(
    _listed(
        """
    has have had is was ha hat hatte ist war es está a ha han he é è heeft is har on
    already ya já già al jo jau уже już juž už up de met mit con da du
        """
    )
)
"""Auxiliaries and particles a stopping phrase is built with ("*has* stopped", "*ya*
dejó", "gestopt *met*", "gave *up*")."""
_TOKEN = re.compile(r"[^\W\d_]+")
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")


def _words(text: str) -> list[str]:
    """Its words, an elided article left off ("l'aquagym")."""
    found = _TOKEN.findall(text.replace("'", "' "))
    return [w for w in found if len(w) > 1]


def _one(x: str, y: str) -> bool:
    """Whether ``x`` and ``y`` are one word in two forms: a run of four letters or more
    in common, at least three fifths of the shorter ("drives" / "driving", "laulaa" /
    "laulamisen", "מתנדבת" / "להתנדב")."""
    if x == y:
        return True
    short, long_ = sorted((x, y), key=len)
    need = max(4, -(-3 * len(short) // 5))
    return any(short[i : i + need] in long_ for i in range(len(short) - need + 1))


def _latin(new: str, old: str) -> str | None:
    m = searched(_STOP, new)
    if m is None:
        return None
    rest = [w for w in _words(new[: m.start()] + " " + new[m.end() :]) if w not in _AUX]
    said = _words(old)
    if not rest or not any(w not in STOP_WORDS for w in rest):
        return None
    if any(not any(_one(w, o) for o in said) for w in rest if w not in STOP_WORDS):
        return None  # a word of its own: another activity or another person
    return m.group(0)


def _cjk(new: str, old: str) -> str | None:
    m = searched(_CJK_STOP, new)
    if m is None:
        return None
    parts = [p for p in (new[: m.start()], _CJK_END.sub("", new[m.end() :])) if p.strip()]
    if len(parts) < 2 or any(p.strip() not in old for p in parts):
        return None  # the subject and the activity, each said as the older entry says it
    return m.group(0)


def _stops(new: Profile, old: Profile, n: str, o: str) -> str | None:
    if old.negated or searched(_STOP, o) or searched(_CJK_STOP, o):
        return None
    return _cjk(n, o) if searched(_CJK, n) else _latin(n, o)


@by_text
def _stop_marked(text: str) -> bool:
    """Whether ``text`` (folded) has the words :func:`_stops` needs in the newer entry
    (:func:`_cjk`'s in a CJK text, :func:`_latin`'s otherwise): a pair where neither has
    them never says one stopped (tidycost 2: read once per entry)."""
    n = fold(text)
    return searched(_CJK_STOP if searched(_CJK, n) else _STOP, n) is not None


def stopped(a: Profile, b: Profile) -> str | None:
    """The reason one of ``a``, ``b`` says the other's activity was stopped (see the
    module docstring), or None."""
    if not (_stop_marked(a.text) or _stop_marked(b.text)):
        return None
    return newer_says(a, b, _stops, "one says it stopped")
