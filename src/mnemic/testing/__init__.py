"""Deterministic fakes and local test servers shipped with mnemic.

* :class:`FakeLLMServer`: a real HTTP server on 127.0.0.1 speaking the OpenAI
  chat-completions API with scripted replies, failures and held requests.
* :class:`FakeAnthropicServer`: the same for the Anthropic Messages API (SSE streaming,
  an emulated prompt cache that records each request's cached prefix).
* :class:`FakeSummarizer`, :class:`FakeChatClient`: in-process fakes of the protocols.

The throwaway PostgreSQL server of the tests and benchmarks is not shipped:
``bench/_pgserver.py``.
"""

from __future__ import annotations

from .anthropic_server import FakeAnthropicServer, StreamError
from .fakes import FakeChatClient, FakeSummarizer, tool_call
from .llm_server import Fail, FakeLLMServer, Hang, Reply, ToolCallReply

__all__ = [
    "Fail",
    "FakeAnthropicServer",
    "FakeChatClient",
    "FakeLLMServer",
    "FakeSummarizer",
    "Hang",
    "Reply",
    "StreamError",
    "ToolCallReply",
    "tool_call",
]
