#!/usr/bin/env python3
"""kill -9 at random moments, each followed by a restart (issue 20): runs a deck once without
interruption, then KILLS times: a run writing a restart every EVERY increments is killed with
SIGKILL after a random delay, resumed from its restart file (again and again if it is killed
again before it ends), and its results are compared byte for byte with the uninterrupted run's
(every file but summary.json, the restart and the status file, whose wall times differ). Prints
one line per kill and a verdict; exit 1 if any resumed run differs.

  validation/restart_kill.py --halfstep build-cpu/halfstep --deck examples/clamped_plate.inp
"""
import argparse
import filecmp
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time


def results(folder):
    """Relative paths of the files a comparison covers."""
    out = []
    for root, _, files in os.walk(folder):
        for f in files:
            if f == "summary.json" or f.endswith(".restart") or f.endswith(".tmp") or f.endswith(".sta"):
                continue
            out.append(os.path.relpath(os.path.join(root, f), folder))
    return sorted(out)


def same(a, b):
    ra, rb = results(a), results(b)
    if ra != rb:
        return False, f"files differ: {sorted(set(ra) ^ set(rb))[:5]}"
    for r in ra:
        if not filecmp.cmp(os.path.join(a, r), os.path.join(b, r), shallow=False):
            return False, f"{r} differs"
    return True, f"{len(ra)} files equal"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--halfstep", required=True)
    ap.add_argument("--deck", required=True)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--every", type=int, default=2000, help="restart every this many increments")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default=None)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = args.work or tempfile.mkdtemp(prefix="restart_kill_")
    os.makedirs(work, exist_ok=True)
    base = [args.halfstep, "run", args.deck, "--quiet", "--backend", "cpu", "--threads", str(args.threads)]
    job = os.path.splitext(os.path.basename(args.deck))[0]
    full = os.path.join(work, "full")
    shutil.rmtree(full, ignore_errors=True)
    t0 = time.time()
    subprocess.run(base + ["-o", full], check=True)
    wall = time.time() - t0
    print(f"uninterrupted run: {wall:.2f} s; {args.kills} runs killed at random moments in (0.1, 0.9) of it")
    bad = 0
    for k in range(1, args.kills + 1):
        out = os.path.join(work, f"kill{k}")
        shutil.rmtree(out, ignore_errors=True)
        cmd = base + ["-o", out, "--restart-every", str(args.every)]
        kills, delay = 0, rng.uniform(0.1, 0.9) * wall
        proc = subprocess.Popen(cmd)
        while True:
            try:
                proc.wait(timeout=delay)
                break  # finished before the kill
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                kills += 1
            restart = os.path.join(out, job + ".restart")
            resume = cmd + (["--restart", restart] if os.path.exists(restart) else [])
            if not os.path.exists(restart):
                shutil.rmtree(out, ignore_errors=True)  # killed before its first restart: start over
            delay = rng.uniform(0.1, 0.9) * wall if kills < 3 else 1e9  # at most three kills a run
            proc = subprocess.Popen(resume)
        if proc.returncode != 0:
            print(f"kill {k}: the resumed run failed with exit {proc.returncode}")
            bad += 1
            continue
        ok, why = same(full, out)
        bad += 0 if ok else 1
        print(f"kill {k}: {kills} kill(s), resumed: {'identical' if ok else 'DIFFERENT'} ({why})")
        shutil.rmtree(out, ignore_errors=True)
    print(f"{args.kills - bad} of {args.kills} killed-and-resumed runs reproduce the uninterrupted results byte for byte")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
