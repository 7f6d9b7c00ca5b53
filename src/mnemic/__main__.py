"""``python -m mnemic``: the command line (:func:`mnemic.cli.run`, as the ``mnemic``
script)."""

from .cli import run

run()
