#!/usr/bin/env python3
"""Convert the example tests of the Python partial-json-parser into
tests/fixtures/peers/partial_json_parser.json.

partial-json-parser completes a cut-off document; flags (`Allow`) say which kinds of value may be
left partial, and its default, `ALL`, completes every kind, as we do. Its tests/test_examples.py
states answers for a few inputs, most of them under narrower flags, and `test_consistency` cuts
two documents at every character and checks that its two completers (`fix`, `fix_fast`) agree,
without an answer. So this script runs those tests against the installed package with stand-ins
for `parse_json`, `fix` and `fix_fast` that call the real ones and record every input they are
given; each distinct input is recorded once, with the package's answer in its default mode:
`parse_json(input)`, or no value when it raises (`PartialJSON`, `MalformedJSON`).

A non-finite number (`Infinity`, `-Infinity`, `NaN`, which the package reads as Python floats)
is recorded as `null`, the value JSON gives it (`JSON.stringify` writes it so), and the case is
marked `"non_finite": true`. `test_consistencies` (hypothesis-generated documents) is left out:
its inputs change from run to run.

Usage: convert_partial_json_parser.py PATH/TO/test_examples.py [OUT_JSON]
(needs `pip install partial-json-parser==0.2.1.1.post7`)
"""
import ast
import json
import math
import os
import sys

import partial_json_parser as real
from partial_json_parser.core import options
from partial_json_parser.version import __version__

VERSION = "0.2.1.1.post7"
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = [
    "test_str",
    "test_arr",
    "test_obj",
    "test_singletons",
    "test_num",
    "test_error",
    "test_fix",
    "test_fix_fast",
    "test_consistency",
]
HELPERS = ["consistent"]

CASES = {}


def finite(value):
    """The value with each non-finite float as `None`, and whether there was one."""
    if isinstance(value, float) and not math.isfinite(value):
        return None, True
    if isinstance(value, list):
        items = [finite(v) for v in value]
        return [v for v, _ in items], any(f for _, f in items)
    if isinstance(value, dict):
        items = {k: finite(v) for k, v in value.items()}
        return {k: v for k, (v, _) in items.items()}, any(f for _, f in items.values())
    return value, False


def record(text, where):
    if text in CASES:
        return
    try:
        value = real.parse_json(text)
    except (real.PartialJSON, real.MalformedJSON):
        CASES[text] = {"input": text, "expected": "", "expected_is_json": False, "source": where}
        return
    value, non_finite = finite(value)
    case = {"input": text, "expected": value, "expected_is_json": True}
    if non_finite:
        case["non_finite"] = True
    case["source"] = where
    CASES[text] = case


def caller_line():
    frame = sys._getframe(2)
    while frame and frame.f_code.co_filename != "test_examples.py":
        frame = frame.f_back
    return f"test_examples.py:{frame.f_lineno if frame else 0}"


def recording(real_fn):
    def stand_in(text, *args, **kwargs):
        record(text, caller_line())
        return real_fn(text, *args, **kwargs)

    return stand_in


class Raises:
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        return kind is not None and issubclass(kind, Exception)


def main():
    if __version__ != VERSION:
        sys.exit(f"expected partial-json-parser {VERSION}, found {__version__}")
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        HERE, "..", "..", "tests", "fixtures", "peers", "partial_json_parser.json")
    tree = ast.parse(open(src, encoding="utf-8").read(), "test_examples.py")
    wanted = set(TESTS) | set(HELPERS)
    body = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in wanted]
    env = {name: getattr(options, name) for name in options.__all__}
    env.update(
        parse_json=recording(real.parse_json),
        fix=recording(real.fix),
        fix_fast=recording(real.fix_fast),
        PartialJSON=real.PartialJSON,
        MalformedJSON=real.MalformedJSON,
        raises=Raises,
        accumulate=__import__("itertools").accumulate,
        dumps=json.dumps,
        isnan=math.isnan,
    )
    exec(compile(ast.Module(body=body, type_ignores=[]), "test_examples.py", "exec"), env)
    for name in TESTS:
        env[name]()
    rows = [json.dumps(c, ensure_ascii=False) for c in CASES.values()]
    with open(out, "w", encoding="utf-8") as f:
        f.write("[\n " + ",\n ".join(rows) + "\n]\n")
    print(f"{len(rows)} cases written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
