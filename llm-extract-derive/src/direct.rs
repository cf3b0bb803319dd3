//! Code generation for `Extract::read_direct`, the direct path: a struct read from strict JSON
//! as it streams past, keys matched by a generated `match` on the fields' exact names; and for
//! `Extract::from_partial`, the same value built from a stream's partial twin once the reply
//! is complete (`Stream::finish` takes it instead of reading the container again), under the
//! same conditions.
//!
//! Anything else (an alias or a normalized key, an unknown key, a repeated key, a field left
//! to its default) makes the generated reader return `None`, and the document is read on the
//! full path, which records the coercion. An externally tagged enum reads a unit variant's
//! exact name directly. Types the direct path does not cover here (other enums, tuple
//! structs, `flatten`, `strict` or `validate` on the container) keep the trait's default, which
//! reads the value through a tree.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::{Container, Data, Field, Style, Tagging, Variant};
use crate::field::{read_expr, var};

/// The `read_direct` method for `c`, or nothing to keep the trait's default.
pub fn read_direct(c: &Container<'_>) -> TokenStream {
    if c.strict || c.validate.is_some() {
        return TokenStream::new();
    }
    let rt = &c.rt();
    let body = match &c.data {
        Data::Struct(Style::Named, fields) if !fields.iter().any(Field::is_flatten) => {
            named(rt, fields)
        }
        Data::Enum(variants) if matches!(c.tagging(), Tagging::External) => {
            unit_variants(rt, variants)
        }
        Data::Struct(Style::Newtype, fields) if !fields[0].skip => {
            let read = field_read(rt, &fields[0]);
            quote!(::core::option::Option::Some(Self(#read?)))
        }
        _ => return TokenStream::new(),
    };
    quote! {
        #[inline]
        fn read_direct(__r: &mut #rt::Direct<'_>) -> ::core::option::Option<Self> {
            #body
        }
    }
}

/// How one field's value is read from `__r`: its type's own `read_direct`, or through a
/// tree when the field has rules, a `with` module or `strict` (what they check needs the
/// node the full path reads).
fn field_read(rt: &TokenStream, f: &Field<'_>) -> TokenStream {
    let ty = f.ty;
    if f.rules.is_empty() && f.with.is_none() && !f.strict {
        quote_spanned!(f.span=> <#ty as #rt::Extract>::read_direct(__r))
    } else {
        let read = read_expr(rt, f);
        quote!(__r.by_node(#read))
    }
}

/// A struct with named fields: one slot per field, filled from the key that is its name.
fn named(rt: &TokenStream, fields: &[Field<'_>]) -> TokenStream {
    let mut slots = Vec::new();
    let mut arms = Vec::new();
    let mut inits = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        let member = &f.member;
        if f.skip {
            let value = crate::field::skipped_value(f);
            inits.push(quote!(#member: #value));
            continue;
        }
        let (v, ty, name) = (var(i), f.ty, &f.name);
        slots.push(quote!(let mut #v: ::core::option::Option<#ty> = ::core::option::Option::None;));
        let read = field_read(rt, f);
        arms.push(quote! {
            #name => {
                if #v.is_some() {
                    return ::core::option::Option::None;
                }
                #v = ::core::option::Option::Some(#read?);
            }
        });
        // An absent field: the type's value for absence (`Option`), else the full path
        // (a default is recorded there, a required field is an issue).
        let missing = if f.default.is_some() || f.with.is_some() {
            quote!(return ::core::option::Option::None)
        } else {
            quote_spanned!(f.span=> <#ty as #rt::Extract>::from_missing()?)
        };
        inits.push(quote! {
            #member: match #v {
                ::core::option::Option::Some(__v) => __v,
                ::core::option::Option::None => #missing,
            }
        });
    }
    // Every key names a field, or the full path reads the object (and records the key).
    let member = if arms.is_empty() {
        quote!(|_, _| ::core::option::Option::None)
    } else {
        quote! {
            |__r, __key| {
                match &*__key {
                    #(#arms)*
                    _ => return ::core::option::Option::None,
                }
                ::core::option::Option::Some(())
            }
        }
    };
    quote! {
        #(#slots)*
        __r.object(#member)?;
        ::core::option::Option::Some(Self { #(#inits),* })
    }
}

/// An externally tagged enum: a string that is a unit variant's exact name is that variant;
/// anything else is read through a tree (data variants, aliases, other spellings, `other`).
fn unit_variants(rt: &TokenStream, variants: &[Variant<'_>]) -> TokenStream {
    // A name that looks like a document would be decoded first on the full path.
    let arms = variants
        .iter()
        .filter(|v| v.style == Style::Unit && !v.name.trim_start().starts_with(['{', '[']))
        .map(|v| {
            let (ident, name) = (v.ident, &v.name);
            quote!(#name => ::core::option::Option::Some(Self::#ident),)
        });
    quote! {
        let __at = __r.position();
        if let ::core::option::Option::Some((__s, _)) = __r.string() {
            let __read: ::core::option::Option<Self> = match &*__s {
                #(#arms)*
                _ => ::core::option::Option::None,
            };
            if __read.is_some() {
                return __read;
            }
        }
        __r.rewind(__at);
        __r.by_node(<Self as #rt::Extract>::from_node)
    }
}

/// The `from_partial` method for `c` (the value a stream's complete partial twin holds, as
/// `read_direct` would read it), or nothing to keep the trait's default (`None`: the stream
/// reads the reply again on `finish`). A struct with named fields whose twin shows every
/// field as it arrives (not `strict`, `validate` or `stream = "done"` on the container, no
/// `flatten`, `with`, `strict` or `stream = "required"` on a field), or an externally tagged
/// enum of unit variants (whose twin shows a variant once its complete value reads as one).
pub fn from_partial(c: &Container<'_>) -> TokenStream {
    if c.strict || c.validate.is_some() || c.stream_done {
        return TokenStream::new();
    }
    let fields = match &c.data {
        Data::Struct(Style::Named, fields) => fields,
        Data::Enum(variants) => return unit_from_partial(c, variants),
        _ => return TokenStream::new(),
    };
    let plain = |f: &Field<'_>| {
        f.skip
            || (!f.is_flatten()
                && f.with.is_none()
                && !f.strict
                && f.stream != Some(crate::attr::StreamMode::Required))
    };
    if !fields.iter().all(plain) {
        return TokenStream::new();
    }
    let rt = &c.rt();
    let inits = fields.iter().enumerate().map(|(i, f)| {
        let member = &f.member;
        if f.skip {
            let value = crate::field::skipped_value(f);
            return quote!(#member: #value);
        }
        // Absent (its key never came): the type's value for absence, unless the field has a
        // default (the full path records it). Present with nothing shown: `null` or a
        // placeholder in an `Option`, which a strict read would have given `None` without
        // a coercion only for `null` (a placeholder was recorded as lenient).
        let ty = f.ty;
        let missing = if f.default.is_some() {
            quote!(return ::core::option::Option::None)
        } else {
            quote_spanned!(f.span=> <#ty as #rt::Extract>::from_missing()?)
        };
        let (present, empty) = match crate::ast::option_inner(ty) {
            Some(inner) => (
                quote_spanned!(f.span=> ::core::option::Option::Some(<#inner as #rt::Extract>::from_partial(__v)?)),
                quote!(::core::option::Option::None),
            ),
            None => (
                quote_spanned!(f.span=> <#ty as #rt::Extract>::from_partial(__v)?),
                quote!(return ::core::option::Option::None),
            ),
        };
        quote! {
            #member: match &__p.#member {
                ::core::option::Option::Some(__v) => #present,
                ::core::option::Option::None
                    if __p.__state.get(#i) == #rt::stream::FieldState::Pending => #missing,
                ::core::option::Option::None => #empty,
            }
        }
    });
    quote! {
        fn from_partial(__p: &Self::Partial) -> ::core::option::Option<Self> {
            ::core::option::Option::Some(Self { #(#inits),* })
        }
    }
}

/// [`from_partial`] of an externally tagged enum of unit variants: the twin's variant.
fn unit_from_partial(c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let unit_only = variants
        .iter()
        .all(|v| v.style == Style::Unit && !v.fields.iter().any(|f| !f.skip));
    if variants.is_empty() || !unit_only || !matches!(c.tagging(), Tagging::External) {
        return TokenStream::new();
    }
    let twin = &c.partial;
    let arms = variants.iter().map(|v| {
        let vi = v.ident;
        quote!(#twin::#vi => ::core::option::Option::Some(Self::#vi),)
    });
    quote! {
        fn from_partial(__p: &Self::Partial) -> ::core::option::Option<Self> {
            #[allow(unreachable_patterns)]
            match __p {
                #(#arms)*
                _ => ::core::option::Option::None,
            }
        }
    }
}
