"""What the clients over a vendor SDK share: :class:`SDKChatClient` and
:class:`SDKStreamingClient`.

Every such client takes the same settings (the model, the endpoint, the API key or the
environment variable holding it, a time limit, the SDK's retries, off by default so that
callers decide whether a retry fits their time budget), makes the SDK's client once, on
first use and under a lock (the SDK is imported then: it costs about half a second), and
raises the SDK's failures as mnemic's typed errors. :meth:`SDKChatClient.complete` and
:meth:`SDKStreamingClient.stream` are written here once; a subclass gives the vendor's
steps:

* ``_connect()``: the SDK's client (imported inside :class:`~mnemic.extras.needs_extra`);
* ``_typed_errors(limit)``: a context that raises the SDK's failures inside it as
  :class:`~mnemic.errors.LLMTimeout` or :class:`~mnemic.errors.LLMRequestFailed`
  (:func:`sdk_errors` for what the vendors' SDKs name alike);
* ``_send(messages, tools, max_tokens, temperature, limit, stream=...)``: the request,
  which returns the whole reply, or the stream's events;
* ``_result(reply)``: the :class:`~mnemic.llm.ChatResult` of a whole reply;
* ``_read_stream(events, reply)``: a stream's events fed to a :class:`StreamedReply`.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Required, Self, TypedDict

from ..errors import LLMNotConfigured, LLMRequestFailed, LLMTimeout
from .client import ChatResult, ToolCall, Usage

if TYPE_CHECKING:
    from ..config import LLMSettings

__all__ = [
    "ClientSettings",
    "SDKChatClient",
    "SDKStreamingClient",
    "StreamedReply",
    "sdk_errors",
    "status_reason",
]

SETTINGS_KEY_VARIABLE = "OPENAI_API_KEY"
"""The default of ``[llm] api_key_env``: each client reads its own vendor's variable then."""


class ClientSettings(TypedDict, total=False):
    """The constructor settings every SDK client takes (see :class:`SDKChatClient`)."""

    model: Required[str]
    base_url: str
    api_key: str | None
    api_key_env: str
    timeout: float
    max_retries: int


class SDKChatClient:
    """A :class:`~mnemic.llm.ChatClient` over a vendor's SDK (see the module docstring).

    ``api_key`` falls back to the environment variable ``api_key_env`` (default: the
    vendor's, :attr:`key_variable`); without either a placeholder is sent (a local
    endpoint needs none). ``base_url`` empty means the SDK's default endpoint, where the
    vendor has one. Safe to share between threads.
    """

    key_variable: ClassVar[str]
    """The environment variable that holds the vendor's API key."""
    needs_base_url: ClassVar[bool] = False
    """Whether an endpoint must be named (no default endpoint)."""

    def __init__(
        self,
        *,
        model: str,
        base_url: str = "",
        api_key: str | None = None,
        api_key_env: str = "",
        timeout: float = 60.0,
        max_retries: int = 0,
    ) -> None:
        if self.needs_base_url and not base_url:
            raise LLMNotConfigured("base_url")
        if not model:
            raise LLMNotConfigured("model")
        self.base_url = base_url
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.api_key_env = api_key_env or self.key_variable
        self._api_key = api_key or os.environ.get(self.api_key_env, "") or "not-needed"
        self._client: Any = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: LLMSettings) -> Self:
        """Build from the ``[llm]`` settings (raises LLMNotConfigured when empty). The key
        comes from ``api_key``, else from ``api_key_env``; that setting's default
        (``OPENAI_API_KEY``) reads the vendor's own variable."""
        env = settings.api_key_env
        return cls(
            model=settings.model,
            base_url=settings.base_url,
            api_key=settings.api_key or None,
            api_key_env=cls.key_variable if env == SETTINGS_KEY_VARIABLE else env,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
        )

    @property
    def where(self) -> str:
        """The endpoint, for messages."""
        return self.base_url

    def _sdk(self) -> Any:
        with self._lock:
            if self._client is None:
                self._client = self._connect()
            return self._client

    def _connect(self) -> Any:
        raise NotImplementedError

    def _typed_errors(self, limit: float) -> contextlib.AbstractContextManager[None]:
        raise NotImplementedError

    def _send(
        self,
        messages: Sequence[Mapping[str, Any]],
        tools: Sequence[Mapping[str, Any]] | None,
        max_tokens: int | None,
        temperature: float | None,
        limit: float,
        *,
        stream: bool,
    ) -> Any:
        raise NotImplementedError

    def _result(self, reply: Any) -> ChatResult:
        raise NotImplementedError

    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """One reply; see :class:`~mnemic.llm.ChatClient`."""
        limit = self.timeout if timeout is None else timeout
        with self._typed_errors(limit):
            reply = self._send(messages, tools, max_tokens, temperature, limit, stream=False)
        return self._result(reply)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.where!r}, model={self.model!r})"


class SDKStreamingClient(SDKChatClient):
    """:class:`SDKChatClient` plus :meth:`stream` (a
    :class:`~mnemic.llm.StreamingChatClient`)."""

    def _read_stream(self, events: Iterable[Any], reply: StreamedReply) -> ChatResult:
        raise NotImplementedError

    def stream(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        on_text: Callable[[str], None],
        tools: Sequence[Mapping[str, Any]] | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        timeout: float | None = None,
    ) -> ChatResult:
        """One streamed reply: each text delta goes to ``on_text`` as it arrives; tool
        calls are assembled from their deltas. Same errors as :meth:`complete`."""
        limit = self.timeout if timeout is None else timeout
        try:
            with self._typed_errors(limit):
                events = self._send(messages, tools, max_tokens, temperature, limit, stream=True)
                return self._read_stream(events, StreamedReply(on_text))
        except OSError as exc:  # the connection dropped mid-stream
            raise LLMRequestFailed(f"the stream from {self.where} broke: {exc}") from exc


class StreamedReply:
    """A reply assembled from a stream: its text (each piece passed to ``on_text`` as it
    arrives), its tool calls from their deltas, why it stopped, its usage and model."""

    def __init__(self, on_text: Callable[[str], None]) -> None:
        self.on_text = on_text
        self.texts: list[str] = []
        self.calls: dict[int, dict[str, str]] = {}
        self.finish_reason: str | None = None
        self.usage = Usage()
        self.model: str | None = None

    def text(self, piece: str | None) -> None:
        """A piece of the answer's text."""
        if piece:
            self.texts.append(piece)
            self.on_text(piece)

    def call(
        self,
        index: int,
        *,
        id: str | None = None,
        name: str | None = None,
        arguments: str | None = None,
    ) -> None:
        """A delta of the tool call at ``index`` (made on its first delta): an id replaces
        the one so far, a name and arguments are appended."""
        slot = self.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
        if id:
            slot["id"] = id
        if name:
            slot["name"] += name
        if arguments:
            slot["arguments"] += arguments

    def result(
        self, id_prefix: str, arguments: Callable[[str], str] = lambda text: text
    ) -> ChatResult:
        """The whole reply; a call without an id gets ``id_prefix`` and its index, and
        ``arguments`` rewrites each call's argument text."""
        calls = tuple(
            ToolCall(c["id"] or f"{id_prefix}{i}", c["name"], arguments(c["arguments"]))
            for i, c in sorted(self.calls.items())
        )
        return ChatResult(
            content="".join(self.texts) if self.texts else None,
            tool_calls=calls,
            finish_reason=self.finish_reason,
            usage=self.usage,
            model=self.model,
        )


def status_reason(exc: Any, *, with_type: bool = False) -> str:
    """The message of an SDK's HTTP status error, from the body's ``error`` object when it
    has one (``type: message`` with ``with_type``), else the exception's own; at most 500
    characters."""
    body = getattr(exc, "body", None)
    if isinstance(body, Mapping):
        err = body.get("error", body)
        if isinstance(err, Mapping) and err.get("message"):
            kind = f"{err['type']}: " if with_type and err.get("type") else ""
            return f"{kind}{err['message']}"[:500]
    return str(getattr(exc, "message", exc))[:500]


@contextlib.contextmanager
def sdk_errors(
    sdk: Any,
    base: type[Exception],
    limit: float,
    where: str,
    refused: Callable[[Any], LLMRequestFailed],
) -> Iterator[None]:
    """Raise the failures of a vendor's SDK (the module ``sdk``, whose errors all derive
    from ``base``) inside the block as mnemic's: its ``APITimeoutError`` as
    :class:`~mnemic.errors.LLMTimeout` after ``limit`` seconds, an ``APIStatusError``
    (an HTTP status) as ``refused(exc)``, an ``APIConnectionError`` as "cannot reach
    ``where``", any other as :class:`~mnemic.errors.LLMRequestFailed` with its message.
    The OpenAI and Anthropic SDKs name these classes alike."""
    try:
        yield
    except sdk.APITimeoutError as exc:
        raise LLMTimeout(limit) from exc
    except sdk.APIStatusError as exc:
        raise refused(exc) from exc
    except sdk.APIConnectionError as exc:
        raise LLMRequestFailed(f"cannot reach {where}: {exc}") from exc
    except base as exc:
        raise LLMRequestFailed(str(exc)) from exc
