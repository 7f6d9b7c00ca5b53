"""Moving in from a Hermes Agent home: ``mnemic import hermes`` (see ``docs/interop.md``).

:mod:`.source` reads the Hermes home (never writes it), :mod:`.memory` brings MEMORY.md,
USER.md and ARCHIVE.jsonl into curated memory and its archive, :mod:`.skills` the skills
folder into the skill store, and :mod:`.run` puts them together with the session
database into one report. This package imports none of its modules.
"""
