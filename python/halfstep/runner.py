"""Running a deck with the halfstep program from Python, with the CLI's progress and errors."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from .results import Result


class RunError(Exception):
    """halfstep exited with an error; returncode is its exit code, message its error lines."""

    def __init__(self, returncode: int, message: str, outdir: str | None):
        """Keeps the exit code, the message and the result folder (a failed run still has one)."""
        super().__init__(f"halfstep exited with code {returncode}: {message}")
        self.returncode = returncode
        self.message = message
        self.outdir = outdir


def find_executable(executable: str | None = None) -> str:
    """The halfstep program: the argument, $HALFSTEP, halfstep on the PATH, or a build folder of
    this source tree (build, build-cpu)."""
    candidates = [executable, os.environ.get("HALFSTEP"), shutil.which("halfstep")]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    candidates += [os.path.join(root, b, "halfstep") for b in ("build", "build-cpu")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise FileNotFoundError("the halfstep program was not found: pass executable=, set $HALFSTEP, or put it on "
                            "the PATH (README, Set-up)")


def _stderr_is_terminal() -> bool:
    """Whether this process's stderr is a terminal (where the CLI's progress line belongs)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _stream(cmd: list[str], terminal: bool) -> tuple[int, str]:
    """Runs cmd with its stderr copied to ours as it comes; returns (exit code, stderr text).
    With terminal the child writes to a pseudo-terminal: the CLI shows its progress line only
    on a terminal, and a plain pipe would hide it."""
    kept = []
    if terminal:
        import pty

        master, slave = pty.openpty()
        proc = subprocess.Popen(cmd, stderr=slave)
        os.close(slave)
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            kept.append(chunk)
            sys.stderr.write(chunk.decode(errors="replace"))
            sys.stderr.flush()
        os.close(master)
    else:
        with subprocess.Popen(cmd, stderr=subprocess.PIPE) as proc:
            assert proc.stderr is not None
            for chunk in iter(lambda: proc.stderr.read1(4096), b""):
                kept.append(chunk)
                sys.stderr.write(chunk.decode(errors="replace"))
                sys.stderr.flush()
    return proc.wait(), b"".join(kept).decode(errors="replace")


def run(deck: str, out: str | None = None, backend: str = "auto", args: list[str] | tuple = (),
        executable: str | None = None, report: bool = False, quiet: bool = False,
        progress: bool | None = None) -> Result:
    """Runs `halfstep run deck -o out --backend backend [args]` (out defaults to out/<job>), the
    CLI's messages and, on a terminal (progress=None: when our stderr is one), its progress
    line going to this process's stderr; returns the Result, or raises RunError with the exit
    code and the error lines (the folder of a failed run is kept in RunError.outdir)."""
    exe = find_executable(executable)
    if out is None:
        out = os.path.join("out", os.path.splitext(os.path.basename(deck))[0])
    cmd = [exe, "run", os.fspath(deck), "-o", os.fspath(out), "--backend", backend, *args]
    if report:
        cmd.append("--report")
    if quiet:
        cmd.append("--quiet")
    terminal = (_stderr_is_terminal() if progress is None else progress) and not quiet and os.name == "posix"
    code, text = _stream(cmd, terminal)
    if code != 0:
        lines = [ln.strip() for ln in text.replace("\r", "\n").split("\n")]
        errors = [ln for ln in lines if "error" in ln or "failed" in ln or "interrupted" in ln] or \
                 [ln for ln in lines if ln][-3:]
        has_results = os.path.exists(os.path.join(out, "summary.json"))
        raise RunError(code, "; ".join(errors), out if has_results else None)
    return Result(out)
