"""``mnemic provider``: the external memory provider (at most one; ``recall`` is built in)."""

from __future__ import annotations

import os
from typing import Any

import click

from ..config import set_config_value
from ..errors import MnemicError, ProviderNotFound
from ..home import Home, home_dir
from ..providers.discovery import available_providers, load_provider
from ..providers.manager import ProviderManager
from .app import JSON_OPT, AppContext, emit_json, fail, handle_errors, pass_app

__all__ = ["provider"]


def _describe(name: str, home: Home) -> dict[str, Any]:
    entry = available_providers()[name]
    row: dict[str, Any] = {
        "name": name,
        "source": "built-in" if entry.builtin else entry.distribution,
        "entry_point": entry.value,
    }
    try:
        instance = load_provider(name, home)
    except MnemicError as exc:
        row.update(available=False, reason=exc.to_llm(), description="")
        return row
    row["description"] = getattr(instance, "description", "") or ""
    try:
        ok = bool(instance.is_available())
        reason = "" if ok else instance.unavailable_reason()
    except Exception as exc:
        ok, reason = False, f"{type(exc).__name__}: {exc}"
    row.update(available=ok, reason=reason or None)
    return row


@click.group(name="provider")
def provider() -> None:
    """External memory providers (at most one active; `recall` is built in).

    \b
    The active provider is [agent] provider in config.toml ('' = none).
    """


@provider.command(name="list")
@JSON_OPT
@pass_app
@handle_errors
def provider_list(app: AppContext, as_json: bool) -> None:
    """List installed providers (entry point group mnemic.providers)."""
    home = app.existing_home
    active = home.settings.agent.provider
    rows = [_describe(name, home) | {"active": name == active} for name in available_providers()]
    if as_json:
        emit_json({"active": active or None, "providers": rows})
        return
    for row in rows:
        mark = "*" if row["active"] else " "
        state = "available" if row["available"] else f"unavailable: {row['reason']}"
        click.echo(f"{mark} {row['name']:<12} {row['source']:<10} {state}")
        if row["description"]:
            click.echo(f"    {row['description']}")
    if not active:
        click.echo("No provider is active (built-in memory only): mnemic provider use NAME")


@provider.command(name="status")
@JSON_OPT
@pass_app
@handle_errors
def provider_status(app: AppContext, as_json: bool) -> None:
    """Show the active provider: available or not, its tools, its own facts."""
    home = app.existing_home
    name = home.settings.agent.provider
    data: dict[str, Any] = {"provider": name or None}
    if name:
        manager = ProviderManager(home.settings.agent)
        try:
            manager.add(load_provider(name, home))
        except MnemicError as exc:
            data.update(active=False, error=exc.to_llm())
        else:
            manager.initialize("status", home=str(home.root), agent_context="preview")
            data.update(manager.status())
            assert manager.provider is not None
            try:
                data["details"] = manager.provider.status()
            except Exception as exc:
                data["details"] = {"error": f"{type(exc).__name__}: {exc}"}
            manager.shutdown(0.0)
        data["timeouts"] = {
            "recall_s": home.settings.agent.provider_timeout,
            "tool_s": home.settings.agent.provider_tool_timeout,
        }
    if as_json:
        emit_json(data)
        return
    if not name:
        click.echo("No memory provider is active (built-in memory only).")
        click.echo("Turn on recall of past exchanges: mnemic provider use recall")
        return
    if data.get("error"):
        fail(data["error"])
    state = "active" if data.get("active") else f"off: {data.get('disabled_reason')}"
    click.echo(f"{name}: {state}")
    click.echo(f"  tools: {', '.join(data.get('tools') or []) or 'none'}")
    for key, value in (data.get("details") or {}).items():
        click.echo(f"  {key}: {value}")
    t = data["timeouts"]
    click.echo(f"  time limits: recall {t['recall_s']}s, tools {t['tool_s']}s")


def _root(app: AppContext) -> str:
    return home_dir(app.home_path, app.profile)


@provider.command(name="use")
@click.argument("name")
@pass_app
@handle_errors
def provider_use(app: AppContext, name: str) -> None:
    """Make NAME the active provider (written to config.toml, comments kept)."""
    root = _root(app)
    entries = available_providers()
    if name not in entries:
        raise ProviderNotFound(name, list(entries))
    path = set_config_value(root, "agent", "provider", name)
    click.echo(f"Memory provider: {name} (saved in {path}). It applies from the next session.")
    instance = load_provider(name, Home.open(root))
    if not instance.is_available():
        click.secho(
            f"Warning: {name} is not available here: {instance.unavailable_reason()}",
            fg="yellow",
            err=True,
        )
    if os.environ.get("MNEMIC_AGENT_PROVIDER") is not None:
        click.echo("Note: MNEMIC_AGENT_PROVIDER is set and overrides this setting.", err=True)


@provider.command(name="off")
@pass_app
@handle_errors
def provider_off(app: AppContext) -> None:
    """Turn the external provider off (built-in memory only)."""
    path = set_config_value(_root(app), "agent", "provider", "")
    click.echo(f"No memory provider (saved in {path}). It applies from the next session.")
