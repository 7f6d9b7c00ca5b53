"""The chat's words and their vectors: the ``chat_words`` table of an SQLite session store.

Filled when messages are embedded (:func:`~..search.embed.embed_pending`): each distinct
word of a message's text that has letters and each word of its speaker's name (casefolded,
two characters or more: :func:`message_words`), embedded once as a query. Read by the
cross-language bridge (:mod:`..search.bridge`) for a question in a script the chat does
not write, so a query never embeds the chat's vocabulary.

``chat_words``: ``(id, word, refs, model, vec)``, one row per word, ``refs`` the messages
holding it. ``message_words``: ``(message_id, ids)``, the JSON list of the word ids a
message holds. Triggers drop a message's links when it is deleted or its text or name
changes, and drop a word whose last message went (what forgetting must leave no trace of;
forgetting runs with ``secure_delete``). ``meta.word_changes`` counts changes to the words,
so a process keeps the matrix and reloads it only when it changed.

The SQLite store has these tables from schema version 7, the PostgreSQL store from its
migration 14 (the same tables, ``vec`` as ``bytea``, the same triggers in PL/pgSQL; the
statements here run on both through the store's dialect); a store without them (an older
SQLite file read as it is) has ``store.words`` None and the bridge off. On PostgreSQL a
writer of words and a deletion take the same locks in the same order (all the messages'
rows in id order, :func:`~.tables.lock_messages`, then the ``word_changes`` row, then the
words): a message deleted while its words are put is found gone, never linked after its
deletion's trigger ran, and neither is aborted as a deadlock.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..index.stems import words as split_words
from .tables import Engine, count_rows, lock_messages

__all__ = ["SqlWords", "WordMatrix", "message_words"]


def _lettered(word: str) -> bool:
    return any(ch.isalpha() for ch in word)


_CHUNK = 500


def message_words(content: str | None, name: str | None) -> set[str]:
    """The words a message adds to the chat's vocabulary: those of its text with letters
    and those of its speaker's name, casefolded, at least two characters."""
    got = {w.casefold() for w in split_words(content or "") if _lettered(w)}
    got |= {w.casefold() for w in split_words(name or "")}
    return {w for w in got if len(w) > 1}


class WordMatrix:
    """The chat's words of one model, their vectors (float32 rows, unit length) and the
    speakers' names' words."""

    def __init__(self, words: list[str], matrix: Any, names: set[str]) -> None:
        self.words = words
        self.matrix = matrix
        self.names = names


class SqlWords:
    """The word-vector capability of the SQLite store (see the module docstring)."""

    state_sql = "SELECT value FROM {s}.meta WHERE key = 'word_changes'"
    """What a process's matrix is kept by: the count of changes to the words."""

    def __init__(self, tables: Engine[Any]) -> None:
        self._tables = tables
        self._cache: tuple[tuple[str, str], WordMatrix] | None = None
        self._lock = threading.Lock()

    def count(self, model_id: str) -> int:
        """Words with a vector of ``model_id``."""
        sql = "SELECT COUNT(*) FROM {s}.chat_words WHERE model = ?"
        return int(self._tables._read(sql, (model_id,))[0][0])

    def linked(self, ids: Sequence[int] | None = None) -> int:
        """Messages whose words are linked (``ids``: among those messages)."""
        return count_rows(self._tables, "message_words", ids)

    def of_messages(self, ids: Sequence[int]) -> list[tuple[int, dict[str, tuple[str, bytes]]]]:
        """The words linked to the messages ``ids`` (those linked), in id order, each
        word with its model and float16 vector: what ``mnemic db copy`` carries to
        another store (:meth:`put` there, its ``embed`` reading these vectors)."""
        tables = self._tables
        links: list[tuple[int, list[int]]] = []
        for among, extra in tables.dialect.chunks("message_id", sorted(ids)):
            sql = f"SELECT message_id, ids FROM {{s}}.message_words WHERE {among}"
            for r in tables._read(sql, extra):
                links.append((int(r[0]), [int(i) for i in json.loads(r[1])]))
        wanted = sorted({w for _, wids in links for w in wids})
        known: dict[int, tuple[str, tuple[str, bytes]]] = {}
        for among, extra in tables.dialect.chunks("id", wanted):
            sql = f"SELECT id, word, model, vec FROM {{s}}.chat_words WHERE {among}"
            for r in tables._read(sql, extra):
                known[int(r[0])] = (str(r[1]), (str(r[2]), bytes(r[3])))
        return [(mid, dict(known[w] for w in wids if w in known)) for mid, wids in sorted(links)]

    def dump(self) -> tuple[list[tuple[str, str, bytes]], list[tuple[str, int, list[str]]]]:
        """Every word of the chat as ``(word, model, float16 bytes)``, and every linked
        message as ``(session id, message seq, its words)`` in message order: a copy of
        the history (``mnemic export --bundle --with-vectors``; :meth:`restore` there)."""
        tables = self._tables
        rows = tables._read("SELECT id, word, model, vec FROM {s}.chat_words ORDER BY word")
        words = [(str(r[1]), str(r[2]), bytes(r[3])) for r in rows]
        name = {int(r[0]): str(r[1]) for r in rows}
        links = [
            (str(r[0]), int(r[1]), sorted(name[i] for i in json.loads(r[2]) if int(i) in name))
            for r in tables._read(
                "SELECT s.id, m.seq, w.ids FROM {s}.message_words w "
                "JOIN {s}.messages m ON m.id = w.message_id "
                "JOIN {s}.sessions s ON s.sid = m.sid ORDER BY w.message_id"
            )
        ]
        return words, links

    def restore(
        self, words: dict[str, tuple[str, bytes]], links: Sequence[tuple[str, int, list[str]]]
    ) -> int:
        """Link the messages :meth:`dump` gave (of another store holding the same
        sessions) to their words on the messages of the same session and position, the
        words' vectors taken from ``words`` (word -> model, float16 bytes), nothing
        embedded; a message not here, already linked, or whose words are of several
        models (a backfill with a new model under way: ``mnemic sessions embed`` links it)
        is left out. Returns the number of messages linked."""
        if not links:
            return 0
        here = {
            (str(r[0]), int(r[1])): int(r[2])
            for r in self._tables._read(
                "SELECT s.id, m.seq, m.id FROM {s}.messages m JOIN {s}.sessions s ON s.sid = m.sid"
            )
        }
        linked: list[tuple[int, dict[str, tuple[str, bytes]]]] = []
        for session_id, seq, held in links:
            mid = here.get((session_id, seq))
            known = {w: words[w] for w in held if w in words}
            if mid is not None and (known or not held):
                linked.append((mid, known))
        return self.put_known(linked)

    def put_known(self, linked: Iterable[tuple[int, dict[str, tuple[str, bytes]]]]) -> int:
        """Link each ``(message id, {word: (model, float16 bytes)})`` to its words with
        the vectors given, nothing embedded (a copy of another store's: :meth:`restore`,
        ``mnemic db copy``); a message whose words are of several models (a backfill with
        a new model under way: ``mnemic sessions embed`` links it) is left out. Returns
        the number of messages given to :meth:`put`."""
        from .vector_cache import decode  # numpy: the semantic extra

        groups: dict[str, tuple[list[tuple[int, set[str]]], dict[str, bytes]]] = {}
        for mid, held in linked:
            models = {model for model, _ in held.values()}
            if len(models) > 1:
                continue
            rows, vecs = groups.setdefault(next(iter(models), ""), ([], {}))
            rows.append((mid, set(held)))
            vecs.update((w, blob) for w, (_, blob) in held.items())
        done = 0
        for model, (rows, vecs) in groups.items():

            def embed(texts: list[str], vecs: dict[str, bytes] = vecs) -> list[Any]:
                return [decode(vecs[t]) for t in texts]

            for at in range(0, len(rows), _CHUNK):
                chunk = rows[at : at + _CHUNK]
                self.put(model, chunk, embed)
                done += len(chunk)
        return done

    def pending(
        self, model_id: str, *, after: int = 0, limit: int = 64
    ) -> list[tuple[int, set[str]]]:
        """Messages with id > ``after`` that have a vector of ``model_id`` and no words
        linked (embedded before this table was, or their words put failed), in id order,
        with their words."""
        rows = self._tables._read(
            "SELECT m.id, m.content, m.name FROM {s}.messages m "
            "JOIN {s}.message_vectors v ON v.message_id = m.id AND v.model = ? "
            "LEFT JOIN {s}.message_words w ON w.message_id = m.id "
            "WHERE w.message_id IS NULL AND m.id > ? ORDER BY m.id LIMIT ?",
            (model_id, int(after), int(limit)),
        )
        return [(int(r[0]), message_words(r[1], r[2])) for r in rows]

    def missing(self, model_id: str) -> int:
        """How many messages :meth:`pending` would give in all."""
        return int(
            self._tables._read(
                "SELECT COUNT(*) FROM {s}.message_vectors v "
                "LEFT JOIN {s}.message_words w ON w.message_id = v.message_id "
                "WHERE v.model = ? AND w.message_id IS NULL",
                (model_id,),
            )[0][0]
        )

    def put(
        self,
        model_id: str,
        messages: Sequence[tuple[int, set[str]]],
        embed: Callable[[list[str]], Any],
    ) -> int:
        """Link each ``(message id, its words)`` to its words, embedding (``embed``: the
        query embedder on a list of words, float16 bytes are stored) the words not yet
        held with ``model_id``; a message already linked, or gone meanwhile, is skipped.
        Returns the number of words embedded."""
        from .vector_cache import encode  # numpy: the semantic extra

        tables = self._tables
        ids = [mid for mid, _ in messages]
        linked: set[int] = set()
        for at in range(0, len(ids), _CHUNK):
            among, extra = tables.dialect.isin("message_id", ids[at : at + _CHUNK])
            rows = tables._read(f"SELECT message_id FROM {{s}}.message_words WHERE {among}", extra)
            linked |= {int(r[0]) for r in rows}
        todo = [(mid, ws) for mid, ws in messages if mid not in linked]
        wanted = sorted({w for _, ws in todo for w in ws})
        held: set[str] = set()
        for at in range(0, len(wanted), _CHUNK):
            among, extra = tables.dialect.isin("word", wanted[at : at + _CHUNK])
            sql = f"SELECT word FROM {{s}}.chat_words WHERE model = ? AND {among}"
            held |= {str(r[0]) for r in tables._read(sql, (model_id, *extra))}
        new = [w for w in wanted if w not in held]
        vecs = embed(new) if new else []
        blobs = [encode(v) for v in vecs]

        def put(conn: Any) -> int:
            # the messages first, then the words' counter, then the words: the order a
            # deletion takes them in (PostgreSQL's trigger), so a concurrent one waits
            # instead of deadlocking, and a message deleted meanwhile is seen gone (never
            # linked after its deletion's trigger ran); SQLite drops the row locks
            alive = lock_messages(tables, conn, [mid for mid, _ in todo])
            tables._run(conn, "SELECT value FROM {s}.meta WHERE key = 'word_changes' FOR UPDATE")
            tables._many(  # one statement a word, sent together (one round trip)
                conn,
                tables.dialect.sql(
                    "INSERT INTO {s}.chat_words(word, refs, model, vec) VALUES (?, 0, ?, ?) "
                    "ON CONFLICT (word) DO UPDATE SET model = excluded.model, vec = excluded.vec"
                ),
                [(word, model_id, blob) for word, blob in zip(new, blobs, strict=True)],
            )
            # the messages still there and not linked yet (another writer may have been
            # first), each once, linked in a few statements: one insert a message, sent
            # together, and one update of the words' counts for each increment, so each
            # word's row (and the counter its trigger bumps) changes once, not once a
            # message (PostgreSQL: 2,000 messages of a copy took 39 s that way)
            rows = {mid: ws for mid, ws in reversed(todo) if mid in alive}
            for among, extra in tables.dialect.chunks("message_id", sorted(rows)):
                sql = f"SELECT message_id FROM {{s}}.message_words WHERE {among}"
                for r in tables._run(conn, sql, extra).fetchall():
                    rows.pop(int(r[0]), None)
            ids_of: dict[str, int] = {}
            every = sorted({w for ws in rows.values() for w in ws})
            for among, extra in tables.dialect.chunks("word", every):
                sql = f"SELECT word, id FROM {{s}}.chat_words WHERE {among}"
                got = tables._run(conn, sql, extra).fetchall()
                ids_of.update((str(r[0]), int(r[1])) for r in got)
            links: list[tuple[int, str]] = []
            refs: dict[int, int] = {}
            for mid in sorted(rows):
                wids = sorted(ids_of[w] for w in rows[mid] if w in ids_of)
                links.append((mid, json.dumps(wids, separators=(",", ":"))))
                for wid in wids:
                    refs[wid] = refs.get(wid, 0) + 1
            tables._many(
                conn,
                tables.dialect.sql("INSERT INTO {s}.message_words(message_id, ids) VALUES (?, ?)"),
                links,
            )
            by_count: dict[int, list[int]] = {}
            for wid, n in refs.items():
                by_count.setdefault(n, []).append(wid)
            for n, wids in sorted(by_count.items()):
                for among, extra in tables.dialect.chunks("id", sorted(wids)):
                    sql = f"UPDATE {{s}}.chat_words SET refs = refs + ? WHERE {among}"
                    tables._run(conn, sql, [n, *extra])
            # a word embedded for a message that went meanwhile holds nothing
            tables._run(conn, "DELETE FROM {s}.chat_words WHERE refs <= 0")
            return len(new)

        return tables._write(put)

    def matrix(self, model_id: str) -> WordMatrix | None:
        """The chat's words of ``model_id`` and their vectors (None: none embedded),
        kept for the process until the words change."""
        import numpy as np

        from .vector_cache import decode

        tables = self._tables
        state = tables._read(self.state_sql)
        key = (model_id, "/".join(str(v) for v in state[0]) if state else "")
        with self._lock:
            if self._cache is not None and self._cache[0] == key:
                return self._cache[1]
            rows = tables._read(
                "SELECT word, vec FROM {s}.chat_words WHERE model = ? ORDER BY word", (model_id,)
            )
            if not rows:
                self._cache = None
                return None
            names = {
                w.casefold()
                for r in tables._read(
                    "SELECT DISTINCT name FROM {s}.messages WHERE name IS NOT NULL"
                )
                for w in split_words(str(r[0]))
            }
            mat = np.stack([decode(bytes(r[1])) for r in rows]).astype(np.float32)
            got = WordMatrix([str(r[0]) for r in rows], mat, names)
            self._cache = (key, got)
            return got
