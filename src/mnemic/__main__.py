"""``python -m mnemic``: the command line."""

from .cli import main

main()
