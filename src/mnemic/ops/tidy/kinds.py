"""A value switched for another of the same kind: knowledge the words do not hold.

"User uses VS Code" / "User switched to Zed" share no word but the user; that both are
editors, and that a person has one editor in use at a time, is knowledge. A small
reviewed table (``kinds.toml``) names kinds of things a person has one of in use at a
time (an editor, a shell, a browser, a phone, an OS, a package manager, a cloud, a
bank, a mobile carrier, an insurer, a hot drink, a milk, an indentation) and their
values, in any language ("ドコモ", "Сбербанк", "koemelk").

:func:`kind_switch` is the rule: one entry names one value of a kind, the other names
another value of that kind and not the first, and

* says it changed ("switched to", "now", "since", "乗り換えた"; :attr:`.Profile.update`),
  or, for a kind marked ``swap`` (editors, shells, browsers, OSes, phones, package
  managers, indentation), says the same sentence with the other value in its place
  ("User's shell is bash" / "User's shell is zsh");
* the two say nothing else apart: at most one word of its own on one side besides the
  values (one on each is a key changed with the value: "the *staging* cluster runs on
  AWS" / "the *production* cluster now runs on GCP"), and the old entry's own word
  stands before its value (a verb: "*viaggia* con
  Italo"), never after it, where it would be a purpose or a detail ("uses VS Code *for
  Python*");
* the two are written in one kind of script, their values aside (a Chinese entry and a
  Spanish one share no word to say they are one subject);
* neither names two values of the kind ("uses VS Code for Python and Neovim for notes":
  a list), says it adds ("also"), is negated, or names a person the other does not
  ("the user's partner uses Firefox").

Kinds a person may well use two of at once (a bank, a cloud, coffee and tea) need the
word of change.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from .languages import ALSO
from .memo import searched
from .people import relatives
from .signals import GENERIC, Profile, profile
from .slots import CJK_LETTER

__all__ = ["Kind", "kind_switch", "kinds", "states_apart", "values_in"]


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of the table: its name, whether an unmarked swap counts, and its values
    (each a tuple of the ways of writing it, the first its name)."""

    name: str
    swap: bool
    values: tuple[tuple[str, ...], ...]


@lru_cache(maxsize=1)
def _doc() -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("kinds.toml").read_text("utf-8"))


@lru_cache(maxsize=1)
def kinds() -> tuple[Kind, ...]:
    """The kinds of ``kinds.toml``."""
    doc = {name: table for name, table in _doc().items() if name != "states"}
    return tuple(
        Kind(
            name,
            bool(table["swap"]),
            tuple(tuple(w.strip() for w in v.split("|") if w.strip()) for v in table["values"]),
        )
        for name, table in doc.items()
    )


def _pattern(form: str) -> str:
    """``form`` as a pattern: whole words (CJK as written), case folded unless ``form``
    has a capital ("Brave", not "brave")."""
    body = re.escape(unicodedata.normalize("NFKC", form)).replace(r"\ ", r"\s+")
    if not any(c.isupper() for c in form):
        body = f"(?i:{body})"
    if CJK_LETTER.search(form):
        return body
    return rf"(?<![\w+#]){body}(?![\w+#])"


@lru_cache(maxsize=1)
def _matcher() -> tuple[re.Pattern[str], dict[str, tuple[str, str]]]:
    """One pattern for every form (longest first, so "Visual Studio Code" is not
    "Visual Studio"), and each group's (kind, value)."""
    forms = [
        (form, kind.name, value[0]) for kind in kinds() for value in kind.values for form in value
    ]
    forms.sort(key=lambda f: len(f[0]), reverse=True)
    groups = {f"g{i}": (k, v) for i, (_, k, v) in enumerate(forms)}
    return (
        re.compile("|".join(f"(?P<g{i}>{_pattern(f)})" for i, (f, _, _) in enumerate(forms))),
        groups,
    )


Found = tuple[tuple[str, str, int, int], ...]
"""What :func:`values_in` finds: (kind, value, start, end) each."""


@lru_cache(maxsize=1)
def _any_form() -> re.Pattern[str]:
    """Every form as :func:`_pattern` writes it, case folded and without the word bounds
    around it, looked for at each place of a text (a lookahead: every place where a form
    starts, overlapping or not): wherever :func:`_matcher` finds a form this finds one
    starting at the same place, so the slow pattern need only be tried there
    (tidycost: a text where this finds none names no value)."""
    forms = {f for kind in kinds() for value in kind.values for f in value}
    bodies = {re.escape(unicodedata.normalize("NFKC", f)).replace(r"\ ", r"\s+") for f in forms}
    return re.compile("(?=(?i:" + "|".join(sorted(bodies, key=len, reverse=True)) + "))")


@lru_cache(maxsize=4096)
def values_in(text: str) -> Found:
    """Each value of a kind ``text`` names: (kind, value, start, end), in order.

    What ``_matcher().finditer(text)`` finds, tried only at the places where
    :func:`_any_form` says a form starts (tidycost 2: the slow pattern tries each of
    its forms at every place of the text, 3 ms an entry). ``finditer`` takes, from
    the end of its last match on, the first place where the pattern matches, and
    there what ``match`` at that place takes; every such place is one of these."""
    text = unicodedata.normalize("NFKC", text)
    starts = [m.start() for m in _any_form().finditer(text)]
    if not starts:
        return ()
    pattern, groups = _matcher()
    out = []
    end = 0
    for at in starts:
        if at < end:
            continue
        m = pattern.match(text, at)
        if m is None:
            continue
        kind, value = groups[m.lastgroup or ""]
        out.append((kind, value, m.start(), m.end()))
        end = m.end()
    return tuple(out)


_SWAP_ARTICLES = re.compile(
    r"(?<!\w)(?:a|an|the|der|die|das|den|dem|ein|eine|einen|el|la|los|las|un|una|le|les|l'|"
    r"une|o|os|as|um|uma|il|lo|gli|het|een)(?!\w)"
)


def _rest(text: str, found: Found) -> str:
    """``text`` with the values ``found`` cut out (NFKC, as :func:`values_in` read it)."""
    text = unicodedata.normalize("NFKC", text)
    for _, _, start, end in reversed(found):
        text = text[:start] + " " + text[end:]
    return text


def _same_sentence(old: str, new: str) -> bool:
    """Whether the two texts (their values cut out) are one sentence, articles aside."""

    def plain(text: str) -> str:
        return " ".join(_SWAP_ARTICLES.sub(" ", profile(text).folded).split())

    return plain(old) == plain(new)


def kind_switch(a: Profile, b: Profile) -> tuple[str, str, str] | None:
    """(kind, old value, new value, as written) when ``b`` (or ``a``) says it switched the other's
    value of a kind a person has one of in use at a time for another (see the module
    docstring); None otherwise. The later written is kept, as by the other update
    rules."""
    found_a, found_b = values_in(a.text), values_in(b.text)
    if not found_a or not found_b:
        return None
    if a.negated or b.negated or searched(ALSO, a.folded) or searched(ALSO, b.folded):
        return None
    if relatives(a.text) != relatives(b.text):
        return None  # "the user's partner uses Firefox" / "User switched to Brave"
    if bool(CJK_LETTER.search(_rest(a.text, found_a))) != bool(
        CJK_LETTER.search(_rest(b.text, found_b))
    ):
        return None  # "用户现在改喝茶了" / "Al usuario le gusta el café": nothing shared to read
    by_kind = {k.name: k for k in kinds()}
    for new, old, found_new, found_old in ((b, a, found_b, found_a), (a, b, found_a, found_b)):
        for kind in sorted({f[0] for f in found_old} & {f[0] for f in found_new}):
            was = {f[1] for f in found_old if f[0] == kind}
            now = {f[1] for f in found_new if f[0] == kind}
            if len(was) != 1 or len(now) != 1 or was == now:
                continue  # two of a kind in one entry: a list ("VS Code ... and Neovim")
            old_value = next(_written(old.text, f) for f in found_old if f[0] == kind)
            new_value = next(_written(new.text, f) for f in found_new if f[0] == kind)
            if any(f[0] != kind for f in found_old):
                continue  # the old entry names more than this value: another fact
            rest_old = _rest(old.text, found_old)
            rest_new = _rest(new.text, found_new)
            if not new.update and not (by_kind[kind].swap and not old.update):
                continue
            if not new.update:
                if _same_sentence(rest_old, rest_new):
                    return (kind, old_value, new_value)
                continue
            if _apart(old, rest_old, rest_new, found_old):
                continue
            return (kind, old_value, new_value)
    return None


def _written(text: str, found: tuple[str, str, int, int]) -> str:
    """A value as ``text`` writes it ("кофе", not the table's "coffee")."""
    return unicodedata.normalize("NFKC", text)[found[2] : found[3]]


def _apart(old: Profile, rest_old: str, rest_new: str, found_old: Found) -> bool:
    """Whether the texts, their values cut out, say something else apart: more than one
    word of its own on either side, the old entry's own word after its value (a purpose,
    a detail), or a value (a number, a date) the other does not state."""
    po, pn = profile(rest_old), profile(rest_new)
    own_old = po.words - pn.words - GENERIC
    own_new = pn.words - po.words - GENERIC
    if len(own_old) > 1 or len(own_new) > 1 or (own_old and own_new):
        return True  # "the *staging* cluster ... AWS" / "the *production* cluster now ...": a key
    if po.stated - pn.stated:
        return True
    value_at = found_old[0][2]
    folded = unicodedata.normalize("NFKC", old.text)[value_at:]
    return any(w in profile(folded).words for w in own_old)


@lru_cache(maxsize=1)
def _states() -> tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...]:
    """Each pair of states of ``kinds.toml`` (its name, one side's pattern, the other's)."""

    def side(forms: list[str]) -> re.Pattern[str]:
        ordered = sorted(forms, key=len, reverse=True)
        return re.compile("|".join(_pattern(f.lower()) for f in ordered))

    return tuple(
        (name, side(table["one"]), side(table["other"]))
        for name, table in _doc().get("states", {}).items()
    )


@lru_cache(maxsize=4096)
def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


@lru_cache(maxsize=4096)
def _state_hits(
    text: str,
) -> tuple[tuple[re.Match[str] | None, re.Match[str] | None], ...]:
    """Where ``text`` (NFKC) says each state of :func:`_states`: (one side's match, the
    other's), read once per entry, not once per pair (tidycost)."""
    return tuple((one.search(text), other.search(text)) for _, one, other in _states())


@lru_cache(maxsize=4096)
def _state_sides(text: str) -> tuple[frozenset[int], frozenset[int]]:
    """The states of :func:`_states` whose one side ``text`` (NFKC) says, and those whose
    other side it says: :func:`states_apart` reads a pair only when one entry says a
    state's one side and the other its other (tidycost 2: asked once per entry, where the
    pair looped over every state)."""
    hits = _state_hits(text)
    return (
        frozenset(k for k, (one, _) in enumerate(hits) if one is not None),
        frozenset(k for k, (_, other) in enumerate(hits) if other is not None),
    )


def states_apart(a: Profile, b: Profile) -> tuple[str, str, str] | None:
    """(state, what ``a`` says, what ``b`` says) when the two say two states of a person
    that exclude each other ("User is an only child" / "User has a brother", "owns the
    flat" / "rents the flat") and nothing else apart: the words of the rest the same, or
    up to two words of one side's own ("has a brother *in Leeds*"); None otherwise.
    Neither may be negated outside its state ("has *no* siblings": the negation rules
    read it; "*no* direct reports" is a state)."""
    ta, tb = _nfkc(a.text), _nfkc(b.text)
    (one_a, other_a), (one_b, other_b) = _state_sides(ta), _state_sides(tb)
    if not (one_a & other_b or one_b & other_a):
        return None  # no state said on one side with its other said on the other
    ha, hb = _state_hits(ta), _state_hits(tb)
    for (name, one, other), sa, sb in zip(_states(), ha, hb, strict=True):
        for x, y, (mx, ox), (oy, my) in ((ta, tb, sa, sb), (tb, ta, sb, sa)):
            if mx is None or my is None or ox or oy:
                continue
            px, py = profile(one.sub(" ", x)), profile(other.sub(" ", y))
            if px.negated or py.negated:
                continue  # "has *no* siblings": the negation rules read it
            rest_x, rest_y = px.words - GENERIC, py.words - GENERIC
            own_x, own_y = rest_x - rest_y, rest_y - rest_x
            if (own_x and own_y) or len(own_x | own_y) > 2:
                continue
            if x is ta:
                return name, mx.group(0), my.group(0)
            return name, my.group(0), mx.group(0)
    return None
