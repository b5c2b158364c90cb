#!/usr/bin/env python3
"""Generate every example case at two refinements and check all decks (stdlib only).

Usage: python3 examples/check_all.py [--keep DIR]

For each case of generate_deck.py: writes the deck at the default refinement and
at a finer one (plus a --split-mesh and a --dt variant) into a temporary folder,
runs check_deck.py on it with the expected normal direction, then checks the
committed decks examples/*.inp.  Exit status 1 on any error.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "generate_deck.py")
CHK = os.path.join(HERE, "check_deck.py")

# case -> (expected normal, [argument lists])
CASES = {
    "circular-plate": ("+z", [[], ["--n", "9"]]),
    "clamped-plate": ("+z", [[], ["--n", "8"]]),
    "pinched-cylinder": ("out-x", [[], ["--n", "40", "--dt", "1.2761e-5", "--time", "0.01"]]),
    "pinched-semicylinder": ("out-x", [[], ["--n", "40", "--smooth"]]),
    "cantilever-shear": ("+z", [[], ["--n", "2"]]),
    "cantilever-moment": ("+z", [[], ["--n", "3", "--fraction", "0.5"]]),
    "scordelis-lo": ("out-x", [[], ["--n", "16", "--split-mesh"]]),
    "pinched-cylinder-diaphragm": ("out-x", [[], ["--n", "16"]]),
    "pinched-hemisphere": ("out-o", [[], ["--n", "16"]]),
    "cantilever-vibration": ("+z", [[], ["--n", "4"]]),
}
COMMITTED = [
    ("circular_plate.inp", "+z"),
    ("clamped_plate.inp", "+z"),
    ("pinched_cylinder.inp", "out-x"),
    ("plate_with_hole.inp", "+z"),
]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keep", help="write the generated decks to this folder instead of a temporary one")
    a = ap.parse_args()
    tmp = a.keep or tempfile.mkdtemp(prefix="halfstep_examples_")
    os.makedirs(tmp, exist_ok=True)
    bad = 0
    for case, (normal, variants) in CASES.items():
        for k, extra in enumerate(variants):
            deck = os.path.join(tmp, "%s_%d.inp" % (case, k))
            rc, out = run([sys.executable, GEN, case] + extra + ["-o", deck])
            if rc:
                print("FAIL generate %s %s\n%s" % (case, " ".join(extra), out))
                bad += 1
                continue
            rc, out = run([sys.executable, CHK, deck, "--expect-normal", normal, "--quiet"])
            status = "ok" if rc == 0 else "FAIL"
            print("%-4s %-27s %s" % (status, case, " ".join(extra) or "(defaults)"))
            if rc:
                print(out)
                bad += 1
    for name, normal in COMMITTED:
        path = os.path.join(HERE, name)
        rc, out = run([sys.executable, CHK, path, "--expect-normal", normal, "--quiet"])
        print("%-4s committed %s" % ("ok" if rc == 0 else "FAIL", name))
        if rc:
            print(out)
            bad += 1
    if not a.keep:
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
