"""Where every piece of a rule file's data was written: the PositionMap of a YAML file.

The YAML loader (yamlload.py) records, for each node, its line, column and scalar
style; this module keeps them by path (e.g. ("cards", "jack", "effects", "play")) and
finds positions inside string scalars too, so an error in effect text points at its own
line and column through quoting, escapes and block scalars.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

import attrs

# A path into the data as callers write it: str keys and int list indexes.
KeyPath = tuple[str | int, ...]
# Internally, paths may also hold markers no caller can write (see yamlload._Hidden).
_Path = tuple[Any, ...]
# (line, column, style): cheaper to store than Located, which is made on demand.
_Pos = tuple[int, int, str | None]

_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_BLOCK_HEADER = re.compile(r"[|>]([1-9]?)[+-]?([1-9]?)")
_SPACE = " \t\r\n\x85\u2028\u2029"
MAX_DEPTH = 100  # nested maps/lists; far beyond any real rule file


@attrs.frozen
class Located:
    """Where a node sits in its file."""

    line: int  # 1-based
    column: int  # 1-based
    style: str | None  # scalars: None (plain), "'", '"', "|", ">"; None for maps/lists


FILE_START = Located(1, 1, None)


class PositionMap:
    """Maps a JSON-pointer-like path tuple, e.g. ("cards", "jack", "effects", "play") or
    ("end", 0, "when"), to positions.

    Nodes brought in by an alias or a merge key are located where their content is
    written (at the anchor), so that text positions inside them stay exact.
    """

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self._text = text
        self._values: dict[_Path, _Pos] = {}
        self._keys: dict[_Path, _Pos] = {}
        # String scalars: (value, index just past the scalar), for text_position.
        self._strings: dict[_Path, tuple[str, int]] = {}
        # Alias and merge sites: path -> path of the content they copy.
        self._redirects: dict[_Path, _Path] = {}
        self._starts: list[int] | None = None
        self._lines: list[str] | None = None

    # -- lookups -------------------------------------------------------------------

    def value(self, keypath: KeyPath) -> Located | None:
        """Where the value at keypath starts."""
        pos = self._lookup(self._values, tuple(keypath))
        return Located(*pos) if pos else None

    def key(self, keypath: KeyPath) -> Located | None:
        """Where the mapping key of keypath's last element is (None for list items)."""
        pos = self._lookup(self._keys, tuple(keypath))
        return Located(*pos) if pos else None

    def nearest(self, keypath: KeyPath) -> Located:
        """The value, else the key, else the closest located ancestor; file start at worst."""
        keypath = tuple(keypath)
        for size in range(len(keypath), -1, -1):
            found = self.value(keypath[:size]) or self.key(keypath[:size])
            if found:
                return found
        return FILE_START

    def source_line(self, line: int) -> str:
        """The file's text of that 1-based line ('' if out of range)."""
        if self._lines is None:
            self._lines = _BREAK.split(self._text)
        return self._lines[line - 1] if 1 <= line <= len(self._lines) else ""

    def text_position(self, keypath: KeyPath, line: int, column: int) -> tuple[int, int]:
        """Map a 1-based (line, column) inside the string scalar at keypath to the file's.

        Literal blocks map line for line; plain, quoted and folded scalars are aligned
        character by character with their source (so escapes and folded line breaks
        are followed). Best effort: never raises.
        """
        try:
            return self._text_position(tuple(keypath), max(line, 1), max(column, 1))
        except (IndexError, ValueError, TypeError):
            # This runs while another error is being reported: a guess beats a crash.
            found = self.nearest(keypath)
            return found.line, found.column

    # -- internals -------------------------------------------------------------------

    def _lookup(self, table: dict[_Path, Any], keypath: _Path) -> Any:
        """The entry at keypath, following alias/merge sites to where the content is."""
        # Redirects only point backwards in the file, so this always ends; the bound is
        # a guard, not a limit real files meet.
        for _ in range(MAX_DEPTH * 4):
            found = table.get(keypath)
            if found is not None:
                return found
            for size in range(len(keypath), 0, -1):
                target = self._redirects.get(keypath[:size])
                if target is not None:
                    keypath = target + keypath[size:]
                    break
            else:
                return None
        return None

    def _line_starts(self) -> list[int]:
        if self._starts is None:
            self._starts = [0] + [m.end() for m in _BREAK.finditer(self._text)]
        return self._starts

    def _index(self, line: int, column: int) -> int:
        """Character index of a 1-based (line, column)."""
        return self._line_starts()[line - 1] + column - 1

    def _position(self, index: int) -> tuple[int, int]:
        """1-based (line, column) of a character index."""
        starts = self._line_starts()
        line = bisect.bisect_right(starts, index)
        return line, index - starts[line - 1] + 1

    def _text_position(self, keypath: KeyPath, line: int, column: int) -> tuple[int, int]:
        pos = self._lookup(self._values, keypath)
        if pos is None:
            found = self.nearest(keypath)
            return found.line, found.column
        start_line, start_column, style = pos
        if style == "|":
            return start_line + line, self._block_indent(keypath, pos) + column
        string = self._lookup(self._strings, keypath)
        if string is None:  # not a string: the best we know is where the value is
            return start_line, start_column
        value, end = string
        start = self._index(start_line, start_column)
        if style in ("'", '"'):
            start += 1
        elif style == ">":  # the text starts on the next line, after the indentation
            first = self.source_line(start_line + 1)
            start = self._index(start_line + 1, 1) + min(self._block_indent(keypath, pos), len(first))
        offset = _offset_in(value, line, column)
        index, beyond = _align(self._text, start, end, value, offset, style)
        found_line, found_column = self._position(index)
        return found_line, found_column + beyond

    def _block_indent(self, keypath: KeyPath, pos: _Pos) -> int:
        """Indentation of a block scalar's text, from its header and the source lines."""
        line, column, _ = pos
        header = _BLOCK_HEADER.match(self.source_line(line), column - 1)
        explicit = header and (header.group(1) or header.group(2))
        if explicit:
            return self._parent_indent(keypath, line) + int(explicit)
        # Otherwise the first line with text sets it; leading blank lines do not count.
        string = self._lookup(self._strings, keypath)
        last = self._position(string[1])[0] if string else len(self._line_starts())
        for number in range(line + 1, last + 1):
            text = self.source_line(number)
            if text.strip(" "):
                return len(text) - len(text.lstrip(" "))
        return self._parent_indent(keypath, line) + 2

    def _parent_indent(self, keypath: KeyPath, line: int) -> int:
        """The indentation an explicit indentation indicator is relative to."""
        key = self.key(keypath) if keypath and isinstance(keypath[-1], str) else None
        if key is not None:
            return key.column - 1
        text = self.source_line(line)
        return len(text) - len(text.lstrip(" "))


def _offset_in(value: str, line: int, column: int) -> int:
    """Character offset of a 1-based (line, column) in a string's own lines."""
    offset = 0
    lines = value.split("\n")
    for text in lines[: line - 1]:
        offset += len(text) + 1
    if line > len(lines):
        return len(value) + column - 1
    return offset + column - 1


def _align(text: str, j: int, end: int, value: str, target: int, style: str | None) -> tuple[int, int]:
    """Walk the source from index j and the value from 0 together until `target` value
    characters are matched; return the source index and how many characters were left
    over (past the end). Folded line breaks match any run of whitespace; unmatched
    source characters (indentation, escapes, doubled quotes) are skipped."""
    i = 0
    end = min(end, len(text))
    stop = min(target, len(value))
    while i < stop and j < end:
        char, source = value[i], text[j]
        if style == '"' and source == "\\":
            i, j = _skip_escape(text, j, end, i)
        elif style == "'" and source == "'" and text[j + 1 : j + 2] == "'":
            i, j = i + 1, j + 2  # '' is one quote
        elif source == char:
            i, j = i + 1, j + 1
        elif char in _SPACE and source in _SPACE:
            while j < end and text[j] in _SPACE:
                j += 1
            while i < stop and value[i] in _SPACE:
                i += 1
        else:
            j += 1
    if i < len(value):  # land on the character itself, not on the folding before it
        while j < end and text[j] != value[i] and text[j] in _SPACE:
            j += 1
    return j, target - i


def _skip_escape(text: str, j: int, end: int, i: int) -> tuple[int, int]:
    """Step over one backslash escape of a double-quoted scalar."""
    following = text[j + 1] if j + 1 < end else ""
    if following in "\r\n\x85\u2028\u2029":  # escaped line break: no value character
        j += 2
        while j < end and text[j] in " \t":
            j += 1
        return i, j
    width = {"x": 4, "u": 6, "U": 10}.get(following, 2)
    return i + 1, j + width
