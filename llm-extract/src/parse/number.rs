//! Numbers: exact as JSON writes them, plus the forms models write (`.5`, `5.`, `+5`, `1_000`,
//! `0x1F`, `-Infinity`). Leading zeros (`02134`) keep the token as text.

use super::{token_ends_at, Parser};
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
    /// A number at `self.pos`, or `None` if the token there is not a number after all (then
    /// it is read as a bare word, e.g. `2024-01-01` or `3rd`).
    pub(crate) fn number(&mut self) -> Option<Node<'a>> {
        let start = self.pos;
        let b = self.bytes;
        let end = self.end;
        let mut i = start;
        let negative = b[i] == b'-';
        let explicit_plus = b[i] == b'+';
        if negative || explicit_plus {
            i += 1;
        }
        // `-Infinity`, `-NaN`
        for (word, value) in [("Infinity", f64::INFINITY), ("NaN", f64::NAN)] {
            if b[i..end].starts_with(word.as_bytes()) && token_ends_at(b, i + word.len(), end) {
                self.pos = i + word.len();
                let span = Span::new(start, self.pos);
                self.repair(RepairKind::NonFiniteNumber, span);
                let value = if negative { -value } else { value };
                return Some(Node::new(NodeKind::Number(Number::Float(value)), span));
            }
        }
        // Hexadecimal: `0x1F`.
        if i + 2 < end && b[i] == b'0' && matches!(b[i + 1], b'x' | b'X') {
            let digits_start = i + 2;
            let mut j = digits_start;
            while j < end && b[j].is_ascii_hexdigit() {
                j += 1;
            }
            if j > digits_start && token_ends_at(b, j, end) {
                let value = u64::from_str_radix(&self.text[digits_start..j], 16).ok()?;
                self.pos = j;
                let span = Span::new(start, j);
                self.repair(RepairKind::NonStandardNumber, span);
                let number = if negative {
                    integer(&value.to_string(), true)
                } else {
                    Number::PosInt(value)
                };
                return Some(Node::new(NodeKind::Number(number), span));
            }
            return None;
        }
        let int_start = i;
        let mut separators = false;
        while i < end
            && (b[i].is_ascii_digit()
                || (b[i] == b'_' && i > int_start && i + 1 < end && b[i + 1].is_ascii_digit()))
        {
            separators |= b[i] == b'_';
            i += 1;
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
        if !token_ends_at(b, i, end) {
            return None;
        }
        self.pos = i;
        let span = Span::new(start, i);
        let at_end = i >= end && !self.stack_is_empty();
        let leading_zero = int_digits > 1 && b[int_start] == b'0';
        if leading_zero && frac_digits.is_none() && exponent.is_none() && !at_end && !separators {
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
        let standard = !separators
            && !explicit_plus
            && int_digits > 0
            && frac_digits != Some(0)
            && !leading_zero
            && exponent.is_none_or(|(s, e)| e > s);
        let number = if standard {
            if frac_digits.is_none() && exponent.is_none() {
                integer(&self.text[int_start..i], negative)
            } else {
                Number::Float(float(&self.text[start..i]))
            }
        } else {
            // Rewrite to a form Rust parses: no `+`, no leading zeros, digits around the dot.
            let digits: String = self.text[int_start..int_start + int_digits].replace('_', "");
            let int_part = digits.trim_start_matches('0');
            let int_part = if int_part.is_empty() { "0" } else { int_part };
            let frac_part = match frac_digits {
                Some(n) if n > 0 => {
                    &self.text[int_start + int_digits + 1..int_start + int_digits + 1 + n]
                }
                _ => "",
            };
            let exp_part = match exponent {
                Some((s, e)) if e > s => &self.text[s..e],
                _ => "",
            };
            if frac_digits.is_none() && exp_part.is_empty() {
                integer(int_part, negative)
            } else {
                let sign = if negative { "-" } else { "" };
                let frac = if frac_part.is_empty() { "0" } else { frac_part };
                Number::Float(float(&format!("{sign}{int_part}.{frac}{exp_part}")))
            }
        };
        if at_end {
            self.repair(RepairKind::TruncatedLiteral, span);
        } else if separators {
            self.repair(RepairKind::DigitSeparator, span);
        } else if !standard {
            self.repair(RepairKind::NonStandardNumber, span);
        }
        Some(Node {
            kind: NodeKind::Number(number),
            span,
            complete: !at_end,
        })
    }
}
