"""The lowerings of the built-in functions, by name: `@builtin("name")` registers one.

Each built-in is declared once, with its arity and facts, in lang/builtins.py; its
lowering (builtin_functions.py, board_functions.py) turns a checked call into a Python
expression tree and a type. Registering checks the name is declared and wraps the lowering in
the declared arity's check, so a call with another number of arguments is a compile
error that names the function.
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable
from typing import TYPE_CHECKING

from interpreter.lang import ast
from interpreter.lang.builtins import facts_of
from interpreter.lang.symbols import CompileError

if TYPE_CHECKING:
    from interpreter.compile.expressions import Context

Builtin = Callable[[ast.Call, "Context"], "tuple[py.expr, str]"]  # a lowering: (Python expression, type)
BUILTINS: dict[str, Builtin] = {}


def builtin(name: str) -> Callable[[Builtin], Builtin]:
    """Register the lowering of built-in `name`, declared (arity too) in lang/builtins.py."""
    if (facts := facts_of(name)) is None:
        raise ValueError(f"built-in {name!r} is not declared in interpreter/lang/builtins.py")
    arity = facts.arity

    def register(fn: Builtin) -> Builtin:
        def checked(node: ast.Call, ctx: Context) -> tuple[py.expr, str]:
            if len(node.args) not in arity:
                want = " or ".join(str(a) for a in arity)
                raise CompileError(node, "arity", f"{name}() takes {want} argument(s), got {len(node.args)}",
                                   width=len(name))
            return fn(node, ctx)
        BUILTINS[name] = checked
        return fn
    return register
