"""``mnemic demo``: two working days of an agent with mnemic, against a local stand-in model.

A scripted model (:class:`~mnemic.testing.FakeLLMServer`, a real HTTP server on
127.0.0.1 speaking the OpenAI chat-completions protocol) plays the assistant; everything
else is the real thing: the reference loop (:class:`~mnemic.agent.ChatAgent`) over the
turn-lifecycle facade (:class:`~mnemic.agent.AgentSession`), curated memory, session
history, skills, the recall provider, the flush, the background review and compression,
in a throwaway home. No network, no API key.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from ..agent.chat import TurnResult
    from ..agent.session import AgentSession

__all__ = ["demo", "run_demo"]

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


def _log(lines: int, start: int) -> str:
    return "\n".join(
        LOG_LINE.format(t=f"09:{(start + i) // 60:02d}:{(start + i) % 60:02d}", n=40 + i % 50)
        for i in range(lines)
    )


def _reply(*calls: tuple[str, dict[str, Any]], text: str | None = None) -> Any:
    from ..testing import Reply, ToolCallReply

    return Reply(content=text, tool_calls=[ToolCallReply(n, a) for n, a in calls])


FLUSH_MARK = "[mnemic: memory flush]"
REVIEW_MARK = "[mnemic: background review]"


@dataclass
class Call:
    """One request the stand-in model received."""

    kind: str
    label: tuple[int, int]
    body: str
    system: str


@dataclass
class Script:
    """The stand-in model: answers by looking at the request (deterministic)."""

    turns: dict[str, list[Any]]
    reviews: list[list[Any]]
    label: tuple[int, int] = (0, 0)
    calls: list[Call] = field(default_factory=list)
    review_no: int = -1

    def __call__(self, request: dict[str, Any]) -> Any:
        msgs = request.get("messages", [])
        users = [m for m in msgs if m.get("role") == "user"]
        text = str(users[-1].get("content") or "") if users else ""
        system = str(msgs[0].get("content") or "") if msgs else ""
        if FLUSH_MARK in text:
            kind = "flush"
        elif REVIEW_MARK in text:
            kind = "review"
        elif system.startswith("You write faithful summaries"):
            kind = "summary"
        else:
            kind = "turn"
        body = json.dumps(request.get("tools", []), ensure_ascii=False) + "".join(
            json.dumps(m, ensure_ascii=False) for m in msgs
        )
        self.calls.append(Call(kind, self.label, body, system))
        after = len(msgs) - 1 - max(i for i, m in enumerate(msgs) if m.get("role") == "user")
        steps = sum(1 for m in msgs[-after:] if m.get("role") == "assistant") if after else 0
        if kind == "flush":
            return _reply(
                (
                    "memory",
                    {
                        "target": "user",
                        "action": "add",
                        "content": "Wants SQL examples for PostgreSQL, not MySQL.",
                    },
                )
            )
        if kind == "summary":
            return (
                "Ada (billing service) set up her preferences, the staging host and a skill "
                "for rotating the billing DB password, then pasted a failing migration log: "
                "the runner rejects MySQL-only syntax (AUTO_INCREMENT) in 0040-0089."
            )
        if kind == "review":
            if steps == 0:
                self.review_no += 1
            script = self.reviews[min(self.review_no, len(self.reviews) - 1)]
            return script[min(steps, len(script) - 1)]
        typed = text.split("\n\n<recalled-context>")[0]
        for key, script in self.turns.items():
            if typed.startswith(key):
                return script[min(steps, len(script) - 1)]
        return "(the scripted model has no line for this)"


def _script() -> Script:
    staging = "Billing deploys go through staging first; the staging host is stg-billing-2."
    turns: dict[str, list[Any]] = {
        "Hi! I'm Ada": [
            _reply(
                (
                    "memory",
                    {
                        "target": "user",
                        "action": "add",
                        "content": "Ada; looks after the billing service.",
                    },
                ),
                (
                    "memory",
                    {"target": "user", "action": "add", "content": "Prefers short answers."},
                ),
            ),
            "Hi Ada. Noted: billing, short answers.",
        ],
        "Billing deploys": [
            _reply(("memory", {"target": "memory", "action": "add", "content": staging})),
            "Got it: staging first, on stg-billing-2.",
        ],
        "How do I rotate": [
            _reply(
                (
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
            _reply(("session_search", {"query": "migration log AUTO_INCREMENT"})),
            "That was on Monday: the migration runner rejected AUTO_INCREMENT (MySQL syntax) "
            "in files 0040-0089; the fix is GENERATED ALWAYS AS IDENTITY.",
        ],
        "Time to rotate": [
            _reply(("skill_view", {"name": "rotate-billing-db-password"})),
            "Following the skill: 1. vault kv put secret/billing/db ... 2. ALTER ROLE billing "
            "on the primary. 3. kubectl rollout restart deploy/billing. 4. Remove the old "
            "password after an hour.",
        ],
        "The staging host moved": [
            _reply(
                (
                    "memory",
                    {
                        "target": "memory",
                        "action": "replace",
                        "old_text": "stg-billing-2",
                        "content": staging.replace("-2.", "-3."),
                    },
                )
            ),
            "I could not update it: MEMORY.md was edited by hand, so I will not rewrite it "
            "until you review it (mnemic memory adopt).",
        ],
        "Reviewed and adopted": [
            _reply(
                (
                    "memory",
                    {
                        "target": "memory",
                        "action": "replace",
                        "old_text": "stg-billing-2",
                        "content": staging.replace("-2.", "-3."),
                    },
                )
            ),
            _reply(
                (
                    "memory",
                    {
                        "target": "memory",
                        "action": "add",
                        "content": "Staging host changes are announced in the "
                        "#billing-ops channel; check it before deploying.",
                    },
                )
            ),
            _reply(
                (
                    "memory",
                    {
                        "target": "memory",
                        "operations": [
                            {"action": "remove", "old_text": "TODO: renew"},
                            {
                                "action": "add",
                                "content": "Staging host changes are announced in "
                                "#billing-ops; check before deploying.",
                            },
                        ],
                    },
                )
            ),
            "Done: stg-billing-3 is saved. Memory was full, so I dropped the stale TLS to-do "
            "to make room for the #billing-ops note.",
        ],
    }
    reviews = [
        ["Nothing to save: the preferences and facts of this conversation are in memory."],
        [
            _reply(
                (
                    "memory",
                    {
                        "target": "user",
                        "action": "add",
                        "content": "Rotates the billing DB password herself, monthly.",
                    },
                ),
                (
                    "memory",
                    {
                        "target": "user",
                        "action": "replace",
                        "old_text": "Prefers short answers.",
                        "content": "Prefers short answers with one command to run.",
                    },
                ),
            ),
            "Saved one fact; proposed one correction.",
        ],
    ]
    return Script(turns, reviews)


# --- printing ---------------------------------------------------------------------------------


def _say(text: str) -> None:
    click.echo(textwrap.fill(" ".join(text.split()), width=92, break_on_hyphens=False))


def _step(n: int, title: str) -> None:
    click.echo()
    click.secho(f"── {n}. {title} " + "─" * max(0, 80 - len(title)), bold=True)


def _wrap(prefix: str, text: str, color: str | None = None) -> None:
    indent = " " * min(len(prefix), 12)
    body = textwrap.fill(
        " ".join(text.split()),
        width=92,
        initial_indent=prefix if len(prefix) <= 40 else indent,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )
    if len(prefix) > 40:
        click.secho(prefix.rstrip(), fg=color)
    click.secho(body, fg=color)


def _box(text: str) -> None:
    for line in text.splitlines() or [""]:
        lead = " " * (len(line) - len(line.lstrip()))
        for piece in textwrap.wrap(line, 88, subsequent_indent=lead + "  ") or [""]:
            click.echo("  │ " + piece)


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def _event(kind: str, data: dict[str, Any]) -> None:
    if kind == "tool" and data.get("by") != "review":  # reviews are shown when they finish
        args = data["arguments"]
        try:
            parsed = json.loads(args) if isinstance(args, str) else dict(args or {})
        except ValueError:
            parsed = {}
        gist = " ".join(
            f"{k}={_clip(str(v), 40)!r}" if isinstance(v, str) else f"{k}=[{len(v)} ops]"
            for k, v in parsed.items()
            if k != "content" or data["name"] == "memory"
        )
        resp = data["result"]
        by = f"({str(data['by']).rstrip('*')}) " if data.get("by") else ""
        if resp.get("staged"):
            out = f"staged for approval, pending id {resp.get('pending_id')}: nothing saved yet"
            color = "yellow"
        elif resp.get("success"):
            out = "ok" + (f": {resp['message']}" if resp.get("message") else "")
            if resp.get("usage"):
                out += f" ({resp['usage']})"
            color = "green"
        else:
            out = f"refused ({resp.get('error_code')}): {resp.get('error', '')}"
            color = "red"
        _wrap(f"  ⚙ {by}{data['name']} {gist} → ", _clip(out, 300), color)


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass
class Demo:
    """State of one run."""

    root: Path
    server: Any
    script: Script
    home: Any = None
    turn_prompts: list[tuple[tuple[int, int], str]] = field(default_factory=list)

    def session(self) -> AgentSession:
        from ..agent.session import AgentSession
        from ..home import Home
        from ..llm.streaming import OpenAIStreamingClient

        self.home = Home.open(self.root)
        client = OpenAIStreamingClient(base_url=self.server.base_url, model="stand-in")
        return AgentSession.open(
            self.home,
            client=client,
            source="demo",
            model="stand-in",
            cwd=self.root,
            events=_event,
        )

    def turn(self, session: AgentSession, n: tuple[int, int], text: str) -> TurnResult:
        from ..agent.chat import ChatAgent

        self.script.label = n
        shown = text if len(text) < 300 else text[:160] + f"… [{len(text):,} chars pasted]"
        _wrap("  you>   ", shown, "cyan")
        assert session.client is not None
        result = ChatAgent(session, session.client, stream=False).run_turn(text)
        _wrap("  model> ", result.text, "magenta")
        self.turn_prompts.append((n, session.system_prompt))
        return result


def _review(s: AgentSession) -> None:
    """Wait for the background review and show what it did."""
    s.wait_background()
    if not s.reviews:
        return
    report = s.reviews[-1]
    for call in report.calls:
        _event("tool", {**call, "name": call["tool"], "by": "review*"})
    click.secho(f"  ⚙ {report.summary()}", fg="blue")


def _fence(content: str) -> str:
    start = content.find("<recalled-context>")
    return content[start:] if start >= 0 else ""


def run_demo(root: Path) -> None:
    """The scripted story (printed as it goes)."""
    from ..curated import Memory, admin as ops
    from ..testing import FakeLLMServer

    (root / "config.toml").write_text(CONFIG, encoding="utf-8")
    script = _script()
    with FakeLLMServer(script) as server:
        d = Demo(root, server, script)
        _run(d, Memory, ops)
        _tables(d)


def _run(d: Demo, Memory: Any, ops: Any) -> None:
    _step(1, "Monday: a first session starts")
    _say(
        f"""The agent talks to a stand-in model at {d.server.base_url} (a local HTTP server
        speaking the OpenAI chat API, with scripted answers). It opens the home's memory:
        MEMORY.md and USER.md are empty, so the system prompt has no memory block yet. The
        prompt is built once and then frozen: the model provider can cache it."""
    )
    s = d.session()
    click.echo(f"  system prompt: {len(s.system_prompt):,} chars, sha {_sha(s.system_prompt)}")
    first = s.system_prompt

    _step(2, "The model saves what it learns")
    d.turn(s, (1, 1), "Hi! I'm Ada, I look after the billing service. Keep answers short.")
    d.turn(s, (1, 2), "Billing deploys go through staging first; staging is stg-billing-2.")
    _say(
        f"""The writes are on disk already, yet this session's system prompt is unchanged
        (sha {_sha(s.system_prompt)}, identical bytes: {s.system_prompt == first}). The
        tool answers report the live state instead; the next session will see the writes."""
    )

    _step(3, "A procedure becomes a skill")
    d.turn(s, (1, 3), "How do I rotate the billing database password?")
    _say(
        """The steps went to skills/ops/rotate-billing-db-password/SKILL.md. Memory keeps
        short facts; skills keep procedures, and the prompt lists them in a small index."""
    )

    _step(4, "Someone else changes memory during the session")
    other = Memory.open(d.home, origin="cli")
    other.add("memory", "Billing on-call: Ada covers Tuesdays.")
    click.echo('  $ mnemic memory add "Billing on-call: Ada covers Tuesdays."   (another terminal)')
    result = d.turn(s, (1, 4), "Can you walk me through the deploy checklist?")
    _say(
        """The agent is told, inside this turn's user message and fenced as recalled
        context, so the system prompt stays byte-identical. What the model received:"""
    )
    _box(_fence(result.turn.content if result.turn else ""))
    _review(s)
    _say(
        """That was the 4th user turn, so a background review ran after the answer (an
        unattended writer, with only the memory and skill tools). It found nothing new to
        save, and it is not pushed to save something every time."""
    )

    _step(5, "A long paste fills the model's window: flush, then compress")
    d.turn(
        s,
        (1, 5),
        "From now on, write SQL examples for PostgreSQL, not MySQL. Here is the failing "
        "migration log:\n" + _log(60, 0),
    )
    _say(
        """The model answered but did not save the correction "PostgreSQL, not MySQL".
        The next paste brings the conversation near the window of this small model."""
    )
    before = s.system_prompt
    window = s.settings.llm.context_window
    result = d.turn(s, (1, 6), "Same error on the rerun:\n" + _log(50, 60))
    for report in result.compressions:
        _say(
            f"""Before answering, the conversation (~{report.tokens_before:,} tokens of a
            {window:,}-token window) was compressed. First the memory flush: one extra model
            call that sees the whole conversation with only the memory tool, asked to save
            preferences, corrections and facts (it saved the PostgreSQL correction above,
            marked "(flush)"). Nothing of it stays in the conversation. Then
            {report.summarized_messages} older messages became a short summary
            (~{report.tokens_after:,} tokens now), the session continues as
            {report.new_session_id} (linked to its parent), and the system prompt is rebuilt
            from memory reloaded from disk:"""
        )
    after = s.system_prompt
    click.echo(f"  before: {len(before):,} chars, sha {_sha(before)}")
    click.echo(f"  after:  {len(after):,} chars, sha {_sha(after)}")
    _box(s.memory.snapshot.text)
    s.close("user_exit")

    _step(6, "Overnight, Ada edits MEMORY.md by hand")
    path = d.home.memories_dir / "MEMORY.md"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("\n§\n\n§\nTODO: renew the staging TLS certificate.\n")
    click.echo(f"  $ printf '\\n§\\n\\n§\\nTODO: renew the staging TLS certificate.' >> {path}")

    _step(7, "Tuesday: a new session sees Monday's memory")
    s = d.session()
    _say(
        """A new session takes a new snapshot: Monday's writes (including the flush's) are
        in the prompt now, with the skills index. (The demo runs in seconds, so both "days"
        carry today's date.)"""
    )
    _box("\n\n".join(la.text for la in s.prompt.layers if la.name in ("memory", "skills")))

    _step(8, "Recall: relevant past exchanges come with the question")
    result = d.turn(s, (2, 1), "What was the staging host for billing again?")
    _say(
        """The built-in recall provider searched the session history for this message and
        attached the most relevant earlier exchanges (never this conversation's own), within
        a small budget, inside the user message. Nothing left the machine:"""
    )
    _box(_fence(result.turn.content if result.turn else ""))

    _step(9, "Session search and a skill, on demand")
    d.turn(s, (2, 2), "Find the conversation where I pasted the migration log.")
    d.turn(s, (2, 3), "Time to rotate the billing DB password again. Walk me through it.")

    _step(10, "A hand-edited file is never silently rewritten")
    d.turn(s, (2, 4), "The staging host moved to stg-billing-3.")
    _say(
        """The replace was refused and a backup kept: MEMORY.md no longer parses back to
        the same text, so rewriting it could lose Ada's edit. This was also the 4th turn,
        so a background review ran:"""
    )
    _review(s)
    _say(
        """Its add went through, but its replace waits for a person: unattended writers
        may add, their replace and remove are staged. Ada reviews both things:"""
    )
    cli = Memory.open(d.home, origin="cli")
    plan = ops.plan_adopt(cli, "memory")
    click.echo(f"  $ mnemic memory adopt      → {len(plan.entries)} entries ({plan.usage.line()})")
    for entry in plan.entries:
        click.echo(f"  │ • {entry}")
    ops.adopt(cli, plan)
    from ..ops.review import PendingQueue

    queue = PendingQueue.open(d.home)
    for record in queue.records():
        click.echo(f"  $ mnemic pending list      → {record.id}  {record.summary}")
    outcomes = queue.approve("all")
    click.echo(f"  $ mnemic pending approve all → {sum(1 for o in outcomes if o.ok)} approved")

    _step(11, "A full store fails closed; one batch makes room")
    d.turn(s, (2, 5), "Reviewed and adopted. Please save the new staging host.")
    _say(
        """MEMORY.md has a 240-character budget here. The second add was refused with the
        current entries and the usage; nothing was summarised away behind anyone's back.
        The model answered with one all-or-nothing batch that removes a stale entry and adds
        the note, checked against the budget as a whole."""
    )
    s.close("user_exit")


def _prefix(a: str, b: str) -> int:
    """Length of the common prefix of two strings."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _tables(d: Demo) -> None:
    _step(12, "What the provider's prompt cache saw, turn by turn")
    _say(
        """Each row is one user turn. "system prompt" is the hash of the system message the
        model received. "reused prefix" is how many bytes of the previous request (tools,
        system prompt, messages) the turn's first request repeats unchanged at its start:
        the part a provider's prompt cache can serve instead of recomputing."""
    )
    header = f"  {'day':<4}{'turn':>4}  {'calls':>5}  {'system prompt':<16}{'reused prefix':>30}"
    click.secho(header, bold=True)
    calls = [c for c in d.script.calls if c.kind == "turn"]
    previous: dict[int, str] = {}
    first_sha: dict[int, str] = {}
    for label in dict.fromkeys(c.label for c in calls):
        mine = [c for c in calls if c.label == label]
        day, turn = label
        sha = _sha(mine[0].system)
        first_sha.setdefault(day, sha)
        mark = "same" if sha == first_sha[day] else "rebuilt"
        prev = previous.get(day)
        if prev is None:
            reused = "-  (first request)"
        else:
            n = _prefix(prev, mine[0].body)
            reused = f"{n:,} of {len(prev):,} B  {100 * n / len(prev):4.0f}%"
        if mark == "rebuilt":
            first_sha[day] = sha
        click.echo(f"  {day:<4}{turn:>4}  {len(mine):>5}  {sha} {mark:<5}{reused:>30}")
        previous[day] = mine[-1].body
    side = [c for c in d.script.calls if c.kind != "turn"]
    kinds = ", ".join(
        f"{sum(1 for c in side if c.kind == k)} {label}"
        for k, label in (
            ("flush", "memory flush"),
            ("summary", "compression summary"),
            ("review", "background review"),
        )
    )
    click.echo(f"  calls outside the conversation: {kinds}")
    _say(
        """The system prompt changed once: when the compression rebuilt it from reloaded
        memory (turn 6 of Monday). Otherwise every request repeats the previous one
        byte for byte and only appends: recalled context and notices live in user messages
        that are replayed unchanged, never in the system prompt."""
    )

    _step(13, "Where memory stands")
    from ..curated import Memory

    mem = Memory.open(d.home, origin="cli")
    click.secho(f"  {'file':<10}{'entries':>8}  {'usage':<28}{'tokens':>7}", bold=True)
    for target, name in (("memory", "MEMORY.md"), ("user", "USER.md")):
        u = mem.usage(target)
        click.echo(f"  {name:<10}{u.entries:>8}  {u.line():<28}{'~' + str(u.tokens):>7}")
    from ..sessions import open_store

    store = open_store(d.home)
    stats = store.stats()
    store.close()
    from ..skills.store import SkillStore

    skills = SkillStore.open(d.home).skills()
    click.echo(
        f"  session history: {stats.sessions} sessions, {stats.messages} messages; skills: "
        f"{len(skills)}; model requests: {len(d.script.calls)}"
    )
    _say(
        """Try it with a real model: `mnemic chat --base-url URL --model NAME` (any
        OpenAI-compatible endpoint), `mnemic prompt` to see the exact system prompt, and
        `mnemic provider use recall` to turn on recall."""
    )


@click.command(name="demo")
@click.option("--keep", is_flag=True, help="Keep the temporary home and print its path.")
def demo(keep: bool) -> None:
    """Two days of an agent with memory, against a local stand-in model (no network, no key)."""
    from ..errors import MissingDependency
    from ..extras import require_extra

    try:  # the agent talks to the stand-in model through the LLM client
        require_extra("agent", "mnemic demo")
    except MissingDependency as exc:
        raise click.ClickException(exc.to_llm()) from None
    root = Path(tempfile.mkdtemp(prefix="mnemic-demo-"))
    click.secho(f"mnemic demo: a throwaway home at {root}", bold=True)
    try:
        run_demo(root)
    finally:
        if keep:
            click.echo(f"\nThe demo home was kept: MNEMIC_HOME={root} mnemic memory show")
        else:
            shutil.rmtree(root, ignore_errors=True)
