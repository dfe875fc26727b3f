"""Worker processes for the fuzzer: a memory cap, and a time limit per mutant.

Each worker is a spawned process (a fresh interpreter, the same on every platform) that
caps its address space with `resource.setrlimit(RLIMIT_AS)` where the platform has it,
makes mutants from their numbers itself (the mutator is deterministic, so only numbers
and results cross the pipe) and checks them one at a time. A mutant still running at
the time limit gets a `Hang` raised by an alarm inside the worker (so the report says
where it hung); one still running a few seconds later (stuck in C code) has its worker
killed. A worker that dies, or that ran out of memory, is replaced.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from .check import Hang, Result
from .mutate import Mutant, corpus, make_mutant

TIME_LIMIT = 10.0  # seconds per mutant: past it, a mutant is a hang
GRACE = 5.0  # seconds after the alarm before the worker is killed
MEMORY_LIMIT = 1 << 30  # bytes of address space per worker
STARTUP = 120.0  # seconds a new worker may take to import the engine and read the corpus

Job = Callable[[Mutant], Result]


def _limit_memory(limit: int) -> None:
    try:
        import resource
    except ImportError:  # not on this platform: the cap is a courtesy there
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard < 0 else min(limit, hard), hard))


def _alarm(signum: int, frame: Any) -> None:
    raise Hang("still running at the time limit")


def _worker(conn: multiprocessing.connection.Connection, seed: int, job: Job, time_limit: float,
            memory: int) -> None:
    """The worker's loop: mutant numbers in, results out, until told to stop."""
    _limit_memory(memory)
    timer = hasattr(signal, "setitimer")
    if timer:
        signal.signal(signal.SIGALRM, _alarm)
    units = corpus()
    conn.send("ready")  # the parent's clock for a mutant starts now, not while this process started
    while True:
        try:
            index = conn.recv()
        except EOFError:
            return
        if index is None:
            return
        if timer:
            signal.setitimer(signal.ITIMER_REAL, time_limit)
        try:
            result = job(make_mutant(units, seed, index))
        finally:
            if timer:
                signal.setitimer(signal.ITIMER_REAL, 0)
        conn.send(result)
        if result.codes[:1] == ("MemoryError",):
            return  # a fresh process for what comes next


@attrs.define
class _Slot:
    process: Any
    conn: multiprocessing.connection.Connection
    index: int | None = None
    started: float = 0.0


class Pool:
    """`workers` processes checking mutants of `seed` with `job`."""

    def __init__(self, seed: int, job: Job, workers: int = 2, time_limit: float = TIME_LIMIT,
                 memory: int = MEMORY_LIMIT, grace: float = GRACE) -> None:
        self.seed, self.job, self.time_limit, self.memory, self.grace = seed, job, time_limit, memory, grace
        self.context = multiprocessing.get_context("spawn")
        self.slots = [self._start() for _ in range(max(1, workers))]

    def _start(self) -> _Slot:
        mine, theirs = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(theirs, self.seed, self.job, self.time_limit,
                                                               self.memory), daemon=True)
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
                            slot.process.join(1.0)
                            code = slot.process.exitcode
                            self.slots[i] = self._replace(slot)
                            yield Result(index, "failure", ("WorkerDied",), error=f"the worker process died "
                                         f"(exit code {code}): a crash, or killed for memory", where="")
                            continue
                        slot.index = None
                        if not slot.process.is_alive() or result.codes[:1] == ("MemoryError",):
                            self.slots[i] = self._replace(slot)
                        yield result
                    elif time.monotonic() - slot.started > self.time_limit + self.grace:
                        self.slots[i] = self._replace(slot)
                        yield Result(index, "failure", ("Hang",), error=f"killed: still running "
                                     f"{self.time_limit + self.grace:g} s after it started (stuck outside Python "
                                     "code?)")
        finally:
            self.close()

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
