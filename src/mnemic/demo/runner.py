"""The story, chapter by chapter: two working days of an agent with mnemic.

Each chapter drives the real thing (the reference loop over :class:`AgentSession`,
curated memory, session history, skills, the recall provider, the flush, the review and
compression) against the stand-in model, and prints what happened as it goes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import click

from ..agent.chat import ChatAgent, TurnResult
from ..agent.session import AgentSession
from ..curated import admin
from ..curated.memory import Memory
from ..home import Home
from ..llm.openai_client import OpenAIStreamingClient
from ..ops.review import PendingQueue
from ..sessions import open_store
from ..skills.store import SkillStore
from ..testing import FakeLLMServer
from .messages_api import messages_api_chapter
from .render import box, cache_table, fence, say, sha, step, tool_event, wrap
from .script import CONFIG, StandIn, log

__all__ = ["run_demo"]


@dataclass
class Demo:
    """State of one run: the home, the stand-in model and its server."""

    root: Path
    base_url: str
    model: StandIn
    home: Home = field(init=False)

    def __post_init__(self) -> None:
        self.home = Home.open(self.root)

    def session(self) -> AgentSession:
        """A new agent session on the home (a new frozen snapshot)."""
        self.home = Home.open(self.root)
        client = OpenAIStreamingClient(base_url=self.base_url, model="stand-in")
        return AgentSession.open(
            self.home,
            client=client,
            source="demo",
            model="stand-in",
            cwd=self.root,
            events=tool_event,
        )

    def turn(self, session: AgentSession, n: tuple[int, int], text: str) -> TurnResult:
        """Send one user message through the reference loop and show the exchange."""
        self.model.label = n
        shown = text if len(text) < 300 else text[:160] + f"… [{len(text):,} chars pasted]"
        wrap("  you>   ", shown, "cyan")
        assert session.client is not None
        result = ChatAgent(session, session.client, stream=False).run_turn(text)
        wrap("  model> ", result.text, "magenta")
        return result


def run_demo(root: Path) -> None:
    """Tell the whole story in the (empty) home ``root``, printing as it goes."""
    (root / "config.toml").write_text(CONFIG, encoding="utf-8")
    model = StandIn()
    with FakeLLMServer(model) as server:
        d = Demo(root, server.base_url, model)
        monday = _first_session(d)
        _changes_from_elsewhere(d, monday)
        _flush_and_compress(d, monday)
        _hand_edit(d)
        tuesday = _second_day(d)
        _drift_and_review(d, tuesday)
        _full_store(d, tuesday)
        _cache(d)
        messages_api_chapter(13, root)
        _where_memory_stands(d)


def _review(s: AgentSession) -> None:
    """Wait for the background review and show what it did."""
    s.wait_background()
    if not s.reviews:
        return
    report = s.reviews[-1]
    for call in report.calls:
        tool_event("tool", {**call, "name": call["tool"], "by": "review*"})
    click.secho(f"  ⚙ {report.summary()}", fg="blue")


def _first_session(d: Demo) -> AgentSession:
    step(1, "Monday: a first session starts")
    say(
        f"""The agent talks to a stand-in model at {d.base_url} (a local HTTP server
        speaking the OpenAI chat API, with scripted answers). It opens the home's memory:
        MEMORY.md and USER.md are empty, so the system prompt has no memory block yet. The
        prompt is built once and then frozen: the model provider can cache it."""
    )
    s = d.session()
    click.echo(f"  system prompt: {len(s.system_prompt):,} chars, sha {sha(s.system_prompt)}")
    first = s.system_prompt

    step(2, "The model saves what it learns")
    d.turn(s, (1, 1), "Hi! I'm Ada, I look after the billing service. Keep answers short.")
    d.turn(s, (1, 2), "Billing deploys go through staging first; staging is stg-billing-2.")
    say(
        f"""The writes are on disk already, yet this session's system prompt is unchanged
        (sha {sha(s.system_prompt)}, identical bytes: {s.system_prompt == first}). The
        tool answers report the live state instead; the next session will see the writes."""
    )

    step(3, "A procedure becomes a skill")
    d.turn(s, (1, 3), "How do I rotate the billing database password?")
    say(
        """The steps went to skills/ops/rotate-billing-db-password/SKILL.md. Memory keeps
        short facts; skills keep procedures, and the prompt lists them in a small index."""
    )
    return s


def _changes_from_elsewhere(d: Demo, s: AgentSession) -> None:
    step(4, "Someone else changes memory during the session")
    Memory.open(d.home, origin="cli").add("memory", "Billing on-call: Ada covers Tuesdays.")
    click.echo('  $ mnemic memory add "Billing on-call: Ada covers Tuesdays."   (another terminal)')
    result = d.turn(s, (1, 4), "Can you walk me through the deploy checklist?")
    say(
        """The agent is told, inside this turn's user message and fenced as recalled
        context, so the system prompt stays byte-identical. What the model received:"""
    )
    box(fence(result.turn.content if result.turn else ""))
    _review(s)
    say(
        """That was the 4th user turn, so a background review ran after the answer (an
        unattended writer, with only the memory and skill tools). It found nothing new to
        save, and it is not pushed to save something every time."""
    )


def _flush_and_compress(d: Demo, s: AgentSession) -> None:
    step(5, "A long paste fills the model's window: flush, then compress")
    paste = "From now on, write SQL examples for PostgreSQL, not MySQL. Here is the failing "
    d.turn(s, (1, 5), paste + "migration log:\n" + log(60, 0))
    say(
        """The model answered but did not save the correction "PostgreSQL, not MySQL".
        The next paste brings the conversation near the window of this small model."""
    )
    before = s.system_prompt
    window = s.settings.llm.context_window
    result = d.turn(s, (1, 6), "Same error on the rerun:\n" + log(50, 60))
    for report in result.compressions:
        say(
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
    click.echo(f"  before: {len(before):,} chars, sha {sha(before)}")
    click.echo(f"  after:  {len(after):,} chars, sha {sha(after)}")
    box(s.memory.snapshot.text)
    s.close("user_exit")


def _hand_edit(d: Demo) -> None:
    step(6, "Overnight, Ada edits MEMORY.md by hand")
    path = d.home.memories_dir / "MEMORY.md"
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("\n§\n\n§\nTODO: renew the staging TLS certificate.\n")
    click.echo(f"  $ printf '\\n§\\n\\n§\\nTODO: renew the staging TLS certificate.' >> {path}")


def _second_day(d: Demo) -> AgentSession:
    step(7, "Tuesday: a new session sees Monday's memory")
    s = d.session()
    say(
        """A new session takes a new snapshot: Monday's writes (including the flush's) are
        in the prompt now, with the skills index. (The demo runs in seconds, so both "days"
        carry today's date.)"""
    )
    box("\n\n".join(la.text for la in s.prompt.layers if la.name in ("memory", "skills")))

    step(8, "Recall: relevant past exchanges come with the question")
    result = d.turn(s, (2, 1), "What was the staging host for billing again?")
    say(
        """The built-in recall provider searched the session history for this message and
        attached the most relevant earlier exchanges (never this conversation's own), within
        a small budget, inside the user message. Nothing left the machine:"""
    )
    box(fence(result.turn.content if result.turn else ""))

    step(9, "Session search and a skill, on demand")
    d.turn(s, (2, 2), "Find the conversation where I pasted the migration log.")
    d.turn(s, (2, 3), "Time to rotate the billing DB password again. Walk me through it.")
    return s


def _drift_and_review(d: Demo, s: AgentSession) -> None:
    step(10, "A hand-edited file is never silently rewritten")
    d.turn(s, (2, 4), "The staging host moved to stg-billing-3.")
    say(
        """The replace was refused and a backup kept: MEMORY.md no longer parses back to
        the same text, so rewriting it could lose Ada's edit. This was also the 4th turn,
        so a background review ran:"""
    )
    _review(s)
    say(
        """Its add went through, but its replace waits for a person: unattended writers
        may add, their replace and remove are staged. Ada reviews both things:"""
    )
    cli = Memory.open(d.home, origin="cli")
    plan = admin.plan_adopt(cli, "memory")
    click.echo(f"  $ mnemic memory adopt      → {len(plan.entries)} entries ({plan.usage.line()})")
    for entry in plan.entries:
        click.echo(f"  │ • {entry}")
    admin.adopt(cli, plan)
    queue = PendingQueue.open(d.home)
    for record in queue.records():
        click.echo(f"  $ mnemic pending list      → {record.id}  {record.summary}")
    outcomes = queue.approve("all")
    click.echo(f"  $ mnemic pending approve all → {sum(1 for o in outcomes if o.ok)} approved")


def _full_store(d: Demo, s: AgentSession) -> None:
    step(11, "A full store fails closed; one batch makes room")
    d.turn(s, (2, 5), "Reviewed and adopted. Please save the new staging host.")
    say(
        """MEMORY.md has a 240-character budget here. The second add was refused with the
        current entries and the usage; nothing was summarised away behind anyone's back.
        The model answered with one all-or-nothing batch that removes a stale entry and adds
        the note, checked against the budget as a whole."""
    )
    s.close("user_exit")


def _cache(d: Demo) -> None:
    step(12, "What the provider's prompt cache saw, turn by turn")
    say(
        """Each row is one user turn. "system prompt" is the hash of the system message the
        model received. "reused prefix" is how many bytes of the previous request (tools,
        system prompt, messages) the turn's first request repeats unchanged at its start:
        the part a provider's prompt cache can serve instead of recomputing."""
    )
    cache_table(d.model.calls)
    say(
        """The system prompt changed once: when the compression rebuilt it from reloaded
        memory (turn 6 of Monday). Otherwise every request repeats the previous one
        byte for byte and only appends: recalled context and notices live in user messages
        that are replayed unchanged, never in the system prompt."""
    )


def _where_memory_stands(d: Demo) -> None:
    step(14, "Where memory stands")
    mem = Memory.open(d.home, origin="cli")
    click.secho(f"  {'file':<10}{'entries':>8}  {'usage':<28}{'tokens':>7}", bold=True)
    for target, name in (("memory", "MEMORY.md"), ("user", "USER.md")):
        u = mem.usage(target)
        click.echo(f"  {name:<10}{u.entries:>8}  {u.line():<28}{'~' + str(u.tokens):>7}")
    store = open_store(d.home)
    stats = store.stats()
    store.close()
    skills = SkillStore.open(d.home).skills()
    click.echo(
        f"  session history: {stats.sessions} sessions, {stats.messages} messages; skills: "
        f"{len(skills)}; model requests: {len(d.model.calls)}"
    )
    say(
        """Try it with a real model: `mnemic chat --base-url URL --model NAME` (any
        OpenAI-compatible endpoint) or `mnemic chat --api anthropic --model NAME` (with
        ANTHROPIC_API_KEY set), `mnemic prompt` to see the exact system prompt, and
        `mnemic provider use recall` to turn on recall."""
    )
