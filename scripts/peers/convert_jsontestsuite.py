#!/usr/bin/env python3
"""Convert JSONTestSuite's parsing cases (nst/JSONTestSuite, test_parsing/*.json) into
tests/fixtures/peers/jsontestsuite.json, read by tests/tests/peer_suites.rs.

Usage: python3 convert_jsontestsuite.py PATH/TO/JSONTestSuite/test_parsing [OUT_JSON]

Each file becomes {"name": file name, "input": its text, "utf8": whether its bytes are UTF-8}.
The library reads `&str`: bytes that are not UTF-8 are replaced by U+FFFD here, as the command
line replaces them. Files over 10 KB are left out (the two nesting cases of 100,000 levels,
which tests/tests/deep_input.rs covers).
"""
import json
import os
import sys

src = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, '..', '..', 'tests', 'fixtures', 'peers', 'jsontestsuite.json')
cases = []
for name in sorted(os.listdir(src)):
    if not name.endswith('.json'):
        continue
    data = open(os.path.join(src, name), 'rb').read()
    if len(data) > 10_000:
        continue
    try:
        text, utf8 = data.decode('utf-8'), True
    except UnicodeDecodeError:
        text, utf8 = data.decode('utf-8', errors='replace'), False
    cases.append({'name': name, 'input': text, 'utf8': utf8})
with open(out, 'w', encoding='utf-8') as f:
    f.write('[\n' + ',\n'.join(' ' + json.dumps(c, ensure_ascii=True) for c in cases) + '\n]\n')
print(f'{len(cases)} cases written to {out}', file=sys.stderr)
