//! The run history: every `llm-extract test` run, its cases and each assertion's result, in a
//! SQLite database, and the `history` and `diff` commands that read it back.
//!
//! The schema is versioned with SQLite's `user_version` (rusqlite_migration) and migrated on
//! open; a database written by a newer llm-extract is refused with a message, never altered.
//! Writers use WAL and a busy timeout, and each run is one transaction, so two runs recording
//! at once both land whole.

use crate::suite::results::{labels, output_status, print_out, CaseResult, Summary};
use llm_extract::assert::{AssertionResult, Outcome};
use rusqlite::{params, Connection};
use rusqlite_migration::{Migrations, M};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Where a suite's runs go unless `--db` says otherwise: `.llm-extract/runs.sqlite` beside it.
pub(crate) const DEFAULT_DB: &str = ".llm-extract/runs.sqlite";

/// How long a writer waits for another writer before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The schema, one migration per version; append, never edit a published one.
const MIGRATIONS: &[&str] = &[
    // Version 1: runs, their cases, and each assertion's result as the camelCase JSON that
    // `llm_extract::assert::AssertionResult` serializes to (what `test --json` reports).
    "CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        started_at INTEGER NOT NULL,          -- unix time, milliseconds
        suite_path TEXT NOT NULL,             -- absolute
        suite_hash TEXT NOT NULL,             -- sha256 of the suite file, hex
        tool_version TEXT NOT NULL,
        cases INTEGER NOT NULL,
        assertions INTEGER NOT NULL,
        passed INTEGER NOT NULL,
        failed INTEGER NOT NULL,
        errors INTEGER NOT NULL
    );
    CREATE INDEX runs_by_suite ON runs (suite_path, id);
    CREATE TABLE case_results (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        raw_output TEXT,                      -- the model's text, NULL when it could not be read
        repaired TEXT,                        -- JSON of the repaired value, NULL when none was found
        load_errors TEXT NOT NULL             -- JSON array of strings
    );
    CREATE INDEX case_results_by_run ON case_results (run_id, position);
    CREATE TABLE test_results (
        id INTEGER PRIMARY KEY,
        case_result_id INTEGER NOT NULL REFERENCES case_results (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        assertion_id TEXT NOT NULL,           -- the id, or #n
        outcome TEXT NOT NULL,                -- pass | fail | error
        details TEXT NOT NULL                 -- JSON: an assert::AssertionResult, camelCase
    );
    CREATE INDEX test_results_by_case ON test_results (case_result_id, position);",
];

fn migrations() -> Migrations<'static> {
    Migrations::new(MIGRATIONS.iter().map(|sql| M::up(sql)).collect())
}

/// Puts the database in WAL mode (kept in the file), so readers (the page) read while a run
/// writes and writers queue on the lock. Switching needs the file to itself and SQLite answers
/// "busy" at once rather than waiting, so a process that opens the file while another switches
/// it retries until the mode is WAL.
fn use_wal(conn: &Connection) -> Result<(), String> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        let mode = conn
            .pragma_query_value(None, "journal_mode", |row| row.get::<_, String>(0))
            .and_then(|mode| {
                if mode.eq_ignore_ascii_case("wal") {
                    Ok(mode)
                } else {
                    conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get(0))
                }
            });
        match mode {
            Ok(mode) if mode.eq_ignore_ascii_case("wal") => return Ok(()),
            Ok(_) | Err(rusqlite::Error::SqliteFailure(_, _))
                if is_busy(&mode) && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(mode) => return Err(format!("cannot switch the journal to WAL (it is {mode})")),
            Err(e) => return Err(format!("cannot switch the journal to WAL: {e}")),
        }
    }
}

/// Whether `mode` says another connection holds the file (worth waiting for); any other error
/// (not a database, read-only, ...) is final.
fn is_busy(mode: &rusqlite::Result<String>) -> bool {
    match mode {
        Ok(_) => true,
        Err(rusqlite::Error::SqliteFailure(e, _)) => matches!(
            e.code,
            rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
        ),
        Err(_) => false,
    }
}

/// Brings the schema to the latest version. Two processes opening a new database at once
/// both see version 0; each migration runs in an IMMEDIATE transaction, so one applies it and
/// the other, once the lock is free, fails on the tables that now exist: that failure is
/// harmless when the version it finds afterwards is the latest.
fn migrate(conn: &mut Connection) -> Result<(), rusqlite_migration::Error> {
    conn.set_transaction_behavior(rusqlite::TransactionBehavior::Immediate);
    let mut result = migrations().to_latest(conn);
    if result.is_err() {
        let version: Result<usize, _> =
            conn.pragma_query_value(None, "user_version", |row| row.get(0));
        if version.is_ok_and(|v| v == MIGRATIONS.len()) {
            result = Ok(());
        }
    }
    conn.set_transaction_behavior(rusqlite::TransactionBehavior::Deferred);
    result
}

/// SQLite's `application_id` of a run database ("llmx"): a database another program made
/// is recognised as not ours before anything is written to it.
const APPLICATION_ID: i32 = 0x6c6c_6d78;

/// Refuses an existing database that another program made (its own `application_id`, or
/// tables but no schema version of ours, or a version without our `runs` table): opening it
/// would add our tables to someone else's file. Reads only: runs before anything is written.
fn is_ours(conn: &Connection, path: &Path) -> Result<(), String> {
    let not_ours = |why: String| {
        format!(
            "{} is not a run database of llm-extract ({why}); pass another --db",
            path.display()
        )
    };
    let read = |e: rusqlite::Error| not_ours(e.to_string());
    let id: i32 = conn
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .map_err(read)?;
    let version: usize = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(read)?;
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .and_then(|mut q| q.query_map([], |row| row.get(0))?.collect())
        .map_err(read)?;
    if id != 0 && id != APPLICATION_ID {
        return Err(not_ours(format!("its application id is {id:#x}")));
    }
    if version == 0 && !tables.is_empty() {
        return Err(not_ours(format!(
            "it holds the tables {}",
            tables.join(", ")
        )));
    }
    if version > 0 && !tables.iter().any(|t| t == "runs") {
        return Err(not_ours("it has no `runs` table".to_string()));
    }
    Ok(())
}

/// Creates the database at `path` whole: made and migrated under a temporary name beside it,
/// then linked into place (which fails when another process got there first: its database is
/// used). No process ever opens a run database half made, so a file that is empty, or has
/// no schema of ours, was put there by something else.
fn create(path: &Path) -> Result<(), String> {
    let name = path.file_name().map_or_else(
        || "runs.sqlite".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let temporary = path.with_file_name(format!(".{name}.{}.new", std::process::id()));
    let made = (|| {
        let mut conn = Connection::open(&temporary).map_err(|e| e.to_string())?;
        use_wal(&conn)?;
        migrate(&mut conn).map_err(|e| e.to_string())?;
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(|e| e.to_string())
    })();
    let placed = made.and_then(|()| match std::fs::hard_link(&temporary, path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        // A file system without hard links: a rename, unless the file appeared meanwhile.
        Err(_) if !path.exists() => std::fs::rename(&temporary, path).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    });
    let _ = std::fs::remove_file(&temporary);
    placed.map_err(|e| format!("cannot create run database {}: {e}", path.display()))
}

/// An open run database.
pub(crate) struct Store {
    conn: Connection,
    path: PathBuf,
}

/// One recorded run, as `history` lists it.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Run {
    pub id: i64,
    /// UTC, `YYYY-MM-DD HH:MM:SS`.
    pub started_at: String,
    pub suite_path: String,
    pub suite_hash: String,
    pub cases: i64,
    pub assertions: i64,
    pub passed: i64,
    pub failed: i64,
    pub errors: i64,
}

impl Run {
    /// Passed assertions over all assertions, in percent; 100 for a run with none.
    pub fn pass_rate(&self) -> f64 {
        if self.assertions == 0 {
            100.0
        } else {
            self.passed as f64 * 100.0 / self.assertions as f64
        }
    }
}

/// One assertion's recorded result, keyed by its case and label.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecordedResult {
    pub case: String,
    pub assertion: String,
    pub details: AssertionResult,
}

/// An assertion whose status differs between two runs (or that only one run has).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Change {
    pub case: String,
    pub assertion: String,
    pub path: String,
    pub matcher: String,
    /// `pass`, `fail`, `error`, or `null` when run A did not have it.
    pub before: Option<Outcome>,
    /// The same for run B.
    pub after: Option<Outcome>,
    /// Run B's message (run A's when B lacks the assertion).
    pub message: Option<String>,
}

/// What changed from run `from` to run `to`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RunDiff {
    pub from: Run,
    pub to: Run,
    pub changes: Vec<Change>,
    pub unchanged: usize,
}

impl Store {
    /// Opens (creating it and its folder when missing) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<Store, String> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        if !path.exists() {
            create(path)?;
        }
        // Created whole (see `create`): an empty file here is not a database in the making.
        if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
            return Err(format!(
                "{} is an empty file, not a run database (remove it to start a new history, or pass another --db)",
                path.display()
            ));
        }
        let mut conn = Connection::open(path)
            .map_err(|e| format!("cannot open run database {}: {e}", path.display()))?;
        let fail = |e: rusqlite::Error| format!("run database {}: {e}", path.display());
        conn.busy_timeout(BUSY_TIMEOUT).map_err(fail)?;
        is_ours(&conn, path)?;
        use_wal(&conn).map_err(|e| format!("run database {}: {e}", path.display()))?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(fail)?;
        let version: usize = conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| format!("{} is not a run database: {e}", path.display()))?;
        if version > MIGRATIONS.len() {
            return Err(format!(
                "run database {} has schema version {version}, written by a newer llm-extract; \
                 this one ({}) knows versions up to {}: upgrade llm-extract or pass another --db",
                path.display(),
                env!("CARGO_PKG_VERSION"),
                MIGRATIONS.len()
            ));
        }
        migrate(&mut conn)
            .map_err(|e| format!("cannot migrate run database {}: {e}", path.display()))?;
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(fail)?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    /// Opens the database only when it exists (readers never create one).
    pub fn open_existing(path: &Path) -> Result<Store, String> {
        if !path.is_file() {
            return Err(format!(
                "no run database at {} (run `llm-extract test SUITE` first, or pass --db)",
                path.display()
            ));
        }
        Store::open(path)
    }

    /// Records one run of `suite` in a single transaction; returns its id.
    pub fn record(
        &mut self,
        suite: &Path,
        suite_text: &str,
        cases: &[CaseResult],
        summary: &Summary,
    ) -> Result<i64, String> {
        let fail =
            |e: rusqlite::Error| format!("cannot record the run in {}: {e}", self.path.display());
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        let started_at = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        tx.execute(
            "INSERT INTO runs (started_at, suite_path, suite_hash, tool_version, cases, assertions, passed, failed, errors)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                started_at,
                suite_key(suite),
                content_hash(suite_text.as_bytes()),
                env!("CARGO_PKG_VERSION"),
                summary.cases as i64,
                summary.assertions as i64,
                summary.passed as i64,
                summary.failed as i64,
                summary.errors as i64,
            ],
        )
        .map_err(fail)?;
        let run_id = tx.last_insert_rowid();
        {
            let mut insert_case = tx
                .prepare(
                    "INSERT INTO case_results (run_id, position, name, raw_output, repaired, load_errors)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                )
                .map_err(fail)?;
            let mut insert_result = tx
                .prepare(
                    "INSERT INTO test_results (case_result_id, position, assertion_id, outcome, details)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(fail)?;
            for (position, case) in cases.iter().enumerate() {
                insert_case
                    .execute(params![
                        run_id,
                        position as i64,
                        case.name,
                        case.output,
                        case.repaired.as_ref().map(Value::to_string),
                        serde_json::to_string(&case.errors).unwrap_or_default(),
                    ])
                    .map_err(fail)?;
                let case_id = tx.last_insert_rowid();
                for (i, (r, label)) in case.results.iter().zip(labels(case)).enumerate() {
                    insert_result
                        .execute(params![
                            case_id,
                            i as i64,
                            label,
                            outcome_name(r.outcome),
                            serde_json::to_string(r).unwrap_or_default(),
                        ])
                        .map_err(fail)?;
                }
            }
        }
        tx.commit().map_err(fail)?;
        Ok(run_id)
    }

    /// The runs, oldest first; only `suite`'s when given.
    pub fn runs(&self, suite: Option<&Path>) -> Result<Vec<Run>, String> {
        let fail = |e: rusqlite::Error| format!("cannot read {}: {e}", self.path.display());
        let mut sql = String::from(
            "SELECT id, strftime('%Y-%m-%d %H:%M:%S', started_at / 1000, 'unixepoch'), suite_path,
                    suite_hash, cases, assertions, passed, failed, errors FROM runs",
        );
        if suite.is_some() {
            sql.push_str(" WHERE suite_path = ?1");
        }
        sql.push_str(" ORDER BY id");
        let mut stmt = self.conn.prepare(&sql).map_err(fail)?;
        let map = |row: &rusqlite::Row<'_>| {
            Ok(Run {
                id: row.get(0)?,
                started_at: row.get(1)?,
                suite_path: row.get(2)?,
                suite_hash: row.get(3)?,
                cases: row.get(4)?,
                assertions: row.get(5)?,
                passed: row.get(6)?,
                failed: row.get(7)?,
                errors: row.get(8)?,
            })
        };
        let rows = match suite {
            Some(suite) => stmt.query_map([suite_key(suite)], map),
            None => stmt.query_map([], map),
        }
        .map_err(fail)?;
        rows.collect::<Result<_, _>>().map_err(fail)
    }

    /// The run with id `id`.
    pub fn run(&self, id: i64) -> Result<Run, String> {
        self.runs(None)?
            .into_iter()
            .find(|r| r.id == id)
            .ok_or_else(|| format!("no run #{id} in {}", self.path.display()))
    }

    /// Every assertion result of run `id`, in case and assertion order.
    pub fn results(&self, id: i64) -> Result<Vec<RecordedResult>, String> {
        let fail = |e: rusqlite::Error| format!("cannot read {}: {e}", self.path.display());
        let mut stmt = self
            .conn
            .prepare(
                "SELECT c.name, t.assertion_id, t.details FROM test_results t
                 JOIN case_results c ON c.id = t.case_result_id
                 WHERE c.run_id = ?1 ORDER BY c.position, t.position",
            )
            .map_err(fail)?;
        let rows = stmt
            .query_map([id], |row| {
                Ok((
                    row.get::<_, String>(0)?,
                    row.get::<_, String>(1)?,
                    row.get::<_, String>(2)?,
                ))
            })
            .map_err(fail)?;
        let mut out = Vec::new();
        for row in rows {
            let (case, assertion, details) = row.map_err(fail)?;
            let details = serde_json::from_str(&details).map_err(|e| {
                format!(
                    "run #{id} in {}: a stored result is not an AssertionResult: {e}",
                    self.path.display()
                )
            })?;
            out.push(RecordedResult {
                case,
                assertion,
                details,
            });
        }
        Ok(out)
    }

    /// What changed between runs `a` and `b`; by default the last two runs (of `suite` when
    /// given).
    pub fn diff(
        &self,
        a: Option<i64>,
        b: Option<i64>,
        suite: Option<&Path>,
    ) -> Result<RunDiff, String> {
        let (from, to) = match (a, b) {
            (Some(a), Some(b)) => (self.run(a)?, self.run(b)?),
            (Some(a), None) => {
                // One id: compare it with the run recorded just before it (of the same suite).
                let from = self.run(a)?;
                let runs = self.runs(Some(Path::new(&from.suite_path)))?;
                let to = runs.into_iter().find(|r| r.id > a).ok_or_else(|| {
                    format!("no run after #{a} of the same suite to compare with")
                })?;
                (from, to)
            }
            (None, Some(_)) => return Err("give RUN_A with RUN_B".to_string()),
            (None, None) => {
                let runs = self.runs(suite)?;
                match runs.as_slice() {
                    [.., from, to] => (from.clone(), to.clone()),
                    _ => {
                        return Err(format!(
                            "diff needs two runs; {} has {}",
                            self.path.display(),
                            runs.len()
                        ))
                    }
                }
            }
        };
        let before = self.results(from.id)?;
        let after = self.results(to.id)?;
        let (changes, unchanged) = compare(&before, &after);
        Ok(RunDiff {
            from,
            to,
            changes,
            unchanged,
        })
    }
}

/// The assertions whose outcome differs, in run B's order then those only run A has, and the
/// count of the rest. Assertions are matched by case name and label.
fn compare(before: &[RecordedResult], after: &[RecordedResult]) -> (Vec<Change>, usize) {
    let key = |r: &RecordedResult| (r.case.clone(), r.assertion.clone());
    let old: std::collections::HashMap<_, _> = before.iter().map(|r| (key(r), r)).collect();
    let new: std::collections::HashSet<_> = after.iter().map(key).collect();
    let mut changes = Vec::new();
    let mut unchanged = 0;
    for r in after {
        let was = old.get(&key(r)).map(|o| o.details.outcome);
        if was == Some(r.details.outcome) {
            unchanged += 1;
            continue;
        }
        changes.push(Change {
            case: r.case.clone(),
            assertion: r.assertion.clone(),
            path: r.details.path.clone(),
            matcher: r.details.matcher.clone(),
            before: was,
            after: Some(r.details.outcome),
            message: r.details.message.clone(),
        });
    }
    for r in before.iter().filter(|r| !new.contains(&key(r))) {
        changes.push(Change {
            case: r.case.clone(),
            assertion: r.assertion.clone(),
            path: r.details.path.clone(),
            matcher: r.details.matcher.clone(),
            before: Some(r.details.outcome),
            after: None,
            message: r.details.message.clone(),
        });
    }
    (changes, unchanged)
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "pass",
        Outcome::Fail => "fail",
        Outcome::Error => "error",
    }
}

/// How a suite is named in the database: its absolute path, so runs from any folder match.
pub(crate) fn suite_key(suite: &Path) -> String {
    std::fs::canonicalize(suite)
        .unwrap_or_else(|_| suite.to_path_buf())
        .display()
        .to_string()
}

/// The sha256 of `bytes`, in hex.
pub(crate) fn content_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The database for `suite`: `db` when given, else [`DEFAULT_DB`] beside the suite.
pub(crate) fn db_path(suite: &Path, db: Option<&Path>) -> PathBuf {
    match db {
        Some(db) => db.to_path_buf(),
        None => suite
            .parent()
            .unwrap_or_else(|| Path::new(""))
            .join(DEFAULT_DB),
    }
}

/// Arguments of `llm-extract history`.
#[derive(clap::Args)]
pub struct HistoryArgs {
    /// The suite file whose runs to list
    suite: PathBuf,
    /// The run database (default: .llm-extract/runs.sqlite beside the suite)
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Print the runs as JSON
    #[arg(long)]
    json: bool,
}

/// Arguments of `llm-extract diff`.
#[derive(clap::Args)]
pub struct DiffArgs {
    /// The earlier run's id (default: the second-to-last run)
    run_a: Option<i64>,
    /// The later run's id (default: the run after RUN_A, or the last run)
    run_b: Option<i64>,
    /// Print the changes as JSON
    #[arg(long)]
    json: bool,
    /// Compare runs of this suite, in the database beside it
    #[arg(long, value_name = "SUITE")]
    suite: Option<PathBuf>,
    /// The run database (default: .llm-extract/runs.sqlite beside --suite, or in the current folder)
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
}

pub fn history(args: HistoryArgs) -> ExitCode {
    let path = db_path(&args.suite, args.db.as_deref());
    let runs = match Store::open_existing(&path).and_then(|s| s.runs(Some(&args.suite))) {
        Ok(runs) => runs,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&runs).unwrap_or_default()
        )
    } else if runs.is_empty() {
        format!(
            "no runs of {} in {}\n",
            args.suite.display(),
            path.display()
        )
    } else {
        runs.iter().map(|r| format!("{}\n", run_line(r))).collect()
    };
    print_out(&text);
    output_status(0)
}

/// `#3    2026-01-02 10:11:12  5 assertions in 2 cases: 4 passed, 1 failed, 0 errors  80.0%  suite 6ab2a898fc88`
fn run_line(r: &Run) -> String {
    let count = |n: i64| usize::try_from(n).unwrap_or(0);
    let summary = Summary {
        assertions: count(r.assertions),
        cases: count(r.cases),
        passed: count(r.passed),
        failed: count(r.failed),
        errors: count(r.errors),
    };
    format!(
        "#{:<4} {}  {}  {:.1}%  suite {}",
        r.id,
        r.started_at,
        summary.line(),
        r.pass_rate(),
        r.suite_hash.chars().take(12).collect::<String>(),
    )
}

pub fn diff(args: DiffArgs) -> ExitCode {
    if args.run_a.is_none() && args.run_b.is_some() {
        eprintln!("error: give RUN_A with RUN_B");
        return ExitCode::from(2);
    }
    let path = match (&args.db, &args.suite) {
        (Some(db), _) => db.clone(),
        (None, Some(suite)) => db_path(suite, None),
        (None, None) => PathBuf::from(DEFAULT_DB),
    };
    let diff = match Store::open_existing(&path)
        .and_then(|s| s.diff(args.run_a, args.run_b, args.suite.as_deref()))
    {
        Ok(diff) => diff,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let text = if args.json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&diff).unwrap_or_default()
        )
    } else {
        diff_text(&diff)
    };
    print_out(&text);
    output_status(0)
}

fn diff_text(diff: &RunDiff) -> String {
    let mut out = format!(
        "run #{} ({}, {:.1}%) -> run #{} ({}, {:.1}%): {} changed, {} unchanged\n",
        diff.from.id,
        diff.from.started_at,
        diff.from.pass_rate(),
        diff.to.id,
        diff.to.started_at,
        diff.to.pass_rate(),
        diff.changes.len(),
        diff.unchanged
    );
    if diff.from.suite_hash != diff.to.suite_hash {
        out.push_str("the suite file changed between the two runs\n");
    }
    let label = |o: Option<Outcome>| o.map_or("(none)", Outcome::label).trim_end();
    for c in &diff.changes {
        out.push_str(&format!(
            "{} -> {}  [{}] {} {} {}",
            label(c.before),
            label(c.after),
            c.case,
            c.assertion,
            c.path,
            c.matcher
        ));
        if let Some(message) = &c.message {
            out.push_str(": ");
            out.push_str(&message.replace('\n', " "));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use llm_extract::assert::PathMatch;

    fn result(case: &str, label: &str, outcome: Outcome) -> RecordedResult {
        RecordedResult {
            case: case.into(),
            assertion: label.into(),
            details: AssertionResult {
                assertion_id: label.into(),
                path: "$.a".into(),
                matcher: "toEqual".into(),
                not: false,
                path_match: PathMatch::Any,
                passed: outcome == Outcome::Pass,
                outcome,
                actual_samples: Vec::new(),
                message: None,
            },
        }
    }

    #[test]
    fn compare_reports_changed_added_and_removed_assertions() {
        let before = [
            result("c", "a1", Outcome::Pass),
            result("c", "a2", Outcome::Pass),
            result("c", "gone", Outcome::Fail),
        ];
        let after = [
            result("c", "a1", Outcome::Pass),
            result("c", "a2", Outcome::Fail),
            result("c", "new", Outcome::Error),
        ];
        let (changes, unchanged) = compare(&before, &after);
        assert_eq!(unchanged, 1);
        let summary: Vec<_> = changes
            .iter()
            .map(|c| (c.assertion.as_str(), c.before, c.after))
            .collect();
        assert_eq!(
            summary,
            [
                ("a2", Some(Outcome::Pass), Some(Outcome::Fail)),
                ("new", None, Some(Outcome::Error)),
                ("gone", Some(Outcome::Fail), None),
            ]
        );
    }

    /// A folder of its own for one test, removed when the test ends (passed or failed).
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("llm-extract-history-{name}-"))
            .tempdir()
            .unwrap()
    }

    #[test]
    fn a_database_from_a_newer_version_is_refused_with_a_message() {
        let folder = scratch("newer");
        let path = folder.path().join("runs.sqlite");
        drop(Store::open(&path).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.pragma_update(None, "user_version", 99).unwrap();
        drop(conn);
        let err = Store::open(&path).err().unwrap();
        assert!(
            err.contains("schema version 99, written by a newer llm-extract"),
            "{err}"
        );
        assert!(err.contains("knows versions up to 1"), "{err}");
    }

    #[test]
    fn a_file_that_is_not_a_database_is_an_error_not_a_crash() {
        let folder = scratch("garbage");
        let path = folder.path().join("runs.sqlite");
        std::fs::write(
            &path,
            "this is not sqlite, just some text that is long enough",
        )
        .unwrap();
        assert!(Store::open(&path).is_err());
    }

    /// A zero-byte file, or another program's SQLite database, is an error naming the file,
    /// and is left as it was: never a new, empty history.
    #[test]
    fn an_empty_or_foreign_database_is_refused_and_left_alone() {
        let folder = scratch("foreign");
        let dir = folder.path();
        let empty = dir.join("empty.sqlite");
        std::fs::write(&empty, "").unwrap();
        let err = Store::open(&empty).err().expect("refused");
        assert!(err.contains("empty file"), "{err}");
        assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);

        let foreign = dir.join("notes.sqlite");
        let other = Connection::open(&foreign).unwrap();
        other
            .execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi');")
            .unwrap();
        drop(other);
        let before = std::fs::read(&foreign).unwrap();
        let err = Store::open(&foreign).err().expect("refused");
        assert!(
            err.contains("not a run database") && err.contains("notes"),
            "{err}"
        );
        assert_eq!(std::fs::read(&foreign).unwrap(), before);

        let tagged = dir.join("tagged.sqlite");
        let other = Connection::open(&tagged).unwrap();
        other.pragma_update(None, "application_id", 7).unwrap();
        other.pragma_update(None, "user_version", 1).unwrap();
        drop(other);
        let err = Store::open(&tagged).err().expect("refused");
        assert!(err.contains("application id is 0x7"), "{err}");

        // Ours opens again, and so does one written before it was marked as ours.
        let ours = dir.join("runs.sqlite");
        drop(Store::open(&ours).unwrap());
        drop(Store::open(&ours).unwrap());
        let conn = Connection::open(&ours).unwrap();
        conn.pragma_update(None, "application_id", 0).unwrap();
        drop(conn);
        drop(Store::open(&ours).unwrap());
    }

    #[test]
    fn opening_sets_wal_and_migrates_to_the_latest_version() {
        let folder = scratch("wal");
        let path = folder.path().join("nested/runs.sqlite");
        let store = Store::open(&path).unwrap();
        let mode: String = store
            .conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let version: usize = store
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len());
        migrations().validate().unwrap();
    }

    #[test]
    fn concurrent_writers_both_land_whole() {
        let folder = scratch("concurrent");
        let dir = folder.path();
        let path = dir.join("runs.sqlite");
        let suite = dir.join("s.json");
        std::fs::write(&suite, "{}").unwrap();
        drop(Store::open(&path).unwrap());
        let case = || CaseResult {
            name: "c".into(),
            errors: Vec::new(),
            output: Some("{}".into()),
            repaired: Some(serde_json::json!({})),
            results: (0..50)
                .map(|i| result("c", &format!("a{i}"), Outcome::Pass).details)
                .collect(),
        };
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let (path, suite) = (path.clone(), suite.clone());
                std::thread::spawn(move || {
                    let mut store = Store::open(&path).unwrap();
                    for _ in 0..5 {
                        store
                            .record(&suite, "{}", &[case()], &Summary::default())
                            .unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let store = Store::open(&path).unwrap();
        let runs = store.runs(Some(&suite)).unwrap();
        assert_eq!(runs.len(), 20);
        for run in runs {
            assert_eq!(store.results(run.id).unwrap().len(), 50);
        }
    }
}
