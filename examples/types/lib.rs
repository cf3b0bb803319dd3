//! The types the examples read, defined once and shared with the integration tests (which
//! check the same types the examples show).

pub mod planning;
pub mod story;
pub mod test_results;
pub mod tool_call;
