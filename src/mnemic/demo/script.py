"""The story's script: the throwaway home's settings, a skill, and the stand-in model.

:class:`StandIn` plays the assistant. It is deterministic: it looks at each request (a
memory flush, a background review, a compression summary or an ordinary turn) and answers
with the next line of the script for that message. Every request is kept (:class:`Call`)
for the prompt-cache table at the end.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..testing import Reply, ToolCallReply

__all__ = ["CONFIG", "Call", "StandIn", "log"]

CONFIG = """\
# A throwaway home for `mnemic demo`: small limits, so every mechanism shows up quickly.
[memory]
memory_char_limit = 240      # MEMORY.md budget (the default is 2,200)

[agent]
provider = "recall"          # the built-in recall of relevant past exchanges
recall_results = 2
review_every = 4             # a background review every 4 user turns (default 10)
keep_recent_messages = 2     # messages kept word for word when compressing

[llm]
context_window = 10240       # a small model window, so compression happens
"""

SKILL = """\
---
name: rotate-billing-db-password
description: Rotate the billing database password without downtime. Use when asked to rotate it.
category: ops
---
# Rotate the billing DB password
1. Put the new password in the vault: `vault kv put secret/billing/db password=-` (stdin).
2. Add it as a second valid password: `ALTER ROLE billing WITH PASSWORD ...` on the primary.
3. Roll the billing pods: `kubectl rollout restart deploy/billing` and watch the health checks.
4. After one hour without errors, remove the old password from the vault.
"""

LOG_LINE = (
    "{t} migrate[4211]: applying 00{n}_add_invoice_index.sql ... ERROR 1064: syntax near "
    "'AUTO_INCREMENT' at line {n}; the migration runner retries in 30 s"
)


def log(lines: int, start: int) -> str:
    """``lines`` lines of a failing migration log, the first stamped ``start`` seconds in."""
    return "\n".join(
        LOG_LINE.format(t=f"09:{(start + i) // 60:02d}:{(start + i) % 60:02d}", n=40 + i % 50)
        for i in range(lines)
    )


def memory(target: str, action: str | None = None, **fields: Any) -> ToolCallReply:
    """A ``memory`` tool call (arguments in the order a model writes them)."""
    args: dict[str, Any] = {"target": target}
    if action is not None:
        args["action"] = action
    return ToolCallReply("memory", {**args, **fields})


def calls(*tool_calls: ToolCallReply) -> Reply:
    """A reply that makes these tool calls."""
    return Reply(tool_calls=list(tool_calls))


STAGING = "Billing deploys go through staging first; the staging host is stg-billing-2."
MOVED = STAGING.replace("-2.", "-3.")

# What the model answers to a user message starting with the key: the first line to the
# message itself, then one line after each round of tool results.
TURNS: dict[str, list[Any]] = {
    "Hi! I'm Ada": [
        calls(
            memory("user", "add", content="Ada; looks after the billing service."),
            memory("user", "add", content="Prefers short answers."),
        ),
        "Hi Ada. Noted: billing, short answers.",
    ],
    "Billing deploys": [
        calls(memory("memory", "add", content=STAGING)),
        "Got it: staging first, on stg-billing-2.",
    ],
    "How do I rotate": [
        calls(
            ToolCallReply(
                "skill_manage",
                {"action": "create", "name": "rotate-billing-db-password", "content": SKILL},
            )
        ),
        "Four steps: new password in the vault, add it on the primary, roll the pods, "
        "drop the old one after an hour. I saved this as the skill "
        "rotate-billing-db-password.",
    ],
    "Can you walk me through the deploy": [
        "Sure. (Your notes just changed: on-call is on Tuesdays.) 1. Merge to main. "
        "2. Deploy to stg-billing-2. 3. Smoke test. 4. Promote to production.",
    ],
    "From now on": [
        "The runner uses MySQL syntax: AUTO_INCREMENT fails on PostgreSQL. Use "
        "GENERATED ALWAYS AS IDENTITY in 0040-0089.",
    ],
    "Same error on the rerun": [
        "Same cause. Fix the first file, 0040_add_invoice_index.sql, and rerun; the rest "
        "follow the same pattern.",
    ],
    "What was the staging host": [
        "stg-billing-2: billing deploys go through staging first.",
    ],
    "Find the conversation": [
        calls(ToolCallReply("session_search", {"query": "migration log AUTO_INCREMENT"})),
        "That was on Monday: the migration runner rejected AUTO_INCREMENT (MySQL syntax) "
        "in files 0040-0089; the fix is GENERATED ALWAYS AS IDENTITY.",
    ],
    "Time to rotate": [
        calls(ToolCallReply("skill_view", {"name": "rotate-billing-db-password"})),
        "Following the skill: 1. vault kv put secret/billing/db ... 2. ALTER ROLE billing "
        "on the primary. 3. kubectl rollout restart deploy/billing. 4. Remove the old "
        "password after an hour.",
    ],
    "The staging host moved": [
        calls(memory("memory", "replace", old_text="stg-billing-2", content=MOVED)),
        "I could not update it: MEMORY.md was edited by hand, so I will not rewrite it "
        "until you review it (mnemic memory adopt).",
    ],
    "Reviewed and adopted": [
        calls(memory("memory", "replace", old_text="stg-billing-2", content=MOVED)),
        calls(
            memory(
                "memory",
                "add",
                content="Staging host changes are announced in the #billing-ops channel; "
                "check it before deploying.",
            )
        ),
        calls(
            memory(
                "memory",
                operations=[
                    {"action": "remove", "old_text": "TODO: renew"},
                    {
                        "action": "add",
                        "content": "Staging host changes are announced in #billing-ops; "
                        "check before deploying.",
                    },
                ],
            )
        ),
        "Done: stg-billing-3 is saved. Memory was full, so I dropped the stale TLS to-do "
        "to make room for the #billing-ops note.",
    ],
}

# The background reviews, in order (the last one repeats).
REVIEWS: list[list[Any]] = [
    ["Nothing to save: the preferences and facts of this conversation are in memory."],
    [
        calls(
            memory("user", "add", content="Rotates the billing DB password herself, monthly."),
            memory(
                "user",
                "replace",
                old_text="Prefers short answers.",
                content="Prefers short answers with one command to run.",
            ),
        ),
        "Saved one fact; proposed one correction.",
    ],
]

FLUSH = calls(memory("user", "add", content="Wants SQL examples for PostgreSQL, not MySQL."))

SUMMARY = (
    "Ada (billing service) set up her preferences, the staging host and a skill "
    "for rotating the billing DB password, then pasted a failing migration log: "
    "the runner rejects MySQL-only syntax (AUTO_INCREMENT) in 0040-0089."
)

FLUSH_MARK = "[mnemic: memory flush]"
REVIEW_MARK = "[mnemic: background review]"


@dataclass
class Call:
    """One request the stand-in model received."""

    kind: str
    """``turn``, ``flush``, ``review`` or ``summary``."""
    label: tuple[int, int]
    """(day, user turn) the request belongs to."""
    body: str
    """The tools and messages as sent, in order: what a prompt cache sees."""
    system: str


@dataclass
class StandIn:
    """The stand-in model: answers by looking at the request (deterministic)."""

    label: tuple[int, int] = (0, 0)
    """(day, user turn) of the requests that come next; the runner sets it."""
    calls: list[Call] = field(default_factory=list)
    review_no: int = -1

    def __call__(self, request: dict[str, Any]) -> Any:
        msgs = request.get("messages", [])
        users = [m for m in msgs if m.get("role") == "user"]
        text = str(users[-1].get("content") or "") if users else ""
        system = str(msgs[0].get("content") or "") if msgs else ""
        kind = _kind(text, system)
        body = json.dumps(request.get("tools", []), ensure_ascii=False) + "".join(
            json.dumps(m, ensure_ascii=False) for m in msgs
        )
        self.calls.append(Call(kind, self.label, body, system))
        after = len(msgs) - 1 - max(i for i, m in enumerate(msgs) if m.get("role") == "user")
        steps = sum(1 for m in msgs[-after:] if m.get("role") == "assistant") if after else 0
        if kind == "flush":
            return FLUSH
        if kind == "summary":
            return SUMMARY
        if kind == "review":
            if steps == 0:
                self.review_no += 1
            return _line(REVIEWS[min(self.review_no, len(REVIEWS) - 1)], steps)
        typed = text.split("\n\n<recalled-context>")[0]
        for key, script in TURNS.items():
            if typed.startswith(key):
                return _line(script, steps)
        return "(the scripted model has no line for this)"


def _kind(text: str, system: str) -> str:
    if FLUSH_MARK in text:
        return "flush"
    if REVIEW_MARK in text:
        return "review"
    if system.startswith("You write faithful summaries"):
        return "summary"
    return "turn"


def _line(script: list[Any], steps: int) -> Any:
    return script[min(steps, len(script) - 1)]
