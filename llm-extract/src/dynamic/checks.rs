//! The validation keywords of one schema object, read at compile time and checked on each
//! value with the same rules (and messages) as the derive's attributes (`validate.rs`).

use super::format::Format;
use crate::coerce::Context;
use crate::error::Category;
use crate::span::Span;
use serde_json::{Map, Value};

/// The regex size limit for `pattern`: the regex crate matches in linear time; this bounds
/// the memory a hostile pattern can make it build.
pub(crate) const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// Validation keywords, checked on the value read.
#[derive(Debug, Default, Clone)]
pub(crate) struct Checks {
    /// `minimum` / `maximum`, as numbers and as written.
    pub(crate) minimum: Option<(f64, String)>,
    pub(crate) maximum: Option<(f64, String)>,
    pub(crate) exclusive_minimum: Option<(f64, String)>,
    pub(crate) exclusive_maximum: Option<(f64, String)>,
    /// `minLength`/`maxLength` on strings, `minItems`/`maxItems` on arrays.
    pub(crate) min_length: Option<usize>,
    pub(crate) max_length: Option<usize>,
    pub(crate) min_items: Option<usize>,
    pub(crate) max_items: Option<usize>,
    pub(crate) pattern: Option<(regex::Regex, String)>,
    pub(crate) format: Option<super::format::Format>,
}

/// Why a schema does not compile, and where (a JSON pointer into it).
#[derive(Debug)]
pub(crate) struct Invalid {
    pub(crate) pointer: String,
    pub(crate) why: String,
}

/// The validation keywords of `map`.
pub(crate) fn checks(map: &Map<String, Value>, pointer: &str) -> Result<Checks, Invalid> {
    let bound = |key: &str| -> Result<Option<(f64, String)>, Invalid> {
        match map.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64().map(|f| (f, n.to_string()))),
            Some(_) => Err(invalid(pointer, key, "a number")),
        }
    };
    let count = |key: &str| -> Result<Option<usize>, Invalid> {
        match map.get(key) {
            None => Ok(None),
            Some(v) => (v.as_u64())
                .map(|n| Some(usize::try_from(n).unwrap_or(usize::MAX)))
                .ok_or_else(|| invalid(pointer, key, "a non-negative integer")),
        }
    };
    let pattern = match map.get("pattern") {
        None => None,
        Some(Value::String(p)) => Some((compile_pattern(p, pointer)?, p.clone())),
        Some(_) => return Err(invalid(pointer, "pattern", "a string")),
    };
    let format = match map.get("format") {
        None => None,
        Some(Value::String(f)) => Format::named(f),
        Some(_) => return Err(invalid(pointer, "format", "a string")),
    };
    Ok(Checks {
        minimum: bound("minimum")?,
        maximum: bound("maximum")?,
        exclusive_minimum: bound("exclusiveMinimum")?,
        exclusive_maximum: bound("exclusiveMaximum")?,
        min_length: count("minLength")?,
        max_length: count("maxLength")?,
        min_items: count("minItems")?,
        max_items: count("maxItems")?,
        pattern,
        format,
    })
}

fn invalid(pointer: &str, key: &str, what: &str) -> Invalid {
    Invalid {
        pointer: format!("{pointer}/{key}"),
        why: format!("`{key}` is {what}"),
    }
}

/// A `pattern`, compiled by the regex crate (linear-time matching) within a size limit, its
/// classes read as JSON Schema reads them ([`crate::ecma::classes`]).
fn compile_pattern(pattern: &str, pointer: &str) -> Result<regex::Regex, Invalid> {
    regex::RegexBuilder::new(&crate::ecma::classes(pattern))
        .size_limit(PATTERN_SIZE_LIMIT)
        .build()
        .map_err(|e| Invalid {
            pointer: format!("{pointer}/pattern"),
            why: format!("not a pattern the regex crate compiles: {e}"),
        })
}

impl Checks {
    /// Whether there is nothing to check.
    pub(crate) fn is_empty(&self) -> bool {
        self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none()
            && self.min_length.is_none()
            && self.max_length.is_none()
            && self.min_items.is_none()
            && self.max_items.is_none()
            && self.pattern.is_none()
            && self.format.is_none()
    }

    /// Records an issue for each check `value` fails.
    pub(crate) fn check(&self, value: &Value, span: Span, cx: &mut Context) {
        match value {
            Value::Number(n) => {
                if let Some(n) = n.as_f64() {
                    self.check_number(n, span, cx);
                }
            }
            Value::String(s) => self.check_string(s, span, cx),
            Value::Array(items) => {
                if let Some(min) = self.min_items {
                    crate::validate::min_len(items, min, span, cx);
                }
                if let Some(max) = self.max_items {
                    crate::validate::max_len(items, max, span, cx);
                }
            }
            _ => {}
        }
    }

    fn check_number(&self, n: f64, span: Span, cx: &mut Context) {
        if let Some((min, written)) = &self.minimum {
            crate::validate::min(&n, *min, written, span, cx);
        }
        if let Some((max, written)) = &self.maximum {
            crate::validate::max(&n, *max, written, span, cx);
        }
        if let Some((min, written)) = &self.exclusive_minimum {
            if n <= *min || n.is_nan() {
                let message = format!("{n} is not greater than the exclusive minimum {written}");
                cx.fail(Category::Validation, message, span);
            }
        }
        if let Some((max, written)) = &self.exclusive_maximum {
            if n >= *max || n.is_nan() {
                let message = format!("{n} is not less than the exclusive maximum {written}");
                cx.fail(Category::Validation, message, span);
            }
        }
        if let Some(format) = &self.format {
            format.check_number(n, span, cx);
        }
    }

    fn check_string(&self, s: &String, span: Span, cx: &mut Context) {
        if let Some(min) = self.min_length {
            crate::validate::min_len(s, min, span, cx);
        }
        if let Some(max) = self.max_length {
            crate::validate::max_len(s, max, span, cx);
        }
        if let Some((re, source)) = &self.pattern {
            crate::validate::pattern(s, Some(re), source, span, cx);
        }
        if let Some(format) = &self.format {
            format.check_string(s, span, cx);
        }
    }
}
