"""Parse effect text (grammar/effect.lark) into the typed AST of ast.py.

The Lark LALR parser is built once per process (no cache file: Lark's cache is a
pickle, unsafe in a shared temp folder). Syntax errors are turned into plain words with
the position inside the effect text; Lark's internal terminal names never reach people.
"""

from __future__ import annotations

import difflib
import functools
import re
from fractions import Fraction
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from interpreter.lang import ast
from interpreter.limits import MAX_DECIMALS, MAX_INT_LITERAL, MAX_NESTING
from interpreter.numbers import exact
from interpreter.resources import data_path


class EffectSyntaxError(Exception):
    """A syntax error at (line, column) of one effect text; `code` is the diagnostic's."""

    def __init__(self, line: int, column: int, message: str, width: int = 1, hint: str | None = None,
                 code: str = "syntax"):
        super().__init__(message)
        self.line = line
        self.column = column
        self.message = message
        self.width = width
        self.hint = hint
        self.code = code


class _EffectIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]  # noqa: RUF012 - Lark's Indenter API
    CLOSE_PAREN_types = ["RPAR", "RSQB"]  # noqa: RUF012
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.cache
def _parser() -> Lark:
    grammar = (data_path("grammar") / "effect.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        start=["program", "expression"],
        postlex=_EffectIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
    )


# Plain words for the terminals Lark may say it expected.
_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a "string"',
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the text",
    "COMPARE": "a comparison",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "DOT": "'.'",
    "EQUAL": "'='",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "SLASH": "'/'",
    "PERCENT": "'%'",
}


def _word(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except (KeyError, AttributeError):
        pass
    return terminal.lower().strip("_")


def _expected(expected: set[str]) -> str:
    words = sorted({_word(t) for t in expected})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _describe_token(token: Token) -> str:
    if token.type == "_NL":
        return "end of line"
    if token.type == "_INDENT":
        return "indentation"
    if token.type == "_DEDENT":
        return "end of block"
    if token.type == "$END":
        return "end of text"
    return f"'{token}'"


def _syntax_error(err: UnexpectedInput, text: str) -> EffectSyntaxError:
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        char = text[pos] if pos < len(text) else "?"
        hint = "strings use double quotes" if char == "'" else None
        return EffectSyntaxError(err.line, err.column, f"unexpected character '{char}'", hint=hint)
    if isinstance(err, UnexpectedEOF):
        lines = text.rstrip("\n").split("\n")
        return EffectSyntaxError(
            len(lines), len(lines[-1]) + 1, f"the text ends too early; expected {_expected(set(err.expected))}"
        )
    if isinstance(err, UnexpectedToken):
        token = err.token
        line = token.line if token.line is not None else 1
        column = token.column if token.column is not None else 1
        if token.type == "_INDENT":
            # Lark places the indent token at the previous line's end; point at the
            # indented line itself.
            lines = text.split("\n")
            line = min(line + 1, len(lines))
            column = len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 1
        elif token.type in ("_NL", "$END"):
            # Point just after the last word of the line, where something is missing. An
            # end-of-line token starts on the line it ends (at its newline or comment).
            lines = text.rstrip("\n").split("\n")
            prev = token.line if token.line and token.type == "_NL" else len(lines)
            prev = max(1, min(prev, len(lines)))
            upto = lines[prev - 1]
            if token.type == "_NL" and token.column and token.line == prev:
                upto = upto[: token.column - 1]
            line, column = prev, len(upto.rstrip()) + 1
        expected = _expected(set(err.expected))
        hint = None
        special = _misplaced(token, text)
        if special is not None:
            return special
        if token.type == "_INDENT":
            hint = "indent only the lines of a block (after a ':')"
        elif "COLON" in err.expected and token.type == "_NL":
            hint = "a block starts with ':' at the end of the line"
        width = max(1, len(str(token))) if token.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1
        return EffectSyntaxError(
            line, column, f"unexpected {_describe_token(token)}; expected {expected}", width=width, hint=hint
        )
    return EffectSyntaxError(1, 1, str(err))


# A word that starts like a number (a digit, or a point then a digit) and runs on with
# letters, digits, `_` or points: `1e5`, `0x10`, `.5`, `1.`, `1_000`, `1.2.3`.
_NUMBERISH = re.compile(r"(?<![A-Za-z0-9_.])\.?[0-9](?:[eE][+-]|[A-Za-z0-9_.])*")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?\Z")
NUMBERS_SUPPORTED = ("numbers are digits, whole (12) or with a decimal point between digits (0.25, kept "
                     "exact); write every digit (100000, not 1e5), and a fraction by dividing (1 / 3)")


_QUOTED_OR_COMMENT = re.compile(r'"([^"\\\n]|\\.)*"|#[^\n]*')


def _check_numbers(text: str) -> None:
    """Refuse a number written in a way the language does not read (an exponent, a hex
    or underscored number, a point with no digits on one side) where it is, saying what
    is supported: Lark would read `1e5` as `1` then a name, and fail further on, if at
    all. Strings and comments are left out."""
    if not any(c.isdigit() for c in text):
        return
    blank = _QUOTED_OR_COMMENT.sub(lambda m: " " * len(m.group()), text)
    for match in _NUMBERISH.finditer(blank):
        word = match.group()
        if not _NUMBER.match(word):
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            raise EffectSyntaxError(line, column, f"'{word}' is not a number the rules can read",
                                    width=len(word), code="unsupported", hint=NUMBERS_SUPPORTED)


_FIRST_WORD = re.compile(r"^([ \t]*)([A-Za-z_][A-Za-z0-9_]*)([ \t]*)")


def _misplaced(token: Token, text: str) -> EffectSyntaxError | None:
    """Two common mistakes Lark words badly: a block line not indented under its ':'
    (Lark says it expected an end of line) and an unknown statement word (Lark says it
    expected '(' after what it takes for a procedure name)."""
    if token.type in ("_NL", "_INDENT", "_DEDENT", "$END") or not token.line or not token.column:
        return None
    lines = text.split("\n")
    here = lines[token.line - 1]
    indent = len(here) - len(here.lstrip())
    if token.column == indent + 1:
        before = [ln for ln in lines[: token.line - 1] if ln.strip() and not ln.strip().startswith("#")]
        if before and before[-1].rstrip().endswith(":") and indent <= len(before[-1]) - len(before[-1].lstrip()):
            return EffectSyntaxError(token.line, token.column, "expected an indented block after the ':' above",
                                     width=max(1, len(str(token))),
                                     hint="indent the lines of a block further than the line ending in ':'")
        return None
    match = _FIRST_WORD.match(here)
    if match and match.end() == token.column - 1 and match.group(3) and match.group(2) not in _keywords():
        word = match.group(2)
        guess = difflib.get_close_matches(word, _STATEMENT_WORDS, n=1, cutoff=0.6)
        if str(token) == "=":
            guess = [f"let {word} = ...' (a new local) or 'set {word} to ..."]
        hint = f"did you mean '{guess[0]}'?" if guess else (
            "a statement starts with a verb (" + ", ".join(_STATEMENT_WORDS[:8]) + ", ...) "
            "or calls a procedure: name(args)")
        return EffectSyntaxError(token.line, match.start(2) + 1, f"unknown statement '{word}'",
                                 width=len(word), hint=hint)
    return None


_STATEMENT_WORDS = ["let", "set", "gain", "lose", "pay", "move", "draw", "shuffle", "create", "destroy", "reveal",
                    "show", "choose", "take", "use", "emit", "grant", "end", "log", "stop", "if", "for", "repeat",
                    "while", "turn", "round"]


@functools.cache
def _keywords() -> frozenset[str]:
    words = set()
    for terminal in _parser().terminals:
        if terminal.pattern.type == "str" and terminal.pattern.value.isalpha():
            words.add(terminal.pattern.value)
    return frozenset(words)


def _dedent_error(text: str) -> EffectSyntaxError:
    """Where a line dedents to a column no enclosing block starts at (Lark's DedentError
    carries no position, so the indentation is walked again here)."""
    levels = [0]
    depth = 0  # open brackets: lines inside them are one logical line
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith("#") and depth == 0:
            indent = len(line) - len(stripped)
            if indent > levels[-1]:
                levels.append(indent)
            else:
                while indent < levels[-1]:
                    levels.pop()
                if indent != levels[-1]:
                    return EffectSyntaxError(number, indent + 1, "this line's indentation matches no enclosing block",
                                             hint="line it up with the other lines of the block it belongs to")
        depth = max(0, depth + sum(line.count(c) for c in "([") - sum(line.count(c) for c in ")]"))
    return EffectSyntaxError(1, 1, "the indentation does not match any enclosing block")


def _prepare(text: str) -> str:
    # Block scalars end with a newline; one-line texts may not. The indenter needs one,
    # and tabs in indentation would silently mis-nest blocks, so they count as 4 spaces.
    return text.expandtabs(4).rstrip() + "\n"


def common_indent(text: str) -> int:
    """Spaces every non-blank line of the text starts with (a YAML `|2` block keeps
    them): the text is parsed without them, and columns are shifted back by this much."""
    lines = [ln for ln in text.expandtabs(4).split("\n") if ln.strip()]
    return min((len(ln) - len(ln.lstrip(" ")) for ln in lines), default=0)


@functools.lru_cache(maxsize=4096)
def parse_program(text: str) -> tuple[ast.Node, ...]:
    """Parse a block of statements. Node columns are relative to the text without its
    common indentation (see common_indent); error columns are of the text as given.
    Cached: the builder reads each text more than once (fields, checks, compiling),
    and the tree is immutable."""
    _check_brackets(text)
    _check_numbers(text.expandtabs(4))
    shift = common_indent(text)
    prepared = _prepare(text)
    if shift:
        prepared = "\n".join(ln[shift:] for ln in prepared.split("\n"))
    try:
        tree = _parser().parse(prepared, start="program")
    except UnexpectedInput as err:
        raise _shifted(_syntax_error(err, prepared), shift) from None
    except DedentError:
        raise _shifted(_dedent_error(prepared), shift) from None
    try:
        result = _transform(tree)
    except EffectSyntaxError as err:
        raise _shifted(err, shift) from None
    return tuple(result)


def _shifted(err: EffectSyntaxError, shift: int) -> EffectSyntaxError:
    err.column += shift
    return err


@functools.lru_cache(maxsize=8192)
def parse_expression(text: str) -> ast.Node:
    """Parse one expression (conditions, amounts, parameter choices)."""
    _check_brackets(text)
    _check_numbers(text)
    prepared = _prepare(text)
    if "\n" in prepared.rstrip("\n"):
        prepared = " ".join(prepared.split()) + "\n"  # a folded expression is still one line
    try:
        tree = _parser().parse(prepared, start="expression")
    except UnexpectedInput as err:
        raise _syntax_error(err, prepared) from None
    result: ast.Node = _transform(tree)
    return result


def _loop_names(meta: Any, names: list[Token]) -> tuple[str, tuple[str, ...]]:
    """The loop variable and the unpacked names of `for a` / `for a, b`; the same
    name twice is refused. An unpacking loop's variable is "a,b": no rule can name it."""
    seen: set[str] = set()
    for token in names:
        if str(token) in seen:
            raise EffectSyntaxError(token.line or 1, token.column or 1, f"'{token}' is named twice in one loop",
                                    width=len(token), hint="give each unpacked item its own name")
        seen.add(str(token))
    if len(names) == 1:
        return str(names[0]), ()
    return ",".join(map(str, names)), tuple(map(str, names))


def _transform(tree: Tree[Token]) -> Any:
    """The AST of a parse tree. A transformer method may refuse what the grammar let
    through (a number too large); Lark wraps that in a VisitError, unwrapped here."""
    _check_nesting(tree)
    try:
        return _ToAst().transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, EffectSyntaxError):
            raise err.orig_exc from None
        raise


def _check_brackets(text: str) -> None:
    """Refuse text whose brackets nest past MAX_NESTING before it is parsed: the tree
    would be refused anyway (`_check_nesting`), and parsing thousands of levels first
    costs seconds. One pass; brackets inside a "string" do not count."""
    depth = line = 1
    column = 0
    in_string = escaped = False
    for char in text:
        column += 1
        if char == "\n":
            line, column = line + 1, 0
        elif in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise EffectSyntaxError(line, column, f"this text nests more than {MAX_NESTING} levels deep",
                                        code="too-deep", hint="split it: a `let` for a part, or a procedure or "
                                                              "function for a long chain")
        elif char in ")]}":
            depth -= 1


def _check_nesting(tree: Tree[Token]) -> None:
    """Refuse a tree nested past MAX_NESTING levels (Lark's transformer, the compiler and
    compiled code recurse per level), pointing at the first place past the limit."""
    todo: list[tuple[Any, int]] = [(tree, 0)]
    while todo:
        node, depth = todo.pop()
        if not isinstance(node, Tree):
            continue
        if depth > MAX_NESTING:
            meta = node.meta
            line, column = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise EffectSyntaxError(line, column, f"this text nests more than {MAX_NESTING} levels deep",
                                    code="too-deep", hint="split it: a `let` for a part, or a procedure or "
                                                          "function for a long chain")
        todo.extend((child, depth + 1) for child in node.children)


def _number(token: Token) -> int | Fraction:
    """A number literal's value: whole (an int) or decimal (an exact Fraction, an int
    when whole: `2.0` is 2). A whole part past MAX_INT_LITERAL, or more decimals than
    MAX_DECIMALS, is a diagnostic; digits are never converted before they are counted
    (Python refuses over 4300 digits, slowly)."""
    whole, _, decimals = str(token).partition(".")
    digits = whole.lstrip("0") or "0"
    decimals = decimals.rstrip("0")
    if len(digits) > len(str(MAX_INT_LITERAL)) or int(digits) > MAX_INT_LITERAL:
        shown = digits if len(digits) <= 30 else f"{digits[:20]}... ({len(digits)} digits)"
        raise EffectSyntaxError(token.line or 1, token.column or 1, f"the number {shown} is too large",
                                width=len(str(token)), code="number-too-large",
                                hint=f"numbers in effect text are at most {MAX_INT_LITERAL} (2**63 - 1)")
    if not decimals:
        return int(digits)
    if len(decimals) > MAX_DECIMALS:
        raise EffectSyntaxError(token.line or 1, token.column or 1,
                                f"the number {token} has more than {MAX_DECIMALS} decimals",
                                width=len(str(token)), code="number-too-large",
                                hint="write a fraction exactly by dividing: 1/3, not 0.333...")
    return exact(Fraction(int(digits + decimals), 10 ** len(decimals)))


def _unquote(token: Token | str) -> str:
    raw = str(token)[1:-1]
    return raw.replace('\\"', '"').replace("\\n", "\n").replace("\\\\", "\\")


def _pos(meta: Any) -> tuple[int, int]:
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


@v_args(meta=True)
class _ToAst(Transformer[Token, Any]):
    """One method per grammar construct, each returning an ast node."""

    # -- structure
    def program(self, meta: Any, children: list[Any]) -> list[ast.Node]:
        return [c for c in children if isinstance(c, ast.Node)]

    def expression(self, meta: Any, children: list[Any]) -> ast.Node:
        return next(c for c in children if isinstance(c, ast.Node))

    def suite(self, meta: Any, children: list[Any]) -> tuple[ast.Node, ...]:
        return tuple(c for c in children if isinstance(c, ast.Node))

    def args(self, meta: Any, children: list[Any]) -> tuple[ast.Node, ...]:
        return tuple(children)

    def by(self, meta: Any, children: list[Any]) -> ast.Node:
        return children[0]  # type: ignore[no-any-return]

    by_for = by

    def prompt(self, meta: Any, children: list[Any]) -> str:
        return _unquote(children[0])

    def place(self, meta: Any, children: list[Any]) -> str:
        return str(children[0])

    duration = place

    # -- statements
    def let(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Let(*_pos(meta), str(c[0]), c[1])

    def set(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Set(*_pos(meta), c[0], c[1])

    def gain(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Change(*_pos(meta), "gain", c[0], c[1])

    def lose(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Change(*_pos(meta), "lose", c[0], c[1])

    def pay(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Change(*_pos(meta), "pay", c[0], c[1])

    def move(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Move(*_pos(meta), c[0], c[1], c[2] or "top")

    def draw(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Draw(*_pos(meta), c[0], c[1], c[2])

    def shuffle(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.ZoneStmt(*_pos(meta), "shuffle", c[0])

    def create(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Create(*_pos(meta), c[0], _unquote(c[1]), c[2])

    def destroy(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.CardsStmt(*_pos(meta), "destroy", c[0])

    def reveal(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.CardsStmt(*_pos(meta), "reveal", c[0])

    def reveal_to(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.RevealTo(*_pos(meta), c[0], c[1])

    def show(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Show(*_pos(meta), _unquote(c[0]), c[1])

    def choose(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Choose(*_pos(meta), str(c[0]), c[1], c[2], c[3], None)

    def choose_up_to(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Choose(*_pos(meta), str(c[1]), c[2], c[3], c[4], c[0])

    def choose_one(self, meta: Any, c: list[Any]) -> ast.Node:
        options = tuple(o for o in c[2:] if isinstance(o, ast.Option))
        return ast.ChooseOne(*_pos(meta), c[0], c[1], options)

    def option(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Option(*_pos(meta), _unquote(c[0]), c[1], c[2])

    def take_actions(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.TakeActions(*_pos(meta), str(c[0]), c[1])

    def take_actions_simultaneously(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.TakeActions(*_pos(meta), str(c[0]), c[1], simultaneous=True)

    def call(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.CallStmt(*_pos(meta), str(c[0]), c[1] or ())

    def use(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Use(*_pos(meta), c[0], _unquote(c[1]))

    def emit(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Emit(*_pos(meta), str(c[0]), c[1] or ())

    def grant(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Grant(*_pos(meta), str(c[0]), c[1], c[2])

    def end_game(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.EndGame(*_pos(meta), c[0])

    def end_turn(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.EndTurn(*_pos(meta))

    def log(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Log(*_pos(meta), _unquote(c[0]))

    def stop(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Stop(*_pos(meta))

    def if_stmt(self, meta: Any, c: list[Any]) -> ast.Node:
        branches = [(c[0], c[1])]
        orelse: tuple[ast.Node, ...] = ()
        for part in c[2:]:
            if isinstance(part, tuple) and len(part) == 2 and part[0] == "elif":
                branches.append(part[1])
            elif isinstance(part, tuple) and len(part) == 2 and part[0] == "else":
                orelse = part[1]
        return ast.If(*_pos(meta), tuple(branches), orelse)

    def elif_clause(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("elif", (c[0], c[1]))

    def else_clause(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("else", c[0])

    def for_each(self, meta: Any, c: list[Any]) -> ast.Node:
        var, unpack = _loop_names(meta, c[0])
        return ast.ForEach(*_pos(meta), var, c[1], c[2], unpack)

    def names(self, meta: Any, c: list[Any]) -> list[Token]:
        return list(c)

    def comp_for(self, meta: Any, c: list[Any]) -> tuple[Any, ...]:
        return (meta, c[0], c[1], c[2])

    def repeat(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Repeat(*_pos(meta), c[0], c[1])

    def repeat_forever(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Repeat(*_pos(meta), None, c[0])

    def while_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.While(*_pos(meta), c[0], c[1])

    def turn(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Turn(*_pos(meta), c[0], c[1])

    def round_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Round(*_pos(meta), c[0])

    # -- expressions
    def or_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "or", c[0], c[1])

    def and_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "and", c[0], c[1])

    def not_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Unary(*_pos(meta), "not", c[0])

    def compare(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), str(c[1]), c[0], c[2])

    def in_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "in", c[0], c[1])

    def not_in(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "not in", c[0], c[1])

    def add(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "+", c[0], c[1])

    def sub(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "-", c[0], c[1])

    def mul(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "*", c[0], c[1])

    def div(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "/", c[0], c[1])

    def floordiv(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "//", c[0], c[1])

    def mod(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Binary(*_pos(meta), "%", c[0], c[1])

    def neg(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Unary(*_pos(meta), "-", c[0])

    def attr(self, meta: Any, c: list[Any]) -> ast.Node:
        # Positioned at the field's name: that is what an error about it points at.
        field = c[1]
        line, column = (field.line, field.column) if getattr(field, "line", None) else _pos(meta)
        return ast.Attr(line, column, c[0], str(field))

    def index(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Index(*_pos(meta), c[0], c[1])

    def call_expr(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Call(*_pos(meta), str(c[0]), c[1] or ())

    def number(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Literal(*_pos(meta), _number(c[0]))

    def string(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Literal(*_pos(meta), _unquote(c[0]))

    def true(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Literal(*_pos(meta), True)

    def false(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Literal(*_pos(meta), False)

    def none(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Literal(*_pos(meta), None)

    def name(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.Name(*_pos(meta), str(c[0]))

    def list_(self, meta: Any, c: list[Any]) -> ast.Node:
        return ast.ListExpr(*_pos(meta), tuple(c[0] or ()))

    def comprehension(self, meta: Any, c: list[Any]) -> ast.Node:
        comp_meta, names, source, condition = c[1]
        var, unpack = _loop_names(comp_meta, names)
        return ast.Comprehension(*_pos(meta), c[0], var, source, condition, unpack)

    def call_comprehension(self, meta: Any, c: list[Any]) -> ast.Node:
        """`count(c for c in L if C)`: a call whose one argument is the list
        `[c for c in L if C]` (reads like Python's generator argument)."""
        comp_meta, names, source, condition = c[2]
        var, unpack = _loop_names(comp_meta, names)
        element = ast.Comprehension(*_pos(meta), c[1], var, source, condition, unpack)
        return ast.Call(*_pos(meta), str(c[0]), (element,))

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:
        return Tree(data, children, meta)
