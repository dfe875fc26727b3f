"""Generates schema/game.schema.json and schema/overlay.schema.json.

Run from the repository root after changing the format: `python schema/generate.py schema`.
The JSON files are what ships and what editors read; this script is their source.
"""

from __future__ import annotations

import copy
import json
import pathlib
import sys

ID_PATTERN = "^[a-z][a-z0-9_-]*$"
NAME_PATTERN = "^[a-z][a-z0-9_]*$"

SECTIONS = [
    "constants", "counters", "zones", "cards", "values", "modifiers",
    "procedures", "actions", "triggers", "events", "variants", "bots", "views", "functions", "card_types", "boards",
    "seat_options",
]
# definition name of one entry of each section
ENTRY = {
    "counters": "counter", "zones": "zone", "cards": "card", "values": "value",
    "modifiers": "modifier", "procedures": "procedure", "actions": "action",
    "triggers": "trigger", "events": "event", "variants": "variant", "bots": "bot",
    "views": "view", "functions": "function", "card_types": "card_type", "boards": "board",
    "seat_options": "seat_option",
}
# The parameters of a function or procedure: names, or names with their types.
PARAM_TYPE_WORDS = ["any", "number", "numbers", "text", "texts", "truth", "player", "players", "card", "cards"]
TYPED_PARAMS = {
    "oneOf": [
        {"type": "array", "items": {"type": "string", "pattern": NAME_PATTERN}},
        {"type": "object", "propertyNames": {"pattern": NAME_PATTERN},
         "additionalProperties": {"enum": PARAM_TYPE_WORDS}},
    ],
    "description": "Parameter names ([hand, p]), or names with their types ({hand: cards, p: player}): a "
                   "declared type is checked at every call and decides how the value prints.",
    "examples": [["p"], {"hand": "cards", "p": "player"}],
}
SET_KEYS = ["setup", "flow", "players", "end", "scoring", "table", "utility", "max_moves", "description", "name"]


def ref(name: str, description: str | None = None) -> dict:
    out: dict = {"$ref": f"#/definitions/{name}"}
    if description:
        out["description"] = description
    return out


def text(description: str, examples: list | None = None) -> dict:
    out: dict = {"type": "string", "description": description}
    if examples:
        out["examples"] = examples
    return out


def obj(properties: dict, required: list[str] | None = None, description: str | None = None) -> dict:
    out: dict = {"type": "object"}
    if description:
        out["description"] = description
    out["properties"] = properties
    out["additionalProperties"] = False
    if required:
        out["required"] = required
    return out


def id_map(entry: dict, description: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "propertyNames": ref("id"),
        "additionalProperties": entry,
    }


def copies_schema() -> dict:
    """A numbered deck: the copies of one card, each a card of its own (`copies:`)."""
    entry = obj({
        "name": text("This copy's name (a template over its properties); default: the card's `name` filled in."),
        "text": text("This copy's printed text (a template over its properties); default: the card's."),
        "count": {"type": "integer", "minimum": 0, "description": "Copies of this entry; default: the card's `count`."},
        "properties": {"type": "object", "description": "This copy's properties, over the card's."},
    }, None, "One copy: its own properties and, optionally, its own name.")
    values = {"anyOf": [
        {"type": "array", "items": {"type": ["string", "integer", "boolean"]},
         "description": "The values, in order."},
        obj({"from": {"type": "integer", "description": "The first number."},
             "to": {"type": "integer", "description": "The last number (included)."}},
            ["from", "to"], "Every whole number from `from` to `to`."),
    ]}
    each = obj({"each": {"type": "object", "propertyNames": {"pattern": NAME_PATTERN},
                         "additionalProperties": values,
                         "description": "Property -> its values (a list, or {from, to}): one copy per "
                                        "combination, the first property varying slowest."}},
               ["each"], "One copy per combination of property values, named by the card's `name` template.")
    return {"oneOf": [{"type": "array", "items": entry, "minItems": 1,
                       "description": "One entry per copy, each with its own properties and name."}, each],
            "description": "A numbered deck: each copy becomes a card of its own (id `CARD-NAME`), with its own "
                           "properties and its own name (the card's `name` is a template: \"{rank} of {suit}\").",
            "examples": [{"each": {"rank": {"from": 1, "to": 13}, "suit": ["spades", "hearts"]}}]}


ASSUMED = ref("assumed", "Marks a value the rulebook does not give, with the reason.")
LABEL = text("Shown to people.")
SCOPE = {"type": "string", "enum": ["player", "global"],
         "description": "`player`: one per player; `global`: one for the game."}
VISIBLE = {"type": "string", "enum": ["all", "owner", "none"],
           "description": "Who may see it: `all`, `owner` (only its player), `none`."}


def definitions() -> dict:
    d: dict = {}
    d["id"] = {
        "type": "string",
        "pattern": ID_PATTERN,
        "description": "A name: lowercase words joined by `-` or `_`.",
    }
    d["name"] = {
        "type": "string",
        "pattern": NAME_PATTERN,
        "description": "A parameter or variable name: lowercase words joined by `_`.",
    }
    d["assumed"] = {"type": "string",
                    "description": "Marks a value the rulebook does not give, with the reason."}
    d["players"] = obj({
        "min": {"type": "integer", "minimum": 1, "description": "Fewest players."},
        "max": {"type": "integer", "minimum": 1, "description": "Most players."},
        "default": {"type": "integer", "minimum": 1,
                    "description": "Players when none is asked for (default: the minimum)."},
        "seats": {
            "type": "array", "minItems": 1,
            "description": "Per seat, in order (the last entry covers every later seat): what `orrery play` "
                           "seats there by default and which kinds of seat it accepts. Simulations may "
                           "seat any kind anywhere.",
            "items": obj({
                "default": {"type": "string", "description": "The kind of seat play puts here by default."},
                "accepts": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                            "description": "The kinds of seat play accepts here (default: any)."},
                "assumed": ref("assumed"),
            }, [], "One seat's rule."),
        },
    }, ["min", "max"], "How many players the game takes.")
    d["assumption"] = obj({
        "id": ref("id", "The assumption's id."),
        "text": text("What was assumed and why."),
    }, ["id", "text"], "A game-wide assumption.")
    d["constants"] = {
        "type": "object",
        "description": "Static tables any expression can read by name: numbers, strings, lists, maps.",
        "propertyNames": ref("id"),
    }
    d["counter"] = obj({
        "scope": SCOPE,
        "initial": {
            "description": "Starting value: an integer (every entry of an array), a list of integers "
                           "(an array's entries, `size` of them), or a map of key -> integer for a keyed counter.",
            "anyOf": [
                {"type": "integer"},
                {"type": "array", "items": {"type": "integer"}},
                {"type": "object", "additionalProperties": {"type": "integer"}},
            ],
            "examples": [0],
        },
        "fractions": {"type": "boolean", "description": "The counter may hold exact fractions (`gain 0.5 "
                      "pot`); without it a counter holds whole numbers only, and a fraction put in it is a rule "
                      "error.", "examples": [True]},
        "min": {"type": "integer", "description": "Lowest value; `gain`/`lose` clamp to it."},
        "max": {"type": "integer", "description": "Highest value; `gain`/`lose` clamp to it."},
        "size": {"type": "integer", "minimum": 1,
                 "description": "Makes the counter an array indexed 0..size-1."},
        "total": text("A per-player counter hidden from some players: an expression of what "
                      "everyone can see giving its sum over the players (per key: `key` is the "
                      "key's name). Search seats' worlds split what a player cannot see of that sum "
                      "among the cells hidden from them, instead of resetting them."),
        "keys": {"type": "array", "minItems": 1, "items": {"type": "string"},
                 "description": "Makes the counter keyed by these names."},
        "visible": VISIBLE,
        "label": LABEL,
        "assumed": ASSUMED,
    }, ["scope"], "An integer, global or one per player.")
    d["zone"] = obj({
        "scope": SCOPE,
        "visible": VISIBLE,
        "order": {"type": "string", "enum": ["visible", "hidden"],
                  "description": "Whether the order of the cards in it can be seen."},
        "refill": obj({
            "from": ref("id", "The zone (same owner) moved in when a draw finds this one empty."),
            "shuffle": {"type": "boolean", "description": "Shuffle after refilling."},
        }, ["from"], "Refill this zone from another when a draw finds it empty."),
        "label": LABEL,
        "assumed": ASSUMED,
    }, ["scope"], "An ordered list of cards, global or one per player.")
    d["card"] = obj({
        "name": text("Shown to people (`c.name`)."),
        "type": text("The kind of component: card, token, tile..."),
        "count": {"type": "integer", "minimum": 0,
                  "description": "Copies created in zone `in` when the game starts."},
        "in": ref("id", "The zone the copies start in (a zone per player: `count` copies in each player's)."),
        "text": text("What the printed card says, for people (`c.text`)."),
        "back": text("What its back shows (a deck's name): players see the back of a card hidden "
                     "from them, so they know how many cards of each back a hidden zone holds."),
        "properties": {"type": "object", "description": "Static data read as `c.NAME`."},
        "effects": id_map({
            # one schema for the three forms: the object keywords bind only a map, so a
            # wrong key in {effect, condition, cost} is reported at that key
            **obj({
                "effect": text("Effect text, with `this` (the card) and `me` (who uses it)."),
                "condition": text("Expression: the effect runs only while it holds (`can_use`)."),
                "cost": {"type": "object", "propertyNames": {"type": "string"},
                         "additionalProperties": {"type": ["string", "integer"]},
                         "description": "Counters of `me` paid when it runs, as an action's `cost`."},
            }, ["effect"]),
            "type": ["string", "object", "null"],
            "description": "Effect text; or {effect, condition, cost}; null drops one the card's type gives.",
        }, "Named effects, run with `use c \"NAME\"`."),
        "triggers": id_map({"anyOf": [ref("trigger"), {"type": "null"}]},
                           "Triggers active while the card is in one of `active_in` (null drops an inherited one)."),
        "modifiers": id_map({"anyOf": [ref("modifier"), {"type": "null"}]},
                            "Modifiers active while the card is in one of `active_in` (null drops an inherited one)."),
        "active_in": {"type": "array", "items": {"type": "string"},
                      "description": "Zones in which the card's triggers and modifiers apply."},
        "applies_to": text("Expression over `p`, `this` and `owner`: the players the card's modifiers apply to "
                           "while a copy is in one of `active_in` (default: its holder only)."),
        "tags": {"type": "array", "items": {"type": "string"}, "description": "Free labels."},
        "extends": {"type": ["string", "array"], "items": {"type": "string"},
                    "description": "card_types entries (templates) whose fields this card takes, before its type's."},
        "copies": ref("copies"),
        "assumed": ASSUMED,
    }, ["name"], "A discrete component: card, token or tile.")
    d["copies"] = copies_schema()
    card_type = {k: v for k, v in d["card"]["properties"].items() if k not in ("name", "type", "extends", "copies")}
    d["card_type"] = obj(card_type, None, "Defaults for every card of one `type`: each field a card does not "
                         "set itself, and `properties`, `effects`, `triggers` and `modifiers` merged key by key "
                         "(the card's own win); also a template, named by a card's `extends`.")
    d["board"] = obj({
        "width": {"type": "integer", "minimum": 1, "description": "Cells per row."},
        "height": {"type": "integer", "minimum": 1, "description": "Rows."},
        "adjacency": {"type": "string", "enum": ["orthogonal", "all"],
                      "description": "What `neighbors` and `directions` give: n/e/s/w, or the eight."},
        "assumed": ASSUMED,
    }, ["width", "height"], "A rectangular grid: cells 0..width*height-1, row by row from the top-left.")
    d["value"] = obj({
        "of": {"type": "string", "enum": ["player", "none"],
               "description": "`player`: asked for a player (`hand_size(p)`); `none`: global."},
        "base": text("Expression: the value before modifiers.", ["3"]),
        "label": LABEL,
        "assumed": ASSUMED,
    }, ["base"], "A number or flag derived from the state, changed by modifiers.")
    d["modifier"] = obj({
        "value": ref("id", "The value it changes."),
        "op": {"type": "string", "enum": ["add", "set", "max", "min"],
               "description": "How `amount` combines with the value."},
        "amount": text("Expression; `p` is the player the value is asked for.", ["1"]),
        "when": text("Expression: the modifier applies while it holds."),
        "granted": {"type": "boolean",
                    "description": "Applies only while granted by an effect (`grant M to p until ...`)."},
        "label": LABEL,
        "assumed": ASSUMED,
    }, ["value", "op", "amount"], "A continuous change to a value.")
    d["procedure"] = obj({
        "params": TYPED_PARAMS,
        "effect": text("Effect text."),
        "assumed": ASSUMED,
    }, ["effect"], "A named effect with parameters, called as `NAME(args)`.")
    d["action"] = obj({
        "during": ref("id", "The action group (`take actions GROUP`)."),
        "params": {
            "type": "object",
            "description": "Each parameter's choices (an expression giving a list), in order.",
            "propertyNames": ref("name"),
            "additionalProperties": {
                "anyOf": [
                    {"type": "string"},
                    obj({
                        "in": text("Expression: the list of choices."),
                        "min": {"type": "integer",
                                "description": "Lowest number it may take (default 0), for integer actions."},
                        "max": {"type": "integer",
                                "description": "Highest number it may take, for integer actions."},
                        "values": {"type": "array", "minItems": 1,
                                   "items": {"type": ["string", "integer", "boolean"]},
                                   "description": "Every value it may take, for integer actions."},
                    }, ["in"], "Choices with the values they may take declared (docs/learning.md)."),
                ],
            },
        },
        "condition": text("Expression: must hold for the action to be legal."),
        "why_not": {"type": "array", "description": "Why the action is out of reach, for people (`Not yet:`): "
                    "the first entry whose `when` holds while the action is not legal gives the reason.",
                    "items": obj({"when": text("Expression (`me` and the parameters): this reason applies."),
                                  "say": text("The reason, a template like a label.",
                                              ["all {trajectory_cards} Space cards must be placed first"]),
                                  "hide": {"type": "boolean", "description": "When `when` holds, the action "
                                           "is not listed at all: it is not this player's to take."}},
                                 ["when"], "One reason an action may be out of reach.")},
        "cost": {
            "type": "object",
            "description": "Counters paid first; the action is legal only if affordable.",
            "propertyNames": ref("id"),
            "additionalProperties": {"type": ["string", "integer"]},
        },
        "effect": text("Effect text; `me` is the acting player."),
        "limit": obj({
            "per_turn": {"type": "integer", "minimum": 0},
            "per_round": {"type": "integer", "minimum": 0},
            "per_game": {"type": "integer", "minimum": 0},
        }, None, "How often the action may be taken."),
        "ends": {"type": "string", "enum": ["turn"],
                 "description": "Taking it ends the `take actions` loop."},
        "label": text("Shown to people; `{param}` is replaced.", ["mark cell {cell}"]),
        "assumed": ASSUMED,
    }, ["during"], "Something a player may do.")
    d["trigger"] = obj({
        "on": text("Event and subject.", ["refilled draw", "turn_start"]),
        "when": text("Expression: the trigger fires only while it holds."),
        "effect": text("Effect text."),
        "assumed": ASSUMED,
    }, ["on", "effect"], "An effect run when an event fires.")
    d["event"] = obj({
        "params": {"type": "array", "items": ref("name"), "description": "Parameter names."},
        "assumed": ASSUMED,
    }, None, "A custom event, fired with `emit NAME(args)`.")
    d["bot"] = obj({
        "description": text("Shown to people."),
        "turn": text("Effect text run instead of `take actions` for this seat."),
        "choose": {"type": "string", "enum": ["random", "first"],
                   "description": "How the bot answers choices."},
        "assumed": ASSUMED,
    }, None, "An automated seat written as data.")
    d["seat_option"] = {
        "type": "object", "propertyNames": {"pattern": NAME_PATTERN},
        "additionalProperties": {"type": ["string", "number", "boolean"]},
        "description": "Default options of one kind of seat (e.g. `ismcts`) in this game, as in a seat spec "
                       "`NAME:KEY=VALUE`; the spec's own options override them.",
        "examples": [{"rollout": "my-bot", "iterations": 40}],
    }
    d["function"] = obj({
        "params": TYPED_PARAMS,
        "let": {"type": "object", "propertyNames": {"pattern": NAME_PATTERN},
                "additionalProperties": {"type": ["string", "integer", "boolean"]},
                "description": "Local names bound in order before `value`, each an expression that may read "
                               "the parameters and the names above it."},
        "value": text("Expression: what the function gives (pure: no random numbers).",
                      ["max([vp(q) for q in players if q != p])"]),
        "assumed": ASSUMED,
    }, ["value"], "A named expression with parameters, called like a built-in: leader(me).")
    d["view"] = obj({
        "label": text("The title shown above the view."),
        "text": text("Template shown in the terminal to the acting player: text with {expressions}, "
                     "evaluated with `me` = the viewer. Show only what the viewer may see.",
                     ["Round {round_number}: {join([text(vp(p)) for p in players], ' / ')}"]),
        "assumed": ASSUMED,
    }, ["text"], "A view of the table for people: the terminal shows it to the acting player.")
    d["end_condition"] = obj({
        "id": ref("id", "The condition's id."),
        "when": text("Expression: the game ends when it holds."),
        "check": {"type": "string", "enum": ["action", "turn", "round"],
                  "description": "When it is checked: after every action, turn or round."},
        "then": {"type": "string", "enum": ["end", "finish_turn", "finish_round"],
                 "description": "`end` (default) now, or after finishing the turn or round."},
        "winners": text("Expression naming the winners; else `scoring` decides.", ["[me]"]),
        "label": text("Why the game ended, in words shown to people at the end.",
                      ["someone reached 25 VP"]),
        "stalemate": {"type": "boolean",
                      "description": "A safety bound, not a way the game is meant to end (a round cap, a limit on "
                                     "rounds without progress): `orrery analyze` counts the games it ends as "
                                     "stalemates and names them as a design problem when they are many."},
    }, ["id", "when", "check"], "A condition that ends the game.")
    d["end"] = {"type": "array", "items": ref("end_condition"),
                "description": "End conditions, checked in the order written."}
    d["scoring"] = obj({
        "eligible": text("Expression: who can win (`p`)."),
        "score": text("Expression: the score of `p`; highest wins.", ["vp(p)"]),
        "tie_breaks": {"type": "array", "items": {"type": "string"},
                       "description": "Expressions tried in order; still tied => shared victory."},
        "returns": text("Expression: the game's return for `p` (default +1 winners, -1 others)."),
        "parts": {"type": "array", "description": "How a score is made up, shown at the end: each part's label "
                  "and expression (`p`); what the parts leave out of the score is shown as `other`.",
                  "items": obj({"label": text("The part in words."), "score": text("Expression: the part of `p`'s score.")},
                               ["label", "score"], "One part of a final score.")},
        "ineligible": text("Why a player not `eligible` could not win, in words shown at the end.",
                           ["did not reach Mars"]),
    }, ["score"], "Who wins when no end condition names the winners.")
    d["utility"] = obj({
        "kind": {"type": "string", "enum": ["zero-sum", "constant-sum", "general-sum"],
                 "description": "zero-sum: the returns add up to 0 in every game; constant-sum: to `sum`; "
                                "general-sum: anything. Checked at every end of a game."},
        "sum": {"type": "number", "description": "What the returns add up to (constant-sum)."},
        "min": {"type": "number", "description": "The lowest return a player can get."},
        "max": {"type": "number", "description": "The highest return a player can get."},
    }, ["kind"], "What the returns are like (for learning code: OpenSpiel's utility and bounds).")
    d["max_moves"] = {
        "oneOf": [{"type": "integer", "minimum": 1}, ref("id")],
        "description": "The most decisions any game takes (a simultaneous step counts once): a whole "
                       "number or the name of a constant holding one. OpenSpiel's max_game_length.",
    }
    d["variant"] = obj({
        "description": text("Shown to people."),
        "players": ref("players"),
        "add": ref("add"),
        "replace": ref("replace"),
        "patch": ref("patch"),
        "remove": ref("remove"),
        "set": ref("set"),
        "append": ref("append"),
        "prepend": ref("prepend"),
        "assumed": ASSUMED,
    }, None, "A named option: an inline overlay applied when chosen.")

    # section maps of full definitions
    for section, entry in ENTRY.items():
        d[section] = id_map(ref(entry), f"The game's {section}, by id.")

    # partial definitions for `patch`: same keys, nothing required; nested maps partial too
    for section, entry in ENTRY.items():
        partial = copy.deepcopy(d[entry])
        partial.pop("required", None)
        partial["description"] = f"Fields merged into an existing {entry.replace('_', ' ')}."
        d[f"{entry}_patch"] = partial
    card_patch = d["card_patch"]["properties"]
    card_patch["triggers"] = id_map(ref("trigger_patch"), "Triggers added or merged.")
    card_patch["modifiers"] = id_map(ref("modifier_patch"), "Modifiers added or merged.")
    zone_patch = d["zone_patch"]["properties"]
    zone_patch["refill"] = copy.deepcopy(zone_patch["refill"])
    zone_patch["refill"].pop("required", None)

    def sections_of(make) -> dict:
        return {s: make(s) for s in SECTIONS}

    d["add"] = obj(sections_of(
        lambda s: d["constants"] if s == "constants"
        else id_map(ref(f"{ENTRY[s]}_patch"), f"New {s} (complete), or new fields of existing ones.")),
        None, "New definitions, or new fields of existing ones, by section; adding what exists is an error.")
    text_sections = {s: {"type": "object", "propertyNames": ref("id"),
                         "additionalProperties": {"type": ["object", "string"]},
                         "description": f"Effect text of {s}, by id and field (e.g. effect, effects.play)."}
                     for s in SECTIONS if s not in ("constants", "variants", "events", "seat_options")}
    for op, where in (("append", "after"), ("prepend", "before")):
        d[op] = obj({"setup": text(f"Effect text run {where} the game's setup."),
                     "flow": text(f"Effect text run {where} the game's flow."), **text_sections},
                    None, f"Effect text added {where} existing effect text, which must exist.")
    d["replace"] = obj(sections_of(lambda s: d["constants"] if s == "constants" else ref(s)),
                       None, "Whole definitions replacing existing ones by id.")
    d["patch"] = obj(sections_of(
        lambda s: d["constants"] if s == "constants"
        else id_map(ref(f"{ENTRY[s]}_patch"), f"Partial {s}, deep-merged by id.")),
        None, "Fields deep-merged into existing definitions.")
    d["remove"] = obj(sections_of(
        lambda s: {"type": "array", "items": ref("id"), "description": f"Ids of {s} to remove."}),
        None, "Definitions to remove, by section; each id must exist.")
    names = {"type": "array", "items": {"type": "string"}}
    d["table"] = obj({
        "hide": {**names, "description": "Counters and zones that are bookkeeping (a phase number, a safety "
                 "bound's counts): never shown to people, in the terminal, the narration or the browser; the "
                 "game's views say what matters of them. Machines still observe them."},
        "tracks": {**names, "description": "Counters drawn as tracks in the browser, from their `min` to their "
                   "`max` (default: every counter with both)."},
        "board": {**names, "description": "Zones drawn as the board, in the middle of the browser table "
                  "(default: the shared zones everyone sees)."},
    }, None, "How people see the table (optional): what is bookkeeping, which counters are tracks, "
       "which zones are the board.")
    d["set"] = obj({
        "setup": text("Effect text run once when the game starts."),
        "flow": text("Effect text: the game's rounds, turns and phases."),
        "players": ref("players"),
        "end": ref("end"),
        "scoring": ref("scoring"),
        "table": ref("table"),
        "utility": ref("utility"),
        "max_moves": ref("max_moves"),
        "description": text("Shown to people."),
        "name": text("Shown to people."),
    }, None, "Top-level entries replaced as a whole.")
    return d


ORRERY = {"enum": [1, 2], "description": "The format version: 2 (`/` divides exactly: 7 / 2 is 7/2); 1 is "
          "still read (`/` divides whole numbers rounding toward zero: 7 / 2 is 3).", "examples": [2]}


def game_schema() -> dict:
    props: dict = {
        "orrery": ORRERY,
        "id": ref("id", "The game id."),
        "name": text("The game's name, shown to people.", ["Tic-tac-toe"]),
        "version": text("The data version, written in logs (quote it: \"1.0\").", ["1.0"]),
        "description": text("Shown to people."),
        "players": ref("players", "How many players the game takes."),
        "include": {"type": "array", "items": {"type": "string"},
                    "description": "Files of this folder whose sections merge into this one."},
        "assumptions": {"type": "array", "items": ref("assumption"),
                        "description": "Game-wide assumptions (per-item ones use `assumed:`)."},
        "constants": ref("constants"),
    }
    for section in ENTRY:
        if section in ("variants", "bots", "seat_options"):
            continue
        props[section] = ref(section)
    props["setup"] = text("Effect text run once when the game starts.")
    props["flow"] = text("Effect text: the game's rounds, turns and phases.")
    props["end"] = ref("end")
    props["scoring"] = ref("scoring")
    props["table"] = ref("table")
    props["utility"] = ref("utility")
    props["max_moves"] = ref("max_moves")
    props["variants"] = ref("variants", "Named options, each an inline overlay.")
    props["bots"] = ref("bots", "Automated seats written as data.")
    props["seat_options"] = ref("seat_options", "Default options of kinds of seat (search seats) in this game, "
                                                "by kind: a seat spec's own options override them.")
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "orrery game file",
        "description": "A game's rule file (game.yaml and the files it includes).",
    }
    schema.update(obj(props, ["orrery", "id", "name"]))
    schema["definitions"] = definitions()
    return schema


def overlay_schema() -> dict:
    props = {
        "orrery": ORRERY,
        "overlay": ref("id", "The overlay's id."),
        "base": ref("id", "The id of the game it applies to."),
        "name": text("Shown to people."),
        "description": text("Shown to people."),
        "version": text("The data version, written in logs (quote it: \"1.0\")."),
        "assumptions": {"type": "array", "items": ref("assumption"),
                        "description": "Assumptions made by the overlay."},
        "add": ref("add"),
        "replace": ref("replace"),
        "patch": ref("patch"),
        "remove": ref("remove"),
        "set": ref("set"),
        "append": ref("append"),
        "prepend": ref("prepend"),
    }
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "orrery overlay file",
        "description": "An expansion or mod: adds, replaces, patches or removes definitions of a base game.",
    }
    schema.update(obj(props, ["orrery", "overlay", "base"]))
    schema["definitions"] = definitions()
    return schema


def include_schema() -> dict:
    """A file a game includes (cards.yaml...): sections only, none required."""
    schema = game_schema()
    for key in ("orrery", "id", "name", "include"):
        schema["properties"].pop(key)
    schema.pop("required")
    schema["title"] = "orrery included file"
    schema["description"] = ("A file a game's `include:` names: sections of the game (cards, actions, ...), "
                             "merged into game.yaml's; no orrery/id/name header and no further includes.")
    return schema


KINDS = (("game", game_schema), ("overlay", overlay_schema), ("include", include_schema))

if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1])
    for kind, make in KINDS:
        (out / f"{kind}.schema.json").write_text(json.dumps(make(), indent=2) + "\n")
