"""Where the data folders (games, examples, schema, grammar) are.

In an installed wheel they live inside the package, under `interpreter/_bundled/`;
in a source checkout they are the top-level folders beside `interpreter/`. Every stage
asks here, so `orrery list` works from any directory in both cases.
"""

from __future__ import annotations

import functools
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@functools.cache
def data_path(name: str) -> Path:
    """The folder of bundled data `name` ("games", "examples", "schema", "grammar")."""
    bundled = _PACKAGE / "_bundled" / name
    if bundled.is_dir():
        return bundled
    return _PACKAGE.parent / name
