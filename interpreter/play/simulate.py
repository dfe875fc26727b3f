"""`orrery simulate`: many seeded games with agents in every seat, summed up for balance.

Game i is played with seed `seed + i` and its agents are seeded from (that seed, seat),
so every game is a pure function of its seed: the summary is the same whatever the
number of worker processes (only `seconds` differs). A game that raises, or does not
end within the action cap, is counted as an error with its seed and message, and the
run goes on.

Parallel runs are built to scale with cores, so that nothing per game crosses between
processes but one small tuple:
* with N workers, this process is one of them and N-1 helpers are started for the run:
  N processes play games, none sits waiting (on N cores, N busy processes);
* helpers are forked where that is safe (Linux, no other thread in the process): they
  start in milliseconds with the game already loaded. Elsewhere they are spawned and
  each loads the game once;
* the games are cut into chunks of consecutive seeds that shrink as the work runs out
  (a quarter of each worker's share of what is left, capped), so there are few round
  trips and no worker idles at the end waiting on a long last chunk; whoever is free
  takes the next chunk from a shared counter;
* helpers send their outcomes back as plain tuples (attrs records pickle several times
  slower); this process gathers them between its own chunks.
A helper that dies is reported as an error instead of being waited for. Helpers do
not hear Ctrl-C (a terminal sends it to every process of the command, and each would
print its own traceback): this process hears it and stops them.

Another `Backend` (`--backend ray`, in play/ray_backend.py) may play the games instead:
it plays the same chunks with the same `play_rows`, so the summary is the same.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import multiprocessing.process
import operator
import queue
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TextIO

import attrs

from interpreter.diagnostics import GameError
from interpreter.game import Game, load_game
from interpreter.game.playouts import native_rows, uses_native
from interpreter.play.recording import Recorder, count_bot_picks
from interpreter.play.runner import MAX_ACTIONS, run, seat_agents
from interpreter.runtime.card_powers import watching_uses
from interpreter.runtime.watch import watching_powers

ERROR_SAMPLES = 5
PROGRESS_EVERY = 2.0  # seconds between progress lines


@attrs.frozen
class SimulationSpec:
    """What to play: everything a worker needs to load the game and seat the table."""

    target: str
    variants: tuple[str, ...]
    overlays: tuple[str, ...]
    players: int
    seats: tuple[str, ...]
    max_actions: int = MAX_ACTIONS
    record: bool = False  # count each seat's plays per action and card (`orrery analyze`)
    # auto, on or off: whole games of `random` seats played by the native backend
    # (game/playouts.py), with the same outcomes; a game it cannot finish is played here.
    native: str = "off"


@attrs.frozen
class Outcome:
    """How one game went (or the error it raised)."""

    seed: int
    winners: tuple[int, ...] = ()
    returns: tuple[float, ...] = ()
    actions: int = 0
    rounds: int = 0
    turns: int = 0
    error: str | None = None
    scores: tuple[float, ...] = ()  # the game's `scoring.score` per seat at the end
    reason: str = ""  # which end condition (or `end game`) ended it
    plays: tuple[tuple[int, str, int], ...] = ()  # with `record`: (seat, "action X" or "card X", times)
    # With `record` also (play/recording.py): (seat, "effect|trigger|modifier ID", times),
    # (seat, card id held at the end), (turn, scores) at each turn's first decision and
    # at the end, decisions made, those with one legal action, legal actions summed.
    powers: tuple[tuple[int, str, int], ...] = ()
    held: tuple[tuple[int, str], ...] = ()
    score_history: tuple[tuple[int, tuple[float, ...]], ...] = ()
    decisions: int = 0
    forced: int = 0
    branching: int = 0
    repeats: int = 0  # with `record`: the most times one position was seen at a turn's first decision


# ---- one game ------------------------------------------------------------------------------

# Per process: each worker loads a game once, whoever sits at the table (analyze's
# tournaments and rotations play the same rules with many seatings).
_GAMES: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Game] = {}


def _rules_of(spec: SimulationSpec) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    return spec.target, spec.variants, spec.overlays


def game_for(spec: SimulationSpec) -> Game:
    """The game of `spec`, loaded once per process (workers play many games of it)."""
    game = _GAMES.get(_rules_of(spec))
    if game is None:
        game = load_game(spec.target, variants=list(spec.variants), overlays=list(spec.overlays))
        _GAMES[_rules_of(spec)] = game
    return game


def play_one(spec: SimulationSpec, seed: int) -> Outcome:
    """Play the game seeded `seed`; any error becomes the outcome's message."""
    recorder = Recorder()
    try:
        game = game_for(spec)
        with recording(recorder) if spec.record else contextlib.nullcontext():
            state = game.new_initial_state(spec.players, seed, list(spec.seats))
            if spec.record:
                recorder.start(state)
            run(state, seat_agents(game, state.seat_specs, seed), recorder.action if spec.record else None,
                spec.max_actions)
    except GameError as err:
        return Outcome(seed, error=str(err))
    except RecursionError:
        return Outcome(seed, error="internal error: recursion too deep")
    except Exception as err:  # a bug must not end a long run; it is reported with its seed
        return Outcome(seed, error=f"internal error: {type(err).__name__}: {err}")
    records: dict[str, Any] = {}
    if spec.record:
        count_bot_picks(state, recorder)
        records = recorder.finish(state)
    result = state.result()
    return Outcome(seed, tuple(result["winners"]), tuple(float(r) for r in result["returns"]),
                   result["actions"], result["rounds"], result["turns"],
                   scores=tuple(float(s) for s in state.scores()), reason=str(result["reason"]), **records)


@contextlib.contextmanager
def recording(recorder: Recorder) -> Iterator[None]:
    """The runtime tells `recorder` of each card use and power run while the block runs."""
    with watching_uses(recorder.use), watching_powers(recorder.power):
        yield


# An Outcome's fields as a tuple, in the order Outcome(*row) takes them (in C: no per-field call).
_as_row = operator.attrgetter(*(field.name for field in attrs.fields(Outcome)))


def _play_chunk(spec: SimulationSpec, first: int, count: int) -> list[Outcome]:
    rows = None
    if spec.native != "off" and not spec.record:
        rows = native_rows(game_for(spec), spec.players, spec.seats, first, count, spec.max_actions, spec.native)
    if rows is None:
        return [play_one(spec, seed) for seed in range(first, first + count)]
    return [play_one(spec, seed) if row is None else _native_outcome(seed, row)
            for seed, row in zip(range(first, first + count), rows, strict=True)]


def _native_outcome(seed: int, row: tuple[Any, ...]) -> Outcome:
    winners, returns, actions, rounds, turns, scores, reason = row
    return Outcome(seed, winners, returns, actions, rounds, turns, scores=scores, reason=reason)


def play_rows(spec: SimulationSpec, first: int, count: int) -> list[tuple[Any, ...]]:
    """Games first..first+count-1 as plain tuples (`Outcome(*row)` rebuilds each): what a
    worker elsewhere sends back."""
    return [_as_row(o) for o in _play_chunk(spec, first, count)]


class Backend(Protocol):
    """Somewhere else to play the games (`--backend`): the outcomes of games seed,
    seed+1, ... in seed order, each exactly `play_one(spec, that seed)`."""

    workers: int  # games played at once

    def outcomes(self, spec: SimulationSpec, games: int, seed: int) -> Iterator[Outcome]: ...


# ---- many games ----------------------------------------------------------------------------

MAX_CHUNK = 256  # games per task at most: results flow steadily and progress stays live
SHARES = 4  # a chunk is 1/SHARES of a worker's even share of the games still to hand out
POLL = 0.5  # seconds between checks that the helpers are alive, while waiting for one


def chunk_plan(games: int, workers: int) -> list[tuple[int, int]]:
    """(first game, count) of each task, in order: guided self-scheduling, large
    chunks first and single games last, covering 0..games-1 exactly once."""
    plan: list[tuple[int, int]] = []
    start = 0
    while start < games:
        left = games - start
        size = max(1, min(MAX_CHUNK, -(-left // (workers * SHARES))))
        plan.append((start, size))
        start += size
    return plan


def pool_context() -> multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext:
    """fork where it is safe and cheap (Linux, and this process runs no other thread:
    forking a threaded process can copy a held lock); spawn everywhere else."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def _claim(counter: Any, tasks: int) -> int | None:
    """The next chunk's index for whoever asks first (helpers and this process), or None."""
    with counter.get_lock():
        index = int(counter.value)
        if index >= tasks:
            return None
        counter.value = index + 1
    return index


def _helper(spec: SimulationSpec, plan: list[tuple[int, int]], seed: int, counter: Any, results: Any) -> None:
    """A helper process (top level, so spawned processes can import it): claim chunks
    until none is left, sending each one's outcomes as plain tuples."""
    _deaf_to_ctrl_c()
    game_for(spec)  # a forked helper has it already; a spawned one loads it once
    while (index := _claim(counter, len(plan))) is not None:
        first, count = plan[index]
        results.put((index, play_rows(spec, seed + first, count)))


def _deaf_to_ctrl_c() -> None:
    """In a helper: ignore Ctrl-C (the main process stops the helpers), then let the
    signal through again (helpers are started with it blocked, `_start_deaf`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _start_deaf(helpers: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """Start the helpers with Ctrl-C blocked (a new process inherits the blocking of the
    thread that starts it), so that one pressed before a helper ignores it
    (`_deaf_to_ctrl_c`) is not a traceback there; here it is held, not lost, and raised
    once they are started."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no such signal to block
        for helper in helpers:
            helper.start()
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        for helper in helpers:
            helper.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def outcomes(spec: SimulationSpec, games: int, seed: int, workers: int = 1,
             game: Game | None = None, backend: Backend | None = None) -> Iterator[Outcome]:
    """The outcomes of games seed, seed+1, ... in seed order (`game`: already loaded).
    With several workers, this process is one of them and workers-1 helpers are started;
    with a `backend`, it plays them (and `workers` is not used)."""
    if backend is not None:
        yield from backend.outcomes(spec, games, seed)
        return
    if game is not None:
        _GAMES[_rules_of(spec)] = game
    workers = max(1, min(workers, games))
    if workers == 1:
        if plays_native(spec):  # (in chunks: the native module plays many games a call)
            for first, count in chunk_plan(games, 1):
                yield from _play_chunk(spec, seed + first, count)
            return
        for i in range(games):
            yield play_one(spec, seed + i)
        return
    yield from _parallel(spec, games, seed, workers)


def plays_native(spec: SimulationSpec) -> bool:
    """Whether the games of `spec` run on the native backend (built now if need be; with
    native `on`, a GameError when they cannot)."""
    return spec.native != "off" and not spec.record and \
        uses_native(game_for(spec), spec.players, spec.seats, spec.native) is not None


def _parallel(spec: SimulationSpec, games: int, seed: int, workers: int) -> Iterator[Outcome]:
    """Helpers and this process take chunks of the plan in turn from a shared counter
    (whoever is free takes the next); this process also gathers the helpers' results
    between its own chunks, and yields everything in seed order."""
    context = pool_context()
    game_for(spec)  # loaded before any fork, so every forked helper has it
    plan = chunk_plan(games, workers)
    counter = context.Value("l", 0)
    results = context.Queue()
    helpers = [context.Process(target=_helper, args=(spec, plan, seed, counter, results), daemon=True)
               for _ in range(workers - 1)]
    _start_deaf(helpers)
    ready: dict[int, list[Outcome]] = {}
    following = 0  # the next chunk to yield
    finished = False
    try:
        while following < len(plan):
            index = _claim(counter, len(plan))
            if index is not None:
                first, count = plan[index]
                ready[index] = _play_chunk(spec, seed + first, count)
            while following not in ready or not results.empty():
                try:  # wait only when this process has nothing left to play
                    got, rows = results.get(timeout=POLL) if index is None else results.get_nowait()
                except queue.Empty:
                    if index is not None:
                        break
                    _check_alive(helpers)
                    continue
                ready[got] = [Outcome(*row) for row in rows]
            while following in ready:
                yield from ready.pop(following)
                following += 1
        finished = True
    finally:
        for helper in helpers:
            if finished:  # it has sent its last chunk and is on its way out
                helper.join(timeout=10)
            if helper.is_alive():  # stopped early (an error, or the caller stopped reading)
                helper.terminate()
            helper.join()
        results.close()
        results.join_thread()


def _check_alive(helpers: Sequence[multiprocessing.process.BaseProcess]) -> None:
    """A helper that died (killed, out of memory) leaves its chunk unplayed: say so
    rather than wait for it forever."""
    for helper in helpers:
        if helper.exitcode not in (None, 0):
            raise GameError(f"a simulation worker process stopped unexpectedly (exit code {helper.exitcode})")


def rate_text(rate: float) -> str:
    """Games per second, or seconds per game when slower than one game in ten seconds
    (search seats in long games), so a slow run never reads "0.0 games/s"."""
    if rate >= 0.1 or rate <= 0:
        return f"{rate:.1f} games/s"
    return f"{1 / rate:.0f} s/game"


def time_left(done: int, total: int, rate: float) -> str:
    """The time the games still to play should take at `rate` games per second."""
    if done >= total:
        return "0s left"
    if rate <= 0:
        return "time left unknown"
    seconds = round((total - done) / rate)
    hours, rest = divmod(seconds, 3600)
    text = f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s" if rest >= 60 else f"{rest}s"
    return f"~{text} left"


class Progress:
    """Games done, total, rate and time left on a stream, at most every `every` seconds
    (and, where `final` says so, at the end); `line` words it."""

    def __init__(self, total: int, stream: TextIO | None, every: float = PROGRESS_EVERY):
        self.total, self.stream, self.every = total, stream, every
        self.start = self.last = time.monotonic()
        self.shown = False

    def update(self, done: int) -> None:
        now = time.monotonic()
        if self.stream is None or (now - self.last < self.every and not self.final(done)):
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        end = "\r" if self.stream.isatty() else "\n"
        self.stream.write(self.line(done, rate) + end)
        self.stream.flush()
        self.shown = True

    def final(self, done: int) -> bool:
        return False

    def line(self, done: int, rate: float) -> str:
        return f"simulate: {done}/{self.total} games, {rate_text(rate)}, {time_left(done, self.total, rate)}"

    def finish(self) -> None:
        if self.shown and self.stream is not None and self.stream.isatty():
            self.stream.write("\n")
            self.stream.flush()


def simulate(spec: SimulationSpec, games: int, seed: int, workers: int = 1, game: Game | None = None,
             progress: TextIO | None = None, clock: Callable[[], float] = time.perf_counter,
             backend: Backend | None = None) -> dict[str, Any]:
    """Play `games` games and return the summary (see `summarize`); with a `backend`,
    `workers` is its number of workers."""
    started = clock()
    meter = Progress(games, progress)
    results: list[Outcome] = []
    for outcome in outcomes(spec, games, seed, workers, game, backend):
        results.append(outcome)
        meter.update(len(results))
    meter.finish()
    summary = summarize(spec, results, seed)
    summary["game"] = (game or game_for(spec)).definition.id
    summary["workers"] = max(1, min(workers, games))
    summary["seconds"] = round(clock() - started, 3)
    summary["games_per_second"] = round(games / max(summary["seconds"], 1e-9), 1)
    # how the games were played (in C where the module builds), like `seconds`: the
    # results are the same either way
    summary["native"] = plays_native(spec)
    return summary


def summarize(spec: SimulationSpec, results: list[Outcome], seed: int) -> dict[str, Any]:
    """Wins per seat (a shared win counts for each winner), draws (no winner, or every
    seat winning), mean returns and lengths over the games that ended, and errors."""
    n = spec.players
    done = [r for r in results if r.error is None]
    failed = [r for r in results if r.error is not None]
    wins = [sum(1 for r in done if p in r.winners) for p in range(n)]
    count = max(len(done), 1)
    return {
        "game": spec.target,
        "games": len(results),
        "completed": len(done),
        "seed": seed,
        "players": n,
        "seats": list(spec.seats),
        "variants": list(spec.variants),
        "overlays": list(spec.overlays),
        "wins": wins,
        "win_rates": [round(w / count, 4) for w in wins],
        # A draw: no winner, or everyone winning, at a table of several. Alone (solitaire)
        # there are no draws: a win is a win, no winner is a loss.
        "draws": sum(1 for r in done if n > 1 and len(r.winners) in (0, n)),
        "mean_returns": [round(sum(r.returns[p] for r in done) / count, 4) for p in range(n)],
        # Mods and variants often change how games end and score more than who wins.
        "mean_scores": [round(sum(r.scores[p] for r in done if r.scores) / count, 4) for p in range(n)],
        "end_reasons": dict(sorted(Counter(r.reason for r in done).items())),
        "mean_length": {
            "actions": round(sum(r.actions for r in done) / count, 2),
            "rounds": round(sum(r.rounds for r in done) / count, 2),
            "turns": round(sum(r.turns for r in done) / count, 2),
        },
        "errors": len(failed),
        "error_samples": [{"seed": r.seed, "message": r.error} for r in failed[:ERROR_SAMPLES]],
    }


def render_summary(summary: dict[str, Any], name: str) -> str:
    """The summary as text for people."""
    n = summary["players"]
    seeds = f"seeds {summary['seed']}..{summary['seed'] + summary['games'] - 1}"
    lines = [f"{name}: {summary['games']} games, {n} players, {seeds}, {summary['workers']} worker(s)"]
    lines.append(f"Wins (of {summary['completed']} games that ended):")
    for p in range(n):
        lines.append(f"  P{p + 1} ({summary['seats'][p]}): {summary['wins'][p]} "
                     f"({100 * summary['win_rates'][p]:.1f}%), mean return {summary['mean_returns'][p]:+.3f}, "
                     f"mean score {summary['mean_scores'][p]:.2f}")
    length = summary["mean_length"]
    lines.append(f"Draws (no winner or all winning): {summary['draws']}")
    reasons = ", ".join(f"{reason} {count}" for reason, count in summary["end_reasons"].items())
    lines.append(f"Ended by: {reasons or '-'}")
    lines.append(f"Mean length: {length['actions']} actions, {length['turns']} turns, {length['rounds']} rounds")
    lines.append(f"Errors: {summary['errors']}")
    for sample in summary["error_samples"]:
        lines.append(f"  seed {sample['seed']}: {sample['message']}")
    seconds = summary["seconds"]  # (rounded to the millisecond: 0 when too quick to time)
    lines.append(f"Time: {seconds} s ({rate_text(summary['games'] / seconds) if seconds > 0 else 'too quick to time'}"
                 f"{', in C' if summary.get('native') else ''})")
    return "\n".join(lines)


def progress_stream(json_output: bool) -> TextIO | None:
    """Where progress goes: stderr, except for --json runs whose stderr is not a terminal."""
    if json_output and not sys.stderr.isatty():
        return None
    return sys.stderr
