"""The Skills and Prompt pages: skills by category, one skill, its edit form (through the
governed ``skill_manage`` path as the ``ui`` actor: validated, scanned, gated; nothing is
written on error), the skills index as the model sees it, and the system prompt of a new
session layer by layer with the memory-usage history charted from the audit journal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.routing import Route

from ..agent.startup import preview_prompt
from ..curated.backend import version_text
from ..curated.entries import FILENAMES, TARGETS, parse
from ..curated.store import file_hash
from ..curated.usage import Usage
from ..errors import InvalidArgument, MnemicError, StorageError
from ..governance.storage import open_journal
from ..sessions.store import estimate_tokens
from ..skills import SkillStore, skills_index
from ..skills.governed import GovernedSkills
from .console import ACTOR, Console, Form, endpoint, see_other
from .render import page, usage_chart

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["ROUTES", "usage_history"]


def skills_page(ui: Console, request: Request, form: Form) -> Response:
    store = SkillStore.open(ui.home)
    groups: dict[str, list[Any]] = {}
    for info in sorted(store.skills(platform=None), key=lambda i: (i.category or "", i.name)):
        groups.setdefault(info.category or "(no category)", []).append(info)
    index = skills_index(store)
    notice = {"edited": "Skill saved.", "staged": "Skill change staged for approval."}
    return page(
        request,
        "skills.html",
        title="Skills",
        active="skills",
        notice=notice.get(request.query_params.get("done", ""), ""),
        groups=sorted(groups.items()),
        index=index,
        index_tokens=estimate_tokens(index.text),
    )


def _name(request: Request, form: Form) -> str:
    name = form.get("name") or request.query_params.get("name", "")
    if not name:
        raise InvalidArgument("name", "Give the skill's name (category/name).")
    return name


def skill_page(ui: Console, request: Request, form: Form) -> Response:
    store = SkillStore.open(ui.home)
    info = store.get(_name(request, form))
    doc = store.read_info(info)
    return page(request, "skill.html", title=info.ref, active="skills", info=info, doc=doc)


def edit_page(ui: Console, request: Request, form: Form) -> Response:
    store = SkillStore.open(ui.home)
    info = store.get(_name(request, form))
    text = store.read_info(info).text
    return page(
        request, "skill_edit.html", title=f"Edit {info.ref}", active="skills", info=info, text=text
    )


def save(ui: Console, request: Request, form: Form) -> Response:
    name = _name(request, form)
    text = form.get("content", "")
    tools = GovernedSkills.open(ui.home, actor=ACTOR, origin=ACTOR)
    resp = tools.tool("skill_manage", {"action": "edit", "name": name, "content": text})
    if resp.get("success"):
        return see_other("/skills?done=" + ("staged" if resp.get("staged") else "edited"))
    info = SkillStore.open(ui.home).get(name)
    return page(
        request,
        "skill_edit.html",
        status=422,
        title=f"Edit {info.ref}",
        active="skills",
        info=info,
        text=text,
        problem=str(resp.get("error") or "The skill was refused."),
    )


def usage_history(ui: Console) -> dict[str, list[tuple[float, float]]]:
    """Each target's fill ratio after every committed write the journal records, where
    the text it names (by hash) is still known: the current file or a kept version."""
    mem = ui.view()
    ratios: dict[str, dict[str, float]] = {}
    for target in TARGETS:
        limit = mem.store.limit(target)
        known: dict[str, float] = {}
        try:
            texts = [mem.backend.read(target)]
        except StorageError:  # unreadable now (the Memory page says why): the kept versions
            texts = []
        for v in mem.backend.history(target):
            try:
                texts.append(version_text(mem.backend, target, v.id))
            except MnemicError:
                continue
        for text in texts:
            digest = file_hash(text)
            if digest is not None and limit:
                known[digest] = Usage.of(target, parse(text or ""), limit).chars / limit
        ratios[target] = known
    series: dict[str, list[tuple[float, float]]] = {t: [] for t in TARGETS}
    for rec in open_journal(ui.home.root, ui.home.settings).records():
        after, ts = rec.get("after"), rec.get("ts")
        if rec.get("result") != "ok" or not isinstance(after, dict):
            continue
        if not isinstance(ts, int | float):
            continue
        for target, digest in after.items():
            if target in ratios and isinstance(digest, str) and digest in ratios[target]:
                series[target].append((float(ts), ratios[target][digest]))
    return series


def _left_out(ui: Console) -> str:
    """Why a memory file is not in the prompt (it cannot be read), in words; else ''."""
    backend = ui.view().backend
    reasons = []
    for target in TARGETS:
        try:
            backend.read(target)
        except StorageError as exc:
            reasons.append(f"{FILENAMES[target]} is left out of the prompt: {exc.to_human()}")
    return " ".join(reasons)


def _expired(ui: Console) -> list[tuple[str, list[str]]]:
    """Each file's entries past their expiry, as the page shows them: a session start
    moves them to the archive before its snapshot (docs/first-week.md #96)."""
    import time

    from ..curated.pressure import due
    from ..curated.snapshot import display_entry

    view = ui.view()
    try:
        gone = due(view, time.time())
    except MnemicError:
        return []
    return [
        (FILENAMES[t], [display_entry(t, e, view.level)[0] for e in entries])
        for t, entries in gone.items()
    ]


def prompt_page(ui: Console, request: Request, form: Form) -> Response:
    built, tools, manager = preview_prompt(ui.home)
    text = built.text
    return page(
        request,
        "prompt.html",
        title="Prompt",
        active="prompt",
        problem=_left_out(ui),
        layers=[(layer.name, layer.text, estimate_tokens(layer.text)) for layer in built.layers],
        chars=len(text),
        tokens=estimate_tokens(text),
        tools=tools,
        provider=manager.name or "",
        chart=usage_chart(usage_history(ui)),
        expired=_expired(ui),
    )


ROUTES = [
    Route("/skills", endpoint(skills_page)),
    Route("/skills/view", endpoint(skill_page)),
    Route("/skills/edit", endpoint(edit_page), methods=["GET"]),
    Route("/skills/edit", endpoint(save), methods=["POST"]),
    Route("/prompt", endpoint(prompt_page)),
]
