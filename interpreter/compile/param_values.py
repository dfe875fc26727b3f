"""`params: {x: {in: DOMAIN, max: 10}}`: the values an action parameter declares it may
take. The integer action space (runtime/action_space.py) numbers a parameter's values
once for the whole game; cards and seats are numbered by their type, and other values
are found from the domain's text when they can be (analysis/domains.py). A domain whose
values cannot be found (`range(1, credits(me) + 1)` with no `max` on credits) declares
them here: `min`/`max` for numbers (min 0 by default), or `values: [...]`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.analysis.domains import MAX_VALUES
from interpreter.compile.expressions import describe

Report = Callable[..., None]  # Builder.error: (logical path, code, message, hint)


def declared_type(spec: dict[str, Any], declared: tuple[Any, ...] | None, type_: str) -> str:
    """The type of a parameter's values: a parameter whose choices could be anything but
    that `min` and `max` bound holds whole numbers (any other value has no id), which
    lets its listing keep its actions and their ids (compile/enumerators.py)."""
    return "int" if declared is not None and type_ == "any" and "values" not in spec else type_


def declared_values(spec: dict[str, Any], where: tuple[Any, ...], type_: str, error: Report) -> tuple[Any, ...] | None:
    """The declared values of one parameter of type `type_` (None: none declared, or wrong)."""
    bounds = "min" in spec or "max" in spec
    if type_ in ("card", "player") and (bounds or "values" in spec):
        error(where, "bad-value", f"a {type_} parameter is numbered by its type; it declares no values",
              "remove min, max and values here")
        return None
    if bounds and "values" in spec:
        error(where, "bad-value", "give either min and max or values, not both")
        return None
    if "values" in spec:
        values = list(spec["values"])
        if len({(type(v).__name__, v) for v in values}) != len(values):
            error(where + ("values",), "bad-value", "the values repeat one another")
            return None
        return tuple(values)
    if not bounds:
        return None
    if type_ not in ("int", "any"):
        error(where, "bad-value", f"min and max bound numbers; this parameter's choices are {describe(type_)}",
              "list them with values: [...] instead")
        return None
    low, high = int(spec.get("min", 0)), spec.get("max")
    if high is None or int(high) < low:
        error(where, "bad-value", f"bounds need a max of at least min ({low})",
              'e.g. {in: "range(1, credits(me) + 1)", max: 10}')
        return None
    if int(high) - low >= MAX_VALUES:
        error(where, "bad-value", f"{int(high) - low + 1} values are too many to number (at most {MAX_VALUES})")
        return None
    return tuple(range(low, int(high) + 1))
