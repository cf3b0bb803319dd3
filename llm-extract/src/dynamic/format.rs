//! `format`: the string formats model APIs use (`date-time`, `date`, `time`, `email`, `uri`,
//! `uuid`), checked by shape; and the integer formats schema generators write (`uint8`,
//! `int32`, ...), checked as ranges.

use crate::coerce::Context;
use crate::error::Category;
use crate::span::Span;
use regex::Regex;
use std::sync::LazyLock;

/// A known `format`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Format {
    /// A string of this shape.
    Text(&'static str),
    /// An integer in this range (`uint8` is 0..=255).
    Range(&'static str, f64, f64),
    /// A number format that asks nothing of the value (`double`, `float`).
    Number,
}

/// The string formats and the shape each must have (RFC 3339 for dates and times; a
/// scheme for URIs; one `@` with text around it for emails).
static SHAPES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    let date = r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])";
    let time = r"([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)";
    [
        ("date-time", format!("^{date}[Tt ]{time}$")),
        ("date", format!("^{date}$")),
        ("time", format!("^{time}$")),
        ("email", r"^[^@\s]+@[^@\s]+$".to_string()),
        ("uri", r"^[A-Za-z][A-Za-z0-9+.\-]*:\S*$".to_string()),
        (
            "uuid",
            r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
                .to_string(),
        ),
    ]
    .into_iter()
    .filter_map(|(name, re)| Regex::new(&re).ok().map(|re| (name, re)))
    .collect()
});

impl Format {
    /// The format named `name`, or `None` for one this reader does not check (reported by
    /// `Schema::unsupported`).
    pub(crate) fn named(name: &str) -> Option<Format> {
        let range = |lo: f64, hi: f64| {
            let name = SHAPES_NAMES.iter().find(|n| **n == name).copied();
            name.map(|n| Format::Range(n, lo, hi))
        };
        match name {
            "double" | "float" => Some(Format::Number),
            "int8" => range(-128.0, 127.0),
            "int16" => range(-32_768.0, 32_767.0),
            "int32" => range(-2_147_483_648.0, 2_147_483_647.0),
            "int64" | "int" => range(-9_223_372_036_854_775_808.0, 9_223_372_036_854_775_807.0),
            "uint8" => range(0.0, 255.0),
            "uint16" => range(0.0, 65_535.0),
            "uint32" => range(0.0, 4_294_967_295.0),
            "uint64" | "uint" => range(0.0, 18_446_744_073_709_551_615.0),
            _ => SHAPES
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(n, _)| Format::Text(n)),
        }
    }

    pub(crate) fn check_string(&self, s: &str, span: Span, cx: &mut Context) {
        let Format::Text(name) = self else { return };
        let fits = SHAPES
            .iter()
            .find(|(n, _)| n == name)
            .is_none_or(|(_, re)| re.is_match(s));
        if !fits {
            let shown = crate::error::shorten(s, 40);
            cx.fail(
                Category::Validation,
                format!("{shown:?} is not a valid {name}"),
                span,
            );
        }
    }

    pub(crate) fn check_number(&self, n: f64, span: Span, cx: &mut Context) {
        let Format::Range(name, lo, hi) = self else {
            return;
        };
        if n < *lo || n > *hi || n.fract() != 0.0 {
            cx.fail(
                Category::Validation,
                format!("{n} is not a {name} (an integer from {lo} to {hi})"),
                span,
            );
        }
    }
}

/// The integer format names, as `'static` strs for messages.
const SHAPES_NAMES: &[&str] = &[
    "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32", "uint64", "uint",
];
