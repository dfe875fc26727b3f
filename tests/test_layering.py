"""The engine's layout is its pipeline: imports point one way, down it, and no module
imports itself back, not even through a lazy import inside a function.

Layers, bottom first (a module may import its own package and lower layers only):
  0  diagnostics, resources, version,  errors, data folders, the version,
     limits                            the engine's hard limits (sizes, numbers)
  1  model, numbers                     the compiled game definition (plain records); exact fractions
  2  lang, rules                        effect language; rule files (YAML, schema, overlays)
  3  analysis, runtime                  the rules read as a whole, once (facts on the model);
                                        state, run loop, primitives, decisions, saves
  4  compile                            checked AST -> operations over the runtime
  5  agents                             seat registry, agent protocol, built-in agents
  6  game                               Game and load_game: the pipeline's entry
  7  play                               runner, simulate, logs, describe text, terminal
  8  web                                the browser table (`orrery serve`)
  9  cli                               the command line, on top
 10  __main__, the package itself      `python -m interpreter`, the public API
 11  adapters                           OpenSpiel and PettingZoo over the public API
 12  openspiel, pettingzoo              `interpreter.openspiel`, `interpreter.pettingzoo`

Type-only imports (under `if TYPE_CHECKING:`) never run, so they are not edges of the
cycle check, but they must respect the layers like every other import.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "interpreter"
LAYERS = {
    "interpreter.diagnostics": 0, "interpreter.resources": 0, "interpreter.version": 0, "interpreter.limits": 0,
    "interpreter.model": 1, "interpreter.numbers": 1,
    "interpreter.lang": 2, "interpreter.rules": 2,
    "interpreter.analysis": 3, "interpreter.runtime": 3,
    "interpreter.compile": 4,
    "interpreter.native": 5,
    "interpreter.agents": 6,
    "interpreter.game": 7,
    "interpreter.play": 8,
    "interpreter.web": 9,
    "interpreter.cli": 10, "interpreter.__main__": 11, "interpreter": 11,
    "interpreter.adapters": 12,
    "interpreter.openspiel": 13, "interpreter.pettingzoo": 13,
}
MAX_LINES = 700


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit(module: str) -> str:
    """The layered unit a module belongs to: its subpackage, or itself at the top."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def imports_of(source: str, module: str, is_package: bool) -> list[tuple[str, bool, int]]:
    """(imported interpreter module, type-only?, line) for every import in `source`."""
    tree = ast.parse(source)
    type_only_lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                type_only_lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against this module's package
                package = module.split(".") if is_package else module.split(".")[:-1]
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            if name == "interpreter" or name.startswith("interpreter."):
                found.append((name, node.lineno in type_only_lines, node.lineno))
    return found


def resolve(name: str, modules: set[str]) -> str | None:
    """The module an imported name is (a name may be `package.function`)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def layer_of(module: str) -> int:
    return LAYERS[unit(module)]


def problems_in(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Backward imports, imports across one layer's packages, and import cycles."""
    modules = set(sources)
    found: list[str] = []
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module, (source, is_package) in sources.items():
        for name, type_only, line in imports_of(source, module, is_package):
            target = resolve(name, modules)
            if target is None or target == module:
                continue
            if target == "interpreter" and name != "interpreter":
                continue  # `from interpreter import x` resolved to a submodule above
            here, there = layer_of(module), layer_of(target)
            if there > here or (there == here and unit(target) != unit(module)):
                found.append(f"{module}:{line} imports {target} (layer {there} from layer {here})")
            if not type_only:
                graph[module].add(target)
    found += [f"import cycle: {' -> '.join(cycle)}" for cycle in cycles(graph)]
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return result


def package_sources() -> dict[str, tuple[str, bool]]:
    return {module_name(p): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in PACKAGE.rglob("*.py") if "_bundled" not in p.parts}


def test_every_module_has_a_layer() -> None:
    missing = sorted({unit(m) for m in package_sources()} - set(LAYERS))
    assert not missing, f"modules with no layer in LAYERS: {missing}"


def test_imports_point_down_the_pipeline_and_never_cycle() -> None:
    assert problems_in(package_sources()) == []


def rule_text_readers(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Imports of the effect language, the rule files or their analysis by the runtime."""
    return [f"{module}:{line} imports {name}" for module, (source, is_package) in sources.items()
            if unit(module) == "interpreter.runtime"
            for name, _, line in imports_of(source, module, is_package)
            if unit(name) in ("interpreter.lang", "interpreter.rules", "interpreter.analysis")]


def test_the_runtime_never_reads_rule_text() -> None:
    """The runtime knows the rules only as the model records them: it imports neither the
    effect language nor the rule files (what it needs of their text, the analysis found
    when the rules loaded and recorded on the definition)."""
    assert rule_text_readers(package_sources()) == []
    sources = package_sources()
    source, is_package = sources["interpreter.runtime.rng"]
    planted = "\ndef later():\n    from interpreter.lang import parser\n"
    sources["interpreter.runtime.rng"] = (source + planted, is_package)
    assert "interpreter.runtime.rng:" + str(len(source.splitlines()) + 3) + " imports interpreter.lang.parser" \
        in rule_text_readers(sources)


def regex_users(sources: dict[str, tuple[str, bool]]) -> list[str]:
    """Modules of the code generator that import `re`: generated code is a syntax tree,
    read and rewritten as one (compile/pyast.py), never as text."""
    return [f"{module}:{node.lineno}" for module, (source, _) in sources.items()
            if unit(module) == "interpreter.compile"
            for node in ast.walk(ast.parse(source))
            if (isinstance(node, ast.Import) and any(a.name.split(".")[0] == "re" for a in node.names))
            or (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "re" and not node.level)]


def test_the_code_generator_rewrites_no_text() -> None:
    sources = package_sources()
    assert regex_users(sources) == []
    source, is_package = sources["interpreter.compile.fusion"]
    sources["interpreter.compile.fusion"] = ("import re\n" + source, is_package)
    assert regex_users(sources) == ["interpreter.compile.fusion:1"]


def test_no_module_is_over_700_lines() -> None:
    long = {m: len(s.splitlines()) for m, (s, _) in package_sources().items() if len(s.splitlines()) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_at_least_three_subpackages() -> None:
    assert len([p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()]) >= 3


@pytest.mark.parametrize("planted, expected", [
    ("from interpreter.play.runner import run\n", "imports interpreter.play.runner"),
    ("def later():\n    from interpreter.cli import main\n", "imports interpreter.cli"),
    ("if TYPE_CHECKING:\n    from interpreter.game import Game\n", "imports interpreter.game"),
    ("from interpreter.rules import loader\n", "imports interpreter.rules.loader"),
])
def test_the_check_fails_on_a_backward_import(planted: str, expected: str) -> None:
    sources = package_sources()
    source, is_package = sources["interpreter.lang.ast"]
    sources["interpreter.lang.ast"] = (source + "\n" + planted, is_package)
    assert any(expected in p for p in problems_in(sources))


def test_the_check_fails_on_a_lazy_import_cycle() -> None:
    sources = package_sources()
    source, is_package = sources["interpreter.runtime.rng"]
    planted = "def later():\n    from interpreter.runtime.state import State\n"
    sources["interpreter.runtime.rng"] = (source + "\n" + planted, is_package)
    assert any(p.startswith("import cycle") and "interpreter.runtime.rng" in p for p in problems_in(sources))


def test_the_engine_names_no_card_or_bot_of_a_bundled_game() -> None:
    """interpreter/ stays generic: no bundled game's card id or bot name in its code or
    docstrings (examples in them use made-up names such as `widget`)."""
    from interpreter.rules.loader import bundled_entries, load_raw

    names: set[str] = set()
    for entry in bundled_entries():
        if entry["kind"] in ("game", "example"):
            rules = load_raw(entry["id"]).data  # (the merged files, includes too: no need to compile them)
            names |= {card for card in rules.get("cards") or {} if len(card) >= 6}
            names |= set(rules.get("bots") or {}) - {"bot"}
    assert len(names) > 200  # the check reads the bundled games (239 names)
    # A name is found where it is a whole run of word characters and hyphens: each
    # source is split into those runs once (a pattern per name and module took seconds).
    odd = {name for name in names if not re.fullmatch(r"[\w-]+", name)}
    found = []
    for m, (source, _) in package_sources().items():
        words = set(re.findall(r"[\w-]+", source))
        found += [(m, name) for name in sorted(names - odd) if name in words]
        found += [(m, name) for name in sorted(odd) if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", source)]
    assert not found, f"game-specific names in interpreter/: {found}"
