"""Game-level rules speak of kinds of cards, not of individual cards: each bundled game
keeps within its budget of quoted card ids and ability codes outside the card
definitions (tests/card_refs.py counts them; setup may name components)."""

from __future__ import annotations

import pytest
from card_refs import CONFIGURATIONS, card_references

# The most references each configuration may have. Lower a figure when a rewrite
# lowers the count; never raise one.
BUDGET = {
    ("for-all-mankind", ()): 0,
    ("race-to-mars", ()): 4,
    ("rocketmen", ()): 0,
    ("rocketmen", ("target-jupiter",)): 0,
}


@pytest.mark.parametrize(("game", "overlays"), CONFIGURATIONS)
def test_rules_name_few_cards_outside_the_card_definitions(game, overlays):
    found = card_references(game, overlays)
    assert len(found) <= BUDGET[(game, overlays)], "\n".join(f"{w}: {n}" for w, n in found)


def test_the_count_sees_a_card_named_in_a_procedure(tmp_path):
    import card_refs

    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.yaml").write_text(
        "orrery: 1\nid: g\nname: G\nplayers: {min: 2, max: 2}\n"
        "zones: {deck: {scope: global}}\n"
        "cards: {king: {name: King, in: deck, properties: {ability: crown}}}\n"
        "setup: 'move top(cards_named(\"king\", deck)) to deck'\n"
        "procedures: {p: {effect: 'if len(cards_named(\"king\", deck)) > 0 and \"crown\" == \"crown\": log \"x\"'}}\n"
        "flow: 'p()'\n", encoding="utf-8")
    found = card_refs.card_references(str(folder))
    assert sorted(n for _, n in found) == ["crown", "crown", "king"]  # setup's naming is fine
