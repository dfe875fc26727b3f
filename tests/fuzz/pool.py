"""Worker processes for the fuzzer: a memory cap, and a CPU-time limit per mutant.

Each worker is a spawned process (a fresh interpreter, the same on every platform) that
caps its address space with `resource.setrlimit(RLIMIT_AS)` where the platform has it,
makes mutants from their numbers itself (the mutator is deterministic, so only numbers
and results cross the pipe) and checks them one at a time.

Limits are CPU time of the worker, never wall-clock time, so a busy machine (other jobs
sharing the cores) cannot turn a slow mutant into a "hang":

- a mutant that has used `time_limit` CPU seconds gets a `Hang` raised by a CPU-time
  timer inside the worker (`ITIMER_PROF`, which counts only this process's user and
  system time), so the report says where it was;
- a worker deaf to that timer (stuck in C code, the signal blocked) is killed by the
  kernel `grace` CPU seconds later: the worker sets its soft `RLIMIT_CPU` to its CPU
  used so far plus the limit and the grace before each mutant;
- a hang must happen twice: a mutant stopped at the limit (by the timer or the kernel)
  is checked once more in a fresh worker, and only a second hang is a failure; one that
  then finishes is counted as what it did and listed as slow (its CPU time swelled on a loaded machine: caches and
  cores shared with other jobs make the same work cost more CPU seconds), never a hang;
- the only wall-clock guard is a last resort for a worker that makes no progress at all
  for `stall` seconds (blocked without using CPU, or a machine so loaded it barely
  runs): it is killed and the mutant is retried once in a fresh worker; a second stall
  is reported as `stalled` (machine busy?), never as a hang.

A worker that dies, or that ran out of memory, is replaced.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from .check import Hang, Result
from .mutate import Mutant, corpus
from .mutate import make_mutant as _make_rules_mutant

TIME_LIMIT = 10.0  # CPU seconds per mutant, of the worker checking it: past it, a mutant is a hang
GRACE = 5.0  # CPU seconds after the timer before the kernel kills a worker deaf to it
MEMORY_LIMIT = 1 << 30  # bytes of address space per worker
STALL_FACTOR = 30.0  # the wall-clock guard: this many times the CPU limit (300 s for 10 s)
STARTUP = 600.0  # wall-clock seconds a new worker may take to import the engine and read the corpus

Job = Callable[[Mutant], Result]
Maker = Callable[[list[Any], int, int], Mutant]  # (corpus, seed, index) -> mutant


def _limit_memory(limit: int) -> None:
    try:
        import resource
    except ImportError:  # not on this platform: the cap is a courtesy there
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard < 0 else min(limit, hard), hard))
    # A worker the kernel kills for CPU time (SIGXCPU) would otherwise leave a core file.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CORE, (0, resource.getrlimit(resource.RLIMIT_CORE)[1]))


def _cpu_limit(seconds: float | None) -> None:
    """The kernel's last word: the soft RLIMIT_CPU at this process's CPU time so far plus
    `seconds` (None: lifted again). Past it the kernel sends SIGXCPU, whose default action
    ends the process even when it is stuck in C code."""
    try:
        import resource
    except ImportError:
        return
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if seconds is None:
        soft = hard
    else:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        soft = math.ceil(usage.ru_utime + usage.ru_stime + seconds)  # whole seconds, rounded up: never early
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _timer(signum: int, frame: Any) -> None:
    raise Hang("still running at the CPU-time limit")


def _worker(conn: multiprocessing.connection.Connection, seed: int, job: Job, make: Maker, time_limit: float,
            grace: float, memory: int) -> None:
    """The worker's loop: mutant numbers in, results out, until told to stop."""
    _limit_memory(memory)
    timer = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")
    if timer:
        signal.signal(signal.SIGPROF, _timer)
    units = corpus()
    conn.send("ready")  # the parent's guard for a mutant starts now, not while this process started
    while True:
        try:
            index = conn.recv()
        except EOFError:
            return
        if index is None:
            return
        began = time.process_time()
        _cpu_limit(time_limit + grace)
        if timer:
            signal.setitimer(signal.ITIMER_PROF, time_limit)  # counts this process's CPU time only
        try:
            try:
                result = job(make(units, seed, index))
            finally:
                if timer:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                _cpu_limit(None)
        except Hang as err:  # outside the job's own handler: making the mutant, or just as the job returned
            result = Result(index, "failure", ("Hang",), error=f"Hang: {err} (outside the check)")
        conn.send(attrs.evolve(result, cpu=time.process_time() - began))
        if result.codes[:1] == ("MemoryError",):
            return  # a fresh process for what comes next


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user and system) a live process has used, where the system says
    (Linux /proc); None elsewhere. Only for messages: limits are applied in the worker."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@attrs.define
class _Slot:
    process: Any
    conn: multiprocessing.connection.Connection
    index: int | None = None
    started: float = 0.0  # wall clock, for the last-resort stall guard only


class Pool:
    """`workers` processes checking mutants of `seed` with `job`; `make` makes mutant N
    (the rule-file mutator unless told otherwise)."""

    def __init__(self, seed: int, job: Job, workers: int = 2, time_limit: float = TIME_LIMIT,
                 memory: int = MEMORY_LIMIT, grace: float = GRACE, stall: float | None = None,
                 make: Maker = _make_rules_mutant) -> None:
        self.seed, self.job, self.make = seed, job, make
        self.time_limit, self.memory, self.grace = time_limit, memory, grace
        self.stall = STALL_FACTOR * time_limit if stall is None else stall
        self.stalls: dict[int, int] = {}  # mutant -> times its worker stalled (and was killed)
        self.hangs: dict[int, Result] = {}  # mutant -> its first hang, while it is checked again
        self.context = multiprocessing.get_context("spawn")
        self.slots = [self._start() for _ in range(max(1, workers))]

    def _start(self) -> _Slot:
        mine, theirs = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(theirs, self.seed, self.job, self.make,
                                                               self.time_limit, self.grace, self.memory),
                                       daemon=True)
        process.start()
        theirs.close()
        if not mine.poll(STARTUP) or mine.recv() != "ready":
            process.kill()
            raise RuntimeError(f"a fuzzing worker did not start within {STARTUP:g} s")
        return _Slot(process, mine)

    def _replace(self, slot: _Slot) -> _Slot:
        if slot.process.is_alive():
            slot.process.kill()
        slot.process.join()
        slot.conn.close()
        return self._start()

    def results(self, indexes: Iterable[int]) -> Iterable[Result]:
        """Check every mutant; results come as they finish (not in order)."""
        todo = deque(indexes)
        try:
            while todo or any(s.index is not None for s in self.slots):
                for slot in self.slots:
                    if slot.index is None and todo:
                        slot.index, slot.started = todo.popleft(), time.monotonic()
                        slot.conn.send(slot.index)
                busy = [s for s in self.slots if s.index is not None]
                ready = multiprocessing.connection.wait([s.conn for s in busy], timeout=0.5)
                for i, slot in enumerate(self.slots):
                    if slot.index is None:
                        continue
                    index = slot.index
                    if slot.conn in ready:
                        try:
                            result: Result = slot.conn.recv()
                        except (EOFError, OSError):
                            slot.process.join(5.0)
                            code = slot.process.exitcode
                            self.slots[i] = self._replace(slot)
                            if (again := self._hung(self._died(index, code))) is None:
                                todo.appendleft(index)
                            else:
                                yield again
                            continue
                        slot.index = None
                        if not slot.process.is_alive() or result.codes[:1] in (("MemoryError",), ("Hang",)):
                            self.slots[i] = self._replace(slot)
                        if (again := self._hung(result)) is None:
                            todo.appendleft(index)  # once more, in a fresh worker
                        else:
                            yield again
                    elif time.monotonic() - slot.started > self.stall:
                        stalled = self._stalled(index, slot)
                        self.slots[i] = self._replace(slot)
                        if stalled is None:
                            todo.appendleft(index)  # once more, in a fresh worker
                        else:
                            yield stalled
        finally:
            self.close()

    def _died(self, index: int, code: int | None) -> Result:
        if code == -getattr(signal, "SIGXCPU", -1):
            return Result(index, "failure", ("Hang",), error=f"killed: past {self.time_limit + self.grace:g} s of "
                          "CPU time, deaf to the timer (stuck outside Python code?)")
        return Result(index, "failure", ("WorkerDied",), error=f"the worker process died (exit code {code}): "
                      "a crash, or killed for memory")

    def _hung(self, result: Result) -> Result | None:
        """None for a mutant's first hang (check it again in a fresh worker); else the
        result to report: a second hang is the failure, and a mutant that hung once and
        then finished counts as what it did, marked `slow` (a note, not a failure)."""
        first = self.hangs.get(result.index)
        if result.codes[:1] == ("Hang",) and first is None:
            self.hangs[result.index] = result
            return None
        if first is None or result.codes[:1] == ("Hang",):
            return result
        return attrs.evolve(result, slow=f"past the CPU limit ({self.time_limit:g} s) once, then "
                            f"finished in {result.cpu:.1f} s in a fresh worker: the machine was loaded? "
                            f"({first.error.strip().splitlines()[-1][:120] if first.error.strip() else 'Hang'})")

    def _stalled(self, index: int, slot: _Slot) -> Result | None:
        """A worker past the wall-clock guard: None the first time (retry), else the
        stalled result. Its CPU time says which: little means blocked or starved."""
        self.stalls[index] = self.stalls.get(index, 0) + 1
        if self.stalls[index] < 2:
            return None
        used = cpu_seconds(slot.process.pid)
        spent = f" (its worker had used {used:.1f} s of CPU in all)" if used is not None else ""
        return Result(index, "stalled", ("Stalled",), error=f"stalled (machine busy?): no result after "
                      f"{self.stall:g} s of wall-clock time, twice{spent}, short of the CPU limit "
                      f"({self.time_limit:g} s): blocked, or starved of CPU. Check it again alone with --only.")

    def close(self) -> None:
        for slot in self.slots:
            with contextlib.suppress(OSError):
                slot.conn.send(None)
        for slot in self.slots:
            slot.process.join(2.0)
            if slot.process.is_alive():
                slot.process.kill()
                slot.process.join()
            slot.conn.close()
        self.slots = []
