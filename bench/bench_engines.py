"""Engines measured in worker processes: today's tree, and an older commit extracted
into a temporary folder (the 0.1 engine by default).

Each engine runs in its own `bench_worker.py serve` process, the same script for both,
so they are timed by the same loop in the same kind of process; bench.py asks them for
slices in turn (`RemoteLoop`), so a change in machine load hits both alike. A cold load
is a fresh worker process that imports the engine and loads one game.

The old engine plays today's rule files when it accepts them (the same games, so the
ratio is the engine's alone); when it refuses them only for keys added to the format
since (`players.seats`: which seat kinds `play` offers, never read by a random playout),
it gets a copy without those keys; failing that, it plays the rule files of its own
commit, and the row says so.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_loops import Counts

HERE = Path(__file__).resolve().parent
WORKER = HERE / "bench_worker.py"
# Format keys newer than 0.1 that a random playout never reads: (section, key).
NEWER_KEYS = (("players", "seats"),)


class WorkerError(Exception):
    """A worker refused a request or died; the message says why."""


def _worker_env() -> dict[str, str]:
    """The environment of a worker: no PYTHONPATH, so it imports only the engine it is given."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


class Worker:
    """One `bench_worker.py serve` process running the engine under `root`."""

    def __init__(self, root: Path, label: str, clock: str = "cpu"):
        self.root, self.label = root, label
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), "--root", str(root), "--clock", clock, "serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1,
            env=_worker_env(), cwd=str(root))
        self.version = "?"

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps({"op": op, **fields}) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            err = self.proc.stderr.read() if self.proc.stderr and self.proc.poll() is not None else ""
            raise WorkerError(f"{self.label} worker stopped: {err.strip()[-500:] or 'no message'}")
        answer: dict[str, Any] = json.loads(line)
        if not answer.get("ok"):
            raise WorkerError(str(answer.get("error")))
        return answer

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write('{"op": "quit"}\n')
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()


class RemoteLoop:
    """A playout loop of a game loaded in a worker: each call is one timed slice there."""

    def __init__(self, worker: Worker, key: str):
        self.worker, self.key = worker, key

    def __call__(self, seconds: float) -> Counts:
        return Counts.from_json(self.worker.request("run", key=self.key, seconds=seconds)["counts"])


def cold_load(root: Path, target: str, variants: list[str], overlays: list[str],
              clock: str = "cpu") -> dict[str, float]:
    """Import the engine under `root` and load the game once, in a fresh process."""
    argv = [sys.executable, str(WORKER), "--root", str(root), "--clock", clock, "cold", target]
    argv += [f"--variant={v}" for v in variants] + [f"--overlay={o}" for o in overlays]
    done = subprocess.run(argv, capture_output=True, text=True, env=_worker_env(), cwd=str(root), timeout=300)
    if done.returncode != 0:
        raise WorkerError((done.stderr.strip().splitlines() or ["cold load failed"])[-1])
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# ---- the old engine ------------------------------------------------------------------------


@dataclass
class Extracted:
    """An older commit's tree in a temporary folder (removed by `remove`)."""

    commit: str
    folder: Path

    @property
    def root(self) -> Path:
        return self.folder / "tree"

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def extract(repo: Path, commit: str) -> tuple[Extracted | None, str | None]:
    """`git archive` of `commit` unpacked into a new temporary folder: (it, None), or
    (None, why not) when git or the commit is not there (a shallow clone, a tarball)."""
    git = shutil.which("git")
    if git is None:
        return None, "git is not installed"
    found = subprocess.run([git, "-C", str(repo), "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}"],
                           capture_output=True, text=True)
    if found.returncode != 0:
        return None, f"commit {commit} is not in {repo} (a shallow clone or not a git checkout?)"
    full = found.stdout.strip()
    archive = subprocess.run([git, "-C", str(repo), "archive", "--format=tar", full], capture_output=True)
    if archive.returncode != 0:
        return None, f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()}"
    folder = Path(tempfile.mkdtemp(prefix=f"orrery-bench-{commit[:12]}-"))
    try:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(folder / "tree", filter="data")
            else:  # Python before 3.11.4: our own repository's archive
                tar.extractall(folder / "tree")
    except (tarfile.TarError, OSError) as err:
        shutil.rmtree(folder, ignore_errors=True)
        return None, f"cannot unpack {commit}: {err}"
    return Extracted(full, folder), None


@dataclass(frozen=True)
class RuleChoice:
    """What the old engine is asked to load, and how the row names it."""

    label: str  # "same", "same less players.seats", "0.1's own"
    target: str
    variants: tuple[str, ...]
    overlays: tuple[str, ...]


def rule_choices(extracted: Extracted, base_id: str, entry_path: Path, variants: tuple[str, ...],
                 overlay_paths: tuple[Path, ...], overlay_ids: tuple[str, ...]) -> list[RuleChoice]:
    """The rule files to offer the old engine, best first (see the module docstring)."""
    variant_list = tuple(variants)
    choices = [RuleChoice("same", str(entry_path.parent), variant_list, tuple(str(p) for p in overlay_paths))]
    stripped = _without_newer_keys(extracted, base_id, entry_path)
    if stripped is not None:
        label, folder = stripped
        choices.append(RuleChoice(label, str(folder), variant_list, tuple(str(p) for p in overlay_paths)))
    own = _own_copy(extracted.root, base_id)
    own_overlays = [_own_copy(extracted.root, o) for o in overlay_ids]
    if own is not None and all(o is not None for o in own_overlays):
        choices.append(RuleChoice(f"{extracted.commit[:7]}'s own", str(own), variant_list,
                                  tuple(str(o) for o in own_overlays)))
    return choices


def _without_newer_keys(extracted: Extracted, base_id: str, entry_path: Path) -> tuple[str, Path] | None:
    """A copy of the game's folder whose entry file lacks NEWER_KEYS, written as JSON (a
    subset of YAML: every old reader takes it), or None when it has none of them."""
    from interpreter.rules.yamlload import load_yaml

    data, _ = load_yaml(entry_path)
    dropped = []
    for section, key in NEWER_KEYS:
        if isinstance(data.get(section), dict) and key in data[section]:
            del data[section][key]
            dropped.append(f"{section}.{key}")
    if not dropped:
        return None
    folder = extracted.folder / "rules" / base_id
    if not folder.exists():
        shutil.copytree(entry_path.parent, folder)
        (folder / entry_path.name).write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    return f"same less {', '.join(dropped)}", folder


def _own_copy(root: Path, bundled_id: str) -> Path | None:
    for parent in ("games", "examples"):
        folder = root / parent / bundled_id
        if folder.is_dir():
            return folder
    return None
