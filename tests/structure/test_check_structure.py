#!/usr/bin/env python3
"""check_structure.py's rules on small made-up source trees: each breach is caught and named,
and a tree that keeps the rules passes. Usage: test_check_structure.py"""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_structure.py")
sys.path.insert(0, HERE)
import check_structure  # noqa: E402


def function(name, lines):
    """A C++ function of about `lines` lines."""
    body = "".join(f"  x += {i};\n" for i in range(lines - 3))
    return f"int {name}(int x) {{\n{body}  return x;\n}}\n"


class CheckStructure(unittest.TestCase):
    def tree(self, files, baseline=None):
        """Runs the check on a tree of files {relative path: text}; returns (exit code, output)."""
        root = tempfile.mkdtemp(prefix="structure_")
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as fh:
                fh.write(textwrap.dedent(text))
        base = os.path.join(root, "baseline.json")
        with open(base, "w") as fh:
            json.dump(baseline or {"long_files": {}, "long_functions": {}, "family_files": {}}, fh)
        r = subprocess.run([sys.executable, CHECK, root, "--baseline", base], capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    def test_a_tree_that_keeps_the_rules_passes(self):
        code, out = self.tree({"src/core/a.hpp": "#pragma once\nint f();\n",
                               "src/model/b.cpp": '#include "core/a.hpp"\n' + function("g", 40)})
        self.assertEqual(code, 0, out)
        self.assertIn("0 include cycles", out)

    def test_an_include_cycle_fails(self):
        code, out = self.tree({"src/core/a.hpp": '#include "model/b.hpp"\n',
                               "src/model/b.hpp": '#include "core/a.hpp"\n'})
        self.assertEqual(code, 1, out)
        self.assertIn("include cycle between src/core and src/model", out)

    def test_a_long_function_fails_and_a_listed_one_may_stay_but_not_grow(self):
        files = {"src/core/a.cpp": "namespace n {\nstruct S {\n" + function("member", 160) + "};\n}\n"}
        code, out = self.tree(files)
        self.assertEqual(code, 1, out)
        self.assertIn("function src/core/a.cpp:member has 160 lines", out)
        listed = {"long_files": {}, "long_functions": {"src/core/a.cpp:member": 150}, "family_files": {}}
        self.assertEqual(self.tree(files, listed)[0], 0)
        listed["long_functions"]["src/core/a.cpp:member"] = 130
        code, out = self.tree(files, listed)
        self.assertEqual(code, 1, out)
        self.assertIn("grew to 160 lines", out)

    def test_braces_in_comments_strings_and_initializers_are_not_functions(self):
        text = ('const char* s = "{{{";  // {\n/* } */\nint table[] = {1, 2, 3};\n' + function("short_one", 20) +
                "struct P {\n  P(int a) : a_(a), b_{a} {\n" + "    a_ += 1;\n" * 200 + "  }\n  int a_, b_;\n};\n")
        found = {name: n for name, _, n in check_structure.functions(check_structure.strip_code(text))}
        self.assertEqual(found["short_one"], 20)
        self.assertEqual(found["P"], 202)  # a constructor with an initializer list
        self.assertEqual(len(found), 2, found)

    def test_a_kind_name_in_four_files_fails(self):
        files = {f"src/core/k{i}.cpp": "const int C3D8R = 1;\n" for i in range(4)}
        code, out = self.tree(files)
        self.assertEqual(code, 1, out)
        self.assertIn("element kind C3D8R spelled in 4 files", out)

    def test_family_identifiers_outside_elements_are_counted(self):
        files = {f"src/core/f{i}.cpp": "int beam_count = 0;\n" for i in range(5)}
        files["src/elements/beam.hpp"] = "int beam_anything = 0;\n"
        files["src/discretization/element_blocks.cpp"] = "const int& beam_block_family();\n"  # a registry
        code, out = self.tree(files, {"long_files": {}, "long_functions": {}, "family_files": {"beam (FPM)": 5}})
        self.assertEqual(code, 0, out)
        self.assertIn("beam (FPM) 5", out)
        code, out = self.tree(files, {"long_files": {}, "long_functions": {}, "family_files": {"beam (FPM)": 4}})
        self.assertEqual(code, 1, out)
        self.assertIn("beam (FPM) identifiers outside src/elements/ in 5 files (at most 4)", out)

    def test_identifier_words(self):
        self.assertEqual(check_structure.identifier_words("shellForce_TriMesh"), ["shell", "force", "tri", "mesh"])
        self.assertEqual(check_structure.identifier_words("MITC4Ref"), ["mitc4", "ref"])


if __name__ == "__main__":
    unittest.main()
