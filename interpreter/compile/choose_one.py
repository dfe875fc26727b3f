"""The operations of `choose`: of `choose one`, which options are open, what they read,
and where the one picked goes on; of `choose X from L` (`up to N`), the value picked.

An option's label is a template like every other label (`"take {n} points"`): it is
filled in when the choice is made, and the filled-in text is the option (what a player
types and the log keeps). Labels without `{` are the text as written, looked up with
no rendering at all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from interpreter.diagnostics import RuleRuntimeError
from interpreter.model import Expr
from interpreter.runtime.actions import DONE
from interpreter.runtime.decisions import suspend_for_choice, unique_choices
from interpreter.runtime.records import Frame


def choose_one_op(labels: list[str], templates: Sequence[Expr | None], conditions: Sequence[Expr | None],
                  targets: list[int], end: int, by: Callable[[Any, dict[str, Any]], int], prompt: Expr,
                  answer: str) -> Callable[[Any, Frame], bool]:
    """The operation: jump to the option answered, or to the only open one, or past the
    block when none is open; else wait for the chooser."""
    filled = any(t is not None for t in templates)

    def texts_of(st: Any, env: dict[str, Any], which: list[int]) -> list[str]:
        texts = []
        for i in which:
            template = templates[i]
            texts.append(labels[i] if template is None else str(template(st, env)))
        if len(set(texts)) != len(texts):
            twice = sorted(t for t in texts if texts.count(t) > 1)[0]
            raise RuleRuntimeError(f"two options of one choice read the same now: {twice!r}", code="duplicate-option")
        return texts

    def choose_one(st: Any, fr: Frame) -> bool:
        env = fr.env
        if answer in env:
            picked = env.pop(answer)
            if not filled:
                fr.pc = targets[labels.index(picked)]
                return False
            which = [i for i, cond in enumerate(conditions) if cond is None or cond(st, env)]
            fr.pc = targets[which[texts_of(st, env, which).index(picked)]]
            return False
        which = [i for i, cond in enumerate(conditions) if cond is None or cond(st, env)]
        if not which:
            fr.pc = end
            return False
        if len(which) == 1:
            fr.pc = targets[which[0]]
            return False
        options = [labels[i] for i in which] if not filled else texts_of(st, env, which)
        return suspend_for_choice(st, fr, by(st, env), options, "str", prompt(st, env), answer, False)

    return choose_one


def choose_op(options: Expr, elem: str, var: str, by: Expr, prompt: Expr, answer: str) -> Callable[[Any, Frame], bool]:
    """`choose VAR from OPTIONS`: the one option there is is taken without asking, none
    is none."""
    def choose(st: Any, fr: Frame) -> bool:
        env = fr.env
        if answer in env:
            env[var] = env.pop(answer)
            return False
        choices, texts = unique_choices(st, options(st, env), elem)
        if not choices:
            env[var] = None
            return False
        if len(choices) == 1:
            env[var] = choices[0]
            return False
        return suspend_for_choice(st, fr, by(st, env), choices, elem, prompt(st, env), answer, False, texts)
    return choose


def choose_up_to_op(options: Expr, elem: str, var: str, by: Expr, prompt: Expr, answer: str,
                    limit: Expr) -> Callable[[Any, Frame], bool]:
    """`choose VAR from OPTIONS up to N`: one at a time until the chooser is done, N are
    picked or none is left."""
    def choose_up_to(st: Any, fr: Frame) -> bool:
        env = fr.env
        picked = env.get(var) if answer + "started" in env else None
        if picked is None:
            picked = []
            env[answer + "started"] = True
        if answer in env:
            value = env.pop(answer)
            if value is DONE or value == DONE:
                env[var] = picked
                del env[answer + "started"]
                return False
            picked = picked + [value]  # a new list: lists in locals are never changed in place
        env[var] = picked
        left, texts = unique_choices(st, [c for c in options(st, env) if c not in picked], elem)
        if len(picked) >= limit(st, env) or not left:
            del env[answer + "started"]
            return False
        return suspend_for_choice(st, fr, by(st, env), left, elem, prompt(st, env), answer, True, texts)
    return choose_up_to
