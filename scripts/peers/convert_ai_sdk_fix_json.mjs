#!/usr/bin/env node
// Convert the AI SDK's test suite of `fixJson` (packages/ai/src/util/fix-json.test.ts, vitest),
// which completes a cut-off JSON document, into tests/fixtures/peers/ai_sdk_fix_json.json.
//
// We do not run the AI SDK: the test file is executed with stand-ins for `describe`, `test`,
// `assert` and `fixJson` that record (input, expected) at every
// `assert.strictEqual(fixJson(x), y)`. The file has no TypeScript annotations, so only its
// imports are dropped and the recorded line numbers are the upstream file's.
//
// Usage: node convert_ai_sdk_fix_json.mjs PATH/TO/fix-json.test.ts [OUT_JSON]
import fs from 'node:fs'
import path from 'node:path'
import vm from 'node:vm'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const src = process.argv[2]
if (!src) {
  console.error('usage: convert_ai_sdk_fix_json.mjs PATH/TO/fix-json.test.ts [OUT_JSON]')
  process.exit(2)
}
const out =
  process.argv[3] ?? path.join(here, '..', '..', 'tests', 'fixtures', 'peers', 'ai_sdk_fix_json.json')
const FILE = 'fix-json.test.ts'

const js = fs
  .readFileSync(src, 'utf8')
  .split('\n')
  .map((line) => (line.startsWith('import ') ? '' : line))
  .join('\n')

const cases = []

function callerLine() {
  for (const frame of new Error().stack.split('\n').slice(1)) {
    if (!frame.includes(FILE)) continue
    const m = frame.match(/:(\d+):\d+\)?$/)
    if (m) return Number(m[1])
  }
  return 0
}

const fixJson = (text) => ({ input: text, line: callerLine() })

const assert = {
  strictEqual(actual, expected) {
    if (!actual || typeof actual !== 'object' || !('input' in actual)) return
    cases.push({ input: actual.input, expectedText: expected, line: actual.line })
  },
  // The suite also checks that completions parse; nothing to record.
  doesNotThrow() {}
}

const describe = (_name, body) => body()
const test = (_name, body) => body()

vm.runInNewContext(js, { describe, test, assert, fixJson, JSON }, { filename: FILE })

// `expected` is spliced in as the upstream JSON text, so numbers keep their spelling (`2.5e3` is a
// float, `12` an integer). `fixJson` answers '' when there is nothing to complete: no value.
const rows = cases.map((c) => {
  const head = `{"input": ${JSON.stringify(c.input)}, `
  const tail = `"source": ${JSON.stringify(`${FILE}:${c.line}`)}}`
  if (c.expectedText === '') return head + `"expected": "", "expected_is_json": false, ` + tail
  JSON.parse(c.expectedText)
  return head + `"expected": ${c.expectedText.trim()}, "expected_is_json": true, ` + tail
})
fs.writeFileSync(out, '[\n' + rows.map((r) => ' ' + r.replace(/\n/g, ' ')).join(',\n') + '\n]\n')
console.error(`${cases.length} cases written to ${out}`)
