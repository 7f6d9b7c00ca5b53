"""Said before: a sentence that recurs across the best matches (an assistant's template
paragraph, its echo of what the user said) counts for less than the message that says it
first or alone."""

from __future__ import annotations

from pathlib import Path

from mnemic.backends.files.sqlite import SQLiteSessionStore
from mnemic.sessions import NewMessage, search_messages
from mnemic.sessions.index.query import parse_query
from mnemic.sessions.search.freshness import state_before
from mnemic.sessions.search.hybrid import FusedMessage, SemanticHit
from test_sessions_search_modes import VectorStore, real_embedder

T0 = 1_750_000_000.0
DAY = 86_400.0
TEMPLATE = (
    "The long run is the heart of marathon training: your first long run of the plan sets "
    "the pace for every long run after it, so keep the long run easy."
)
FILLER = (
    "Sleep is training too: runners who sleep less recover more slowly. "
    "Strength work for the hips and calves twice a week keeps injuries away."
)
ANSWER = "Your first long run should be 11 kilometres, then add one kilometre a week."


def _sessions(store: SQLiteSessionStore, sessions: list[list[tuple[str, str]]]) -> None:
    for i, turns in enumerate(sessions):
        sid = f"s{i:02d}"
        store.start_session(id=sid, started_at=T0 + i * DAY)
        store.append_messages(
            sid,
            [NewMessage(r, t, timestamp=T0 + i * DAY + 60 * j) for j, (r, t) in enumerate(turns)],
        )


MARATHON = [
    [("user", f"Any tips for week {i} of my marathon plan?"), ("assistant", f"{TEMPLATE} {FILLER}")]
    for i in range(1, 6)
]
MARATHON.insert(
    2, [("user", "I signed up for my first marathon."), ("assistant", f"{FILLER} {ANSWER}")]
)


def test_a_template_paragraph_repeated_across_sessions_ranks_below_the_one_reply_that_answers(
    tmp_path: Path,
) -> None:
    """The reply that states the answer once ranks above five copies of a paragraph
    dense with the question's words (lexical). Before, the copies ranked first."""
    with SQLiteSessionStore(tmp_path / "s.db") as s:
        _sessions(s, MARATHON)
        found = search_messages(
            s, "How long did you say my first long run should be?", mode="lexical"
        )
    first = found.results[0]
    assert (first.session_id, first.seq) == ("s02", 1)
    copies = [r for r in found.results if r.snippet.startswith("The long run")]
    assert len(copies) == 5
    assert all(any(w.startswith("repeated") for w in r.why) for r in copies)


UPDATES = [
    [
        ("user", "Our production cluster runs Django 12.6."),
        ("assistant", "Okay, I'll keep that in mind. Our production cluster runs Django 12.6."),
    ],
    [
        ("user", "CI for the API service runs on GitLab CI."),
        ("assistant", "Okay, I'll keep that in mind. CI for the API service runs on GitLab CI."),
    ],
    [
        ("user", "Can you suggest a quick dinner?"),
        ("assistant", "Try a chickpea curry: onion, garlic, tomatoes, coconut milk and spices."),
    ],
    [
        ("user", "We upgraded production to Django 14.0 last night, no longer on 12.6."),
        ("assistant", "Thanks for the update."),
    ],
    [
        ("user", "My cousin Leo moved to Krakow, no longer in Gdansk."),
        ("assistant", "Thanks for the update."),
    ],
]


def test_the_assistants_echo_of_a_statement_ranks_below_the_statement(tmp_path: Path) -> None:
    """The user's statement and the assistant's word-for-word echo of it: the statement
    is the evidence: for a question about the state before a change it ranks first, the
    change next and the echo below both (hybrid, the shipped embedder; skipped without
    it). Before, the echo ranked second, above the change (in the update fixture's dev
    question it ranked first and became the event the question names)."""
    embedder = real_embedder()
    with VectorStore(tmp_path / "s.db") as s:
        _sessions(s, UPDATES)
        s.embed(embedder)
        found = search_messages(
            s,
            "Which Django version did production run before the upgrade?",
            mode="hybrid",
            embedder_loader=lambda: embedder,
        )
        assert found.mode == "hybrid", found.notice
    order = [(r.session_id, r.seq) for r in sorted(found.results, key=lambda r: r.rank)]
    assert order[0] == ("s00", 0)
    assert order.index(("s00", 0)) < order.index(("s03", 0)) < order.index(("s00", 1))


def test_messages_without_repeats_rank_as_before(tmp_path: Path) -> None:
    """No sentence recurs: nothing is discounted, nothing says ``repeated``."""
    with SQLiteSessionStore(tmp_path / "s.db") as s:
        _sessions(s, [[("user", "I ran 10 km today."), ("assistant", "A good long run.")]])
        found = search_messages(s, "How far did I run?", mode="lexical")
    assert found.results
    assert not any(w.startswith("repeated") for r in found.results for w in r.why)


def test_the_state_before_a_change_is_the_best_scored_earlier_statement(tmp_path: Path) -> None:
    """Of two earlier statements of the subject a change supersedes, the better scored is
    the state before it (the user's statement, the assistant's discounted echo a turn
    later being the other). Before, the later one was taken: the echo."""
    with SQLiteSessionStore(tmp_path / "s.db") as s:
        _sessions(s, UPDATES)
        rows = {(m.session_id, m.seq): m for sid in ("s00", "s03") for m in s.messages(sid)}

        def at(sid: str, seq: int, score: float) -> FusedMessage:
            m = rows[(sid, seq)]
            return FusedMessage(
                sid, seq, score, ("semantic",), None, SemanticHit(m.id, sid, seq, score)
            )

        event = at("s03", 0, 0.92)
        fused = [event, at("s00", 0, 0.8), at("s00", 1, 0.46)]
        query = parse_query("Which Django version did production run", match="any")
        out = state_before(s, fused, query, event)
    assert [(f.session_id, f.seq) for f in out[:2]] == [("s00", 0), ("s03", 0)]
    assert "earlier" in out[0].notes
