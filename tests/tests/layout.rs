//! The test layout cannot silently lose a file: cargo discovers every `.rs` file in
//! `tests/tests/` as a test target, so a test file put anywhere else in the package (where
//! cargo would never run it) is an error here, naming the file and where it belongs.

use std::path::Path;

/// The package's `.rs` files outside `tests/` (its test targets) and `ui/` (trybuild cases),
/// other than the shared library `lib.rs`.
fn stray_rust_files(dir: &Path, root: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("the test package's folder is readable") {
        let path = entry.expect("a readable entry").path();
        let relative = path.strip_prefix(root).expect("under the root");
        if path.is_dir() {
            let skipped = ["tests", "ui", "target", "fixtures"];
            if dir == root && skipped.iter().any(|s| relative == Path::new(s)) {
                continue;
            }
            stray_rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") && relative != Path::new("lib.rs") {
            out.push(relative.display().to_string());
        }
    }
}

#[test]
fn every_test_file_is_where_cargo_runs_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stray = Vec::new();
    stray_rust_files(root, root, &mut stray);
    stray.sort();
    assert!(
        stray.is_empty(),
        "{stray:?} would never run: integration tests go in tests/tests/ (one file per \
         behaviour), shared code in tests/lib.rs, compile-fail cases in tests/ui/<error class>/"
    );
    // And the folder cargo discovers holds this file, so the guard itself runs.
    assert!(root.join("tests").join("layout.rs").is_file());
}

/// The `.rs` files under `dir` (a subfolder of a package's `tests/`) that cargo does not run:
/// it runs `tests/x.rs` and `tests/x/main.rs`, nothing deeper.
fn unrun_test_files(dir: &Path, root: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a readable entry").path();
        if path.is_dir() {
            unrun_test_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && !(path.ends_with("main.rs") && path.parent().and_then(Path::parent) == Some(root))
        {
            let relative = path.strip_prefix(root).expect("under the root");
            out.push(relative.display().to_string());
        }
    }
}

#[test]
fn every_command_line_test_is_where_cargo_runs_it() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .join("llm-extract-cli")
        .join("tests");
    let mut stray = Vec::new();
    let mut discovered = 0;
    for entry in std::fs::read_dir(&tests).expect("the command line's tests folder") {
        let path = entry.expect("a readable entry").path();
        // `common/mod.rs`: the helpers the tests share (`mod common;`), run by none itself.
        if path.is_dir() && path.ends_with("common") {
            continue;
        }
        if path.is_dir() {
            unrun_test_files(&path, &tests, &mut stray);
        } else if path.extension().is_some_and(|e| e == "rs") {
            discovered += 1;
        }
    }
    stray.sort();
    assert!(
        stray.is_empty(),
        "{stray:?} in llm-extract-cli/tests/ would never run: the command line's tests are \
         files directly in llm-extract-cli/tests/, their data in llm-extract-cli/tests/fixtures/"
    );
    // The tests that run the binary are there.
    assert!(
        discovered >= 3,
        "only {discovered} test files in {}",
        tests.display()
    );
}

/// The source file proptest replays a regression file for: proptest stores the seeds of
/// `<dir>/<path>.rs` in `<parent of dir>/proptest-regressions/<path>.txt`, where `dir` is the
/// nearest folder above the source holding a `lib.rs` or `main.rs`
/// (`FileFailurePersistence::SourceParallel`, its default).
fn replayed_by(regressions: &Path, file: &Path) -> Option<std::path::PathBuf> {
    let relative = file.strip_prefix(regressions).ok()?.with_extension("rs");
    let parent = regressions.parent()?;
    std::fs::read_dir(parent)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|dir| dir.join("lib.rs").is_file() || dir.join("main.rs").is_file())
        .map(|dir| dir.join(&relative))
        .find(|source| source.is_file())
}

fn regression_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("a readable entry").path();
        if path.is_dir() {
            regression_files(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_proptest_regression_file_is_where_proptest_replays_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root");
    let mut orphans = Vec::new();
    let mut replayed = 0;
    for member in [
        "",
        "llm-extract",
        "llm-extract-derive",
        "llm-extract-cli",
        "examples",
    ] {
        let regressions = root.join(member).join("proptest-regressions");
        if !regressions.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        regression_files(&regressions, &mut files);
        for file in files {
            match replayed_by(&regressions, &file) {
                Some(_) => replayed += 1,
                None => orphans.push(file.strip_prefix(root).unwrap_or(&file).to_path_buf()),
            }
        }
    }
    assert!(
        orphans.is_empty(),
        "{orphans:?} would never be replayed: proptest reads the seeds of tests/tests/x.rs \
         from proptest-regressions/tests/x.txt (beside the folder holding the package's lib.rs)"
    );
    // The repair and derive property tests have seeds.
    assert!(replayed >= 2, "only {replayed} regression files found");
}
