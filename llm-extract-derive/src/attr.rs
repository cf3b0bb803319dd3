//! Attribute parsing: `#[extract(...)]`, the `#[serde(...)]` attributes we agree with, and
//! doc comments, into raw values with the spans of the tokens they came from.
//!
//! The grammar, one entry per name (see the constants below):
//!
//! ```text
//! container: rename = "..", rename_all = "<case>", tag = "..", content = "..", untagged,
//!            deny_unknown_fields, strict, validate = path, crate = "path",
//!            stream = "done", partial = "TwinName"
//! field:     alias = "..", rename = "..", default, default = path, skip, flatten, catch,
//!            with = path, strict, min = N, max = N, min_len = N, max_len = N,
//!            pattern = "regex", one_of = [lit, ..], one_of_exact = ["..", ..],
//!            validate = path,
//!            stream = "done" | "required"
//! variant:   alias = "..", rename = "..", other
//! ```

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr};

use crate::errors::Errors;

pub const ALIAS: &str = "alias";
pub const RENAME: &str = "rename";
pub const RENAME_ALL: &str = "rename_all";
pub const TAG: &str = "tag";
pub const UNTAGGED: &str = "untagged";
pub const DENY_UNKNOWN_FIELDS: &str = "deny_unknown_fields";
pub const STRICT: &str = "strict";
pub const DEFAULT: &str = "default";
pub const SKIP: &str = "skip";
pub const FLATTEN: &str = "flatten";
pub const CATCH: &str = "catch";
pub const WITH: &str = "with";
pub const MIN: &str = "min";
pub const MAX: &str = "max";
pub const MIN_LEN: &str = "min_len";
pub const MAX_LEN: &str = "max_len";
pub const PATTERN: &str = "pattern";
pub const ONE_OF: &str = "one_of";
pub const ONE_OF_EXACT: &str = "one_of_exact";
pub const VALIDATE: &str = "validate";
pub const OTHER: &str = "other";
pub const CONTENT: &str = "content";
pub const CRATE: &str = "crate";
pub const STREAM: &str = "stream";
pub const PARTIAL: &str = "partial";

/// Where an attribute is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    Container,
    Field,
    Variant,
}

impl Position {
    fn allowed(self) -> &'static [&'static str] {
        match self {
            Position::Container => &[
                RENAME,
                RENAME_ALL,
                TAG,
                CONTENT,
                UNTAGGED,
                DENY_UNKNOWN_FIELDS,
                STRICT,
                VALIDATE,
                CRATE,
                STREAM,
                PARTIAL,
            ],
            Position::Field => &[
                ALIAS,
                RENAME,
                DEFAULT,
                SKIP,
                FLATTEN,
                CATCH,
                WITH,
                STRICT,
                MIN,
                MAX,
                MIN_LEN,
                MAX_LEN,
                PATTERN,
                ONE_OF,
                ONE_OF_EXACT,
                VALIDATE,
                STREAM,
            ],
            Position::Variant => &[ALIAS, RENAME, OTHER],
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Position::Container => "a container",
            Position::Field => "a field",
            Position::Variant => "a variant",
        }
    }
}

const ALL: &[&str] = &[
    ALIAS,
    RENAME,
    RENAME_ALL,
    TAG,
    UNTAGGED,
    DENY_UNKNOWN_FIELDS,
    STRICT,
    DEFAULT,
    SKIP,
    FLATTEN,
    CATCH,
    WITH,
    MIN,
    MAX,
    MIN_LEN,
    MAX_LEN,
    PATTERN,
    ONE_OF,
    ONE_OF_EXACT,
    VALIDATE,
    OTHER,
    CONTENT,
    CRATE,
    STREAM,
    PARTIAL,
];

/// Where each name may be written, for the "not allowed here" message.
fn positions_of(name: &str) -> String {
    let mut out = Vec::new();
    for p in [Position::Container, Position::Field, Position::Variant] {
        if p.allowed().contains(&name) {
            out.push(match p {
                Position::Container => "containers",
                Position::Field => "fields",
                Position::Variant => "variants",
            });
        }
    }
    out.join(" and ")
}

/// A value and the span of the tokens it came from.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// A `min = N` / `max = N` bound: the value and the literal as written.
#[derive(Clone, Debug)]
pub struct Bound {
    pub value: f64,
    pub written: String,
}

/// One value of `one_of = [..]`.
#[derive(Clone, Debug)]
pub enum Allowed {
    Str(String),
    Number(f64),
    Bool(bool),
}

impl Allowed {
    /// What kind of literal it is, for messages: `a string`, `a number`, `a boolean`.
    pub fn kind(&self) -> &'static str {
        match self {
            Allowed::Str(_) => "a string",
            Allowed::Number(_) => "a number",
            Allowed::Bool(_) => "a boolean",
        }
    }
}

/// `one_of = [..]` or `one_of_exact = [..]`: the values, each with its tokens' span, and
/// whether strings must match exactly (else they match as enum variants do).
#[derive(Clone, Debug)]
pub struct OneOf {
    pub values: Vec<Spanned<Allowed>>,
    pub exact: bool,
}

/// `default` or `default = path`.
#[derive(Clone, Debug)]
pub enum DefaultAttr {
    Trait,
    Path(syn::ExprPath),
}

/// `stream = ".."`: how a field or type is shown while a reply streams in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamMode {
    /// `"done"`: nothing until the value is complete.
    Done,
    /// `"required"` (fields only): the enclosing object shows nothing until this field is
    /// complete.
    Required,
}

/// Every attribute found at one position, not yet checked against the others.
#[derive(Default, Debug)]
pub struct Raw {
    pub aliases: Vec<Spanned<String>>,
    pub rename: Option<Spanned<String>>,
    pub rename_all: Option<Spanned<String>>,
    pub tag: Option<Spanned<String>>,
    pub content: Option<Spanned<String>>,
    pub untagged: Option<Span>,
    pub deny_unknown_fields: Option<Span>,
    pub strict: Option<Span>,
    pub default: Option<Spanned<DefaultAttr>>,
    pub skip: Option<Span>,
    pub flatten: Option<Span>,
    pub catch: Option<Span>,
    pub with: Option<Spanned<syn::ExprPath>>,
    pub min: Option<Spanned<Bound>>,
    pub max: Option<Spanned<Bound>>,
    pub min_len: Option<Spanned<usize>>,
    pub max_len: Option<Spanned<usize>>,
    pub pattern: Option<Spanned<LitStr>>,
    pub one_of: Option<Spanned<OneOf>>,
    pub validate: Option<Spanned<syn::ExprPath>>,
    pub other: Option<Span>,
    pub krate: Option<Spanned<syn::Path>>,
    pub stream: Option<Spanned<StreamMode>>,
    pub partial: Option<Spanned<syn::Ident>>,
    /// The same names read from `#[serde(...)]`, to agree with or to reject.
    pub serde: Serde,
    /// Doc comment lines joined.
    pub doc: Option<String>,
}

/// What `#[serde(...)]` says about the names and defaults we share.
#[derive(Default, Debug)]
pub struct Serde {
    pub rename: Option<Spanned<String>>,
    pub aliases: Vec<Spanned<String>>,
    pub rename_all: Option<Spanned<String>>,
    pub tag: Option<Spanned<String>>,
    pub content: Option<Spanned<String>>,
    pub untagged: bool,
    pub deny_unknown_fields: bool,
    pub default: Option<Spanned<DefaultAttr>>,
    pub skip: bool,
    pub flatten: bool,
}

/// Edit distance, for did-you-mean hints.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The closest of `candidates` to `name`, if close enough to be a typo.
pub fn did_you_mean<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (distance(name, c), *c))
        .filter(|(d, c)| *d <= (c.len().max(name.len()) / 3).max(1) + 1)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn set<T>(slot: &mut Option<Spanned<T>>, value: T, span: Span, name: &str, errors: &mut Errors) {
    if slot.is_some() {
        errors.push(syn::Error::new(
            span,
            format!("duplicate extract attribute `{name}`"),
        ));
    } else {
        *slot = Some(Spanned { value, span });
    }
}

fn flag(slot: &mut Option<Span>, span: Span, name: &str, errors: &mut Errors) {
    if slot.is_some() {
        errors.push(syn::Error::new(
            span,
            format!("duplicate extract attribute `{name}`"),
        ));
    } else {
        *slot = Some(span);
    }
}

/// A path given bare (`default = my::func`) or as a string (`default = "my::func"`, serde's form).
fn parse_path(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::ExprPath> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Path(p) => Ok(p),
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => s.parse(),
        other => Err(syn::Error::new(
            other.span(),
            "expected a path such as `my_module::my_fn`",
        )),
    }
}

fn parse_bound(meta: &ParseNestedMeta<'_>) -> syn::Result<Bound> {
    let expr: Expr = meta.value()?.parse()?;
    let (negative, lit) = match &expr {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
            Expr::Lit(ExprLit { lit, .. }) => (true, lit.clone()),
            _ => return Err(syn::Error::new(expr.span(), "expected a number")),
        },
        Expr::Lit(ExprLit { lit, .. }) => (false, lit.clone()),
        _ => return Err(syn::Error::new(expr.span(), "expected a number")),
    };
    let (value, digits) = match &lit {
        Lit::Int(i) => (i.base10_parse::<f64>()?, i.base10_digits().to_string()),
        Lit::Float(f) => (f.base10_parse::<f64>()?, f.base10_digits().to_string()),
        _ => return Err(syn::Error::new(lit.span(), "expected a number")),
    };
    let sign = if negative { "-" } else { "" };
    Ok(Bound {
        value: if negative { -value } else { value },
        written: format!("{sign}{digits}"),
    })
}

fn parse_one_of(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<Spanned<Allowed>>> {
    let expr: Expr = meta.value()?.parse()?;
    let Expr::Array(array) = expr else {
        return Err(syn::Error::new(
            expr.span(),
            "expected a list of literals such as `[\"a\", \"b\"]`",
        ));
    };
    let mut out = Vec::new();
    for item in array.elems {
        let (negative, lit) = match &item {
            Expr::Lit(ExprLit { lit, .. }) => (false, lit.clone()),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => match &*u.expr {
                Expr::Lit(ExprLit { lit, .. }) => (true, lit.clone()),
                _ => return Err(syn::Error::new(item.span(), "expected a literal")),
            },
            _ => {
                return Err(syn::Error::new(
                    item.span(),
                    "expected a string, number or boolean literal",
                ))
            }
        };
        let sign = if negative { -1.0 } else { 1.0 };
        let value = match lit {
            Lit::Str(s) if !negative => Allowed::Str(s.value()),
            Lit::Bool(b) if !negative => Allowed::Bool(b.value),
            Lit::Int(i) => Allowed::Number(sign * i.base10_parse::<f64>()?),
            Lit::Float(f) => Allowed::Number(sign * f.base10_parse::<f64>()?),
            other => {
                return Err(syn::Error::new(
                    other.span(),
                    "expected a string, number or boolean literal",
                ))
            }
        };
        out.push(Spanned {
            value,
            span: item.span(),
        });
    }
    Ok(out)
}

/// Reads every `#[extract]`, `#[serde]` and doc attribute at one position. Mistakes are
/// pushed to `errors` and parsing goes on, so one compile reports them all.
pub fn parse(attrs: &[Attribute], position: Position, errors: &mut Errors) -> Raw {
    let mut raw = Raw::default();
    let mut doc = Vec::new();
    for attr in attrs {
        if attr.path().is_ident("doc") {
            if let syn::Meta::NameValue(nv) = &attr.meta {
                if let Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) = &nv.value
                {
                    doc.push(s.value());
                }
            }
        } else if attr.path().is_ident("extract") {
            let result = attr.parse_nested_meta(|meta| {
                parse_one(&meta, position, &mut raw, errors);
                Ok(())
            });
            if let Err(e) = result {
                errors.push(e);
            }
        } else if attr.path().is_ident("serde") {
            // Unknown serde attributes are serde's business; ours only reads what we share.
            let _ = attr.parse_nested_meta(|meta| {
                parse_serde(&meta, &mut raw.serde);
                Ok(())
            });
        }
    }
    let text: Vec<&str> = doc
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect();
    let joined = text.join("\n").trim().to_string();
    if !joined.is_empty() {
        raw.doc = Some(joined);
    }
    raw
}

/// Reads one `name` or `name = value` inside `#[extract(...)]`: the name is checked against
/// where it is written, then its value is read by its group's grammar below.
fn parse_one(meta: &ParseNestedMeta<'_>, position: Position, raw: &mut Raw, errors: &mut Errors) {
    let span = meta.path.span();
    let Some(name) = meta.path.get_ident().map(|i| i.to_string()) else {
        errors.push(syn::Error::new(
            span,
            "expected an attribute name such as `rename`",
        ));
        skip_value(meta);
        return;
    };
    if !position.allowed().contains(&name.as_str()) {
        errors.push(syn::Error::new(span, not_allowed(&name, position)));
        skip_value(meta);
        return;
    }
    let result = match name.as_str() {
        ALIAS | RENAME | RENAME_ALL | TAG | CONTENT | CRATE => {
            parse_naming(meta, &name, span, raw, errors)
        }
        UNTAGGED | DENY_UNKNOWN_FIELDS | STRICT | SKIP | FLATTEN | CATCH | OTHER => {
            parse_switch(&name, span, raw, errors);
            Ok(())
        }
        DEFAULT | WITH => parse_source(meta, &name, span, raw, errors),
        MIN | MAX | MIN_LEN | MAX_LEN | PATTERN | ONE_OF | ONE_OF_EXACT | VALIDATE => {
            parse_rule(meta, &name, span, raw, errors)
        }
        STREAM | PARTIAL => parse_streaming(meta, &name, position, span, raw, errors),
        _ => unreachable!("every allowed name has a branch"),
    };
    if let Err(e) = result {
        errors.push(e);
        skip_value(meta);
    }
}

/// The message for a name not allowed at `position`: where it belongs if it is ours,
/// otherwise the closest name (or the list of names) that is.
fn not_allowed(name: &str, position: Position) -> String {
    if ALL.contains(&name) {
        return format!(
            "`{name}` is not allowed on {}; it applies to {}",
            position.describe(),
            positions_of(name)
        );
    }
    match did_you_mean(name, position.allowed()).or_else(|| did_you_mean(name, ALL)) {
        Some(hint) => format!("unknown extract attribute `{name}`; did you mean `{hint}`?"),
        None => format!(
            "unknown extract attribute `{name}`; expected one of {}",
            position
                .allowed()
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What a thing is called and how it is written: names, tags, the runtime crate's path.
fn parse_naming(
    meta: &ParseNestedMeta<'_>,
    name: &str,
    span: Span,
    raw: &mut Raw,
    errors: &mut Errors,
) -> syn::Result<()> {
    match name {
        // alias = "name"   (repeatable)
        ALIAS => {
            let s: LitStr = meta.value()?.parse()?;
            raw.aliases.push(Spanned {
                value: s.value(),
                span: s.span(),
            });
        }
        // rename = "name"
        RENAME => {
            let s: LitStr = meta.value()?.parse()?;
            set(&mut raw.rename, s.value(), span, RENAME, errors);
        }
        // rename_all = "snake_case"
        RENAME_ALL => {
            let s: LitStr = meta.value()?.parse()?;
            set(&mut raw.rename_all, s.value(), s.span(), RENAME_ALL, errors);
        }
        // tag = "type"
        TAG => {
            let s: LitStr = meta.value()?.parse()?;
            set(&mut raw.tag, s.value(), span, TAG, errors);
        }
        // content = "arguments"   (with `tag`: adjacently tagged)
        CONTENT => {
            let s: LitStr = meta.value()?.parse()?;
            set(&mut raw.content, s.value(), span, CONTENT, errors);
        }
        // crate = "path::to::llm_extract"   (a re-export of the runtime crate)
        CRATE => {
            let p = parse_path(meta)?;
            set(&mut raw.krate, p.path, span, CRATE, errors);
        }
        _ => unreachable!("parse_one sends only naming attributes here"),
    }
    Ok(())
}

/// The bare switches, which take no value.
fn parse_switch(name: &str, span: Span, raw: &mut Raw, errors: &mut Errors) {
    let slot = match name {
        // untagged
        UNTAGGED => &mut raw.untagged,
        // deny_unknown_fields
        DENY_UNKNOWN_FIELDS => &mut raw.deny_unknown_fields,
        // strict
        STRICT => &mut raw.strict,
        // skip
        SKIP => &mut raw.skip,
        // flatten
        FLATTEN => &mut raw.flatten,
        // catch
        CATCH => &mut raw.catch,
        // other
        OTHER => &mut raw.other,
        _ => unreachable!("parse_one sends only switches here"),
    };
    flag(slot, span, name, errors);
}

/// Where a field's value comes from when it is not read as usual.
fn parse_source(
    meta: &ParseNestedMeta<'_>,
    name: &str,
    span: Span,
    raw: &mut Raw,
    errors: &mut Errors,
) -> syn::Result<()> {
    match name {
        // default | default = path::to_fn
        DEFAULT => {
            let value = if meta.input.peek(syn::Token![=]) {
                DefaultAttr::Path(parse_path(meta)?)
            } else {
                DefaultAttr::Trait
            };
            set(&mut raw.default, value, span, DEFAULT, errors);
        }
        // with = path::to_module
        WITH => {
            let p = parse_path(meta)?;
            set(&mut raw.with, p, span, WITH, errors);
        }
        _ => unreachable!("parse_one sends only value sources here"),
    }
    Ok(())
}

/// The validation rules.
fn parse_rule(
    meta: &ParseNestedMeta<'_>,
    name: &str,
    span: Span,
    raw: &mut Raw,
    errors: &mut Errors,
) -> syn::Result<()> {
    match name {
        // min = N
        MIN => {
            let b = parse_bound(meta)?;
            set(&mut raw.min, b, span, MIN, errors);
        }
        // max = N
        MAX => {
            let b = parse_bound(meta)?;
            set(&mut raw.max, b, span, MAX, errors);
        }
        // min_len = N
        MIN_LEN => {
            let n: syn::LitInt = meta.value()?.parse()?;
            set(&mut raw.min_len, n.base10_parse()?, span, MIN_LEN, errors);
        }
        // max_len = N
        MAX_LEN => {
            let n: syn::LitInt = meta.value()?.parse()?;
            set(&mut raw.max_len, n.base10_parse()?, span, MAX_LEN, errors);
        }
        // pattern = "regex"
        PATTERN => {
            let s: LitStr = meta.value()?.parse()?;
            if let Err(e) = regex::Regex::new(&s.value()) {
                let text = e.to_string();
                let last = text.lines().last().unwrap_or_default().trim();
                let first = last.strip_prefix("error: ").unwrap_or(last).to_string();
                errors.push(syn::Error::new(
                    s.span(),
                    format!("invalid `pattern`: {first}"),
                ));
            }
            set(&mut raw.pattern, s.clone(), span, PATTERN, errors);
        }
        // one_of = ["a", "b"] | [1, 2]   one_of_exact = ["a", "b"]
        ONE_OF | ONE_OF_EXACT => {
            let values = parse_one_of(meta)?;
            let exact = name == ONE_OF_EXACT;
            if raw.one_of.as_ref().is_some_and(|o| o.value.exact != exact) {
                let message =
                    "`one_of` and `one_of_exact` cannot both be given: choose how strings compare";
                errors.push(syn::Error::new(span, message));
            } else {
                set(&mut raw.one_of, OneOf { values, exact }, span, name, errors);
            }
        }
        // validate = path::to_fn
        VALIDATE => {
            let p = parse_path(meta)?;
            set(&mut raw.validate, p, span, VALIDATE, errors);
        }
        _ => unreachable!("parse_one sends only validation rules here"),
    }
    Ok(())
}

/// How a value is shown while a reply streams in.
fn parse_streaming(
    meta: &ParseNestedMeta<'_>,
    name: &str,
    position: Position,
    span: Span,
    raw: &mut Raw,
    errors: &mut Errors,
) -> syn::Result<()> {
    match name {
        // stream = "done" | "required"   ("required" on fields only)
        STREAM => {
            let s: LitStr = meta.value()?.parse()?;
            let mode = match (s.value().as_str(), position) {
                ("done", _) => StreamMode::Done,
                ("required", Position::Field) => StreamMode::Required,
                ("required", _) => {
                    return Err(syn::Error::new(
                        s.span(),
                        "`stream = \"required\"` applies to fields (it holds back the object \
                         around the field); on a type use `stream = \"done\"`",
                    ))
                }
                (other, _) => {
                    let hint = did_you_mean(other, &["done", "required"])
                        .map(|h| format!("; did you mean `{h}`?"))
                        .unwrap_or_default();
                    return Err(syn::Error::new(
                        s.span(),
                        format!(
                            "unknown `stream` mode `{other}`; expected `\"done\"` or \
                             `\"required\"`{hint}"
                        ),
                    ));
                }
            };
            set(&mut raw.stream, mode, span, STREAM, errors);
        }
        // partial = "OrderSnapshot"   (the name of the generated partial twin)
        PARTIAL => {
            let s: LitStr = meta.value()?.parse()?;
            let ident = syn::parse_str::<syn::Ident>(&s.value()).map_err(|_| {
                syn::Error::new(
                    s.span(),
                    format!(
                        "`partial` must name a type, such as `OrderSnapshot`, not `{}`",
                        s.value()
                    ),
                )
            })?;
            let ident = syn::Ident::new(&ident.to_string(), s.span());
            set(&mut raw.partial, ident, span, PARTIAL, errors);
        }
        _ => unreachable!("parse_one sends only streaming attributes here"),
    }
    Ok(())
}

/// Consumes `= value` or `(...)` after a name we could not use, so parsing can go on.
fn skip_value(meta: &ParseNestedMeta<'_>) {
    if meta.input.peek(syn::Token![=]) {
        let _ = meta.value().and_then(|v| v.parse::<Expr>());
    } else if meta.input.peek(syn::token::Paren) {
        let _ = meta.parse_nested_meta(|inner| {
            skip_value(&inner);
            Ok(())
        });
    }
}

fn parse_serde(meta: &ParseNestedMeta<'_>, serde: &mut Serde) {
    let span = meta.path.span();
    let name = meta
        .path
        .get_ident()
        .map(|i| i.to_string())
        .unwrap_or_default();
    let lit = |meta: &ParseNestedMeta<'_>| -> Option<Spanned<String>> {
        let s: LitStr = meta.value().ok()?.parse().ok()?;
        Some(Spanned {
            value: s.value(),
            span: s.span(),
        })
    };
    match name.as_str() {
        "rename" if meta.input.peek(syn::Token![=]) => serde.rename = lit(meta),
        "alias" => serde.aliases.extend(lit(meta)),
        "rename_all" if meta.input.peek(syn::Token![=]) => serde.rename_all = lit(meta),
        "tag" => serde.tag = lit(meta),
        "content" => serde.content = lit(meta),
        "untagged" => serde.untagged = true,
        "deny_unknown_fields" => serde.deny_unknown_fields = true,
        "skip" | "skip_deserializing" => serde.skip = true,
        "flatten" => serde.flatten = true,
        "default" => {
            let value = if meta.input.peek(syn::Token![=]) {
                match parse_path(meta) {
                    Ok(p) => DefaultAttr::Path(p),
                    Err(_) => return,
                }
            } else {
                DefaultAttr::Trait
            };
            serde.default = Some(Spanned { value, span });
        }
        _ => skip_value(meta),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_typos_only() {
        assert_eq!(did_you_mean("aliass", ALL), Some("alias"));
        assert_eq!(did_you_mean("min_length", ALL), Some("min_len"));
        assert_eq!(did_you_mean("renameall", ALL), Some("rename_all"));
        assert_eq!(did_you_mean("zzzzzz", ALL), None);
    }
}
