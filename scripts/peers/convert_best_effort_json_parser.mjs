#!/usr/bin/env node
// Convert the test suite of best-effort-json-parser (src/parse.spec.ts, mocha + chai), which
// reads incomplete JSON "in best-effort manner", into
// tests/fixtures/peers/best_effort_json_parser.json.
//
// We do not run the parser: the spec's few type annotations are stripped (line by line, so the
// recorded line numbers are the upstream file's) and it is executed with stand-ins for `describe`, `context`, `it`, `sinon`,
// `expect` and `parse` that record (input, expected) at every `expect(parse(x)).equals(y)` and
// `.deep.equals(y)`, and an expected error at every `expect(() => parse(x)).to.throws()`.
// `undefined`, the peer's value for a key the cut left without one (`{"a":` is
// `{ a: undefined }`), is recorded as `null`, JSON's value for it, and the case is marked
// `"undefined_as_null": true`. Calls with no text (`parse(undefined)`, `parse(null)`) and the
// loop over `parse.lastParseReminding` (several fenced blocks, read one after the other) yield
// no case.
//
// Usage: node convert_best_effort_json_parser.mjs PATH/TO/src/parse.spec.ts [OUT_JSON]
import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const src = process.argv[2]
if (!src) {
  console.error('usage: convert_best_effort_json_parser.mjs PATH/TO/src/parse.spec.ts [OUT_JSON]')
  process.exit(2)
}
const out =
  process.argv[3] ??
  path.join(here, '..', '..', 'tests', 'fixtures', 'peers', 'best_effort_json_parser.json')
const FILE = 'parse.spec.ts'

const source = fs.readFileSync(src, 'utf8')
// The spec's TypeScript: `let x: T`, `function f(a: T, b: U)`, `x!`. Anything else is a change
// upstream that this script must learn, so the stripped text must run as JavaScript.
const js = source
  .split('\n')
  .map((line) => (line.startsWith('import ') ? '' : line))
  .join('\n')
  .replace(/^(\s*let \w+)(: [^=\n]+)/gm, '$1')
  .replace(/\((\w+): \w+, (\w+): \w+\)/g, '($1, $2)')
  .replace(/(\w)!\)/g, '$1)')

function callerLine() {
  for (const frame of new Error().stack.split('\n').slice(1)) {
    if (!frame.includes(FILE)) continue
    const m = frame.match(/:(\d+):\d+\)?$/)
    if (m) return Number(m[1])
  }
  return 0
}

class Recorded {
  constructor(input, line) {
    this.input = input
    this.line = line
  }
}

const parse = (text) => new Recorded(text, callerLine())
const cases = []

// JSON text of `value`, `undefined` written as `null`; whether there was one.
function toJson(value) {
  let replaced = false
  const text = JSON.stringify(value, (_key, v) => {
    if (v === undefined) {
      replaced = true
      return null
    }
    return v
  })
  return { text, replaced }
}

function record(actual, expected) {
  if (!(actual instanceof Recorded) || typeof actual.input !== 'string') return
  const { text, replaced } = toJson(expected)
  cases.push({ input: actual.input, text, replaced, line: actual.line })
}

// A chain that accepts any chai wording; `equals`/`equal` record, `throws`/`throw` record an
// expected error for a function that calls `parse`.
function expect(actual) {
  const chain = new Proxy(function () {}, {
    get(_target, name) {
      if (name === 'equals' || name === 'equal' || name === 'eql') {
        return (expected) => record(actual, expected)
      }
      if (name === 'throws' || name === 'throw') {
        return () => {
          const called = actual()
          if (called instanceof Recorded) {
            cases.push({ input: called.input, error: true, line: called.line })
          }
        }
      }
      return chain
    },
    apply() {
      return chain
    },
  })
  return chain
}

const noop = () => {}
const describe = (_name, body) => body()
const it = (_name, body) => body()
// A spy that says it was called with an empty first argument: the spec's checks of its error
// logger and of `onExtraToken` then run on without recording anything.
const fake = () => Object.assign(() => {}, { called: true, firstCall: { firstArg: '' } })
const sinon = { fake, spy: fake, restore: noop }
vm.runInNewContext(
  js,
  {
    describe,
    context: describe,
    it,
    beforeEach: (body) => body(),
    afterEach: noop,
    sinon: { default: sinon, ...sinon },
    sinon_1: { default: sinon },
    chai_1: { expect },
    parse_1: { parse, setErrorLogger: noop },
    expect,
    parse,
    setErrorLogger: noop,
    JSON,
  },
  { filename: FILE },
)

const rows = cases.map((c) => {
  const head = `{"input": ${JSON.stringify(c.input)}, `
  const tail = `"source": ${JSON.stringify(`${FILE}:${c.line}`)}}`
  if (c.error) return head + `"expected": null, "expected_is_json": false, "expected_error": true, ` + tail
  const flag = c.replaced ? `"undefined_as_null": true, ` : ''
  return head + `"expected": ${c.text}, "expected_is_json": true, ` + flag + tail
})
const lines = source.split('\n')
for (const c of cases) {
  if (!lines[c.line - 1]?.includes('parse(')) throw new Error(`line ${c.line} calls no parse`)
}
fs.writeFileSync(out, '[\n' + rows.map((r) => ' ' + r).join(',\n') + '\n]\n')
console.error(`${cases.length} cases written to ${out}`)
