"""The native backend measured beside everything else that plays the same games.

For each game: random playouts as decisions per CPU second on
* orrery native — `Game.playouts` in batches (whole games in C, the seats' picks too);
* orrery native per step — the per-step public API on native states
  (`new_initial_state(native="on")`), by Action (`step`) and by integer id (`step_ids`),
  and the games the id loop plays replayed by Action and by id (`same_actions`,
  `same_ids`: the two paths on the very same games);
* orrery Python — the per-step public API (`bench_loops.OrreryLoop`), today's engine,
  by Action (`python`) and by id (`python_ids`);
* the 0.1 engine — the same loop in a worker process running commit 9a45214's tree;
* OpenSpiel C++ — pyspiel's own game, the same per-step loop from Python;
* OpenSpiel Python — OpenSpiel's hand-written Python game, where it has one;
and the cold compile (a fresh cache: Cython, then the C compiler) and the cached start
(load the game and find its module), each in a fresh process, minus a plain load.

Loops are interleaved in slices (`bench_loops.measure`), so machine load hits them alike.

    python bench/bench_native.py                 # every game, 2 s per loop
    python bench/bench_native.py --seconds 0.5 --only kuhn-poker --json native.json
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_loops  # noqa: E402
from bench_engines import Worker, WorkerError, extract  # noqa: E402
from bench_loops import Counts, OpenSpielLoop, OrreryLoop, measure  # noqa: E402

from interpreter import load_game  # noqa: E402

# orrery game -> (pyspiel C++ name, OpenSpiel Python name or None)
GAMES = {
    "tic-tac-toe": ("tic_tac_toe", "python_tic_tac_toe"),
    "kuhn-poker": ("kuhn_poker", "python_kuhn_poker"),
    "leduc-poker": ("leduc_poker", None),
    "connect-four": ("connect_four", None),
    "breakthrough": ("breakthrough", None),
    "goofspiel": ("goofspiel(num_cards=13,points_order=random,imp_info=True)", None),
    "race-to-mars": (None, None),
    "for-all-mankind": (None, None),
    "rocketmen": (None, None),
}
BASELINE = "9a45214"
LOCAL = {"connect-four": HERE / "games" / "connect-four.yaml"}  # (games of the bench's own, not bundled)
BATCH = 256
SAME_GAMES = 50  # random-id games replayed by Action and by id (SameGamesLoop)


class NativeLoop:
    """Whole games on the native backend, in batches of seeds that continue one run."""

    def __init__(self, game: Any):
        self.game, self.seed = game, bench_loops.BASE_SEED

    def __call__(self, seconds: float) -> Counts:
        now_ = bench_loops.clock
        playouts = decisions = 0
        start = now_()
        while True:
            done = self.game.playouts(BATCH, seed=self.seed, native="on")
            self.seed += BATCH
            playouts += len(done)
            decisions += sum(p.actions for p in done)
            now = now_()
            if now - start >= seconds:
                return Counts(playouts, decisions, 0, 0, now - start)


class StepLoop:
    """Random playouts through the per-step API (as bench_loops.OrreryLoop), on native
    states or Python ones, picking Actions or integer ids."""

    def __init__(self, game: Any, native: str, ids: bool):
        self.game, self.native, self.ids = game, native, ids
        self.rng = random.Random(bench_loops.BASE_SEED)

    def __call__(self, seconds: float) -> Counts:
        choice, getrandbits = self.rng.choice, self.rng.getrandbits
        new_state, native, ids = self.game.new_initial_state, self.native, self.ids
        now_ = bench_loops.clock
        playouts = decisions = 0
        start = now_()
        deadline = start + seconds
        while True:
            state = new_state(seed=getrandbits(32), native=native)
            steps = 0
            if ids:
                while not state.is_terminal():
                    state.apply_action_id(choice(state.legal_action_ids()))
                    steps += 1
            else:
                while not state.is_terminal():
                    state.apply_action(choice(state.legal_actions()))
                    steps += 1
            playouts += 1
            decisions += steps
            now = now_()
            if now >= deadline:
                return Counts(playouts, decisions, 0, 0, now - start)


class SameGamesLoop:
    """The games a random-id loop played, replayed through the per-step API by Action
    (`legal_actions()[k]`, k the option the id applied) or by id: the two paths' cost on
    the very same games. (A random id picks among distinct ids, copies of a card
    sharing one, so the random loops above play other games by id than by Action.)"""

    def __init__(self, game: Any, games: list[tuple[int, list[int], list[int]]], ids: bool):
        self.game, self.games, self.ids, self.next = game, games, ids, 0

    @staticmethod
    def record(game: Any, count: int) -> list[tuple[int, list[int], list[int]]]:
        """`count` random-id games: (seed, the option each id applied, the ids), for the
        replay by Action: the first legal action whose text has the id picked, asked of a
        Python state of the same game (`string_to_action`; asked of the native state, the
        question would hand its game to the Python path). Copies of a card share an id,
        and their options apply alike."""
        rng = random.Random(bench_loops.BASE_SEED + 2)
        games = []
        for _ in range(4 * count):  # (a game whose steps are simultaneous has none: goofspiel)
            if len(games) == count:
                break
            seed = rng.getrandbits(32)
            state = game.new_initial_state(seed=seed, native="on")
            python = game.new_initial_state(seed=seed, native="off")
            picks: list[int] = []
            ids: list[int] = []
            while not state.is_terminal() and state.native and state.players_to_act() == [state.current_player()]:
                a = rng.choice(state.legal_action_ids())
                seat = python.current_player()
                picks.append(next(k for k, action in enumerate(python.legal_actions())
                                  if python.string_to_action(seat, action.text) == a))
                ids.append(a)
                state.apply_action_id(a)
                python.apply_action_id(a)
            if state.is_terminal() and state.native:  # (a game played natively to the end, one seat at a time)
                games.append((seed, picks, ids))
        return games

    def __call__(self, seconds: float) -> Counts:
        new_state, games = self.game.new_initial_state, self.games
        now_ = bench_loops.clock
        playouts = decisions = 0
        start = now_()
        deadline = start + seconds
        while True:
            seed, picks, ids = games[self.next % len(games)]
            self.next += 1
            state = new_state(seed=seed, native="on")
            if self.ids:
                for a in ids:
                    state.legal_action_ids()
                    state.apply_action_id(a)
            else:
                for k in picks:
                    state.apply_action(state.legal_actions()[k])
            playouts += 1
            decisions += len(ids)
            now = now_()
            if now >= deadline:
                return Counts(playouts, decisions, 0, 0, now - start)


def _openspiel(name: str | None) -> Any:
    if name is None:
        return None
    try:
        import pyspiel
        if name.startswith("python_"):
            import open_spiel.python.games  # noqa: F401  (registers OpenSpiel's Python games)
        return pyspiel.load_game(name)
    except Exception:
        return None


def _start_seconds(target: str, cache: str, native: bool) -> float:
    """CPU-free measure of a start in a fresh process: wall seconds to load `target`
    (and, with `native`, to find or build its module)."""
    code = ("import time, sys; t=time.perf_counter(); from interpreter import load_game; "
            f"g=load_game({target!r}); " + ("s=g.native_status(); " if native else "") +
            "print(time.perf_counter()-t)")
    env = dict(os.environ, ORRERY_CACHE=cache)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return float(done.stdout.strip().splitlines()[-1])


def warm_up(game: Any, budget: float) -> dict[str, Any]:
    """Native states learn each option's Action and id once per process, from the Python
    state (docs/native.md): a game with many distinct options (Race to Mars: every card
    copy in every action) learns for hundreds of games. Random games are played until 20
    in a row learn nothing new, or `budget` CPU seconds are spent; what it took is
    reported, and the per-step loops measure the state that follows."""
    module = game.native_status(step=True).module
    rng = random.Random(bench_loops.BASE_SEED + 1)
    start, games, quiet = time.process_time(), 0, 0
    while quiet < 20 and time.process_time() - start < budget:
        known = module.options_known()
        state = game.new_initial_state(seed=rng.getrandbits(32), native="on")
        by_id = games % 2 == 1 and state.legal_action_ids() is not None  # (ids pick otherwise: both paths learn)
        while not state.is_terminal():
            if by_id:
                state.apply_action_id(rng.choice(state.legal_action_ids()))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        games += 1
        quiet = quiet + 1 if module.options_known() == known else 0
    return {"games": games, "seconds": time.process_time() - start, "options": module.options_known(),
            "settled": quiet >= 20}


def bench_game(name: str, seconds: float, rounds: int, old: Worker | None, warm: float = 60.0) -> dict[str, Any]:
    target = str(LOCAL.get(name, name))
    game = load_game(target)
    status = game.native_status()
    row: dict[str, Any] = {"game": name, "players": game.definition.default_players, "native": status.reason}
    cpp_name, py_name = GAMES[name]
    loops: dict[str, Any] = {"python": OrreryLoop(game, None), "python_ids": StepLoop(game, "off", True)}
    if status.module is not None:
        loops["native"] = NativeLoop(game)
    if game.native_status(step=True).module is not None:
        game.new_initial_state(native="on")  # (the per-step module built before the clock starts)
        row["warm_up"] = warm_up(game, warm)
        loops["step"] = StepLoop(game, "on", False)
        loops["step_ids"] = StepLoop(game, "on", True)
        same = SameGamesLoop.record(game, SAME_GAMES)
        if same:
            loops["same_actions"] = SameGamesLoop(game, same, False)
            loops["same_ids"] = SameGamesLoop(game, same, True)
        row["state_copy"] = state_copy(game)
    cpp, ospy = _openspiel(cpp_name), _openspiel(py_name)
    if cpp is not None:
        loops["openspiel_cpp"] = OpenSpielLoop(cpp)
    if ospy is not None:
        loops["openspiel_python"] = OpenSpielLoop(ospy)
    if old is not None:
        try:
            old.request("load", key=name, target=target, variants=[], overlays=[], players=None, repeats=1)
            from bench_engines import RemoteLoop
            loops["orrery_0.1"] = RemoteLoop(old, name)
        except WorkerError as err:
            row["orrery_0.1"] = f"refused: {str(err).splitlines()[0]}"
    counts = measure(list(loops.values()), seconds, rounds)
    for key, c in zip(loops, counts, strict=True):
        row[key] = {"decisions_per_s": c.decisions / c.seconds if c.seconds else 0.0,
                    "playouts_per_s": c.playouts / c.seconds if c.seconds else 0.0}
    if status.module is not None:
        with tempfile.TemporaryDirectory() as cold:
            plain = min(_start_seconds(target, cold, False) for _ in range(2))
            row["cold_compile_s"] = _start_seconds(target, cold, True) - plain
            row["cached_start_s"] = min(_start_seconds(target, cold, True) for _ in range(2)) - plain
    return row


def state_copy(game: Any, copies: int = 2000) -> dict[str, float]:
    """Mid-game (halfway through a random game), the bytes a native state's clone copies
    (its struct) and the CPU µs of a clone, native and of the Python state there."""
    def played(native: str, moves: int | None) -> Any:
        rng, state, done = random.Random(17), game.new_initial_state(None, 17, native=native), 0
        while not state.is_terminal() and (moves is None or done < moves):
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
        return state if moves is not None else done
    half = played("off", None) // 2
    out: dict[str, float] = {"moves": half}
    for native in ("on", "off"):
        state = played(native, half)
        if native == "on":
            out["bytes"] = state._struct_bytes()
        start = time.process_time()
        for _ in range(copies):
            state.clone()
        out[f"clone_us_{native}"] = (time.process_time() - start) / copies * 1e6
    return out


# (game, agent, iterations, random moves played first: Race to Mars opens with choices of
# the setup, searched over Python worlds; its turns start after them)
SEARCHES = (("breakthrough", "mcts", 100, 0), ("tic-tac-toe", "mcts", 400, 0), ("leduc-poker", "ismcts", 400, 0),
            ("kuhn-poker", "ismcts", 400, 0), ("race-to-mars", "ismcts", 50, 12))


def bench_search(name: str, kind: str, iterations: int, opening: int = 0, decisions: int = 4) -> dict[str, Any]:
    """Search iterations per CPU second over decisions of a game between two search
    seats with random rollouts, natively (worlds on native states, or rollouts in C) and
    in Python (the same decisions: tested)."""
    from interpreter.agents.registry import create_agent
    game = load_game(name)
    row: dict[str, Any] = {"game": name, "agent": f"{kind}:iterations={iterations},rollout=random"}
    for mode in ("on", "off"):
        os.environ["ORRERY_NATIVE"] = mode
        game.native_status()  # (built or loaded before the clock starts)
        game.native_status(step=True)
        state = game.new_initial_state(None, 11)
        opener = random.Random(5)
        for _ in range(opening):
            state.apply_action(opener.choice(state.legal_actions()))
        agents = [create_agent(row["agent"], game.definition, 3, p) for p in range(2)]
        done, start = 0, time.process_time()
        for _ in range(decisions):
            if state.is_terminal():
                break
            agent = agents[state.current_player()]
            state.apply_action(agent.step(state))
            done += agent.iterations_done
        row["native" if mode == "on" else "python"] = done / (time.process_time() - start)
    os.environ.pop("ORRERY_NATIVE", None)
    return row


def render(rows: list[dict[str, Any]]) -> str:
    cols = ["native", "step", "step_ids", "python", "python_ids", "orrery_0.1", "openspiel_cpp", "openspiel_python"]
    out = ["decisions per CPU second (random playouts): native batched, native per step (Actions, ids),",
           "Python per step (Actions, ids), the 0.1 engine, OpenSpiel; ratios: native over each",
           f"{'game':<16}" + "".join(f"{c:>18}" for c in cols) + f"{'cold':>8}{'cached':>8}"]
    for row in rows:
        cells = []
        for c in cols:
            v = row.get(c)
            cells.append(f"{v['decisions_per_s']:>18,.0f}" if isinstance(v, dict) else f"{'-':>18}")
        cold = f"{row['cold_compile_s']:>7.1f}s" if "cold_compile_s" in row else f"{'-':>8}"
        cached = f"{row['cached_start_s']:>7.2f}s" if "cached_start_s" in row else f"{'-':>8}"
        out.append(f"{row['game']:<16}" + "".join(cells) + cold + cached)
        native = row.get("native") if isinstance(row.get("native"), dict) else None
        if native:
            ratios = [f"{c} {native['decisions_per_s'] / row[c]['decisions_per_s']:.1f}x"
                      for c in cols[1:] if isinstance(row.get(c), dict) and row[c]["decisions_per_s"]]
            out.append(f"{'':<16}native over: " + ", ".join(ratios))
        step = row.get("step") if isinstance(row.get("step"), dict) else None
        if step:
            ratios = [f"{c} {step['decisions_per_s'] / row[c]['decisions_per_s']:.2f}x"
                      for c in ("python", "orrery_0.1", "openspiel_cpp")
                      if isinstance(row.get(c), dict) and row[c]["decisions_per_s"]]
            out.append(f"{'':<16}per step over: " + ", ".join(ratios))
            ids = [f"random games {row['step_ids']['decisions_per_s'] / step['decisions_per_s']:.2f}x"] \
                if isinstance(row.get("step_ids"), dict) and step["decisions_per_s"] else []
            same = row.get("same_ids"), row.get("same_actions")
            if isinstance(same[0], dict) and isinstance(same[1], dict) and same[1]["decisions_per_s"]:
                ids.append(f"the same games {same[0]['decisions_per_s'] / same[1]['decisions_per_s']:.2f}x "
                           f"({same[0]['decisions_per_s']:,.0f} and {same[1]['decisions_per_s']:,.0f} a second)")
            if ids:  # (a random id picks among distinct ids: the random loops play other games)
                out.append(f"{'':<16}per step, ids over Actions: " + "; ".join(ids))
        else:
            out.append(f"{'':<16}{row['native']}")
        copy = row.get("state_copy")
        if copy:
            out.append(f"{'':<16}a state copy after {copy['moves']} moves: {copy['bytes']:,} bytes; a clone "
                       f"{copy['clone_us_on']:.1f} µs (the Python state's {copy['clone_us_off']:.1f} µs)")
        warm = row.get("warm_up")
        if warm and warm["games"]:
            out.append(f"{'':<16}(per step after a warm-up of {warm['games']} games, {warm['seconds']:.1f} s: "
                       f"{warm['options']:,} options known{'' if warm['settled'] else ', still learning'})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per loop and game")
    parser.add_argument("--rounds", type=int, default=8, help="interleaved slices per loop")
    parser.add_argument("--only", action="append", default=[], help="one game (repeatable)")
    parser.add_argument("--no-baseline", action="store_true", help="leave the 0.1 engine out")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--warm", type=float, default=60.0,
                        help="CPU seconds at most for native states to learn the options (before the per-step loops)")
    args = parser.parse_args(argv)
    names = args.only or list(GAMES)
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)} (one of {', '.join(GAMES)})")
    old = extracted = None
    if not args.no_baseline:
        extracted, why = extract(HERE.parent, BASELINE)
        if extracted is None:
            print(f"0.1 engine left out: {why}", file=sys.stderr)
        else:
            old = Worker(extracted.root, "0.1")
    rows = []
    started = time.perf_counter()
    try:
        for name in names:
            rows.append(bench_game(name, args.seconds, args.rounds, old, args.warm))
            print(f"  {name} measured", file=sys.stderr)
    finally:
        if old is not None:
            old.close()
        if extracted is not None:
            extracted.remove()
    searches = [bench_search(*s) for s in SEARCHES if not args.only or s[0] in args.only]
    print(render(rows))
    print("\nsearch iterations per CPU second, native (worlds on native states) / Python")
    for r in searches:
        print(f"{r['game']:<16}{r['agent']:<26}{r['native']:>10,.0f}{r['python']:>10,.0f}"
              f"{r['native'] / r['python']:>8.1f}x")
    print(f"({time.perf_counter() - started:.0f} s)")
    if args.json:
        Path(args.json).write_text(json.dumps({"rows": rows, "searches": searches}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
