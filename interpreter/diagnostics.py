"""Diagnostics: the one error vocabulary of every stage.

A rule file's mistakes are reported as `PATH:LINE:COL: error[CODE]: MESSAGE`,
all of them, not just the first. Stages collect `Diagnostic`s and raise one
`RuleFileError` carrying the lot; the CLI prints them (or their JSON form) and exits 1.
Errors met while a game runs (an illegal action, a rule error inside an effect) are
`GameError`s: a message for people, never a traceback.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable
from typing import Any

import attrs


@attrs.frozen
class Diagnostic:
    """One finding about one place in a rule file (1-based line and column)."""

    path: str
    line: int
    column: int
    code: str
    message: str
    severity: str = "error"
    hint: str | None = None
    # The source line the finding is in, for a caret excerpt (effect text mostly).
    source_line: str | None = None
    width: int = 1

    def format(self) -> str:
        text = f"{self.path}:{self.line}:{self.column}: {self.severity}[{self.code}]: {_visible(self.message)}"
        if self.source_line is not None:
            shown, start, width = _excerpt(self.source_line.rstrip("\n"), max(self.column - 1, 0), max(self.width, 1))
            text += f"\n    {_visible(shown)}\n    {' ' * start}{'^' * width}"
        if self.hint:
            text += f"\n    hint: {_visible(self.hint)}"
        return _visible(text[:len(self.path)]) + text[len(self.path):]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
        if self.hint:
            data["hint"] = self.hint
        return data


EXCERPT = 100  # characters of a long source line shown around the place it points at


def _excerpt(line: str, start: int, width: int) -> tuple[str, int, int]:
    """The part of a source line to show, and where the caret starts in it and how
    wide it is: the whole line when short, else EXCERPT characters around the place,
    cut ends marked `...` (a line of thousands of characters is no help on a screen)."""
    if len(line) <= EXCERPT + 20:
        return line, start, width
    low = max(0, min(start - EXCERPT // 2, len(line) - EXCERPT))
    high = low + EXCERPT
    before = "..." if low else ""
    after = "..." if high < len(line) else ""
    return before + line[low:high] + after, len(before) + start - low, max(1, min(width, high - start))


class OrreryError(Exception):
    """Base of the errors orrery reports to people (never shown as a traceback)."""


class RuleFileError(OrreryError):
    """Rule files that cannot be loaded; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics, key=lambda d: (d.path, d.line, d.column, d.code))
        super().__init__("\n".join(d.format() for d in self.diagnostics))

    def __reduce__(self) -> tuple[Any, ...]:  # a worker process's error reaches its parent whole
        return (RuleFileError, (self.diagnostics,))


class GameError(OrreryError):
    """A problem while a game runs: illegal action, corrupt save, rule error in an effect."""


class IllegalActionError(GameError):
    """The action is not legal in this state."""


class RuleRuntimeError(GameError):
    """An effect broke a rule of the engine (overdraft, step budget, trigger chain...).

    The parts are fields, so a front-end formats them and never parses the text:
    `message` (what went wrong), `code` (a stable word for the kind of error), `path`,
    `line`, `column` and `what` (the rule-file place of the effect text, when known),
    and `context` (outer places, outermost first, e.g. "end condition 'x'").
    `str()` gives them in one line: `PATH:LINE:COL (WHAT): CONTEXT: MESSAGE`.
    """

    def __init__(self, message: str, *, code: str = "rule-error", path: str | None = None, line: int = 0,
                 column: int = 0, what: str | None = None, context: tuple[str, ...] = ()):
        self.message = message
        self.code = code
        self.path = path
        self.line = line
        self.column = column
        self.what = what
        self.context = context
        super().__init__(self.text())

    def __reduce__(self) -> tuple[Any, ...]:  # a worker process's error reaches its parent whole
        return (functools.partial(type(self), code=self.code, path=self.path, line=self.line, column=self.column,
                                  what=self.what, context=self.context), (self.message,))

    @property
    def located(self) -> bool:
        return self.path is not None

    def text(self) -> str:
        parts = []
        if self.path is not None:
            parts.append(f"{self.path}:{self.line}:{self.column}" + (f" ({self.what})" if self.what else ""))
        parts += self.context
        parts.append(self.message)
        return ": ".join(parts)

    def __str__(self) -> str:
        return self.text()

    def within(self, where: object) -> RuleRuntimeError:
        """The same error seen from an outer place: a rule-file place (anything with
        path, line, column and what) locates it if it is not located yet, and leaves
        it as it is if it is (the innermost place is the rule that failed: a procedure
        run directly inside its caller's statement, compile/direct.py); any other
        place (a phrase) is added to its context."""
        path = getattr(where, "path", None)
        if path is not None:
            if self.located:
                return self
            return RuleRuntimeError(self.message, code=self.code, path=str(path), line=int(getattr(where, "line", 0)),
                                    column=int(getattr(where, "column", 0)), what=getattr(where, "what", None),
                                    context=self.context)
        return RuleRuntimeError(self.message, code=self.code, path=self.path, line=self.line, column=self.column,
                                what=self.what, context=(str(where), *self.context))

    def to_diagnostic(self, fallback_path: str, prefix: str = "") -> Diagnostic:
        """The error as a diagnostic at its rule-file place (or line 1 of `fallback_path`)."""
        message = prefix + ": ".join([*self.context, self.message]) + (f" (in {self.what})" if self.what else "")
        if self.path is None:
            return Diagnostic(fallback_path, 1, 1, "runtime-error", message)
        return Diagnostic(self.path, self.line, self.column, "runtime-error", message)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt name, or None when nothing is close."""
    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def hint_for(name: str, candidates: Iterable[str]) -> str | None:
    """A 'did you mean' hint sentence, or None."""
    guess = did_you_mean(name, candidates)
    return f"did you mean '{guess}'?" if guess else None


# Characters a rule file may hold that a terminal would act on rather than show: control
# characters (an escape sequence could rewrite the user's screen; a carriage return
# hides what came before it) and the bidirectional overrides that make text read
# otherwise than it is. Shown as escapes; line breaks and tabs stay.
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _visible(text: str) -> str:
    return _HIDDEN.sub(lambda m: repr(m.group())[1:-1], text)
