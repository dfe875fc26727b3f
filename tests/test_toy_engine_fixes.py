"""Engine fixes found while writing Rocketmen as data (games/rocketmen), each shown on a
toy game with no game-specific word."""

from __future__ import annotations

from interpreter import load_game

TABLES = """\
orrery: 1
id: tables
name: Tables
players: {min: 2, max: 2}
constants:
  spots: {low: {cost: 2, name: "Low spot"}, high: {cost: 5, name: "High spot"}}
counters:
  score: {scope: player}
zones:
  pile: {scope: global, visible: all}
cards:
  gem: {name: Gem, count: 1, in: pile, properties: {cost: 7}}
actions:
  take:
    during: main
    params: {spot: "[k for k in [\\"low\\", \\"high\\"] if spots[k].cost <= 3]"}
    effect: |
      let row = spots[spot]
      gain row.cost score
      log "{row.name}"
      for each c in pile:
        gain c.cost score
    ends: turn
flow: |
  repeat 1:
    for each p in players:
      turn p:
        take actions main
scoring: {score: "score(p)"}
"""


def test_a_table_key_named_like_a_card_field_reads_the_table(tmp_path):
    """`row.cost` where `row` comes from a constant table must read the table even though
    cards also have a `cost` property (and `row.name` although cards have names)."""
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "game.yaml").write_text(TABLES)
    game = load_game(str(folder))
    state = game.new_initial_state(2, seed=1)
    assert [str(a) for a in state.legal_actions()] == ["take low"]
    state.apply_action("take low")
    assert state.log[-1] == "Low spot"
    assert state.observation(-1)["counters"]["score"][0] == 2 + 7
