//! Parameters written as tags inside a call's body: an opener with attributes, the value,
//! a closer (DeepSeek DSML, Step-3, Kimi K3, MiniCPM); and the body of a call whose values,
//! so written, hold tokens (also Qwen3-Coder's, MiniMax M2's, GLM's).

use super::super::shape::{Arg, RawCall, Source};
use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;

/// A call whose arguments were written one by one, each value at its span.
pub(super) fn tag_call(name: String, params: Vec<(String, Arg, Span)>) -> RawCall {
    let spans = params.iter().map(|(k, _, s)| (k.clone(), *s)).collect();
    RawCall {
        name,
        id: None,
        arguments: params.into_iter().map(|(k, a, _)| (k, a)).collect(),
        source: Source::Each(spans),
        ..RawCall::default()
    }
}

impl Walker<'_> {
    /// The calls just read at `whole` are not complete: their format's closer is missing.
    /// They are cut off, however whole their arguments read: text after the value is no
    /// closer, and a token may yet end the body there.
    pub(super) fn mark_open(&mut self, whole: Span) {
        for hit in self.out.hits.iter_mut().rev() {
            if hit.span != whole {
                break;
            }
            hit.complete = false;
            hit.call.cut_off = true;
        }
    }
}

/// How a format writes a call's values, for reading them as the call's text.
pub(super) struct Values<'s> {
    /// What a value's opener starts with: `<parameter=`, `<｜DSML｜parameter`.
    pub open: &'s str,
    /// A value's closer.
    pub close: &'s str,
    /// The call's closer, as the scan's token.
    pub call_close: Tok,
}

/// Qwen3-Coder's and Seed-OSS's `<parameter=k>v</parameter>` in `<function=f>`.
pub(super) const QWEN_VALUES: Values = Values {
    open: "<parameter=",
    close: "</parameter>",
    call_close: Tok::FunctionClose,
};

/// MiniMax M2's `<parameter name="k">v</parameter>` in `<invoke name="f">`.
pub(super) const MINIMAX_VALUES: Values = Values {
    open: "<parameter",
    close: "</parameter>",
    call_close: Tok::InvokeClose,
};

/// A call's body as [`Walker::tag_body`] reads it.
pub(super) struct TagBody {
    /// The body, between the call's opener and its closer (or where it ends).
    pub body: Span,
    /// The index of the token after the call.
    pub next: usize,
    /// Where the call ends.
    pub end: usize,
    /// The call's closer is there.
    pub closed: bool,
    /// Where each value the body holds ends (at its closer, or at the call's closer where
    /// the value lacks its own), when they were read as the call's text (tokens stand inside
    /// them): the parameters are read with these ends, and a reading that finds another
    /// count took a tag inside a value for the format's own.
    pub ends: Option<Vec<usize>>,
    /// A value holds a call of the call's own format that the value's end cuts in two: which
    /// closer is whose cannot be told, so the call is not whole.
    pub unclear: bool,
}

impl TagBody {
    /// Whether `read` parameters, read from the body, are the values it holds.
    pub fn holds(&self, read: usize) -> bool {
        !self.unclear && self.ends.as_ref().is_none_or(|e| e.len() == read)
    }
}

/// Where a value read as the call's text ends.
enum ValueEnd {
    /// At its closer, which starts here.
    Closed(usize),
    /// At the call's closer, which starts here: the value lacks its own.
    CallClosed(usize),
    /// The text ends first.
    Open,
}

impl Walker<'_> {
    /// The body of the call whose opener is token `k`, its values beginning at `from` (after
    /// spaces), read with its values as the call's text ([`Walker::values_hold_tokens`]) or,
    /// when no token stands inside a value, up to the next token as usual.
    pub(super) fn tag_body(&self, k: usize, from: usize, values: &Values) -> TagBody {
        self.values_hold_tokens(k, from, values).unwrap_or_else(|| {
            let body = self.body(k);
            let (next, end, closed) = self.close(k, Some(values.call_close), body.end);
            TagBody {
                body,
                next,
                end,
                closed,
                ends: None,
                unclear: false,
            }
        })
    }

    /// A body of values written as tags whose values hold tokens: a value is the call's text
    /// up to its closer, so a call written inside one, in any format, is an argument, not a
    /// call. A call of the same format written whole inside a value is the value's text too,
    /// closers and all ([`Walker::value_end`]). The body runs to the call's closer after the
    /// last value (else the call is cut off where its values end). `None` when no token
    /// stands inside a value: the body is read as usual.
    fn values_hold_tokens(&self, k: usize, from: usize, values: &Values) -> Option<TagBody> {
        let text = self.text;
        let start = self.toks[k].span.end;
        let usual = self.body(k);
        let mut pos = from + (text[from..].len() - text[from..].trim_start().len());
        if pos >= usual.end || !text[pos..].starts_with(values.open) {
            return None;
        }
        let mut ends = Vec::new();
        let mut unclear = false;
        loop {
            let value = pos + values.open.len();
            let (end, cut) = self.value_end(k, value, values);
            unclear |= cut;
            match end {
                ValueEnd::Closed(at) => {
                    ends.push(at);
                    pos = at + values.close.len();
                }
                ValueEnd::CallClosed(at) => {
                    ends.push(at);
                    pos = at;
                    break;
                }
                // A value never closed: the call is cut off, and the rest of the text is it.
                ValueEnd::Open => {
                    let end = text.len();
                    ends.push(end);
                    return (usual.end < end).then_some(TagBody {
                        body: Span::new(start, end),
                        next: self.toks.len(),
                        end,
                        closed: false,
                        ends: Some(ends),
                        unclear,
                    });
                }
            }
            let after = text[pos..].trim_start();
            pos = text.len() - after.len();
            if !after.starts_with(values.open) {
                break;
            }
        }
        if pos <= usual.end {
            return None;
        }
        let j = self.toks.partition_point(|t| t.span.start < pos);
        let (next, end, closed) = match self.toks.get(j) {
            Some(t) if t.tok == values.call_close && t.span.start == pos => {
                (j + 1, t.span.end, true)
            }
            _ => (j, pos, false),
        };
        Some(TagBody {
            body: Span::new(start, pos),
            next,
            end,
            closed,
            ends: Some(ends),
            unclear,
        })
    }

    /// Where the value of the call opened by token `k`, read from `from`, ends, and whether
    /// a call of its own format inside it leaves unclear which closer is whose.
    ///
    /// A call of the same format opened inside the value is its text up to that call's own
    /// closer: the value's closers and the call's closer written inside it are that call's.
    /// When the text ends before such a reading ends the value, an opener inside it was a
    /// lone one (text, not a call): the value is read again, ending at the first of its
    /// closer and the call's closer, and from then on every value of the reply is read so
    /// ([`Walker::lone_opener`]), which keeps the reading linear. A value so read whose
    /// same-format opener is followed by values of its own holds a call that its end cuts in
    /// two.
    fn value_end(&self, k: usize, from: usize, values: &Values) -> (ValueEnd, bool) {
        if self.lone_opener.get().is_none() {
            match self.scan_value(k, from, values, true) {
                (ValueEnd::Open, Some(_)) => self.lone_opener.set(Some(self.toks[k].span.start)),
                (end, _) => return (end, false),
            }
        }
        let (end, opener) = self.scan_value(k, from, values, false);
        let end_at = match end {
            ValueEnd::Closed(at) | ValueEnd::CallClosed(at) => at,
            ValueEnd::Open => self.text.len(),
        };
        let cut = opener.is_some_and(|o| self.text[o..end_at].contains(values.open));
        (end, cut)
    }

    /// One reading of a value from `from` ([`Walker::value_end`]): with `nested`, a call of
    /// the format opened inside it runs to its own closer; without, the first closer ends
    /// the value. Also where the first same-format call opened inside it ends its opener.
    fn scan_value(
        &self,
        k: usize,
        from: usize,
        values: &Values,
        nested: bool,
    ) -> (ValueEnd, Option<usize>) {
        let call_open = self.toks[k].tok;
        // The calls closed by the call's closer: `</function>` closes Qwen3-Coder's,
        // Functionary's and MiniCPM's alike.
        let opens = |tok: Tok| {
            tok == call_open
                || values.call_close == Tok::FunctionClose
                    && matches!(tok, Tok::FunctionOpen | Tok::FunctionNamed)
        };
        let mut depth = 0usize;
        let mut opener = None;
        let mut at = from;
        loop {
            match self.find_to_token(at, values.close) {
                Ok(close) if depth == 0 || !nested => return (ValueEnd::Closed(close), opener),
                Ok(close) => at = close + values.close.len(),
                Err(j) if j == self.toks.len() => return (ValueEnd::Open, opener),
                Err(j) => {
                    let t = self.toks[j];
                    if t.tok == values.call_close && (depth == 0 || !nested) {
                        return (ValueEnd::CallClosed(t.span.start), opener);
                    }
                    if t.tok == values.call_close {
                        depth -= 1;
                    } else if opens(t.tok) {
                        depth += 1;
                        opener.get_or_insert(t.span.end);
                    }
                    at = t.span.end;
                }
            }
        }
    }

    /// Where `needle` is first written at or after `pos`, searched up to the next token
    /// (shown markup, a [`Tok::Hidden`] token, is read through: it is text here): `Ok` with
    /// where, or `Err` with the index of the token that comes first (the number of tokens
    /// when the text ends first).
    pub(super) fn find_to_token(&self, pos: usize, needle: &str) -> Result<usize, usize> {
        let mut j = self.toks.partition_point(|t| t.span.start < pos);
        let mut from = pos;
        loop {
            let limit = self.toks.get(j).map_or(self.text.len(), |t| t.span.start);
            if let Some(at) = self.text[from..limit].find(needle) {
                return Ok(from + at);
            }
            // No closer or delimiter looked for holds a byte a hidden token starts with
            // (`<!--`, a backtick, `>` after a line break): none is cut by its start.
            match self.toks.get(j) {
                Some(t) if t.tok == Tok::Hidden => {
                    from = limit;
                    j += 1;
                }
                _ => return Err(j),
            }
        }
    }
}

/// How a format writes one parameter.
pub(super) struct TagSyntax {
    /// The opener up to its attributes: `<｜DSML｜parameter`.
    pub open: &'static str,
    /// What ends the opener: `>`, or Kimi K3's `<|sep|>`.
    pub open_end: &'static str,
    /// The closer: `</｜DSML｜parameter>`.
    pub close: &'static str,
}

/// One parameter as written.
pub(super) struct TagParam<'a> {
    /// The opener's text between its prefix and its end: `name="k" string="true"`.
    pub attrs: &'a str,
    /// Where the value is in the reply (between the opener and the closer).
    pub value: Span,
}

/// Every parameter in `span`, and whether each was closed. A value without its closer runs
/// to the next parameter (tolerated) or to the end of the body (cut off: not complete).
///
/// Each search starts where the last one stopped, and a closer found beyond the next opener
/// is remembered, so the body is read a bounded number of times. `ends` says where each
/// value ends when the body was read with its values as the call's text ([`TagBody::ends`]).
pub(super) fn tag_params<'a>(
    text: &'a str,
    span: Span,
    syntax: &TagSyntax,
    ends: Option<&[usize]>,
) -> (Vec<TagParam<'a>>, bool) {
    let body = &text[span.start..span.end];
    let mut out = Vec::new();
    let mut complete = true;
    let mut pos = 0;
    // `Some(None)`: searched, no closer at or after the last search point.
    let mut known_close: Option<Option<usize>> = None;
    while let Some(attrs_start) = next_opener(body, pos, syntax) {
        let Some(attrs_len) = body[attrs_start..].find(syntax.open_end) else {
            complete = false;
            break;
        };
        let value_start = attrs_start + attrs_len + syntax.open_end.len();
        let known = known_end(ends, out.len(), span.start, value_start, body.len());
        let (value_end, next_pos) = if let Some(at) = known {
            ended_at(body, at, syntax.close, &mut complete)
        } else {
            let close_at = match known_close {
                Some(Some(c)) if c >= value_start => Some(c),
                Some(None) => None,
                _ => body[value_start..]
                    .find(syntax.close)
                    .map(|c| c + value_start),
            };
            known_close = Some(close_at);
            let next_open = next_opener(body, value_start, syntax)
                .map(|a| a - syntax.open.len())
                .filter(|o| *o >= value_start);
            match (close_at, next_open) {
                (Some(c), Some(o)) if o < c => (o, o),
                (Some(c), _) => (c, c + syntax.close.len()),
                (None, Some(o)) => (o, o),
                (None, None) => {
                    complete = false;
                    (body.len(), body.len())
                }
            }
        };
        out.push(TagParam {
            attrs: &body[attrs_start..attrs_start + attrs_len],
            value: Span::new(span.start + value_start, span.start + value_end),
        });
        pos = next_pos;
    }
    (out, complete)
}

/// Where value `index` of a body at `base` (`body_len` bytes) ends, relative to the body, when
/// the body's reading knows it ([`TagBody::ends`]) and it lies inside the body after the
/// value's start `value_start`: a value cut off by the end of the text is searched as usual.
pub(super) fn known_end(
    ends: Option<&[usize]>,
    index: usize,
    base: usize,
    value_start: usize,
    body_len: usize,
) -> Option<usize> {
    let at = ends?.get(index)?.checked_sub(base)?;
    (value_start <= at && at < body_len).then_some(at)
}

/// A value of `body` ending at `at` (relative to the body): where it ends and where the next
/// search starts, after its `close` when that is written there; a value without it (the
/// call's closer ended it) is not complete.
pub(super) fn ended_at(body: &str, at: usize, close: &str, complete: &mut bool) -> (usize, usize) {
    if body[at..].starts_with(close) {
        (at, at + close.len())
    } else {
        *complete = false;
        (at, at)
    }
}

/// Where the attributes of the next opener at or after `from` begin: after `open`, which
/// must be followed by a space or the opener's end (`<param` is not `<parameter`).
fn next_opener(body: &str, from: usize, syntax: &TagSyntax) -> Option<usize> {
    let mut pos = from;
    while let Some(found) = body[pos..].find(syntax.open) {
        let after = pos + found + syntax.open.len();
        let rest = &body[after..];
        if rest.starts_with(char::is_whitespace) || rest.starts_with(syntax.open_end) {
            return Some(after);
        }
        pos = after;
    }
    None
}

/// The value of attribute `key` in `attrs` (`name="k"`), as written.
pub(super) fn attr<'a>(attrs: &'a str, key: &str) -> Option<&'a str> {
    let mut pos = 0;
    while let Some(found) = attrs[pos..].find(key) {
        let at = pos + found;
        let before_ok = attrs[..at].ends_with(char::is_whitespace) || at == 0;
        let rest = attrs[at + key.len()..].trim_start();
        if before_ok {
            if let Some(value) = rest.strip_prefix('=').map(str::trim_start) {
                let quote = value.chars().next().filter(|q| matches!(q, '"' | '\''))?;
                let value = &value[1..];
                return value.find(quote).map(|end| &value[..end]);
            }
        }
        pos = at + key.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const DSML: TagSyntax = TagSyntax {
        open: "<p",
        open_end: ">",
        close: "</p>",
    };

    fn values(text: &str) -> (Vec<(String, String)>, bool) {
        let (params, complete) = tag_params(text, Span::new(0, text.len()), &DSML, None);
        let read = params
            .iter()
            .map(|p| {
                let name = attr(p.attrs, "name").unwrap_or_default().to_string();
                (name, text[p.value.start..p.value.end].to_string())
            })
            .collect();
        (read, complete)
    }

    #[test]
    fn parameters_are_read_in_order_with_their_attributes() {
        let (read, complete) = values(
            r#"<p name="a">1</p>
<p name='b' x="y">two</p>"#,
        );
        assert!(complete);
        assert_eq!(read, [("a".into(), "1".into()), ("b".into(), "two".into())]);
    }

    #[test]
    fn a_value_without_its_closer_ends_at_the_next_parameter_or_is_cut() {
        let (read, complete) = values(r#"<p name="a">1<p name="b">2"#);
        assert!(!complete);
        assert_eq!(read, [("a".into(), "1".into()), ("b".into(), "2".into())]);
        // `<pre` is not a `<p` opener.
        let (read, _) = values(r#"<pre>x</pre><p name="a">1</p>"#);
        assert_eq!(read.len(), 1);
    }

    #[test]
    fn an_attribute_is_matched_as_a_whole_word() {
        assert_eq!(attr(r#"rename="x" name="y""#, "name"), Some("y"));
        assert_eq!(attr(r#"name = "y""#, "name"), Some("y"));
        assert_eq!(attr("name=y", "name"), None);
    }
}
