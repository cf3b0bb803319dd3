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
