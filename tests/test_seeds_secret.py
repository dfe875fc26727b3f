"""Seeds keep secrets, and Ctrl-C never shows a traceback.

A seed tells every card its game deals: a player who sees it (or can search a small
space of seeds for the one that deals the hand they see) sees the others' hands. So a
seed nobody gave is 64 bits from the operating system, used whole by the engine's
generator, and shown to players only when the game is over: never in the header, a
prompt, `help`, or the "saved, continue with" line of a game stopped early (nor in
the name of the file saved then), and never sent to a browser seat. Logs with such
seeds replay, resume and verify like any other; small seeds play as they always did.

Ctrl-C tests run the real command in a subprocess whose import of one module blocks
(a `sitecustomize` hook that prints a line and sleeps), then send SIGINT: the moment
is fixed by the hook, never by a wall clock.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import select
import signal
import subprocess
import sys
import textwrap
import urllib.request
from typing import Any

import pytest
from conftest import answers, run

from interpreter import GameError, load_game
from interpreter.cli import main
from interpreter.play.logs import new_log, parse_log, read_log
from interpreter.runtime.rng import SEED_BITS, fresh_seed

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIG = 0xB7E151628AED2A6B  # a 64-bit seed: its 20 digits cannot turn up by chance
WAIT = 180  # seconds a subprocess may take to reach a point (a busy machine); never needed to pass


def drawn(monkeypatch: pytest.MonkeyPatch, seed: int = BIG) -> None:
    """The next seeds the command line draws are `seed` (to look for it in the output)."""
    monkeypatch.setattr("interpreter.cli.fresh_seed", lambda: seed)


def log_data(path: pathlib.Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


# ---- the seed is shown at the end, never before --------------------------------------------


def test_a_drawn_seed_is_shown_only_when_the_game_ends(capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)  # the log named by a short path: a long one would wrap in the output
    drawn(monkeypatch)
    log = tmp_path / "kuhn.json"
    answers(monkeypatch, "help", "log", "view", "pass")  # P2 (first) passes too: showdown
    code, out, _ = run(capsys, "play", "kuhn-poker", "--seats", "human,first", "--log", "kuhn.json")
    assert code == 0
    during, end, after = out.partition("Game over")
    assert end and "P1> " in during and "Commands:" in during  # the prompts and help were shown
    assert str(BIG) not in during and "seed" not in during.lower()
    assert f"Seed: {BIG} (--seed {BIG} deals this game again)." in after
    assert log_data(log)["seed"] == BIG  # the game was played with it


def test_a_game_stopped_early_keeps_its_seed_out_of_sight(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    drawn(monkeypatch)
    answers(monkeypatch, "place 0", "quit")
    code, out, err = run(capsys, "play", "tic-tac-toe", "--seats", "human,first")
    assert code == 0 and "continue with: orrery play --resume" in out
    [saved] = tmp_path.glob("*.orrery-log.json")
    assert re.fullmatch(r"tic-tac-toe-\d{8}-\d{6}\.orrery-log\.json", saved.name)  # no seed in its name
    assert str(BIG) not in out + err and "seed" not in (out + err).lower()
    assert log_data(saved)["seed"] == BIG  # the file holds it (docs/saves.md says so)

    # Resumed: not shown while it is played; shown at its end; the log verifies.
    answers(monkeypatch, "place 3", "place 6")
    code, out, err = run(capsys, "play", "--resume", str(saved))
    assert code == 0
    during, end, after = out.partition("Game over")
    assert end and "resumed after 2 actions" in during
    assert str(BIG) not in during + err and f"Seed: {BIG}" in after
    code, out, _ = run(capsys, "replay", str(saved), "--verify")
    assert code == 0 and "verified" in out


def test_an_interrupted_game_keeps_its_seed_out_of_sight(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    drawn(monkeypatch)
    replies = iter(["place 0"])

    def read(_console: object, _prompt: str) -> str:
        for reply in replies:
            return reply
        raise KeyboardInterrupt

    monkeypatch.setattr("interpreter.play.terminal.Console.read", read)
    code, out, err = run(capsys, "play", "tic-tac-toe", "--seats", "human,first")
    assert code == 130 and "--resume" in out and err == "orrery: error: interrupted\n"
    assert str(BIG) not in out + err
    [saved] = tmp_path.glob("*.orrery-log.json")
    assert str(BIG) not in saved.name and log_data(saved)["seed"] == BIG


def test_a_seed_the_player_gave_is_theirs_to_see(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    answers(monkeypatch, "place 0", "quit")
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seats", "human,first", "--seed", "41")
    assert code == 0 and out.startswith("Tic-tac-toe: 2 players, seed 41.")
    assert "saved to tic-tac-toe-seed41.orrery-log.json" in out


# ---- drawn seeds: from the OS, 64 bits, used whole ---------------------------------------


def test_default_seeds_are_fresh_and_wider_than_32_bits(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: pathlib.Path) -> None:
    seeds = [fresh_seed() for _ in range(32)]
    assert len(set(seeds)) == 32 and all(0 <= s < 1 << SEED_BITS for s in seeds)
    assert max(seeds) >= 1 << 32  # all 32 below 2**32: one chance in 2**1024
    played = []
    for name in ("a.json", "b.json"):  # no human seat: plays to the end
        code, out, _ = run(capsys, "play", "kuhn-poker", "--seats", "random,random", "--log", str(tmp_path / name))
        seed = log_data(tmp_path / name)["seed"]
        assert code == 0 and isinstance(seed, int) and f"Seed: {seed} " in out
        played.append(seed)
    assert played[0] != played[1] and max(played) >= 1 << 32


@pytest.mark.parametrize("bit", [31, 32, 40, 48, 56, 63])
def test_seeds_differing_only_in_high_bits_deal_differently(bit: int) -> None:
    game = load_game("star-market")  # a deck of 35 cards, shuffled at setup
    for base in (0, 7, 123456789):
        one = game.new_initial_state(seed=base)
        other = game.new_initial_state(seed=base ^ (1 << bit))
        assert one.zones != other.zones, (base, bit)


def test_small_seeds_play_as_before() -> None:
    """The generator starts at the seed itself (modulo 2**64): a seed below 2**31 gives
    the game it always gave. Kuhn poker's deals (deck, P1's hand, P2's hand) by seed,
    as the engine dealt them before seeds were drawn wider."""
    game = load_game("kuhn-poker")

    def deal(seed: int) -> tuple[str, ...]:
        state = game.new_initial_state(seed=seed)
        return tuple(state.card_text(zone[0]).split("#")[0] for zone in state.zones)

    assert [deal(seed) for seed in range(6)] == [
        ("king", "queen", "jack"), ("jack", "king", "queen"), ("king", "queen", "jack"),
        ("king", "jack", "queen"), ("king", "queen", "jack"), ("queen", "king", "jack")]
    assert [deal(seed + (1 << 64)) for seed in range(6)] == [deal(seed) for seed in range(6)]  # modulo 2**64
    assert game.new_initial_state(seed=5).rng != game.new_initial_state(seed=5 + (1 << 40)).rng


def test_a_log_with_a_64_bit_seed_replays_resumes_and_verifies(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: pathlib.Path) -> None:
    seed = (1 << 64) - 59  # 64 bits, nearly all of them set
    log = tmp_path / "star.json"
    code, _, _ = run(capsys, "play", "star-market", "--seats", "random,random", "--seed", str(seed),
                     "--log", str(log))
    assert code == 0 and log_data(log)["seed"] == seed and '"seed": 18446744073709551557' in log.read_text()
    code, out, _ = run(capsys, "replay", str(log), "--verify")
    assert code == 0 and "verified" in out
    # A game stopped after two moves resumes from its 64-bit seed and verifies at the end.
    part = tmp_path / "part.json"
    data = log_data(log)
    part.write_text(json.dumps(dict(data, actions=data["actions"][:2], result=None)), encoding="utf-8")
    code, out, _ = run(capsys, "play", "--resume", str(part))
    assert code == 0 and "Game over" in out
    assert log_data(part)["actions"] == data["actions"] and log_data(part)["result"] == data["result"]


def test_signed_logs_and_saves_with_64_bit_seeds_still_catch_tampering() -> None:
    game = load_game("star-market")
    state = game.new_initial_state(2, (1 << 63) + 12345, ["random", "random"])
    saved = json.loads(state.to_json())
    assert game.state_from_json(json.dumps(saved)).zones == state.zones
    with pytest.raises(GameError):  # another seed (its top bit flipped) is not this game's
        game.state_from_json(json.dumps(dict(saved, seed=saved["seed"] ^ (1 << 63))))

    log = new_log(game, "star-market", [], 2, ["random", "random"], (1 << 64) - 1)
    log.sign_key = b"k" * 16
    text = log.to_json()
    assert parse_log(text, key=log.sign_key).seed == (1 << 64) - 1
    changed = json.dumps(dict(json.loads(text), seed=(1 << 63) - 1))
    with pytest.raises(GameError, match="changed after it was signed"):
        parse_log(changed, key=log.sign_key)


# ---- serve: the seed stays on the host's console until the end ---------------------------


def _served(tmp_path: pathlib.Path) -> tuple[subprocess.Popen[str], dict[str, str], list[str]]:
    pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is not installed")
    pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is not installed")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    command = [sys.executable, "-m", "interpreter", "serve", "tic-tac-toe", "--seats", "human,human",
               "--port", "0", "--no-browser"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=env, preexec_fn=_hear_ctrl_c)
    assert process.stdout is not None
    urls: dict[str, str] = {}
    lines: list[str] = []
    while len(urls) < 2:
        line = process.stdout.readline()
        assert line, "serve ended before printing its URLs"
        lines.append(line)
        match = re.fullmatch(r"(P\d): (http://127\.0\.0\.1:\d+/seat/[\w-]{32,})\n", line)
        if match:
            urls[match.group(1)] = match.group(2)
    return process, urls, lines


def _act(url: str, action: str) -> None:
    version = json.loads(_page(url))["version"]  # the table's version the action is chosen at
    body = json.dumps({"action": action, "version": version}).encode()
    request = urllib.request.Request(f"{url}/act", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        assert json.loads(response.read()) == {"ok": True, "message": ""}


def _page(url: str) -> str:
    with urllib.request.urlopen(f"{url}/state") as response:
        return str(response.read().decode())


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
def test_serve_never_shows_a_drawn_seed_before_the_end(tmp_path: pathlib.Path) -> None:
    process, urls, lines = _served(tmp_path)
    pages = [_page(urls["P1"]), _page(urls["P2"])]
    _act(urls["P1"], "place 4")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=WAIT)
    assert process.returncode == 0, err
    assert lines[0] == "Tic-tac-toe: 2 players.\n"
    [saved] = tmp_path.glob("*.orrery-log.json")
    seed = read_log(saved).seed
    assert f"1 actions saved to {saved.name}" in out and str(seed) not in saved.name
    assert str(seed) not in "".join(lines) + out + err + "".join(pages)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
def test_serve_shows_the_seed_when_the_game_is_over(tmp_path: pathlib.Path) -> None:
    process, urls, lines = _served(tmp_path)
    for seat, action in (("P1", "place 0"), ("P2", "place 3"), ("P1", "place 1"), ("P2", "place 4"),
                         ("P1", "place 2")):
        _act(urls[seat], action)
    pages = [_page(urls["P1"]), _page(urls["P2"])]
    assert all("Game over" in page for page in pages)  # the pages show the end, without the seed
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=WAIT)
    assert process.returncode == 0, err
    found = re.search(r"^Seed: (\d+) \(--seed \d+ deals this game again\)\.$", out, re.M)
    assert found, out
    seed = found.group(1)
    assert seed not in "".join(lines) + "".join(pages) and int(seed) >= 0


# ---- Ctrl-C: one line and exit code 130, never a traceback ----------------------------------

HOOK = textwrap.dedent("""
    # Test hook (tests/test_seeds_secret.py): the import of $ORRERY_TEST_BLOCK_IMPORT
    # says so on stdout, then waits for the test's SIGINT.
    import os, sys, time

    _target = os.environ.get("ORRERY_TEST_BLOCK_IMPORT")


    class _Block:
        def find_spec(self, name, path=None, target=None):
            if name != _target:
                return None
            sys.meta_path.remove(self)
            sys.stdout.write("importing " + name + "\\n")
            sys.stdout.flush()
            while True:
                time.sleep(0.05)


    if _target:
        sys.meta_path.insert(0, _Block())
""")


def _hear_ctrl_c() -> None:
    """In the child before it runs: Ctrl-C does what it does in a terminal (a test run
    in the background may have inherited it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupted_while_importing(tmp_path: pathlib.Path, module: str, command: list[str]) -> tuple[int, str, str]:
    """Run `command` with the import of `module` blocked; SIGINT it there."""
    hook = tmp_path / "hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env = dict(os.environ, ORRERY_TEST_BLOCK_IMPORT=module,
               PYTHONPATH=os.pathsep.join([str(hook), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=env, preexec_fn=_hear_ctrl_c)
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], WAIT)
    if not ready:
        process.kill()
        pytest.fail(f"the command never reached the import of {module}: {process.communicate()}")
    first = process.stdout.readline()
    if first != f"importing {module}\n":
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"expected the blocked import of {module}, got {first!r}; stderr: {err}")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=WAIT)
    return process.returncode, out, err


def _orrery_script() -> str:
    script = pathlib.Path(sys.executable).with_name("orrery")
    if not script.exists():
        pytest.skip("no orrery script beside this Python (not installed in this environment)")
    return str(script)


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")


@posix_only
def test_ctrl_c_while_the_command_line_loads_is_one_line(tmp_path: pathlib.Path) -> None:
    # `interpreter.play.describe` is imported by the command line only, not by the package.
    code, out, err = _interrupted_while_importing(
        tmp_path, "interpreter.play.describe", [sys.executable, "-m", "interpreter", "list"])
    assert (code, err) == (130, "orrery: error: interrupted\n"), err
    assert out == ""  # nothing after the line the hook printed


@posix_only
def test_ctrl_c_while_a_command_loads_what_it_needs_is_one_line(tmp_path: pathlib.Path) -> None:
    # serve loads the web stack when it starts: Ctrl-C then ends it like any other moment.
    code, _, err = _interrupted_while_importing(
        tmp_path, "interpreter.web.app",
        [sys.executable, "-m", "interpreter", "serve", "tic-tac-toe", "--port", "0", "--no-browser"])
    assert (code, err) == (130, "orrery: error: interrupted\n"), err


@posix_only
def test_ctrl_c_while_the_package_imports_is_one_line_with_python_m(tmp_path: pathlib.Path) -> None:
    code, _, err = _interrupted_while_importing(
        tmp_path, "interpreter.game.factory", [sys.executable, "-m", "interpreter", "list"])
    assert (code, err) == (130, "orrery: error: interrupted\n"), err


@posix_only
def test_ctrl_c_while_the_package_imports_is_one_line_with_the_script(tmp_path: pathlib.Path) -> None:
    code, _, err = _interrupted_while_importing(tmp_path, "interpreter.game.factory", [_orrery_script(), "list"])
    assert (code, err) == (130, "orrery: error: interrupted\n"), err


def test_ctrl_c_while_an_error_is_reported_is_still_one_line(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(_argv: object) -> int:
        raise GameError("the game went wrong")

    said: list[str] = []

    def error(message: str) -> None:
        said.append(message)
        if len(said) == 1:
            raise KeyboardInterrupt  # pressed while the first message is printed

    monkeypatch.setattr("interpreter.cli._run", fails)
    monkeypatch.setattr("interpreter.cli._error", error)
    assert main(["list"]) == 130 and said == ["the game went wrong", "interrupted"]


@posix_only
def test_ctrl_c_stops_a_parallel_simulation_without_a_word_from_its_helpers(tmp_path: pathlib.Path) -> None:
    """A terminal sends Ctrl-C to every process of the command: the helper processes
    must not print tracebacks of their own."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "interpreter", "simulate", "kuhn-poker", "--games", "100000000",
                                "--workers", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=tmp_path, env=env, start_new_session=True, preexec_fn=_hear_ctrl_c)
    assert process.stderr is not None
    ready, _, _ = select.select([process.stderr], [], [], WAIT)
    first = process.stderr.readline() if ready else ""
    if not first.startswith("simulate: "):  # the first progress line: the helpers are playing
        process.kill()
        pytest.fail(f"no progress line: {first!r} {process.communicate()}")
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    _, err = process.communicate(timeout=WAIT)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "Process" not in err and err.endswith("orrery: error: interrupted\n")
