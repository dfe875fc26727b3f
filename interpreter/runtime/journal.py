"""An append-only list of texts whose copies share what was already written.

A state's history (the actions applied) and its log (the lines the rules wrote) only
ever grow at the end, and a game may run to thousands of them. A plain list would make
every `clone()` copy all of them, so a search that clones states deep into a long game
would pay for the game's past on every copy. A Journal keeps its items in frozen chunks
of CHUNK texts, linked newest first and shared by every copy, plus a list of the latest
texts that is its own: a copy costs fewer than CHUNK references, whatever the length,
and appending never touches a shared chunk.

The JSON text of each frozen chunk is computed at most once and kept with the chunk
(so shared by the copies too): a save writes what the state holds, plus the history's
text copied as it is, instead of encoding thousands of strings again on every save.

For readers it is a sequence of str: len, iteration, indexing, slicing (which gives a
list), `in`, and equality with another Journal, a list or a tuple of the same texts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, overload

CHUNK = 32  # texts per frozen chunk: the most a copy duplicates


class _Chunk:
    """CHUNK frozen texts, the chunk before them, and their JSON text once asked for."""

    __slots__ = ("items", "json", "prev")

    def __init__(self, items: tuple[str, ...], prev: _Chunk | None):
        self.items, self.prev = items, prev
        self.json: str | None = None  # the items as JSON without brackets, filled on first save


class Journal:
    """See the module docstring. Items are texts; every frozen chunk holds CHUNK of them.

    `append` is the tail list's own (C) append, so writing costs what a list does; full
    chunks are frozen off the tail when the journal is copied or saved."""

    __slots__ = ("_chunks", "_frozen", "_tail", "append")

    append: Callable[[str], None]

    def __init__(self, items: Iterable[str] = ()):
        self._chunks: _Chunk | None = None  # the newest frozen chunk
        self._frozen = 0  # how many items the frozen chunks hold
        self._tail: list[str] = list(items)
        self.append = self._tail.append

    # ---- writing ---------------------------------------------------------------------

    def _settle(self) -> None:
        """Freeze the tail's full chunks (in place: `append` stays bound to the tail)."""
        tail = self._tail
        full = len(tail) - len(tail) % CHUNK
        if not full:
            return
        chunk = self._chunks
        for start in range(0, full, CHUNK):
            chunk = _Chunk(tuple(tail[start:start + CHUNK]), chunk)
        self._chunks = chunk
        self._frozen += full
        del tail[:full]

    def copy(self) -> Journal:
        """A copy sharing the frozen chunks: fewer than CHUNK references are copied."""
        if len(self._tail) >= CHUNK:
            self._settle()
        new = Journal.__new__(Journal)
        new._chunks, new._frozen = self._chunks, self._frozen
        new._tail = tail = self._tail[:]
        new.append = tail.append
        return new

    # ---- reading ---------------------------------------------------------------------

    def _chunk_list(self) -> list[_Chunk]:
        """The frozen chunks, oldest first."""
        chunks = []
        chunk = self._chunks
        while chunk is not None:
            chunks.append(chunk)
            chunk = chunk.prev
        chunks.reverse()
        return chunks

    def to_list(self) -> list[str]:
        out: list[str] = []
        for chunk in self._chunk_list():
            out += chunk.items
        out += self._tail
        return out

    def to_json(self) -> str:
        """The JSON text of the list of items, exactly as `json.dumps(list, separators=(",", ":"))`."""
        self._settle()
        parts = []
        for chunk in self._chunk_list():
            if chunk.json is None:
                chunk.json = json.dumps(chunk.items, separators=(",", ":"))[1:-1]
            parts.append(chunk.json)
        if self._tail:
            parts.append(json.dumps(self._tail, separators=(",", ":"))[1:-1])
        return "[" + ",".join(parts) + "]"

    def __len__(self) -> int:
        return self._frozen + len(self._tail)

    def __bool__(self) -> bool:
        return self._frozen > 0 or bool(self._tail)

    def __iter__(self) -> Iterator[str]:
        for chunk in self._chunk_list():
            yield from chunk.items
        yield from self._tail

    def _item(self, index: int) -> str:
        """Item `index` (0 <= index < len): recent ones are reached in a step or two."""
        if index >= self._frozen:
            return self._tail[index - self._frozen]
        chunk = self._chunks
        for _ in range((self._frozen - index - 1) // CHUNK):
            assert chunk is not None
            chunk = chunk.prev
        assert chunk is not None
        return chunk.items[index % CHUNK]

    def _suffix(self, start: int) -> list[str]:
        """Items start.. to the end, walking back only as far as `start`'s chunk."""
        if start >= self._frozen:
            return self._tail[start - self._frozen:]
        chunks = []
        chunk = self._chunks
        reached = self._frozen
        while chunk is not None and reached > start:
            chunks.append(chunk)
            reached -= CHUNK
            chunk = chunk.prev
        out: list[str] = []
        for chunk in reversed(chunks):
            out += chunk.items
        return out[start - reached:] + self._tail

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        size = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(size)
            if step == 1:
                if start >= stop:
                    return []
                return self._suffix(start)[:stop - start]
            return self.to_list()[index]
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError("journal index out of range")
        return self._item(position)

    def __contains__(self, item: object) -> bool:
        return any(item == text for text in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Journal):
            if len(other) != len(self):
                return False
            return (other._chunks is self._chunks and other._tail == self._tail) or other.to_list() == self.to_list()
        if isinstance(other, list | tuple):
            return len(other) == len(self) and self.to_list() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Journal({self.to_list()!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Journal, (self.to_list(),))
