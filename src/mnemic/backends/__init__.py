"""Storage backends beyond the embedded default.

The embedded default (files for curated memory, SQLite for session history, files for
the pending queue and the audit journal) lives with each subsystem. A backend here
implements the same seams for a shared server:

- :mod:`mnemic.backends.postgres`: PostgreSQL, for many agents on many hosts sharing one
  memory and one history (``store = "postgresql://..."``; needs the ``postgres`` extra).

Nothing here is imported unless a home selects it, so the cold path stays light.
"""
