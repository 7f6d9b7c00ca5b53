"""Worker for tests whose point is who runs the CLI (another user, or root without the
capabilities that ignore file modes), not a process per command: runs several
``mnemic`` commands one after another in this one process, through click's CliRunner.

Usage: python cli_batch.py < CALLS, CALLS a JSON list of argument lists; prints one JSON
list, a ``{"code", "stdout", "stderr"}`` per call (an exception's traceback, if one
escaped the command, appended to its stderr).
"""

from __future__ import annotations

import json
import sys
import traceback

from click.testing import CliRunner

from mnemic.cli import main


def run() -> None:
    calls = json.loads(sys.stdin.read())
    results = []
    for args in calls:
        r = CliRunner().invoke(main, args)
        stderr = r.stderr
        if r.exc_info is not None and not isinstance(r.exception, SystemExit):
            stderr += "".join(traceback.format_exception(*r.exc_info))
        results.append({"code": r.exit_code, "stdout": r.stdout, "stderr": stderr})
    print(json.dumps(results))


if __name__ == "__main__":
    run()
