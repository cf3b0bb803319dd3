//! Cross-attribute checks, one function per rule; each pushes its mistakes and goes on.

use proc_macro2::Span;

use crate::ast::{
    collection, peel, type_name, Container, Data, Field, Style, Tagging, Variant, Written,
};
use crate::attr::{did_you_mean, Raw, Spanned};
use crate::case;
use crate::errors::Errors;

/// Every rule, in the order their mistakes are reported: the container's, then each field
/// or variant in declaration order.
pub fn check(c: &Container<'_>, written: &Written, errors: &mut Errors) {
    rename_all_is_a_known_case(&written.container, errors);
    tagging_applies_to_enums(c, errors);
    content_needs_a_tag(c, errors);
    serde_and_extract_agree(&written.container, errors);
    match &c.data {
        Data::Struct(style, fields) => {
            fields_are_consistent(fields, &written.fields, *style, c.deny_unknown, errors);
        }
        Data::Enum(variants) => {
            other_is_on_one_fitting_variant(variants, errors);
            internally_tagged_variants_are_objects(c, variants, errors);
            names_are_unique(
                variants.iter().map(|v| (&v.name, v.span)),
                "variant",
                errors,
            );
            for (v, (raw, fields)) in variants.iter().zip(&written.variants) {
                serde_and_extract_agree(raw, errors);
                fields_are_consistent(&v.fields, fields, v.style, c.deny_unknown, errors);
            }
        }
    }
}

fn err(errors: &mut Errors, span: Span, message: impl std::fmt::Display) {
    errors.push(syn::Error::new(span, message));
}

/// `rename_all` names one of serde's cases.
fn rename_all_is_a_known_case(raw: &Raw, errors: &mut Errors) {
    if let Some(r) = &raw.rename_all {
        if case::Case::from_name(&r.value).is_none() {
            let message = match did_you_mean(&r.value, case::NAMES) {
                Some(hint) => format!(
                    "unknown case `{}` for `rename_all`; did you mean `{hint}`?",
                    r.value
                ),
                None => format!(
                    "unknown case `{}` for `rename_all`; expected one of {}",
                    r.value,
                    case::NAMES
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            err(errors, r.span, message);
        }
    }
}

/// `tag`, `content` and `untagged` choose how enum variants are told apart, so they apply
/// to enums only, and `untagged` excludes the other two.
fn tagging_applies_to_enums(c: &Container<'_>, errors: &mut Errors) {
    if let Data::Struct(..) = c.data {
        if let Some(t) = &c.tag {
            err(
                errors,
                t.span,
                "`tag` applies to enums; a struct has no variants to tag",
            );
        }
        if let Some(t) = &c.content {
            err(
                errors,
                t.span,
                "`content` applies to enums; a struct has no variants to tag",
            );
        }
        if let Some(span) = c.untagged {
            err(
                errors,
                span,
                "`untagged` applies to enums; a struct has no variants",
            );
        }
    }
    if let (Some(t), Some(_)) = (&c.tag, c.untagged) {
        err(
            errors,
            t.span,
            "`tag` and `untagged` cannot be used together",
        );
    }
}

/// `content` names the key beside the tag that holds a variant's fields (adjacent tagging),
/// so it means nothing without `tag`, and cannot be the tag's own key.
fn content_needs_a_tag(c: &Container<'_>, errors: &mut Errors) {
    let (Data::Enum(_), Some(content)) = (&c.data, &c.content) else {
        return;
    };
    match &c.tag {
        None => err(
            errors,
            content.span,
            "`content` needs `tag`: `#[extract(tag = \"..\", content = \"..\")]` reads `{\"<tag>\": \"Variant\", \"<content>\": ..}`",
        ),
        Some(tag) if tag.value == content.value => err(
            errors,
            content.span,
            format!("`tag` and `content` are both `{}`; the tag and the content need two different keys", tag.value),
        ),
        Some(_) => {}
    }
}

/// Where both `#[serde(..)]` and `#[extract(..)]` name something, they name the same thing:
/// a type read by serde and by us must not silently disagree.
fn serde_and_extract_agree(raw: &Raw, errors: &mut Errors) {
    type Named<'r> = &'r Option<Spanned<String>>;
    let pairs: [(&str, Named<'_>, Named<'_>); 4] = [
        ("rename", &raw.rename, &raw.serde.rename),
        ("rename_all", &raw.rename_all, &raw.serde.rename_all),
        ("tag", &raw.tag, &raw.serde.tag),
        ("content", &raw.content, &raw.serde.content),
    ];
    for (name, ours, theirs) in pairs {
        if let (Some(a), Some(b)) = (ours, theirs) {
            if a.value != b.value {
                let message = format!(
                    "conflicting `{name}`: `#[extract({name} = {:?})]` but `#[serde({name} = {:?})]`; keep one",
                    a.value, b.value
                );
                err(errors, a.span, message);
            }
        }
    }
}

/// `other` catches unknown names, so only one variant may have it, and it must be able to
/// hold an unknown name: a unit variant, or a newtype variant of `String`.
fn other_is_on_one_fitting_variant(variants: &[Variant<'_>], errors: &mut Errors) {
    let mut seen = false;
    for v in variants {
        let Some(span) = v.other else { continue };
        if seen {
            err(errors, span, "`other` can be on only one variant");
        }
        seen = true;
        let fits = match v.style {
            Style::Unit => true,
            Style::Newtype => type_name(v.fields[0].ty).as_deref() == Some("String"),
            _ => false,
        };
        if !fits {
            err(
                errors,
                span,
                "`other` applies to a unit variant or a newtype variant holding `String`",
            );
        }
    }
}

/// An internally tagged variant's content sits next to the tag in one object, so tuple
/// variants (which are arrays) cannot be internally tagged.
fn internally_tagged_variants_are_objects(
    c: &Container<'_>,
    variants: &[Variant<'_>],
    errors: &mut Errors,
) {
    if !matches!(c.tagging(), Tagging::Internal { .. }) {
        return;
    }
    for v in variants {
        if v.style == Style::Tuple {
            err(
                errors,
                v.span,
                "a tuple variant cannot be internally tagged (`tag`); use named fields",
            );
        }
    }
}

/// Two fields or variants with one name would make every key ambiguous.
fn names_are_unique<'n>(
    names: impl Iterator<Item = (&'n String, Span)>,
    what: &str,
    errors: &mut Errors,
) {
    // Keys are matched after normalization, so names equal after it are one key too.
    let normalize = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let mut seen: Vec<(&String, String)> = Vec::new();
    for (name, span) in names {
        let normalized = normalize(name);
        if let Some((other, _)) = seen
            .iter()
            .find(|(n, norm)| *n == name || *norm == normalized)
        {
            if *other == name {
                err(errors, span, format!("two {what}s are named `{name}`"));
            } else {
                let message = format!(
                    "`{name}` and `{other}` differ only in case or separators, and keys are matched after normalizing both"
                );
                err(errors, span, message);
            }
        }
        seen.push((name, normalized));
    }
}

const NUMBERS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize", "f32",
    "f64",
];
const LISTS: &[&str] = &[
    "Vec", "VecDeque", "HashSet", "BTreeSet", "HashMap", "BTreeMap", "Map",
];

fn fields_are_consistent(
    fields: &[Field<'_>],
    written: &[Raw],
    style: Style,
    deny_unknown: bool,
    errors: &mut Errors,
) {
    if style == Style::Named {
        names_are_unique(
            fields
                .iter()
                .filter(|f| !f.skip && !f.is_flatten())
                .map(|f| (&f.name, f.name_span)),
            "field",
            errors,
        );
    }
    for (f, raw) in fields.iter().zip(written) {
        skipped_fields_have_no_other_attributes(raw, !f.rules.is_empty(), f.span, errors);
        flatten_takes_the_remaining_keys(f, style, deny_unknown, errors);
        flatten_has_no_key_of_its_own(raw, errors);
        required_has_a_key(raw, style, errors);
        rules_fit_the_type(f, errors);
        one_of_values_fit(f, errors);
        bounds_are_ordered(f, errors);
        serde_and_extract_agree(raw, errors);
    }
}

/// A skipped field is never read, so reading attributes on it would be dead.
fn skipped_fields_have_no_other_attributes(
    raw: &Raw,
    has_rules: bool,
    ty_span: Span,
    errors: &mut Errors,
) {
    if raw.skip.is_none() && !raw.serde.skip {
        return;
    }
    let mut dead: Vec<(&str, Span)> = raw.aliases.iter().map(|a| ("alias", a.span)).collect();
    dead.extend(raw.rename.as_ref().map(|r| ("rename", r.span)));
    dead.extend(raw.flatten.map(|s| ("flatten", s)));
    dead.extend(raw.catch.map(|s| ("catch", s)));
    dead.extend(raw.with.as_ref().map(|w| ("with", w.span)));
    dead.extend(raw.strict.map(|s| ("strict", s)));
    dead.extend(raw.stream.as_ref().map(|s| ("stream", s.span)));
    if has_rules {
        dead.push(("validation rules", ty_span));
    }
    for (name, span) in dead {
        err(
            errors,
            span,
            format!("`{name}` has no effect on a `skip` field, which is never read"),
        );
    }
}

/// `stream = "required"` holds an object back until a member arrives: a tuple's element has
/// no key to wait for.
fn required_has_a_key(raw: &Raw, style: Style, errors: &mut Errors) {
    if let Some(s) = &raw.stream {
        if s.value == crate::attr::StreamMode::Required && style != Style::Named {
            err(
                errors,
                s.span,
                "`stream = \"required\"` needs a named field: it holds the enclosing object back until that key's value is complete",
            );
        }
    }
}

/// A `flatten` field takes the keys no other field matched; it has no key of its own to
/// rename or alias.
fn flatten_has_no_key_of_its_own(raw: &Raw, errors: &mut Errors) {
    if raw.flatten.is_none() {
        return;
    }
    for a in &raw.aliases {
        err(
            errors,
            a.span,
            "`alias` has no effect on a `flatten` field, which has no key of its own",
        );
    }
    if let Some(r) = &raw.rename {
        err(
            errors,
            r.span,
            "`rename` has no effect on a `flatten` field, which has no key of its own",
        );
    }
}

/// `flatten` takes the keys no other field matched, which needs named fields and unknown
/// keys to be allowed.
fn flatten_takes_the_remaining_keys(
    f: &Field<'_>,
    style: Style,
    deny_unknown: bool,
    errors: &mut Errors,
) {
    let Some(span) = f.flatten else { return };
    if style != Style::Named {
        err(errors, span, "`flatten` applies to named fields");
    }
    if deny_unknown {
        err(
            errors,
            span,
            "`flatten` cannot be combined with `deny_unknown_fields`",
        );
    }
}

/// A rule applies only to values it can measure: `min`/`max` to numbers, `min_len`/`max_len`
/// to strings and collections, `pattern` to strings, `one_of` to strings, numbers and
/// booleans. On a collection, `min`, `max`, `pattern` and `one_of` apply to each item and
/// `min_len`/`max_len` to its length. Types the macro cannot see through are checked by the
/// compiler (each rule's trait bound names the rule).
fn rules_fit_the_type(f: &Field<'_>, errors: &mut Errors) {
    let raw = &f.rules;
    // The length rules look at the value itself (through Option and Box).
    let (_, outer) = peel(f.ty);
    if let Some((k, name)) = kind(outer) {
        if k == Kind::Number || k == Kind::Bool {
            for span in raw
                .min_len
                .iter()
                .map(|s| s.span)
                .chain(raw.max_len.iter().map(|s| s.span))
            {
                let message = format!(
                    "`min_len` and `max_len` apply to strings and collections, not to `{name}`"
                );
                err(errors, span, message);
            }
        }
    }
    let Some((k, name)) = kind(item_type(f)) else {
        return;
    };
    if k != Kind::Number {
        for span in raw.min.iter().chain(raw.max.iter()).map(|s| s.span) {
            err(
                errors,
                span,
                format!("`min` and `max` apply to numbers, not to `{name}`"),
            );
        }
    }
    if k != Kind::Str {
        if let Some(p) = &raw.pattern {
            err(
                errors,
                p.span,
                format!("`pattern` applies to strings, not to `{name}`"),
            );
        }
    }
    if k == Kind::List {
        if let Some(o) = &raw.one_of {
            let message =
                format!("`one_of` applies to strings, numbers and booleans, not to `{name}`");
            err(errors, o.span, message);
        }
    }
}

/// What a field's type is, for the rules: the kinds the macro can see.
#[derive(PartialEq)]
enum Kind {
    Number,
    Str,
    List,
    Bool,
}

/// The kind of `ty` and its name, when the macro can tell (not through a type alias).
fn kind(ty: &syn::Type) -> Option<(Kind, String)> {
    let name = type_name(ty)?;
    let kind = if NUMBERS.contains(&name.as_str()) {
        Kind::Number
    } else if name == "String" || name == "str" {
        Kind::Str
    } else if LISTS.contains(&name.as_str())
        || matches!(crate::ast::unwrapped(ty), syn::Type::Array(_))
    {
        Kind::List
    } else if name == "bool" {
        Kind::Bool
    } else {
        return None;
    };
    Some((kind, name))
}

/// The type the value rules look at: each item of a collection, or the value (through
/// `Option` and `Box`).
fn item_type<'t>(f: &Field<'t>) -> &'t syn::Type {
    match collection(f.ty) {
        Some((_, _, item)) => peel(item).1,
        None => peel(f.ty).1,
    }
}

/// `one_of` lists values of one kind, the field's when the macro can see it (strings for a
/// string, numbers for a number, booleans for a `bool`); `one_of_exact` lists strings. A
/// value of another kind could never match: it is an error at that value.
fn one_of_values_fit(f: &Field<'_>, errors: &mut Errors) {
    let Some(one_of) = &f.rules.one_of else {
        return;
    };
    let expected = match (kind(item_type(f)), one_of.value.exact) {
        (_, true) => Some(("a string", "`one_of_exact` compares strings".to_string())),
        (Some((Kind::Str, name)), _) => Some(("a string", format!("the field is `{name}`"))),
        (Some((Kind::Number, name)), _) => Some(("a number", format!("the field is `{name}`"))),
        (Some((Kind::Bool, name)), _) => Some(("a boolean", format!("the field is `{name}`"))),
        // Lists are reported by `rules_fit_the_type`; other types by the compiler.
        (Some((Kind::List, _)), _) => return,
        (None, _) => None,
    };
    let first = one_of.value.values.first().map(|v| v.value.kind());
    for v in &one_of.value.values {
        let found = v.value.kind();
        match &expected {
            Some((kind, why)) if found != *kind => {
                err(
                    errors,
                    v.span,
                    format!("expected {kind}, found {found}: {why}"),
                );
            }
            None if Some(found) != first => {
                let first = first.unwrap_or_default();
                let message =
                    format!("expected {first} like the first value, found {found}: `one_of` lists values of one kind");
                err(errors, v.span, message);
            }
            _ => {}
        }
    }
}

/// `min` must not exceed `max`, nor `min_len` exceed `max_len`: no value could pass.
fn bounds_are_ordered(f: &Field<'_>, errors: &mut Errors) {
    if let (Some(min), Some(max)) = (&f.rules.min, &f.rules.max) {
        if min.value.value > max.value.value {
            err(
                errors,
                min.span,
                format!(
                    "`min = {}` is greater than `max = {}`",
                    min.value.written, max.value.written
                ),
            );
        }
    }
    if let (Some(min), Some(max)) = (&f.rules.min_len, &f.rules.max_len) {
        if min.value > max.value {
            err(
                errors,
                min.span,
                format!(
                    "`min_len = {}` is greater than `max_len = {}`",
                    min.value, max.value
                ),
            );
        }
    }
}
