"""Whether a game runs natively here, and the mode asked for: `auto` (native when the
module can be built, else Python, saying why in one line), `on` (native or an error
saying why not) or `off`; ORRERY_NATIVE sets the default. A game's module is built or
loaded once per process and player count (kept on the Game object)."""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.native.build import NativeUnavailable, load_module
from interpreter.native.expressions import NotNative
from interpreter.native.module import lower_named

MODES = ("auto", "on", "off")


def native_mode(given: str | None = None) -> str:
    """The mode asked for (`given`, else ORRERY_NATIVE, else auto), checked."""
    mode = (given or os.environ.get("ORRERY_NATIVE") or "auto").strip().lower()
    if mode not in MODES:
        raise GameError(f"native mode must be one of {', '.join(MODES)}, not {mode!r}"
                        f"{'' if given else ' (from ORRERY_NATIVE)'}")
    return mode


@attrs.define
class NativeStatus:
    """Whether a game runs natively for a player count, and if not, why (one line)."""

    module: ModuleType | None
    reason: str
    built: bool = False  # compiled just now (not found in the cache)


def native_status(game: Any, num_players: int, step: bool = False) -> NativeStatus:
    """The native module of `game` for `num_players` (with `step`: the per-step one),
    built or loaded once per process."""
    cache: dict[tuple[int, bool], NativeStatus] = game.__dict__.setdefault("_native", {})
    found = cache.get((num_players, step))
    if found is None:
        try:
            source, names = lower_named(game, num_players, step)
            module, built = load_module(source)
            module.set_names(names)
            found = NativeStatus(module, "native", built)
        except NotNative as err:
            found = NativeStatus(None, f"the rules use what the native backend does not cover yet ({err})")
        except NativeUnavailable as err:
            found = NativeStatus(None, str(err))
        cache[num_players, step] = found
    return found


