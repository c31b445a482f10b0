#!/usr/bin/env python3
"""Tests of scripts/check-layers.py: it passes on the real tree, and fails, naming the file and the
line, when an include points up a floor, across a floor, or into a folder without a floor."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check-layers.py")
DOC = os.path.join(ROOT, "docs", "architecture.md")


def run(src, doc=DOC):
    p = subprocess.run([sys.executable, SCRIPT, "--src", src, "--doc", doc], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class RealTree(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.src = os.path.join(self.tmp, "src")
        shutil.copytree(os.path.join(ROOT, "src"), self.src)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def add_line(self, rel, line):
        path = os.path.join(self.src, rel)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(line + "\n" + text)

    def test_the_tree_as_committed_passes(self):
        code, out = run(self.src)
        self.assertEqual(code, 0, out)
        self.assertIn("every include of", out)

    def test_an_include_up_a_floor_fails_naming_file_and_line(self):
        self.add_line("store/db.h", '#include "api/routes.h"')
        code, out = run(self.src)
        self.assertEqual(code, 1, out)
        self.assertIn(os.path.join(self.src, "store", "db.h") + ":1: store includes api/, a floor above it", out)

    def test_an_include_across_one_floor_fails(self):
        self.add_line("console/gate.cpp", '#include "api/routes.h"')
        code, out = run(self.src)
        self.assertEqual(code, 1, out)
        self.assertIn("console includes api/, the same floor as it", out)

    def test_a_folder_without_a_floor_fails(self):
        os.makedirs(os.path.join(self.src, "extras"))
        with open(os.path.join(self.src, "extras", "x.h"), "w") as f:
            f.write("#pragma once\n")
        code, out = run(self.src)
        self.assertEqual(code, 1, out)
        self.assertIn("extras has no floor in the layer order", out)

    def test_an_include_down_is_allowed(self):
        self.add_line("api/routes.cpp", '#include "core/result.h"')
        code, out = run(self.src)
        self.assertEqual(code, 0, out)


class Order(unittest.TestCase):
    def test_a_document_without_the_order_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            doc = os.path.join(tmp, "a.md")
            with open(doc, "w") as f:
                f.write("# no order here\n")
            os.makedirs(os.path.join(tmp, "src"))
            code, out = run(os.path.join(tmp, "src"), doc)
            self.assertNotEqual(code, 0)
            self.assertIn("has no ```layers block", out)


if __name__ == "__main__":
    unittest.main()
