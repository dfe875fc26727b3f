"""Build the static GameDef from a merged raw definition: semantic checks and compiling.

Runs after the schema stage, so shapes are known to be right; what is checked here is
meaning: every name resolves, effect text parses and type-checks, ids are not reserved
words. All problems are collected (not just the first) and reported at the file, line
and column they come from, inside effect text at the position of the text itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from interpreter.analysis.facts import find_facts
from interpreter.compile import builtin_functions  # noqa: F401 - registers the built-in functions
from interpreter.compile.board_functions import build_boards
from interpreter.compile.card_defs import build_cards, compile_cost
from interpreter.compile.counter_totals import with_totals
from interpreter.compile.direct import callees_first, compile_direct
from interpreter.compile.endings import define_checks
from interpreter.compile.enumerators import make_lister
from interpreter.compile.expressions import CONTEXT_NAMES, Context, compatible, compile_expr, describe
from interpreter.compile.for_people import table_of, why_not_of
from interpreter.compile.functions import compile_functions, retype_procedures, texts_of, undeclared_types
from interpreter.compile.game_info import assumptions_of, seat_options_of, variant_players_of
from interpreter.compile.never import BUILTIN_EVENTS, EVENT_ALIASES, fill_never
from interpreter.compile.numeric import exact_constants, exact_division, fractions_used
from interpreter.compile.param_values import declared_type, declared_values
from interpreter.compile.pysource import Emitter, NotCompiled, SourceTooDeep, UnsafeSource
from interpreter.compile.scan import all_effect_texts, names_read, self_dependent
from interpreter.compile.seat_rules import build_seat_rules
from interpreter.compile.statements import CodeBuilder, procedure_alias
from interpreter.compile.templates import compile_template
from interpreter.compile.values import define_values
from interpreter.diagnostics import Diagnostic, RuleFileError, hint_for
from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, common_indent, parse_expression, parse_program
from interpreter.lang.symbols import CompileError, ProcInfo, Symbols, declared_params, elem_of, is_list
from interpreter.model import (
    ActionDef,
    BotDef,
    Code,
    CounterDef,
    Direct,
    EndDef,
    Expr,
    GameDef,
    ModifierDef,
    Param,
    ScorePart,
    Scoring,
    TriggerDef,
    ValueDef,
    ViewDef,
    Where,
    ZoneDef,
)
from interpreter.rules.loader import RawGame
from interpreter.runtime.decisions import fixed_listing

RESERVED = {
    "let", "set", "to", "gain", "lose", "pay", "move", "draw", "from", "shuffle", "create", "in",
    "destroy", "reveal", "choose", "up", "by", "prompt", "take", "actions", "use", "emit", "grant",
    "until", "end", "of", "game", "winners", "log", "stop", "if", "elif", "else", "for", "each",
    "repeat", "forever", "while", "turn", "round", "one", "when", "and", "or", "not", "true",
    "false", "none", "top", "bottom", "show",
}

class Builder:
    def __init__(self, raw: RawGame, seat_kinds: Mapping[str, tuple[str, ...]]):
        self.raw = raw
        self.seat_kinds = seat_kinds  # the kinds of seat the engine knows (game bots aside), with their options
        self.data = raw.data
        self.origins = raw.origins
        self.diagnostics: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []  # what type-checks but had better be said (lint too)
        self.sym = Symbols(exact_division=exact_division(raw.data), fractions=fractions_used(raw.data))
        self.codes: list[Code] = []
        self._all_nodes: tuple[list[ast.Node], bool] | None = None
        self.directs: dict[int, Direct | None] = {}  # code -> its direct function (compile/direct.py)
        self.recursive: frozenset[str] = frozenset()  # procedures that may call themselves: never direct
        # The namespace of the game's generated code. Rules that have errors get none of
        # their code compiled, let alone run: from the first error on (the schema's
        # included), the emitter only checks and lists what it is given.
        self.emitter = Emitter(compiles=not raw.schema_diagnostics)
        self.place: tuple[Any, ...] = ("id",)  # the rule being compiled, for unsafe code's diagnostic

    # ---- reporting -----------------------------------------------------------------

    def error(self, logical: tuple[Any, ...], code: str, message: str, hint: str | None = None,
              key: bool = False) -> None:
        path, line, col = (self.origins.locate_key if key else self.origins.locate)(logical)
        source = self._source_line(logical, line)
        self.diagnostics.append(Diagnostic(path, line, col, code, message, hint=hint, source_line=source))
        self.emitter.compiles = False

    def warn(self, logical: tuple[Any, ...], code: str, message: str, hint: str | None = None) -> None:
        path, line, col = self.origins.locate_key(logical)
        self.warnings.append(Diagnostic(path, line, col, code, message, hint=hint, severity="warning",
                                        source_line=self._source_line(logical, line)))

    def _source_line(self, logical: tuple[Any, ...], line: int) -> str | None:
        try:
            pm, _ = self.origins.find(logical)
        except KeyError:
            return None
        return pm.source_line(line) or None

    def text_error(self, logical: tuple[Any, ...], line: int, column: int, code: str, message: str,
                   hint: str | None, width: int = 1) -> None:
        path, fline, fcol, source = self.origins.locate_text(logical, line, column)
        self.diagnostics.append(Diagnostic(path, fline, fcol, code, message, hint=hint,
                                           source_line=source or None, width=width))
        self.emitter.compiles = False

    def too_deep(self, logical: tuple[Any, ...]) -> None:
        """The error of text nested too deeply to compile (the parser's own limit
        counts the levels of the text; what it becomes may nest deeper still)."""
        self.error(logical, "too-deep", "this text nests too deeply to compile",
                   "split it: a `let` for a part, or a procedure or function for a long chain")

    def unsafe(self, err: UnsafeSource) -> Diagnostic:
        """The diagnostic of generated code that the last gate refused (a slip of the
        code generator, or rule text that got past it): at the rule being compiled."""
        path, line, col = self.origins.locate(self.place)
        return Diagnostic(path, line, col, "unsafe-code",
                          f"orrery refused to run the code it made of this rule ({err}); nothing was run",
                          hint="this is a bug of orrery's compiler: please report it with this file")

    def locator(self, logical: tuple[Any, ...]) -> Callable[[int, int], Where]:
        what = ".".join(str(p) for p in logical)

        def locate(line: int, column: int) -> Where:
            path, fline, fcol, _ = self.origins.locate_text(logical, line, column)
            return Where(path, fline, fcol, what)
        return locate

    # ---- compiling pieces of text ----------------------------------------------------

    def expr(self, text: Any, logical: tuple[Any, ...], locals_: dict[str, str], want: str = "any",
             pure: bool = True) -> tuple[Expr, str] | None:
        if isinstance(text, bool):
            value: Any = text
            return (lambda st, env: value), "bool"
        if isinstance(text, int):
            number = text
            return (lambda st, env: number), "int"
        if not isinstance(text, str):
            self.error(logical, "type", "expected an expression (text)")
            return None
        self.emitter.where = ".".join(str(p) for p in logical)
        self.place = logical
        try:
            node = parse_expression(text)
            fn, type_ = compile_expr(node, self.context(locals_, logical, pure))
        except EffectSyntaxError as err:
            self.text_error(logical, err.line, err.column, err.code, err.message, err.hint, err.width)
            return None
        except CompileError as err:
            self.text_error(logical, err.line, err.column, err.code, err.message, err.hint, err.width)
            return None
        except (SourceTooDeep, RecursionError):
            self.too_deep(logical)
            return None
        if not compatible(type_, want):
            self.text_error(logical, 1, 1, "type", f"expected {describe(want)}, got {describe(type_)}", None)
            return None
        return fn, type_

    def context(self, locals_: dict[str, str], where: tuple[Any, ...], pure: bool = False) -> Context:
        """The context to compile the rule at `where` (its logical path) in: what is
        generated for it is listed under that rule's name (`describe --code`)."""
        self.emitter.where = ".".join(str(p) for p in where)
        return Context(self.sym, dict(locals_), pure, emitter=self.emitter)

    def new_code(self, name: str) -> Code:
        code = Code(len(self.codes), name)
        self.codes.append(code)
        return code

    def program(self, text: Any, logical: tuple[Any, ...], locals_: dict[str, str], code: Code | None = None,
                direct: tuple[str, ...] | None = None, seeded: bool = False) -> int:
        """Compile effect text into a Code; returns its index (an empty Code on errors).
        With `direct` (its parameter names), also its direct function when it can have one
        (compile/direct.py; `seeded`: run only without explicit chance), in `self.directs`."""
        where = ".".join(str(p) for p in logical)
        if code is None:
            code = self.new_code(where)
        if not isinstance(text, str):
            self.error(logical, "type", "expected effect text")
            return code.index
        shift = common_indent(text)  # node columns are of the text without it
        self.emitter.where, self.place = where, logical
        try:
            stmts = parse_program(text)
            locate = self.locator(logical)
            ctx = self.context(locals_, logical)
            builder = CodeBuilder(code, ctx, lambda line, column: locate(line, column + shift))
            for stmt in stmts:
                builder.statement(stmt)
            builder.finish()
            if direct is not None:
                self.directs[code.index] = compile_direct(self.context(locals_, logical), builder.locate, stmts, direct,
                                                          where, seeded)
        except EffectSyntaxError as err:
            self.text_error(logical, err.line, err.column, err.code, err.message, err.hint, err.width)
        except CompileError as err:
            self.text_error(logical, err.line, err.column + shift, err.code, err.message, err.hint, err.width)
        except (SourceTooDeep, RecursionError):
            self.too_deep(logical)
        return code.index

    def procedure(self, name: str, locals_: dict[str, str]) -> None:
        """Compile a procedure's effect into its Code, and bind its call sites' name
        for its direct function (compile/direct.py) to it, or to None."""
        info = self.sym.procedures[name]
        spec = self.section("procedures")[name]
        self.program(spec.get("effect", ""), ("procedures", name, "effect"), locals_, self.codes[info.code],
                     direct=None if name in self.recursive else info.params)
        self.emitter.ns[procedure_alias(info.code)] = self.directs.get(info.code)

    # ---- the sections ----------------------------------------------------------------

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name) or {}
        return value if isinstance(value, dict) else {}

    def check_names(self) -> None:
        for section in ("counters", "zones", "values", "modifiers", "procedures", "functions", "constants",
                        "events", "boards"):
            for name in self.section(section):
                if name in RESERVED:
                    self.error((section, name), "reserved-name", f"'{name}' is a word of the effect language",
                               f"rename it, e.g. '{name}_count'", key=True)
                elif "-" in name:
                    self.error((section, name), "bad-name", f"'{name}': names used in effect text cannot contain '-'",
                               f"use '{name.replace('-', '_')}'", key=True)
        seen: dict[str, str] = {}
        for section in ("counters", "zones", "values", "procedures", "functions", "constants", "boards"):
            for name in self.section(section):
                if name in seen:
                    self.error((section, name), "duplicate-name",
                               f"'{name}' names both a {seen[name][:-1]} and a {section[:-1]}", key=True)
                seen.setdefault(name, section)

    def counters(self) -> tuple[CounterDef, ...]:
        result = []
        for i, (name, spec) in enumerate(self.section("counters").items()):
            keys = tuple(spec.get("keys") or ()) or None
            width = len(keys) if keys else int(spec.get("size", 1))
            initial_spec = spec.get("initial", 0)
            if isinstance(initial_spec, dict):
                initial = []
                for k in keys or ():
                    initial.append(int(initial_spec.get(k, 0)))
                for k in initial_spec:
                    if not keys or k not in keys:
                        self.error(("counters", name, "initial", k), "unknown-key",
                                   f"counter '{name}' has no key '{k}'", hint_for(k, keys or ()))
                initial_t = tuple(initial) if keys else (0,) * width
            elif isinstance(initial_spec, list):
                if len(initial_spec) != width:
                    self.error(("counters", name, "initial"), "bad-value", f"initial needs {width} numbers")
                initial_t = tuple(int(v) for v in initial_spec[:width]) + (0,) * max(0, width - len(initial_spec))
            else:
                initial_t = (int(initial_spec),) * width
            result.append(CounterDef(name, i, spec.get("scope", "player"), width, keys, initial_t,
                                     spec.get("min"), spec.get("max"), spec.get("visible", "all"),
                                     str(spec.get("label", name)), fractions=spec.get("fractions") is True))
        return tuple(result)

    def zones(self) -> tuple[ZoneDef, ...]:
        specs = self.section("zones")
        names = list(specs)
        result = []
        for i, (name, spec) in enumerate(specs.items()):
            refill = spec.get("refill") or {}
            refill_from = None
            if refill:
                source = refill.get("from")
                if source not in specs:
                    self.error(("zones", name, "refill", "from"), "unknown-name", f"no zone '{source}'",
                               hint_for(str(source), names))
                elif specs[source].get("scope", "player") != spec.get("scope", "player") and \
                        specs[source].get("scope", "player") == "player":
                    self.error(("zones", name, "refill", "from"), "bad-value",
                               "a shared zone cannot refill from a per-player zone")
                else:
                    refill_from = names.index(source)
            visible = spec.get("visible", "all")
            order = spec.get("order", "visible" if visible == "all" else "hidden")
            result.append(ZoneDef(name, i, spec.get("scope", "player"), visible, order == "visible", refill_from,
                                  bool(refill.get("shuffle", True)), str(spec.get("label", name))))
        return tuple(result)

    def collect_card_fields(self) -> None:
        """Card properties, plus every attribute some effect sets (`set c.x to ...`)."""
        for cid, spec in self.section("cards").items():
            self.sym.card_specs.append((cid, spec))
            self.sym.card_fields.update((spec.get("properties") or {}).keys())
            self.sym.card_effects.update((spec.get("effects") or {}).keys())
        for node in self.all_statements()[0]:
            if isinstance(node, ast.Set) and isinstance(node.target, ast.Attr):
                self.sym.card_fields.add(node.target.name)
                self.sym.written_fields.add(node.target.name)

    def all_statements(self) -> tuple[list[ast.Node], bool]:
        """Every node of every effect text that parses, and whether any did not (a syntax
        error is reported where its text is compiled). Read once, kept for the checks."""
        if self._all_nodes is None:
            nodes: list[ast.Node] = []
            broken = False
            for text in all_effect_texts(self.data):
                try:
                    nodes.extend(ast.walk(parse_program(text)))
                except EffectSyntaxError:
                    broken = True
            self._all_nodes = (nodes, broken)
        return self._all_nodes

    def build(self) -> GameDef:
        data = self.data
        self.check_names()
        counters = self.counters()
        zones = self.zones()
        sym = self.sym
        sym.counters = {c.name: c for c in counters}
        sym.zones = {z.name: z for z in zones}
        sym.constants = exact_constants(self.section("constants"))
        sym.boards = build_boards(self.section("boards"), self.error)
        sym.events = {name: tuple((spec or {}).get("params", ())) for name, spec in self.section("events").items()}
        for name in sym.events:
            if name in BUILTIN_EVENTS:
                self.error(("events", name), "reserved-name", f"'{name}' is a built-in event", key=True)
        sym.cards = {cid: i for i, cid in enumerate(self.section("cards"))}
        sym.groups = {str(a.get("during")) for a in self.section("actions").values()}
        sym.bots = set(self.section("bots"))
        fill_never(sym, data, self.section)
        players_spec = data.get("players") or {}
        sym.min_players = int(players_spec.get("min", 1)) if isinstance(players_spec, dict) else 1
        self.collect_card_fields()
        # Modifiers: global ones first, then cards' (indexes are stable in saves).
        mod_specs: list[tuple[str, dict[str, Any], int | None, tuple[Any, ...]]] = [
            (mid, spec, None, ("modifiers", mid)) for mid, spec in self.section("modifiers").items()]
        for ci, (cid, cspec) in enumerate(self.section("cards").items()):
            for mid, spec in (cspec.get("modifiers") or {}).items():
                mod_specs.append((f"{cid}.{mid}", spec, ci, ("cards", cid, "modifiers", mid)))
        sym.modifiers = {m[0]: i for i, m in enumerate(mod_specs)}
        value_specs = self.section("values")
        for i, (name, spec) in enumerate(value_specs.items()):
            base = spec.get("base", "0")
            # Known before any text is compiled (values may read each other): a literal
            # says its type; anything else may be any value (numbers, flags, lists...).
            text = str(base).strip()
            type_ = ("bool" if isinstance(base, bool) or text in ("true", "false")
                     else "int" if isinstance(base, int) or text.lstrip("-").isdigit() else "any")
            sym.values[name] = (i, spec.get("of", "player") == "player", type_)
        for name, spec in self.section("procedures").items():
            code = self.new_code(f"procedures.{name}")
            names, types = declared_params(spec)
            sym.procedures[name] = ProcInfo(name, names, code.index, types)

        for i, (name, spec) in enumerate(self.section("functions").items()):
            names, types = declared_params(spec)
            sym.functions[name] = ProcInfo(name, names, i, types)

        self.value_cycles(mod_specs, value_specs)
        # Now every name is known: compile.
        self.functions()
        modifiers = self.modifiers(mod_specs, value_specs)
        values = self.values(value_specs, modifiers)
        order, self.recursive = callees_first({name: spec.get("effect", "")
                                               for name, spec in self.section("procedures").items()})
        for name in order:
            info = sym.procedures[name]
            self.procedure(name, dict(zip(info.params, info.types, strict=True)))
        cards = build_cards(self)
        counters = with_totals(self, counters)
        values = define_values(self.emitter, values, {c.index: c.applies_to for c in cards if c.applies_to is not None})
        actions = self.actions()
        triggers = self.triggers()
        ends = self.ends()
        define_checks(self.emitter, ends)
        scoring = self.scoring()
        bots = self.bots()
        views = self.views()
        table = table_of(self, counters, tuple(zones))
        setup = self.program(data["setup"], ("setup",), {}, direct=(), seeded=True) if data.get("setup") else None
        flow = self.program(data["flow"], ("flow",), {}) if data.get("flow") else None
        sym.events["game_start"] = ()  # the engine fires it once, after setup (see new_state)
        start = self.program("emit game_start()", ("setup",), {}) if ("game_start", -1) in triggers else None
        del sym.events["game_start"]
        if flow is None:
            self.error(("id",), "missing-flow", "the game has no flow: nothing would ever happen",
                       "add a `flow:` with the game's rounds and turns")
        players = data.get("players") or {}
        min_p, max_p = int(players.get("min", 1)), int(players.get("max", players.get("min", 1)))
        if min_p > max_p:
            self.error(("players",), "bad-value", f"players.min ({min_p}) is more than players.max ({max_p})")
        elif not min_p <= int(players.get("default", min_p)) <= max_p:
            self.error(("players", "default"), "bad-value", f"players.default ({players['default']}) is not "
                       f"between players.min ({min_p}) and players.max ({max_p})")
        seat_rules = build_seat_rules(players, [*self.seat_kinds, *bots], self.error)
        seat_options = seat_options_of(self.section("seat_options"), self.seat_kinds, bots, self.error)
        retype_procedures(self)
        undeclared_types(self)
        if self.diagnostics:
            raise RuleFileError(self.diagnostics)
        groups: dict[str, tuple[ActionDef, ...]] = {}
        for action in actions:
            groups[action.group] = groups.get(action.group, ()) + (action,)
        fixed_listings = {g: fixed for g, acts in groups.items() if (fixed := fixed_listing(acts)) is not None}
        for wait in sym.waits:
            wait.fixed = fixed_listings.get(wait.group)
        return GameDef(
            id=str(data.get("id")), name=str(data.get("name")), version=str(data.get("version", "")),
            description=str(data.get("description", "")), data_hash=self.raw.data_hash,
            min_players=min_p, max_players=max_p, default_players=int(players.get("default", min_p)),
            variants=tuple(self.raw.variants), overlays=tuple(self.raw.overlays),
            available_variants={k: str((v or {}).get("description", "")) for k, v in self.section("variants").items()},
            constants=sym.constants, counters=counters, zones=zones, cards=cards, card_index=dict(sym.cards),
            actions=actions, groups=groups, triggers=triggers, values=values, modifiers=modifiers, ends=ends,
            scoring=scoring, bots=bots, codes=tuple(self.codes), setup=setup, flow=flow,
            setup_direct=None if setup is None else self.directs.get(setup),
            assumptions=tuple(assumptions_of(self.data)), source_files=tuple(self.raw.files), views=views,
            seat_rules=seat_rules, generated_code=tuple(self.emitter.listing),
            generated_names=tuple(self.emitter.constants()), start=start, seat_options=seat_options,
            variant_players=variant_players_of(self.section("variants")),
            fixed_listings=fixed_listings, table=table, warnings=tuple(self.warnings))

    def modifiers(self, specs: list[tuple[str, dict[str, Any], int | None, tuple[Any, ...]]],
                  value_specs: dict[str, Any]) -> tuple[ModifierDef, ...]:
        result = []
        for i, (mid, spec, card, logical) in enumerate(specs):
            value = spec.get("value")
            if value not in self.sym.values:
                self.error(logical + ("value",), "unknown-name", f"no value '{value}' (declare it under values:)",
                           hint_for(str(value), self.sym.values))
                continue
            vi = self.sym.values[value][0]
            locals_ = {"p": "player", "me": "player"}
            if card is not None:
                locals_.update(this="card", owner="player")
            amount = self.expr(spec.get("amount"), logical + ("amount",), locals_, "any")
            when = self.expr(spec["when"], logical + ("when",), locals_, "bool") if "when" in spec else None
            if amount is None or ("when" in spec and when is None):
                continue
            result.append(ModifierDef(mid, i, vi, spec.get("op", "add"), amount[0],
                                      when[0] if when else None, bool(spec.get("granted", False)), card))
        return tuple(result)

    def functions(self) -> None:
        """The game's functions (functions.py): locals, result types, no recursion."""
        compile_functions(self, RESERVED)

    def value_cycles(self, mod_specs: list[tuple[str, dict[str, Any], int | None, tuple[Any, ...]]],
                     value_specs: dict[str, Any]) -> None:
        """A value read while it is worked out (by its base or its modifiers, through
        other values and functions) would never be worked out: an error here."""
        texts: dict[str, list[Any]] = {name: [spec.get("base")] for name, spec in value_specs.items()}
        cards = list(self.section("cards").values())
        for _, spec, card, _ in mod_specs:
            reach = (cards[card] or {}).get("applies_to") if card is not None else None  # its modifiers' reach
            texts.get(str(spec.get("value")), []).extend((spec.get("amount"), spec.get("when"), reach))
        for name, spec in self.section("functions").items():
            texts.setdefault(name, []).extend(texts_of(spec) if isinstance(spec, dict) else [])
        cycles = self_dependent({name: names_read(found) for name, found in texts.items()})
        for name, way in cycles.items():
            if name in value_specs:
                self.error(("values", name), "recursion", f"value '{name}' depends on itself ({' -> '.join(way)}): "
                           "it could never be worked out", "its base and its modifiers' amounts and conditions "
                           "cannot read it, directly or through other values and functions", key=True)

    def values(self, specs: dict[str, Any], modifiers: tuple[ModifierDef, ...]) -> tuple[ValueDef, ...]:
        result = []
        for name, spec in specs.items():
            vi, of_player, type_ = self.sym.values[name]
            locals_ = {"p": "player"} if of_player else {}
            base = self.expr(spec.get("base", "0"), ("values", name, "base"), locals_, "any")
            fn = base[0] if base else (lambda st, env: 0)
            result.append(ValueDef(name, vi, of_player, fn, type_, tuple(m for m in modifiers if m.value == vi)))
        return tuple(result)

    def actions(self) -> tuple[ActionDef, ...]:
        result = []
        for i, (aid, spec) in enumerate(self.section("actions").items()):
            logical = ("actions", aid)
            locals_: dict[str, str] = {"me": "player"}
            params = []
            for pname, pspec in (spec.get("params") or {}).items():
                where = logical + ("params", pname)
                domain_text = pspec.get("in") if isinstance(pspec, dict) else pspec
                compiled = self.expr(domain_text, where + (("in",) if isinstance(pspec, dict) else ()), locals_, "any")
                locals_[pname] = "any"  # a broken parameter is still a name (no follow-on "unknown name")
                if compiled is None:
                    continue
                fn, type_ = compiled
                if not is_list(type_):
                    self.error(where, "type", f"parameter '{pname}' needs a list of choices, got {describe(type_)}")
                    continue
                elem = elem_of(type_)
                declared = declared_values(pspec, where, elem, self.error) if isinstance(pspec, dict) else None
                elem = declared_type(pspec, declared, elem)
                params.append(Param(pname, fn, elem, declared))
                locals_[pname] = elem
            condition = None
            if "condition" in spec:
                compiled = self.expr(spec["condition"], logical + ("condition",), locals_, "bool")
                condition = compiled[0] if compiled else None
            cost = compile_cost(self, spec.get("cost"), logical + ("cost",), locals_)
            code = self.program(spec.get("effect", ""), logical + ("effect",), locals_,
                                direct=tuple(spec.get("params") or ()))
            self.codes[code].kind = "action"  # its end is where `check: action` ends are checked
            limits = tuple((scope.removeprefix("per_"), int(n)) for scope, n in (spec.get("limit") or {}).items())
            label = str(spec.get("label", aid))
            try:
                label_parts = tuple(compile_template(label, self.context(locals_, logical + ("label",), pure=True)))
            except CompileError as err:
                self.text_error(logical + ("label",), err.line, err.column, err.code, err.message, err.hint, err.width)
                label_parts = ()
            action = ActionDef(aid, i, str(spec.get("during")), tuple(params), condition, cost, code,
                               limits, spec.get("ends") == "turn", label, label_parts,
                               why_not=why_not_of(self, spec.get("why_not") or (), logical + ("why_not",), locals_))
            counters, card_ids = tuple(self.sym.counters.values()), [cid for cid, _ in self.sym.card_specs]
            result.append(attrs.evolve(action, lister=make_lister(self.emitter, action, counters, card_ids),
                                       direct=self.directs.get(code)))
        return tuple(result)

    def triggers(self) -> dict[tuple[str, int], tuple[TriggerDef, ...]]:
        table: dict[tuple[str, int], tuple[TriggerDef, ...]] = {}
        entries: list[tuple[str, dict[str, Any], int | None, tuple[Any, ...]]] = [
            (tid, spec, None, ("triggers", tid)) for tid, spec in self.section("triggers").items()]
        for ci, (cid, cspec) in enumerate(self.section("cards").items()):
            for tid, spec in (cspec.get("triggers") or {}).items():
                entries.append((f"{cid}.{tid}", spec, ci, ("cards", cid, "triggers", tid)))
        for tid, spec, card, logical in entries:
            parsed = self.event(str(spec.get("on", "")), logical + ("on",))
            if parsed is None:
                continue
            event, subject, locals_ = parsed
            if card is not None:
                locals_ = {**locals_, "this": "card", "owner": "player"}
            when = None
            if "when" in spec:
                compiled = self.expr(spec["when"], logical + ("when",), locals_, "bool")
                when = compiled[0] if compiled else None
            code = self.program(spec.get("effect", ""), logical + ("effect",), locals_)
            trig = TriggerDef(tid, event, subject, when, code, card)
            table[(event, subject)] = table.get((event, subject), ()) + (trig,)
        return table

    def event(self, text: str, logical: tuple[Any, ...]) -> tuple[str, int, dict[str, str]] | None:
        words = text.split()
        if not words:
            self.error(logical, "bad-event", "say which event: e.g. 'entered hand' or 'turn_start'")
            return None
        name, rest = words[0], words[1:]
        name = EVENT_ALIASES.get(name, name)
        if name in BUILTIN_EVENTS:
            kind, locals_ = BUILTIN_EVENTS[name]
            if kind is None:
                if rest:
                    self.error(logical, "bad-event", f"event '{name}' takes no subject")
                    return None
                return name, -1, dict(locals_)
            table: dict[str, Any] = self.sym.counters if kind == "counter" else self.sym.zones
            if len(rest) != 1 or rest[0] not in table:
                subject = rest[0] if rest else ""
                self.error(logical, "bad-event", f"event '{name}' needs a {kind}: '{name} <{kind}>'",
                           hint_for(subject, table) if subject else None)
                return None
            return name, table[rest[0]].index, dict(locals_)
        if name in self.sym.events and not rest:
            return name, -1, {p: "any" for p in self.sym.events[name]}
        self.error(logical, "bad-event", f"unknown event '{text}'",
                   hint_for(name, list(BUILTIN_EVENTS) + list(self.sym.events)))
        return None

    def ends(self) -> tuple[EndDef, ...]:
        result = []
        for i, spec in enumerate(self.data.get("end") or ()):
            logical = ("end", i)
            when = self.expr(spec.get("when"), logical + ("when",), {"me": "player"}, "bool")
            winners = None
            if "winners" in spec:
                compiled = self.expr(spec["winners"], logical + ("winners",), {"me": "player"}, "any")
                winners = compiled[0] if compiled else None
            if when is not None:
                result.append(EndDef(str(spec.get("id", f"end-{i}")), when[0], spec.get("check", "action"),
                                     spec.get("then", "end"), winners, str(spec.get("label") or "")))
            self.check_scope_exists(spec, logical)
        return tuple(result)

    def check_scope_exists(self, spec: dict[str, Any], logical: tuple[Any, ...]) -> None:
        """`check: round` and `then: finish_round` happen at the end of a `round:` block
        (`turn`/`finish_turn`, of a `turn P:` block); with no such block in any effect
        text, the condition would never be checked or the game never end."""
        scopes = {"round": (ast.Round, "round:"), "turn": (ast.Turn, "turn P:")}
        wanted = []
        if spec.get("check") in scopes:
            wanted.append(("check", f"check: {spec['check']}", scopes[spec["check"]]))
        then = spec.get("then", "end")
        if then in ("finish_round", "finish_turn"):
            wanted.append(("then", f"then: {then}", scopes[then.removeprefix("finish_")]))
        if not wanted:
            return
        nodes, broken = self.all_statements()
        if broken:
            return  # a syntax error, reported where the text is compiled; do not guess here
        kinds = {type(node) for node in nodes}
        for key, said, (node_type, words) in wanted:
            if node_type not in kinds:
                self.error(logical + (key,), "bad-value",
                           f"'{said}' happens at the end of a `{words}` block, but no effect has one",
                           f"put the flow's turns in `{words}` blocks, or use "
                           f"{'check: action' if key == 'check' else 'then: end'}")

    def scoring(self) -> Scoring:
        spec = self.data.get("scoring") or {}
        locals_ = {"p": "player", "me": "player"}

        def one(key: str, want: str) -> Expr | None:
            if key not in spec:
                return None
            compiled = self.expr(spec[key], ("scoring", key), locals_, want)
            return compiled[0] if compiled else None
        ties = []
        for i, text in enumerate(spec.get("tie_breaks") or ()):
            compiled = self.expr(text, ("scoring", "tie_breaks", i), locals_, "int")
            if compiled:
                ties.append(compiled[0])
        parts = []
        for i, part in enumerate(spec.get("parts") or ()):
            compiled = self.expr(part.get("score"), ("scoring", "parts", i, "score"), locals_, "int")
            if compiled:
                parts.append(ScorePart(str(part.get("label", "")), compiled[0]))
        return Scoring(one("eligible", "bool"), one("score", "int"), tuple(ties), one("returns", "int"),
                       tuple(parts), str(spec.get("ineligible") or ""))

    def bots(self) -> dict[str, BotDef]:
        result = {}
        for bid, spec in self.section("bots").items():
            if bid in self.seat_kinds:
                self.error(("bots", bid), "reserved-name", f"'{bid}' is a built-in seat", key=True)
            turn = self.program(spec["turn"], ("bots", bid, "turn"), {"me": "player"}) if spec.get("turn") else None
            result[bid] = BotDef(bid, str(spec.get("description", "")), turn, str(spec.get("choose", "random")))
        return result

    def views(self) -> tuple[ViewDef, ...]:
        result = []
        for vid, spec in self.section("views").items():
            logical = ("views", vid, "text")
            try:
                parts = compile_template(str(spec.get("text", "")), self.context({"me": "player"}, logical, pure=True))
            except CompileError as err:
                self.text_error(logical, err.line, err.column, err.code, err.message, err.hint, err.width)
                continue
            result.append(ViewDef(vid, str(spec.get("label", vid)), tuple(parts)))
        return tuple(result)


def build(raw: RawGame, seat_kinds: Mapping[str, tuple[str, ...]]) -> GameDef:
    """The GameDef of merged raw rules; `seat_kinds` are the kinds of seat the engine
    knows besides the game's own bots, with the options each takes (the game layer
    passes its registry's).

    When the schema stage found errors, meaning is checked too, so all mistakes come at
    once (no code is compiled for such rules: see Builder), but a shape the builder does
    not expect never hides the schema's findings."""
    pending = list(raw.schema_diagnostics)
    builder = Builder(raw, seat_kinds)
    try:
        game = builder.build()
    except UnsafeSource as err:
        found = [*builder.diagnostics, builder.unsafe(err)]
    except (SourceTooDeep, RecursionError):  # (outside a text's own compiling: at the rule last compiled)
        builder.too_deep(builder.place)
        found = list(builder.diagnostics)
    except RuleFileError as err:
        found = list(err.diagnostics)
    except NotCompiled:  # code of rules with errors was called while building: those errors
        found = list(builder.diagnostics)
        if not found and not pending:
            raise
    except Exception:  # a badly shaped file: the schema errors say why
        if not pending:
            raise
        found = []
    else:
        if not pending:  # the rules as a whole, analysed once: the runtime reads the findings
            return attrs.evolve(game, facts=find_facts(game, raw.data))
        found = []
    seen = {(d.path, d.line) for d in pending}
    found = [d for d in found if (d.path, d.line) not in seen]  # not the same mistake twice
    raise RuleFileError([*pending, *found])


__all__ = ["CONTEXT_NAMES", "Builder", "build"]
