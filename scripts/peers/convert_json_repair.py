#!/usr/bin/env python3
"""Convert the published test suite of Python json_repair into tests/fixtures/peers/json_repair.json.

The suite ships in the PyPI sdist of json-repair (0.50.0 is the last release whose sdist carries
tests/). We do not run json_repair: each test module is executed against a stand-in `repair_json`
that records (input, expected) at every `repair_json(x) == y` comparison, with every `assert`
turned into a plain expression so one comparison never hides the next.

Usage: convert_json_repair.py [SDIST_DIR] [OUT_JSON]
Without SDIST_DIR the sdist is fetched with pip into /tmp/llm-extract-peers.
"""
import ast
import json
import os
import subprocess
import sys
import types

VERSION = "0.50.0"
# Modules with (input, expected) pairs. Left out: test_performance (timings), test_repair_json_cli
# and test_repair_json_from_file (file and CLI plumbing, no new pairs).
MODULES = [
    "test_json_repair.py",
    "test_parse_array.py",
    "test_parse_boolean_or_null.py",
    "test_parse_comment.py",
    "test_parse_number.py",
    "test_parse_object.py",
    "test_parse_string.py",
]
# Modes that change what json_repair promises; a case made in one of them is not a plain repair.
SKIP_KWARGS = {"stream_stable", "logging", "schema", "strict"}

CASES = []
SKIPPED = []


class Recorded:
    """What the stand-in `repair_json` returns: records the value it is compared with."""

    def __init__(self, text, kwargs, where):
        self.text, self.kwargs, self.where = text, kwargs, where

    def __eq__(self, other):
        record(self, other)
        return True

    __hash__ = None

    def __bool__(self):
        return True


def record(rec, expected):
    if any(k in SKIP_KWARGS and v for k, v in rec.kwargs.items()):
        SKIPPED.append((rec.where, "mode " + ",".join(rec.kwargs)))
        return
    returns_objects = rec.kwargs.get("return_objects") or rec.kwargs.get("_loads")
    case = {"input": rec.text}
    if isinstance(expected, str) and expected == "":
        # json_repair's answer when it finds nothing to repair into JSON (also with return_objects).
        case["expected"] = ""
        case["expected_is_json"] = False
    elif returns_objects:
        case["expected"] = expected
        case["expected_is_json"] = True
    else:
        try:
            case["expected"] = json.loads(expected)
            case["expected_is_json"] = True
        except (TypeError, ValueError):
            case["expected"] = expected
            case["expected_is_json"] = False
    case["source"] = rec.where
    CASES.append(case)


def where_called(module_name):
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename != module_name:
        frame = frame.f_back
    return f"tests/{module_name}:{frame.f_lineno if frame else 0}"


def make_stub(module_name):
    def repair_json(text="", **kwargs):
        return Recorded(text, kwargs, where_called(module_name))

    def loads(text="", **kwargs):
        return Recorded(text, dict(kwargs, _loads=True), where_called(module_name))

    return repair_json, loads


class NoAsserts(ast.NodeTransformer):
    """`assert e` -> `e`; `x is None` -> `x == None`, so every comparison is recorded."""

    def visit_Assert(self, node):
        return ast.copy_location(ast.Expr(self.visit(node.test)), node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        node.ops = [ast.Eq() if isinstance(op, ast.Is) else op for op in node.ops]
        return node


def run_module(tests_dir, name):
    source = open(os.path.join(tests_dir, name), encoding="utf-8").read()
    tree = NoAsserts().visit(ast.parse(source, filename=name))
    # Imports of the library are replaced by the stand-ins.
    tree.body = [n for n in tree.body if not (isinstance(n, ast.ImportFrom) and "json_repair" in (n.module or ""))]
    ast.fix_missing_locations(tree)
    repair_json, loads = make_stub(name)
    namespace = {"repair_json": repair_json, "loads": loads, "__name__": name}
    exec(compile(tree, name, "exec"), namespace)
    for fname, fn in list(namespace.items()):
        if fname.startswith("test_") and callable(fn):
            try:
                fn()
            except Exception as e:  # a test that needs fixtures we do not provide
                SKIPPED.append((f"tests/{name}:{fname}", repr(e)))


def main():
    sdist = sys.argv[1] if len(sys.argv) > 1 else None
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(__file__), "..", "..", "tests", "fixtures", "peers", "json_repair.json")
    if sdist is None:
        scratch = "/tmp/llm-extract-peers"
        os.makedirs(scratch, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", f"json-repair=={VERSION}", "--no-binary", ":all:",
                        "--no-deps", "-d", scratch], check=True)
        subprocess.run(["tar", "xzf", f"json_repair-{VERSION}.tar.gz"], cwd=scratch, check=True)
        sdist = os.path.join(scratch, f"json_repair-{VERSION}")
    for name in MODULES:
        run_module(os.path.join(sdist, "tests"), name)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(CASES, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(CASES)} cases written to {out}; {len(SKIPPED)} skipped", file=sys.stderr)
    for where, why in SKIPPED:
        print(f"  skipped {where}: {why}", file=sys.stderr)


if __name__ == "__main__":
    main()
