//! The reference guide: how a reply is read, what a type accepts, the errors, the schemas,
//! and the limits. These pages hold no items; each is documentation only.
//!
//! | Page | What it covers |
//! |---|---|
//! | [`reading`] | the pipeline (locate, parse, coerce, validate), every repair the parser makes, replies without JSON, and the choices where readers differ |
//! | [`leniency`] | what each target type accepts and at what cost, how keys and enum variants match |
//! | [`errors`] | the error categories, a reply cut off against a field left out, which error is reported |
//! | [`schemas`] | JSON Schemas and the prompt format for model APIs, tool lists per provider |
//! | [`limits`] | batch reading, deep input, exact numbers, and what the tests guarantee |
//!
//! Elsewhere: the derive's attributes on [`Extract`](macro@crate::Extract), tool calls in
//! [`tool`](crate::tool), streaming in [`stream`](crate::stream), schemas known at run time on
//! [`Schema`](crate::Schema), re-asking on [`Retry`](crate::Retry), validation rules in
//! [`validate`](crate::validate), hand-written readers in [`coerce`](crate::coerce), and
//! assertions in `assert` (feature `assert`).

#[doc = include_str!("reading.md")]
pub mod reading {}

#[doc = include_str!("leniency.md")]
pub mod leniency {}

#[doc = include_str!("errors.md")]
pub mod errors {}

#[cfg(feature = "schema")]
#[doc = include_str!("schemas.md")]
pub mod schemas {}

#[doc = include_str!("limits.md")]
pub mod limits {}
