//! Compile-fail tests of the derive's diagnostics: each case one small type, with the
//! reviewed compiler output next to it. Runs on stable with the normal test suite.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*/*.rs");
}
