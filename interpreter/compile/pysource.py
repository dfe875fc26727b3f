"""Python source generated from checked rule text, and the functions made from it.

The expression compiler writes each expression as a Python expression over two names,
`st` (the state) and `env` (the running effect's locals), and this module turns it into
a function once. Generated code is written only from the checked syntax tree, never
from a user's raw text: names of the effect language become `env['name']` keys or
mangled identifiers (`_l_name`, only through `local_name`; generated ones `_v3`),
literals are written with `repr`, comments carry no rule text, and every other object
the code needs (a table of card properties, a helper function) is a constant bound
under a generated name (`_k12`) in the game's own namespace. The namespace offers only
a short list of Python built-ins. Every source is checked by `compile/pycheck.py`
before it is compiled (what it may hold, and why that shuts out the known escapes from
a restricted namespace), so a slip at one call site cannot turn rule text into code.

An emitter made with `compiles=False` checks and lists sources but compiles and runs
none (each function it returns raises `NotCompiled`): for rules that already have
errors, whose meaning is still checked so that every mistake is told at once.

Why: a closure per syntax node costs a Python call per node; one generated function per
expression does the same work in straight-line bytecode (and comprehensions become real
Python comprehensions). Compiled code objects are cached per process by their source,
so loading a game again (tests, workers) compiles nothing twice.
"""

from __future__ import annotations

import ast
import builtins
import re
import warnings
from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any

from interpreter.compile.pycheck import SourceTooDeep, UnsafeSource, check_definition, check_expression

# What generated code may call besides its own constants.
_ALLOWED_BUILTINS = ("abs", "all", "any", "bool", "dict", "int", "isinstance", "len", "list", "max", "min",
                     "range", "reversed", "sorted", "str", "sum", "tuple", "type", "next", "iter", "enumerate",
                     "zip", "set", "frozenset", "divmod", "Exception")
_BUILTINS = {name: getattr(builtins, name) for name in _ALLOWED_BUILTINS}
_PLAIN_TYPES = (bool, int, str, type(None))

_CODE_CACHE: dict[str, CodeType] = {}  # source -> compiled code, shared by every game in the process


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


class Emitter:
    """One game's namespace of generated code: its constants and the functions made."""

    def __init__(self, compiles: bool = True) -> None:
        self.compiles = compiles  # False: check and list sources, compile and run none
        self.ns: dict[str, Any] = {"__builtins__": _BUILTINS}
        self._names: dict[int, str] = {}  # id(object) -> its name in ns (ns keeps it alive)
        self._fresh = 0
        self.listing: list[tuple[str, str]] = []  # (what, source): for `describe --code`
        self.memo: dict[Any, Any] = {}  # what compilers share within one game (tables, readers)
        self.where = "expression"  # the rule being compiled (set by the builder), for the listing
        self.bodies: dict[Callable[[Any, Any], Any], str] = {}  # function -> its expression's source

    def const(self, value: Any, stem: str = "k") -> str:
        """Source text naming `value`: a literal for plain values, else a bound name."""
        if type(value) in _PLAIN_TYPES and not (type(value) is int and abs(value) > 1 << 62):
            return repr(value)
        return self.bound(value, stem)

    def bound(self, value: Any, stem: str = "k") -> str:
        """A generated name bound to `value` (even a plain value)."""
        name = self._names.get(id(value))
        if name is None:
            name = f"_{stem}{len(self._names)}"
            self._names[id(value)] = name
            self.ns[name] = value
        return name

    def fresh(self, stem: str = "v") -> str:
        """A new identifier for a generated local (never a name of the effect language:
        those are keys of `env`, not Python names)."""
        self._fresh += 1
        return f"_{stem}{self._fresh}"

    def function(self, body: str, what: str | None = None) -> Callable[[Any, Any], Any]:
        """`lambda st, env: body` in this namespace."""
        source = f"lambda st, env: {body}"
        code = _CODE_CACHE.get(source)
        if code is None:
            tree = check_expression(source)  # (a source in the cache was checked when it went in)
            if self.compiles:
                code = _compile(tree, "eval")
                _CODE_CACHE[source] = code
        self.listing.append((what or self.where, source))
        fn: Callable[[Any, Any], Any] = (eval(code, self.ns) if code is not None and self.compiles  # checked source
                                         else _not_compiled())
        self.bodies[fn] = body
        return fn

    def inline(self, fn: Callable[[Any, Any], Any], stem: str) -> str:
        """Source computing `fn(st, env)` where `st` and `env` are in scope: the
        expression itself when this emitter made `fn`, else a call of it."""
        body = self.bodies.get(fn)
        return f"({body})" if body is not None else f"{self.const(fn, stem)}(st, env)"

    def define(self, source: str, name: str, what: str) -> Any:
        """Run a generated `def name(...)` block in this namespace and return the function."""
        if not local_name_ok(name.lstrip("_")):
            raise UnsafeSource(f"a generated function may not be named {name!r}")
        code = _CODE_CACHE.get(source)
        if code is None:
            tree = check_definition(source, name)  # (a source in the cache was checked when it went in)
            if self.compiles:
                code = _compile(tree, "exec")
                _CODE_CACHE[source] = code
        self.listing.append((what, source))
        if code is None or not self.compiles:
            self.ns[name] = _not_compiled()
        else:
            exec(code, self.ns)  # checked source: one `def name`, of allowed parts only
        return self.ns[name]

    def constants(self) -> list[tuple[str, str]]:
        """The bound names generated code refers to, each with a short description."""
        out = []
        for name, value in self.ns.items():
            if name.startswith("__") or (callable(value) and getattr(value, "__name__", "") == "<lambda>"):
                continue
            if callable(value) and getattr(value, "__module__", "") is None:  # one of ours, defined in the listing
                if name == value.__qualname__:
                    continue  # (its own name: its def above says it all)
                shown = f"{value.__qualname__} (generated, above)"
            elif callable(value) and hasattr(value, "__qualname__"):
                shown = f"{getattr(value, '__module__', '')}.{value.__qualname__}"
            elif type(value) is list and value and all(callable(v) for v in value):
                shown = f"[{len(value)} generated functions, in the order the rules give them]"
            else:
                shown = repr(value)
                shown = shown if len(shown) <= 100 else shown[:97] + "..."
            out.append((name, shown))
        return out


def _not_compiled() -> Callable[..., Any]:
    def not_compiled(*args: Any) -> Any:
        raise NotCompiled("the rules have errors: their code was not compiled")
    return not_compiled


# ---- names of the effect language as Python names -----------------------------------------

_RULE_LOCAL = re.compile(r"\A[a-z][a-z0-9_]*\Z")


def local_name_ok(name: object) -> bool:
    """Whether `name` may be written into generated source as a (mangled) Python name:
    lowercase ASCII letters, digits and `_`, a letter first, nothing else (no line
    break, no quote, no unicode that Python would normalise into another word)."""
    return isinstance(name, str) and _RULE_LOCAL.match(name) is not None


def local_name(name: str) -> str:
    """The Python name generated code holds the effect language's local `name` in:
    `_l_NAME`, never a name of Python's or of the generator's own (`_k12`, `_v3`).
    Callers check `local_name_ok` first and keep such a local in `env` when it fails."""
    if not local_name_ok(name):
        raise UnsafeSource(f"{name!r} cannot be written as a Python name")
    return f"_l_{name}"


# ---- locals read as Python names ----------------------------------------------------------
#
# A text literal (generated code writes them with `repr`: quoted, backslash escapes) is
# matched first, so that a rule's text that happens to spell `env['x']` is never taken
# for code.
LITERAL = r"'(?:[^'\\]|\\.)*'" + "|" + r'"(?:[^"\\]|\\.)*"'
_LITERAL_OR_READ = re.compile(LITERAL + r"""|(?<![\w.])env\[('[A-Za-z_]\w*')\]""")
_LITERAL_OR_ENV = re.compile(LITERAL + r"""|(?<![\w.])env(?!\w)""")


def locals_as_names(source: str, names: Mapping[str, str]) -> str:
    """`source` with each read `env['KEY']` of a KEY in `names` written as the Python
    name `names[KEY]` holding the same value (a function that has its locals as
    arguments needs no dictionary of them)."""
    def name(match: re.Match[str]) -> str:
        key = match.group(1)
        return match.group(0) if key is None else names.get(key[1:-1], match.group(0))
    return _LITERAL_OR_READ.sub(name, source)


_LITERAL_OR_ME = re.compile(LITERAL + r"""|(?<![\w.])env\.get\('me', st\.active\)""")


def me_as_name(source: str, name: str) -> str:
    """`source` with each read of the acting player, `env.get('me', st.active)`, written
    as the Python name `name`: for code whose locals always hold `me` (a function's, a
    value's), where that read is the local itself."""
    return _LITERAL_OR_ME.sub(lambda m: m.group(0) if m.group(0)[0] in "'\"" else name, source)


def uses_env(source: str) -> bool:
    """Whether generated source uses the dictionary `env` (outside its text literals)."""
    return any(m.group(0) == "env" for m in _LITERAL_OR_ENV.finditer(source))


def as_names(source: str, names: Mapping[str, str]) -> str:
    """`source` with its reads of the locals in `names` written as those Python names
    (`locals_as_names`; the acting player's `env.get` read too, when `me` is one of them:
    `me_as_name`). Other reads of `env` stay."""
    if "me" in names:
        source = me_as_name(source, names["me"])
    return locals_as_names(source, names)


def env_free(source: str, names: Mapping[str, str]) -> str | None:
    """`source` with the locals in `names` as Python names (`as_names`), or None when it
    still uses `env` (a local not named, the whole env)."""
    source = as_names(source, names)
    return None if uses_env(source) else source


__all__ = ["Emitter", "NotCompiled", "SourceTooDeep", "UnsafeSource", "as_names", "env_free", "local_name",
           "local_name_ok", "locals_as_names", "me_as_name", "uses_env"]
