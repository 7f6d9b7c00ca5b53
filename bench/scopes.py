"""Project scopes: memory injected per session, one global store against global + project.

Usage: ./x bench scopes

A user works in three projects. What they would save is fixed below: facts true
everywhere (their machine, habits: the global MEMORY.md), who they are (USER.md, global
in both layouts) and ten facts per project. Two throwaway homes hold the same entries,
written through the library:

- ``one store``: everything in the global MEMORY.md (its budget raised so it fits: the
  store a user without scopes ends up with);
- ``scoped``: the global facts in the global MEMORY.md, each project's facts in its own
  project store (``[project] memory_char_limit``, default budgets).

For a session in each project, the memory blocks it starts with are rendered exactly as
the hook and ``mnemic prompt --memory-only`` render them (:func:`render_snapshot`), and
their characters counted; so are the other projects' entries each session carries (none
belong there). The aim: at least 50 % fewer characters per session with scopes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import emit
from mnemic.curated.memory import Memory
from mnemic.curated.scope import open_project
from mnemic.curated.snapshot import render_snapshot
from mnemic.home import Home

USER = [
    "Name is Dana; senior backend engineer, works in Berlin (CET).",
    "Prefers short answers with the command first, explanation after.",
    "Writes commit messages in the imperative, one line, no emoji.",
    "Reads English and German; answer in English unless asked.",
]
GLOBAL = [
    "Laptop runs Debian 12 with zsh; dotfiles live in ~/dotfiles (stow).",
    "Uses neovim with LSP; never suggest VS Code settings.",
    "GitHub account is dana-k; SSH keys are in 1Password, not on disk.",
    "Prefers uv over pip for Python tooling on every machine.",
    "Docker runs rootless; use `docker compose`, not docker-compose.",
    "Timezone for scheduling and logs is Europe/Berlin.",
]
PROJECTS = {
    "billing-api": [
        "billing-api is FastAPI on Python 3.12; entry point src/billing/app.py.",
        "Run its tests with `uv run pytest -q -n 4`; they need a local Postgres 16.",
        "Migrations use Alembic in migrations/; never edit an applied revision.",
        "Money is stored as integer cents (BIGINT); never use floats for amounts.",
        "Stripe webhooks are verified in billing/webhooks.py with the signing secret.",
        "Staging is https://billing.staging.internal; deploy with `make deploy-staging`.",
        "The invoice PDF renderer is WeasyPrint; fonts live in assets/fonts.",
        "Feature flags come from Unleash; the client is wrapped in billing/flags.py.",
        "CI is GitHub Actions; the slow suite runs only on main (label `slow`).",
        "Owner of the tax module is Priya; ask before changing VAT rules.",
    ],
    "mobile-app": [
        "mobile-app is Kotlin with Jetpack Compose; minSdk 26, targetSdk 35.",
        "Build a debug APK with `./gradlew :app:assembleDebug`.",
        "Networking is Retrofit + kotlinx.serialization; no Gson anywhere.",
        "DI is Hilt; every ViewModel is @HiltViewModel with constructor injection.",
        "Screenshots tests use Paparazzi; record with `./gradlew recordPaparazziDebug`.",
        "Release builds are signed in CI only; the keystore is never in the repo.",
        "Strings are translated in Crowdin; add new keys to values/strings.xml only.",
        "Crash reports go to Sentry project mobile-android.",
        "The design system lives in :core:ui; do not add colours outside Theme.kt.",
        "Play Store track for betas is 'internal', promoted by hand on Fridays.",
    ],
    "infra": [
        "infra is Terraform 1.8 with the AWS provider 5.x, state in S3 + DynamoDB lock.",
        "Run `terraform plan` through `make plan ENV=staging`; never apply by hand.",
        "Modules live in modules/, one per service; environments in envs/<name>.",
        "Kubernetes is EKS 1.30; manifests are Helm charts under charts/.",
        "Secrets are in AWS Secrets Manager, read by external-secrets; none in git.",
        "The VPC CIDR is 10.40.0.0/16; private subnets are 10.40.128.0/17.",
        "Alerting is Grafana OnCall; the runbook index is docs/runbooks/README.md.",
        "Cost tags: every resource carries team, service and env tags (CI checks).",
        "Production changes need two approvals and a change ticket in Jira OPS.",
        "The bastion is gone: use SSM Session Manager to reach instances.",
    ],
}


def fill(home_dir: Path, config: str) -> Home:
    home_dir.mkdir(parents=True)
    (home_dir / "config.toml").write_text(config, encoding="utf-8")
    home = Home.open(home_dir)
    mem = Memory.open(home, origin="cli")
    for entry in USER:
        mem.add("user", entry)
    return home


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        dirs = {name: root / "work" / name for name in PROJECTS}
        for d in dirs.values():
            d.mkdir(parents=True)

        one = fill(root / "one", "[memory]\nmemory_char_limit = 10000\n")
        mem = Memory.open(one, origin="cli")
        for entry in GLOBAL + [e for facts in PROJECTS.values() for e in facts]:
            mem.add("memory", entry)

        scoped = fill(root / "scoped", "")
        mem = Memory.open(scoped, origin="cli")
        for entry in GLOBAL:
            mem.add("memory", entry)
        for name, facts in PROJECTS.items():
            pmem = Memory.open(open_project(scoped, dirs[name], create=True), origin="cli")
            for entry in facts:
                pmem.add("memory", entry)

        # what every session carries in both layouts: USER PROFILE, and the header and
        # entries of the global facts (the scoped global MEMORY block)
        common = len(render_snapshot(str(scoped.root)))
        sessions: dict[str, Any] = {}
        for name, d in dirs.items():
            whole = render_snapshot(str(one.root))
            mine = render_snapshot(str(scoped.root), project=d)
            others = [e for n, facts in PROJECTS.items() if n != name for e in facts]
            sessions[name] = {
                "one_store_chars": len(whole),
                "scoped_chars": len(mine),
                "one_store_foreign_entries": sum(e in whole for e in others),
                "scoped_foreign_entries": sum(e in mine for e in others),
                "scoped_own_entries": sum(e in mine for e in PROJECTS[name]),
            }
            print(
                f"{name:<12} one store {len(whole):>5} chars   scoped {len(mine):>5} chars   "
                f"foreign entries {sessions[name]['one_store_foreign_entries']} -> "
                f"{sessions[name]['scoped_foreign_entries']}"
            )
        one_mean = sum(s["one_store_chars"] for s in sessions.values()) / len(sessions)
        scoped_mean = sum(s["scoped_chars"] for s in sessions.values()) / len(sessions)
        fewer = 1 - scoped_mean / one_mean
        print(f"mean chars per session: {one_mean:,.0f} -> {scoped_mean:,.0f} ({fewer:.1%} fewer)")
        print(f"of which global (USER PROFILE + global MEMORY), in both: {common:,} chars")
        emit(
            "scopes",
            {
                "projects": len(PROJECTS),
                "entries": {
                    "user": len(USER),
                    "global": len(GLOBAL),
                    "per_project": {n: len(f) for n, f in PROJECTS.items()},
                },
                "sessions": sessions,
                "mean_chars_per_session": {
                    "one_store": round(one_mean, 1),
                    "scoped": round(scoped_mean, 1),
                },
                "fewer_chars": round(fewer, 4),
                "global_chars_in_every_session": common,
                "aim": 0.5,
                "aim_met": fewer >= 0.5,
            },
        )


if __name__ == "__main__":
    main()
