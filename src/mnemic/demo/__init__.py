"""``mnemic demo``: two working days of an agent with mnemic, against a local stand-in model.

A scripted model (:class:`~mnemic.testing.FakeLLMServer`, a real HTTP server on
127.0.0.1 speaking the OpenAI chat-completions protocol) plays the assistant; everything
else is the real thing: the reference loop (:class:`~mnemic.agent.ChatAgent`) over the
turn-lifecycle facade (:class:`~mnemic.agent.AgentSession`), curated memory, session
history, skills, the recall provider, the flush, the background review and compression,
in a throwaway home. No network, no API key.

- :mod:`.script`: the home's settings, the skill, and the stand-in model's lines;
- :mod:`.runner`: the story, one function per chapter (:func:`run_demo`);
- :mod:`.messages_api`: the same promise over the Anthropic Messages API (a stand-in
  :class:`~mnemic.testing.FakeAnthropicServer`; skipped without the ``anthropic`` extra);
- :mod:`.render`: how it prints (narration, the conversation, tool calls, the
  prompt-cache table).

The stand-in talks through the LLM client, so this needs the ``agent`` extra.
"""

from __future__ import annotations

from .runner import run_demo

__all__ = ["run_demo"]
