"""The options a per-step module's states learned, kept on this machine for the next
process.

A native state asks the Python engine once for each option it has not met (its Action
and integer id: native_state.py), and keeps it by a key the module works out from the
state; a game with thousands of options (every card copy in every action) spends its
first few hundred games learning them, in every new process. The options learned are
written at exit beside the compiled module (`<module>.options.json`, in the user's
cache folder), with the engine's id (or how to work it out from a card's face), and
read when a process first makes a state of that module: an option is then known from
the first game.

The file is plain JSON (texts, numbers, the Action's payload as lists), never code; one
that cannot be read, or was written by another engine, is ignored (and replaced at
exit). Two processes writing at once each write a whole file (written aside, then
renamed): the last one's is kept.
"""

from __future__ import annotations

import atexit
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from interpreter.runtime.actions import Action

_LOADED: dict[str, int] = {}  # module name -> options known after loading its file


def load(module: Any, engine: str) -> None:
    """Teach `module` the options kept for it (once per process), and keep what it
    learns from now on at exit."""
    if module.__name__ in _LOADED:
        return
    path = _path(module)
    for key, text, payload, ident in _entries(path, engine):
        module.remember(key, (Action(text, payload), ident))
    _LOADED[module.__name__] = module.options_known()
    atexit.register(_save, module, engine, path)


def _path(module: Any) -> Path:
    return Path(f"{module.__file__}.options.json")


def _entries(path: Path, engine: str) -> list[tuple[int, str, Any, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("engine") != engine:
            return []
        return [(int(key), str(text), _tuples(payload), _ident(ident)) for key, text, payload, ident in data["entries"]]
    except (OSError, ValueError, KeyError, TypeError):  # (none yet, or unreadable: learned again)
        return []


def _ident(value: Any) -> Any:
    """An option's id read back: a number, a face recipe (three numbers: ActionSpace.face_recipe), or None."""
    if type(value) is int:
        return value
    if type(value) is list and len(value) == 3 and all(type(v) is int for v in value):
        return tuple(value)
    return None


def _tuples(value: Any) -> Any:
    """A payload read back: JSON's lists are the engine's tuples."""
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _save(module: Any, engine: str, path: Path) -> None:
    """Write what the module knows, when it learned something since it was loaded."""
    if module.options_known() <= _LOADED.get(module.__name__, 0):
        return
    entries = [[key, value[0].text, value[0].payload, value[1]] for key, value in module.known_options()]
    try:
        text = json.dumps({"engine": engine, "entries": entries})
    except (TypeError, ValueError):  # (a payload JSON cannot hold: learned again next time)
        return
    aside = None
    try:
        handle, aside = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(aside, path)
    except OSError:  # (a read-only cache: learned again next time)
        if aside is not None:
            Path(aside).unlink(missing_ok=True)
