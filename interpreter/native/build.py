"""Compiling a native module on first use, and finding it again: Cython writes C, the
system's C compiler builds the extension, and the result is kept in the user's cache
folder under the hash of its source (which holds the rules and the player count), the
Cython version, the Python it was built for and the C optimisation level. A second process, or a second run,
imports it at once; one that asks while another builds it waits for that build.

Whatever stops a build (no Cython, no C compiler, a compiler error) is a
`NativeUnavailable` with one line saying why; the caller runs the Python path.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import io
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

BUILD_SECONDS = 600  # a compiler that has not finished by then is stopped


class NativeUnavailable(Exception):
    """The native module cannot be built or loaded here (the one-line reason)."""


_LOADED: dict[str, ModuleType] = {}


def cache_dir() -> Path:
    """Where compiled modules are kept: $ORRERY_CACHE, else the user's cache folder."""
    given = os.environ.get("ORRERY_CACHE")
    if given:
        return Path(given) / "native"
    base = os.environ.get("XDG_CACHE_HOME") or (
        os.path.join(os.environ.get("LOCALAPPDATA", ""), "orrery") if sys.platform == "win32" else
        os.path.expanduser("~/Library/Caches") if sys.platform == "darwin" else os.path.expanduser("~/.cache"))
    return Path(base) / "orrery" / "native"


def optimisation() -> str:
    """The C compiler's optimisation level: $ORRERY_NATIVE_OPT (0 to 3), else 2. A lower
    level builds in about half the time and runs a little slower: the test suite, which
    builds many modules and plays each briefly, builds at 1."""
    given = os.environ.get("ORRERY_NATIVE_OPT", "").strip()
    if not given:
        return "2"
    if given not in ("0", "1", "2", "3"):
        raise NativeUnavailable(f"ORRERY_NATIVE_OPT is {given!r}: give 0, 1, 2 or 3 (the C optimisation level)")
    return given


def module_key(source: str) -> str:
    try:
        import Cython
        version = Cython.__version__
    except ImportError:
        version = "none"
    tag = f"{sys.implementation.cache_tag}-{sysconfig.get_platform()}-{version}-O{optimisation()}"
    return hashlib.sha256(f"{tag}\n{source}".encode()).hexdigest()[:20]


def cached_path(source: str) -> Path:
    name = f"orrery_native_{module_key(source)}"
    return cache_dir() / (name + (importlib.machinery.EXTENSION_SUFFIXES[0]))


def load_module(source: str) -> tuple[ModuleType, bool]:
    """The compiled module of `source` and whether it had to be built now."""
    key = module_key(source)
    if key in _LOADED:
        return _LOADED[key], False
    path = cached_path(source)
    built = False
    if not path.exists():
        with _building(path):
            if not path.exists():  # (another process may have built it while this one waited)
                _build(source, path)
                built = True
    module = _import(path)
    _LOADED[key] = module
    return module, built


@contextlib.contextmanager
def _building(path: Path) -> Iterator[None]:
    """Held while one process builds the module at `path`: another that needs the same
    module waits for it and then loads it, instead of building it a second time (the
    test suite's two processes, or a simulation's workers, often need the same one)."""
    try:
        import fcntl
    except ImportError:  # (no advisory locks here: both build, and the last replace wins)
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        held = open(path.parent / (path.name.split(".")[0] + ".lock"), "a")  # (closed by the with below)
    except OSError:  # (a cache folder not writable: the build says so itself)
        yield
        return
    with held:
        fcntl.flock(held, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(held, fcntl.LOCK_UN)


def _import(path: Path) -> ModuleType:
    name = path.name.split(".")[0]
    loader = importlib.machinery.ExtensionFileLoader(name, str(path))
    spec = importlib.util.spec_from_file_location(name, str(path), loader=loader)
    if spec is None:
        raise NativeUnavailable(f"cannot load the compiled module {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        loader.exec_module(module)
    except ImportError as err:
        raise NativeUnavailable(f"the compiled module {path} does not load ({err})") from None
    return module


def _compiler() -> list[str]:
    given = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = given.split()
    if not words or shutil.which(words[0]) is None:
        raise NativeUnavailable(f"no C compiler found ({words[0] if words else 'CC is empty'}); "
                                "install one (e.g. gcc) for native speed")
    return words


def _build(source: str, path: Path) -> None:
    try:
        from Cython.Compiler.Main import CompilationOptions, compile_single, default_options
    except ImportError:
        raise NativeUnavailable("Cython is not installed (pip install 'orrery[native]')") from None
    compiler = _compiler()
    name = path.name.split(".")[0]
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="orrery-native-", dir=path.parent) as tmp:
        pyx, c_file, out = Path(tmp, name + ".pyx"), Path(tmp, name + ".c"), Path(tmp, path.name)
        pyx.write_text(source, encoding="utf-8")
        # Cython in this process: after its first module it writes one in a fraction of
        # the time a fresh interpreter takes to start it.
        messages = io.StringIO()
        try:
            with contextlib.redirect_stderr(messages), contextlib.redirect_stdout(messages):
                options = CompilationOptions(default_options, output_file=str(c_file), language_level=3)
                result = compile_single(str(pyx), options, full_module_name=name)
        except Exception as err:  # Cython's own failure: never a traceback for the user
            raise NativeUnavailable(f"Cython failed: {type(err).__name__}: {err}") from None
        if result.num_errors or not c_file.exists():
            lines = [line for line in messages.getvalue().splitlines() if line.strip()]
            raise NativeUnavailable(f"Cython failed: {lines[-1] if lines else 'no message'}")
        include = sysconfig.get_paths()["include"]
        flags = [f"-O{optimisation()}", "-fPIC", "-shared", "-w", f"-I{include}"]
        if sys.platform == "darwin":
            flags += ["-undefined", "dynamic_lookup"]
        _run([*compiler, *flags, str(c_file), "-o", str(out)], "the C compiler")
        os.replace(out, path)  # (atomic: a process that finds it finds it whole)


def _run(command: list[str], what: str) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise NativeUnavailable(f"{what} could not run ({err})") from None
    if done.returncode != 0:
        first = next((line for line in (done.stderr or done.stdout).splitlines() if "error" in line.lower()),
                     (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"])
        raise NativeUnavailable(f"{what} failed: {first if isinstance(first, str) else first[0]}")
