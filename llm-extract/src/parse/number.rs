//! Numbers: exact as JSON writes them, plus the forms models write (`.5`, `5.`, `+5`, `1_000`,
//! `0x1F`, `-Infinity`, and `2,000.00` as a value in an object). Leading zeros (`02134`) keep the token as text.

use super::{space, token_ends_at, Parser, Slot};
use crate::node::{Node, NodeKind, Number, Quoting, Str};
use crate::report::RepairKind;
use crate::span::Span;
use std::borrow::Cow;

/// Reads an integer the way serde_json does: exact within `u64`/`i64`, else the nearest `f64`.
pub(crate) fn integer(digits: &str, negative: bool) -> Number {
    if negative {
        match digits.parse::<u64>() {
            Ok(0) => Number::Float(-0.0),
            Ok(n) if n <= i64::MAX as u64 + 1 => Number::NegInt((n as i128).wrapping_neg() as i64),
            _ => Number::Float(-float(digits)),
        }
    } else {
        match digits.parse::<u64>() {
            Ok(n) => Number::PosInt(n),
            Err(_) => Number::Float(float(digits)),
        }
    }
}

/// Correctly rounded, as serde_json's `float_roundtrip` reads floats.
fn float(text: &str) -> f64 {
    text.parse::<f64>().unwrap_or(f64::NAN)
}

impl<'a, B: super::Build<'a>> Parser<'a, B> {
    /// `1,234,567` as a value in an object, where a number can be followed by no bare number:
    /// the end of the comma groups after the integer digits ending at `i` (each group exactly
    /// three digits, no space), unless a `:` follows, which makes the last group a key. In an
    /// array, `[1,234]` is two numbers, as JSON reads it.
    fn thousands_end(&self, mut i: usize) -> Option<usize> {
        let (b, end) = (self.bytes, self.end);
        let start = i;
        while i + 4 <= end
            && b[i] == b','
            && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
            && (i + 4 == end || !b[i + 4].is_ascii_digit())
        {
            i += 4;
        }
        if i == start {
            return None;
        }
        let mut j = i;
        if j < end && b[j] == b'.' {
            j += 1;
            while j < end && b[j].is_ascii_digit() {
                j += 1;
            }
        }
        let next = space::skip_space(b, j, end);
        (next >= end || b[next] != b':').then_some(i)
    }

    /// `10:30`, `16:9`: in a value, a `:` right after a number and a digit right after it
    /// make a time or a ratio written bare, read as a bare word (its text), not a number and
    /// a key.
    fn clock_at(&self, slot: Slot, i: usize) -> bool {
        matches!(slot, Slot::ObjectValue | Slot::ArrayValue)
            && self.bytes.get(i) == Some(&b':')
            && self.bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
    }

    /// A number at `self.pos`, or `None` if the token there is not a number after all (then
    /// it is read as a bare word, e.g. `2024-01-01` or `3rd`).
    pub(crate) fn number(&mut self, slot: Slot) -> Option<Node<'a>> {
        let start = self.pos;
        let negative = self.bytes[start] == b'-';
        let explicit_plus = self.bytes[start] == b'+';
        let digits_at = start + usize::from(negative || explicit_plus);
        if let Some(read) = self.non_decimal(start, digits_at, negative) {
            return read;
        }
        let shape = self.decimal(digits_at, slot)?;
        if !token_ends_at(self.bytes, shape.end, self.end) || self.clock_at(slot, shape.end) {
            return None;
        }
        let i = shape.end;
        self.pos = i;
        let span = Span::new(start, i);
        let at_end = i >= self.end && !self.stack_is_empty();
        let leading_zero = shape.int_digits > 1 && self.bytes[shape.int_start] == b'0';
        if leading_zero
            && shape.frac_digits.is_none()
            && shape.exponent.is_none()
            && !at_end
            && !shape.separators
        {
            // `02134` (a zip code, an id): JSON cannot hold it as written, and as a number it
            // would lose its zeros. It stays text; a numeric target may still read it.
            self.repair(RepairKind::NumberAsString, span);
            return Some(Node::new(
                NodeKind::String(Str {
                    text: Cow::Borrowed(&self.text[start..i]),
                    quoting: Quoting::Unquoted,
                }),
                span,
            ));
        }
        let standard = !shape.separators
            && !explicit_plus
            && shape.int_digits > 0
            && shape.frac_digits != Some(0)
            && !leading_zero
            && shape.exponent.is_none_or(|(s, e)| e > s);
        let number = if standard {
            if shape.frac_digits.is_none() && shape.exponent.is_none() {
                integer(&self.text[shape.int_start..i], negative)
            } else {
                Number::Float(float(&self.text[start..i]))
            }
        } else {
            self.rewritten(&shape, negative)
        };
        if at_end {
            self.repair(RepairKind::TruncatedLiteral, span);
        } else if shape.separators {
            self.repair(RepairKind::DigitSeparator, span);
        } else if !standard {
            self.repair(RepairKind::NonStandardNumber, span);
        }
        // Past `f64`'s range (`1e400`): a `serde_json::Value` holds it as `null` (unless
        // serde_json keeps numbers as written).
        if cfg!(not(feature = "arbitrary_precision"))
            && matches!(number, Number::Float(f) if !f.is_finite())
        {
            self.repair(RepairKind::NonFiniteNumber, span);
        }
        Some(Node {
            kind: NodeKind::Number(number),
            span,
            complete: !at_end,
        })
    }

    /// `-Infinity`, `NaN` or hexadecimal `0x1F` starting at `start` (digits or the word at
    /// `i`, after any sign): `Some` of what the token reads as, `None` when it is none of them.
    fn non_decimal(&mut self, start: usize, i: usize, negative: bool) -> Option<Option<Node<'a>>> {
        let (b, end) = (self.bytes, self.end);
        for (word, value) in [("Infinity", f64::INFINITY), ("NaN", f64::NAN)] {
            if b[i..end].starts_with(word.as_bytes()) && token_ends_at(b, i + word.len(), end) {
                self.pos = i + word.len();
                let span = Span::new(start, self.pos);
                self.repair(RepairKind::NonFiniteNumber, span);
                let value = if negative { -value } else { value };
                return Some(Some(Node::new(
                    NodeKind::Number(Number::Float(value)),
                    span,
                )));
            }
        }
        if !(i + 2 < end && b[i] == b'0' && matches!(b[i + 1], b'x' | b'X')) {
            return None;
        }
        let digits_start = i + 2;
        let mut j = digits_start;
        while j < end && b[j].is_ascii_hexdigit() {
            j += 1;
        }
        if j == digits_start || !token_ends_at(b, j, end) {
            return Some(None);
        }
        let Ok(value) = u64::from_str_radix(&self.text[digits_start..j], 16) else {
            return Some(None);
        };
        self.pos = j;
        let span = Span::new(start, j);
        self.repair(RepairKind::NonStandardNumber, span);
        let number = if negative {
            integer(&value.to_string(), true)
        } else {
            Number::PosInt(value)
        };
        Some(Some(Node::new(NodeKind::Number(number), span)))
    }

    /// The parts of a decimal number whose digits start at `i`: integer digits (with `_` or,
    /// in an object value, thousands separators), fraction, exponent. `None` when there are
    /// no digits.
    fn decimal(&self, mut i: usize, slot: Slot) -> Option<Decimal> {
        let (b, end) = (self.bytes, self.end);
        let int_start = i;
        let mut separators = false;
        while i < end
            && (b[i].is_ascii_digit()
                || (b[i] == b'_' && i > int_start && i + 1 < end && b[i + 1].is_ascii_digit()))
        {
            separators |= b[i] == b'_';
            i += 1;
        }
        let digits = i - int_start;
        if slot == Slot::ObjectValue
            && !separators
            && (1..=3).contains(&digits)
            && b[int_start] != b'0'
        {
            if let Some(grouped) = self.thousands_end(i) {
                separators = true;
                i = grouped;
            }
        }
        let int_digits = i - int_start;
        let mut frac_digits = None;
        if i < end && b[i] == b'.' {
            i += 1;
            let s = i;
            while i < end && b[i].is_ascii_digit() {
                i += 1;
            }
            frac_digits = Some(i - s);
        }
        if int_digits == 0 && frac_digits.unwrap_or(0) == 0 {
            return None;
        }
        let mut exponent = None;
        if i < end && matches!(b[i], b'e' | b'E') {
            let mut j = i + 1;
            if j < end && matches!(b[j], b'+' | b'-') {
                j += 1;
            }
            let s = j;
            while j < end && b[j].is_ascii_digit() {
                j += 1;
            }
            if j > s {
                exponent = Some((i, j));
                i = j;
            } else if token_ends_at(b, j, end) {
                // `1e` or `1e-` with no digits (cut off, or a slip): ignore the exponent.
                exponent = Some((i, i));
                i = j;
            }
        }
        Some(Decimal {
            int_start,
            int_digits,
            frac_digits,
            exponent,
            separators,
            end: i,
        })
    }

    /// A number JSON would not write this way, rewritten to a form Rust parses: no `+`, no
    /// separators, no leading zeros, digits around the dot.
    fn rewritten(&self, shape: &Decimal, negative: bool) -> Number {
        let int_end = shape.int_start + shape.int_digits;
        let digits: String = self.text[shape.int_start..int_end].replace(['_', ','], "");
        let int_part = digits.trim_start_matches('0');
        let int_part = if int_part.is_empty() { "0" } else { int_part };
        let frac_part = match shape.frac_digits {
            Some(n) if n > 0 => &self.text[int_end + 1..int_end + 1 + n],
            _ => "",
        };
        let exp_part = match shape.exponent {
            Some((s, e)) if e > s => &self.text[s..e],
            _ => "",
        };
        // A number written with a dot or an `e` is a float even when nothing follows them
        // (`2.`, `2e`, `2e-`: cut off), as `2.0` and `2e0` are.
        if shape.frac_digits.is_none() && shape.exponent.is_none() {
            integer(int_part, negative)
        } else {
            let sign = if negative { "-" } else { "" };
            let frac = if frac_part.is_empty() { "0" } else { frac_part };
            Number::Float(float(&format!("{sign}{int_part}.{frac}{exp_part}")))
        }
    }
}

/// Where the parts of a decimal number are.
struct Decimal {
    int_start: usize,
    int_digits: usize,
    frac_digits: Option<usize>,
    /// The exponent's `e` and its end (equal when it has no digits).
    exponent: Option<(usize, usize)>,
    /// `_` or thousands separators among the integer digits.
    separators: bool,
    end: usize,
}
