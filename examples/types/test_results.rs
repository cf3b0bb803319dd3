//! The outcome of tests as an LLM test runner reports them: `TestResult` with a lenient `TestStatus`.

use llm_extract::Extract;

/// The outcome of one test.
#[derive(Extract, Debug, PartialEq, Clone)]
#[extract(rename_all = "lowercase")]
pub enum TestStatus {
    Pass,
    Fail,
    Error,
    Invalid,
    Skip,
    /// Anything else the model wrote; normalized into an error result.
    #[extract(other)]
    Unknown(String),
}

/// One test result as the model reports it.
#[derive(Extract, Debug, PartialEq, Clone)]
pub struct TestResult {
    pub status: TestStatus,
    #[extract(catch, strict)]
    pub id: Option<String>,
    // The fail-only fields. `strict` + `catch`: a non-string value is dropped, and the drop
    // is recorded in the report, instead of failing the whole reply.
    #[extract(catch, strict)]
    pub expectation: Option<String>,
    #[extract(catch, strict)]
    pub observed: Option<String>,
    #[extract(catch, strict)]
    pub location: Option<String>,
    #[extract(catch, strict)]
    pub resolution: Option<String>,
    #[extract(catch, strict)]
    pub error: Option<String>,
}

impl TestResult {
    /// The seed's rules: an unknown status is an error result; fail-only fields are kept only
    /// for `fail`.
    pub fn normalized(mut self) -> TestResult {
        if let TestStatus::Unknown(raw) = &self.status {
            self.error = Some(format!("unknown status {raw:?}"));
            self.status = TestStatus::Error;
        }
        if self.status != TestStatus::Fail {
            self.expectation = None;
            self.observed = None;
            self.location = None;
            self.resolution = None;
        }
        self
    }
}
