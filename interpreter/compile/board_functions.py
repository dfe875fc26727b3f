"""Boards: rectangular grids of cells, and the built-in functions that walk them.

A game declares `boards: {grid: {width: 7, height: 6}}`; its cells are the numbers
0..width*height-1, row by row from the top-left (cell = y * width + x), so the game
keeps what is on a cell where it keeps anything else (a counter of that size, a zone
per cell, a card attribute). The built-ins answer the geometry every grid game
rewrites by hand: neighbours, a step in a direction, a ray to the edge, every straight
line of n cells (three in a row, four in a row). The board's name is their first
argument (`neighbors(grid, c)`); the tables are computed once per board, at load.

Directions are compass words: `n` (up), `ne`, `e`, `se`, `s`, `sw`, `w`, `nw`. A board's
`adjacency` is `orthogonal` (the default: n, e, s, w) or `all` (the eight), and says
what `neighbors` and `directions` give; `step` and `ray` take any of the eight.
"""

from __future__ import annotations

import ast as py
from typing import Any

import attrs

from interpreter.compile.builtin_registry import builtin
from interpreter.compile.expressions import Context, Gen, gen_expect
from interpreter.compile.pyast import E
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError

DIRECTIONS = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
              "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}
ORTHOGONAL = ("n", "e", "s", "w")
MAX_BOARD_CELLS = 10_000  # cells of one board: its tables are built at load


@attrs.frozen
class Board:
    """One board's geometry, with its tables (built once)."""

    name: str
    width: int
    height: int
    diagonal: bool  # adjacency `all`
    steps: dict[str, tuple[int | None, ...]] = attrs.field(init=False, eq=False, repr=False)

    @steps.default
    def _steps(self) -> dict[str, tuple[int | None, ...]]:
        table = {}
        for word, (dx, dy) in DIRECTIONS.items():
            row: list[int | None] = []
            for c in range(self.width * self.height):
                x, y = c % self.width + dx, c // self.width + dy
                row.append(y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else None)
            table[word] = tuple(row)
        return table

    @property
    def size(self) -> int:
        return self.width * self.height

    def directions(self) -> list[str]:
        return list(DIRECTIONS) if self.diagonal else list(ORTHOGONAL)

    def check(self, cell: Any) -> int:
        if type(cell) is not int or not 0 <= cell < self.size:
            raise RuleRuntimeError(f"{cell!r} is not a cell of board '{self.name}' (cells 0..{self.size - 1})")
        return cell

    def direction(self, word: Any) -> tuple[int | None, ...]:
        steps = self.steps.get(word) if isinstance(word, str) else None
        if steps is None:
            raise RuleRuntimeError(f"{word!r} is not a direction: use one of {', '.join(DIRECTIONS)}")
        return steps

    # ---- what the built-ins call -------------------------------------------------------------

    def cells(self) -> list[int]:
        return list(range(self.size))

    def cell(self, x: Any, y: Any) -> int | None:
        if type(x) is not int or type(y) is not int:
            raise RuleRuntimeError(f"cell({self.name}, x, y) needs whole numbers, got {x!r}, {y!r}")
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else None

    def column(self, c: Any) -> int:
        return self.check(c) % self.width

    def row(self, c: Any) -> int:
        return self.check(c) // self.width

    def neighbors(self, c: Any) -> list[int]:
        c = self.check(c)
        found = (self.steps[d][c] for d in self.directions())
        return [n for n in found if n is not None]

    def step(self, c: Any, word: Any) -> int | None:
        return self.direction(word)[self.check(c)]

    def ray(self, c: Any, word: Any) -> list[int]:
        steps, out = self.direction(word), []
        at = steps[self.check(c)]
        while at is not None:
            out.append(at)
            at = steps[at]
        return out

    def lines(self, n: Any) -> list[list[int]]:
        """Every straight run of n cells: rows, columns, then both diagonals."""
        if type(n) is not int or n < 1:
            raise RuleRuntimeError(f"lines({self.name}, n) needs a length of at least 1, got {n!r}")
        out = []
        for word in ("e", "s", "se", "sw"):
            steps = self.steps[word]
            for start in range(self.size):
                run, at = [start], start
                while len(run) < n:
                    nxt = steps[at]
                    if nxt is None:
                        break
                    run.append(nxt)
                    at = nxt
                if len(run) == n and (n > 1 or word == "e"):
                    out.append(run)
        return out


def board_arg(node: ast.Call, ctx: Context) -> py.expr:
    """The code naming the board given as `node`'s first argument."""
    arg = node.args[0]
    boards = ctx.symbols.boards
    if not isinstance(arg, ast.Name) or arg.name not in boards or arg.name in ctx.locals:
        shown = arg.name if isinstance(arg, ast.Name) else "its first argument"
        raise CompileError(arg, "type", f"{node.name}() needs a board's name first, not {shown}",
                           hint_for(shown, boards) or ("declare one under boards:" if not boards else
                                                       f"boards: {', '.join(boards)}"))
    return ctx.const(boards[arg.name], "board")  # (a generated name: the board's own is rule text)


def _method(name: str, args: tuple[str, ...], type_: str) -> None:
    """Register `name(B, ...)` as a call of Board.name with the other arguments."""
    def compile_(node: ast.Call, ctx: Context) -> Gen:
        board = board_arg(node, ctx)
        rest = [gen_expect(a, ctx, want) for a, want in zip(node.args[1:], args, strict=False)]
        return E("{board}.{method}({rest})", board=board, method=name, rest=rest), type_
    builtin(name)(compile_)


_method("cells", (), "list:int")
_method("cell", ("int", "int"), "any")  # none off the board
_method("column", ("int",), "int")
_method("row", ("int",), "int")
_method("neighbors", ("int",), "list:int")
_method("step", ("int", "str"), "any")  # none off the board
_method("ray", ("int", "str"), "list:int")
_method("lines", ("int",), "list:list:int")
_method("directions", (), "list:str")


def build_boards(specs: dict[str, Any], error: Any) -> dict[str, Board]:
    """The boards of a game; a bad size is a diagnostic at its key."""
    boards = {}
    for name, spec in specs.items():
        if not isinstance(spec, dict):
            continue  # a schema error
        width, height = spec.get("width"), spec.get("height")
        if type(width) is not int or type(height) is not int or width < 1 or height < 1:
            error(("boards", name), "bad-value", f"board '{name}' needs a whole width and height of at least 1",
                  "e.g. grid: {width: 3, height: 3}")
            continue
        if width * height > MAX_BOARD_CELLS:
            error(("boards", name), "limit", f"board '{name}' has {width * height} cells; at most "
                  f"{MAX_BOARD_CELLS} are allowed")
            continue
        boards[name] = Board(name, width, height, spec.get("adjacency", "orthogonal") == "all")
    return boards
