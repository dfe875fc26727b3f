"""Generated Python built as syntax trees, from the compiler's own templates.

The code generator never writes Python as text to parse back. Each piece of generated
code is a node of Python's `ast`, made by filling a template: a constant string in the
compiler's own source, with holes written `{name}` (`{{` and `}}` are literal braces,
as in an f-string). A template is parsed once per process (cached by its text) into a
builder, and each use copies the nodes on the way to its holes, with every hole
replaced by the node given for it (what holds no hole is shared):

    E("{f}(st, {x}) + 1", f=em.const(fn), x=value)     # an expression node
    S('''
    if {cond}:
        {body}
    ''', cond=c, body=lines)                            # a list of statement nodes

Rule text never reaches a parser here: a name of the effect language enters generated
code only as a `Name` node of a mangled identifier (`pysource.local_name`), a text or
number only as a `Constant` node (`lit`), and a template is a literal of the compiler
(tests/test_codegen_trees.py checks every call site). So no rule-file name or literal
can become code, by construction; `compile/pycheck.py` still checks every finished tree.

What a hole takes, by where it stands:
- in an expression: a node (`ast.expr`), or a plain compiler value (int, float, bool,
  None), which becomes a constant. Text is refused: `lit(text)` for a text literal,
  `name(identifier)` for a generated name;
- as an element of a call's arguments, a list, tuple or set display, or a function's
  parameters: a Python list of nodes, spliced in (a single node stands for itself);
- alone on a line of statements: a list of statements (spliced; an empty block gets
  `pass`), one statement, or an expression (made an expression statement);
- as a target (`{v} = ...`, `for {v} in ...`, `({v} := ...)`): a Name, Subscript,
  Attribute or Tuple node (its context is set to store);
- as a function's name (`def {f}(...)`) or an attribute (`st.{field}`): a `Name` node
  or an identifier of the compiler's own.

Nodes may be shared between trees: nothing here changes a node in place (`transform`
copies the path to what it replaces), and every node gets the position `compile` needs
where it is made (`placed`), so a node means the same in every tree that holds it and
a tree's pickle, the key of the code cache (compile/pysource.py), is the same on
every load of the same rules.
"""

from __future__ import annotations

import ast
import string
import textwrap
from collections.abc import Callable, Iterable, Mapping
from typing import Any

HOLE = "_H_"  # a template's hole, as the name it is parsed as

Stmts = list[ast.stmt]

# (text, mode) -> the template's builder: holes -> the filled tree (see _plan)
Builder = Callable[[Mapping[str, Any]], Any]
_TEMPLATES: dict[tuple[str, str], Builder] = {}
_FORMATTER = string.Formatter()
_PLAIN = (bool, int, float, type(None))


class TemplateError(Exception):
    """A template or a hole's value the generator should never have written (a bug)."""


def _builder(text: str, mode: str) -> Builder:
    key = (text, mode)
    builder = _TEMPLATES.get(key)
    if builder is None:
        parts = []
        for literal, field, spec, conversion in _FORMATTER.parse(text):
            parts.append(literal)
            if field is None:
                continue
            if not field.isidentifier() or spec or conversion:
                raise TemplateError(f"a template's hole must be a plain name, not {{{field}}}")
            parts.append(HOLE + field)
        source = "".join(parts)
        tree: Any
        try:
            if mode == "eval":
                tree = ast.parse(source.strip(), mode="eval").body
            else:
                tree = ast.parse(textwrap.dedent(source).strip("\n") + "\n").body
        except SyntaxError as err:
            raise TemplateError(f"a template does not parse: {err}\n{text}") from None
        holey: set[int] = set()
        for node in (tree if isinstance(tree, list) else [tree]):
            _find_holes(node, holey)
            for part in ast.walk(node):  # (positions as pycheck gives every node: a tree's pickle,
                if "lineno" in part._attributes:  # the code cache's key, is the same each load)
                    part.lineno = part.end_lineno = 1  # type: ignore[attr-defined]
                    part.col_offset = part.end_col_offset = 0  # type: ignore[attr-defined]
        built = _plan(tree, holey) if mode == "eval" else _plan_list(tree, holey)
        builder = _TEMPLATES[key] = built or _unchanged(tree)
    return builder


def _unchanged(tree: Any) -> Builder:
    """The builder of a template without holes: the tree itself (a list of statements
    anew each time: callers add to it)."""
    if isinstance(tree, list):
        return lambda holes: list(tree)
    return lambda holes: tree


def _find_holes(node: Any, holey: set[int]) -> bool:
    """Whether `node` holds a hole; the ids of those that do go into `holey`. (What
    holds none is shared by every tree filled from the template, never copied: no
    tree is ever changed in place.)"""
    found = False
    for field in node._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST) and _find_holes(item, holey):
                    found = True
        elif isinstance(value, ast.AST):
            found = _find_holes(value, holey) or found
        elif type(value) is str and value.startswith(HOLE) and field in ("id", "name", "attr", "arg"):
            found = True
    if found:
        holey.add(id(node))
    return found


def E(template: str, /, **holes: Any) -> ast.expr:
    """The expression `template` with its holes filled (see the module docstring)."""
    node = _builder(template, "eval")(holes)
    assert isinstance(node, ast.expr)
    return node


def S(template: str, /, **holes: Any) -> Stmts:
    """The statements of `template` with their holes filled (see the module docstring)."""
    statements: Stmts = _builder(template, "exec")(holes)
    return statements


def lit(value: Any) -> ast.expr:
    """A literal of a plain value: text, number, truth, None, or a list, tuple or dict
    of those. (The generator's only way to write a rule's text into code.)"""
    if isinstance(value, str | bool | int | float) or value is None:
        return constant(value)
    if isinstance(value, list):
        return placed(ast.List([lit(v) for v in value], ast.Load()))
    if isinstance(value, tuple):
        return placed(ast.Tuple([lit(v) for v in value], ast.Load()))
    if isinstance(value, dict):
        return placed(ast.Dict([lit(k) for k in value], [lit(v) for v in value.values()]))
    raise TemplateError(f"no literal for a {type(value).__name__}")


_NAMES: dict[str, ast.Name] = {}  # identifier -> its name node (shared: trees never change)


def name(identifier: str) -> ast.Name:
    """The generated name `identifier` (never one of the rules': those are mangled by
    pysource.local_name first)."""
    node = _NAMES.get(identifier)
    if node is None:
        if not (isinstance(identifier, str) and identifier.isidentifier() and identifier.isascii()
                and not identifier.startswith("__")):
            raise TemplateError(f"{identifier!r} is not a generated name")
        if len(_NAMES) > 100_000:
            _NAMES.clear()
        node = _NAMES[identifier] = placed(ast.Name(identifier, ast.Load()))
    return node


def seq(*parts: ast.stmt | Iterable[ast.stmt] | None) -> Stmts:
    """Statements and lists of statements, joined in order (None: nothing)."""
    out: Stmts = []
    for part in parts:
        if part is None:
            continue
        if isinstance(part, ast.stmt):
            out.append(part)
        else:
            out.extend(part)
    return out


# ---- filling a template --------------------------------------------------------------------


def _hole(node: Any) -> str | None:
    if type(node) is ast.Name and node.id.startswith(HOLE):
        return node.id[len(HOLE):]
    return None


def _value(holes: Mapping[str, Any], key: str) -> Any:
    try:
        return holes[key]
    except KeyError:
        raise TemplateError(f"no value for the hole {{{key}}}") from None


def constant(value: Any) -> ast.expr:
    """A plain value as Python's parser reads it written out: a negative number is
    a minus sign and its size (so a tree built equals the tree of its text)."""
    if type(value) in (int, float) and value < 0:
        return ast.UnaryOp(ast.USub(), ast.Constant(-value, **_POSITION), **_POSITION)
    return ast.Constant(value, **_POSITION)


def _as_expr(value: Any) -> ast.expr:
    if isinstance(value, ast.expr):
        return value if hasattr(value, "lineno") else placed(value)  # (placed: what it holds is too)
    if isinstance(value, _PLAIN):
        return constant(value)
    if isinstance(value, str):
        raise TemplateError(f"a hole was given the text {value!r}: write lit(text) or name(identifier)")
    raise TemplateError(f"a hole was given a {type(value).__name__}")


def _identifier(value: Any) -> str:
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, str) and value.isidentifier():
        return value
    raise TemplateError(f"a name's hole was given {value!r}")


def with_ctx(node: ast.expr, ctx: ast.expr_context) -> ast.expr:
    """`node` as a target (Store) or deleted (Del): a copy with that context."""
    return placed(_with_ctx(node, ctx))


def _with_ctx(node: ast.expr, ctx: ast.expr_context) -> ast.expr:
    if isinstance(node, ast.Name):
        return ast.Name(node.id, ctx)
    if isinstance(node, ast.Subscript):
        return ast.Subscript(node.value, node.slice, ctx)
    if isinstance(node, ast.Attribute):
        return ast.Attribute(node.value, node.attr, ctx)
    if isinstance(node, ast.Tuple | ast.List):
        return type(node)([_with_ctx(e, ctx) for e in node.elts], ctx)
    if isinstance(node, ast.Starred):
        return ast.Starred(_with_ctx(node.value, ctx), ctx)
    raise TemplateError(f"a {type(node).__name__} cannot be a target")


# A template becomes a builder once: a function of the holes' values that copies only
# the nodes on the way to a hole (what holds none is shared by every tree filled from
# it: trees are never changed in place), each copy placed, each value checked and placed.


def _plan(node: Any, holey: set[int]) -> Builder | None:
    """The builder of `node`, or None when it holds no hole (it is used as it is)."""
    if id(node) not in holey:
        return None
    key = _hole(node)
    if key is not None:
        ctx = node.ctx
        if type(ctx) is ast.Load:
            return lambda holes: _as_expr(_value(holes, key))
        return lambda holes: with_ctx(_as_expr(_value(holes, key)), ctx)
    kind = type(node)
    static: dict[str, Any] = dict(_POSITION) if "lineno" in kind._attributes else {}
    dynamic: list[tuple[str, Builder]] = []
    for field in kind._fields:
        old = getattr(node, field, None)
        part: Builder | None = None
        if type(old) is list:
            part = _plan_list(old, holey, needs_one=field == "body" and bool(old))
        elif isinstance(old, ast.AST):
            part = _plan(old, holey)
        elif type(old) is str and old.startswith(HOLE) and field in ("name", "attr", "arg"):
            part = _identifier_hole(old[len(HOLE):])
        if part is None:
            static[field] = old
        else:
            dynamic.append((field, part))

    def build(holes: Mapping[str, Any]) -> Any:
        fields = dict(static)
        for field, part in dynamic:
            fields[field] = part(holes)
        return kind(**fields)
    return build


def _identifier_hole(key: str) -> Builder:
    return lambda holes: _identifier(_value(holes, key))


_KEEP, _BUILD, _STATEMENTS, _PARAMETERS, _ELEMENTS = range(5)


def _plan_list(items: list[Any], holey: set[int], needs_one: bool = False) -> Builder | None:
    """The builder of a list of nodes (statements, elements, parameters), or None when
    it holds no hole. A hole standing as an element takes a list, spliced in."""
    steps: list[tuple[int, Any]] = []
    for item in items:
        if id(item) not in holey:
            steps.append((_KEEP, item))
        elif type(item) is ast.Expr and _hole(item.value) is not None:  # a statement's hole
            steps.append((_STATEMENTS, _hole(item.value)))
        elif type(item) is ast.arg and item.arg.startswith(HOLE):  # `def f(st, {params})`
            steps.append((_PARAMETERS, item.arg[len(HOLE):]))
        elif _hole(item) is not None:  # an element's hole
            steps.append((_ELEMENTS, (_hole(item), item.ctx)))
        else:
            steps.append((_BUILD, _plan(item, holey)))
    if all(step == _KEEP for step, _ in steps):
        return None

    def build(holes: Mapping[str, Any]) -> list[Any]:
        out: list[Any] = []
        for step, part in steps:
            if step == _KEEP:
                out.append(part)
            elif step == _BUILD:
                out.append(part(holes))
            elif step == _STATEMENTS:
                value = _value(holes, part)
                for v in (value if isinstance(value, list) else [value]):
                    out.append(placed(v) if isinstance(v, ast.stmt) else placed(ast.Expr(_as_expr(v))))
            elif step == _PARAMETERS:
                value = _value(holes, part)
                out.extend(placed(ast.arg(_identifier(v))) for v in (value if isinstance(value, list) else [value]))
            else:
                key, ctx = part
                value = _value(holes, key)
                for v in (value if isinstance(value, list) else [value]):
                    out.append(_as_expr(v) if type(ctx) is ast.Load else with_ctx(_as_expr(v), ctx))
        if needs_one and not out:  # (a block left empty: `pass`; an empty else is no else)
            out.append(placed(ast.Pass()))
        return out
    return build


# ---- positions ------------------------------------------------------------------------------

_HAS_POSITION: dict[type, bool] = {}
_POSITION: dict[str, Any] = {"lineno": 1, "col_offset": 0, "end_lineno": 1, "end_col_offset": 0}


def placed(node: Any) -> Any:
    """`node`, with every node in it that has none given the position `compile` needs
    (line 1: generated code has no lines of its own to point at). A node that has one
    holds only placed nodes: every tree this module gives is placed, and so is each
    node a hole is given. So a node's position is set once, where it is made, never
    later in a tree that shares it: a tree's pickle (the code cache's key) is the same
    however often it was compiled before."""
    kind = type(node)
    located = _HAS_POSITION.get(kind)
    if located is None:
        located = _HAS_POSITION[kind] = "lineno" in kind._attributes
    if located:
        if hasattr(node, "lineno"):
            return node
        node.lineno = node.end_lineno = 1
        node.col_offset = node.end_col_offset = 0
    for field in kind._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    placed(item)
        elif isinstance(value, ast.AST):
            placed(value)
    return node


# ---- reading and rewriting built trees ----------------------------------------------------


def transform(node: Any, swap: Callable[[Any], Any]) -> Any:
    """`node` with every subtree for which `swap` gives a node replaced by it (`swap`
    gives None to look inside). Only the path to a replacement is copied: `node` and
    what it shares with other trees never change."""
    new = swap(node)
    if new is not None:
        return new
    changed = False
    fields: dict[str, Any] = {}
    for field in node._fields:
        old = getattr(node, field, None)
        value = old
        if type(old) is list:
            value = [transform(v, swap) if isinstance(v, ast.AST) else v for v in old]
            if any(a is not b for a, b in zip(value, old, strict=True)):
                changed = True
            else:
                value = old
        elif isinstance(old, ast.AST):
            value = transform(old, swap)
            changed = changed or value is not old
        fields[field] = value
    if not changed:
        return node
    return placed(type(node)(**fields))


def transform_all(nodes: list[Any], swap: Callable[[Any], Any]) -> list[Any]:
    """`transform` of each node of a list (of statements)."""
    return [transform(n, swap) for n in nodes]


def walk(*nodes: Any) -> list[Any]:
    """Every node of the trees (lists of statements too), shared ones as often as
    they stand (`ast.walk` of several, as a list)."""
    out: list[Any] = []
    todo = [n for node in nodes for n in (node if isinstance(node, list) else [node])]
    while todo:
        node = todo.pop()
        out.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                todo.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                todo.append(value)
    return out


def names_in(*nodes: Any) -> set[str]:
    """The identifiers the trees use."""
    return {n.id for n in walk(*nodes) if type(n) is ast.Name}


def is_name(node: Any, identifier: str | None = None) -> bool:
    """Whether `node` is a name (that name, when given)."""
    return type(node) is ast.Name and (identifier is None or node.id == identifier)


def int_value(node: Any) -> int | None:
    """The whole number `node` writes as a literal (`3`, `-3`), else None."""
    if type(node) is ast.UnaryOp and type(node.op) is ast.USub:
        inner = int_value(node.operand)
        return None if inner is None else -inner
    if type(node) is ast.Constant and type(node.value) is int:
        return node.value
    return None


def env_key(node: Any) -> str | None:
    """The key of a read `env['KEY']` (a local of the effect kept in the env), else None."""
    if (type(node) is ast.Subscript and type(node.value) is ast.Name and node.value.id == "env"
            and type(node.slice) is ast.Constant and type(node.slice.value) is str):
        return node.slice.value
    return None


def is_me_read(node: Any) -> bool:
    """Whether `node` is `env.get('me', st.active)`: the acting player, read from env."""
    return (type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "get"
            and is_name(node.func.value, "env") and len(node.args) == 2 and not node.keywords
            and type(node.args[0]) is ast.Constant and node.args[0].value == "me"
            and type(node.args[1]) is ast.Attribute and node.args[1].attr == "active"
            and is_name(node.args[1].value, "st"))


def as_names(node: Any, names: Mapping[str, str | ast.expr]) -> Any:
    """`node` (an expression, a statement or a list of statements) with each `env['KEY']`
    of a KEY in `names` (read or written) as the Python name `names[KEY]`, and each read
    of the acting player (`env.get('me', st.active)`) as `names['me']` when given. A
    function that has its locals as arguments needs no dictionary of them. A value may
    also be code (an expression node) where the local is only read: `st.active` for `me`."""
    def swap(n: Any) -> Any:
        key = env_key(n)
        if key is not None and key in names:
            value = names[key]
            return placed(ast.Name(value, n.ctx)) if isinstance(value, str) else placed(value)
        if "me" in names and is_me_read(n):
            value = names["me"]
            return placed(ast.Name(value, ast.Load())) if isinstance(value, str) else placed(value)
        return None
    if isinstance(node, list):
        return transform_all(node, swap)
    return transform(node, swap)


def uses_env(*nodes: Any) -> bool:
    """Whether the trees use the dictionary `env`."""
    return "env" in names_in(*nodes)


def env_free(node: Any, names: Mapping[str, str | ast.expr]) -> Any:
    """`as_names(node, names)`, or None when it still uses `env` (a local not named, the
    whole env)."""
    out = as_names(node, names)
    return None if uses_env(out) else out


def key(node: Any) -> str:
    """A text that is equal for equal trees (a dictionary key: the same call hoisted once)."""
    if isinstance(node, list):
        return "\n".join(ast.dump(n) for n in node)
    return ast.dump(node)


def unparse(node: Any) -> str:
    """Source text of a tree: only to show it (`describe --code`), never to compile."""
    if isinstance(node, list):
        return "\n".join(ast.unparse(ast.fix_missing_locations(n)) for n in node)
    return ast.unparse(ast.fix_missing_locations(node))


__all__ = [
    "HOLE",
    "E",
    "S",
    "Stmts",
    "TemplateError",
    "as_names",
    "constant",
    "env_free",
    "env_key",
    "int_value",
    "is_me_read",
    "is_name",
    "key",
    "lit",
    "name",
    "names_in",
    "placed",
    "seq",
    "transform",
    "transform_all",
    "unparse",
    "uses_env",
    "walk",
    "with_ctx",
]
