"""Errors of the set-up around mnemic: configuration, optional packages, network addresses."""

from __future__ import annotations

import errno as _errno

from ._base import MnemicError


class ConfigError(MnemicError):
    """A configuration value is missing, unknown or of the wrong type."""

    code = "config_error"

    def __init__(self, key: str, problem: str, *, source: str = "config.toml") -> None:
        self.key = key
        self.problem = problem
        self.source = source
        super().__init__(f"{source}: {key}: {problem}")


class MissingDependency(MnemicError, ImportError):
    """A feature needs an optional package that is not installed (one of mnemic's extras).

    Also an ``ImportError``, so code guarding an optional import keeps working.
    """

    code = "missing_dependency"

    def __init__(self, package: str, extra: str, feature: str) -> None:
        self.package = package
        self.extra = extra
        self.feature = feature
        super().__init__(
            f"{feature} needs the optional package {package!r}, which is not installed. "
            f"Install it with: pip install 'mnemic[{extra}]' (or 'mnemic[all]' for every "
            "optional part)."
        )
        self.name = package  # ImportError's field: the module that is missing


class McpServerError(MnemicError):
    """The MCP server cannot serve HTTP on the address asked for (port taken, bad host)."""

    code = "mcp_server_error"

    def __init__(
        self,
        host: str,
        port: int,
        reason: str,
        *,
        errno: int | None = None,
        service: str = "MCP",
    ) -> None:
        self.host = host
        self.port = port
        self.reason = reason
        self.errno = errno
        hint = ""
        if errno == _errno.EADDRINUSE:
            hint = (
                " Another program (or another `mnemic mcp --http`) is listening there: stop "
                "it, or pick another port with --port N ([mcp] port, MNEMIC_MCP_PORT)."
                if service == "MCP"
                else " Another program is listening there: stop it, or pick another port "
                "with --port N (0 picks a free one)."
            )
        elif errno == _errno.EADDRNOTAVAIL:
            hint = " This machine has no such address; use 127.0.0.1 or one of its own."
        elif errno == _errno.EACCES:
            hint = " Ports below 1024 need privileges; use a port above 1024."
        super().__init__(f"cannot serve {service} on {host}:{port}: {reason}.{hint}")


class BundleError(MnemicError):
    """A portable bundle (``mnemic export --bundle`` / ``import --bundle``) cannot be
    written or used: its manifest is missing, of another format or version, a member
    differs from its checksum or escapes the bundle, the file is truncated, or the home
    it is to be imported into is not empty (or cannot hold what it carries). Nothing was
    imported. ``reason`` says which (``manifest``, ``version``, ``checksum``, ``path``,
    ``truncated``, ``content`` (a member that does not parse), ``not_empty``,
    ``backend``, ``write``)."""

    code = "bundle_error"

    def __init__(self, path: str, reason: str, problem: str) -> None:
        self.path = path
        self.reason = reason
        self.problem = problem
        super().__init__(f"{path}: {problem}")


class IntegrationError(MnemicError):
    """What another agent keeps or hands over cannot be used safely. Its configuration
    file (``mnemic integrate``) is not valid JSON, not of the expected shape, or holds an
    entry mnemic did not write; or a hook's input (``mnemic hook``) is not the JSON that
    agent sends. Nothing was written. ``path`` names the file or the input."""

    code = "integration_error"

    def __init__(self, path: str, problem: str, hint: str = "") -> None:
        self.path = path
        self.problem = problem
        self.hint = hint
        super().__init__(f"{path}: {problem}. Nothing was changed." + (f" {hint}" if hint else ""))
