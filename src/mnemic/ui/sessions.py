"""The Sessions page: search with highlighted matches and filters (the session_search
tool's discovery shape), one session with its lineage, delete (after a confirmation
form) and export (JSONL download, the format ``mnemic sessions import`` reads back);
the files a message holds: images inline, others as downloads, each served by the
message and the hash its link names (``/sessions/attachment?message=ID&sha=HASH``).

A session is named by the query string (``/sessions/view?id=ID``), never by the path: an
id may hold ``/``, or be ``.`` or ``..``, which a path cannot carry unchanged. One page
shows at most :data:`PAGE_MESSAGES` messages of at most :data:`MESSAGE_CHARS` characters
each (read cut by the database), and says what it cut; Export has everything."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from starlette.responses import Response
from starlette.routing import Route

from ..errors import InvalidArgument
from ..sessions import export_session, open_store, search_tool_for
from ..sessions.attachments import AttachmentStore, is_sha256
from ..sessions.search.retrieval import MODES
from ..sessions.search.shapes import MAX_LIMIT as MOST_SESSIONS
from ..sessions.search.timeframe import time_read
from ..timefmt import read_shown
from ..tooling import tool_response
from .console import Console, Form, endpoint, see_other
from .render import error_response, page

if TYPE_CHECKING:
    from starlette.requests import Request

    from ..sessions import SessionStore

__all__ = ["MESSAGE_CHARS", "PAGE_MESSAGES", "ROUTES"]

ROLES = ("user", "assistant", "tool", "system")
PAGE_MESSAGES = 100
"""Messages one session page shows (links lead to the earlier and later ones)."""
MESSAGE_CHARS = 20_000
"""Characters of one message a page shows (and of its tool calls' text)."""
INLINE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"})
"""Images shown in the page (never SVG, which can hold script); other files download."""


def _started_at(store: SessionStore, resp: dict[str, Any]) -> None:
    """Give each result its session's start as Unix seconds (``started_at``): the tool
    writes it for a model (``when``, local and without the offset), the page shows it as
    every time on the console is shown. In a time-order answer, the time of the matching
    message instead (the one the results are sorted by)."""
    results = [r for r in resp.get("results") or [] if isinstance(r.get("session_id"), str)]
    infos = store.get_sessions([r["session_id"] for r in results])
    for r in results:
        info = infos.get(r["session_id"])
        r["started_at"] = info.started_at if info is not None else None
        if resp.get("order") == "time":  # sorted by the matching messages' times: show those
            shown = next((m for m in r.get("messages") or () if m.get("match")), None)
            at = read_shown(str((shown or {}).get("time")))
            if at is not None:
                r["started_at"] = at


def sessions_page(ui: Console, request: Request, form: Form) -> Response:
    q = request.query_params
    query = q.get("q", "").strip()
    role = q.get("role", "")
    source = q.get("source", "").strip()
    since = q.get("since", "").strip()
    until = q.get("until", "").strip()
    as_of = q.get("as_of", "").strip()
    mode = q.get("mode", "").strip()
    resp: dict[str, Any] | None = None
    with open_store(ui.home) as store:
        if query:
            # the most a search gives (20 was cut to it without a word)
            args: dict[str, Any] = {"query": query, "limit": MOST_SESSIONS}
            if role in ROLES:
                args["role"] = [role]
            if source:
                args["source"] = [source]
            if since:
                args["since"] = since
            if until:
                args["until"] = until
            if as_of:
                args["as_of"] = as_of
            if mode:  # the tool refuses one it does not know, naming those it does
                args["mode"] = mode
            resp = tool_response("session_search", lambda: search_tool_for(ui.home, store, args))
            _started_at(store, resp)
        recent = store.list_sessions(limit=30)
        total = store.count_sessions() if len(recent) == 30 else len(recent)
    notice = "Session deleted." if q.get("done") == "deleted" else ""
    return page(
        request,
        "sessions.html",
        title="Sessions",
        active="sessions",
        notice=notice,
        q=query,
        role=role,
        source=source,
        since=since,
        until=until,
        as_of=as_of,
        mode=mode,
        modes=MODES,
        roles=ROLES,
        resp=resp,
        time_read=time_read((resp or {}).get("time"), passed="as of"),
        recent=recent,
        total=total,
    )


def _sid(request: Request, form: Form) -> str:
    sid = form.get("id") if request.method == "POST" else request.query_params.get("id")
    if not sid:
        raise InvalidArgument("id", "Name the session: ?id=SESSION_ID.")
    return sid


def _start(request: Request) -> int:
    value = request.query_params.get("from", "0")
    if not (value.isascii() and value.isdigit()) or len(value) > 18:
        raise InvalidArgument("from", "from must be a message number (0 or more).")
    return int(value)


def session_page(ui: Console, request: Request, form: Form) -> Response:
    sid = _sid(request, form)
    start = _start(request)
    with open_store(ui.home) as store:
        info = store.get_session(sid)
        previews = store.message_previews(
            sid, start=start, stop=start + PAGE_MESSAGES + 1, max_chars=MESSAGE_CHARS
        )
        later = previews[PAGE_MESSAGES].message.seq if len(previews) > PAGE_MESSAGES else None
        previews = previews[:PAGE_MESSAGES]
        held = store.attachments(p.message.id for p in previews)
        chain: list[Any] = []
        parent = info.parent_id
        while parent and len(chain) < 50:
            try:
                ancestor = store.get_session(parent)
            except Exception:
                break
            chain.append(ancestor)
            parent = ancestor.parent_id
        chain.reverse()
        children = []
        for other in store.lineage(sid):
            if other == sid:
                continue
            try:
                child = store.get_session(other)
            except Exception:
                continue
            if child.parent_id == sid:
                children.append(child)
    return page(
        request,
        "session.html",
        title=f"Session {sid}",
        active="sessions",
        info=info,
        previews=previews,
        earlier=max(0, start - PAGE_MESSAGES) if start > 0 else None,
        later=later,
        max_chars=MESSAGE_CHARS,
        ancestors=chain,
        children=children,
        held=held,
        inline=INLINE_TYPES,
    )


def confirm_delete(ui: Console, request: Request, form: Form) -> Response:
    with open_store(ui.home) as store:
        info = store.get_session(_sid(request, form))
    return page(request, "delete.html", title="Delete session", active="sessions", info=info)


def delete(ui: Console, request: Request, form: Form) -> Response:
    sid = _sid(request, form)
    with open_store(ui.home) as store:
        store.get_session(sid)  # an unknown id is an error page, not a no-op
        store.delete_session(sid)
    return see_other("/sessions?done=deleted")


def export(ui: Console, request: Request, form: Form) -> Response:
    sid = _sid(request, form)
    with open_store(ui.home) as store:
        store.get_session(sid)
        files = AttachmentStore.of_home(ui.home)
        records = export_session(store, sid, attachments=files)
        lines = [json.dumps(rec, ensure_ascii=False) + "\n" for rec in records]
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in sid)
    return Response(
        "".join(lines).encode("utf-8"),
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="session-{safe}.jsonl"'},
    )


def attachment(ui: Console, request: Request, form: Form) -> Response:
    """One file a message holds, by the message and the hash its link names (never a
    path from the request): an image of a type browsers show safely inline, anything
    else (an SVG, HTML) as an ``application/octet-stream`` download, never rendered
    (the console's headers add ``nosniff``)."""
    q = request.query_params
    mid, sha = q.get("message", ""), q.get("sha", "")
    if not (mid.isascii() and mid.isdigit() and len(mid) <= 18) or not is_sha256(sha):
        raise InvalidArgument("sha", "Name the file: ?message=MESSAGE_ID&sha=SHA256.")
    with open_store(ui.home) as store:
        links = store.attachments([int(mid)]).get(int(mid), [])
    link = next((a for a in links if a.sha256 == sha), None)
    if link is None:
        return error_response(404, "Not found", "No message holds that attachment.", request)
    data = AttachmentStore.of_home(ui.home).read(sha)
    if data is None:
        detail = f"The file of {link.name} is missing from the attachment store."
        return error_response(404, "Not found", detail, request)
    shown = link.media_type in INLINE_TYPES
    name = quote(link.name, safe="")
    return Response(
        data,
        media_type=link.media_type if shown else "application/octet-stream",
        headers={
            "content-disposition": f"{'inline' if shown else 'attachment'}; "
            f"filename*=UTF-8''{name}",
        },
    )


ROUTES = [
    Route("/sessions", endpoint(sessions_page)),
    Route("/sessions/view", endpoint(session_page)),
    Route("/sessions/delete", endpoint(confirm_delete), methods=["GET"]),
    Route("/sessions/delete", endpoint(delete), methods=["POST"]),
    Route("/sessions/export", endpoint(export)),
    Route("/sessions/attachment", endpoint(attachment)),
]
