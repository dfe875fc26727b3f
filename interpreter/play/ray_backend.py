"""`--backend ray`: simulate's and analyze's games played as Ray tasks, on this machine
or on an existing Ray cluster (`--address`).

Ray is an optional extra (`pip install 'orrery[ray]'`): nothing imports this module
until a command asks for the Ray backend, and it imports Ray only then, so the core
install neither needs nor loads it.

The results are the local backend's, byte for byte: the games are cut into the same
chunks of consecutive seeds (`chunk_plan`), each task plays its chunk with the same
`play_rows` the local helpers use (every game a pure function of its seed), and the
outcomes are yielded in seed order whatever order the tasks finish in. A task plays a
whole chunk (up to `MAX_CHUNK` games), so Ray's per-task cost is paid rarely; at most
`IN_FLIGHT` tasks per worker are queued at once, so results (and the progress line)
come in steadily and a stopped run leaves little behind.

Each Ray worker loads the game once (`SimulationSpec` is all a task receives), so every
node of a cluster needs orrery installed and the game's files at the same path (a
bundled game needs nothing more).
"""

from __future__ import annotations

import importlib
import logging
import re
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from interpreter.diagnostics import GameError, OrreryError
from interpreter.play.seating import UsageError
from interpreter.play.simulate import Outcome, SimulationSpec, chunk_plan, play_rows

RAY_INSTALL = "pip install 'orrery[ray]'"
IN_FLIGHT = 2  # tasks queued per worker: one running, one ready to start
CONNECT_TIMEOUT = 5.0  # seconds to wait for a cluster's address to answer at all
ADDRESS = re.compile(r"^(?P<scheme>ray://)?(?P<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")
SPECIAL_ADDRESSES = ("auto", "local")  # Ray's own: the running cluster of this machine; a new one


class RayBackendError(OrreryError):
    """The Ray cluster cannot be reached, or a task on it failed."""


def import_ray() -> Any:
    """The `ray` module, or a usage error saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise UsageError(f"--backend ray needs Ray, which is not installed here: {RAY_INSTALL}") from None


def check_address(address: str) -> None:
    """A usage error for an address that is not HOST:PORT, ray://HOST:PORT, auto or
    local, and a clear error when nothing answers at HOST:PORT, or something answers
    that is not Ray: Ray itself would wait minutes and then end the process. Needs no
    Ray: it is checked before Ray is imported."""
    if address in SPECIAL_ADDRESSES:
        return
    found = ADDRESS.match(address)
    if found is None or not 0 < int(found.group("port")) < 65536:
        raise UsageError(f"--address {address!r}: give HOST:PORT (a cluster's head, e.g. 10.0.0.5:6379), "
                         "ray://HOST:PORT (Ray Client) or auto")
    host, port = found.group("host").strip("[]"), int(found.group("port"))
    try:
        connection = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT)
    except OSError as err:
        raise RayBackendError(f"no Ray cluster answers at {address} ({err.strerror or err}); start one with "
                              "`ray start --head`, or leave out --address to start a local Ray instance") from None
    with connection:
        reply = _grpc_reply(connection)
    if reply is not None:
        raise RayBackendError(f"something answers at {address}, but it is not a Ray cluster ({reply}): give the "
                              "address of a Ray head (`ray start --head` prints it) or of a Ray Client server")


HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # + an empty SETTINGS
HTTP2_SETTINGS = 4  # the frame type every HTTP/2 server sends first


def _grpc_reply(connection: socket.socket) -> str | None:
    """None when the server speaks HTTP/2, as Ray's head (gRPC) and Ray Client do: its
    first frame is SETTINGS. Otherwise what it did instead, in words (an HTTP/1 server
    answers text, a silent one nothing within CONNECT_TIMEOUT seconds)."""
    try:
        connection.sendall(HTTP2_PREFACE)
        first = b""
        while len(first) < 9:
            chunk = connection.recv(9 - len(first))
            if not chunk:
                break
            first += chunk
    except TimeoutError:
        return f"no reply within {CONNECT_TIMEOUT:.0f} s"
    except OSError as err:
        return f"the connection failed: {err.strerror or err}"
    if len(first) == 9 and first[3] == HTTP2_SETTINGS:
        return None
    if first.isascii() and first.decode().isprintable():
        return "it answers in text, as a web server does"
    return "it closed the connection" if not first else "it does not answer as gRPC does"


@attrs.define
class RayBackend:
    """Games as Ray tasks on the Ray instance this process is connected to."""

    ray: Any  # the ray module
    workers: int  # tasks run at once: the CPUs asked for, or the cluster's
    task: Any = attrs.field(init=False)  # play_rows as a Ray remote function

    def __attrs_post_init__(self) -> None:
        self.task = self.ray.remote(num_cpus=1)(play_rows)

    def outcomes(self, spec: SimulationSpec, games: int, seed: int) -> Iterator[Outcome]:
        """The outcomes of games seed, seed+1, ... in seed order."""
        ray = self.ray
        plan = chunk_plan(games, self.workers)
        spec_ref = ray.put(spec)  # sent to the cluster once, not with every task
        pending: dict[Any, int] = {}  # task -> its chunk's index in the plan
        ready: dict[int, list[Outcome]] = {}
        submitted = following = 0
        try:
            while following < len(plan):
                while submitted < len(plan) and len(pending) < self.workers * IN_FLIGHT:
                    first, count = plan[submitted]
                    pending[self.task.remote(spec_ref, seed + first, count)] = submitted
                    submitted += 1
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    index = pending.pop(ref)
                    ready[index] = [Outcome(*row) for row in self._get(ref)]
                while following in ready:
                    yield from ready.pop(following)
                    following += 1
        finally:
            for ref in pending:  # stopped early: an error, or the caller stopped reading
                ray.cancel(ref, force=True)

    def _get(self, ref: Any) -> list[tuple[Any, ...]]:
        """A task's rows; a task that failed (a worker died, orrery missing on a node) is
        a game error with Ray's reason, not a traceback."""
        try:
            rows: list[tuple[Any, ...]] = self.ray.get(ref)
        except self.ray.exceptions.RayError as err:
            reason = str(err).strip().splitlines()[-1] if str(err).strip() else type(err).__name__
            raise GameError(f"a Ray task failed: {reason} (every node needs orrery installed: {RAY_INSTALL})") \
                from None
        return rows


@contextmanager
def ray_backend(address: str | None, workers: int | None) -> Iterator[RayBackend]:
    """Connect to the cluster at `address`, or start a local Ray instance (with `workers`
    CPUs when given), for the time of the block; a Ray instance this process is already
    connected to (a test session's) is used as it is and left running."""
    if address is not None:
        check_address(address)  # before Ray's import: a wrong address is told at once
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {"address": address} if address else {"num_cpus": workers}
        try:
            ray.init(**options, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        except (Exception, SystemExit) as err:  # Ray ends the process when it gives up on a cluster
            where = f"reach the Ray cluster at {address}" if address else "start a local Ray instance"
            reason = str(err) if isinstance(err, Exception) else "Ray gave up waiting for it"
            raise RayBackendError(f"cannot {where}: {reason}") from None
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        yield RayBackend(ray, max(1, workers or cpus))
    finally:
        if started:
            ray.shutdown()
