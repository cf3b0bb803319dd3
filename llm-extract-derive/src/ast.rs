//! The checked model of the type: names resolved (rename, rename_all, serde's agreement),
//! defaults and rules gathered. Code generation reads only this.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data as SynData, DeriveInput, Fields, Generics, Ident, Member, Type};

use crate::attr::{self, Allowed, Bound, DefaultAttr, Position, Raw};
use crate::case::Case;
use crate::errors::Errors;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub name: String,
    // Descriptions are read only by the schema generation.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    pub doc: Option<String>,
    pub tag: Option<String>,
    pub untagged: bool,
    pub deny_unknown: bool,
    pub strict: bool,
    pub data: Data<'a>,
    pub raw: Raw,
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
    pub ty: &'a Type,
    pub span: Span,
    pub name: String,
    pub aliases: Vec<String>,
    pub default: Option<DefaultAttr>,
    pub skip: bool,
    pub flatten: bool,
    pub catch: bool,
    pub with: Option<syn::ExprPath>,
    pub strict: bool,
    pub rules: Rules,
    // Descriptions are read only by the schema generation.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    pub doc: Option<String>,
    pub raw: Raw,
}

#[derive(Default)]
pub struct Rules {
    pub min: Option<Bound>,
    pub max: Option<Bound>,
    pub min_len: Option<usize>,
    pub max_len: Option<usize>,
    pub pattern: Option<syn::LitStr>,
    pub one_of: Option<Vec<Allowed>>,
    pub validate: Option<syn::ExprPath>,
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
    pub other: bool,
    // Descriptions are read only by the schema generation.
    #[cfg_attr(not(feature = "schema"), allow(dead_code))]
    pub doc: Option<String>,
    pub raw: Raw,
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

impl<'a> Container<'a> {
    /// Builds the model; attribute mistakes go to `errors` and a usable placeholder is kept.
    pub fn from_ast(input: &'a DeriveInput, errors: &mut Errors) -> Option<Container<'a>> {
        let raw = attr::parse(&input.attrs, Position::Container, errors);
        let rename_all_name = raw.rename_all.as_ref().or(raw.serde.rename_all.as_ref());
        let rename_all = rename_all_name.and_then(|r| Case::from_name(&r.value));
        let name = raw
            .rename
            .as_ref()
            .map_or_else(|| unraw(&input.ident), |r| r.value.clone());
        let is_enum = matches!(input.data, SynData::Enum(_));
        let data = match &input.data {
            SynData::Struct(s) => {
                Data::Struct(style(&s.fields), fields(&s.fields, rename_all, errors))
            }
            SynData::Enum(e) => Data::Enum(
                e.variants
                    .iter()
                    .map(|v| {
                        let raw = attr::parse(&v.attrs, Position::Variant, errors);
                        let base = unraw(&v.ident);
                        let name = raw
                            .rename
                            .as_ref()
                            .or(raw.serde.rename.as_ref())
                            .map(|r| r.value.clone())
                            .unwrap_or_else(|| {
                                rename_all.map_or(base.clone(), |c| c.apply(&base, true))
                            });
                        let mut aliases: Vec<String> =
                            raw.aliases.iter().map(|a| a.value.clone()).collect();
                        aliases.extend(raw.serde.aliases.iter().map(|a| a.value.clone()));
                        Variant {
                            ident: &v.ident,
                            span: v.ident.span(),
                            name,
                            aliases,
                            style: style(&v.fields),
                            fields: fields(&v.fields, None, errors),
                            other: raw.other.is_some(),
                            doc: raw.doc.clone(),
                            raw,
                        }
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
        let _ = is_enum;
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            name,
            doc: raw.doc.clone(),
            tag: raw
                .tag
                .as_ref()
                .or(raw.serde.tag.as_ref())
                .map(|t| t.value.clone()),
            untagged: raw.untagged.is_some() || raw.serde.untagged,
            deny_unknown: raw.deny_unknown_fields.is_some() || raw.serde.deny_unknown_fields,
            strict: raw.strict.is_some(),
            data,
            raw,
        })
    }
}

fn fields<'a>(fields: &'a Fields, rename_all: Option<Case>, errors: &mut Errors) -> Vec<Field<'a>> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let raw = attr::parse(&f.attrs, Position::Field, errors);
            let (member, base) = match &f.ident {
                Some(ident) => (Member::Named(ident.clone()), unraw(ident)),
                None => (Member::Unnamed(syn::Index::from(i)), i.to_string()),
            };
            let name = raw
                .rename
                .as_ref()
                .or(raw.serde.rename.as_ref())
                .map(|r| r.value.clone())
                .unwrap_or_else(|| match (&f.ident, rename_all) {
                    (Some(_), Some(case)) => case.apply(&base, false),
                    _ => base.clone(),
                });
            let mut aliases: Vec<String> = raw.aliases.iter().map(|a| a.value.clone()).collect();
            aliases.extend(raw.serde.aliases.iter().map(|a| a.value.clone()));
            let rules = Rules {
                min: raw.min.as_ref().map(|b| b.value.clone()),
                max: raw.max.as_ref().map(|b| b.value.clone()),
                min_len: raw.min_len.as_ref().map(|b| b.value),
                max_len: raw.max_len.as_ref().map(|b| b.value),
                pattern: raw.pattern.as_ref().map(|b| b.value.clone()),
                one_of: raw.one_of.as_ref().map(|b| b.value.clone()),
                validate: raw.validate.as_ref().map(|b| b.value.clone()),
            };
            Field {
                member,
                ty: &f.ty,
                span: f.ty.span(),
                name,
                aliases,
                default: raw
                    .default
                    .as_ref()
                    .or(raw.serde.default.as_ref())
                    .map(|d| d.value.clone()),
                skip: raw.skip.is_some() || raw.serde.skip,
                flatten: raw.flatten.is_some() || raw.serde.flatten,
                catch: raw.catch.is_some(),
                with: raw.with.as_ref().map(|w| w.value.clone()),
                strict: raw.strict.is_some(),
                rules,
                doc: raw.doc.clone(),
                raw,
            }
        })
        .collect()
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

/// Whether a field type is written as `Option<..>`.
#[cfg_attr(not(feature = "schema"), allow(dead_code))] // used by the schema generation
pub fn is_option(ty: &Type) -> bool {
    type_name(ty).as_deref() == Some("Option")
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
    let Type::Path(p) = ty else { return None };
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
    (layers, ty)
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
