"""Moving in from Claude Code's memory files, and back: ``mnemic import claude-code-memory``
and ``mnemic export --format claude-code`` (see ``docs/moving-to-mnemic.md``).

:mod:`.source` finds and reads the CLAUDE.md files and the auto memory folder (never
writes them) and splits their Markdown into entries, :mod:`.run` imports them into the
global and the project store (through the Hermes importer's entry path: scanned, gated,
over the budget into the archive) with one report, and :mod:`.export` writes memory back
as a marked section of a CLAUDE.md. This package imports none of its modules.
"""
