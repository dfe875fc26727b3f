"""The namespace generated code runs in, and the functions made from its syntax trees.

The expression compiler builds each expression as a Python expression tree over two
names, `st` (the state) and `env` (the running effect's locals), and this module makes
it a function once. Generated code is built only from the checked syntax tree of the
rules, never from a user's raw text, and never as text (compile/pyast.py): names of the
effect language become `env['name']` keys or mangled identifiers (`_l_name`, only
through `local_name`; generated ones `_v3`), literals are constant nodes, and every
other object the code needs (a table of card properties, a helper function) is a
constant bound under a generated name (`_k12`) in the game's own namespace. The
namespace offers only a short list of Python built-ins. Every tree is checked by
`compile/pycheck.py` before it is compiled (what it may hold, and why that shuts out
the known escapes from a restricted namespace), so a slip at one call site cannot turn
rule text into code.

An emitter made with `compiles=False` checks and lists trees but compiles and runs
none (each function it returns raises `NotCompiled`): for rules that already have
errors, whose meaning is still checked so that every mistake is told at once.

Why: a closure per syntax node costs a Python call per node; one generated function per
expression does the same work in straight-line bytecode (and comprehensions become real
Python comprehensions). Compiled code objects are cached per process by their tree
(its pickle: equal bytes, equal trees), so loading a game again (tests, workers)
checks and compiles nothing twice.
"""

from __future__ import annotations

import ast
import builtins
import pickle
import warnings
from collections.abc import Callable
from types import CodeType
from typing import Any

from interpreter.compile.pyast import E, Stmts, as_names, constant, env_free, name, uses_env
from interpreter.compile.pycheck import Checked, SourceTooDeep, UnsafeSource, check_definition, check_lambda

# What generated code may call besides its own constants.
_ALLOWED_BUILTINS = ("abs", "all", "any", "bool", "dict", "int", "isinstance", "len", "list", "max", "min",
                     "range", "reversed", "sorted", "str", "sum", "tuple", "type", "next", "iter", "enumerate",
                     "zip", "set", "frozenset", "divmod", "Exception")
_BUILTINS = {name: getattr(builtins, name) for name in _ALLOWED_BUILTINS}
_PLAIN_TYPES = (bool, int, str, type(None))

# A tree's pickle -> its compiled code, shared by every game in the process. The key
# is exact (a pickle gives back the very tree), is never run nor parsed, and costs
# far less than checking and compiling the tree again. Bounded: emptied when full.
_CODE_CACHE: dict[bytes, CodeType] = {}
_CACHE_LIMIT = 40_000


class NotCompiled(Exception):
    """A function of rules that have errors was called: none of it was compiled."""


def _compile(tree: ast.Module | ast.Expression, mode: str) -> CodeType:
    # A rule that indexes a constant that is not a list (`3[0]`) is a rule error when it
    # runs; Python would also warn about it on stderr while compiling: not for players.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        try:
            return compile(tree, "<orrery generated>", mode)  # the checked tree itself: what is checked runs
        except (RecursionError, MemoryError):
            raise SourceTooDeep("the code made of it nests too deeply for Python") from None


def _cache(key: bytes, code: CodeType) -> CodeType:
    if len(_CODE_CACHE) >= _CACHE_LIMIT:
        _CODE_CACHE.clear()
    _CODE_CACHE[key] = code
    return code


class Emitter:
    """One game's namespace of generated code: its constants and the functions made."""

    def __init__(self, compiles: bool = True) -> None:
        self.compiles = compiles  # False: check and list sources, compile and run none
        self.ns: dict[str, Any] = {"__builtins__": _BUILTINS}
        self._names: dict[int, str] = {}  # id(object) -> its name in ns (ns keeps it alive)
        self._fresh = 0
        # (what, its syntax tree pickled): for `describe --code`. Kept as bytes: a game's
        # trees are tens of thousands of objects the garbage collector would walk again
        # and again while it plays; the pickle is made anyway (the code cache's key).
        self.listing: list[tuple[str, bytes]] = []
        self.memo: dict[Any, Any] = {}  # what compilers share within one game (tables, readers)
        self.where = "expression"  # the rule being compiled (set by the builder), for the listing
        self.bodies: dict[Callable[[Any, Any], Any], ast.expr] = {}  # function -> its expression's tree
        self.checked: Checked = {}  # subtrees pycheck has checked (they are shared, never changed)

    def const(self, value: Any, stem: str = "k") -> ast.expr:
        """Code naming `value`: a literal for plain values, else a bound name."""
        if type(value) in _PLAIN_TYPES and not (type(value) is int and abs(value) > 1 << 62):
            return constant(value)
        return self.bound(value, stem)

    def bound(self, value: Any, stem: str = "k") -> ast.Name:
        """A generated name bound to `value` (even a plain value)."""
        key = self._names.get(id(value))
        if key is None:
            key = f"_{stem}{len(self._names)}"
            self._names[id(value)] = key
            self.ns[key] = value
        return name(key)

    def fresh(self, stem: str = "v") -> ast.Name:
        """A new name for a generated local (never a name of the effect language:
        those are keys of `env`, not Python names)."""
        self._fresh += 1
        return name(f"_{stem}{self._fresh}")

    def function(self, body: ast.expr, what: str | None = None) -> Callable[[Any, Any], Any]:
        """`lambda st, env: body` in this namespace."""
        tree = ast.Expression(E("lambda st, env: {body}", body=body))
        key = self._key(tree)
        code = _CODE_CACHE.get(key) if key is not None else None
        if code is None:
            check_lambda(tree, self.checked)  # (a tree in the cache was checked when it went in)
            if key is not None:
                code = _cache(key, _compile(tree, "eval"))
        self.listing.append((what or self.where, key or b""))
        fn: Callable[[Any, Any], Any] = (eval(code, self.ns) if code is not None and self.compiles  # checked tree
                                         else _not_compiled())
        self.bodies[fn] = body
        return fn

    def inline(self, fn: Callable[[Any, Any], Any], stem: str) -> ast.expr:
        """Code computing `fn(st, env)` where `st` and `env` are in scope: the
        expression itself when this emitter made `fn`, else a call of it."""
        body = self.bodies.get(fn)
        return body if body is not None else E("{f}(st, env)", f=self.const(fn, stem))

    def define(self, definition: Stmts, what: str) -> Any:
        """Run a generated `def NAME(...)` (one statement) in this namespace and return
        the function."""
        tree = ast.Module(definition, type_ignores=[])
        if len(definition) != 1 or not isinstance(definition[0], ast.FunctionDef):
            raise UnsafeSource("a definition is not one function")
        fname = definition[0].name
        key = self._key(tree)
        code = _CODE_CACHE.get(key) if key is not None else None
        if code is None:
            check_definition(tree, fname, self.checked)  # (a tree in the cache was checked when it went in)
            if key is not None:
                code = _cache(key, _compile(tree, "exec"))
        self.listing.append((what, key or b""))
        if code is not None and self.compiles:
            exec(code, self.ns)  # checked tree: one `def NAME`, of allowed parts only
        else:
            self.ns[fname] = _not_compiled()
        return self.ns[fname]

    def _key(self, tree: ast.AST) -> bytes | None:
        """The code cache's key of `tree` (and its listing); None for rules with errors
        (none of their code is compiled or listed, so the key is not worth making)."""
        return pickle.dumps(tree, 5) if self.compiles else None

    def constants(self) -> list[tuple[str, str]]:
        """The bound names generated code refers to, each with a short description."""
        out = []
        for bound_name, value in self.ns.items():
            if bound_name.startswith("__") or (callable(value) and getattr(value, "__name__", "") == "<lambda>"):
                continue
            if callable(value) and getattr(value, "__module__", "") is None:  # one of ours, defined in the listing
                if bound_name == value.__qualname__:
                    continue  # (its own name: its def above says it all)
                shown = f"{value.__qualname__} (generated, above)"
            elif callable(value) and hasattr(value, "__qualname__"):
                shown = f"{getattr(value, '__module__', '')}.{value.__qualname__}"
            elif type(value) is list and value and all(callable(v) for v in value):
                shown = f"[{len(value)} generated functions, in the order the rules give them]"
            else:
                shown = repr(value)
                shown = shown if len(shown) <= 100 else shown[:97] + "..."
            out.append((bound_name, shown))
        return out


def _not_compiled() -> Callable[..., Any]:
    def not_compiled(*args: Any) -> Any:
        raise NotCompiled("the rules have errors: their code was not compiled")
    return not_compiled


# ---- names of the effect language as Python names -----------------------------------------


def local_name_ok(name: object) -> bool:
    """Whether `name` may be a (mangled) Python name in generated code: lowercase
    ASCII letters, digits and `_`, a letter first, nothing else (no line break, no
    quote, no unicode that Python would normalise into another word)."""
    return (isinstance(name, str) and name[:1].isalpha() and name.isascii()
            and all(c.islower() or c.isdigit() or c == "_" for c in name))


def local_name(name: str) -> str:
    """The Python name generated code holds the effect language's local `name` in:
    `_l_NAME`, never a name of Python's or of the generator's own (`_k12`, `_v3`).
    Callers check `local_name_ok` first and keep such a local in `env` when it fails."""
    if not local_name_ok(name):
        raise UnsafeSource(f"{name!r} cannot be written as a Python name")
    return f"_l_{name}"


def local(name: str) -> ast.Name:
    """`local_name(name)` as a name node."""
    return ast.Name(local_name(name), ast.Load())


__all__ = ["Emitter", "NotCompiled", "SourceTooDeep", "UnsafeSource", "as_names", "env_free", "local", "local_name",
           "local_name_ok", "uses_env"]
