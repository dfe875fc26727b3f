"""`--backend ray`: the same JSON as the local backend for simulate and analyze (with
--compare-with and with games that raise), outcomes in seed order however the tasks
finish, the progress line on stderr, and clear errors when Ray is missing, the address
is bad, nothing answers there, or a task fails.

The Ray tests share one local Ray instance (two CPUs, no dashboard) started once per
session; they are skipped, saying why, only when Ray is not installed."""

from __future__ import annotations

import http.server
import json
import pathlib
import re
import socket
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import SOMETIMES_BOOM, write_toy

from interpreter.cli import main
from interpreter.diagnostics import GameError
from interpreter.play.ray_backend import RayBackend
from interpreter.play.simulate import SimulationSpec, outcomes, rate_text, time_left

ROOT = pathlib.Path(__file__).resolve().parents[1]
TTT = str(ROOT / "examples" / "tic-tac-toe")
OVERCHARGE = str(ROOT / "examples" / "star-market-overcharge")
NO_RAY = "Ray is not installed (pip install 'orrery[ray]'): the Ray backend tests need it"
TIMING = ('"seconds":', '"games_per_second":')  # the only lines allowed to differ between runs

# One worker runs every test of this file (pytest-xdist's loadgroup, set in pyproject):
# two local Ray instances started at once by two workers do not share a machine well.
pytestmark = pytest.mark.xdist_group("ray")



@pytest.fixture(scope="session")
def ray_module() -> Any:
    """The ray module (the test is skipped when it is not installed)."""
    return pytest.importorskip("ray", reason=NO_RAY)


@pytest.fixture(scope="session")
def ray_session(ray_module: Any) -> Iterator[Any]:
    """One local Ray instance for the session; its workers import this checkout."""
    if not ray_module.is_initialized():
        ray_module.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                        runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    yield ray_module
    ray_module.shutdown()


def _json_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, Any]]:
    """The command's stdout without its timing lines, and the JSON object it is (stdout
    holds nothing else)."""
    code = main(argv)
    out = capsys.readouterr().out
    data = json.loads(out)
    assert code == (1 if data["errors"] else 0)
    lines = out.splitlines(keepends=True)
    assert any(line.strip().startswith(TIMING) for line in lines)
    return "".join(line for line in lines if not line.strip().startswith(TIMING)), data


def test_simulate_json_is_the_local_json_byte_for_byte(ray_session: Any, tmp_path: pathlib.Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    game = str(write_toy(tmp_path, SOMETIMES_BOOM))
    argv = ["simulate", game, "--games", "60", "--seed", "5", "--workers", "2", "--json"]
    local, summary = _json_of(argv, capsys)
    ray, _ = _json_of([*argv, "--backend", "ray"], capsys)
    assert ray == local
    assert 0 < summary["errors"] < 60 and "division by zero" in summary["error_samples"][0]["message"]


def test_analyze_json_with_an_overlay_is_the_local_json_byte_for_byte(ray_session: Any,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["analyze", "star-market", "--seats", "random,market-bot", "--games", "30", "--seed", "2",
            "--workers", "2", "--compare-with", OVERCHARGE, "--json"]
    local, _ = _json_of(argv, capsys)
    ray, report = _json_of([*argv, "--backend", "ray"], capsys)
    assert ray == local
    assert report["compare"]["paired_games"] == 30 and report["cards"] and report["workers"] == 2


def test_outcomes_come_in_seed_order_from_many_tasks(ray_session: Any) -> None:
    spec = SimulationSpec(TTT, (), (), 2, ("random", "random"))
    backend = RayBackend(ray_session, workers=2)
    got = list(backend.outcomes(spec, 50, 100))  # about a dozen chunks, four tasks in flight
    assert [o.seed for o in got] == list(range(100, 150))
    assert got == list(outcomes(spec, 50, 100))


def test_without_workers_ray_plays_on_every_cpu_of_the_cluster(ray_session: Any,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", TTT, "--games", "8", "--backend", "ray", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["workers"] == 2  # the session's two CPUs


def test_a_failed_task_is_a_game_error(ray_session: Any) -> None:
    backend = RayBackend(ray_session, workers=2)
    backend.task = ray_session.remote(lambda spec, first, count: 1 // 0)
    spec = SimulationSpec(TTT, (), (), 2, ("random", "random"))
    with pytest.raises(GameError, match=r"a Ray task failed: .*ZeroDivisionError"):
        list(backend.outcomes(spec, 10, 1))


def test_the_progress_bar_shows_rate_and_time_left_on_stderr(ray_session: Any,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", TTT, "--games", "10", "--seats", "first,random", "--backend", "ray"]) == 0
    out = capsys.readouterr()
    assert "Win rate per seat" in out.out and "analyze [" not in out.out
    assert "analyze [" in out.err and "10/10 games" in out.err and "/s, 0s left" in out.err


@pytest.mark.parametrize("command", ["simulate", "analyze"])
def test_without_ray_installed_the_backend_says_how_to_install_it(command: str, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    assert main([command, "kuhn-poker", "--games", "2", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert "needs Ray" in err and "pip install 'orrery[ray]'" in err and "Traceback" not in err


def _closed_port() -> int:
    """A local port nothing listens on (just released by the system)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("address", "code", "message"), [
    ("nonsense", 2, "give HOST:PORT"),
    ("10.0.0.5:99999", 2, "give HOST:PORT"),
    ("10.0.0.5:", 2, "give HOST:PORT"),
    ("CLOSED", 1, "no Ray cluster answers at 127.0.0.1:"),
    ("ray://CLOSED", 1, "no Ray cluster answers at ray://127.0.0.1:"),
])
def test_a_bad_address_is_a_clear_error(ray_module: Any, address: str, code: int, message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    address = address.replace("CLOSED", f"127.0.0.1:{_closed_port()}")
    assert main(["simulate", "kuhn-poker", "--games", "2", "--backend", "ray", "--address", address]) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.fixture
def no_ray_import(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reaching Ray's import fails the test: the errors below come before it."""
    def refuse() -> None:
        raise AssertionError("Ray was imported before the address was checked")
    monkeypatch.setattr("interpreter.play.ray_backend.import_ray", refuse)


class _Http(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:  # quiet
        pass


def test_an_address_that_answers_but_is_not_ray_fails_before_ray_is_imported(
        no_ray_import: None, capsys: pytest.CaptureFixture[str]) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Http)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        address = f"127.0.0.1:{server.server_address[1]}"
        assert main(["simulate", "kuhn-poker", "--games", "2", "--backend", "ray", "--address", address]) == 1
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert f"something answers at {address}, but it is not a Ray cluster" in err and "web server" in err
    assert "Traceback" not in err


def test_a_silent_server_is_not_waited_for(no_ray_import: None, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("interpreter.play.ray_backend.CONNECT_TIMEOUT", 0.2)  # (the real one: 5 s, under 30 s)
    with socket.socket() as silent:  # accepts connections (the system does) and never says a word
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        assert main(["analyze", "kuhn-poker", "--games", "2", "--backend", "ray", "--address", address]) == 1
    assert "not a Ray cluster (no reply within 0 s)" in capsys.readouterr().err


def test_a_malformed_address_is_a_usage_error_before_ray_is_imported(
        no_ray_import: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "kuhn-poker", "--games", "2", "--backend", "ray", "--address", "nonsense"]) == 2
    assert "give HOST:PORT" in capsys.readouterr().err


def test_an_address_without_the_ray_backend_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "kuhn-poker", "--games", "2", "--address", "127.0.0.1:6379"]) == 2
    assert "use it with --backend ray" in capsys.readouterr().err


def test_the_command_line_does_not_load_ray_until_asked() -> None:
    code = ("import sys, interpreter.cli\n"
            "assert 'ray' not in sys.modules and 'interpreter.play.ray_backend' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize(("done", "total", "rate", "text"), [
    (5, 10, 1.0, "~5s left"), (0, 90, 1.0, "~1m30s left"), (0, 7300, 1.0, "~2h01m left"),
    (10, 10, 3.0, "0s left"), (0, 10, 0.0, "time left unknown"),
])
def test_time_left(done: int, total: int, rate: float, text: str) -> None:
    assert time_left(done, total, rate) == text


@pytest.mark.parametrize(("rate", "text"), [(12.34, "12.3 games/s"), (0.1, "0.1 games/s"), (0.02, "50 s/game"),
                                            (0.0, "0.0 games/s")])
def test_a_slow_rate_reads_as_seconds_per_game(rate: float, text: str) -> None:
    assert rate_text(rate) == text


def test_ci_and_the_readme_install_the_same_extras_with_ray() -> None:
    """The README's test command and .ci/run install the same extras, Ray among them,
    and `ray` is an extra of the package (never a core dependency)."""
    pattern = re.compile(r"pip install (?:--quiet )?'(\.\[[a-z,]+\])'")
    readme = set(pattern.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    ci = set(pattern.findall((ROOT / ".ci" / "run").read_text(encoding="utf-8")))
    tested = {extras for extras in ci if "test," in extras}
    assert len(tested) == 1 and tested <= readme and "ray" in next(iter(tested))[3:-1].split(",")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["optional-dependencies"]["ray"] == ["ray>=2.9"]
    assert not any(dep.startswith("ray") for dep in project["dependencies"])
