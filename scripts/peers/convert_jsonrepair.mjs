#!/usr/bin/env node
// Convert the published test suite of JS jsonrepair (src/index.test.ts, vitest) into
// tests/fixtures/peers/jsonrepair.json.
//
// We do not run jsonrepair: the test file is executed with stand-ins for `describe`, `test`,
// `expect` and `jsonrepair` that record (input, expected) at every `expect(jsonrepair(x)).toBe(y)`
// (and `toEqual`, and `toThrow` as an expected failure). TypeScript annotations are stripped
// line by line, so the recorded line numbers are the upstream file's.
//
// Usage: node convert_jsonrepair.mjs PATH/TO/index.test.ts [OUT_JSON]
import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const src = process.argv[2]
if (!src) {
  console.error('usage: convert_jsonrepair.mjs PATH/TO/index.test.ts [OUT_JSON]')
  process.exit(2)
}
const out = process.argv[3] ?? path.join(here, '..', '..', 'tests', 'fixtures', 'peers', 'jsonrepair.json')
const FILE = 'src/index.test.ts'

const js = fs
  .readFileSync(src, 'utf8')
  .split('\n')
  .map((line) =>
    line.startsWith('import ')
      ? ''
      : line
          .replace(/\): \(input: string\) => string \{/, ') {')
          .replace(/\(text: string\): string \{/, '(text) {')
          .replace(/\(text: string\)/, '(text)')
          // only the regular implementation: the streaming one must give the same answers
          .replace("{ name: 'streaming', jsonrepair: createStreamingRepairWrapper() }", '')
  )
  .join('\n')

const cases = []
let last = null

function callerLine() {
  const frames = new Error().stack.split('\n').slice(1)
  for (const frame of frames) {
    if (!frame.includes(FILE) || frame.includes('assertRepair')) continue
    const m = frame.match(/:(\d+):\d+\)?$/)
    if (m) return Number(m[1])
  }
  return 0
}

function jsonrepair(text) {
  last = { input: text, line: callerLine() }
  return last
}

function recordValue(rec, expectedText) {
  if (!rec || typeof rec !== 'object' || !('input' in rec)) return
  let isJson = true
  try {
    JSON.parse(expectedText)
  } catch {
    isJson = false
  }
  cases.push({ input: rec.input, expectedText, isJson, line: rec.line })
}

function expect(actual) {
  return {
    toBe: (expected) => recordValue(actual, expected),
    toEqual: (expected) => recordValue(actual, expected),
    toThrow: () => {
      last = null
      try {
        actual()
      } catch {}
      if (last) cases.push({ input: last.input, error: true, line: last.line })
    }
  }
}

function describe(_name, fn) {
  fn()
}
describe.each = (impls) => (_name, fn) => fn({ jsonrepair })
function test(_name, fn) {
  fn()
}
class JSONRepairError extends Error {}

vm.runInNewContext(
  js,
  { describe, test, expect, JSONRepairError, console: { log: () => {} }, jsonRepairRegular: jsonrepair },
  { filename: FILE }
)

// `expected` is spliced in as the upstream JSON text, so numbers keep their spelling (2e0, 2.0).
const rows = cases.map((c) => {
  const head = `{"input": ${JSON.stringify(c.input)}, `
  const tail = `"source": ${JSON.stringify(`${FILE}:${c.line}`)}}`
  if (c.error) return head + `"expected": null, "expected_is_json": false, "expected_error": true, ` + tail
  if (c.isJson) return head + `"expected": ${c.expectedText.trim()}, "expected_is_json": true, ` + tail
  return head + `"expected": ${JSON.stringify(c.expectedText)}, "expected_is_json": false, ` + tail
})
fs.writeFileSync(out, '[\n' + rows.map((r) => ' ' + r.replace(/\n/g, ' ')).join(',\n') + '\n]\n')
console.error(`${cases.length} cases written to ${out}`)
