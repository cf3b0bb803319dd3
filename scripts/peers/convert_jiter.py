#!/usr/bin/env python3
"""Convert the partial-mode tests of pydantic's jiter into tests/fixtures/peers/jiter.json and
tests/fixtures/peers/jiter_documents.json.

jiter reads a cut-off document in two partial modes: `on` drops a string the cut left open,
`trailing-strings` keeps it. Its tests state a few answers outright and otherwise cut a document
at every byte and only check the shape of what comes back, so the answer for each cut is jiter's
own: this script runs the tests against the installed jiter (the Python package, which is built
from the same Rust reader) and records every partial-mode call with jiter's answer.

- crates/jiter-python/tests/test_jiter.py: every `test_partial_*` function is executed with a
  stand-in `jiter.from_json` that calls the real one and records (input, mode, answer); a
  `pytest.raises` block swallows its error. Calls in mode `off` and inputs that are not UTF-8
  (the text a model writes is) are not recorded. The upstream assertions still run, so a
  recorded answer is the one the test states wherever it states one.
- crates/jiter/tests/main.rs: each test whose name holds `partial` gives its byte-string input,
  its mode (`PartialMode::On`, or `TrailingStrings` and `with_allow_partial_strings`, which are
  the same reading of strings), and when it loops `for i in 1..json_bytes.len()` every cut of
  it; answers again from the Python package. Its two loops over bench documents
  (`read_file("./benches/…")`) only assert that every cut reads as an array or an object; they
  go to jiter_documents.json as (document, shape), without a per-cut answer.

Every case also gets `completion`: jiter's `trailing-strings` answer, the one that keeps what was
written, against which a stream's snapshots are checked.

Usage: convert_jiter.py PATH/TO/jiter [OUT_DIR]   (needs `pip install jiter==0.16.0`)
"""
import ast
import json
import os
import re
import sys
import types

import jiter as real_jiter

VERSION = "0.16.0"
HERE = os.path.dirname(os.path.abspath(__file__))
PY_TESTS = "crates/jiter-python/tests/test_jiter.py"
RS_TESTS = "crates/jiter/tests/main.rs"

CASES = {}
DOCUMENTS = []


def mode_name(mode):
    if mode is True or mode == "on":
        return "on"
    if mode == "trailing-strings":
        return "trailing-strings"
    return None


def answer(data, mode):
    return real_jiter.from_json(data, partial_mode=mode)


def record(data, mode, where):
    if isinstance(data, str):
        data = data.encode()
    name = mode_name(mode)
    if name is None:
        return
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    key = (text, name)
    if key in CASES:
        return
    try:
        expected = answer(data, name)
    except ValueError:
        CASES[key] = {"input": text, "expected": "", "expected_is_json": False}
    else:
        CASES[key] = {"input": text, "expected": expected, "expected_is_json": True}
    CASES[key].update(mode=name, source=where)
    try:
        CASES[key]["completion"] = answer(data, "trailing-strings")
    except ValueError:
        CASES[key]["completion"] = None


class Raises:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        return kind is not None and issubclass(kind, Exception)


def python_tests(root):
    path = os.path.join(root, PY_TESTS)
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    funcs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_partial")]
    for func in funcs:
        module = ast.Module(body=[func], type_ignores=[])

        def from_json(data, partial_mode=False, **kwargs):
            line = sys._getframe(1).f_lineno
            record(data, partial_mode, f"test_jiter.py:{line}")
            return real_jiter.from_json(data, partial_mode=partial_mode, **kwargs)

        env = {
            "jiter": types.SimpleNamespace(from_json=from_json),
            "pytest": types.SimpleNamespace(raises=Raises),
        }
        exec(compile(module, path, "exec"), env)
        env[func.name]()


RS_FN = re.compile(r"^#\[test\]\s*\nfn (\w*partial\w*)\(\) \{\n(.*?)^\}", re.M | re.S)
RS_BYTES = re.compile(r'br(#*)"(.*?)"\1')
RS_FILE = re.compile(r'read_file\("\./(benches/[\w.]+)"\)')


def rust_tests(root):
    source = open(os.path.join(root, RS_TESTS), encoding="utf-8").read()
    for m in RS_FN.finditer(source):
        name, body = m.group(1), m.group(2)
        line = source.count("\n", 0, m.start()) + 2
        where = f"main.rs:{line}"
        mode = "on" if "PartialMode::On" in body else "trailing-strings"
        every_cut = "for i in 1..json_bytes.len()" in body
        doc = RS_FILE.search(body)
        if doc:
            text = open(os.path.join(root, "crates/jiter", doc.group(1)), encoding="utf-8").read()
            shape = "array" if "JsonValue::Array(_)" in body else "object"
            DOCUMENTS.append({"name": doc.group(1), "document": text, "mode": mode,
                              "shape": shape, "source": where})
            continue
        for b in RS_BYTES.finditer(body):
            # Rust raw byte strings hold their bytes as written.
            data = b.group(2).encode()
            record(data, mode, where)
            if every_cut:
                for i in range(1, len(data)):
                    record(data[:i], mode, where)


def main():
    if real_jiter.__version__ != VERSION:
        sys.exit(f"expected jiter {VERSION}, found {real_jiter.__version__}")
    root = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "tests", "fixtures", "peers")
    python_tests(root)
    rust_tests(root)
    rows = [json.dumps(c, ensure_ascii=False) for c in CASES.values()]
    with open(os.path.join(out, "jiter.json"), "w", encoding="utf-8") as f:
        f.write("[\n " + ",\n ".join(rows) + "\n]\n")
    with open(os.path.join(out, "jiter_documents.json"), "w", encoding="utf-8") as f:
        json.dump(DOCUMENTS, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{len(rows)} cases, {len(DOCUMENTS)} documents written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
