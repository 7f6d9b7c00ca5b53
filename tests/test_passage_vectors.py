"""Passage vectors: a long message is embedded as its whole passage and its pieces, all in
its one ``message_vectors`` row, and scored by its best vector; on both backends
(deterministic stand-in embedder: hashed words, so a query matches the text that holds
its words)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from _backends import Kit
from mnemic.cli import main
from mnemic.embedding.passage import (
    MAX_PASSAGE_CHARS,
    PIECE_CHARS,
    passage_text,
    passage_texts,
    pieces,
)
from mnemic.home import Home
from mnemic.sessions import NewMessage, NewSession, open_store
from mnemic.sessions.store import SearchFilters

pytest.importorskip("numpy")

from mnemic.embedding.standin import StandinEmbedder
from mnemic.sessions.search.embed import backfill
from mnemic.sessions.sql.vector_cache import encode

DIM = 384
FILLER = " ".join(f"Water seedling row {n} early when the soil feels dry." for n in range(45))
FACT = "The spare key hides under the blue flowerpot."
LONG = f"{FILLER} {FACT}"
TALK = [
    ("user", "Where did I park the blue car last night?"),
    ("assistant", "You left the blue car on the third floor of the garage."),
    ("user", "How should I water the tomato seedlings?"),
    ("assistant", LONG),
    ("user", "Thanks, that helps with the garden."),
]
QUERY = "spare key hides under the blue flowerpot"


def fill(store: Any) -> list[int]:
    """Record TALK as one session; return the message ids."""
    msgs = [NewMessage(role, text) for role, text in TALK]
    for _ in store.import_sessions([(NewSession("talk", "cli"), msgs)], workers=0):
        pass
    return [m.id for m in store.messages("talk")]


def blobs(store: Any) -> dict[int, bytes]:
    """Each message's stored row of vectors, read from the table."""
    rows = store.vectors._tables._read("SELECT message_id, vec FROM {s}.message_vectors")
    return {int(r[0]): bytes(r[1]) for r in rows}


def best(store: Any, e: StandinEmbedder, text: str, limit: int = 3) -> list[int]:
    q = e.embed_queries([text])[0]
    return [mid for mid, _ in store.vectors.search(q, e.model_id, SearchFilters(), limit)]


# -- the recipe ------------------------------------------------------------------------


def test_a_long_text_is_cut_after_whole_sentences_with_an_overlap() -> None:
    text = " ".join(f"Sentence number {n} says something." for n in range(40))
    got = pieces(text, 200, limit=20)
    assert len(got) > 1 and all(len(p) <= 200 and p.endswith(".") for p in got)
    assert got[1].startswith(got[0].rsplit(". ", 1)[-1])  # the last sentence again


def test_a_very_long_text_gets_longer_pieces_not_a_lost_tail() -> None:
    text = " ".join(f"Line {n} of the build log passed." for n in range(400)) + " " + FACT
    got = pieces(text)
    assert len(got) <= 8 and all(len(p) <= MAX_PASSAGE_CHARS for p in got)
    assert got[-1].endswith(FACT)  # past 2,000 characters, and past 8 x 200


def test_a_short_message_keeps_its_one_passage_and_a_long_one_leads_with_it() -> None:
    assert passage_texts("ok, the blue one", role="user", previous="which?") == [
        passage_text("ok, the blue one", role="user", previous="which?")
    ]
    got = passage_texts(LONG, role="assistant", name="Ada", previous="how?", previous_name="Bo")
    assert got[0] == passage_text(LONG, role="assistant", name="Ada", previous="how?",
                                  previous_name="Bo")  # fmt: skip
    assert FACT not in got[0]  # cut at 2,000 characters
    assert got[1].startswith("Bo: how?\nAda: ") and got[2].startswith("Ada: ")
    assert got[-1].endswith(FACT)


# -- stores, both backends ---------------------------------------------------------------


def test_a_fact_past_the_cut_of_a_long_message_is_found_by_semantic_search(
    backend: Kit,
) -> None:
    e = StandinEmbedder()
    with open_store(Home.open(backend.write_config())) as store:
        ids = fill(store)
        assert backfill(store, e).done == 5
        assert store.vectors.status(e.model_id).embedded == 5  # messages, not vectors
        assert len(blobs(store)[ids[3]]) > 2 * 2 * DIM  # the whole passage and pieces
        assert best(store, e, QUERY)[0] == ids[3]
        from mnemic.sessions.search.semantic import semantic_search

        found = semantic_search(store, QUERY, SearchFilters(), 2, embedder=e)
        assert found.notice is None and found.hits[0][0] == ids[3]


def test_an_old_row_of_one_vector_still_scores_beside_rows_of_several(backend: Kit) -> None:
    e = StandinEmbedder()
    with open_store(Home.open(backend.write_config())) as store:
        ids = fill(store)
        old = store.vectors.pending(e.model_id, limit=10)
        # the recipe before passages: one vector of the whole passage a message
        vecs = e.embed_passages([passage_text(p.content, role=p.role, previous=p.previous)
                                 for p in old])  # fmt: skip
        store.vectors.put(e.model_id, [(p, encode(v)) for p, v in zip(old, vecs, strict=True)])
        assert {len(b) for b in blobs(store).values()} == {2 * DIM}
        assert best(store, e, "blue car third floor of the garage")[0] == ids[1]
        assert ids[3] not in best(store, e, QUERY, 1)  # its one vector never saw the fact
        assert store.vectors.status(e.model_id).missing == 0  # nothing re-embeds unasked
        assert backfill(store, e).done == 0
        more = store.append_messages(store.start_session(source="cli"),
                                     [NewMessage("assistant", LONG)])  # fmt: skip
        assert backfill(store, e).done == 1
        assert best(store, e, QUERY)[0] == more[0]
        assert best(store, e, "blue car third floor of the garage")[0] == ids[1]


def test_embed_renew_gives_the_long_messages_of_an_older_store_their_pieces(
    backend: Kit,
) -> None:
    e = StandinEmbedder()
    home = backend.write_config()
    with open_store(Home.open(home)) as store:
        ids = fill(store)
        old = store.vectors.pending(e.model_id, limit=10)
        vecs = e.embed_passages([passage_text(p.content, role=p.role) for p in old])
        store.vectors.put(e.model_id, [(p, encode(v)) for p, v in zip(old, vecs, strict=True)])
        before = blobs(store)
    status = ["--home", str(home), "sessions", "embed", "--status", "--embedder", "standin"]
    shown = CliRunner().invoke(main, status)
    assert shown.exit_code == 0, shown.output
    assert "; 1 long message has one vector, made before pieces: --renew" in shown.output
    run = CliRunner().invoke(main, ["--home", str(home), "sessions", "embed", "--renew",
                                    "--embedder", "standin", "--json"])  # fmt: skip
    assert run.exit_code == 0, run.output
    assert '"done": 1' in run.output  # only the long message: the others have one passage
    shown = CliRunner().invoke(main, [*status, "--json"])
    assert '"renewable": 0' in shown.output and '"missing": 0' in shown.output
    with open_store(Home.open(home)) as store:
        after = blobs(store)
        assert len(after[ids[3]]) > 2 * 2 * DIM
        assert {i: b for i, b in after.items() if i != ids[3]} == {
            i: b for i, b in before.items() if i != ids[3]}  # fmt: skip
        assert best(store, e, QUERY)[0] == ids[3]
        assert store.vectors.status(e.model_id).embedded == 5


def test_a_row_of_several_vectors_travels_in_a_bundle_and_goes_when_forgotten(
    tmp_path: Path, backend: Kit
) -> None:
    e = StandinEmbedder()
    source = tmp_path / "source"
    source.mkdir()
    with open_store(Home.open(source)) as store:
        fill(store)
        backfill(store, e)
        made = sorted(store.vectors.dump())
    assert max(len(r[3]) for r in made) > 2 * 2 * DIM
    bundle = tmp_path / "b.mnemic"
    runner = CliRunner()
    got = runner.invoke(main, ["--home", str(source), "export", "--bundle", str(bundle),
                               "--with-vectors"])  # fmt: skip
    assert got.exit_code == 0, got.output
    dest = backend.write_config()
    got = runner.invoke(main, ["--home", str(dest), "import", "--bundle", str(bundle)])
    assert got.exit_code == 0, got.output
    with open_store(Home.open(dest)) as store:
        assert sorted(store.vectors.dump()) == made
        ids = [m.id for m in store.messages("talk")]
        assert best(store, e, QUERY)[0] == ids[3]
        store.forget("spare key hides")
        left = blobs(store)
        assert ids[3] not in left and ids[4] not in left  # and the next turn's passage
        assert ids[3] not in best(store, e, QUERY, 10)


def test_the_pieces_of_the_best_messages_by_their_first_vector_are_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Vectors written by hand (unit axes), so each score is known."""
    import numpy as np

    import mnemic.sessions.sql.vector_cache as cache_module
    from mnemic.backends.files.sqlite import SQLiteSessionStore

    def axis(*weights: float) -> Any:
        v = np.zeros(DIM, np.float32)
        v[: len(weights)] = weights
        return v / np.linalg.norm(v)

    with SQLiteSessionStore(tmp_path / "s.db", durable=False) as store:
        ids = fill(store)
        rows = store.vectors.pending("hand", limit=10)
        made = {ids[0]: [axis(1, 0.2)],  # near the query's first axis, one vector
                ids[1]: [axis(1, 0.5), axis(0, 0, 1)],  # second best first, piece: axis 3
                ids[2]: [axis(0.2, 1)],
                ids[3]: [axis(0, 1, 0.1), axis(0, 0, 1)],  # far first, piece: axis 3
                ids[4]: [axis(0, 1)]}  # fmt: skip
        store.vectors.put("hand", [(p, b"".join(encode(v) for v in made[p.message_id]))
                                   for p in rows])  # fmt: skip
        q = axis(0.3, 0, 1)
        got = store.vectors.search(q, "hand", SearchFilters(), 5)
        assert [i for i, _ in got][:2] == [ids[1], ids[3]]  # both by their piece
        assert got[0][1] == pytest.approx(float(axis(0, 0, 1) @ q), abs=1e-3)
        monkeypatch.setattr(cache_module, "RESCORED", 2)  # only the 2 best by first vector
        got = store.vectors.search(q, "hand", SearchFilters(), 2)
        assert [i for i, _ in got] == [ids[1], ids[0]]  # ids[3]'s piece is not looked at


def test_pgvectors_column_is_given_the_whole_passage_of_a_row_of_several() -> None:
    """pgvector cannot be installed here (docs/sessions.md): the text its ``vector(384)``
    column is written from is checked directly."""
    pytest.importorskip("psycopg")
    import numpy as np

    from mnemic.backends.postgres.vectors import _literal

    whole, piece = np.full(DIM, 0.5, np.float32), np.full(DIM, -0.25, np.float32)
    got = _literal(encode(whole) + encode(piece))
    assert got == _literal(encode(whole))
    assert got.count(",") == DIM - 1 and "-0.25" not in got


def test_a_message_long_only_in_its_spaces_gets_a_piece_so_renew_leaves_it_alone() -> None:
    """`embed --renew` picks rows of one vector whose text is longer than a piece as
    stored; a text longer only by its spaces packed into one piece kept one vector, so
    every `--renew` embedded it again. It now has a piece too."""
    text = "Short fact about the deploy window." + " " * 200 + "\n\nThat is all."
    assert len(text) > PIECE_CHARS and len(" ".join(text.split())) <= PIECE_CHARS
    assert len(passage_texts(text, role="user")) == 2
    assert passage_texts("Short fact.", role="user") == ["Short fact."]
