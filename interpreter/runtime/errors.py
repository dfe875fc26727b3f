"""Python errors met while running rules, turned into rule errors for the rule's author.

Evaluating rules can meet a bad index, a none, a division by zero: they are the rule
author's to fix, so they are worded and placed (file:line:col of the effect text, as
fields of the error), never shown as a traceback.
"""

from __future__ import annotations

from interpreter.diagnostics import RuleRuntimeError

RULE_SLIPS = (RuleRuntimeError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError)


class HorizonReached(Exception):
    """A turn numbered `State.stop_turn` was about to begin: raised out of the run for a
    search's rollout to value the game there. The state it leaves is for reading only
    (scores, counters): it stopped between two operations of a turn's start."""


def rule_error(where: object, err: Exception) -> RuleRuntimeError:
    """`err` (one of RULE_SLIPS) as a rule error seen from `where`: a rule-file place
    (a `Where`) or a phrase such as "end condition 'x'"."""
    inner = err if isinstance(err, RuleRuntimeError) else RuleRuntimeError(plain_error(err))
    return inner.within(where)


def plain_error(err: Exception) -> str:
    """A Python error met while running rules, in words for the rule's author."""
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, IndexError):
        return "index out of range"
    if isinstance(err, KeyError):
        return f"no entry {err}"
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return ("a value is none here (the top card of an empty zone, a choice with no options, "
                f"the min or max of an empty list?) ({err})")
    return f"{type(err).__name__}: {err}"
