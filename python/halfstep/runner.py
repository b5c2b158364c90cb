"""Running a deck with the halfstep program from Python, with the CLI's progress and errors."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from .results import Result


class RunError(Exception):
    """halfstep exited with an error; returncode is its exit code, message its last error lines."""

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


def run(deck: str, out: str | None = None, backend: str = "auto", args: list[str] | tuple = (),
        executable: str | None = None, report: bool = False, quiet: bool = False) -> Result:
    """Runs `halfstep run deck -o out --backend backend [args]` (out defaults to out/<job>), the
    progress line and messages going to this process's stderr as the CLI prints them; returns
    the Result, or raises RunError with the exit code and the error lines (the folder of a
    failed run is kept in RunError.outdir)."""
    exe = find_executable(executable)
    if out is None:
        out = os.path.join("out", os.path.splitext(os.path.basename(deck))[0])
    cmd = [exe, "run", os.fspath(deck), "-o", os.fspath(out), "--backend", backend, *args]
    if report:
        cmd.append("--report")
    if quiet:
        cmd.append("--quiet")
    # stderr is copied through line by line (the progress line rewrites itself with \r) and
    # kept, so that an error can be raised with the CLI's own words.
    proc = subprocess.Popen(cmd, stdout=None, stderr=subprocess.PIPE)
    kept = []
    assert proc.stderr is not None
    for raw in iter(lambda: proc.stderr.read1(4096) if hasattr(proc.stderr, "read1") else proc.stderr.read(4096), b""):
        sys.stderr.write(raw.decode(errors="replace"))
        sys.stderr.flush()
        kept.append(raw)
    code = proc.wait()
    if code != 0:
        lines = [ln.strip() for ln in b"".join(kept).decode(errors="replace").replace("\r", "\n").split("\n")]
        errors = [ln for ln in lines if "error" in ln or "failed" in ln or "interrupted" in ln] or \
                 [ln for ln in lines if ln][-3:]
        has_results = os.path.exists(os.path.join(out, "summary.json"))
        raise RunError(code, "; ".join(errors), out if has_results else None)
    return Result(out)
