// The workbench page. Every check and every evaluation is made by the server's Rust code
// (the same compile and evaluate steps as `llm-extract test`); this script only edits the
// suite's JSON and shows what the server answers.
"use strict";

const state = {
  suite: null,        // GET /api/suite
  cases: [],          // the cases being edited (the file's JSON, in order)
  current: -1,        // index of the selected case
  hash: null,         // hash of the file as loaded, for the conflict check
  dirty: false,
  undo: [],           // deleted rows of the current case: {index, assertion}
  ui: new WeakMap(),  // per-assertion editor state (JSON or text mode)
  checkTimer: null,
  checkSeq: 0,
};

const NO_EXPECTED = new Set(); // filled from the registry: matchers of arity "none"
const TEXT_OR_JSON = new Set(["toEqual", "toContain"]);
const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, "");
    else if (v !== false && v != null) node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

async function api(method, url, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = null;
  try { data = await response.json(); } catch (_) { data = { error: response.statusText }; }
  return { ok: response.ok, status: response.status, data };
}

function banner(message, kind, buttons) {
  const b = $("banner");
  b.replaceChildren();
  if (!message) { b.hidden = true; return; }
  b.hidden = false;
  b.className = kind || "";
  b.append(el("span", { id: "banner-text" }, message), " ", ...(buttons || []));
}

function setDirty(dirty) {
  state.dirty = dirty;
  $("save").disabled = !dirty || !state.suite || !!state.suite.error && state.cases.length === 0;
  $("save-status").textContent = dirty ? "unsaved changes" : "";
}

// ---- loading -------------------------------------------------------------------------

async function load(keepCase) {
  const { ok, data } = await api("GET", "/api/suite");
  if (!ok) { banner(data.error || "cannot load the suite", "error"); return; }
  state.suite = data;
  state.hash = data.hash || null;
  state.cases = data.cases.map((c) => structuredClone(c.raw));
  NO_EXPECTED.clear();
  for (const m of data.matchers) if (m.arity === "none") NO_EXPECTED.add(m.name);
  $("suite-path").textContent = `${data.path} (${data.format})`;
  if (data.error) banner(`The suite does not load: ${data.error}`, "error");
  else banner(null);
  setDirty(false);
  renderCaseList();
  const index = keepCase && state.current < state.cases.length ? state.current : 0;
  if (state.cases.length > 0) selectCase(index); else $("case").hidden = true;
}

function caseProblems(i) {
  const c = state.suite.cases[i];
  return c ? c.errors.length + c.assertionErrors.length : 0;
}

function renderCaseList() {
  const list = $("case-list");
  list.replaceChildren();
  state.cases.forEach((c, i) => {
    const name = typeof c.name === "string" ? c.name : `#${i + 1}`;
    const problems = caseProblems(i);
    list.append(el("li", {
      class: i === state.current ? "selected" : "",
      "data-index": String(i),
      onclick: () => selectCase(i),
    }, el("span", { class: "case-name" }, name),
      problems ? el("span", { class: "badge", title: "load errors" }, String(problems)) : null));
  });
}

function selectCase(i) {
  state.current = i;
  state.undo = [];
  const loaded = state.suite.cases[i];
  $("case").hidden = false;
  $("case-name").textContent = typeof state.cases[i].name === "string" ? state.cases[i].name : `#${i + 1}`;
  const errors = $("case-errors");
  errors.replaceChildren();
  for (const e of loaded.errors) errors.append(el("li", {}, e));
  for (const e of loaded.assertionErrors) errors.append(el("li", {}, `assertion ${e.label}: ${e.message}`));
  $("raw-output").textContent = loaded.output == null ? "(no output)" : loaded.output;
  $("repaired-output").textContent = loaded.repaired == null
    ? "(no JSON value found: assertions see the text as a string)"
    : JSON.stringify(loaded.repaired, null, 2);
  pathHints(loaded.keys);
  $("preview-summary").textContent = "";
  renderCaseList();
  renderRows();
  scheduleCheck(0);
}

// The path quick-pick: the paths in the last output seen, then JSONPath examples.
function pathHints(keys) {
  const hints = $("path-hints");
  hints.replaceChildren();
  for (const k of keys) hints.append(el("option", { value: k }));
  for (const k of ["$", "$.key", "$.list[*]", "$.list[0]", "$..key", "$.list[?@.key == 'x']"]) {
    if (!keys.includes(k)) hints.append(el("option", { value: k }, "JSONPath example"));
  }
}

// ---- the assertions table --------------------------------------------------------------

function assertions() {
  const c = state.cases[state.current];
  if (!Array.isArray(c.assertions)) c.assertions = [];
  return c.assertions;
}

function changed() {
  setDirty(true);
  scheduleCheck(250);
}

function renderRows() {
  const table = $("assertions");
  for (const body of [...table.tBodies]) body.remove();
  const rows = Array.isArray(state.cases[state.current].assertions) ? assertions() : [];
  const undoAt = new Map(state.undo.map((u) => [u.index, u]));
  rows.forEach((a, i) => {
    if (undoAt.has(i)) table.append(undoRow(undoAt.get(i)));
    table.append(row(a, i, rows.length));
  });
  for (const u of state.undo) if (u.index >= rows.length) table.append(undoRow(u));
}

function undoRow(u) {
  const what = `${u.assertion.path ?? ""} ${u.assertion.not ? "not " : ""}${u.assertion.matcher ?? ""}`;
  return el("tbody", { class: "undo" }, el("tr", { class: "undo" },
    el("td", { colspan: "8" }, `Deleted assertion ${what}. `,
      el("button", { type: "button", class: "undo-delete", onclick: () => {
        state.undo = state.undo.filter((x) => x !== u);
        assertions().splice(Math.min(u.index, assertions().length), 0, u.assertion);
        renderRows();
        changed();
      } }, "Undo"))));
}

function row(a, i, count) {
  const body = el("tbody", { class: "assertion", "data-index": String(i) });
  const matchers = state.suite.matchers.map((m) => m.name);
  const select = el("select", { class: "matcher", "aria-label": "matcher" });
  if (typeof a.matcher === "string" && !matchers.includes(a.matcher)) {
    select.append(el("option", { value: a.matcher }, `${a.matcher} (unknown)`));
  }
  for (const name of matchers) select.append(el("option", { value: name }, name));
  select.value = a.matcher ?? "";
  select.addEventListener("change", () => {
    a.matcher = select.value;
    if (NO_EXPECTED.has(a.matcher)) delete a.expected;
    replaceRow(body, a, i, count);
    changed();
  });
  const path = el("input", { type: "text", class: "path", list: "path-hints", value: a.path ?? "", "aria-label": "path", placeholder: "$.key" });
  path.addEventListener("input", () => { a.path = path.value; changed(); });
  const not = el("input", { type: "checkbox", class: "not", "aria-label": "not" });
  not.checked = !!a.not;
  not.addEventListener("change", () => { if (not.checked) a.not = true; else if ("not" in a) a.not = false; changed(); });
  const match = el("select", { class: "path-match", "aria-label": "ANY or ALL" },
    el("option", { value: "ANY" }, "ANY"), el("option", { value: "ALL" }, "ALL"));
  match.value = String(a.pathMatch ?? a.path_match ?? "ANY").toUpperCase() === "ALL" ? "ALL" : "ANY";
  match.addEventListener("change", () => { delete a.path_match; a.pathMatch = match.value; changed(); });
  const up = el("button", { type: "button", class: "move-up", title: "move up", disabled: i === 0 }, "↑");
  const down = el("button", { type: "button", class: "move-down", title: "move down", disabled: i === count - 1 }, "↓");
  up.addEventListener("click", () => move(i, -1));
  down.addEventListener("click", () => move(i, 1));
  const remove = el("button", { type: "button", class: "delete", title: "delete" }, "Delete");
  remove.addEventListener("click", () => {
    const list = assertions();
    list.splice(i, 1);
    state.undo = state.undo.map((u) => (u.index > i ? { ...u, index: u.index - 1 } : u));
    state.undo.push({ index: i, assertion: a });
    renderRows();
    changed();
  });
  body.append(
    el("tr", { class: "fields" },
      el("td", {}, up, down),
      el("td", {}, path),
      el("td", {}, select),
      el("td", {}, not),
      el("td", {}, match),
      el("td", { class: "expected" }, expectedEditor(a)),
      el("td", { class: "result" }),
      el("td", {}, remove)),
    el("tr", { class: "messages" }, el("td", {}), el("td", { colspan: "7" },
      el("div", { class: "row-errors" }), el("div", { class: "result-message" }))));
  return body;
}

function replaceRow(body, a, i, count) {
  const fresh = row(a, i, count);
  body.replaceWith(fresh);
}

function move(i, by) {
  const list = assertions();
  const j = i + by;
  if (j < 0 || j >= list.length) return;
  [list[i], list[j]] = [list[j], list[i]];
  state.undo = [];
  renderRows();
  changed();
}

// ---- the expected-value editor, by matcher ------------------------------------------------

function splitPattern(expected) {
  if (expected && typeof expected === "object" && !Array.isArray(expected)) {
    return { source: String(expected.source ?? ""), flags: String(expected.flags ?? "") };
  }
  const text = typeof expected === "string" ? expected : "";
  const last = text.lastIndexOf("/");
  if (text.startsWith("/") && last > 0) return { source: text.slice(1, last), flags: text.slice(last + 1) };
  return { source: text, flags: "" };
}

function asText(value) {
  return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
}

// Text typed as JSON: the JSON value when it parses, else the text as a string.
function fromText(text) {
  try { return JSON.parse(text); } catch (_) { return text; }
}

function expectedEditor(a) {
  const box = el("div", { class: "expected-editor" });
  const m = a.matcher;
  if (NO_EXPECTED.has(m)) {
    box.append(el("span", { class: "muted" }, "no expected value"));
    return box;
  }
  if (m === "toMatch") {
    const { source, flags } = splitPattern(a.expected);
    const pattern = el("input", { type: "text", class: "pattern", value: source, placeholder: "pattern", "aria-label": "pattern" });
    const flagBox = el("input", { type: "text", class: "flags", value: flags, placeholder: "flags", "aria-label": "flags" });
    const ci = el("input", { type: "checkbox", class: "ci" });
    ci.checked = flags.includes("i");
    const write = () => { a.expected = `/${pattern.value}/${flagBox.value}`; changed(); };
    pattern.addEventListener("input", write);
    flagBox.addEventListener("input", () => { ci.checked = flagBox.value.includes("i"); write(); });
    ci.addEventListener("change", () => {
      flagBox.value = ci.checked ? flagBox.value + "i" : flagBox.value.replaceAll("i", "");
      write();
    });
    box.append("/", pattern, "/", flagBox, el("label", {}, ci, " case-insensitive"));
    return box;
  }
  if (m === "toBeOneOf") {
    const items = Array.isArray(a.expected) ? a.expected : [];
    if (!Array.isArray(a.expected)) a.expected = items;
    const list = el("div", { class: "list" });
    const redraw = () => {
      list.replaceChildren();
      items.forEach((item, k) => {
        const input = el("input", { type: "text", class: "item", value: asText(item), "aria-label": `option ${k + 1}` });
        input.addEventListener("input", () => { items[k] = fromText(input.value); changed(); });
        const drop = el("button", { type: "button", class: "remove-item", title: "remove" }, "×");
        drop.addEventListener("click", () => { items.splice(k, 1); redraw(); changed(); });
        list.append(el("span", { class: "list-item" }, input, drop));
      });
      const add = el("button", { type: "button", class: "add-item" }, "+ option");
      add.addEventListener("click", () => { items.push(""); redraw(); changed(); list.querySelector("input.item:last-of-type")?.focus(); });
      list.append(add);
    };
    redraw();
    box.append(list);
    return box;
  }
  if (TEXT_OR_JSON.has(m)) {
    const ui = state.ui.get(a) || {};
    let needle = a.expected;
    let insensitive = false;
    if (m === "toContain" && needle && typeof needle === "object" && !Array.isArray(needle) && "value" in needle) {
      insensitive = !!needle.caseInsensitive;
      needle = needle.value;
    }
    const mode = ui.mode || (typeof needle === "string" ? "text" : "json");
    const toggle = el("select", { class: "mode", "aria-label": "expected as" },
      el("option", { value: "json" }, "JSON"), el("option", { value: "text" }, "text"));
    toggle.value = mode;
    const input = el("input", { type: "text", class: "value", value: mode === "text" ? asText(needle) : needle === undefined ? "" : JSON.stringify(needle), "aria-label": "expected" });
    const ci = el("input", { type: "checkbox", class: "ci" });
    ci.checked = insensitive;
    const local = el("span", { class: "row-error local" });
    const write = () => {
      local.textContent = "";
      let value;
      if (toggle.value === "text") value = input.value;
      else {
        try { value = JSON.parse(input.value); } catch (e) { local.textContent = "not valid JSON (switch to text?)"; return; }
      }
      a.expected = m === "toContain" && ci.checked && typeof value === "string"
        ? { value, caseInsensitive: true } : value;
      changed();
    };
    input.addEventListener("input", write);
    toggle.addEventListener("change", () => { state.ui.set(a, { mode: toggle.value }); write(); });
    ci.addEventListener("change", write);
    box.append(toggle, input);
    if (m === "toContain") box.append(el("label", {}, ci, " case-insensitive"));
    box.append(local);
    return box;
  }
  // Numbers, lengths, types, schemas: a JSON value.
  const input = el("input", { type: "text", class: "value", value: a.expected === undefined ? "" : JSON.stringify(a.expected), placeholder: "JSON", "aria-label": "expected" });
  const local = el("span", { class: "row-error local" });
  input.addEventListener("input", () => {
    local.textContent = "";
    try { a.expected = JSON.parse(input.value); changed(); } catch (_) { local.textContent = "not valid JSON"; }
  });
  box.append(input, local);
  return box;
}

// ---- checks, preview, save --------------------------------------------------------------

function scheduleCheck(delay) {
  clearTimeout(state.checkTimer);
  state.checkTimer = setTimeout(check, delay);
}

function rowBodies() {
  return [...$("assertions").tBodies].filter((b) => b.classList.contains("assertion"));
}

function showRowErrors(rows) {
  rowBodies().forEach((body, i) => {
    const box = body.querySelector(".row-errors");
    box.replaceChildren();
    for (const e of (rows[i] || { errors: [] }).errors) {
      box.append(el("div", { class: "row-error" }, e.field ? `${e.field}: ${e.message}` : e.message));
    }
  });
}

async function check() {
  if (state.current < 0) return;
  // Only the answer to the latest check is shown: an older one may arrive after it.
  const seq = ++state.checkSeq;
  const { ok, data } = await api("POST", "/api/check", { assertions: assertions() });
  if (seq !== state.checkSeq) return;
  if (ok) showRowErrors(data.rows);
  else banner(data.error, "error");
}

async function preview() {
  const sample = $("sample").value;
  const body = { assertions: assertions() };
  if (sample.trim() !== "") body.output = sample; else body.case = state.current;
  const { ok, data } = await api("POST", "/api/preview", body);
  if (!ok) { $("preview-summary").textContent = data.error; return; }
  showRowErrors(data.rows);
  pathHints(data.keys);
  const counts = { pass: 0, fail: 0, error: 0 };
  rowBodies().forEach((b, i) => {
    const r = data.results[i];
    const cell = b.querySelector("td.result");
    const message = b.querySelector(".result-message");
    cell.replaceChildren();
    message.textContent = "";
    if (!r) return;
    counts[r.outcome] += 1;
    cell.append(el("span", { class: `chip ${r.outcome}` }, r.outcome.toUpperCase()));
    if (r.message) message.textContent = r.message;
  });
  $("preview-summary").textContent =
    `${counts.pass} passed, ${counts.fail} failed, ${counts.error} errors` + (sample.trim() ? " (pasted sample)" : "");
}

async function save(force) {
  const { ok, status, data } = await api("POST", "/api/save", { hash: state.hash || "", cases: state.cases, force: !!force });
  if (ok) {
    state.hash = data.hash;
    setDirty(false);
    $("save-status").textContent = "saved";
    banner(null);
    const edited = state.cases;
    await load(true);
    // The file now holds exactly what was edited; keep the page's objects (and editor modes).
    if (JSON.stringify(edited) === JSON.stringify(state.cases)) { state.cases = edited; renderRows(); scheduleCheck(0); }
    $("save-status").textContent = "saved";
    return;
  }
  if (status === 409) {
    banner(data.error, "",
      [el("button", { id: "overwrite", type: "button", onclick: () => save(true) }, "Overwrite"), " ",
       el("button", { id: "reload", type: "button", onclick: () => load(false) }, "Reload (drop my changes)")]);
  } else {
    banner(data.error || `save failed (${status})`, "error");
  }
}

// ---- history ---------------------------------------------------------------------------

async function showHistory() {
  const { ok, data } = await api("GET", "/api/runs");
  if (!ok) { banner(data.error, "error"); return; }
  $("db-path").textContent = data.db;
  const body = $("runs").tBodies[0];
  body.replaceChildren();
  $("no-runs").hidden = data.runs.length > 0;
  const runs = data.runs;
  runs.forEach((r, k) => {
    const a = el("input", { type: "radio", name: "run-a", value: String(r.id), checked: k === runs.length - 2 });
    const b = el("input", { type: "radio", name: "run-b", value: String(r.id), checked: k === runs.length - 1 });
    const rate = el("span", { class: "rate" }, el("span", { style: `width:${r.passRate.toFixed(1)}%` }));
    body.append(el("tr", { class: "run", "data-id": String(r.id) },
      el("td", {}, a), el("td", {}, b), el("td", {}, `#${r.id}`), el("td", {}, r.startedAt),
      el("td", { class: "pass-rate" }, rate, `${r.passRate.toFixed(1)}%`),
      el("td", {}, String(r.passed)), el("td", {}, String(r.failed)), el("td", {}, String(r.errors))));
  });
  $("diff").replaceChildren();
  if (runs.length >= 2) await showDiff();
}

async function showDiff() {
  const a = document.querySelector("input[name=run-a]:checked");
  const b = document.querySelector("input[name=run-b]:checked");
  const target = $("diff");
  if (!a || !b) { target.textContent = "Pick run A and run B."; return; }
  const { ok, data } = await api("GET", `/api/diff?a=${encodeURIComponent(a.value)}&b=${encodeURIComponent(b.value)}`);
  target.replaceChildren();
  if (!ok) { target.append(el("p", { class: "row-error" }, data.error)); return; }
  target.append(el("h3", { id: "diff-title" },
    `Run #${data.from.id} → run #${data.to.id}: ${data.changes.length} changed, ${data.unchanged} unchanged`));
  if (data.from.suiteHash !== data.to.suiteHash) target.append(el("p", { class: "muted" }, "The suite file changed between these runs."));
  const chip = (o) => el("span", { class: `chip ${o || "none"}` }, o ? o.toUpperCase() : "—");
  const table = el("table", { id: "changes" }, el("thead", {}, el("tr", {},
    el("th", {}, "Case"), el("th", {}, "Assertion"), el("th", {}, "Before"), el("th", {}, "After"), el("th", {}, "Message"))));
  const tbody = el("tbody");
  for (const c of data.changes) {
    tbody.append(el("tr", { class: "change" }, el("td", {}, c.case), el("td", {}, `${c.assertion} ${c.path} ${c.matcher}`),
      el("td", {}, chip(c.before)), el("td", {}, chip(c.after)), el("td", { class: "result-message" }, c.message || "")));
  }
  table.append(tbody);
  target.append(table);
}

function tab(name) {
  $("tab-cases").classList.toggle("active", name === "cases");
  $("tab-history").classList.toggle("active", name === "history");
  $("cases-view").hidden = name !== "cases";
  $("history-view").hidden = name !== "history";
  if (name === "history") showHistory();
}

$("add-assertion").addEventListener("click", () => {
  const a = { path: "$", matcher: "toEqual", expected: null };
  assertions().push(a);
  renderRows();
  changed();
  const bodies = rowBodies();
  bodies[bodies.length - 1].querySelector("input.path").focus();
});
$("preview").addEventListener("click", preview);
$("save").addEventListener("click", () => save(false));
$("tab-cases").addEventListener("click", () => tab("cases"));
$("tab-history").addEventListener("click", () => tab("history"));
$("show-diff").addEventListener("click", showDiff);
load(false);
