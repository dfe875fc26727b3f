"""Hidden cards are chosen blind: a choice among cards the chooser may not see offers
them by their place (`steal hand(P2):1`), never by name, in every front-end.

The toy: P1 may steal a card from P2's hand (hands are seen by their owner only), by
an action's parameter (`steal`, `grab`) or a `choose` inside an effect (`pick`); a
`peek` reveals P2's hand to P1, after which the cards are offered by name again.
Checked: the legal texts, labels, observation string, information state, integer ids,
the web table's JSON and the terminal name no hidden card; two deals with different
hidden cards offer P1 the same texts and ids; a hidden card's own text is refused like
any other text; the card taken is the one at that place, and P1 sees it once it is in
P1's hand; logs replay (`--verify`, `--resume`) and saves resume identically; the
bundled games, which never offer hidden cards, are left as they were.
"""

from __future__ import annotations

import io
import json
import pathlib
import re
import sys
from typing import Any

import attrs
import pytest
from conformance import check_conformance
from conftest import toy, write_toy

from interpreter import Game, IllegalActionError, State, load_game
from interpreter.cli import main
from interpreter.play.blocked import blocked_actions
from interpreter.play.narrate import move_words, told
from interpreter.runtime.present import option_text
from interpreter.web.view import decision_view, observation_view

STEAL = """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
  table: {scope: global, visible: all}
cards:
  ace: {name: Ace, count: 1, in: deck}
  king: {name: King, count: 1, in: deck}
  queen: {name: Queen, count: 1, in: deck}
  dud: {name: Dud, count: 3, in: deck}
actions:
  steal:
    during: main
    params: {card: "hand(next_player(me))"}
    effect: |
      move card to hand(me)
      show "you took {card}" to me
    label: "steal {card}"
    ends: turn
  grab:
    during: main
    params: {card: "hand(next_player(me))"}
    effect: "move card to table"
    label: "grab {card.name} from {next_player(me)}"
    ends: turn
  pick:
    during: main
    effect: |
      choose c from hand(next_player(me)) prompt "take which card?"
      move c to hand(me)
    ends: turn
  peek:
    during: main
    effect: "reveal hand(next_player(me)) to me"
    limit: {per_turn: 1}
  play:
    during: main
    params: {card: "hand(me)"}
    effect: "move card to table"
    ends: turn
  pass: {during: main, ends: turn}
setup: |
  shuffle deck
  for each p in players:
    draw 3 from deck to hand(p)
flow: |
  repeat 2:
    turn 0:
      take actions main
    turn 1:
      take actions main
scoring:
  score: 'len([c for c in hand(p) if c.id == "ace"])'
"""

BUNDLED = ["tic-tac-toe", "kuhn-poker", "leduc-poker", "goofspiel", "rock-paper-scissors", "star-market",
           "breakthrough", "race-to-mars", "rocketmen", "for-all-mankind"]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    return toy(tmp_path_factory.mktemp("steal"), STEAL)


def p2_cards(state: State) -> list[int]:
    return list(state.zones[state.layout.zbase[1] + 1])


def seed_with_ace_in_p2(game: Game) -> int:
    return next(s for s in range(200) if "ace" in ids_of(game.new_initial_state(2, seed=s)))


def ids_of(state: State) -> list[str]:
    """The definitions of P2's cards, in the hand's order."""
    return [state.gd.cards[state.card_def[c]].id for c in p2_cards(state)]


def secrets(state: State) -> list[re.Pattern[str]]:
    """What would tell P1 which cards P2 holds: each card's text (`ace#0`), and the id
    and name of each definition P1 sees no copy of."""
    seen = {text.rpartition("#")[0] for text in state.observation(0)["zones"]["hand"][0]["cards"]}
    found = []
    for c in p2_cards(state):
        card = state.gd.cards[state.card_def[c]]
        found.append(re.compile(rf"(?<![\w-]){re.escape(state.card_text(c))}(?!\d)"))
        if card.id not in seen:
            found += [re.compile(rf"\b{re.escape(card.id)}\b"), re.compile(rf"\b{re.escape(card.name)}\b")]
    return found


def leaks(text: str, state: State) -> list[str]:
    return [p.pattern for p in secrets(state) if p.search(text)]


def refusal(state: State, text: str) -> str:
    """The message refusing `text`, with the text itself written X."""
    with pytest.raises(IllegalActionError) as caught:
        state.apply_action(text)
    return str(caught.value).replace(text, "X")


# ---- what P1 is offered --------------------------------------------------------------------


def test_a_hidden_hand_is_offered_by_place_and_an_own_hand_by_name(game: Game) -> None:
    state = game.new_initial_state(2, seed=seed_with_ace_in_p2(game))
    texts = [a.text for a in state.legal_actions()]
    assert texts[:3] == ["steal hand(P2):1", "steal hand(P2):2", "steal hand(P2):3"]
    assert texts[3:6] == ["grab hand(P2):1", "grab hand(P2):2", "grab hand(P2):3"]
    mine = [state.card_text(c) for c in state.zones[state.layout.zbase[1]]]
    assert texts[6:] == ["pick", "peek", *(f"play {c}" for c in mine), "pass"]
    words = [option_text(state, a) for a in state.legal_actions()]
    assert words[0] == "steal a hidden card (1 of 3 in P2's hand)"
    assert words[3] == "grab ? from P2"  # a label reading the card cannot be worked out blind
    assert move_words(state, "steal hand(P2):2") == "steal a hidden card (2 of 3 in P2's hand)"
    state.apply_action("pick")
    assert [a.text for a in state.legal_actions()] == ["hand(P2):1", "hand(P2):2", "hand(P2):3"]
    assert move_words(state, "hand(P2):3") == "chooses a hidden card (3 of 3 in P2's hand)"


def test_revealed_cards_are_offered_by_name(game: Game) -> None:
    state = game.new_initial_state(2, seed=seed_with_ace_in_p2(game))
    state.apply_action("peek")
    held = [state.card_text(c) for c in p2_cards(state)]
    assert [a.text for a in state.legal_actions()][:3] == [f"steal {c}" for c in held]
    names = {c.id: c.name for c in state.gd.cards}
    assert option_text(state, state.legal_actions()[0]) == f"steal {names[held[0].split('#')[0]]}"


def test_nothing_p1_reads_names_a_hidden_card(game: Game) -> None:
    state = game.new_initial_state(2, seed=seed_with_ace_in_p2(game))
    for step in range(2):  # the action group, then the choice inside `pick`
        ids = state.legal_action_ids()
        read = {
            "observation": json.dumps(state.observation(0)),
            "observation_string": state.observation_string(0),
            "information_state": state.information_state_string(0),
            "ids": json.dumps([state.action_to_string(0, a) for a in ids]),
            "legal": json.dumps([a.text for a in state.legal_actions()]),
            "options": json.dumps([option_text(state, a) for a in state.legal_actions()]),
            "web": json.dumps([observation_view(state.observation(0), state.gd), decision_view(state, 0)]),
        }
        for where, text in read.items():
            assert leaks(text, state) == [], f"{where} (step {step}) names a hidden card"
        if step == 0:
            state.apply_action("pick")


def test_two_deals_with_different_hidden_cards_offer_the_same_texts_and_ids(game: Game) -> None:
    first = seed_with_ace_in_p2(game)
    second = next(s for s in range(200) if sorted(ids_of(game.new_initial_state(2, seed=s)))
                  != sorted(ids_of(game.new_initial_state(2, seed=first))))
    states = [game.new_initial_state(2, seed=s) for s in (first, second)]

    def offered(state: State) -> tuple[list[str], list[int], list[Any]]:
        legal = [a for a in state.legal_actions() if not a.text.startswith("play ")]  # P1's own cards differ
        space = state.game.action_space(2)
        view = decision_view(state, 0)
        assert view is not None
        groups = [g for g in view["groups"] if g["id"] != "play"]
        return [a.text for a in legal], [space.id_of(state, a) for a in legal], groups

    assert offered(states[0]) == offered(states[1])
    for state in states:
        state.apply_action("pick")
    assert [a.text for a in states[0].legal_actions()] == [a.text for a in states[1].legal_actions()]
    assert states[0].legal_action_ids() == states[1].legal_action_ids()


ORDERED = STEAL.replace("""  pass: {during: main, ends: turn}
""", """  pass: {during: main, ends: turn}
  swipe:
    during: main
    params: {card: "reversed(sorted(hand(next_player(me)) + hand(me)))"}
    effect: "move card to table"
    ends: turn
  mix:
    during: main
    effect: |
      choose c from sorted(hand(next_player(me)) + table + hand(me)) prompt "which?"
      move c to table
    ends: turn
""")


def test_the_rules_order_tells_nothing_of_the_hidden_cards(tmp_path: pathlib.Path) -> None:
    """Sorted lists order cards by their copy numbers, which tell them apart: the
    places come in their own order, after the cards P1 sees, in every deal."""
    ordered = toy(tmp_path, ORDERED)
    for seed in range(6):
        state = ordered.new_initial_state(2, seed=seed)
        mine = sorted(state.zones[state.layout.zbase[1]], reverse=True)
        swipes = [a.text for a in state.legal_actions() if a.text.startswith("swipe ")]
        assert swipes == [f"swipe {state.card_text(c)}" for c in mine] + [f"swipe hand(P2):{k}" for k in (1, 2, 3)]
        state.apply_action("mix")
        assert [a.text for a in state.legal_actions()][-3:] == ["hand(P2):1", "hand(P2):2", "hand(P2):3"]


def test_a_filtered_choice_tells_how_many_pass_never_which(tmp_path: pathlib.Path) -> None:
    """A condition reading the hidden card leaves fewer places, numbered among those
    that pass; what is out of reach names no hidden card either."""
    guarded = toy(tmp_path, STEAL.replace('    label: "steal {card}"\n',
                                          '    label: "steal {card}"\n    condition: \'card.id != "ace"\'\n'))
    state = guarded.new_initial_state(2, seed=seed_with_ace_in_p2(guarded))
    legal = state.legal_actions()
    assert [a.text for a in legal if a.text.startswith("steal ")] == ["steal hand(P2):1", "steal hand(P2):2"]
    assert option_text(state, legal[0]) == "steal a hidden card (1 of 2 in P2's hand)"
    blocked = blocked_actions(state, {a.text for a in legal})
    assert leaks(json.dumps([attrs.asdict(b) for b in blocked]), state) == []


# ---- typing a card's text ------------------------------------------------------------------


def test_a_hidden_cards_text_is_refused_like_any_other_text(game: Game) -> None:
    state = game.new_initial_state(2, seed=seed_with_ace_in_p2(game))
    held = [state.card_text(c) for c in p2_cards(state)]
    mine = state.card_text(state.zones[state.layout.zbase[1]][0])
    messages = {refusal(state, f"steal {card}") for card in [*held, "ace#99", "zzz#1", mine, "hand(P2):4"]}
    assert len(messages) == 1 and "is not a legal action now" in messages.pop()
    assert not state.history
    # the integer API: the id text of a card's definition is never legal for a hidden card
    space = state.game.action_space(2)
    by_id = set()
    for card in ("ace", "king", "queen", "dud"):
        a = state.string_to_action(0, f"steal {card}")
        with pytest.raises(IllegalActionError) as caught:
            state.apply_action_id(a)
        by_id.add(str(caught.value).replace(f"{a} (steal {card})", "X"))
    assert len(by_id) == 1 and not state.history and space.size == state.num_distinct_actions()
    state.apply_action("pick")
    messages = {refusal(state, text) for text in [*held, "ace#99", "hand(P2):4"]}
    assert len(messages) == 1


# ---- the card taken, and what P1 sees then --------------------------------------------------


def test_the_card_at_the_place_is_taken_and_seen_once_in_p1s_hand(game: Game) -> None:
    state = game.new_initial_state(2, seed=seed_with_ace_in_p2(game))
    place = ids_of(state).index("ace") + 1
    ace = p2_cards(state)[place - 1]
    by_text, by_id, by_choice = state.clone(), state.clone(), state.clone()
    by_text.apply_action(f"steal hand(P2):{place}")
    space = state.game.action_space(2)
    by_id.apply_action_id(space.from_string(f"steal hand(P2):{place}") or -1)
    by_choice.apply_action("pick")
    by_choice.apply_action(f"hand(P2):{place}")
    for after in (by_text, by_id, by_choice):
        assert after.loc[ace] == after.layout.zbase[1]  # in P1's hand
        assert after.card_text(ace) in after.observation(0)["zones"]["hand"][0]["cards"]
        assert after.observation(1)["zones"]["hand"][0] == {"count": 4}
    assert by_text.to_json() == by_id.to_json()
    assert by_text.observation(0)["notes"] == ["you took Ace"] and "notes" not in by_text.observation(1)
    # the move as P2 reads it names no card; P1 sees the Ace in its hand from now on
    words = move_words(state, f"steal hand(P2):{place}")
    assert told(by_text, f"steal hand(P2):{place}", words, {1}) == words and "Ace" not in words
    # P2's turn: P1's hand is hidden from P2, so P2 steals blind too
    assert [a.text for a in by_text.legal_actions()][:4] == [f"steal hand(P1):{k}" for k in range(1, 5)]


# ---- logs, replays and saves ------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str],
            *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def test_the_terminal_replay_and_resume(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: pathlib.Path, game: Game) -> None:
    path = str(write_toy(tmp_path, STEAL))
    seed = seed_with_ace_in_p2(game)
    state = game.new_initial_state(2, seed=seed)
    held = state.card_text(p2_cards(state)[0])
    log = tmp_path / "steal.json"
    typed = [f"steal {held}", "steal zzz#9", "steal hand(P2):2", "quit"]
    code, out = run_cli(capsys, monkeypatch, typed, "play", path, "--seats", "human,first", "--seed", str(seed),
                        "--log", str(log))
    assert code == 0
    before = out.split("P1> steal hand(P2):2")[0]
    shown = before.replace(f"steal {held}", "X")  # what P1 typed is echoed: the rest is the terminal's
    assert leaks(shown, state) == [], "P1's terminal names a hidden card before the steal"
    assert "steal a hidden card (2 of 3 in P2's hand)  [steal hand(P2):2]" in before
    refused = [line.replace(f"steal {held}", "X").replace("steal zzz#9", "X") for line in out.splitlines()
               if "is not a legal action now" in line]
    assert len(refused) == 2 and refused[0] == refused[1]
    actions = json.loads(log.read_text(encoding="utf-8"))["actions"]
    assert actions == ["steal hand(P2):2", "steal hand(P1):1"]  # P2 (`first`) steals blind too

    code, out = run_cli(capsys, monkeypatch, ["pick", "hand(P2):1", "quit"], "play", "--resume", str(log))
    assert code == 0 and "resumed after 2 actions" in out
    code, out = run_cli(capsys, monkeypatch, [], "replay", str(log), "--verify")
    assert code == 0 and "verified" in out
    whole = json.loads(log.read_text(encoding="utf-8"))
    assert whole["actions"][:4] == ["steal hand(P2):2", "steal hand(P1):1", "pick", "hand(P2):1"]


def test_a_save_mid_choice_resumes_identically(game: Game) -> None:
    state = game.new_initial_state(2, seed=seed_with_ace_in_p2(game))
    state.apply_action("pick")
    again = game.state_from_json(state.to_json())
    assert [a.text for a in again.legal_actions()] == [a.text for a in state.legal_actions()]
    for s in (state, again):
        s.apply_action("hand(P2):2")
        while not s.is_terminal():  # the same moves on both, whatever they are
            legal = s.legal_actions()
            s.apply_action(legal[len(s.history) * 5 % len(legal)])
    assert again.to_json() == state.to_json() and again.history == state.history
    assert any(text.startswith("steal hand(P1):") for text in state.history[1:])  # P2 chose blind too


PEEK = """  peek:
    during: main
    effect: "reveal hand(next_player(me)) to me"
    limit: {per_turn: 1}
"""


def test_the_toy_passes_the_conformance_harness(tmp_path: pathlib.Path) -> None:
    """Saves, clones, replays and unique legal texts that apply; without `peek`, whose
    reveal to one player the harness's own check of observations does not know."""
    assert PEEK in STEAL
    check_conformance(toy(tmp_path, STEAL.replace(PEEK, "")), games=4)


# ---- games that never offer hidden cards ------------------------------------------------------


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_games_never_offer_a_hidden_card(name: str) -> None:
    """Read from their rules: no parameter and no choice offers a card its chooser may
    not see, so their listings, ids and states are as before (no place gets an id)."""
    bundled = load_game(name)
    reading = bundled.definition.facts.hidden
    assert not reading.groups and not reading.params and not reading.choices
