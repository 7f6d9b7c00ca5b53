"""Where tidy's pair signals become a verdict: the thresholds :mod:`.detect` and
:mod:`.updates` read (each field is described in :mod:`.detect`'s docstring), and their
calibrated defaults."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["THRESHOLDS", "Thresholds"]


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Where the pair signals become a verdict (see the module docstring)."""

    merge_lexical: float = 0.8
    merge_strict: float = 0.9
    merge_cosine: float = 0.96
    merge_cosine_strict: float = 1.01
    """Above any cosine: off (on the dev pairs, no cosine told two rewordings from two
    facts differing in their subject at 1 % false merges)."""
    cosine_floor: float = 0.4
    subject_overlap: float = 0.6
    extra_words: int = 1
    update_words: int = 0
    reworded_overlap: float = 0.4
    """An update that rewords its sentence: the content-word overlap it needs (above 1:
    off)."""
    reworded_extra: int = 4
    """An update that rewords its sentence: at most this many words of its own per side."""
    value_words: int = 2
    """An update whose value is a phrase ("VS Code", "agua con gas"): at most this many
    words on each side, said together (0: off)."""
    frame_value_words: int = 2
    """An update that keeps the other entry's frame and changes the words in one place
    (:mod:`.frames`): at most this many words on each side (0: off)."""
    replaced_extra: int = 3
    """An update that names the other entry's value as the one it replaced ("moved from
    Berlin to Munich", "not Jira"): at most this many words of their own besides the old
    value, both sides together (the new value counted; 0: off)."""
    swap_value_words: int = 2
    """Two entries that give a single-valued attribute two values (:mod:`.attributes`:
    "is in Frankfurt" / "is in Dublin"): at most this many words on each side (0: off)."""
    meaning_cosine: float = 0.965
    """The embedder's cosine at which two entries the words left apart are one fact, when
    no veto of :mod:`.meaning` holds (above 1: off)."""
    meaning_cosine_across: float = 0.925
    """The same for two entries in two languages (:func:`.languages.two_languages_strict`),
    where the words cannot say they share a subject: the cosine decides, with names and
    numbers that must agree (tidy 18; above 1: off)."""
    meaning_cosine_anchored: float = 0.88
    """The same for two entries in two languages carried by a value both write (a name,
    a number, a month or a weekday: :func:`.across.anchored`), with no value read in
    either language telling them apart (tidy 35; above 1: off)."""


THRESHOLDS = Thresholds()
"""The calibrated defaults (``bench/tidy.py``, dev split)."""
