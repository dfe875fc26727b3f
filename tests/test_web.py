"""`orrery serve` without a browser: the session, its JSON, the HTTP routes and the command.

What a page is sent must hold only what its seat may see: every response is checked
for card instances (`id#copy`) that the seat's observation does not show. Tokens are
checked (a wrong one is 404), refused actions are answered as data, logs are written
as the game goes and resume where it stopped.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.cli import choose_seats
from interpreter.play.logs import fresh_log_path, read_log
from interpreter.play.narrate import visible_cards
from interpreter.runtime.state import State
from interpreter.web.launch import new_session, resume_session
from interpreter.web.session import SPECTATOR, Session

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")

from interpreter.web.app import Server, base_url, bind, seat_urls

ROOT = Path(__file__).resolve().parent.parent
SEED_GAMES = ["for-all-mankind", "race-to-mars", "rocketmen"]


def make_session(game_id: str, seats: list[str], seed: int = 3, log_path: Path | None = None) -> Session:
    game = load_game(game_id)
    return new_session(game, game_id, [], len(seats), seats, seed, log_path, None)


def hidden_cards(state: State, seat: int) -> set[str]:
    """Card instances somewhere in the state's zones that `seat` may not see now."""
    everything = {state.card_text(c) for zone in state.zones for c in zone}
    return everything - visible_cards(state.observation(seat))


def leaked(text: str, hidden: set[str]) -> list[str]:
    """Hidden card instances that occur in `text` (`ship#1` does not match `ship#12`)."""
    return [card for card in hidden if re.search(rf"(?<![\w-]){re.escape(card)}(?!\d)", text)]


@contextlib.contextmanager
def served(session: Session) -> Iterator[str]:
    """The session served on a free local port, its bots playing; yields the base URL."""
    sock = bind("127.0.0.1", 0)
    server = Server(session, sock)
    server.start()
    from interpreter.web.session import start_bots

    bots = start_bots(session)
    try:
        yield base_url(sock, "127.0.0.1")
    finally:
        server.stop()
        bots.join()


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def post(url: str, body: bytes) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


# ---- the session ---------------------------------------------------------------------------


def test_one_secret_token_per_human_seat_and_one_for_onlookers() -> None:
    session = make_session("kuhn-poker", ["human", "human"])
    assert sorted(session.tokens.values()) == [SPECTATOR, 0, 1]
    first, second = session.token_of(0), session.token_of(1)
    assert first != second and len(first) >= 32
    assert session.seat_of(first) == 0 and session.seat_of(second) == 1
    assert session.seat_of(first[:-1]) is None and session.seat_of("") is None
    assert session.seat_of(first + "x") is None


def test_the_spectator_page_of_a_game_with_people_shows_no_hand() -> None:
    session = make_session("kuhn-poker", ["human", "human"])
    onlooker = json.dumps(session.view(SPECTATOR))
    mine = json.dumps(session.view(0))
    dealt = [n for n in ("King", "Queen", "Jack") if n in mine]
    assert dealt and not any(n in onlooker for n in ("King", "Queen", "Jack"))  # P1 sees its card; no one else
    assert session.view(SPECTATOR)["decision"] is None


def test_a_table_of_bots_has_one_spectator_page() -> None:
    session = make_session("kuhn-poker", ["random", "first"])
    assert list(session.tokens.values()) == [SPECTATOR]
    assert session.view(SPECTATOR)["decision"] is None


def test_only_the_seat_to_move_gets_its_legal_actions_grouped_by_action() -> None:
    session = make_session("tic-tac-toe", ["human", "human"])
    mover = session.state.current_player()
    decision = session.view(mover)["decision"]
    assert [g["id"] for g in decision["groups"]] == ["place"]
    assert [o["action"] for o in decision["groups"][0]["options"]] == [f"place {i}" for i in range(9)]
    assert session.view(1 - mover)["decision"] is None


def test_refused_actions_say_why_and_change_nothing() -> None:
    session = make_session("tic-tac-toe", ["human", "human"])
    mover = session.state.current_player()
    assert session.act(1 - mover, "place 0").message == f"it is not P{2 - mover}'s turn"
    assert "not a legal action" in session.act(mover, "place 9").message
    assert session.act(mover, "place 0", version=5).message == "the table changed; look again"
    assert session.state.history == [] and session.version == 0
    assert session.act(mover, "place 4", version=0).ok
    assert session.state.history == ["place 4"] and session.version == 1
    assert "not a legal action" in session.act(1 - mover, "place 4").message


@pytest.mark.parametrize("game_id", ["kuhn-poker", "star-market", *SEED_GAMES])
def test_a_seats_view_holds_no_card_it_may_not_see(game_id: str) -> None:
    """The table part of P1's view never shows a card P1 may not see now; each move of
    another seat is narrated with no card P1 could not see when it was played (a move
    stays narrated as it was seen: a card played face up and later shuffled away is
    remembered, like at a real table)."""
    _, seats = choose_seats(load_game(game_id).definition, None, None, "human", "random")
    session = make_session(game_id, seats, seed=11)
    state = session.state
    for _ in range(40):  # a few turns: the human plays its first legal action, the others theirs
        if state.is_terminal():
            break
        player = state.current_player()
        hidden = hidden_cards(state, 0)
        assert hidden
        view = session.view(0)
        shown = json.dumps({key: value for key, value in view.items() if key != "narration"})
        assert leaked(shown, hidden) == [], f"P1's view shows cards it may not see at action {len(state.history)}"
        if player == 0:
            assert session.act(0, state.legal_actions()[0].text).ok
        else:
            assert session.advance()
            last = session.view(0)["narration"][-1]
            assert last["player"] == player and leaked(last["text"], hidden_cards(state, 0)) == []
    assert len(session.moves) >= (2 if game_id == "kuhn-poker" else 5) and not session.error


def test_other_seats_moves_are_narrated_with_hidden_cards_redacted() -> None:
    session = make_session("kuhn-poker", ["human", "human"], seed=4)
    session.act(0, "bet")
    session.act(1, "bet")
    assert session.state.is_terminal()
    narration = session.view(0)["narration"]
    said = "bet 1 (call when facing a bet)"  # the action's label, as the terminal says it
    assert [(m["player"], m["text"]) for m in narration] == [(0, said), (1, said)]
    result = session.view(0)["result"]
    assert result["reason"] and len(result["returns"]) == 2 and result["lines"][0].startswith("Game over")
    names = {c.id: c.name for c in session.state.gd.cards}
    hands = [names[session.state.card_text(session.state.zones[session.state.layout.zbase[1] + p][0]).split("#")[0]]
             for p in range(2)]
    assert f"hand: P1 {hands[0]} | P2 {hands[1]}" in "\n".join(result["lines"])  # the showdown


def test_a_simultaneous_pick_stays_secret_until_every_seat_has_picked(tmp_path: Path) -> None:
    log_path = tmp_path / "rps.json"
    session = make_session("rock-paper-scissors", ["human", "human"], log_path=log_path)
    assert session.view(0)["decision"] and session.view(1)["decision"]
    assert session.act(1, "scissors", version=0).ok  # the second seat may pick first
    first, second = session.view(0), session.view(1)
    assert first["narration"][-1]["text"] == "has chosen" and second["narration"][-1]["text"] == "scissors"
    assert "scissors" not in json.dumps(first["narration"])
    assert [c["values"] for c in first["table"]["counters"] if c["name"] == "shape"] == [["0", "0"]]
    assert second["decision"] is None and first["waiting_for"] == [0]
    assert session.act(1, "rock").message == "it is not P2's turn"
    again = resume_session(str(log_path), None, tmp_path / "rps2.json", None)
    assert again.view(0)["narration"][-1]["text"] == "has chosen"
    assert again.view(1)["narration"][-1]["text"] == "scissors"
    assert session.act(0, "rock", version=0).ok
    assert [m["text"] for m in session.view(0)["narration"]] == ["scissors", "rock"]
    assert session.view(1)["narration"][0]["lines"] == [] and session.view(0)["result"]["returns"] == [1.0, -1.0]
    assert read_log(log_path).actions == ["P2: scissors", "P1: rock"]


def test_bots_pick_in_a_simultaneous_step_and_are_told_the_picks_after_it() -> None:
    session = make_session("goofspiel", ["human", "random"], seed=2)
    while not session.state.is_terminal():
        while session.advance():
            pass
        if session.state.is_terminal():
            break
        view = session.view(0)
        assert view["decision"], view["waiting_for"]
        assert session.act(0, view["decision"]["groups"][0]["options"][0]["action"]).ok
    assert not session.error and session.view(0)["result"] is not None
    assert all(not m.sealed for m in session.moves)


def test_the_log_is_written_after_every_action_and_the_game_resumes(tmp_path: Path) -> None:
    log_path = tmp_path / "game.json"
    session = make_session("tic-tac-toe", ["human", "random"], seed=2, log_path=log_path)
    session.save()
    assert read_log(log_path).actions == []
    assert session.act(0, "place 4").ok
    assert read_log(log_path).actions == ["place 4"]
    again = resume_session(str(log_path), None, None, None)
    assert again.state.history == ["place 4"] and again.log_path == log_path
    assert [m.player for m in again.moves] == [0]
    assert again.view(0)["narration"][0]["text"] == "place 4"


def test_a_log_of_another_game_is_never_overwritten(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text("not a log\n")
    from interpreter.diagnostics import GameError

    with pytest.raises(GameError, match=r"other\.json"):
        make_session("tic-tac-toe", ["human", "random"], log_path=other)
    assert other.read_text() == "not a log\n"


def test_a_finished_game_is_not_resumed(tmp_path: Path) -> None:
    log_path = tmp_path / "done.json"
    session = make_session("kuhn-poker", ["human", "human"], log_path=log_path)
    session.act(0, "pass")
    session.act(1, "pass")
    from interpreter.diagnostics import GameError

    with pytest.raises(GameError, match="that game is over"):
        resume_session(str(log_path), None, None, None)


def test_fresh_log_paths_never_reuse_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    first = fresh_log_path("kuhn-poker", 3)
    first.write_text("{}")
    assert fresh_log_path("kuhn-poker", 3) != first


# ---- over HTTP -----------------------------------------------------------------------------


def test_routes_open_only_with_a_seats_token() -> None:
    session = make_session("kuhn-poker", ["human", "human"], seed=6)
    with served(session) as base:
        urls = dict(seat_urls(session, base))
        assert set(urls) == {"P1", "P2", "Spectator"}
        status, html = get(urls["P1"])
        assert status == 200 and "table.js" in html
        assert get(urls["Spectator"])[0] == 200
        status, body = post(urls["Spectator"] + "/act", b'{"action": "bet", "version": 0}')
        assert status == 200 and body["ok"] is False and "only watches" in body["message"]
        for bad in (f"{base}/seat/nope", f"{base}/seat/nope/state", f"{base}/", f"{base}/static/../app.py",
                    urls["P1"][:-1] + "/state", f"{base}/static/secret.txt"):
            assert get(bad)[0] == 404, bad
        assert post(f"{base}/seat/{'x' * 32}/act", b'{"action": "bet", "version": 0}')[0] == 404
        assert get(f"{base}/static/table.js")[0] == 200


def test_every_response_to_a_seat_hides_the_other_hand() -> None:
    session = make_session("kuhn-poker", ["human", "human"], seed=8)
    state = session.state
    theirs = {state.card_text(c) for c in state.zones[state.layout.zbase[1] + 1]}  # P2's hand
    names = {load_game("kuhn-poker").definition.cards[state.card_def[c]].name
             for c in state.zones[state.layout.zbase[1] + 1]}
    with served(session) as base:
        url = dict(seat_urls(session, base))["P1"]
        page = get(url)[1]
        status, body = get(f"{url}/state")
        assert status == 200
        view = json.loads(body)
        assert view["seat"] == 0 and view["decision"] is not None
        for text in (page, body):
            assert leaked(text, theirs) == []
            assert not any(name in text for name in names)
        assert post(f"{url}/act", json.dumps({"action": "pass", "version": view["version"]}).encode()) == \
            (200, {"ok": True, "message": ""})
        status, body = get(f"{url}/state?since={view['version']}")
        assert json.loads(body)["version"] == view["version"] + 1
        assert leaked(body, theirs) == [] and not any(name in body for name in names)


def test_bad_requests_are_answered_without_a_traceback() -> None:
    session = make_session("tic-tac-toe", ["human", "human"])
    with served(session) as base:
        url = dict(seat_urls(session, base))["P1"]
        assert get(f"{url}/state?since=soon") == (400, json.dumps({"error": "'since' must be a number"},
                                                                   separators=(",", ":")))
        for body in (b"", b"[]", b'{"action": 4}', b"\xff", b'{"action": "place 1", "version": "x"}',
                     b'{"action": "place 1"}', b'{"action": "place 1", "version": true}'):
            status, answer = post(f"{url}/act", body)
            assert status == 400 and "Traceback" not in str(answer)
        mover = session.state.current_player()
        wrong = dict(seat_urls(session, base))[f"P{2 - mover}"]
        assert post(f"{wrong}/act", b'{"action": "place 1", "version": 0}') == (200, {"ok": False,
                                                                        "message": f"it is not P{2 - mover}'s turn"})


def test_bots_play_on_the_server_until_it_is_a_humans_turn() -> None:
    session = make_session("tic-tac-toe", ["random", "human"], seed=1)
    with served(session) as base:
        url = dict(seat_urls(session, base))["P2"]
        view = json.loads(get(f"{url}/state?since=0")[1])  # waits for the bot's first move
        assert [m["player"] for m in view["narration"]] == [0]
        assert view["decision"] is not None and view["waiting_for"] == [1]


# ---- the command ---------------------------------------------------------------------------


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "interpreter", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


@pytest.mark.parametrize(("args", "message"), [
    (["serve"], "serve needs a GAME (or --resume LOG)"),
    (["serve", "--resume", "x.json", "--seed", "3"], "--resume takes the game's settings from the log; drop --seed"),
    (["serve", "tic-tac-toe", "--players", "3"], "Tic-tac-toe is for 2 players, not 3"),
    (["serve", "tic-tac-toe", "--port", "70000"], "argument --port: a port is 0-65535, not 70000"),
    (["serve", "tic-tac-toe", "--port", "http"], "argument --port: not a whole number: 'http'"),
])
def test_serve_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    done = run_cli(*args, "--no-browser", cwd=tmp_path)
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


def test_serve_reports_a_port_it_cannot_use(tmp_path: Path) -> None:
    with socket.socket() as busy:  # a port another program holds
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_cli("serve", "tic-tac-toe", "--port", str(port), "--no-browser", cwd=tmp_path)
    assert done.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "choose another with --port P" in done.stderr  # what to do about it
    assert "Traceback" not in done.stderr


def test_serve_prints_a_url_per_human_seat_and_keeps_the_game_when_stopped(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "interpreter", "serve", "tic-tac-toe", "--seats", "human,human", "--seed", "4",
               "--port", "0", "--no-browser"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=env)
    assert process.stdout is not None
    urls: dict[str, str] = {}
    while len(urls) < 2:
        line = process.stdout.readline()
        assert line, "serve ended before printing its URLs"
        match = re.fullmatch(r"(P\d): (http://127\.0\.0\.1:\d+/seat/[\w-]{32,})\n", line)
        if match:
            urls[match.group(1)] = match.group(2)
    assert post(f"{urls['P1']}/act", b'{"action": "place 4", "version": 0}') == (200, {"ok": True, "message": ""})
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    saved = tmp_path / "tic-tac-toe-seed4.orrery-log.json"
    assert f"1 actions saved to {saved.name}; continue with: orrery serve --resume {saved.name}" in out
    assert read_log(saved).actions == ["place 4"]


def test_the_end_of_the_game_is_worked_out_once_for_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its showdown replays the game: pages polling a finished table must not redo it."""
    from interpreter.web import session as session_module
    calls: list[int] = []
    real = session_module.result_view
    monkeypatch.setattr(session_module, "result_view", lambda state: calls.append(1) or real(state))
    session = make_session("kuhn-poker", ["human", "human"], seed=4)
    assert session.view(0)["result"] is None and calls == []  # not over yet: nothing worked out
    session.act(0, "bet")
    session.act(1, "bet")
    first = session.view(0)["result"]
    assert first["lines"][0].startswith("Game over")
    assert session.view(1)["result"] == first and session.view(0)["result"] == first and calls == [1]


def test_setup_and_game_bots_picks_are_narrated_by_name_with_hidden_cards_hidden() -> None:
    """The narration opens with what setup told (a game bot's lane); a bot's pick of a card
    P1 may not see is 'a hidden card' on P1's page until it is revealed; no line shows a card's `id#copy`."""
    session = make_session("race-to-mars", ["human", "pilot"], seed=3)
    opening = session.view(0)["narration"][0]
    assert opening["player"] == -1 and "P2 (pilot): choose your launch pad: 0" in opening["lines"]
    assert session.act(0, session.state.legal_actions(0)[0].text).ok
    lines = [line for move in session.view(0)["narration"] for line in move["lines"]]
    assert "P2 (pilot): keep one Headquarters: a hidden card" in lines  # not revealed yet
    for _ in range(2):
        assert session.act(0, session.state.legal_actions(0)[0].text).ok
    lines = [line for move in session.view(0)["narration"] for line in move["lines"]]
    assert "P2 (pilot): keep one Headquarters: HQ: Free placement" in lines  # revealed since
    assert not [line for line in lines if re.search(r"[a-z0-9]#\d", line)]


def test_a_seat_takes_back_its_own_slip_and_nothing_else(tmp_path: Path) -> None:
    """The page offers to take back the seat's last decision while it told nothing new;
    taking it back rebuilds the game without it and the log records it."""
    session = make_session("rocketmen", ["human", "random"], seed=3, log_path=tmp_path / "game.json")
    start = session.view(0)
    assert start["undo"] == ""
    bought = start["decision"]["groups"][0]["options"][0]
    assert session.act(0, bought["action"], session.version).ok
    view = session.view(0)
    assert view["undo"].startswith("buy ") and not session.act(0, ":undo", session.version - 1).ok
    assert session.act(0, ":undo", session.version).ok
    assert list(session.state.history) == [] and session.view(0)["decision"] == start["decision"]
    assert json.loads((tmp_path / "game.json").read_text())["undone"] == [{"by": 0, "after": 0,
                                                                         "action": bought["action"]}]
    lanes = make_session("race-to-mars", ["human", "pilot"], seed=3)  # the lane deals Headquarters cards
    assert lanes.act(0, lanes.state.legal_actions(0)[0].text).ok
    assert lanes.view(0)["undo"] == "" and not lanes.act(0, ":undo").ok


def test_serving_beyond_this_machine_is_told_as_such() -> None:
    from interpreter.web.launch import _loopback

    with socket.socket() as near, socket.socket() as far:
        near.bind(("127.0.0.1", 0))
        far.bind(("0.0.0.0", 0))  # every address of the machine: a warning is printed
        assert _loopback(near) and not _loopback(far)
