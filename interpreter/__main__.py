"""`python -m interpreter`: the orrery command line (the same as the `orrery` script).

Importing the command line takes a moment (the engine, the play and web modules): a
Ctrl-C in that moment must end like one during a command, with one line and exit code
130, not a traceback, so the import is made inside `main` where it can be caught.
"""

from __future__ import annotations

import sys

EXIT_INTERRUPTED = 130  # as interpreter.cli says it; that module may not be loaded yet


def main() -> int:
    """Load the command line and run it; a Ctrl-C while loading ends quietly too.

    A Ctrl-C while the `interpreter` package itself is imported (before this module
    runs) is not caught here: that needs the package's `__init__` to import lazily.
    """
    try:
        from interpreter.cli import main as run
    except KeyboardInterrupt:
        try:
            print("orrery: error: interrupted", file=sys.stderr)  # the words of cli.interrupted
        except KeyboardInterrupt:  # Ctrl-C pressed again: the exit code says it all
            pass
        return EXIT_INTERRUPTED
    return run()


if __name__ == "__main__":
    raise SystemExit(main())
