"""All the analyses of a game's rule text, run once when the rules load; what they find
is kept on the definition (`GameDef.facts`) for the runtime, which never reads rule text.
"""

from __future__ import annotations

from typing import Any

from interpreter.analysis import domains
from interpreter.analysis.action_domains import find_chances, find_choices, param_values
from interpreter.analysis.chance_zones import eager_zones
from interpreter.analysis.hidden_offers import read_rules
from interpreter.analysis.programs import created_cards, sets_attributes, uses_chance, uses_simultaneous
from interpreter.model import GameDef
from interpreter.model.facts import RuleFacts


def find_facts(gd: GameDef, raw: dict[str, Any]) -> RuleFacts:
    """What the rules `raw` (the merged rule data `gd` was built from) say as a whole."""
    analyzer = domains.Analyzer(gd, raw)
    return RuleFacts(
        uses_chance=uses_chance(gd, raw), uses_simultaneous=uses_simultaneous(gd, raw),
        eager_zones=eager_zones(gd, raw), sets_attributes=sets_attributes(gd, raw),
        created_cards=created_cards(gd, raw), hidden=read_rules(gd, raw),
        param_values=param_values(gd, raw, analyzer), choices=find_choices(gd, raw, analyzer),
        chances=find_chances(gd, raw, analyzer))
