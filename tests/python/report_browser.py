#!/usr/bin/env python3
"""report.html in a real browser (Debian's chromium, headless):

    python3 tests/python/report_browser.py --halfstep build/halfstep [--work DIR] [--chromium PATH]

Runs examples/circular_plate.inp with --report and opens a copy of its report.html into which
a checker script is put first in <head>: it records console.error/console.warn calls and error
events (a broken image is one) and, on load, every <img> with its naturalWidth. Asserts that
chromium printed no console message of the page and that every image (at least the report's
twelve) was decoded, with a width > 0. Exit 0 when all hold, 1 otherwise, also when chromium
is not installed (scripts/install-deps.sh installs it: a CI run must not skip this test).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHECKER = """<script>
(function () {
  var problems = [];
  ["error", "warn"].forEach(function (level) {
    var original = console[level];
    console[level] = function () { problems.push(level + ": " + Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); };
  });
  window.addEventListener("error", function (e) { problems.push("error event: " + (e.message || (e.target && e.target.src ? "cannot load " + e.target.src.slice(0, 60) : e.type))); }, true);
  window.addEventListener("load", function () {
    var images = Array.prototype.map.call(document.images, function (img) { return {id: img.id, complete: img.complete, width: img.naturalWidth}; });
    document.body.setAttribute("data-check", JSON.stringify({images: images, problems: problems}));
  });
})();
</script>
"""


def main():
    """Returns the exit code."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--halfstep", required=True)
    parser.add_argument("--work", default=os.path.join(ROOT, "out", "report_browser"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser"))
    args = parser.parse_args()
    if not args.chromium:
        print("report_browser: FAILED: chromium is not installed (scripts/install-deps.sh installs it)")
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    out = os.path.join(args.work, "plate")
    env = dict(os.environ, OMP_NUM_THREADS="1")
    p = subprocess.run([args.halfstep, "run", os.path.join(ROOT, "examples", "circular_plate.inp"), "-o", out,
                        "--report", "--quiet"], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        print(f"report_browser: halfstep run --report failed ({p.returncode}):\n{p.stderr}")
        return 1
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    checked = os.path.join(out, "report_checked.html")
    open(checked, "w", encoding="utf-8").write(html.replace("<head>", "<head>" + CHECKER, 1))
    # --no-sandbox: CI runs as root, where chromium's sandbox refuses to start.
    cmd = [args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
           "--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.abspath(checked)]
    b = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, HOME=os.path.join(args.work, "home")))
    failures = []
    if b.returncode != 0:
        failures.append(f"chromium exited {b.returncode}: {b.stderr[-2000:]}")
    match = re.search(r'data-check="([^"]*)"', b.stdout)
    if not match:
        failures.append("the page's load handler did not run (no data-check in the DOM)")
    else:
        check = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        images = check["images"]
        print(f"report_browser: {len(images)} images, "
              f"{sum(1 for i in images if i['complete'] and i['width'] > 0)} decoded")
        if len(images) < 12:
            failures.append(f"only {len(images)} images in the page, expected at least 12")
        for img in images:
            if not img["complete"] or img["width"] <= 0:
                failures.append(f"image {img['id']} not loaded ({img})")
        for problem in check["problems"]:
            failures.append(f"page problem: {problem}")
    # Console messages of the page as chromium logs them (the report itself has no script).
    for line in b.stderr.splitlines():
        if "CONSOLE" in line and "report_checked.html" in line:
            failures.append(f"console: {line}")
    for f in failures:
        print("report_browser: FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
