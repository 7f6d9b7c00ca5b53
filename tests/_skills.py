"""A skill's SKILL.md text and a skill store on a test's home, for the skills tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemic.config import SkillsSettings
from mnemic.home import Home
from mnemic.skills import SkillStore


def md(name: str, description: str = "Does a thing.", body: str = "# Steps\n1. Run `make`.\n",
       **extra: str) -> str:  # fmt: skip
    """A SKILL.md: the front matter (``name``, ``description``, then ``extra``), then
    ``body``."""
    lines = ["---", f"name: {name}", f"description: {description}"]
    lines += [f"{k}: {v}" for k, v in extra.items()]
    return "\n".join([*lines, "---", body])


def make_store(home_path: Path, **settings: Any) -> SkillStore:
    """The skill store of the home at ``home_path``, with [skills] ``settings``."""
    home = Home.open(home_path)
    return SkillStore(home.skills_dir, SkillsSettings(**settings), base=home.root)
