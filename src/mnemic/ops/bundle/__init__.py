"""Portable bundles: a whole home in one documented, versioned file and back.

``export.export_bundle`` writes one (``mnemic export --bundle FILE``),
``restore.import_bundle`` imports one into an empty home (``mnemic import --bundle
FILE``); ``layout`` is the file (manifest, checksums, safe paths), ``contents`` what its
members hold. The format is documented in ``docs/bundles.md``.
"""
