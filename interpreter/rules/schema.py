"""JSON Schema checks of rule files, reported as diagnostics in plain words.

The schemas (`schema/game.schema.json`, `overlay.schema.json`, `include.schema.json`) are the contract
of the file format: every key is known, every enumerated value listed. `check` runs one
over a loaded YAML document and turns each jsonschema error into a `Diagnostic` with
the line and column of the offending key or value.

Two of jsonschema's Python readings differ from what the schema says, and both are
read as the schema's own standard means them (`Validator` below):
- `pattern`: Python's `re.search` lets `$` match before a final line break, so an id
  `"end\\n"` would pass `^[a-z]+$`; ECMA-262's `$` (the schema's regex dialect) is the
  end of the text. A line break in an id is how rule text once reached generated code.
- `integer`: jsonschema counts `1.0` (and `1.0e300`) as an integer; a rule file's
  integer is a YAML integer, so a float is refused where the schema says integer
  (every later stage may then trust its numbers to be exact ints within bounds).
"""

from __future__ import annotations

import functools
import json
import pathlib
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import jsonschema
import jsonschema.exceptions
from jsonschema import Draft202012Validator

from interpreter.diagnostics import Diagnostic, hint_for
from interpreter.resources import data_path

if TYPE_CHECKING:
    from interpreter.rules.positions import Located, PositionMap

KINDS = ("game", "overlay", "include")  # an included file: sections only
CODE = "schema"

# How each overlay operation is written (docs/format.md), for the hints of badly shaped
# ones: in overlay files and in variants, which are inline overlays.
OVERLAY_EXAMPLES = {
    "add": "add: {cards: {new-card: {name: New card, count: 1}}}",
    "replace": "replace: {cards: {some-card: {name: Some card, count: 2}}}",
    "patch": 'patch: {cards: {some-card: {effects: {play: "gain 3 credits"}}}}',
    "remove": "remove: {cards: [some-card]}",
    "set": 'set: {flow: "...", players: {min: 1, max: 4}}',
}

_TYPE_WORDS = {
    "integer": "an integer",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a map",
    "array": "a list",
    "null": "empty",
}


def schema_path(kind: str) -> pathlib.Path:
    """The JSON Schema file for `kind` ("game", "overlay" or "include")."""
    if kind not in KINDS:
        raise ValueError(
            f"unknown schema kind {kind!r}; expected one of {', '.join(KINDS)}"
        )
    return data_path("schema") / f"{kind}.schema.json"


@functools.cache
def load_schema(kind: str) -> dict[str, Any]:
    """The parsed JSON Schema for `kind` (cached; do not mutate)."""
    with schema_path(kind).open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


_END_ANCHOR = re.compile(r"(?<!\\)\$")  # an unescaped `$` (the schemas put none in a [class])


@functools.cache
def _python_pattern(pattern: str) -> re.Pattern[str]:
    """`pattern` (ECMA-262, no flags) as a Python regex with the same meaning: its end
    anchors `\\Z`, the end of the text and nothing before it."""
    return re.compile(_END_ANCHOR.sub(r"\\Z", pattern))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterable[jsonschema.ValidationError]:
    if validator.is_type(instance, "string") and not _python_pattern(pattern).search(instance):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


def _is_integer(checker: Any, instance: Any) -> bool:
    return type(instance) is int  # (not bool, not a float that happens to be whole)


Validator = jsonschema.validators.extend(
    Draft202012Validator, {"pattern": _pattern},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


def matches(pattern: str, text: str) -> bool:
    """Whether `text` matches a schema `pattern` as the schema means it (anchors at the
    very end); for the checks outside jsonschema that read the schemas' patterns."""
    return _python_pattern(pattern).search(text) is not None


@functools.cache
def _validator(kind: str) -> Any:
    return Validator(load_schema(kind))


def check(data: object, positions: PositionMap, kind: str) -> list[Diagnostic]:
    """Every schema violation of `data` (a loaded rule file of `kind`), sorted by place."""
    found: list[Diagnostic] = []
    seen: set[tuple[int, int, str]] = set()
    for error in _validator(kind).iter_errors(data):
        for diagnostic in _diagnose(error, positions):
            key = (diagnostic.line, diagnostic.column, diagnostic.message)
            if key not in seen:
                seen.add(key)
                found.append(diagnostic)
    found.sort(key=lambda d: (d.line, d.column))
    return found


# --- turning one error into diagnostics ------------------------------------------------


def _diagnose(
    error: jsonschema.exceptions.ValidationError, positions: PositionMap
) -> list[Diagnostic]:
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        return _unknown_keys(error, path, positions)
    if "propertyNames" in error.absolute_schema_path:
        # the instance is a key of the map at `path`
        name = error.instance
        return [
            _make(
                positions,
                _key_place(positions, path + (name,), path),
                f"{_describe_name(name)} in {_where(path)} is not a valid name: {_name_rule(error)}",
                _name_hint(
                    name,
                    error.validator_value if error.validator == "pattern" else None,
                ),
                key=name,
            )
        ]
    if error.validator == "required":
        missing = [
            name
            for name in error.validator_value
            if isinstance(error.instance, dict) and name not in error.instance
        ]
        place = _key_place(positions, path, path) if path else positions.nearest(path)
        suffix = f" in {_where(path)}" if path else ""
        return [
            _make(positions, place, f"missing required key '{name}'{suffix}", None)
            for name in missing
        ]
    error = _deepest_reason(error)
    message, hint = _explain(error)
    return [
        _make(positions, positions.nearest(tuple(error.absolute_path)), message, hint)
    ]


def _unknown_keys(
    error: jsonschema.exceptions.ValidationError,
    path: tuple[Any, ...],
    positions: PositionMap,
) -> list[Diagnostic]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    allowed = list(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    instance = error.instance
    extras = [
        key
        for key in instance
        if key not in allowed
        and not any(matches(pattern, str(key)) for pattern in patterns)
    ]
    out = []
    where = f"in {_where(path)}" if path else "at the top level"
    for key in extras:
        hint = hint_for(str(key), allowed)
        if hint is None and allowed:
            hint = "allowed keys: " + ", ".join(allowed)
        out.append(
            _make(
                positions,
                _key_place(positions, path + (key,), path),
                f"unknown key {_show(key)} {where}",
                hint,
                key=key,
            )
        )
    return out


def _deepest_reason(
    error: jsonschema.exceptions.ValidationError,
) -> jsonschema.exceptions.ValidationError:
    """For anyOf/oneOf: the error of the branch that fits best, unless no branch's type fits."""
    while error.validator in ("anyOf", "oneOf") and error.context:
        wrong_type = [
            sub
            for sub in error.context
            if sub.validator == "type" and not sub.relative_path
        ]
        others = [sub for sub in error.context if sub not in wrong_type]
        if not others:
            return error  # explained as "must be X or Y"
        best = jsonschema.exceptions.best_match(others)
        if best is None:
            return error
        error = best
    return error


def _explain(error: jsonschema.exceptions.ValidationError) -> tuple[str, str | None]:
    """A sentence and an optional hint for an error about a value."""
    where = _where(tuple(error.absolute_path)) or "the file"
    value = error.instance
    kind = error.validator
    expected = error.validator_value
    if kind in ("anyOf", "oneOf") and error.context:
        types: list[str] = []
        for sub in error.context:
            types.extend(_as_list(sub.validator_value))
        return _type_message(where, types, value)
    if kind == "type":
        message, hint = _type_message(where, _as_list(expected), value)
        return message, hint or overlay_hint(tuple(error.absolute_path))
    if kind == "enum":
        choices = [str(choice) for choice in expected]
        hint = hint_for(str(value), choices) if isinstance(value, str) else None
        if hint is None:
            hint = f"got {_show(value)}"
        return f"{where} must be one of: {', '.join(choices)}", hint
    if kind == "const":
        return f"{where} must be {_show(expected)}, not {_show(value)}", None
    if kind == "pattern":
        return (
            f"{where} {_show(value)} is not a valid name: {_name_rule(error)}",
            _name_hint(value, expected),
        )
    if kind == "minimum":
        return f"{where} must be at least {expected}, not {_show(value)}", None
    if kind == "minItems":
        noun = "item" if expected == 1 else "items"
        return f"{where} must have at least {expected} {noun}", None
    return f"{where}: {error.message}", None


def overlay_hint(path: tuple[Any, ...]) -> str | None:
    """How to write the overlay operation at `path` (an operation, one of its sections
    or an id it removes), or a variant's body; None elsewhere."""
    if path[:1] == ("variants",):
        if len(path) == 2:
            return "a variant is an inline overlay: e.g. {description: ..., remove: {cards: [some-card]}}"
        path = path[2:]
    op = path[0] if path else None
    if op not in OVERLAY_EXAMPLES or len(path) > 3 or (len(path) == 3 and op != "remove"):
        return None
    example = OVERLAY_EXAMPLES[str(op)]
    if len(path) >= 2 and op != "set":
        example = example.replace("cards", str(path[1]))
    return f"e.g. {example}"


def _type_message(
    where: str, types: Sequence[str], value: object
) -> tuple[str, str | None]:
    words = [_TYPE_WORDS.get(name, name) for name in dict.fromkeys(types)]
    wanted = " or ".join(words)
    hint = None
    if "string" in types and isinstance(value, (int, float, bool)):
        hint = f'put the value in quotes: "{_scalar(value)}"'
    elif (
        "boolean" in types
        and isinstance(value, str)
        and value.lower() in ("yes", "no", "on", "off", "y", "n")
    ):
        hint = "only true and false are booleans in orrery files"
    return f"{where} must be {wanted}, not {_show(value)}", hint


# --- helpers ------------------------------------------------------------------------------


def _make(
    positions: PositionMap,
    place: Located,
    message: str,
    hint: str | None,
    key: object = None,
) -> Diagnostic:
    try:
        source: str | None = positions.source_line(place.line)
    except (IndexError, ValueError, KeyError):
        source = None
    width = 1
    if key is not None:
        width = len(str(key)) + (2 if place.style in ("'", '"') else 0)
    return Diagnostic(
        path=positions.path,
        line=place.line,
        column=place.column,
        code=CODE,
        message=message,
        hint=hint,
        source_line=source or None,
        width=width,
    )


def _key_place(
    positions: PositionMap, keypath: tuple[Any, ...], fallback: tuple[Any, ...]
) -> Located:
    place = positions.key(keypath)
    return place if place is not None else positions.nearest(fallback)


def _where(path: Iterable[Any]) -> str:
    """`cards.jack.count`, `end[0].when`: a key path as people write it."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + str(part)
    return text


def _as_list(value: object) -> list[str]:
    if isinstance(value, list):
        return [str(item) for item in value]
    return [str(value)]


def _scalar(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _show(value: object) -> str:
    """A value as people would write it in a message."""
    if isinstance(value, str):
        return f"'{value}'" if len(value) <= 40 else f"'{value[:37]}...'"
    if value is None:
        return "empty (null)"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    return _scalar(value)


def _describe_name(name: object) -> str:
    return f"name {_show(name)}"


def _name_rule(error: jsonschema.exceptions.ValidationError) -> str:
    pattern = error.validator_value if error.validator == "pattern" else None
    if isinstance(pattern, str) and "-" not in pattern:
        return "use lowercase letters, digits and '_', starting with a letter"
    return "use lowercase letters, digits, '-' and '_', starting with a letter"


def _name_hint(name: object, pattern: object) -> str | None:
    if not isinstance(name, str):
        return None
    guess = re.sub(r"[^a-z0-9_-]+", "-", name.strip().lower()).strip("-_")
    guess = re.sub(r"^[^a-z]+", "", guess)
    if isinstance(pattern, str) and not matches(pattern, guess):
        guess = guess.replace("-", "_")
    if (
        not guess
        or guess == name
        or (isinstance(pattern, str) and not matches(pattern, guess))
    ):
        return None
    return f"did you mean '{guess}'?"
