"""Compile the `cards:` section: each card's fields, its readable text and its powers.

A card carries its whole power in its definition: named effects (run with `use c "NAME"`,
each optionally with a `condition` and a `cost` paid by the player who uses it), and
triggers and modifiers that work while a copy is in one of its `active_in` zones (the
modifiers for its holder, or for whoever its `applies_to` expression names). This
module turns those into CardDef records; costs share one compiler with actions' `cost`,
so "pay 2 credits" means the same on an action and on a card. It also says what
expressions read of a card's field (`static_field`, `field_reader`), so that a field
reads the same whether generated code looks it up in a table or calls a reader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import hint_for
from interpreter.model import CardDef, CardUse, Cost

if TYPE_CHECKING:
    from interpreter.compile.build import Builder


def compile_cost(builder: Builder, spec_cost: Any, logical: tuple[Any, ...],
                 locals_: dict[str, str]) -> tuple[Cost, ...]:
    """`cost: {COUNTER[.KEY]: AMOUNT}`: the counters of `me` paid, each with its amount."""
    sym = builder.sym
    cost = []
    for cname, amount_text in (spec_cost or {}).items():
        counter_name, _, key = str(cname).partition(".")
        cdef = sym.counters.get(counter_name)
        where = logical + (cname,)
        if cdef is None:
            builder.error(where, "unknown-name", f"no counter '{counter_name}'",
                          hint_for(counter_name, sym.counters), key=True)
            continue
        offset = 0
        if key:
            if not cdef.keys or key not in cdef.keys:
                builder.error(where, "unknown-key", f"counter '{counter_name}' has no key '{key}'",
                              hint_for(key, cdef.keys or ()))
                continue
            offset = cdef.keys.index(key)
        elif cdef.width != 1:
            example = f"{counter_name}.{(cdef.keys or ('x',))[0]}"
            builder.error(where, "bad-value", f"counter '{counter_name}' has keys; name one, e.g. {example}")
            continue
        compiled = builder.expr(amount_text, where, locals_, "int")
        if compiled:
            cost.append(Cost(cdef.index, offset, compiled[0]))
    return tuple(cost)


def card_text(spec: dict[str, Any]) -> str:
    """A card's printed text: `text:`, else `properties.text` (files written before
    cards had `text:`). Expressions reading `c.text` give the same."""
    return str(spec.get("text", (spec.get("properties") or {}).get("text", "")))


def build_cards(builder: Builder) -> tuple[CardDef, ...]:
    """Every card definition, in the order written (its index is its number)."""
    result = []
    zones = builder.sym.zones
    for i, (cid, spec) in enumerate(builder.section("cards").items()):
        zone_index = None
        if spec.get("in") is not None:
            zone = zones.get(spec["in"])
            if zone is None:
                builder.error(("cards", cid, "in"), "unknown-name", f"no zone '{spec['in']}'",
                              hint_for(str(spec["in"]), zones))
            else:  # (a zone per player: each player's gets `count` copies)
                zone_index = zone.index
        active_in = []
        for j, zname in enumerate(spec.get("active_in") or ()):
            if zname not in zones:
                builder.error(("cards", cid, "active_in", j), "unknown-name", f"no zone '{zname}'",
                              hint_for(str(zname), zones))
            else:
                active_in.append(zones[zname].index)
        if (spec.get("triggers") or spec.get("modifiers")) and not active_in:
            builder.error(("cards", cid), "missing-active-in",
                          f"card '{cid}' has triggers or modifiers but no active_in zones",
                          "say in which zones they work, e.g. active_in: [play_area]", key=True)
        effects, uses = _effects(builder, cid, spec)
        applies_to = None
        if spec.get("applies_to") is not None:
            compiled = builder.expr(spec["applies_to"], ("cards", cid, "applies_to"),
                                    {"p": "player", "me": "player", "this": "card", "owner": "player"}, "bool")
            applies_to = compiled[0] if compiled else None
        properties = dict(spec.get("properties") or {})
        result.append(CardDef(cid, i, str(spec.get("name", cid)), str(spec.get("type", "card")),
                              int(spec.get("count", 1)), zone_index, properties,
                              effects, tuple(active_in), tuple(spec.get("tags") or ()),
                              text=card_text(spec), uses=uses, applies_to=applies_to,
                              back=str(spec.get("back") or "")))
    return tuple(result)


def _effects(builder: Builder, cid: str, spec: dict[str, Any]) -> tuple[dict[str, int], dict[str, CardUse]]:
    """A card's named effects (code indexes), and the condition and cost of those that have one."""
    effects: dict[str, int] = {}
    uses: dict[str, CardUse] = {}
    locals_ = {"this": "card"}
    for ename, entry in (spec.get("effects") or {}).items():
        where = ("cards", cid, "effects", ename)
        if entry is None:  # dropped from what the card's type gives
            continue
        if not isinstance(entry, dict):
            effects[ename] = builder.program(entry, where, locals_)
            continue
        effects[ename] = builder.program(entry.get("effect", ""), where + ("effect",), locals_)
        condition = None
        if entry.get("condition") is not None:
            compiled = builder.expr(entry["condition"], where + ("condition",), {**locals_, "me": "player"}, "bool")
            condition = compiled[0] if compiled else None
        cost = compile_cost(builder, entry.get("cost"), where + ("cost",), {**locals_, "me": "player"})
        if condition is not None or cost:
            uses[ename] = CardUse(condition, cost)
    return effects, uses


def static_field(cid: str, spec: dict[str, Any], field: str) -> Any:
    """A card definition's field as its CardDef will have it (see build_cards: the
    tables generated code reads a field no rule sets from)."""
    if field == "id":
        return cid
    if field == "name":
        return str(spec.get("name", cid))
    if field == "type":
        return str(spec.get("type", "card"))
    if field == "text":
        return card_text(spec)
    return dict(spec.get("properties") or {}).get(field)


_READERS: dict[str, Callable[[Any, int], Any]] = {}


def field_reader(field: str) -> Callable[[Any, int], Any]:
    """A reader of a field some rule sets (an attribute over the property)."""
    reader = _READERS.get(field)
    if reader is None:
        missing = None

        def reader(st: Any, iid: int) -> Any:
            value = st.attrs.get((iid, field), missing)
            if value is missing:
                return st.gd.cards[st.card_def[iid]].properties.get(field)
            return value
        _READERS[field] = reader
    return reader
