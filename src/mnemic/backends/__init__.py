"""Storage backends: where every storage seam of mnemic is implemented, side by side.

The domains hold the policy and the protocols (the curated store and
:class:`~mnemic.curated.backend.CuratedBackend`, the session store, the audit journal's
chain and the pending queue's limits in :mod:`mnemic.governance`); a backend only stores,
each seam a raw store (:class:`mnemic.registry.StoreBackend`):

- :mod:`mnemic.backends.files`: the embedded default, files and SQLite under the home;
- :mod:`mnemic.backends.postgres`: PostgreSQL, for many agents on many hosts sharing one
  memory and one history (``store = "postgresql://..."``; needs the ``postgres`` extra).

:mod:`mnemic.registry` picks one by the home's ``store`` setting; nothing here is
imported until a home asks for it.
"""
