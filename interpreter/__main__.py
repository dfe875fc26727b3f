"""`python -m interpreter`: the orrery command line (the same as the `orrery` script)."""

from interpreter.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
