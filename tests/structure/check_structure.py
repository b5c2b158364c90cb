#!/usr/bin/env python3
"""The source's structure rules (docs/architecture.md), checked by the test suite.

1. No two folders of src/ include each other, directly or through others (a layered graph).
2. An element kind's deck name (C3D8R, C3D10M, C3D4, S4R) is spelled, outside comments, in at most
   three source files: a kind is its trait plus one registry line.
3. No file of src/ is longer than 900 lines and no function longer than 150 lines. The files and
   functions over the limits when this check was written are listed in structure_baseline.json:
   they may stay (issue 43 takes them apart) but not grow past their recorded length plus
   a margin, and no other may join them. A split one leaves the list (--update rewrites it).
4. Identifiers of the element families (MITC4 shells, FPM beams and triangles) outside
   src/elements/ and the family registries stay in no more files than the baseline records
   (issue 43's target: three).

Usage: check_structure.py SOURCE_ROOT [--update]. Prints what it measured; exit 1 on a breach.
"""
import argparse
import itertools
import json
import os
import re
import sys

MAX_FILE_LINES = 900
MAX_FUNCTION_LINES = 150
# Growth allowed to a listed offender before the check fails: a fix or a small feature may
# touch one, a new feature must not pile onto it.
GROWTH_MARGIN = 25
KINDS = ["C3D8R", "C3D10M", "C3D4", "S4R"]
MAX_KIND_FILES = 3
SOURCE_SUFFIXES = (".hpp", ".cpp", ".cu", ".cuh", ".h", ".cc")
# The registries that list every family, one entry each (issue 43's count leaves them out, as
# it does src/elements/registry.cpp): the host's block families and the CUDA backend's.
FAMILY_REGISTRIES = {os.path.join("src", "discretization", "element_blocks.cpp"),
                     os.path.join("src", "discretization", "row_families.hpp"),
                     os.path.join("src", "backends", "cuda", "device_families.cuh")}
# A family's identifiers: words that name it inside an identifier (split at '_' and case changes).
FAMILIES = {
    "shell (MITC4)": {"mitc4", "shell", "shells"},
    "beam (FPM)": {"beam", "beams"},
    "triangle (FPM)": {"tri", "tris", "triangle", "triangles"},
}


def source_files(src):
    """Every C++/CUDA source under src, as paths relative to its parent, sorted."""
    out = []
    for d, _, names in os.walk(src):
        for n in names:
            if n.endswith(SOURCE_SUFFIXES):
                out.append(os.path.join(d, n))
    return sorted(out)


def strip_code(text):
    """The text with comments, string and character literals blanked (newlines kept), so that
    braces, names and line numbers are those of the code."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator (1'000)
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    code = "".join(out)
    # Preprocessor lines (with their continuations) are not code the braces belong to.
    return re.sub(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)


TEMPLATE_HEAD = re.compile(r"^template\s*<")
CONTAINER_HEAD = re.compile(r"^(inline\s+)?(namespace|class|struct|union|enum)\b|^extern\s*\"")
QUALIFIERS = re.compile(r"^(\s|const\b|noexcept\b|override\b|final\b|mutable\b|volatile\b|&)*"
                        r"(->\s*[\w:<>,\s*&]+)?\s*$")
CTOR_INIT = re.compile(r"^\s*(noexcept\b\s*)?:\s*[\w:]")


def drop_template_head(flat):
    """The statement without a leading template<...> clause (nested angle brackets allowed)."""
    while TEMPLATE_HEAD.match(flat):
        depth, k = 0, flat.index("<")
        for k in range(k, len(flat)):
            depth += {"<": 1, ">": -1}.get(flat[k], 0)
            if depth == 0:
                break
        flat = flat[k + 1:].lstrip()
    return flat


def parameter_list(flat):
    """(start, end) of the parameter list's parentheses when flat ends like a function head: its
    last ')' followed only by qualifiers, or a ')' followed by a constructor's initializer list."""
    depth, opening, closing = 0, {}, []
    for k, ch in enumerate(flat):
        if ch == "(":
            depth += 1
            opening[depth] = k
        elif ch == ")":
            if depth > 0:
                closing.append((opening[depth], k, depth))
            depth -= 1
    outer = [(start, end) for start, end, d in closing if d == 1]
    for start, end in outer:  # a constructor: the first list followed by ':' and a member
        if CTOR_INIT.match(flat[end + 1:]):
            return start, end
    if outer and QUALIFIERS.match(flat[outer[-1][1] + 1:]):
        return outer[-1]
    return None


def functions(code):
    """(name, first line, lines) of every function body in code (comments, literals and
    preprocessor lines blanked): a brace block at namespace or class level whose statement ends
    like a parameter list (or a constructor's initializer list). Lambdas and local classes inside
    a function count as its lines."""
    found = []
    line_of = []
    ln = 1
    for ch in code:
        line_of.append(ln)
        if ch == "\n":
            ln += 1
    line_of.append(ln)
    # Each '{' -> its matching '}'.
    match, stack = {}, []
    for k, ch in enumerate(code):
        if ch == "{":
            stack.append(k)
        elif ch == "}" and stack:
            match[stack.pop()] = k

    def scan(begin, end):
        stmt_start, k = begin, begin
        while k < end:
            ch = code[k]
            if ch in ";}":
                stmt_start = k + 1
            elif ch == "{":
                close = match.get(k, end)
                flat = drop_template_head(" ".join(code[stmt_start:k].split()))
                if CONTAINER_HEAD.match(flat):
                    scan(k + 1, close)
                else:
                    params = parameter_list(flat)
                    if params and CTOR_INIT.match(flat[params[1] + 1:]) and re.search(r"[\w>]$", flat):
                        k = close + 1  # a member's brace initializer in the list: the body is further on
                        continue
                    head = re.sub(r"operator\s*[^\s(]+", "operator", flat[:params[0]]) if params else ""
                    if params and "=" not in head:
                        m = re.search(r"([~\w:]+)\s*$", head)
                        name = m.group(1) if m else "?"
                        first = stmt_start + len(code[stmt_start:k]) - len(code[stmt_start:k].lstrip())
                        found.append((name, line_of[first], line_of[close] - line_of[first] + 1))
                    # else data (an initializer, an array): skipped whole
                stmt_start = close + 1
                k = close + 1
                continue
            k += 1

    scan(0, len(code))
    return found


def include_cycles(src, files):
    """Folder pairs of src that include each other, directly or through others, with an example
    include each way."""
    inc = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
    top = lambda p: os.path.relpath(p, src).split(os.sep)[0]
    edges, why = {}, {}
    for f in files:
        with open(f, errors="replace") as fh:
            text = fh.read()
        for h in inc.findall(text):
            for cand in (os.path.normpath(os.path.join(os.path.dirname(f), h)), os.path.normpath(os.path.join(src, h))):
                if os.path.exists(cand) and cand.startswith(src + os.sep):
                    a, b = top(f), top(cand)
                    nested = os.sep in os.path.relpath(f, src) and os.sep in os.path.relpath(cand, src)
                    if a != b and nested:
                        edges.setdefault(a, set()).add(b)
                        why.setdefault((a, b), f"{os.path.relpath(f, src)} -> {os.path.relpath(cand, src)}")
                    break

    def reach(a):
        seen, stack = set(), [a]
        while stack:
            for m in edges.get(stack.pop(), ()):
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
        return seen

    nodes = sorted(set(edges) | {b for v in edges.values() for b in v})
    reached = {x: reach(x) for x in nodes}
    pairs = sorted({tuple(sorted((x, y))) for x, y in itertools.permutations(nodes, 2)
                    if y in reached[x] and x in reached[y]})
    return [(x, y, why.get((x, y), "(through others)"), why.get((y, x), "(through others)")) for x, y in pairs]


def identifier_words(name):
    """The lower-case words of an identifier: split at '_' and at case changes (shellForce ->
    shell, force; MITC4Ref -> mitc4, ref)."""
    words = []
    for part in name.split("_"):
        words += [w.lower() for w in re.findall(r"[A-Z0-9]+(?![a-z])|[A-Z]?[a-z0-9]+", part)]
    return words


def measure(root):
    """Everything the rules look at, for the sources under root/src."""
    src = os.path.join(root, "src")
    files = source_files(src)
    rel = lambda f: os.path.relpath(f, root)
    long_files, long_functions, kind_files = {}, {}, {k: [] for k in KINDS}
    family_files = {f: [] for f in FAMILIES}
    for f in files:
        with open(f, errors="replace") as fh:
            text = fh.read()
        code = strip_code(text)
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        if lines > MAX_FILE_LINES:
            long_files[rel(f)] = lines
        for name, first, count in functions(code):
            if count > MAX_FUNCTION_LINES:
                key = f"{rel(f)}:{name}"
                long_functions[key] = max(count, long_functions.get(key, 0))
        for k in KINDS:
            if re.search(r"\b" + k + r"\b", code):
                kind_files[k].append(rel(f))
        if not rel(f).startswith(os.path.join("src", "elements") + os.sep) and rel(f) not in FAMILY_REGISTRIES:
            words = set()
            for ident in set(re.findall(r"\b[A-Za-z_]\w*\b", code)):
                words.update(identifier_words(ident))
            for fam, names in FAMILIES.items():
                if words & names:
                    family_files[fam].append(rel(f))
    return {
        "cycles": include_cycles(src, files),
        "long_files": long_files,
        "long_functions": long_functions,
        "kind_files": kind_files,
        "family_files": family_files,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", help="the source tree (the folder holding src/)")
    ap.add_argument("--update", action="store_true", help="rewrite the baseline with today's offenders")
    ap.add_argument("--baseline", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "structure_baseline.json"))
    a = ap.parse_args()
    m = measure(a.root)
    if a.update:
        with open(a.baseline, "w") as fh:
            json.dump({"long_files": m["long_files"], "long_functions": m["long_functions"],
                       "family_files": {k: len(v) for k, v in m["family_files"].items()}}, fh, indent=1, sort_keys=True)
            fh.write("\n")
        print(f"check_structure: baseline written to {a.baseline}")
        return 0
    with open(a.baseline) as fh:
        base = json.load(fh)
    failures = []
    for x, y, xy, yx in m["cycles"]:
        failures.append(f"include cycle between src/{x} and src/{y}: {xy}; {yx}")
    for k, fs in m["kind_files"].items():
        if len(fs) > MAX_KIND_FILES:
            failures.append(f"element kind {k} spelled in {len(fs)} files (at most {MAX_KIND_FILES}): {', '.join(fs)}")
    for what, limit, found, known in (("file", MAX_FILE_LINES, m["long_files"], base["long_files"]),
                                      ("function", MAX_FUNCTION_LINES, m["long_functions"], base["long_functions"])):
        for key, n in sorted(found.items()):
            if key not in known:
                failures.append(f"{what} {key} has {n} lines (at most {limit}; split it)")
            elif n > known[key] + GROWTH_MARGIN:
                failures.append(f"{what} {key} grew to {n} lines (listed at {known[key]}, over the limit of {limit}: "
                                f"split it rather than add to it)")
    for fam, fs in m["family_files"].items():
        allowed = base["family_files"].get(fam, 3)
        if len(fs) > allowed:
            failures.append(f"{fam} identifiers outside src/elements/ in {len(fs)} files (at most {allowed}): "
                            f"{', '.join(fs)}")
    print(f"check_structure: {len(m['cycles'])} include cycles between src/ folders; element kind names in up to "
          f"{max(len(v) for v in m['kind_files'].values())} files (at most {MAX_KIND_FILES})")
    print(f"check_structure: {len(m['long_files'])} files over {MAX_FILE_LINES} lines "
          f"({len(base['long_files'])} listed), {len(m['long_functions'])} functions over {MAX_FUNCTION_LINES} lines "
          f"({len(base['long_functions'])} listed); the longest:")
    for key, n in sorted(m["long_functions"].items(), key=lambda kv: -kv[1])[:5]:
        print(f"  {n:5d}  {key}")
    print("check_structure: family identifiers outside src/elements/ and the registries (files): " +
          ", ".join(f"{fam} {len(fs)}" for fam, fs in m["family_files"].items()) + " (issue 43's target: 3 each)")
    gone = [k for k in list(base["long_files"]) + list(base["long_functions"])
            if k not in m["long_files"] and k not in m["long_functions"]]
    if gone:
        print(f"check_structure: {len(gone)} listed offenders are within the limits now; --update drops them: "
              + ", ".join(sorted(gone)[:8]))
    for f in failures:
        print("check_structure: FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
