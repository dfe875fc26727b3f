"""A seat is checked and written one way at the edge: `market-bot ` (a space typed after
the name) is the game's bot `market-bot`, not a seat nobody plays; the CLI, the Python
API and saved states hold the canonical text; a seat that is no text is refused."""

from __future__ import annotations

import pytest
from conftest import run

from interpreter import GameError, load_game
from interpreter.play.runner import play_game


def test_spaces_around_a_seat_do_not_make_another_seat() -> None:
    game = load_game("star-market")
    result = play_game(game, 2, ["market-bot ", " random"], 1)
    assert result == play_game(game, 2, ["market-bot", "random"], 1)
    state = game.new_initial_state(2, 1, [" market-bot", "ismcts: iterations = 5 ,c=2"])
    assert state.seats == ["market-bot", "ismcts:iterations=5,c=2"]


def test_a_seat_that_is_no_text_is_refused() -> None:
    game = load_game("star-market")
    for bad in (1, None, ["random"]):
        with pytest.raises(GameError, match="a seat is a text"):
            game.new_initial_state(2, 1, ["random", bad])  # type: ignore[list-item]
    with pytest.raises(GameError, match="unknown seat 'market-bo'"):
        game.new_initial_state(2, 1, ["market-bo", "random"])


def test_the_cli_seats_the_canonical_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "star-market", "--seats", "market-bot ,random", "--games", "2", "--json")
    assert code == 0, err
    assert "market-bot " not in out and "market-bot" in out


def test_a_seat_is_a_record_below_the_edge() -> None:
    """`SeatSpec(kind, options)` is parsed once; the state holds the records, their texts
    and the game bot of each seat, found by kind (no text compared while playing)."""
    from interpreter.model.seats import SeatSpec, parse_seat
    game = load_game("star-market")
    state = game.new_initial_state(2, 1, [SeatSpec("market-bot"), "ismcts: iterations = 5"])
    assert state.seat_specs == (SeatSpec("market-bot"), SeatSpec("ismcts", {"iterations": "5"}))
    assert state.seats == ["market-bot", "ismcts:iterations=5"]
    assert [bot.id if bot else None for bot in state.seat_bots] == ["market-bot", None]
    assert parse_seat(" a : b = 1 , c=2") == SeatSpec("a", {"b": "1", "c": "2"})
    for bad, message in (("a:b", "options are KEY=VALUE"), (":x=1", "has no name"), ("", "has no name")):
        with pytest.raises(GameError, match=message):
            parse_seat(bad)
    # a save's seats come back as records, and a save with a malformed one is refused
    again = game.state_from_json(state.to_json())
    assert again.seat_specs == state.seat_specs and again.seat_bots == state.seat_bots
    with pytest.raises(GameError, match=r"corrupt save: bad seats \(seat 'ismcts:iterations'"):
        game.state_from_json(state.to_json().replace('"ismcts:iterations=5"', '"ismcts:iterations"'))
