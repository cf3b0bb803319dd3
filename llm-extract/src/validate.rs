//! The `validate` stage: rules from attributes (`min`, `max`, `min_len`, `max_len`,
//! `pattern`, `one_of`, `one_of_exact`, `validate = fn`), each failure an
//! [`Issue`](crate::Issue) with its path. A rule failing on a value the reply was cut off
//! inside is [`Category::Incomplete`].
//!
//! The derive calls these functions right after a field's value is built, at the field's
//! path, so every failure in the whole value is collected (not only the first):
//!
//! ```
//! #[derive(llm_extract::Extract, Debug)]
//! struct Item {
//!     #[extract(min = 1)]
//!     price: u32,
//! }
//! #[derive(llm_extract::Extract, Debug)]
//! struct Order {
//!     items: Vec<Item>,
//! }
//! let err = llm_extract::from_str::<Order>(r#"{"items": [{"price": 3}, {"price": 1}, {"price": 0}]}"#).unwrap_err();
//! assert_eq!(err.issues()[0].to_string().split(" at ").next().unwrap(), "$.items[2].price: 0 is less than the minimum 1");
//! ```
//!
//! A rule on an `Option` applies to the value inside when there is one. On a collection,
//! `min`, `max`, `pattern` and `one_of` apply to each item (at the item's path), `min_len` and
//! `max_len` to the collection's length.

use crate::coerce::{keys_match_folded, Context};
use crate::error::Category;
use crate::span::Span;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Display;

/// A number a `min` / `max` rule can check.
#[diagnostic::on_unimplemented(
    message = "`min` and `max` apply to numbers, not to `{Self}`",
    label = "this field is not a number"
)]
pub trait Bounded {
    /// The value as `f64`, or `None` when there is nothing to check (`Option::None`).
    fn number(&self) -> Option<f64>;
    /// The value as written in a message.
    fn show(&self) -> String;
}

macro_rules! bounded {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            fn number(&self) -> Option<f64> {
                Some(*self as f64)
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
bounded!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

/// Something a `min_len` / `max_len` rule can measure: strings count characters,
/// collections count items.
#[diagnostic::on_unimplemented(
    message = "`min_len` and `max_len` apply to strings and collections, not to `{Self}`",
    label = "this field has no length"
)]
pub trait Length {
    /// The length and its unit (`"characters"`, `"items"`), or `None` for `Option::None`.
    fn length(&self) -> Option<(usize, &'static str)>;
}

impl Length for String {
    fn length(&self) -> Option<(usize, &'static str)> {
        Some((self.chars().count(), "characters"))
    }
}

impl Length for str {
    fn length(&self) -> Option<(usize, &'static str)> {
        Some((self.chars().count(), "characters"))
    }
}

impl Length for Box<str> {
    fn length(&self) -> Option<(usize, &'static str)> {
        Some((self.chars().count(), "characters"))
    }
}

macro_rules! lengths {
    ($($t:ident<$($p:ident),*>),*) => {$(
        impl<$($p),*> Length for $t<$($p),*> {
            fn length(&self) -> Option<(usize, &'static str)> {
                Some((self.len(), "items"))
            }
        }
    )*};
}
lengths!(Vec<T>, VecDeque<T>, BTreeSet<T>, HashSet<T, S>, BTreeMap<K, V>, HashMap<K, V, S>);

impl<T, const N: usize> Length for [T; N] {
    fn length(&self) -> Option<(usize, &'static str)> {
        Some((N, "items"))
    }
}

impl Length for serde_json::Map<String, serde_json::Value> {
    fn length(&self) -> Option<(usize, &'static str)> {
        Some((self.len(), "items"))
    }
}

/// Text a `pattern` rule can match.
#[diagnostic::on_unimplemented(
    message = "`pattern` applies to strings, not to `{Self}`",
    label = "this field is not a string"
)]
pub trait Text {
    /// The text, or `None` for `Option::None`.
    fn text(&self) -> Option<&str>;
}

impl Text for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Text for str {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl Text for Box<str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

/// One allowed value of a `one_of` rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Allowed {
    /// A string.
    Str(&'static str),
    /// A number.
    Number(f64),
    /// A boolean.
    Bool(bool),
}

impl Display for Allowed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Allowed::Str(s) => write!(f, "{s:?}"),
            Allowed::Number(n) => write!(f, "{n}"),
            Allowed::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// How a `one_of` rule compares strings (numbers and booleans compare by value).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Matching {
    /// As enum variants are matched (`one_of = [..]`): exactly, or once case and
    /// separators are ignored, or also diacritics ([`keys_match_folded`]): `"Billing"`,
    /// `"BILLING"` and `" billing "` are `"billing"`; `"billing_dept"` is not. The value is
    /// kept as the model wrote it.
    #[default]
    AsVariants,
    /// Exactly as listed (`one_of_exact = [..]`).
    Exact,
}

impl Matching {
    /// Whether `value` is `allowed` under this way of comparing.
    ///
    /// ```
    /// use llm_extract::validate::Matching;
    /// assert!(Matching::AsVariants.same("High-Priority", "high_priority"));
    /// assert!(!Matching::Exact.same("High-Priority", "high_priority"));
    /// ```
    pub fn same(self, value: &str, allowed: &str) -> bool {
        value == allowed
            || self == Matching::AsVariants
                && !allowed.trim().is_empty()
                && keys_match_folded(value.trim(), allowed)
    }
}

/// A value a `one_of` rule can compare.
#[diagnostic::on_unimplemented(
    message = "`one_of` applies to strings, numbers and booleans, not to `{Self}`",
    label = "this field cannot be compared with the listed values"
)]
pub trait Choice {
    /// Whether the value is among `allowed` (strings compared as `matching` says), or `None`
    /// for `Option::None`.
    fn is_in(&self, allowed: &[Allowed], matching: Matching) -> Option<bool>;
    /// The value as written in a message.
    fn show(&self) -> String;
}

impl Choice for String {
    fn is_in(&self, allowed: &[Allowed], matching: Matching) -> Option<bool> {
        Some(
            allowed
                .iter()
                .any(|a| matches!(a, Allowed::Str(s) if matching.same(self, s))),
        )
    }
    fn show(&self) -> String {
        format!("{self:?}")
    }
}

impl Choice for bool {
    fn is_in(&self, allowed: &[Allowed], _: Matching) -> Option<bool> {
        Some(allowed.contains(&Allowed::Bool(*self)))
    }
    fn show(&self) -> String {
        self.to_string()
    }
}

macro_rules! numeric_choice {
    ($($t:ty),*) => {$(
        impl Choice for $t {
            fn is_in(&self, allowed: &[Allowed], _: Matching) -> Option<bool> {
                Some(allowed.iter().any(|a| matches!(a, Allowed::Number(n) if *n == *self as f64)))
            }
            fn show(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
numeric_choice!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

/// A value a `one_of` list of strings can check: strings, through `Option` and `Box`.
#[diagnostic::on_unimplemented(
    message = "`one_of` lists strings, but this field holds `{Self}`",
    label = "the listed values are strings"
)]
pub trait StrChoice: Choice {}

/// A value a `one_of` list of numbers can check: numbers, through `Option` and `Box`.
#[diagnostic::on_unimplemented(
    message = "`one_of` lists numbers, but this field holds `{Self}`",
    label = "the listed values are numbers"
)]
pub trait NumberChoice: Choice {}

/// A value a `one_of` list of booleans can check: `bool`, through `Option` and `Box`.
#[diagnostic::on_unimplemented(
    message = "`one_of` lists booleans, but this field holds `{Self}`",
    label = "the listed values are booleans"
)]
pub trait BoolChoice: Choice {}

impl StrChoice for String {}
impl BoolChoice for bool {}
macro_rules! number_choice {
    ($($t:ty),*) => {$(impl NumberChoice for $t {})*};
}
number_choice!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);
impl<T: StrChoice> StrChoice for Option<T> {}
impl<T: NumberChoice> NumberChoice for Option<T> {}
impl<T: BoolChoice> BoolChoice for Option<T> {}
impl<T: StrChoice + ?Sized> StrChoice for Box<T> {}
impl<T: NumberChoice + ?Sized> NumberChoice for Box<T> {}
impl<T: BoolChoice + ?Sized> BoolChoice for Box<T> {}

/// Compiles only when a `one_of` list of strings fits the field: the derive calls it where it
/// cannot see the field's type (an alias), so a list of the wrong kind is a compile error
/// there too, not a rule that rejects every reply.
pub fn lists_strings<T: StrChoice + ?Sized>(_: &T) {}

/// As [`lists_strings`], for a list of numbers.
pub fn lists_numbers<T: NumberChoice + ?Sized>(_: &T) {}

/// As [`lists_strings`], for a list of booleans.
pub fn lists_booleans<T: BoolChoice + ?Sized>(_: &T) {}

impl<T: Bounded + ?Sized> Bounded for Box<T> {
    fn number(&self) -> Option<f64> {
        (**self).number()
    }
    fn show(&self) -> String {
        (**self).show()
    }
}

impl<T: Choice + ?Sized> Choice for Box<T> {
    fn is_in(&self, allowed: &[Allowed], matching: Matching) -> Option<bool> {
        (**self).is_in(allowed, matching)
    }
    fn show(&self) -> String {
        (**self).show()
    }
}

impl<T: Bounded> Bounded for Option<T> {
    fn number(&self) -> Option<f64> {
        self.as_ref().and_then(T::number)
    }
    fn show(&self) -> String {
        self.as_ref().map_or_else(|| "null".to_string(), T::show)
    }
}

impl<T: Length> Length for Option<T> {
    fn length(&self) -> Option<(usize, &'static str)> {
        self.as_ref().and_then(T::length)
    }
}

impl<T: Text> Text for Option<T> {
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(T::text)
    }
}

impl<T: Choice> Choice for Option<T> {
    fn is_in(&self, allowed: &[Allowed], matching: Matching) -> Option<bool> {
        self.as_ref().and_then(|v| v.is_in(allowed, matching))
    }
    fn show(&self) -> String {
        self.as_ref().map_or_else(|| "null".to_string(), T::show)
    }
}

/// `min = N`: the value is at least `min` (`written` is the bound as written in the source).
///
/// ```
/// let mut cx = llm_extract::coerce::Context::new();
/// llm_extract::validate::min(&0u32, 1.0, "1", Default::default(), &mut cx);
/// assert_eq!(cx.issues()[0].message, "0 is less than the minimum 1");
/// ```
pub fn min<T: Bounded + ?Sized>(value: &T, min: f64, written: &str, span: Span, cx: &mut Context) {
    if let Some(n) = value.number() {
        if n < min || n.is_nan() {
            cx.fail(
                Category::Validation,
                format!("{} is less than the minimum {written}", value.show()),
                span,
            );
        }
    }
}

/// `max = N`: the value is at most `max`.
pub fn max<T: Bounded + ?Sized>(value: &T, max: f64, written: &str, span: Span, cx: &mut Context) {
    if let Some(n) = value.number() {
        if n > max || n.is_nan() {
            cx.fail(
                Category::Validation,
                format!("{} is greater than the maximum {written}", value.show()),
                span,
            );
        }
    }
}

/// `min_len = N`: the string has at least `min` characters, the collection at least `min` items.
///
/// ```
/// let mut cx = llm_extract::coerce::Context::new();
/// llm_extract::validate::min_len(&vec![1], 2, Default::default(), &mut cx);
/// assert_eq!(cx.issues()[0].message, "has 1 item, fewer than the minimum 2");
/// ```
pub fn min_len<T: Length + ?Sized>(value: &T, min: usize, span: Span, cx: &mut Context) {
    if let Some((len, unit)) = value.length() {
        if len < min {
            cx.fail(
                Category::Validation,
                format!("has {}, fewer than the minimum {min}", counted(len, unit)),
                span,
            );
        }
    }
}

/// `len` of `unit` (a plural: `items`, `characters`), in the singular for one.
fn counted(len: usize, unit: &str) -> String {
    match len {
        1 => format!("1 {}", unit.strip_suffix('s').unwrap_or(unit)),
        _ => format!("{len} {unit}"),
    }
}

/// `max_len = N`: the string has at most `max` characters, the collection at most `max` items.
pub fn max_len<T: Length + ?Sized>(value: &T, max: usize, span: Span, cx: &mut Context) {
    if let Some((len, unit)) = value.length() {
        if len > max {
            cx.fail(
                Category::Validation,
                format!("has {}, more than the maximum {max}", counted(len, unit)),
                span,
            );
        }
    }
}

/// `pattern = "regex"`: the text matches somewhere (as JSON Schema's `pattern` does; anchor
/// with `^...$` to match the whole). `regex` is compiled once by the caller; `None` means
/// the pattern did not compile, which is reported rather than ignored.
///
/// ```
/// let re = regex::Regex::new(r"^\d+$").ok();
/// let mut cx = llm_extract::coerce::Context::new();
/// llm_extract::validate::pattern(&"12a".to_string(), re.as_ref(), r"^\d+$", Default::default(), &mut cx);
/// assert_eq!(cx.issues()[0].message, r#""12a" does not match the pattern ^\d+$"#);
/// ```
pub fn pattern<T: Text + ?Sized>(
    value: &T,
    regex: Option<&regex::Regex>,
    source: &str,
    span: Span,
    cx: &mut Context,
) {
    let Some(text) = value.text() else { return };
    match regex {
        Some(re) if re.is_match(text) => {}
        Some(_) => {
            let shown = crate::error::shorten(text, 40);
            cx.fail(
                Category::Validation,
                format!("{shown:?} does not match the pattern {source}"),
                span,
            );
        }
        None => {
            cx.fail(
                Category::Validation,
                format!("the pattern {source} is not a valid regular expression"),
                span,
            );
        }
    }
}

/// `one_of = [..]` (strings compared as enum variants are, [`Matching::AsVariants`]) and
/// `one_of_exact = [..]` ([`Matching::Exact`]): the value is one of the listed values.
///
/// ```
/// use llm_extract::validate::{one_of, Allowed, Matching};
/// let allowed = [Allowed::Str("yes"), Allowed::Str("no")];
/// let mut cx = llm_extract::coerce::Context::new();
/// one_of(&"YES".to_string(), &allowed, Matching::AsVariants, Default::default(), &mut cx);
/// assert!(cx.issues().is_empty());
/// one_of(&"YES".to_string(), &allowed, Matching::Exact, Default::default(), &mut cx);
/// one_of(&"maybe".to_string(), &allowed, Matching::AsVariants, Default::default(), &mut cx);
/// assert_eq!(cx.issues()[0].message, r#""YES" is not one of "yes", "no""#);
/// assert_eq!(cx.issues()[1].message, r#""maybe" is not one of "yes", "no""#);
/// ```
pub fn one_of<T: Choice + ?Sized>(
    value: &T,
    allowed: &[Allowed],
    matching: Matching,
    span: Span,
    cx: &mut Context,
) {
    if value.is_in(allowed, matching) == Some(false) {
        let list: Vec<String> = allowed.iter().map(ToString::to_string).collect();
        cx.fail(
            Category::Validation,
            format!("{} is not one of {}", value.show(), list.join(", ")),
            span,
        );
    }
}

/// `validate = path::to_fn`: records the error a user's check returned.
pub fn custom<E: Display>(result: Result<(), E>, span: Span, cx: &mut Context) {
    if let Err(e) = result {
        cx.fail(Category::Validation, e.to_string(), span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn messages(f: impl FnOnce(&mut Context)) -> Vec<String> {
        let mut cx = Context::new();
        f(&mut cx);
        cx.issues().iter().map(|i| i.message.clone()).collect()
    }

    #[test]
    fn rules_table() {
        assert_eq!(
            messages(|cx| min(&5i32, 1.0, "1", Span::default(), cx)),
            Vec::<String>::new()
        );
        assert_eq!(
            messages(|cx| max(&11u8, 10.0, "10", Span::default(), cx)),
            ["11 is greater than the maximum 10"]
        );
        assert_eq!(
            messages(|cx| max(&2.5f64, 2.0, "2", Span::default(), cx)),
            ["2.5 is greater than the maximum 2"]
        );
        assert!(messages(|cx| min(&None::<u8>, 1.0, "1", Span::default(), cx)).is_empty());
        assert_eq!(
            messages(|cx| min(&Some(0u8), 1.0, "1", Span::default(), cx)),
            ["0 is less than the minimum 1"]
        );
        assert_eq!(
            messages(|cx| min_len(&"héé".to_string(), 4, Span::default(), cx)),
            ["has 3 characters, fewer than the minimum 4"]
        );
        assert_eq!(
            messages(|cx| max_len(&vec![1, 2, 3], 2, Span::default(), cx)),
            ["has 3 items, more than the maximum 2"]
        );
        assert_eq!(
            messages(|cx| one_of(
                &3u8,
                &[Allowed::Number(1.0), Allowed::Number(2.0)],
                Matching::AsVariants,
                Span::default(),
                cx
            )),
            ["3 is not one of 1, 2"]
        );
        assert!(messages(|cx| one_of(
            &true,
            &[Allowed::Bool(true)],
            Matching::AsVariants,
            Span::default(),
            cx
        ))
        .is_empty());
        assert_eq!(
            messages(|cx| pattern(&"x".to_string(), None, "(", Span::default(), cx)).len(),
            1
        );
        assert_eq!(
            messages(|cx| custom(Err::<(), _>("too rude"), Span::default(), cx)),
            ["too rude"]
        );
        assert_eq!(
            messages(|cx| min(&Box::new(0u8), 1.0, "1", Span::default(), cx)).len(),
            1
        );
    }
}
