#!/usr/bin/env python3
"""Differential testing of `llm-extract repair` against Python json_repair and JS jsonrepair.

Generates realistic JSON documents, damages each one in a known way (the damage classes the
README beside this file lists, plus purely random edits), runs all three readers on every damaged text, and reports,
per damage class, how often each reader returns the intended value and where we disagree with
both peers. Seeded and reproducible; not part of CI. See README.md beside this file.
"""
import argparse
import collections
import json
import os
import random
import re
import string
import subprocess
import sys
import textwrap
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

# ---------------------------------------------------------------------------------------------
# Documents: real-looking replies (records, nested objects, arrays of objects, text with quotes,
# code and URLs, numbers of every shape).
# ---------------------------------------------------------------------------------------------

FIRST = ["Alice", "Bob", "Chen", "Dana", "Emeka", "Fatima", "Günter", "Hiro", "Inés", "José", "Kai", "Lena"]
LAST = ["Smith", "O'Neil", "Nakamura", "García", "Okafor", "Müller", "Rossi", "Kowalski", "Dubois", "Ivanova"]
WORDS = ("the report shows revenue grew while costs fell and the team shipped three features "
         "before the deadline despite an outage in the payments service last week").split()
TAGS = ["urgent", "billing", "infra", "frontend", "api", "docs", "security", "ml", "ops", "legal"]
DOMAINS = ["example.com", "acme.io", "data.gov", "shop.example.org"]
CODE = [
    'def add(a, b):\n    return {"sum": a + b}',
    'for (let i = 0; i < n; i++) {\n  out.push(items[i]);\n}',
    'SELECT name, total FROM orders WHERE total > 100;',
    'if x["key"] == "}":\n    print("[done]")',
]


def sentence(rng, quotes=False):
    words = rng.sample(WORDS, rng.randint(4, 12))
    if quotes and len(words) > 3:
        i = rng.randrange(1, len(words) - 1)
        words[i] = f'"{words[i]}"'
    text = " ".join(words)
    return text[0].upper() + text[1:] + rng.choice([".", "!", "", "?"])


def person(rng):
    first, last = rng.choice(FIRST), rng.choice(LAST)
    return {
        "name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower().replace(chr(39), '')}@{rng.choice(DOMAINS)}",
        "age": rng.randint(18, 90),
        "active": rng.random() < 0.7,
    }


def document(rng):
    """One realistic document; which fields appear varies with the seed."""
    kind = rng.randrange(4)
    if kind == 0:  # a support ticket
        doc = {
            "id": rng.randint(1, 10**6),
            "title": sentence(rng),
            "customer": person(rng),
            "description": sentence(rng, quotes=rng.random() < 0.5),
            "tags": rng.sample(TAGS, rng.randint(1, 4)),
            "priority": rng.choice(["low", "medium", "high"]),
            "zip": f"0{rng.randint(1000, 9999)}",
            "amount": round(rng.uniform(-500, 5000), 2),
            "url": f"https://{rng.choice(DOMAINS)}/tickets/{rng.randint(1, 999)}?ref=mail&x=1",
            "resolved": None if rng.random() < 0.3 else rng.random() < 0.5,
        }
    elif kind == 1:  # a list of records
        doc = [
            {"id": i + 1, "name": person(rng)["name"], "score": round(rng.uniform(0, 100), 1),
             "notes": sentence(rng, quotes=rng.random() < 0.4)}
            for i in range(rng.randint(2, 5))
        ]
    elif kind == 2:  # a tool call with code
        doc = {
            "tool": rng.choice(["run_code", "search", "write_file"]),
            "arguments": {
                "language": rng.choice(["python", "javascript", "sql"]),
                "code": rng.choice(CODE),
                "timeout": rng.choice([30, 60, 1000, 25000]),
                "path": f"/srv/app/{rng.choice(TAGS)}/main.py",
            },
            "reason": sentence(rng, quotes=True),
        }
    else:  # nested analysis
        doc = {
            "summary": sentence(rng),
            "sentiment": rng.choice(["POSITIVE", "NEGATIVE", "NEUTRAL"]),
            "confidence": round(rng.random(), 3),
            "entities": [{"text": rng.choice(FIRST), "type": "PERSON", "span": [rng.randint(0, 50), rng.randint(51, 99)]}
                         for _ in range(rng.randint(1, 3))],
            "stats": {"words": rng.randint(10, 5000), "ratio": round(rng.uniform(0, 1), 4), "delta": -rng.randint(1, 99)},
            "sources": [f"https://{rng.choice(DOMAINS)}/a/{rng.randint(1, 99)}" for _ in range(rng.randint(0, 3))],
        }
    return doc


# ---------------------------------------------------------------------------------------------
# A serializer that yields tokens, so damage can be applied at a chosen token.
# Token: [kind, text, path] with kind in open, close, key, colon, comma, str, num, lit, ws.
# ---------------------------------------------------------------------------------------------

def tokens(value, indent, rng, depth=0, path="$"):
    out = []
    nl = (lambda d: [["ws", "\n" + " " * (indent * d), path]]) if indent else (lambda d: [])
    sp = [["ws", " ", path]] if indent or rng.random() < 0.5 else []
    if isinstance(value, dict):
        out.append(["open", "{", path])
        for i, (k, v) in enumerate(value.items()):
            if i:
                out.append(["comma", ",", path])
                if not indent:
                    out += sp
            out += nl(depth + 1)
            out.append(["key", json.dumps(k, ensure_ascii=False), f"{path}.{k}"])
            out.append(["colon", ":", path])
            out += sp if indent else [["ws", " ", path]]
            out += tokens(v, indent, rng, depth + 1, f"{path}.{k}")
        if value:
            out += nl(depth)
        out.append(["close", "}", path])
    elif isinstance(value, list):
        out.append(["open", "[", path])
        for i, v in enumerate(value):
            if i:
                out.append(["comma", ",", path])
                out += [["ws", " ", path]] if not indent else []
            out += nl(depth + 1)
            out += tokens(v, indent, rng, depth + 1, f"{path}[{i}]")
        if value:
            out += nl(depth)
        out.append(["close", "]", path])
    elif isinstance(value, str):
        out.append(["str", json.dumps(value, ensure_ascii=False), path])
    elif isinstance(value, bool) or value is None:
        out.append(["lit", json.dumps(value), path])
    else:
        out.append(["num", json.dumps(value), path])
    return out


def render(toks):
    return "".join(t[1] for t in toks)


def where(toks, pred):
    return [i for i, t in enumerate(toks) if pred(t)]


# ---------------------------------------------------------------------------------------------
# Damage classes. Each takes (doc, toks, rng) and returns (text, intended) or None when the
# document has no place for it. `intended` is the value a careful reader would return, or
# NO_INTENT when the damage has no single intended reading (truncation, random edits).
# ---------------------------------------------------------------------------------------------

NO_INTENT = object()


def with_string(doc, rng, make):
    """Sets a new string field (or array item) made by `make`, returns the new doc."""
    if isinstance(doc, dict):
        doc = dict(doc)
        doc[rng.choice(["note", "comment", "detail", "text"])] = make()
        # move it to a random position so it is not always last
        items = list(doc.items())
        last = items.pop()
        items.insert(rng.randrange(len(items) + 1), last)
        return dict(items)
    doc = [dict(d) for d in doc]
    doc[rng.randrange(len(doc))]["notes"] = make()
    return doc


def d_missing_closing_quote(doc, toks, rng):
    idx = where(toks, lambda t: t[0] == "str")
    # prefer a string followed by more members: that is where the damage costs something
    inner = [i for i in idx if any(t[0] in ("key", "str", "num", "lit", "open") for t in toks[i + 1:])]
    if not inner:
        return None
    i = rng.choice(inner)
    toks[i][1] = toks[i][1][:-1]
    return render(toks), doc


def d_unescaped_inner_quotes(doc, toks, rng):
    doc = with_string(doc, rng, lambda: f'{rng.choice(["He said", "Labelled", "Marked as", "Called"])} "{rng.choice(WORDS)}" {rng.choice(["today", "by the team", "twice", "in the docs"])}')
    toks = tokens(doc, rng.choice([0, 2]), rng)
    cands = where(toks, lambda t: t[0] == "str" and '\\"' in t[1])
    i = rng.choice(cands)
    toks[i][1] = '"' + toks[i][1][1:-1].replace('\\"', '"') + '"'
    return render(toks), doc


def d_missing_comma(doc, toks, rng):
    idx = where(toks, lambda t: t[0] == "comma")
    if not idx:
        return None
    i = rng.choice(idx)
    toks[i][1] = "" if toks[i + 1][0] == "ws" else " "
    return render(toks), doc


def d_mismatched_closer(doc, toks, rng):
    idx = where(toks, lambda t: t[0] == "close")
    i = rng.choice(idx)
    toks[i][1] = "]" if toks[i][1] == "}" else "}"
    return render(toks), doc


def d_stray_closer(doc, toks, rng):
    # an extra closer right after a value that is followed by more members
    idx = [i for i, t in enumerate(toks) if t[0] in ("str", "num", "lit", "close")
           and any(u[0] == "comma" for u in toks[i + 1:i + 3])]
    if not idx:
        return None
    i = rng.choice(idx)
    toks[i][1] += rng.choice(["}", "]", "}}", "]}"])
    return render(toks), doc


def d_missing_brace_between_objects(doc, toks, rng):
    # `[{..}, {..}]` -> `[{..{..}]` (drop `},`) or `[{..}, ..}]` (drop the second `{`)
    pairs = [i for i in range(len(toks) - 3)
             if toks[i][0] == "close" and toks[i][1] == "}" and toks[i + 1][0] == "comma"
             and any(t[0] == "open" and t[1] == "{" for t in toks[i + 2:i + 4])]
    if not pairs:
        return None
    i = rng.choice(pairs)
    if rng.random() < 0.5:
        toks[i][1] = ""
        toks[i + 1][1] = ""
    else:
        j = next(k for k in range(i + 2, i + 4) if toks[k][0] == "open")
        toks[j][1] = ""
    return render(toks), doc


COMMENTS = ["// keep ] out of this\n", "// see items[0] and {id}\n", "/* closes } and ] here */ ",
            "# note: values in [brackets] are optional\n", "// TODO: fix }}\n", "/* {\"fake\": 1} */ "]


def d_comment_with_brackets(doc, toks, rng):
    idx = where(toks, lambda t: t[0] in ("comma", "open"))
    i = rng.choice(idx)
    toks[i][1] += " " + rng.choice(COMMENTS)
    return render(toks), doc


STRAYS = ["NOTE ", "and ", "...\n", "Also: ", "(see above) ", "etc. "]


def d_stray_words(doc, toks, rng):
    idx = [i for i, t in enumerate(toks) if t[0] == "key" and i > 1]
    if not idx:
        return None
    i = rng.choice(idx)
    toks[i][1] = rng.choice(STRAYS) + toks[i][1]
    return render(toks), doc


def d_python_tuple(doc, toks, rng):
    arrays = [i for i, t in enumerate(toks) if t[0] == "open" and t[1] == "["
              and toks[i + 1][0] in ("str", "num", "ws") and i > 0]
    if not arrays:
        return None
    i = rng.choice(arrays)
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][0] == "open":
            depth += 1
        elif toks[j][0] == "close":
            depth -= 1
            if depth == 0:
                break
    if any(toks[k][0] == "open" for k in range(i + 1, j)):
        return None
    toks[i][1], toks[j][1] = "(", ")"
    if not any(toks[k][0] == "comma" for k in range(i + 1, j)):
        toks[j][1] = ",)"  # `(x)` is x in Python; a one-item tuple is `(x,)`
    return render(toks), doc


def d_python_set(doc, toks, rng):
    arrays = [i for i, t in enumerate(toks) if t[0] == "open" and t[1] == "["]
    for i in rng.sample(arrays, len(arrays)):
        j = i + 1
        while toks[j][0] != "close":
            if toks[j][0] == "open":
                break
            j += 1
        if toks[j][0] != "close" or j == i + 1:
            continue
        items = [toks[k] for k in range(i + 1, j) if toks[k][0] == "str"]
        if not items or len({t[1] for t in items}) != len(items):
            continue
        toks[i][1], toks[j][1] = "{", "}"
        for t in items:
            t[1] = "'" + json.loads(t[1]).replace("'", "\\'") + "'"
        return render(toks), doc
    return None


def d_triple_quotes(doc, toks, rng):
    body = "\n".join(sentence(rng) for _ in range(rng.randint(2, 4)))
    doc = with_string(doc, rng, lambda: body)
    toks = tokens(doc, 2, rng)
    i = next(k for k, t in enumerate(toks) if t[0] == "str" and json.loads(t[1]) == body)
    toks[i][1] = '"""' + body + '"""'
    return render(toks), doc


def d_underscore_numbers(doc, toks, rng):
    idx = where(toks, lambda t: t[0] == "num" and t[1].lstrip("-").isdigit() and abs(int(t[1])) >= 1000)
    if not idx:
        return None
    for i in idx:
        n = int(toks[i][1])
        toks[i][1] = f"{n:_}"
    return render(toks), doc


def d_leading_zeros(doc, toks, rng):
    idx = where(toks, lambda t: t[0] == "str" and len(t[1]) > 3 and t[1][1] == "0" and t[1][1:-1].isdigit())
    if not idx:
        doc = with_string(doc, rng, lambda: f"0{rng.randint(100, 9999)}")
        toks = tokens(doc, rng.choice([0, 2]), rng)
        idx = where(toks, lambda t: t[0] == "str" and len(t[1]) > 3 and t[1][1] == "0" and t[1][1:-1].isdigit())
    i = rng.choice(idx)
    toks[i][1] = toks[i][1][1:-1]
    return render(toks), doc


def d_fenced_code_in_string(doc, toks, rng):
    lang = rng.choice(["python", "json", "js", ""])
    body = f"Here is the fix:\n```{lang}\n{rng.choice(CODE)}\n```\nRun it twice."
    doc = with_string(doc, rng, lambda: body)
    toks = tokens(doc, rng.choice([0, 2]), rng)
    i = next(k for k, t in enumerate(toks) if t[0] == "str" and json.loads(t[1]) == body)
    toks[i][1] = toks[i][1].replace("\\n", "\n")  # raw newlines, as models write them
    return render(toks), doc


USPACES = ["\u2000", "\u2003", "\u2009", "\u200b", "\u3000", "\u180e", "\ufeff", "\u00a0"]


def d_unicode_spaces(doc, toks, rng):
    idx = where(toks, lambda t: t[0] == "ws")
    if not idx:
        idx = where(toks, lambda t: t[0] in ("colon", "comma"))
        for i in rng.sample(idx, min(len(idx), 3)):
            toks[i][1] += rng.choice(USPACES)
        return render(toks), doc
    for i in rng.sample(idx, min(len(idx), rng.randint(1, 4))):
        toks[i][1] = toks[i][1].replace(" ", rng.choice(USPACES), 1) if " " in toks[i][1] else toks[i][1] + rng.choice(USPACES)
    return render(toks), doc


def d_truncation(doc, toks, rng):
    text = render(toks)
    return text[: rng.randrange(1, len(text))], NO_INTENT


def random_edit(op):
    def damage(doc, toks, rng):
        text = render(toks)
        i = rng.randrange(len(text))
        if op == "delete":
            out = text[:i] + text[i + 1:]
        elif op == "insert":
            out = text[:i] + rng.choice(string.printable[:94] + " \n") + text[i:]
        else:
            out = text[:i] + text[i] + text[i:]
        try:  # still valid JSON: then its value is what is intended
            return out, json.loads(out)
        except ValueError:
            return out, NO_INTENT
    return damage


CLASSES = {
    "missing_closing_quote": d_missing_closing_quote,
    "unescaped_inner_quotes": d_unescaped_inner_quotes,
    "missing_comma": d_missing_comma,
    "mismatched_closer": d_mismatched_closer,
    "stray_closer": d_stray_closer,
    "missing_brace_between_objects": d_missing_brace_between_objects,
    "comment_with_brackets": d_comment_with_brackets,
    "stray_words": d_stray_words,
    "python_tuple": d_python_tuple,
    "python_set": d_python_set,
    "triple_quotes": d_triple_quotes,
    "underscore_numbers": d_underscore_numbers,
    "leading_zeros": d_leading_zeros,
    "fenced_code_in_string": d_fenced_code_in_string,
    "unicode_spaces": d_unicode_spaces,
    "truncation": d_truncation,
    "random_delete": random_edit("delete"),
    "random_insert": random_edit("insert"),
    "random_duplicate": random_edit("duplicate"),
}


def generate(seed, per_class, only=None):
    rng = random.Random(seed)
    cases = []
    for name, damage in CLASSES.items():
        if only and name not in only:
            continue
        made, tries = 0, 0
        while made < per_class and tries < per_class * 20:
            tries += 1
            doc = document(rng)
            toks = tokens(doc, rng.choice([0, 2]), rng)
            out = damage(doc, toks, rng)
            if out is None:
                continue
            text, intended = out
            cases.append({"id": len(cases), "class": name, "input": text,
                          "intended": None if intended is NO_INTENT else intended,
                          "has_intent": intended is not NO_INTENT})
            made += 1
    return cases


# ---------------------------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------------------------

PY_RUNNER = r'''
import json, sys
from json_repair import repair_json
texts = json.load(open(sys.argv[1], encoding="utf-8"))
out = []
for t in texts:
    try:
        v = repair_json(t, return_objects=True)
        out.append({"error": "nothing"} if v == "" else {"value": v})
    except Exception as e:
        out.append({"error": repr(e)[:200]})
json.dump(out, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
'''

JS_RUNNER = r'''
const fs = require('fs')
const { jsonrepair } = require('jsonrepair')
const texts = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const out = texts.map((t) => {
  try { return { value: JSON.parse(jsonrepair(t)) } } catch (e) { return { error: String(e.message).slice(0, 200) } }
})
fs.writeFileSync(process.argv[3], JSON.stringify(out))
'''


def run(cmd, **kw):
    print("+", " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, check=True, **kw)


def setup_peers(scratch):
    os.makedirs(scratch, exist_ok=True)
    venv = os.path.join(scratch, "venv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        run([sys.executable, "-m", "venv", venv])
        run([py, "-m", "pip", "install", "-q", "json-repair"])
    if not os.path.exists(os.path.join(scratch, "node_modules", "jsonrepair")):
        run(["npm", "install", "--silent", "--prefix", scratch, "jsonrepair"])
    with open(os.path.join(scratch, "run_py.py"), "w") as f:
        f.write(PY_RUNNER)
    with open(os.path.join(scratch, "run_js.cjs"), "w") as f:
        f.write(JS_RUNNER)
    versions = {
        "json_repair": subprocess.run([py, "-c", "import importlib.metadata as m; print(m.version('json-repair'))"],
                                      capture_output=True, text=True).stdout.strip(),
        "jsonrepair": json.load(open(os.path.join(scratch, "node_modules", "jsonrepair", "package.json")))["version"],
    }
    return py, versions


def build_ours():
    run(["cargo", "build", "--release", "-q", "-p", "llm-extract-cli"], cwd=REPO)
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(REPO, "target")
    return os.path.join(target, "release", "llm-extract")


def read_ours(binary, texts):
    """One reading per text through `llm-extract repair --jsonl`: output line N answers input
    line N, a value or an empty line when there is none (its reason on stderr as
    `llm-extract: input line N: <reason>`)."""
    stdin = "".join(json.dumps(t) + "\n" for t in texts)
    proc = subprocess.run([binary, "repair", "--jsonl"], input=stdin, capture_output=True, text=True)
    # Only "\n" ends a line: values may hold U+2028 and the other breaks str.splitlines knows.
    lines = proc.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) != len(texts):
        sys.exit(f"our binary answered {len(lines)} lines for {len(texts)} inputs (exit {proc.returncode}): {proc.stderr[:500]}")
    reasons = {}
    for err in proc.stderr.split("\n"):
        m = re.match(r"llm-extract: input line (\d+): (.*)", err)
        if m:
            reasons[int(m.group(1))] = m.group(2)
    out = []
    for n, line in enumerate(lines, start=1):
        if line == "":
            out.append({"error": reasons.get(n, "no value")})
        else:
            out.append({"value": json.loads(line)})
    return out


def read_peer(cmd, scratch, texts, name):
    src = os.path.join(scratch, f"in_{name}.json")
    dst = os.path.join(scratch, f"out_{name}.json")
    json.dump(texts, open(src, "w", encoding="utf-8"), ensure_ascii=False)
    subprocess.run(cmd + [src, dst], check=True, cwd=scratch)
    return json.load(open(dst, encoding="utf-8"))


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------

def same(a, b):
    """Same JSON value (1 == 1.0, as JSON means it); errors are equal to each other."""
    if "error" in a or "error" in b:
        return "error" in a and "error" in b
    return norm(a["value"]) == norm(b["value"])


def norm(v):
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


def show(r):
    return ("error: " + r["error"]) if "error" in r else json.dumps(r["value"], ensure_ascii=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--per-class", type=int, default=500, help="damaged documents per class")
    ap.add_argument("--bin", help="an llm-extract binary to test (default: build this checkout)")
    ap.add_argument("--scratch", default="/tmp/llm-extract-differential", help="where the peers are installed")
    ap.add_argument("--out", default=None, help="report folder (default: SCRATCH/report)")
    ap.add_argument("--examples", type=int, default=15, help="examples kept per class")
    ap.add_argument("--only", nargs="*", help="damage classes to run (default: all)")
    args = ap.parse_args()
    out_dir = args.out or os.path.join(args.scratch, "report")
    os.makedirs(out_dir, exist_ok=True)

    started = time.time()
    py, versions = setup_peers(args.scratch)
    binary = args.bin or build_ours()
    cases = generate(args.seed, args.per_class, set(args.only) if args.only else None)
    texts = [c["input"] for c in cases]
    print(f"{len(cases)} cases in {len(set(c['class'] for c in cases))} classes", file=sys.stderr)
    ours = read_ours(binary, texts)
    pys = read_peer([py, os.path.join(args.scratch, "run_py.py")], args.scratch, texts, "py")
    jss = read_peer(["node", os.path.join(args.scratch, "run_js.cjs")], args.scratch, texts, "js")

    stats = collections.OrderedDict()
    examples = collections.defaultdict(list)
    rows = []
    for c, o, p, j in zip(cases, ours, pys, jss):
        s = stats.setdefault(c["class"], collections.Counter())
        s["n"] += 1
        if c["has_intent"]:
            s["with_intent"] += 1
            want = {"value": c["intended"]}
            s["ours_ok"] += same(o, want)
            s["py_ok"] += same(p, want)
            s["js_ok"] += same(j, want)
        s["ours_err"] += "error" in o
        lone = not same(o, p) and not same(o, j)
        s["vs_both"] += lone
        s["vs_both_peers_agree"] += lone and same(p, j)
        if c["has_intent"] and not same(o, {"value": c["intended"]}) and same(p, {"value": c["intended"]}) and same(j, {"value": c["intended"]}):
            s["only_we_miss"] += 1
        row = {"class": c["class"], "input": c["input"], "intended": c["intended"] if c["has_intent"] else "(none)",
               "json_repair": show(p), "jsonrepair": show(j), "ours": show(o)}
        rows.append(row)
        if lone and len(examples[c["class"]]) < args.examples:
            examples[c["class"]].append(row)

    def pct(a, b):
        return f"{100.0 * a / b:5.1f}%" if b else "    -"

    lines = [f"# Differential run: seed {args.seed}, {len(cases)} cases, json_repair {versions['json_repair']}, "
             f"jsonrepair {versions['jsonrepair']}, ours {binary}", "",
             "Intended: share of cases with an intended value that each reader returns exactly. "
             "vs both: we differ from both peers (of which: the two peers agree with each other). "
             "only we miss: both peers read the intended value, we do not.", "",
             "| class | n | with intent | ours | json_repair | jsonrepair | ours: error | vs both (peers agree) | only we miss |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    total = collections.Counter()
    for name, s in stats.items():
        total.update(s)
        w = s["with_intent"]
        lines.append(f"| {name} | {s['n']} | {w} | {pct(s['ours_ok'], w)} | {pct(s['py_ok'], w)} | {pct(s['js_ok'], w)} | "
                     f"{s['ours_err']} | {s['vs_both']} ({s['vs_both_peers_agree']}) | {s['only_we_miss']} |")
    w = total["with_intent"]
    lines.append(f"| **all** | {total['n']} | {w} | {pct(total['ours_ok'], w)} | {pct(total['py_ok'], w)} | "
                 f"{pct(total['js_ok'], w)} | {total['ours_err']} | {total['vs_both']} ({total['vs_both_peers_agree']}) | "
                 f"{total['only_we_miss']} |")
    lines.append("")
    lines.append(f"Took {time.time() - started:.0f} s. Examples: {os.path.join(out_dir, 'disagreements.md')}; "
                 f"every case: {os.path.join(out_dir, 'cases.jsonl')}")
    summary = "\n".join(lines)
    open(os.path.join(out_dir, "summary.md"), "w").write(summary + "\n")
    with open(os.path.join(out_dir, "cases.jsonl"), "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(os.path.join(out_dir, "disagreements.md"), "w", encoding="utf-8") as f:
        f.write("# Where we differ from both peers, by class\n")
        for name in stats:
            f.write(f"\n## {name}\n")
            for row in examples[name]:
                f.write("\n```text\n" + row["input"] + "\n```\n")
                for key in ("intended", "json_repair", "jsonrepair", "ours"):
                    val = row[key] if isinstance(row[key], str) else json.dumps(row[key], ensure_ascii=False)
                    f.write(f"- {key}: `{textwrap.shorten(val, 400)}`\n")
    print(summary)


if __name__ == "__main__":
    main()
