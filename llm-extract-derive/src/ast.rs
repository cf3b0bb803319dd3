//! The checked model of the type: names resolved (rename, rename_all, serde's agreement),
//! defaults and rules gathered, and the spans the cross-attribute checks point at. It keeps
//! no raw attributes: code generation reads only this.

use proc_macro2::Span;
use syn::spanned::Spanned as _;
use syn::{Data as SynData, DeriveInput, Fields, Generics, Ident, Member, Type};

use crate::attr::{self, Bound, DefaultAttr, OneOf, Position, Raw, Spanned, StreamMode};
use crate::case::Case;
use crate::errors::Errors;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub vis: &'a syn::Visibility,
    pub generics: &'a Generics,
    /// The partial twin's name: `partial = ".."`, or `{Type}Partial`.
    pub partial: Ident,
    /// `stream = "done"`: the type shows nothing while streaming until complete.
    pub stream_done: bool,
    pub name: String,
    // Descriptions are read only by the schema generation.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    pub doc: Option<String>,
    /// `tag = ".."` (ours or serde's), where it was written.
    pub tag: Option<Spanned<String>>,
    /// `content = ".."` (ours or serde's), where it was written.
    pub content: Option<Spanned<String>>,
    /// `untagged`, where it was written.
    pub untagged: Option<Span>,
    pub deny_unknown: bool,
    pub strict: bool,
    /// `validate = path` on the container: a cross-field rule, `fn(&Self) -> Result<(), String>`.
    pub validate: Option<Spanned<syn::ExprPath>>,
    /// The runtime crate's path (`crate = ".."`, or `::llm_extract`).
    pub krate: syn::Path,
    pub data: Data<'a>,
}

/// How the variants of an enum are told apart in the input.
#[derive(Clone, Copy, Debug)]
pub enum Tagging<'c> {
    /// `"Name"` or `{"Name": content}`.
    External,
    /// `{"tag": "Name", ..fields}`.
    Internal { tag: &'c str },
    /// `{"tag": "Name", "content": content}`.
    Adjacent { tag: &'c str, content: &'c str },
    /// No name at all: every variant is tried.
    Untagged,
}

impl Container<'_> {
    /// How variants are told apart; the checks make the attributes consistent first
    /// (`untagged` wins over `tag` only in a model that has already reported the conflict).
    pub fn tagging(&self) -> Tagging<'_> {
        match (&self.tag, &self.content, self.untagged) {
            (_, _, Some(_)) => Tagging::Untagged,
            (Some(t), Some(c), None) => Tagging::Adjacent {
                tag: &t.value,
                content: &c.value,
            },
            (Some(t), None, None) => Tagging::Internal { tag: &t.value },
            (None, _, None) => Tagging::External,
        }
    }

    /// The path generated code reaches the runtime through: `<crate>::__private`.
    pub fn rt(&self) -> proc_macro2::TokenStream {
        let krate = &self.krate;
        quote::quote!(#krate::__private)
    }
}

/// The runtime crate's path when none is given.
pub fn default_crate() -> syn::Path {
    syn::parse_quote!(::llm_extract)
}

pub enum Data<'a> {
    Struct(Style, Vec<Field<'a>>),
    Enum(Vec<Variant<'a>>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Named,
    Tuple,
    Newtype,
    Unit,
}

pub struct Field<'a> {
    pub member: Member,
    pub vis: &'a syn::Visibility,
    pub ty: &'a Type,
    /// `stream = ".."`: how the field shows while streaming.
    pub stream: Option<StreamMode>,
    /// The field's type, where per-field code is spanned (a missing bound points there).
    pub span: Span,
    pub name: String,
    /// Where the name is written: its `rename`, or its identifier.
    pub name_span: Span,
    pub aliases: Vec<String>,
    pub default: Option<DefaultAttr>,
    pub skip: bool,
    /// `flatten`, where it was written.
    pub flatten: Option<Span>,
    pub catch: bool,
    pub with: Option<syn::ExprPath>,
    pub strict: bool,
    pub rules: Rules,
    // Descriptions are read only by the schema generation.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    pub doc: Option<String>,
}

impl Field<'_> {
    pub fn is_flatten(&self) -> bool {
        self.flatten.is_some()
    }
}

/// A field's validation rules, each with the span of the tokens it was written as.
#[derive(Default)]
pub struct Rules {
    pub min: Option<Spanned<Bound>>,
    pub max: Option<Spanned<Bound>>,
    pub min_len: Option<Spanned<usize>>,
    pub max_len: Option<Spanned<usize>>,
    pub pattern: Option<Spanned<syn::LitStr>>,
    pub one_of: Option<Spanned<OneOf>>,
    pub validate: Option<Spanned<syn::ExprPath>>,
}

impl Rules {
    pub fn is_empty(&self) -> bool {
        self.min.is_none()
            && self.max.is_none()
            && self.min_len.is_none()
            && self.max_len.is_none()
            && self.pattern.is_none()
            && self.one_of.is_none()
            && self.validate.is_none()
    }
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    pub span: Span,
    pub name: String,
    pub aliases: Vec<String>,
    pub style: Style,
    pub fields: Vec<Field<'a>>,
    /// `other`, where it was written.
    pub other: Option<Span>,
    // Descriptions are read only by the schema generation.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    pub doc: Option<String>,
}

impl Variant<'_> {
    pub fn is_other(&self) -> bool {
        self.other.is_some()
    }
}

fn unraw(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}

fn style(fields: &Fields) -> Style {
    match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(u) if u.unnamed.len() == 1 => Style::Newtype,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    }
}

/// Ours if written, else serde's: the checks have reported any disagreement.
fn either<T: Clone>(ours: &Option<Spanned<T>>, serde: &Option<Spanned<T>>) -> Option<Spanned<T>> {
    ours.as_ref().or(serde.as_ref()).cloned()
}

/// The attributes as written, in the shape of the model, for the checks that need to see
/// what was written (a `skip` field's other attributes, serde's disagreement). The checks
/// consume it; code generation never sees it.
pub struct Written {
    pub container: Raw,
    /// A struct's fields.
    pub fields: Vec<Raw>,
    /// An enum's variants, each with its fields.
    pub variants: Vec<(Raw, Vec<Raw>)>,
}

impl<'a> Container<'a> {
    /// Builds the model and what was written; attribute mistakes go to `errors` and a usable
    /// placeholder is kept.
    pub fn from_ast(
        input: &'a DeriveInput,
        errors: &mut Errors,
    ) -> Option<(Container<'a>, Written)> {
        let raw = attr::parse(&input.attrs, Position::Container, errors);
        let mut written = Written {
            container: Raw::default(),
            fields: Vec::new(),
            variants: Vec::new(),
        };
        let rename_all_name = raw.rename_all.as_ref().or(raw.serde.rename_all.as_ref());
        let rename_all = rename_all_name.and_then(|r| Case::from_name(&r.value));
        let name = raw
            .rename
            .as_ref()
            .map_or_else(|| unraw(&input.ident), |r| r.value.clone());
        let data = match &input.data {
            SynData::Struct(s) => {
                let (fields, raws) = fields(&s.fields, rename_all, errors);
                written.fields = raws;
                Data::Struct(style(&s.fields), fields)
            }
            SynData::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| {
                        let (v, raws) = variant(v, rename_all, errors);
                        written.variants.push(raws);
                        v
                    })
                    .collect(),
            ),
            SynData::Union(u) => {
                errors.push(syn::Error::new(
                    u.union_token.span,
                    "`Extract` cannot be derived for unions",
                ));
                return None;
            }
        };
        let untagged = raw
            .untagged
            .or(raw.serde.untagged.then(|| input.ident.span()));
        let partial = raw.partial.as_ref().map_or_else(
            || quote::format_ident!("{}Partial", input.ident),
            |p| p.value.clone(),
        );
        let container = Container {
            ident: &input.ident,
            vis: &input.vis,
            generics: &input.generics,
            partial,
            stream_done: raw.stream.is_some(),
            name,
            doc: raw.doc.clone(),
            tag: either(&raw.tag, &raw.serde.tag),
            content: either(&raw.content, &raw.serde.content),
            untagged,
            deny_unknown: raw.deny_unknown_fields.is_some() || raw.serde.deny_unknown_fields,
            strict: raw.strict.is_some(),
            validate: raw.validate.clone(),
            krate: raw.krate.clone().map_or_else(default_crate, |k| k.value),
            data,
        };
        written.container = raw;
        Some((container, written))
    }
}

fn variant<'a>(
    v: &'a syn::Variant,
    rename_all: Option<Case>,
    errors: &mut Errors,
) -> (Variant<'a>, (Raw, Vec<Raw>)) {
    let raw = attr::parse(&v.attrs, Position::Variant, errors);
    let base = unraw(&v.ident);
    let name = raw
        .rename
        .as_ref()
        .or(raw.serde.rename.as_ref())
        .map(|r| r.value.clone())
        .unwrap_or_else(|| rename_all.map_or(base.clone(), |c| c.apply(&base, true)));
    let mut aliases: Vec<String> = raw.aliases.iter().map(|a| a.value.clone()).collect();
    aliases.extend(raw.serde.aliases.iter().map(|a| a.value.clone()));
    let (fields, raws) = fields(&v.fields, None, errors);
    let variant = Variant {
        ident: &v.ident,
        span: v.ident.span(),
        name,
        aliases,
        style: style(&v.fields),
        fields,
        other: raw.other,
        doc: raw.doc.clone(),
    };
    (variant, (raw, raws))
}

fn fields<'a>(
    fields: &'a Fields,
    rename_all: Option<Case>,
    errors: &mut Errors,
) -> (Vec<Field<'a>>, Vec<Raw>) {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let raw = attr::parse(&f.attrs, Position::Field, errors);
            let (member, base) = match &f.ident {
                Some(ident) => (Member::Named(ident.clone()), unraw(ident)),
                None => (Member::Unnamed(syn::Index::from(i)), i.to_string()),
            };
            let renamed = raw.rename.as_ref().or(raw.serde.rename.as_ref());
            let name =
                renamed
                    .map(|r| r.value.clone())
                    .unwrap_or_else(|| match (&f.ident, rename_all) {
                        (Some(_), Some(case)) => case.apply(&base, false),
                        _ => base.clone(),
                    });
            let name_span = match (&raw.rename, &member) {
                (Some(r), _) => r.span,
                (None, Member::Named(ident)) => ident.span(),
                (None, Member::Unnamed(index)) => index.span,
            };
            let mut aliases: Vec<String> = raw.aliases.iter().map(|a| a.value.clone()).collect();
            aliases.extend(raw.serde.aliases.iter().map(|a| a.value.clone()));
            let rules = Rules {
                min: raw.min.clone(),
                max: raw.max.clone(),
                min_len: raw.min_len.clone(),
                max_len: raw.max_len.clone(),
                pattern: raw.pattern.clone(),
                one_of: raw.one_of.clone(),
                validate: raw.validate.clone(),
            };
            let span = f.ty.span();
            let field = Field {
                member,
                vis: &f.vis,
                ty: &f.ty,
                stream: raw.stream.as_ref().map(|s| s.value),
                span,
                name,
                name_span,
                aliases,
                default: either(&raw.default, &raw.serde.default).map(|d| d.value),
                skip: raw.skip.is_some() || raw.serde.skip,
                flatten: raw.flatten.or(raw.serde.flatten.then_some(span)),
                catch: raw.catch.is_some(),
                with: raw.with.as_ref().map(|w| w.value.clone()),
                strict: raw.strict.is_some(),
                rules,
                doc: raw.doc.clone(),
            };
            (field, raw)
        })
        .unzip()
}

/// The last path segment's name of a type, such as `Option` for `std::option::Option<T>`.
pub fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => type_name(&r.elem),
        Type::Group(g) => type_name(&g.elem),
        Type::Paren(p) => type_name(&p.elem),
        _ => None,
    }
}

/// Whether `ty` is built only of the standard library's types the runtime reads (numbers,
/// `String`, `Vec`, `Option`, maps, `serde_json::Value`, ...), tuples and arrays of them, and
/// the type parameters `params`: a type that cannot lead back to the type being derived.
/// A name is taken for the standard one when written bare or under `std`, `core`, `alloc`
/// or `serde_json`.
pub fn of_std_types(ty: &Type, params: &[&Ident]) -> bool {
    const STD: &[&str] = &[
        "bool",
        "char",
        "str",
        "String",
        "u8",
        "u16",
        "u32",
        "u64",
        "u128",
        "usize",
        "i8",
        "i16",
        "i32",
        "i64",
        "i128",
        "isize",
        "f32",
        "f64",
        "Option",
        "Box",
        "Rc",
        "Arc",
        "Vec",
        "VecDeque",
        "HashSet",
        "BTreeSet",
        "HashMap",
        "BTreeMap",
        "Value",
        "Map",
        "RandomState",
    ];
    const ROOTS: &[&str] = &["std", "core", "alloc", "serde_json"];
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let segments = &p.path.segments;
            let Some(last) = segments.last() else {
                return false;
            };
            let bare = segments.len() == 1;
            if bare && params.iter().any(|param| last.ident == **param) {
                return last.arguments.is_empty();
            }
            let rooted = bare || ROOTS.iter().any(|r| segments[0].ident == r);
            let known = STD.iter().any(|n| last.ident == n);
            let args_known = match &last.arguments {
                syn::PathArguments::None => true,
                syn::PathArguments::AngleBracketed(a) => a.args.iter().all(|arg| match arg {
                    syn::GenericArgument::Type(t) => of_std_types(t, params),
                    syn::GenericArgument::Lifetime(_) => true,
                    _ => false,
                }),
                syn::PathArguments::Parenthesized(_) => false,
            };
            rooted && known && args_known
        }
        Type::Tuple(t) => t.elems.iter().all(|t| of_std_types(t, params)),
        Type::Array(a) => of_std_types(&a.elem, params),
        Type::Reference(r) => of_std_types(&r.elem, params),
        Type::Group(g) => of_std_types(&g.elem, params),
        Type::Paren(p) => of_std_types(&p.elem, params),
        _ => false,
    }
}

/// Whether a field type is written as `Option<..>`.
pub fn is_option(ty: &Type) -> bool {
    option_inner(ty).is_some()
}

/// The `T` of a field type written as `Option<T>`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    generic_arg(ty).and_then(|(ident, inner)| (ident == "Option").then_some(inner))
}

/// `ty` as written, without the parentheses around it or the invisible group a
/// `macro_rules!` fragment (`$t:ty`) wraps it in: a struct declared by a macro has the same
/// fields, twin and rules as one written out.
pub fn unwrapped(ty: &Type) -> &Type {
    match ty {
        Type::Group(g) => unwrapped(&g.elem),
        Type::Paren(p) => unwrapped(&p.elem),
        _ => ty,
    }
}

/// A layer around a value that a rule looks through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peel {
    Option,
    Box,
}

/// What kind of collection a field is, for rules that apply to each item.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    /// `Vec`, `VecDeque`, arrays: items have indexes.
    Indexed,
    /// `HashSet`, `BTreeSet`: items have no stable index.
    Set,
}

fn generic_arg(ty: &Type) -> Option<(&syn::Ident, &Type)> {
    let Type::Path(p) = unwrapped(ty) else {
        return None;
    };
    let seg = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let inner = a.args.iter().find_map(|g| match g {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    })?;
    Some((&seg.ident, inner))
}

/// Peels `Option` and `Box` off `ty`: the layers and the type inside.
pub fn peel(ty: &Type) -> (Vec<Peel>, &Type) {
    let mut layers = Vec::new();
    let mut ty = ty;
    while let Some((ident, inner)) = generic_arg(ty) {
        let layer = if ident == "Option" {
            Peel::Option
        } else if ident == "Box" {
            Peel::Box
        } else {
            break;
        };
        layers.push(layer);
        ty = inner;
    }
    (layers, unwrapped(ty))
}

/// For a collection field (inside `Option`/`Box` layers): the layers, the collection kind
/// and the item type. `min`, `max`, `pattern` and `one_of` apply to each item of these.
pub fn collection(ty: &Type) -> Option<(Vec<Peel>, Collection, &Type)> {
    let (layers, inner) = peel(ty);
    if let Type::Array(a) = inner {
        return Some((layers, Collection::Indexed, &a.elem));
    }
    let (ident, item) = generic_arg(inner)?;
    let kind = match ident.to_string().as_str() {
        "Vec" | "VecDeque" => Collection::Indexed,
        "HashSet" | "BTreeSet" => Collection::Set,
        _ => return None,
    };
    Some((layers, kind, item))
}

#[cfg(test)]
mod tests {
    use super::of_std_types;
    use syn::{parse_quote, Ident, Type};

    /// Types of the standard library alone cannot lead back to the derived type; any other
    /// name (another type, an alias, a path outside `std`) may.
    #[test]
    fn std_types_are_told_from_types_that_may_recurse() {
        let t: Ident = parse_quote!(T);
        let params = [&t];
        let std: [Type; 7] = [
            parse_quote!(f64),
            parse_quote!(Vec<String>),
            parse_quote!(std::collections::HashMap<String, Option<Box<u8>>>),
            parse_quote!((u8, [bool; 3])),
            parse_quote!(serde_json::Value),
            parse_quote!(Vec<T>),
            parse_quote!(&'a str),
        ];
        for ty in &std {
            assert!(of_std_types(ty, &params), "{}", quote::quote!(#ty));
        }
        let other: [Type; 6] = [
            parse_quote!(Vec<Tree>),
            parse_quote!(HashMap<String, Dir>),
            parse_quote!(Kids),
            parse_quote!(my::Vec<u8>),
            parse_quote!(Option<Box<Self>>),
            parse_quote!(T::Item),
        ];
        for ty in &other {
            assert!(!of_std_types(ty, &params), "{}", quote::quote!(#ty));
        }
    }
}
