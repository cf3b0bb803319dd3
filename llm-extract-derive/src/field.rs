//! One field's reading as generated code: its type's reader with the field's rules, what a
//! missing or skipped field holds, and the local a field's value is bound to. Shared by the
//! full path (`expand.rs`) and the direct path (`direct.rs`).

use proc_macro2::{Literal, TokenStream};
use quote::{quote, quote_spanned};
use syn::Ident;

use crate::ast::Field;
use crate::attr::{Allowed, DefaultAttr};

/// A closure reading one field's value: its type's `from_node` (or the `with` module's),
/// in strict mode if asked, followed by the field's validation rules.
pub(crate) fn read_expr(rt: &TokenStream, f: &Field<'_>) -> TokenStream {
    let ty = f.ty;
    let span = f.span;
    let base = match &f.with {
        Some(p) => quote_spanned!(span=> #p::from_node),
        None => quote_spanned!(span=> <#ty as #rt::Extract>::from_node),
    };
    let base = if f.strict {
        quote! {
            |__n: &#rt::Node<'_>, __cx: &mut #rt::Context| __cx.with_mode(#rt::Mode::Strict, |__cx| (#base)(__n, __cx))
        }
    } else {
        base
    };
    if f.rules.is_empty() {
        return base;
    }
    let checks = rules(rt, f);
    quote! {
        |__n: &#rt::Node<'_>, __cx: &mut #rt::Context| -> ::core::result::Result<#ty, #rt::Failed> {
            let __v: #ty = (#base)(__n, __cx)?;
            let __span = __n.span;
            #checks
            ::core::result::Result::Ok(__v)
        }
    }
}

/// The field's validation rules, run on `__v` (the value read) at `__span`.
fn rules(rt: &TokenStream, f: &Field<'_>) -> TokenStream {
    let r = &f.rules;
    // On a collection, the value rules apply to each item, at the item's path.
    let each = crate::ast::collection(f.ty);
    let value_rules = value_rules(rt, r, each.is_some());
    let mut out = TokenStream::new();
    match (&each, value_rules.is_empty()) {
        (_, true) => {}
        (None, false) => out.extend(value_rules),
        (Some((layers, kind, _)), false) => {
            out.extend(for_each_item(rt, layers, *kind, value_rules))
        }
    }
    if let Some(crate::attr::Spanned { value: n, span }) = &r.min_len {
        let span = *span;
        out.extend(quote_spanned!(span=> #rt::validate::min_len(&__v, #n, __span, __cx);));
    }
    if let Some(crate::attr::Spanned { value: n, span }) = &r.max_len {
        let span = *span;
        out.extend(quote_spanned!(span=> #rt::validate::max_len(&__v, #n, __span, __cx);));
    }
    if let Some(crate::attr::Spanned { value: p, span }) = &r.validate {
        let span = *span;
        out.extend(quote_spanned!(span=> #rt::validate::custom(#p(&__v), __span, __cx);));
    }
    out
}

/// The rules on a value (`min`, `max`, `pattern`, `one_of`): checked on `__v`, or on each
/// `__item` at `__item_span` when `per_item`.
fn value_rules(rt: &TokenStream, r: &crate::ast::Rules, per_item: bool) -> TokenStream {
    // The subject is spanned at the rule, so a type that cannot take the rule is reported there.
    let subject = |span: proc_macro2::Span| {
        if per_item {
            quote_spanned!(span=> __item)
        } else {
            quote_spanned!(span=> &__v)
        }
    };
    let subject_span = if per_item {
        quote!(__item_span)
    } else {
        quote!(__span)
    };
    let mut value_rules = TokenStream::new();
    for (bound, check) in [(&r.min, "min"), (&r.max, "max")] {
        if let Some(crate::attr::Spanned { value: b, span }) = bound {
            let span = *span;
            let check = Ident::new(check, span);
            let subject = subject(span);
            let (value, written) = (Literal::f64_suffixed(b.value), &b.written);
            value_rules.extend(quote_spanned! {span=>
                #rt::validate::#check(#subject, #value, #written, #subject_span, __cx);
            });
        }
    }
    if let Some(crate::attr::Spanned { value: p, span }) = &r.pattern {
        let span = *span;
        let subject = subject(span);
        value_rules.extend(quote_spanned! {span=>
            {
                static __PATTERN: #rt::LazyLock<::core::option::Option<#rt::Regex>> =
                    #rt::LazyLock::new(|| #rt::Regex::new(#p).ok());
                #rt::validate::pattern(#subject, (*__PATTERN).as_ref(), #p, #subject_span, __cx);
            }
        });
    }
    if let Some(crate::attr::Spanned { value: list, span }) = &r.one_of {
        let span = *span;
        let subject = subject(span);
        let items = list.values.iter().map(|a| allowed(rt, &a.value));
        let matching = if list.exact {
            quote!(#rt::validate::Matching::Exact)
        } else {
            quote!(#rt::validate::Matching::AsVariants)
        };
        // The list's kind checked against the field's type by the compiler, where the macro
        // could not see it (an alias); the values agree with each other (checked before).
        let fits = match list.values.first().map(|v| &v.value) {
            Some(Allowed::Str(_)) => quote_spanned!(span=> #rt::validate::lists_strings(#subject);),
            Some(Allowed::Number(_)) => {
                quote_spanned!(span=> #rt::validate::lists_numbers(#subject);)
            }
            Some(Allowed::Bool(_)) => {
                quote_spanned!(span=> #rt::validate::lists_booleans(#subject);)
            }
            None => TokenStream::new(),
        };
        value_rules.extend(quote_spanned! {span=>
            #fits
            #rt::validate::one_of(#subject, &[#(#items),*], #matching, #subject_span, __cx);
        });
    }
    value_rules
}

/// `value_rules` run on each item of the collection in `__v`, through its `Option`/`Box`
/// layers; items of an indexed collection are checked at their index's path.
fn for_each_item(
    rt: &TokenStream,
    layers: &[crate::ast::Peel],
    kind: crate::ast::Collection,
    value_rules: TokenStream,
) -> TokenStream {
    let per_item = match kind {
        crate::ast::Collection::Indexed => quote! {
            for (__i, __item) in ::core::iter::IntoIterator::into_iter(__c).enumerate() {
                let __item_span = #rt::item_span(__n, __i);
                __cx.at_index(__i, |__cx| { #value_rules });
            }
        },
        crate::ast::Collection::Set => quote! {
            for __item in ::core::iter::IntoIterator::into_iter(__c) {
                let __item_span = __span;
                #value_rules
            }
        },
    };
    let mut body = per_item;
    for layer in layers.iter().rev() {
        body = match layer {
            crate::ast::Peel::Option => quote! {
                if let ::core::option::Option::Some(__c) = ::core::option::Option::as_ref(__c) { #body }
            },
            crate::ast::Peel::Box => quote! {{ let __c = &**__c; #body }},
        };
    }
    quote! {{ let __c = &__v; #body }}
}

fn allowed(rt: &TokenStream, a: &Allowed) -> TokenStream {
    match a {
        Allowed::Str(s) => quote!(#rt::Allowed::Str(#s)),
        Allowed::Number(n) => {
            let n = Literal::f64_suffixed(*n);
            quote!(#rt::Allowed::Number(#n))
        }
        Allowed::Bool(b) => quote!(#rt::Allowed::Bool(#b)),
    }
}

pub(crate) fn default_fn(f: &Field<'_>) -> TokenStream {
    let ty = f.ty;
    match &f.default {
        Some(DefaultAttr::Path(p)) => quote_spanned!(f.span=> #p as fn() -> #ty),
        _ => quote_spanned!(f.span=> <#ty as ::core::default::Default>::default as fn() -> #ty),
    }
}

pub(crate) fn missing_expr(rt: &TokenStream, f: &Field<'_>) -> TokenStream {
    let ty = f.ty;
    if f.default.is_some() {
        let d = default_fn(f);
        quote!(#rt::Missing::Default(#d))
    } else if f.with.is_some() {
        quote!(#rt::Missing::Required(::core::option::Option::None))
    } else {
        quote_spanned!(f.span=> #rt::Missing::Required(<#ty as #rt::Extract>::from_missing()))
    }
}

pub(crate) fn skipped_value(f: &Field<'_>) -> TokenStream {
    match &f.default {
        Some(DefaultAttr::Path(p)) => quote_spanned!(f.span=> #p()),
        _ => quote_spanned!(f.span=> ::core::default::Default::default()),
    }
}

pub(crate) fn var(i: usize) -> Ident {
    quote::format_ident!("__f{}", i)
}
