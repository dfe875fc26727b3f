"""Numbered decks (`copies:`): one card written once, made into a card per copy.

A deck of "7 of spades" and "Queen of hearts" is one kind of card whose copies differ
in a few properties and in their names. A card with `copies:` lists them, one entry per
copy or as every combination of property values, and its `name` is a template over
each copy's properties:

    pip:
      name: "{rank} of {suit}"
      type: playing
      in: deck
      copies:
        each: {rank: {from: 1, to: 13}, suit: [spades, hearts, diamonds, clubs]}

After includes, overlays, variants and `card_types` are merged (so an overlay patches
or adds a card with copies like any card), each copy becomes a card of its own, in
place of the card: id `CARD-NAME` (`pip-7-of-spades`, its name in lowercase words), its
name filled in, its properties the card's with the copy's over them, every other field
the card's. The engine then builds, runs, numbers (integer actions), shows and saves
each copy as the distinct card it is, with nothing of its own for copies. Errors in a
copy's fields are placed where the card writes them; a bad template, an empty range or
two copies of one name are problems at their place in the card.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import hint_for
from interpreter.limits import MAX_CARDS_PER_DEF
from interpreter.rules.sizes import DataProblem

if TYPE_CHECKING:
    from interpreter.rules.loader import Origins

COPIES = "copies"
EACH = "each"
_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_SLUG = re.compile(r"[^a-z0-9]+")


def expand_copies(merged: dict[str, Any], origins: Origins) -> list[DataProblem]:
    """Replace every card with `copies:` by its copies, each a card of its own (in the
    card's place, in copy order); the problems found, at their logical place."""
    cards = merged.get("cards")
    if not isinstance(cards, dict) or not any(isinstance(s, dict) and COPIES in s for s in cards.values()):
        return []
    problems: list[DataProblem] = []
    out: dict[str, Any] = {}
    total = 0
    taken = {cid for cid, spec in cards.items() if not (isinstance(spec, dict) and COPIES in spec)}
    for cid, spec in cards.items():
        if not (isinstance(spec, dict) and COPIES in spec):
            out[cid] = spec
            continue
        if total > MAX_CARDS_PER_DEF:
            continue  # (said once: the game is not built)
        made = _copies_of(cid, spec, taken, problems)
        total += len(made)
        if total > MAX_CARDS_PER_DEF:
            problems.append(DataProblem(("cards", cid, COPIES), "limit",
                                        f"with the copies of card '{cid}', the cards made by `copies:` pass "
                                        f"{MAX_CARDS_PER_DEF}, the limit for a game", "fewer copies, or a "
                                        "counter for what tells many copies apart"))
            continue
        prefix = ("cards", cid)
        table = [(k[2:], v) for k, v in origins.table.items() if k[:2] == prefix]
        pieces = [(k[2:], v) for k, v in origins.pieces.items() if k[:2] == prefix]
        for new_id, copy_spec, sources in made:
            out[new_id] = copy_spec
            _place_copy(origins, new_id, table, pieces, sources)
    merged["cards"] = out
    return problems


# A copy's fields and where each was written: (logical path in the card, field of the copy).
Sources = list[tuple[tuple[Any, ...], tuple[Any, ...]]]


def _copies_of(cid: str, spec: dict[str, Any], taken: set[str],
               problems: list[DataProblem]) -> list[tuple[str, dict[str, Any], Sources]]:
    """The cards one card with copies stands for: (id, fields, where they were written)."""
    entries = _entries(cid, spec.get(COPIES), problems)
    if entries is None:
        return []
    base = {k: v for k, v in spec.items() if k != COPIES}
    own = dict(base.get("properties") or {}) if isinstance(base.get("properties"), dict) else {}
    made: list[tuple[str, dict[str, Any], Sources]] = []
    names: dict[str, int] = {}
    for number, (props, entry, sources) in enumerate(entries, 1):
        properties = {**own, **props}
        name_at = ("cards", cid, COPIES, number - 1, "name") if "name" in entry else ("cards", cid, "name")
        name = _fill(entry.get("name", base.get("name")), properties, name_at, cid, problems)
        if name is None:
            return []
        copy_spec = {**base, "name": name, "properties": properties}
        for key in ("count", "text"):
            if key in entry:
                copy_spec[key] = entry[key]
                sources.append((("cards", cid, COPIES, number - 1, key), (key,)))
        if isinstance(copy_spec.get("text"), str) and "{" in copy_spec["text"]:
            text_at = ("cards", cid, COPIES, number - 1, "text") if "text" in entry else ("cards", cid, "text")
            filled = _fill(copy_spec["text"], properties, text_at, cid, problems)
            if filled is None:
                return []
            copy_spec["text"] = filled
        if "name" in entry:
            sources.append((name_at, ("name",)))
        if name in names:
            problems.append(DataProblem(name_at, "name-clash",
                                        f"copies {names[name]} and {number} of card '{cid}' are both named "
                                        f"'{name}'", "name each copy apart: put the properties that tell them "
                                                     "apart in the name template, e.g. \"{rank} of {suit}\""))
            return []
        names[name] = number
        slug = _SLUG.sub("-", name.lower()).strip("-")
        new_id = f"{cid}-{slug}" if slug else f"{cid}-{number}"
        if new_id in taken:
            problems.append(DataProblem(name_at, "name-clash",
                                        f"copy {number} of card '{cid}' ('{name}') would be the card "
                                        f"'{new_id}', which another card or copy is already",
                                        "give this copy a name of its own"))
            return []
        taken.add(new_id)
        made.append((new_id, copy_spec, sources))
    return made


def _entries(cid: str, copies: Any,
             problems: list[DataProblem]) -> list[tuple[dict[str, Any], dict[str, Any], Sources]] | None:
    """Each copy's own properties, its entry (name, text, count) and where its
    properties were written; None when the copies are not well formed (the schema, or
    a problem added here, says why)."""
    if isinstance(copies, list):
        found = []
        for i, entry in enumerate(copies):
            if not isinstance(entry, dict):
                return None
            props = entry.get("properties") or {}
            if not isinstance(props, dict):
                return None
            sources: Sources = [(("cards", cid, COPIES, i, "properties", k), ("properties", k)) for k in props]
            found.append((dict(props), entry, sources))
        return found
    if not isinstance(copies, dict) or not isinstance(copies.get(EACH), dict):
        return None
    columns: list[tuple[str, list[Any]]] = []
    size = 1
    for prop, values in copies[EACH].items():
        at = ("cards", cid, COPIES, EACH, prop)
        listed = _values(values)
        if listed is None:
            return None
        if not listed:
            problems.append(DataProblem(at, "empty-range", f"'{prop}' of card '{cid}' gives no values, so the "
                                                          "card has no copies",
                                        "a range {from: A, to: B} needs A <= B; a list needs a value"))
            return None
        size *= len(listed)
        if size > MAX_CARDS_PER_DEF:
            problems.append(DataProblem(("cards", cid, COPIES, EACH), "limit",
                                        f"card '{cid}' would have more than {MAX_CARDS_PER_DEF} copies",
                                        "fewer values, or several cards"))
            return None
        columns.append((prop, listed))
    if not columns:
        problems.append(DataProblem(("cards", cid, COPIES, EACH), "empty-range",
                                    f"card '{cid}' has copies for each of no properties",
                                    "name a property and its values: each: {rank: {from: 1, to: 13}}"))
        return None
    found = []
    for combination in itertools.product(*(values for _, values in columns)):
        props = {prop: value for (prop, _), value in zip(columns, combination, strict=True)}
        found.append((props, {}, [(("cards", cid, COPIES, EACH, prop), ("properties", prop)) for prop in props]))
    return found


def _values(values: Any) -> list[Any] | None:
    """The values one property of `each` takes: a list as written, or a range's numbers."""
    if isinstance(values, list):
        return values
    if isinstance(values, dict):
        start, end = values.get("from"), values.get("to")
        if type(start) is int and type(end) is int:
            if end - start >= MAX_CARDS_PER_DEF:  # (more than a card may have: cut, the size check says so)
                end = start + MAX_CARDS_PER_DEF
            return list(range(start, end + 1))
    return None


def _fill(template: Any, properties: dict[str, Any], at: tuple[Any, ...], cid: str,
          problems: list[DataProblem]) -> str | None:
    """A name or text template filled with a copy's properties (`{rank} of {suit}`;
    `{{` and `}}` are braces); None, with the problem added, when it names a property
    the copy does not have or a brace is left open."""
    if not isinstance(template, str):
        return None
    out: list[str] = []
    last = 0
    for match in _FIELD.finditer(template):
        out.append(template[last:match.start()])
        last = match.end()
        whole = match.group(0)
        if whole in ("{{", "}}"):
            out.append(whole[0])
            continue
        field = match.group(1)
        if field is None:
            problems.append(DataProblem(at, "bad-template", f"a lone '{whole}' in the template of card '{cid}'",
                                        "write {PROPERTY} to put in a property, {{ or }} for a brace",
                                        match.start()))
            return None
        name = field.strip()
        if name not in properties:
            problems.append(DataProblem(at, "unknown-name",
                                        f"'{{{field}}}' names no property of the copies of card '{cid}'",
                                        hint_for(name, [str(k) for k in properties]) or
                                        f"properties: {', '.join(map(str, properties)) or 'none'}",
                                        match.start() + 1))
            return None
        out.append(_shown(properties[name]))
    out.append(template[last:])
    return "".join(out)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def copy_hint(section: str, item_id: Any, cards: dict[str, Any]) -> str | None:
    """Why an overlay cannot change `pip-7-of-spades` by its id: the copies of a card
    are made once overlays have applied, so it changes the card (None: not a copy)."""
    if section != "cards":
        return None
    for cid, spec in cards.items():
        if isinstance(spec, dict) and COPIES in spec and str(item_id).startswith(f"{cid}-"):
            return (f"'{item_id}' would be a copy of card '{cid}', made after overlays apply: change "
                    f"'{cid}' (its properties, or the entry of its copies)")
    return None


def _place_copy(origins: Origins, new_id: str, table: list[tuple[tuple[Any, ...], Any]],
                pieces: list[tuple[tuple[Any, ...], Any]], sources: Sources) -> None:
    """Errors in a copy's fields are placed where the card (`table` and `pieces`: its
    entries in `origins`, below the card) or its copy entry writes them."""
    for rest, found in table:
        origins.table[("cards", new_id, *rest)] = found
    for rest, found in pieces:
        origins.pieces[("cards", new_id, *rest)] = found
    for source, field in sources:
        try:
            pm, keypath = origins.find(source)
        except KeyError:
            continue
        origins.add(("cards", new_id, *field), pm, keypath)
