"""The compiler mode's mutator (`--compiler`): hostile text in every place a name or a
text of the rules could reach the Python the engine generates.

The engine compiles rule text (YAML game files and effect text) into Python source that
it execs (`interpreter/compile`). Rule text must never become code: an id, a name or a
text may reach generated source only as a `repr` literal or as a checked, mangled
identifier. A review found an end id with a trailing newline written raw into a
`# end ID` comment; this mutator looks for every such place at once.

A mutant takes one unit of the fuzzer's corpus (a bundled game or an overlay, see
`mutate.corpus`) and puts hostile text into one or two places of one kind (`KINDS`):
ids of ends, cards, counters, zones, actions, values, views, variants, bots, procedures,
functions, card types and modifiers (of a card, of a card type, top-level, added by an
overlay's `add` or `patch`), an overlay's `set: end`, parameter names, the `let` names of
functions and effect text, loop and choice names, labels, names, descriptions, card
texts, log lines, prompts and other strings of effect text, included files' names;
also dunder attributes and generated names inside expressions, and nesting deeper than
the limits, directly and through chains of functions.

The hostile texts (`hostile_text`): line breaks of every kind (`\\n`, `\\r`, `\\r\\n`,
`\\x0b`, `\\x0c`, `\\x85`, `\\u2028`) trailing and embedded, `\\x00`, quotes, backslashes,
`#`, braces; payloads that would run Python at module level, in a function body or after
closing a string literal; text that NFKC-normalises to keywords and dunders (Python
normalises identifiers, so `ſt` is `st`); ids that are valid but are Python keywords or
the generated code's own names; names of 10,000 characters.

Every payload tries to create a marker file. The mutant's text says `MARKER`; the
checker (`check.write_unit`) writes an absolute path of the check's own fresh folder in
its place, so a marker that exists after the check can only come from this mutant: the
rule text ran as code ("CODE RAN"). In file names, where a path cannot go, the payload
keeps the bare word and the checker runs with the check's folder as working directory.

Like the rule-file mutator, mutant N of seed S depends on (S, N) alone.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable
from typing import Any

import attrs

from .mutate import EFFECT_KEYS, TOKEN, Mutant, Unit, _parsed, _show, dump

MARKER = "ORRERY-FUZZ-MARKER"  # replaced by the check's marker path (check.write_unit)

# Python expressions that create the marker when they run, each by another way out of
# the generated code's namespace (which offers a short list of built-ins, no `open`).
PAYLOADS: dict[str, str] = {
    # Any object's class leads to every class loaded, os._wrap_close to os's globals.
    "subclasses": "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0]"
                  f".__init__.__globals__['system']('touch {MARKER}')",
    # A function bound in the namespace (`_k0`) carries its module's real built-ins.
    "k0-globals": "(lambda b: (b if type(b) is dict else b.__dict__)['open']"
                  f"('{MARKER}', 'w'))(_k0.__globals__['__builtins__'])",
    # Any function bound in the namespace, found through a lambda's globals (the namespace).
    "ns-globals": "[f.__globals__['__builtins__']['open']('" + MARKER + "', 'w') for f in (lambda: 0).__globals__"
                  ".values() if type(f).__name__ == 'function' and type(f.__globals__.get('__builtins__')) is dict"
                  " and 'open' in f.__globals__['__builtins__']]",
    # A running generator's frame leads up the stack to the engine's frames.
    "frame": "next(_g := (next(b['open']('" + MARKER + "', 'w') for f in [_g.gi_frame] for _ in range(60)"
             " for f in [f and f.f_back] if f for b in [f.f_globals.get('__builtins__')]"
             " for b in [b if type(b) is dict else {} if b is None else b.__dict__] if 'open' in b) for _ in [0]))",
    # Where real built-ins are in scope (an eval without the namespace's own).
    "import": f"__import__('os').system('touch {MARKER}')",
}
BREAKS = ("\n", "\r", "\r\n")  # what Python's tokenizer takes for the end of a line
OTHER_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")  # str.splitlines's too
# Indents of the line a raw text would land on: generated functions' bodies (4) most.
INDENTS = ("    ",) * 6 + ("",) + ("        ",) * 2 + ("            ", "                ")


def _lines_shape(rng: random.Random, payload: str) -> str:
    """A payload after a line break, so that it runs where the text lands raw on a line
    of generated source (a comment `# end ID`, say): at module level, having ended the
    block with `pass`, with a function and `if 1:` blocks reopened to the depth of the
    lines that followed (they may `return`); or as a statement of the block itself."""
    br, indent = rng.choice(BREAKS), rng.choice(INDENTS)
    reopen = "def _f(*a):" + "".join(f"{br}{'    ' * k}if 1:" for k in range(1, len(indent) // 4))
    first = f"x{br}{indent}pass{br}{payload}{br}{reopen}"  # runs when the source is exec'd
    return first if rng.random() < 0.4 else rng.choice((
        first,
        f"x{br}{payload}{br}{reopen}",  # (where the text ends a line with statements before it)
        f"x{br}{indent}pass{br}{payload}{br}if 1:",
        f"x{br}{indent}{payload}",  # a statement of the block: runs when its function is called
        f"x{br}{indent}{payload}{br}{indent}#",
        f"x{rng.choice(OTHER_BREAKS)}{indent}pass{br}{payload}{br}{reopen}",
        f"x\x00{br}{indent}pass{br}{payload}{br}{reopen}",
    ))


def _quotes_shape(rng: random.Random, payload: str) -> str:
    """A payload closing the string literal (or template) a raw text would land in."""
    return rng.choice((
        f"x' + str({payload}) + '",
        f'x" + str({payload}) + "',
        f"x''' + str({payload}) + '''",
        f'x""" + str({payload}) + """',
        f"x\\' + str({payload}) + '",  # where a quote is escaped but a backslash is not
        f'x\\" + str({payload}) + "',
        f"x', {payload}, '",
        f"x'), {payload}, ('",
        f"{{{payload}}}",  # a template's {expression}
        f"x}}{{{payload}}}{{",
        payload,
    ))


def _wrapped(rng: random.Random, payload: str) -> str:
    """A payload placed to run wherever the text lands raw: on a line, or in a string."""
    return _lines_shape(rng, payload) if rng.random() < 0.6 else _quotes_shape(rng, payload)


PLAIN = (
    "x\n", "x\r", "x\r\n", "x\x0b", "x\x0c", "x\x85", "x\u2028", "x\u2029", "x\x00", "x\x00y", "\n", "\r\n",
    "'", '"', "'''", '"""', "\\", "x\\", "\\'", '\\"', "x\\n", "#", "x#y", "x # y", "{", "}", "{}", "{{x}}",
    "{0}", "%s%d", "${x}", "\t", " ", "", "x ", " x", "-", "--", "x-y",
    # Text that NFKC-normalises to keywords, dunders and the generated code's names.
    "ｆｏｒ", "ｌａｍｂｄａ", "＿＿class＿＿", "＿＿builtins＿＿", "ﬁ", "ﬁle", "ſt", "ſ", "K", "İ", "ı", "𝔢𝔫𝔳",
    "\u202ex", "x\u200by", "\ufeffx", "e\u0301", "x\u0000\u2028\r\n",
    "a" * 10_000, "x\n" * 2_000, "'" * 5_000, "\\" * 5_001, "{" * 3_000,
)
# Valid ids (the schema's `^[a-z][a-z0-9_-]*$`) that are Python keywords or builtins, or
# the names generated code uses: harmless as `repr` literals, fatal as identifiers.
VALID_IDS = (
    "lambda", "import", "class", "def", "return", "yield", "not", "in", "is", "if", "else", "for", "while",
    "and", "or", "none", "true", "false", "pass", "await", "async", "del", "global", "nonlocal", "raise", "try",
    "except", "finally", "with", "assert", "break", "continue", "from", "as", "elif", "match", "case", "type",
    "st", "env", "fr", "me", "p", "hit", "winners", "err", "out", "key", "open", "exec", "eval", "print", "os",
    "system", "globals", "builtins", "a-b", "a--b", "x-k0", "k0", "v1", "t1", "l_x", "board_x", "check_end_turn",
    "rule_slips", "finish", "people_text", "a" * 10_000, "x" + "-x" * 3_000,
)
# Names the effect language's grammar takes (`[a-z_][a-z0-9_]*`, any case; with
# Python's re that includes ſ, K, İ and ı) that mean something to Python.
VALID_NAMES = (
    "__class__", "__builtins__", "__globals__", "__import__", "__name__", "__dict__", "__init__", "_k0", "_v1",
    "_t1", "_l_x", "_at", "_g", "_", "__", "st", "env", "fr", "me", "ſt", "ſ", "_ſt", "K", "İ", "ı", "None",
    "True", "False", "lambda", "import", "def", "class", "yield", "await", "print", "open", "exec", "eval",
    "type", "len", "range", "Exception", "hit", "winners", "out", "key", "a" * 10_000,
)


def hostile_text(rng: random.Random) -> str:
    """Any hostile text: a payload placed to run (most), or plain trouble."""
    if rng.random() < 0.6:
        return _wrapped(rng, PAYLOADS[rng.choice(sorted(PAYLOADS))])
    return rng.choice(PLAIN)


def hostile_id(rng: random.Random, original: str) -> str:
    """A hostile id: with a trailing newline (what the schema's `$` lets through), valid
    but meaningful to Python, a payload after a line break (ids are what a compiler
    writes into comments and names), or any hostile text."""
    roll = rng.random()
    if roll < 0.25:
        return rng.choice((original, rng.choice(VALID_IDS))) + "\n"
    if roll < 0.45:
        return rng.choice(VALID_IDS)
    if roll < 0.8:
        return _lines_shape(rng, PAYLOADS[rng.choice(sorted(PAYLOADS))])
    return hostile_text(rng)


def hostile_name(rng: random.Random) -> str:
    """A hostile name for effect text (let, loop, choice and parameter names)."""
    roll = rng.random()
    if roll < 0.65:
        return rng.choice(VALID_NAMES)
    if roll < 0.75:
        return rng.choice(VALID_NAMES) + "\n"
    return hostile_text(rng)


def effect_string(text: str) -> str:
    """`text` as a string literal of the effect language (`"..."`, with `\\"`, `\\n` and
    `\\\\` escapes; every other character is taken as written)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# ---- the mutant being made ---------------------------------------------------------------------


@attrs.define
class _Work:
    """One unit's files as data, changed in place; `touched` files are written back."""

    rng: random.Random
    unit: Unit
    units: list[Unit]
    data: dict[str, Any] = attrs.Factory(dict)
    touched: set[str] = attrs.Factory(set)
    renamed: dict[str, str] = attrs.Factory(dict)  # old file name -> new (an included file renamed)
    changes: list[str] = attrs.Factory(list)

    def doc(self, file: str) -> Any:
        if file not in self.data:
            self.data[file] = copy.deepcopy(_parsed(self.unit.files[file], file))
        return self.data[file]

    def docs(self) -> list[tuple[str, dict[str, Any]]]:
        return [(f, d) for f in sorted(self.unit.files) if isinstance(d := self.doc(f), dict)]

    def sections(self, name: str) -> list[tuple[str, dict[str, Any]]]:
        """Every file's `name` section that is a non-empty map."""
        return [(f, d[name]) for f, d in self.docs() if isinstance(d.get(name), dict) and d[name]]

    def touch(self, file: str, change: str) -> None:
        self.touched.add(file)
        self.changes.append(change)

    def base_data(self) -> dict[str, Any]:
        """The game the unit's ids must fit (an overlay's base, else the unit itself),
        as bundled, all its files' sections merged (the first file wins)."""
        main = self.doc(self.unit.main)
        base = main.get("base") if self.unit.kind == "overlay" and isinstance(main, dict) else None
        merged: dict[str, Any] = {}
        for unit in self.units:
            if unit.kind != "game":
                continue
            data = _parsed(unit.files[unit.main], unit.main)
            if unit.name != self.unit.name and (base is None or not isinstance(data, dict) or data.get("id") != base):
                continue
            for file in sorted(unit.files):
                data = _parsed(unit.files[file], file)
                for key, value in (data.items() if isinstance(data, dict) else ()):
                    if isinstance(value, dict) and isinstance(merged.get(key), dict):
                        merged[key] = {**value, **merged[key]}
                    else:
                        merged.setdefault(key, value)
        return merged


def _strings(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, Any, tuple[Any, ...]]]:
    """Every (container, key, path) holding a string, in a data tree."""
    found = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        if isinstance(value, str):
            found.append((node, key, (*path, key)))
        else:
            found.extend(_strings(value, (*path, key)))
    return found


def _effects(work: _Work) -> list[tuple[str, Any, Any, tuple[Any, ...]]]:
    """Every effect text, expression or template of the unit: (file, container, key, path)."""
    return [(f, node, key, path) for f, d in work.docs() for node, key, path in _strings(d)
            if EFFECT_KEYS.intersection(str(p) for p in path) and path != ("base",)]  # (an overlay's base game)


def _rename_in_effect(text: str, old: str, new: str) -> str:
    """`old` renamed `new` where it is a name in effect text: identifier tokens (not
    attribute names after a dot) and names inside `{...}` of string templates."""
    out, previous = [], ""
    for token in TOKEN.findall(text):
        if token == old and previous != ".":
            token = new
        elif token.startswith('"'):
            token = re.sub(r"\{[^{}]*\}", lambda m: re.sub(rf"(?<![\w.]){re.escape(old)}(?!\w)",
                                                          lambda _: new, m.group()), token)
        out.append(token)
        if not token.isspace():
            previous = token
    return "".join(out)


def _pick(rng: random.Random, items: list[Any]) -> Any:
    return items[rng.randrange(len(items))] if items else None


# ---- the kinds of place ------------------------------------------------------------------------

SECTIONS = ("cards", "counters", "zones", "actions", "values", "views", "variants", "bots", "procedures",
            "functions", "card_types", "modifiers", "triggers", "events", "constants", "boards", "seat_options")


def _end_id(work: _Work) -> bool:
    """An end condition's id: replaced, or a copy of the condition added under it."""
    rng = work.rng
    ends = [(f, d["end"]) for f, d in work.docs() if isinstance(d.get("end"), list) and d["end"]]
    main = work.doc(work.unit.main)
    if not ends and isinstance(main, dict) and work.unit.kind == "game" and "end" not in main:
        main["end"] = [{"id": "x", "check": "turn", "when": "false"}]  # a game without any: one that never holds
        ends = [(work.unit.main, main["end"])]
        work.touch(work.unit.main, "end: [{id: x, check: turn, when: 'false'}] added")
    if not ends:
        return False
    file, conditions = rng.choice(ends)
    i = rng.randrange(len(conditions))
    if not isinstance(conditions[i], dict):
        return False
    new = hostile_id(rng, str(conditions[i].get("id", "x")))
    if rng.random() < 0.5:
        conditions[i]["id"] = new
        work.touch(file, f"end[{i}].id -> {_brief(new)}")
    else:
        conditions.append({**copy.deepcopy(conditions[i]), "id": new})
        work.touch(file, f"end[{i}] copied as end[{len(conditions) - 1}] with id {_brief(new)}")
    return True


def _section_id(work: _Work) -> bool:
    """A definition's id, in any section: a copy added under it, or the definition
    renamed (then its references break, unless the id is a valid name and every
    reference in effect text is renamed too)."""
    rng = work.rng
    found = [(f, s, sec) for s in SECTIONS for f, sec in work.sections(s)]
    overlay = work.unit.kind == "overlay"
    if overlay:  # an overlay's own definitions: under add/replace/patch
        found = [(f, f"{op}.{s}", d[op][s]) for f, d in work.docs() for op in ("add", "replace", "patch", "append")
                 if isinstance(d.get(op), dict) for s in SECTIONS if isinstance(d[op].get(s), dict) and d[op][s]]
    if not found:
        return False
    file, section, defs = rng.choice(found)
    old = rng.choice(sorted(defs, key=str))
    new = hostile_id(rng, str(old))
    roll = rng.random()
    if roll < 0.55:
        defs.setdefault(new, copy.deepcopy(defs[old]))
        work.touch(file, f"{section}.{old} copied as {_brief(new)}")
    else:
        defs[new] = defs.pop(old)
        work.touch(file, f"{section}.{old} renamed {_brief(new)}")
        if roll < 0.85 and re.fullmatch(r"[a-z_][a-z0-9_]*", new, re.I):
            _rename_everywhere(work, str(old), new)
        elif section.endswith("cards"):
            _rename_card_strings(work, str(old), new)
    return True


def _rename_everywhere(work: _Work, old: str, new: str) -> None:
    """Every reference to `old` in the unit's effect text renamed `new`."""
    count = 0
    for file, node, key, _ in _effects(work):
        text = node[key]
        renamed = _rename_in_effect(text, old, new)
        if renamed != text:
            node[key] = renamed
            work.touched.add(file)
            count += 1
    work.changes.append(f"  and the effect texts naming it ({count}) renamed too")


def _rename_card_strings(work: _Work, old: str, new: str) -> None:
    """A card renamed: its id in effect strings (`create 1 "ID" in deck`) and as a
    whole YAML value renamed too, so the card stays in play under its hostile id."""
    quoted, replacement = f'"{old}"', effect_string(new)
    for file, d in work.docs():
        for node, key, path in _strings(d):
            text = node[key]
            if text == old:
                node[key] = new
                work.touch(file, f"  {_show(path)} (naming it) renamed too")
            elif quoted in text and EFFECT_KEYS.intersection(str(p) for p in path):
                node[key] = text.replace(quoted, replacement)
                work.touch(file, f"  {_show(path)} (naming it in a string) renamed too")


def _modifier_id(work: _Work) -> bool:
    """A modifier's id: of a card, of a card type, or top-level; a copy of a modifier
    added under the hostile id, or a new one on a card that had none."""
    rng = work.rng
    holders = [(f, f"{s}.{cid}", spec["modifiers"]) for s in ("cards", "card_types") for f, sec in work.sections(s)
               for cid, spec in sec.items() if isinstance(spec, dict) and isinstance(spec.get("modifiers"), dict)
               and spec["modifiers"]]
    holders += [(f, "modifiers", sec) for f, sec in work.sections("modifiers")]
    if holders and rng.random() < 0.8:
        file, where, mods = rng.choice(holders)
        old = rng.choice(sorted(mods, key=str))
        new = hostile_id(rng, str(old))
        if rng.random() < 0.6:
            mods.setdefault(new, copy.deepcopy(mods[old]))
            work.touch(file, f"{where}.modifiers.{old} copied as {_brief(new)}")
        else:
            mods[new] = mods.pop(old)
            work.touch(file, f"{where}.modifiers.{old} renamed {_brief(new)}")
        return True
    values = [v for _, sec in work.sections("values") for v in sec]
    cards = [(f, cid, spec) for f, sec in work.sections("cards") for cid, spec in sec.items() if isinstance(spec, dict)]
    if not values or not cards:
        return False
    file, cid, spec = rng.choice(cards)
    new = hostile_id(rng, "power")
    spec.setdefault("modifiers", {})[new] = {"value": rng.choice(sorted(values)), "op": "add", "amount": "0"}
    work.touch(file, f"cards.{cid}.modifiers: added {_brief(new)}")
    return True


def _overlay(work: _Work) -> bool:
    """An overlay's own hostile ids: `set: end` with one, an added or patched modifier,
    an added card, a patched card type (the same in a game's variant)."""
    rng = work.rng
    main = work.doc(work.unit.main)
    if not isinstance(main, dict):
        return False
    if work.unit.kind == "overlay":
        base, target, where = work.base_data(), main, ""
    else:
        variants = main.get("variants")
        if not isinstance(variants, dict) or not variants:
            return False
        name = rng.choice(sorted(variants))
        if not isinstance(variants[name], dict):
            return False
        base, target, where = work.base_data(), variants[name], f"variants.{name}."
    values = sorted(base.get("values") or {}) if isinstance(base.get("values"), dict) else []
    cards = sorted(base.get("cards") or {}) if isinstance(base.get("cards"), dict) else []
    types = sorted(base.get("card_types") or {}) if isinstance(base.get("card_types"), dict) else []
    value = rng.choice(values) if values else "x"
    modifier = {"value": value, "op": "add", "amount": "0", "label": hostile_text(rng) if rng.random() < 0.3 else "m"}
    choice = rng.randrange(5)
    if choice == 0:
        ends = copy.deepcopy(base.get("end")) if isinstance(base.get("end"), list) and base.get("end") else []
        ends = ends or [{"id": "x", "check": "turn", "when": "false"}]
        i = rng.randrange(len(ends))
        if not isinstance(ends[i], dict):
            return False
        ends[i]["id"] = hostile_id(rng, str(ends[i].get("id", "x")))
        target.setdefault("set", {})
        if not isinstance(target["set"], dict):
            return False
        target["set"]["end"] = ends
        work.touch(work.unit.main, f"{where}set.end[{i}].id -> {_brief(ends[i]['id'])}")
    elif choice == 1 and cards:
        card, new = rng.choice(cards), hostile_id(rng, "power")
        patch = _at(target, "patch", "cards", card)
        if patch is None:
            return False
        patch.setdefault("modifiers", {})[new] = modifier
        work.touch(work.unit.main, f"{where}patch.cards.{card}.modifiers: added {_brief(new)}")
    elif choice == 2:
        new = hostile_id(rng, "power")
        added = _at(target, "add", "modifiers")
        if added is None:
            return False
        added[new] = {**modifier, "granted": True}
        work.touch(work.unit.main, f"{where}add.modifiers: added {_brief(new)}")
    elif choice == 3 and types:
        kind, new = rng.choice(types), hostile_id(rng, "power")
        patch = _at(target, "patch", "card_types", kind)
        if patch is None:
            return False
        patch.setdefault("modifiers", {})[new] = modifier
        work.touch(work.unit.main, f"{where}patch.card_types.{kind}.modifiers: added {_brief(new)}")
    else:
        new = hostile_id(rng, "card")
        added = _at(target, "add", "cards")
        if added is None:
            return False
        added[new] = {"name": hostile_text(rng) if rng.random() < 0.5 else "Card", "count": 1}
        if cards and isinstance(base.get("cards", {}).get(cards[0]), dict) and "in" in base["cards"][cards[0]]:
            added[new]["in"] = base["cards"][cards[0]]["in"]
        work.touch(work.unit.main, f"{where}add.cards: added {_brief(new)}")
    return True


def _at(node: dict[str, Any], *keys: str) -> dict[str, Any] | None:
    """The map at `keys` under `node`, made where missing; None where a key holds
    something else."""
    for key in keys:
        node = node.setdefault(key, {})
        if not isinstance(node, dict):
            return None
    return node


def _param_name(work: _Work) -> bool:
    """A parameter of a procedure or function renamed, in its body too when the new
    name is one effect text can say (else the list alone changes); or a function's
    `let` name, likewise."""
    rng = work.rng
    found = [(f, s, name, spec) for s in ("procedures", "functions") for f, sec in work.sections(s)
             for name, spec in sec.items() if isinstance(spec, dict) and (spec.get("params") or spec.get("let"))]
    if not found:
        return False
    file, section, name, spec = rng.choice(found)
    lets = spec.get("let") if isinstance(spec.get("let"), dict) else {}
    params = spec.get("params") if isinstance(spec.get("params"), list) else []
    new = hostile_name(rng) if rng.random() < 0.6 else hostile_id(rng, "x")
    if lets and (not params or rng.random() < 0.4):
        old = rng.choice(sorted(lets, key=str))
        spec["let"] = {(new if k == old else k): v for k, v in lets.items()}
        what = "let"
    elif params:
        i = rng.randrange(len(params))
        old, params[i] = params[i], new
        what = f"params[{i}]"
    else:
        return False
    work.touch(file, f"{section}.{name}.{what}: {old!r} -> {_brief(new)}")
    if isinstance(old, str) and rng.random() < 0.8:
        for key in ("effect", "value"):
            if isinstance(spec.get(key), str):
                spec[key] = _rename_in_effect(spec[key], old, new)
        for k, v in (spec.get("let") or {}).items():
            if isinstance(v, str):
                spec["let"][k] = _rename_in_effect(v, old, new)
    return True


LOCALS = re.compile(r"\blet\s+([A-Za-z_]\w*)\s*=|\bfor\s+each\s+([A-Za-z_]\w*)|\bfor\s+([A-Za-z_]\w*)\s+in\b"
                    r"|\bchoose\s+(?:up\s+to\s+\S+\s+)?([A-Za-z_]\w*)\s+from\b")


def _local_name(work: _Work) -> bool:
    """A `let`, loop or choice name in effect text renamed throughout that text."""
    found = [(f, node, key, path, m) for f, node, key, path in _effects(work)
             for m in LOCALS.finditer(node[key])]
    if not found:
        return False
    file, node, key, path, match = _pick(work.rng, found)
    old = next(g for g in match.groups() if g)
    new = hostile_name(work.rng)
    node[key] = _rename_in_effect(node[key], old, new)
    work.touch(file, f"{_show(path)}: local {old!r} -> {_brief(new)}")
    return True


TEXT_KEYS = ("label", "name", "description", "text", "prompt", "assumed", "version")


def _text_field(work: _Work) -> bool:
    """A label, name, description, card text or note: hostile text (templates: now and
    then a payload as their `{expression}`)."""
    found = [(f, node, key, path) for f, d in work.docs() for node, key, path in _strings(d)
             if isinstance(key, str) and key in TEXT_KEYS]
    found += [(f, node, key, path) for f, node, key, path in _effects(work) if path and path[0] == "views"]
    if not found:
        return False
    file, node, key, path = _pick(work.rng, found)
    node[key] = hostile_text(work.rng)
    work.touch(file, f"{_show(path)} -> {_brief(node[key])}")
    return True


STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def _string_literal(work: _Work) -> bool:
    """A string of effect text (a log line, a prompt, a choice's option, a card id)
    holding hostile text, written with the language's escapes or raw."""
    found = [(f, node, key, path, m) for f, node, key, path in _effects(work) for m in STRING.finditer(node[key])]
    if not found:
        return False
    file, node, key, path, match = _pick(work.rng, found)
    text = hostile_text(work.rng)
    literal = effect_string(text) if work.rng.random() < 0.8 else f'"{text}"'
    node[key] = node[key][:match.start()] + literal + node[key][match.end():]
    work.touch(file, f"{_show(path)}: string {match.group()[:30]!r} -> {_brief(literal)}")
    return True


def _include_name(work: _Work) -> bool:
    """An included file's name: the file renamed (a name a disk takes), or the include
    list naming a hostile file that is not there."""
    main = work.doc(work.unit.main)
    includes = main.get("include") if isinstance(main, dict) else None
    if not isinstance(includes, list) or not includes:
        return False
    i = work.rng.randrange(len(includes))
    old, new = includes[i], hostile_text(work.rng)
    if work.rng.random() < 0.6 and old in work.unit.files:
        safe = "".join(c for c in new if c not in "/\x00")[:120] or "x"
        includes[i] = f"{safe}.yaml"
        work.renamed[old] = includes[i]
    else:
        includes[i] = new if work.rng.random() < 0.5 else f"{new}.yaml"
    work.touch(work.unit.main, f"include[{i}]: {old!r} -> {_brief(includes[i])}")
    return True


INSIDE = (".__class__", ".__globals__", ".__class__.__base__", ".__dict__", ".__init__", ".__code__", ".gi_frame",
          ".__builtins__", ".f_back")
STRAYS = ("__builtins__", "__import__", "_k0", "_g", "st", "env", "fr", "_at", "ſt", "open", "exec", "eval",
          "__class__", "type", "next", "globals")


def _dunder(work: _Work) -> bool:
    """Python's way out inside an expression: a dunder attribute after a name, or a
    generated or built-in name in the place of one of the game's."""
    found = [(f, node, key, path) for f, node, key, path in _effects(work)]
    if not found:
        return False
    file, node, key, path = _pick(work.rng, found)
    tokens = TOKEN.findall(node[key])
    names = [i for i, t in enumerate(tokens) if re.fullmatch(r"[A-Za-z_]\w*", t)]
    if not names:
        return False
    i = work.rng.choice(names)
    was = tokens[i]
    tokens[i] = was + work.rng.choice(INSIDE) if work.rng.random() < 0.5 else work.rng.choice(STRAYS)
    node[key] = "".join(tokens)
    work.touch(file, f"{_show(path)}: {was!r} -> {tokens[i]!r}")
    return True


def _deep(work: _Work) -> bool:
    """Nesting past the limits: one expression nested deep, a chain thousands of
    terms long, or functions each nested just under the limit calling one another (a
    compiler that inlines them would write Python nested deeper than Python takes)."""
    rng = work.rng
    found = [(f, node, key, path) for f, node, key, path in _effects(work)
             if str(path[-1]) in ("when", "amount", "score", "value", "base", "condition") or path[0] == "functions"]
    if not found:
        return False
    file, node, key, path = _pick(rng, found)
    depth = rng.choice((99, 100, 101, 150, 250, 1_000, 5_000))
    shape = rng.randrange(6)
    inner = node[key] if "\n" not in node[key] else "0"
    if shape == 0:
        text = "(" * depth + inner + ")" * depth
    elif shape == 1:
        text = "[" * depth + inner + "][0]" * depth
    elif shape == 2:
        text = "-" * depth + f"({inner})"
    elif shape == 3:
        text = f"({inner})" + " + 0" * depth * 10
    elif shape == 4:
        text = "max(" * depth + inner + ", 0)" * depth
    else:
        return _function_chain(work, file, node, key, path)
    node[key] = text
    work.touch(file, f"{_show(path)}: nested {depth} deep ({text[:16]!r}...)")
    return True


def _function_chain(work: _Work, file: str, node: Any, key: Any, path: tuple[Any, ...]) -> bool:
    doc = work.doc(file)
    if not isinstance(doc, dict):
        return False
    functions = doc.setdefault("functions", {})
    if not isinstance(functions, dict):
        return False
    links = work.rng.choice((3, 5, 10, 40))
    nest = 90  # just under the language's limit of 100 per text
    for k in range(links):
        called = f"hz_{k - 1}(n)" if k else "n"
        functions[f"hz_{k}"] = {"params": ["n"], "value": "(" * nest + called + ")" * nest}
    was = node[key]
    node[key] = f"hz_{links - 1}({was})" if "\n" not in was else was
    work.touch(file, f"functions hz_0..hz_{links - 1} added, each nested {nest} deep and calling the one before; "
               f"{_show(path)} calls the last")
    return True


def _payload_as_effect(work: _Work) -> bool:
    """A payload as a whole expression or effect text (the effect language must refuse
    it), raw or after a line break."""
    found = _effects(work)
    if not found:
        return False
    file, node, key, path = _pick(work.rng, found)
    payload = PAYLOADS[work.rng.choice(sorted(PAYLOADS))]
    node[key] = work.rng.choice((payload, _wrapped(work.rng, payload), f"{node[key]}\n{payload}"))
    work.touch(file, f"{_show(path)} -> {_brief(node[key])}")
    return True


KINDS: dict[str, Callable[[_Work], bool]] = {
    "end-id": _end_id,
    "section-id": _section_id,
    "modifier-id": _modifier_id,
    "overlay": _overlay,
    "param-name": _param_name,
    "local-name": _local_name,
    "text": _text_field,
    "string": _string_literal,
    "include": _include_name,
    "dunder": _dunder,
    "deep": _deep,
    "payload-effect": _payload_as_effect,
}


# How often each kind of place is picked, by kind of unit: most often the ids and names
# the compiler writes into generated source (end and modifier ids were found raw there).
WEIGHTS: dict[str, dict[str, int]] = {
    "game": {"end-id": 4, "section-id": 3, "modifier-id": 4, "overlay": 1, "param-name": 2, "local-name": 2,
             "text": 2, "string": 2, "include": 1, "dunder": 1, "deep": 1, "payload-effect": 1},
    "overlay": {"overlay": 6, "section-id": 2, "modifier-id": 1, "text": 1, "string": 1, "local-name": 1,
                "dunder": 1, "deep": 1, "payload-effect": 1},
}


def make_compiler_mutant(units: list[Unit], seed: int, index: int) -> Mutant:
    """Compiler mutant `index` of `seed`: always the same for the same two numbers."""
    rng = random.Random(f"orrery-fuzz-compiler/{seed}/{index}")
    overlays = [u for u in units if u.kind == "overlay"]
    # Overlays are a quarter of the mutants: few files, but their own ways in (set, patch, add).
    unit = rng.choice(overlays if overlays and rng.random() < 0.25 else units)
    work = _Work(rng, unit, units)
    weights = WEIGHTS[unit.kind]
    kinds = sorted(weights)
    for _ in range(rng.choice((1, 1, 1, 2))):
        for _attempt in range(20):  # not every kind of place is in every unit
            kind = rng.choices(kinds, [weights[k] for k in kinds])[0]
            before = len(work.changes)
            if KINDS[kind](work):
                work.changes[before] = f"[{kind}] {work.changes[before]}"
                break
    if not work.touched:  # a unit with none of the places picked: its name, at least
        doc = work.doc(unit.main)
        if isinstance(doc, dict):
            doc["name"] = hostile_text(rng)
            work.touch(unit.main, f"[text] name -> {_brief(doc['name'])}")
    files = {work.renamed.get(name, name): (dump(work.data[name]) if name in work.touched else text)
             for name, text in unit.files.items()}
    changed = sorted(work.touched)[0] if work.touched else unit.main
    return Mutant(seed, index, Unit(unit.name, unit.kind, files, unit.main), work.renamed.get(changed, changed),
                  tuple(work.changes), mode="compiler")


def _brief(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 90 else f"{text[:80]}... ({len(text)} characters)"
