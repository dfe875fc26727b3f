"""Safe YAML reading for rule files: plain data plus where every piece of it was written.

Rule files come from modders, so this module is a trust boundary. It never lets PyYAML
construct objects: it reads the parser's *events* (libyaml's C parser when available)
and builds only dict/list/str/int/float/bool/None itself. Working from events rather
than from `yaml.compose` nodes lets one iterative pass do everything that must be
bounded or checked: nesting depth (no RecursionError), the number of nodes produced
counting every alias expansion (no billion laughs), tags, key types, duplicate keys,
merge keys and recursive aliases.

Scalars resolve narrowly, like YAML 1.2's core schema minus its surprises: only
`true`/`false` are booleans, `null`/`~`/empty are None, decimal integers are ints,
`1.5`-style decimals are floats (integers of magnitude past `limits.MAX_INT_LITERAL` and
floats past the largest double are reported), and everything else (`no`, `on`, `1_000`, `0o7`,
`.inf`, dates) stays a string. Quoted scalars are always strings.

Every problem becomes a `Diagnostic`; all of them are raised together in one
`RuleFileError`. Alongside the data comes a `PositionMap` from key paths such as
`("cards", "jack", "effects", "play")` to lines and columns, so later stages (schema,
effect-text parser) can point at the exact place, even inside a multi-line effect text.
"""

from __future__ import annotations

import itertools
import math
import pathlib
import re
from collections.abc import Callable
from typing import Any, NoReturn

import attrs
import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from interpreter.diagnostics import Diagnostic, RuleFileError
from interpreter.limits import MAX_INT_LITERAL
from interpreter.rules.positions import MAX_DEPTH, PositionMap

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 200_000  # total nodes produced, counting every alias expansion


# libyaml's C parser is ~20x faster than the pure-Python one; both emit the same events.
_LOADER: Callable[[str], Any] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_CORE = "tag:yaml.org,2002:"
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
}
_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)?")
_NUMBER_START = frozenset("0123456789+-")

# YAML's line breaks (1.1 ones included: libyaml counts NEL, LS and PS as breaks too).
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
# Characters YAML refuses; found up front so the parser never has to report them.
_NOT_PRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Anchors, tags and comments that may sit between a node's start and a scalar's text.
_PROPERTIES = re.compile(r"(?:&[\w-]*|![^\s,\[\]{}]*|[ \t\r\n\x85\u2028\u2029]+|#[^\r\n\x85\u2028\u2029]*)*")
_BLOCK_HEADER = re.compile(r"[|>]([1-9]?)[+-]?([1-9]?)")
_SPACE = " \t\r\n\x85\u2028\u2029"
_MAX_SHOWN = 20  # bad characters listed before giving up on a file

# Internally, paths may also hold _Hidden markers.
_Path = tuple[Any, ...]
# (line, column, style): cheaper to store than Located, which is made on demand.
_Pos = tuple[int, int, str | None]


class _Hidden:
    """A path element no caller can write: marks data that is not part of the result
    (a mapping key that is itself a collection, a dropped duplicate, a `<<` value)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_KEY = _Hidden("key")
_DROP = _Hidden("dropped")
_MERGE = _Hidden("merge")


# -- reading ------------------------------------------------------------------------


def load_yaml(path: str | pathlib.Path, display_path: str | None = None) -> tuple[Any, PositionMap]:
    """Read one file safely. Raise RuleFileError listing every problem found."""
    shown = display_path if display_path is not None else str(path)
    data = _read_bytes(pathlib.Path(path), shown)
    return load_yaml_text(_decode(data, shown), shown)


def load_yaml_text(text: str, path: str) -> tuple[Any, PositionMap]:
    """Same as load_yaml, from a string; `path` is used in diagnostics."""
    text = text.removeprefix("\ufeff")  # a byte-order mark is not content
    positions = PositionMap(path, text)
    problems = _check_text(text, positions)
    if problems:
        raise RuleFileError(problems)
    data, problems = _Builder(text, positions).run()
    if problems:
        raise RuleFileError(problems)
    return data, positions


def _file_problem(path: str, code: str, message: str) -> RuleFileError:
    """An error about the file as a whole, located at its start."""
    return RuleFileError([Diagnostic(path, 1, 1, code, message)])


def _read_bytes(path: pathlib.Path, shown: str) -> bytes:
    """The file's bytes, reading at most one byte past the limit (never a huge file)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise _file_problem(shown, "file-not-found", "file not found") from None
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        message = f"cannot read the file: {reason}"
        raise _file_problem(shown, "file-unreadable", message) from None
    if len(data) > MAX_FILE_BYTES:
        raise _too_large_file(shown)
    return data


def _too_large_file(shown: str) -> RuleFileError:
    return _file_problem(
        shown,
        "yaml-too-large",
        f"file is larger than {MAX_FILE_BYTES} bytes, the limit for a rule file",
    )


def _decode(data: bytes, shown: str) -> str:
    """UTF-8 text, or a yaml-encoding diagnostic at the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        hint = "save the file as UTF-8" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else None
        message = f"file is not UTF-8 text (byte 0x{data[exc.start]:02x} cannot be decoded)"
        raise RuleFileError([Diagnostic(shown, line, column, "yaml-encoding", message, hint=hint)]) from None


def _check_text(text: str, positions: PositionMap) -> list[Diagnostic]:
    """Size and character checks that must pass before the parser sees the text."""
    if len(text) > MAX_FILE_BYTES:  # cheap first: characters never outnumber bytes
        return list(_too_large_file(positions.path).diagnostics)
    problems = []
    for match in itertools.islice(_NOT_PRINTABLE.finditer(text), _MAX_SHOWN):
        line, column = positions._position(match.start())
        message = f"character U+{ord(match.group()):04X} is not allowed in a YAML file"
        problems.append(
            Diagnostic(
                positions.path,
                line,
                column,
                "yaml-encoding",
                message,
                source_line=positions.source_line(line),
            )
        )
    if not problems and len(text.encode("utf-8")) > MAX_FILE_BYTES:
        return list(_too_large_file(positions.path).diagnostics)
    return problems


# -- building -------------------------------------------------------------------------


class _Stop(Exception):
    """A problem after which the rest of the file cannot be read meaningfully."""


@attrs.define
class _Anchor:
    """A completed anchored node: what an alias to it produces."""

    value: Any
    nodes: int  # nodes in it, counted again at every alias
    height: int  # nesting levels it adds (0 for a scalar)
    path: _Path  # where its positions are recorded


@attrs.define(slots=True)
class _Frame:
    """An open map or list."""

    value: Any
    path: _Path
    is_map: bool
    pos: _Pos
    nodes_before: int
    anchor: str | None
    height: int = 1
    child: _Path | None = None  # map: path of the value to come; None while a key is due
    key: Any = None  # map: the key the value goes under, or a _Hidden marker
    seen: dict[str, _Pos] = attrs.Factory(dict)  # map: first position of each key
    merges: list[tuple[Any, _Path, _Pos]] = attrs.Factory(list)  # map: `<<` values


class _Builder:
    """Turns one parser event stream into plain data, positions and diagnostics."""

    def __init__(self, text: str, positions: PositionMap) -> None:
        self._text = text
        self._positions = positions
        self._problems: list[Diagnostic] = []
        self._stack: list[_Frame] = []
        self._anchors: dict[str, _Anchor | _Frame] = {}
        self._nodes = 0
        self._documents = 0
        self._root: Any = None
        self._serial = itertools.count()

    def run(self) -> tuple[Any, list[Diagnostic]]:
        try:
            self._consume()
        except _Stop:
            pass
        return self._root, self._problems

    # -- event loop --------------------------------------------------------------------

    def _consume(self) -> None:
        try:
            loader = _LOADER(self._text)
        except Exception as exc:  # any PyYAML failure is the file's problem, not a crash
            self._stop_with(_parser_diagnostic(exc, self._positions))
        try:
            self._events(loader)
        finally:
            loader.dispose()

    def _events(self, loader: Any) -> None:
        get_event = loader.get_event
        while True:
            try:
                event = get_event()
            except Exception as exc:  # any PyYAML failure is the file's problem, not a crash
                self._stop_with(_parser_diagnostic(exc, self._positions))
            kind = type(event)
            if kind is ScalarEvent:
                self._scalar(event)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                self._open(event, kind is MappingStartEvent)
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                self._close()
            elif kind is AliasEvent:
                self._alias(event)
            elif kind is DocumentStartEvent:
                self._document(event)
            elif kind is StreamEndEvent or event is None:
                return

    def _document(self, event: Event) -> None:
        self._documents += 1
        if self._documents > 1:
            self._report(
                event,
                "yaml-multiple-documents",
                "a rule file holds one YAML document, but a second one starts here",
                hint="remove the '---' line, or move the rest to another file and include it",
            )
            raise _Stop

    # -- nodes ---------------------------------------------------------------------------

    def _scalar(self, event: ScalarEvent) -> None:
        self._count(1, event)
        pos = self._scalar_pos(event)
        value = self._resolve(event, pos)
        top = self._stack[-1] if self._stack else None
        if top is not None and top.is_map and top.child is None:
            merge = event.value == "<<" and pos[2] is None and event.tag is None
            self._take_key(top, value, pos, merge, event.value)
            if event.anchor is None:
                return  # keys are located by _take_key; only an anchored key needs more
            path: _Path = (*top.path, _KEY, next(self._serial))
        else:
            path = self._child_path(top)
            self._deliver(top, value, 0, pos)
        self._positions._values[path] = pos
        if type(value) is str:
            self._positions._strings[path] = (value, _end_index(event))
        if event.anchor is not None:
            self._anchors[event.anchor] = _Anchor(value, 1, 0, path)

    def _open(self, event: NodeEvent, is_map: bool) -> None:
        if len(self._stack) >= MAX_DEPTH:
            self._report(
                event,
                "yaml-too-deep",
                f"maps and lists are nested more than {MAX_DEPTH} levels deep",
            )
            raise _Stop
        self._count(1, event)
        self._check_collection_tag(event, is_map)
        top = self._stack[-1] if self._stack else None
        if top is not None and top.is_map and top.child is None:
            path = (*top.path, _KEY, next(self._serial))
        else:
            path = self._child_path(top)
        pos = _start(event)
        self._positions._values[path] = pos
        frame = _Frame({} if is_map else [], path, is_map, pos, self._nodes - 1, event.anchor)
        if event.anchor is not None:
            self._anchors[event.anchor] = frame  # open: an alias to it now is recursive
        self._stack.append(frame)

    def _close(self) -> None:
        frame = self._stack.pop()
        if frame.merges:
            self._merge(frame)
        if frame.anchor is not None and self._anchors.get(frame.anchor) is frame:
            # Only if no later anchor of the same name took over (the latest one wins).
            self._anchors[frame.anchor] = _Anchor(
                frame.value, self._nodes - frame.nodes_before, frame.height, frame.path
            )
        self._place(frame.value, frame.height, frame.pos)

    def _alias(self, event: AliasEvent) -> None:
        pos = _start(event)
        anchor = self._anchors.get(event.anchor or "")
        if not isinstance(anchor, _Anchor):
            problem = "undefined" if anchor is None else "recursive (it is used inside its own anchor)"
            self._report(event, "yaml-alias", f"alias '*{event.anchor}' is {problem}")
            self._place(None, 0, pos)
            return
        self._count(anchor.nodes, event)
        if len(self._stack) + anchor.height > MAX_DEPTH:
            self._report(
                event,
                "yaml-too-deep",
                f"this alias nests maps and lists more than {MAX_DEPTH} levels deep",
            )
            raise _Stop
        top = self._stack[-1] if self._stack else None
        if not (top is not None and top.is_map and top.child is None):
            self._positions._redirects[self._child_path(top)] = anchor.path
        # A copy, so that later stages may change one use without changing the others.
        self._place(_copy(anchor.value), anchor.height, pos)

    # -- placing values --------------------------------------------------------------------

    def _child_path(self, top: _Frame | None) -> _Path:
        if top is None:
            return ()
        if top.is_map:
            return top.child or ()
        return (*top.path, len(top.value))

    def _place(self, value: Any, height: int, pos: _Pos) -> None:
        """Put a finished node where it belongs: a key, a value, an item or the root."""
        top = self._stack[-1] if self._stack else None
        if top is not None and top.is_map and top.child is None:
            self._take_key(top, value, pos, merge=False)
        else:
            self._deliver(top, value, height, pos)

    def _deliver(self, top: _Frame | None, value: Any, height: int, pos: _Pos) -> None:
        if top is None:
            self._root = value
            return
        if height >= top.height:
            top.height = height + 1
        if not top.is_map:
            top.value.append(value)
            return
        if top.key is _MERGE:
            assert top.child is not None
            top.merges.append((value, top.child, pos))
        elif top.key is not _DROP:
            top.value[top.key] = value
        top.child = None

    def _take_key(self, top: _Frame, key: Any, pos: _Pos, merge: bool, written: str | None = None) -> None:
        """Accept the key of the next map entry; `written` is a scalar key's source text."""
        if self._key_problem(top, key, pos, written):
            top.key, top.child = _DROP, (*top.path, _DROP, next(self._serial))
            return
        top.seen[key] = pos
        if merge:  # the value is set aside and merged when the map ends
            top.key, top.child = _MERGE, (*top.path, _MERGE, next(self._serial))
            return
        top.key, top.child = key, (*top.path, key)
        self._positions._keys[top.child] = pos

    def _key_problem(self, top: _Frame, key: Any, pos: _Pos, written: str | None) -> bool:
        """Report a key that is not a string, or repeats one; True if it was bad."""
        if type(key) is not str:
            what = _describe(key)
            hint = f'write it in quotes: "{written}"' if written else None
            self._report_at(pos, "yaml-key", f"mapping keys must be strings, not {what}", hint=hint)
            return True
        first = top.seen.get(key)
        if first is not None:
            self._report_at(
                pos,
                "duplicate-key",
                f"duplicate key '{key}' (first defined at line {first[0]})",
            )
            return True
        return False

    def _merge(self, frame: _Frame) -> None:
        """Apply `<<` merge keys: keys written in the map win, then earlier sources."""
        for value, path, pos in frame.merges:
            sources: list[tuple[dict[str, Any], _Path]]
            if isinstance(value, dict):
                sources = [(value, path)]
            elif isinstance(value, list) and all(isinstance(item, dict) for item in value):
                sources = [(item, (*path, index)) for index, item in enumerate(value)]
            else:
                self._report_at(
                    pos,
                    "yaml-merge",
                    "the value of '<<' must be a map or a list of maps",
                )
                continue
            for source, source_path in sources:
                for key, item in source.items():
                    if key not in frame.value:
                        frame.value[key] = item
                        self._positions._redirects[(*frame.path, key)] = (*source_path, key)

    # -- scalars -----------------------------------------------------------------------------

    def _scalar_pos(self, event: ScalarEvent) -> _Pos:
        """Where the scalar's text starts: after any anchor or tag, so text positions line up."""
        style, mark = event.style or None, event.start_mark  # libyaml says '' for plain
        if mark is None:
            return (1, 1, style)
        if event.anchor is None and event.tag is None:
            return (mark.line + 1, mark.column + 1, style)
        found = _PROPERTIES.match(self._text, mark.index, _end_index(event))
        return (*self._positions._position(found.end() if found else mark.index), style)

    def _resolve(self, event: ScalarEvent, pos: _Pos) -> Any:
        """The scalar's value; `pos` is where its text is (the tag is at the event's start)."""
        tag, text, style = event.tag, event.value, pos[2]
        if tag is None:
            return self._plain(text, pos) if style is None else text
        if tag == "!" or tag == _CORE + "str":  # `!` is YAML's "just a string"
            return text
        kind = tag[len(_CORE) :] if tag.startswith(_CORE) else None
        if kind in ("int", "float", "bool", "null"):
            return self._tagged(text, kind, pos)
        self._report(event, "yaml-tag", f"tag '{_show_tag(tag)}' is not allowed", hint=_TAG_HINT)
        return self._plain(text, pos) if style is None else text

    def _plain(self, text: str, pos: _Pos) -> Any:
        """Resolve a plain scalar: the narrow core schema described in the module docstring."""
        if text in _NULLS:
            return None
        flag = _BOOLS.get(text)
        if flag is not None:
            return flag
        if text[0] in _NUMBER_START:
            if _INT.fullmatch(text):
                return self._number(int, text, pos)
            if _FLOAT.fullmatch(text):
                return self._number(float, text, pos)
        return text

    def _number(self, kind: type[int | float], text: str, pos: _Pos) -> Any:
        number: int | float | None
        try:
            number = kind(text)  # int() refuses over 4300 digits (Python's DoS guard)
        except ValueError:
            number = None
        if kind is int and (number is None or abs(number) > MAX_INT_LITERAL):
            self._report_at(pos, "yaml-number", f"integer '{_abridged(text)}' is too large",
                            hint=f"integers are at most {MAX_INT_LITERAL} (2**63 - 1) either side of zero")
            return text
        if number is None or not math.isfinite(number):
            self._report_at(pos, "yaml-number", f"number '{_abridged(text)}' is too large")
            return text
        return number

    def _tagged(self, text: str, kind: str, pos: _Pos) -> Any:
        """A scalar with an explicit core tag (`!!int 3`): must be written as that type."""
        if kind == "null" and text in _NULLS:
            return None
        if kind == "bool" and text in _BOOLS:
            return _BOOLS[text]
        if kind == "int" and _INT.fullmatch(text):
            return self._number(int, text, pos)
        if kind == "float" and (_INT.fullmatch(text) or _FLOAT.fullmatch(text)):
            return self._number(float, text, pos)
        self._report_at(pos, "yaml-tag", f"'{text}' is not a valid !!{kind}")
        return text

    def _check_collection_tag(self, event: NodeEvent, is_map: bool) -> None:
        tag = getattr(event, "tag", None)
        if tag is None or tag == "!" or tag == _CORE + ("map" if is_map else "seq"):
            return
        self._report(event, "yaml-tag", f"tag '{_show_tag(tag)}' is not allowed", hint=_TAG_HINT)

    # -- bookkeeping --------------------------------------------------------------------------

    def _count(self, nodes: int, event: Event) -> None:
        self._nodes += nodes
        if self._nodes > MAX_NODES:
            self._report(
                event,
                "yaml-too-large",
                f"too many nodes after expanding aliases (the limit is {MAX_NODES})",
            )
            raise _Stop

    def _report(self, event: Event, code: str, message: str, hint: str | None = None) -> None:
        self._report_at(_start(event), code, message, hint)

    def _report_at(self, pos: _Pos, code: str, message: str, hint: str | None = None) -> None:
        line, column, _ = pos
        self._problems.append(
            Diagnostic(
                self._positions.path,
                line,
                column,
                code,
                message,
                hint=hint,
                source_line=self._positions.source_line(line),
            )
        )

    def _stop_with(self, diagnostic: Diagnostic) -> NoReturn:
        self._problems.append(diagnostic)
        raise _Stop


_TAG_HINT = "remove the tag: rule files hold plain data (text, numbers, true/false, lists, maps)"


def _start(event: Event) -> _Pos:
    """Where an event starts, 1-based (PyYAML's marks are 0-based)."""
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1, None) if mark is not None else (1, 1, None)


def _end_index(event: Event) -> int:
    mark = event.end_mark
    return mark.index if mark is not None else 0


def _copy(value: Any) -> Any:
    """Deep copy of plain data (depth is bounded by MAX_DEPTH, so recursion is safe)."""
    if type(value) is dict:
        return {key: _copy(item) for key, item in value.items()}
    if type(value) is list:
        return [_copy(item) for item in value]
    return value


def _abridged(text: str) -> str:
    """A long number as people can read it in a message: its start, its length."""
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def _describe(value: Any) -> str:
    if value is None:
        return "an empty key"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    kind = {bool: "boolean", int: "integer", float: "number"}.get(type(value), "value")
    return f"{kind} {value!r}"


def _show_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


def _parser_diagnostic(exc: Exception, positions: PositionMap) -> Diagnostic:
    """A PyYAML error as a yaml-syntax diagnostic at the problem's place."""
    mark, message = None, f"cannot read the YAML ({exc.__class__.__name__}: {exc})"
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or exc.context or "invalid YAML"
        if exc.problem:
            message += _context(exc)
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    text = positions.source_line(line)
    if "nesting depth" in message:
        # PyYAML 6.0.4's own cap (1000 levels) can trip before our event loop sees the
        # nesting; it is the same finding as ours.
        return Diagnostic(positions.path, line, column, "yaml-too-deep",
                          f"maps and lists are nested more than {MAX_DEPTH} levels deep", source_line=text)
    tab = "tab character" in message or text[column - 1 : column] == "\t"
    return Diagnostic(
        positions.path,
        line,
        column,
        "yaml-syntax",
        message,
        hint="indent with spaces: YAML does not allow tabs there" if tab else None,
        source_line=text,
    )


def _context(exc: yaml.MarkedYAMLError) -> str:
    """PyYAML's "while parsing X at ..." when it points elsewhere than the problem."""
    context, problem = exc.context_mark, exc.problem_mark
    if not exc.context or context is None:
        return ""
    same = problem is not None and (context.line, context.column) == (problem.line, problem.column)
    if same:
        return ""
    return f" ({exc.context} at line {context.line + 1}, column {context.column + 1})"
