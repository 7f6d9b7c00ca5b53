"""Recall 22: a re-ranker over the union of the lexical and the semantic lists (issue 33).

    .venv/bin/python bench/_rerank22.py --save bench/results/recall22-rerank.json

Dev only (LoCoMo conv-26/30/42 with their Chinese and other-language questions, the
long-chat dev histories, the update fixture's dev half); no test question is read.

**Why.** Recall 19: the fusion scores a turn one list does not hold as that list's worst,
so a turn near the top of one list and absent from (or low in) the other falls below
turns both lists rank middling; three fixed rules (``bench/_standing.py``) lost on dev.
Recall 11 (``bench/_rerank.py``) learned a re-ordering of the *fused* top 100 and gained
+1.0 point turn@10 inside its interval. This round learns the order of the *union* of
the two lists, with features that say where each list put a turn, whether one list did
not hold it at all, and what the store knows around it.

**Protocol (written and committed before any figure of it was read).**

* **Pool** of a question: what the shipped hybrid fusion holds after its repeats and
  speaker steps (captured where the time-aware step, ``freshen``, receives it), limited
  to the lexical list's first :data:`LEX_K` (by its own score), the semantic list's
  first :data:`SEM_K` (by cosine: all the vector search returns) and the fused list's
  first :data:`FUSED_K` (so nothing hybrid holds at its head is out of the model's
  reach). The pool is re-ordered and put first, with the shipped scores by rank (the
  best score to the model's first); the rest of the fused list follows in its order;
  then the time-aware step runs as shipped (recall 11: a model after it undid the
  update fixture's moves).
* **Features** (:data:`NAMES`; the question's own constants cancel in a pairwise
  model, so the time frame enters only through interactions): the fused list's rank
  (log) and score over the best; the lexical rank (log, absent = ``LEX_K + 1``), its
  reciprocal (absent = 0), the lexical score over the best, held by the lexical list;
  the same for the semantic list (cosine gap to the best; absent = the pool's largest
  gap + 0.01); the best of the two reciprocals and that best for a turn *one* list
  only holds (recall 19's case); the lexical reciprocal times the question's readable
  share; a context-only neighbour; the user's turn; its length (log characters); a
  question ("?"); how many other pool turns its session holds (log 1 + n) and that
  session's best fused score; its place in its session (seq over the session's
  messages); its time among the pool's (0 oldest, 1 newest) times "now", times "past";
  inside the date the question names (0 without one).
* **Model**: a linear pairwise logistic ranker (``bench/_rerank.py``'s :func:`fit`:
  every evidence turn of a question's pool against every other turn of it, each
  question weighing the same, features standardised on the training folds, L2 0.01,
  300 full-batch steps from zero: deterministic, pure numpy). One configuration: no
  other is measured in this round.
* **Folds** (leave one conversation out): LoCoMo's three dev conversations and the long
  chat's five dev histories, one fold each; each fold's model is fitted on the other
  seven and ranks only its own conversation's questions (English, Chinese, other
  languages). The update fixture (never trained on) is ranked by the model of all
  eight folds.
* **Arms**, question by question in the same loop, end to end through
  ``search_messages`` as ``./x bench recall`` ranks: lexical, shipped hybrid, and hybrid
  with the fold's model; scored as ``./x bench recall`` scores.
* **Ship rule**: the pooled LOCO turn@10 (LoCoMo English and long-chat dev questions,
  each ranked by the model that never saw its conversation), model minus shipped, has a
  paired bootstrap 95 % interval above zero; AND, on every dev set measured (LoCoMo
  English, ``zh``, ``xl``, long chat, the update fixture), the re-ranked hybrid is at or
  above lexical at every k (turn@5/10/25/50, session@2/5/10; fresh / past / as-of
  first); AND no set's paired turn@10 or session@5 interval lies wholly below zero.
  Then the weights go into the package as plain data, with a test, and the re-rank is
  timed (< 1 ms a question). Otherwise nothing ships, and the figures and what the
  model could not separate are the result; the test split is not run.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np

import _misses as mb
import mnemic.sessions.search.retrieval as retrieval_module
import recall as rb
from _metrics import Scores, figure
from _rerank import Model, fit
from _vcache import CachedEmbedder
from mnemic.sessions.search.hybrid import FusedMessage
from mnemic.sessions.search.retrieval import readable_share
from mnemic.sessions.search.speaker import scripts
from mnemic.sessions.search.timeframe import TimeFrame

LEX_K = 50
SEM_K = 50
FUSED_K = 20
NAMES = (
    "fused_rank", "fused", "lex_rank", "lex_recip", "lex", "lex_held",
    "sem_rank", "sem_recip", "cos_gap", "sem_held", "best_recip", "one_list_best",
    "readable_lex", "context_only", "user", "length", "asks", "session_others",
    "session_best", "place", "recency_now", "recency_past", "in_date",
)  # fmt: skip
TRAIN_SETS = ("locomo", "longchat")
