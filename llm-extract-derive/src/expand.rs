//! Code generation for `Extract`: thin wiring of the runtime functions in
//! `llm_extract::__private`, one field at a time, spanned at the field.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Ident;

use crate::ast::{Container, Data, Field, Style, Tagging, Variant};
use crate::bounds::{used_params, with_bounds};
use crate::field::{default_fn, missing_expr, read_expr, skipped_value, var};

pub fn expand(c: &Container<'_>) -> TokenStream {
    let rt = &c.rt();
    let body = match &c.data {
        Data::Struct(style, fields) => struct_body(
            rt,
            *style,
            fields,
            c.deny_unknown,
            quote!(Self),
            quote!(__node),
            quote!(::core::option::Option::None),
        ),
        Data::Enum(variants) => enum_body(rt, c, variants),
    };
    let body = if c.strict {
        quote!(__cx.with_mode(#rt::Mode::Strict, |__cx| #body))
    } else {
        body
    };
    // The container's own rule runs once its fields coerced (after their rules), at its path.
    let body = match &c.validate {
        Some(v) => {
            let (path, span) = (&v.value, v.span);
            let check = quote_spanned! {span=>
                #rt::validate::custom(#path(&__value), __node.span, __cx);
            };
            quote! {{
                let __read = |__cx: &mut #rt::Context| -> ::core::result::Result<Self, #rt::Failed> { #body };
                let __value: Self = __read(__cx)?;
                #check
                ::core::result::Result::Ok(__value)
            }}
        }
        None => body,
    };
    let ident = c.ident;
    let generics = with_bounds(c.generics, &used_params(c), quote!(#rt::Extract));
    let (impl_g, ty_g, where_clause) = generics.split_for_impl();
    let map_key = map_key(c);
    let read_direct = crate::direct::read_direct(c);
    let from_partial = crate::direct::from_partial(c);
    let crate::twin::Twin {
        items: twin,
        partial,
    } = crate::twin::twin(c);
    quote! {
        #twin
        #map_key
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #[automatically_derived]
            impl #impl_g #rt::Extract for #ident #ty_g #where_clause {
                type Partial = #partial;
                fn from_node(
                    __node: &#rt::Node<'_>,
                    __cx: &mut #rt::Context,
                ) -> ::core::result::Result<Self, #rt::Failed> {
                    #body
                }

                #read_direct

                #from_partial
            }
        };
    }
}

/// An enum of unit variants can also be a map key (`HashMap<Status, u32>`): keys are matched
/// like values (exact, normalized, alias), without the `other` variant or sentence matching.
fn map_key(c: &Container<'_>) -> TokenStream {
    let Data::Enum(variants) = &c.data else {
        return TokenStream::new();
    };
    if c.untagged.is_some()
        || !c.generics.params.is_empty()
        || variants.iter().any(|v| v.style != Style::Unit)
    {
        return TokenStream::new();
    }
    let rt = &c.rt();
    let ident = c.ident;
    let spec = enum_spec(rt, c, variants);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let v = v.ident;
        quote!(#i => ::core::option::Option::Some(Self::#v),)
    });
    // A snapshot shows a key as the twin shows the variant.
    let names = variants.iter().map(|v| &v.name);
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #[automatically_derived]
            impl #rt::MapKey for #ident {
                fn from_key(__key: &str) -> ::core::option::Option<Self> {
                    #spec
                    match #rt::variant_key(__key, &__ENUM)? {
                        #(#arms)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn key_text(__key: &str) -> ::core::option::Option<::std::borrow::Cow<'_, str>> {
                    #spec
                    const __NAMES: &[&str] = &[#(#names),*];
                    let __i = #rt::variant_key(__key, &__ENUM)?;
                    __NAMES.get(__i).map(|__n| ::std::borrow::Cow::Borrowed(*__n))
                }
            }
        };
    }
}

/// The impl with an unreachable body, emitted next to `compile_error!` so that a mistake in
/// an attribute does not also cause "`Extract` is not implemented" everywhere the type is used.
pub fn fallback(input: &syn::DeriveInput, krate: &syn::Path) -> TokenStream {
    let rt = quote!(#krate::__private);
    let ident = &input.ident;
    let (impl_g, ty_g, where_clause) = input.generics.split_for_impl();
    quote! {
        const _: () = {
            #[automatically_derived]
            impl #impl_g #rt::Extract for #ident #ty_g #where_clause {
                type Partial = #rt::NoPartial;
                fn from_node(
                    _: &#rt::Node<'_>,
                    _: &mut #rt::Context,
                ) -> ::core::result::Result<Self, #rt::Failed> {
                    ::core::unreachable!("the derive reported an error")
                }
            }
        };
    }
}

/// An expression of type `Result<Self, Failed>` reading a struct (or a variant's content)
/// from `node`, skipping the object entry `skip` (an internal tag).
fn struct_body(
    rt: &TokenStream,
    style: Style,
    fields: &[Field<'_>],
    deny_unknown: bool,
    construct: TokenStream,
    node: TokenStream,
    skip: TokenStream,
) -> TokenStream {
    match style {
        Style::Unit => quote! {{
            #rt::unit(#node, __cx)?;
            ::core::result::Result::Ok(#construct)
        }},
        Style::Newtype if !fields[0].skip => {
            let read = read_expr(rt, &fields[0]);
            quote!((#read)(#node, __cx).map(|__v| #construct(__v)))
        }
        Style::Named => named_body(rt, fields, deny_unknown, construct, node, skip),
        Style::Tuple | Style::Newtype => tuple_body(rt, fields, construct, node),
    }
}

/// A struct with named fields: each field looked up by name (or alias) through one
/// `StructSpec`, read, then the value built when every field was read.
fn named_body(
    rt: &TokenStream,
    fields: &[Field<'_>],
    deny_unknown: bool,
    construct: TokenStream,
    node: TokenStream,
    skip: TokenStream,
) -> TokenStream {
    let mut specs = Vec::new();
    let mut reads = Vec::new();
    let mut vars = Vec::new();
    let mut inits = Vec::new();
    let has_flatten = fields.iter().any(|f| f.is_flatten() && !f.skip);
    for (i, f) in fields.iter().enumerate() {
        let member = &f.member;
        if f.skip {
            let value = skipped_value(f);
            inits.push(quote!(#member: #value));
            continue;
        }
        let v = var(i);
        let read = read_expr(rt, f);
        if f.is_flatten() {
            reads.push(quote!(let #v = __fields.flatten(__cx, #read);));
        } else {
            let slot = specs.len();
            let (name, aliases) = (&f.name, &f.aliases);
            specs.push(quote!(#rt::FieldSpec { name: #name, aliases: &[#(#aliases),*] }));
            let missing = missing_expr(rt, f);
            let catch = if f.catch {
                let d = default_fn(f);
                quote!(::core::option::Option::Some(#d))
            } else {
                quote!(::core::option::Option::None)
            };
            reads.push(quote!(let #v = __fields.field(#slot, __cx, #read, #missing, #catch);));
        }
        inits.push(quote!(#member: #v));
        vars.push(v);
    }
    let field_count = specs.len();
    quote! {{
        static __SPEC: #rt::StructSpec = #rt::StructSpec {
            fields: &[#(#specs),*],
            deny_unknown: #deny_unknown,
            flatten: #has_flatten,
        };
        #rt::object::<_, #field_count>(#node, &__SPEC, #skip, __cx, |__fields, __cx| {
            #(#reads)*
            match (#(#vars,)*) {
                (#(::core::option::Option::Some(#vars),)*) => ::core::result::Result::Ok(#construct { #(#inits),* }),
                _ => ::core::result::Result::Err(#rt::Failed),
            }
        })
    }}
}

/// A tuple struct (or a newtype whose field is skipped): the fields read from an array's
/// elements in order, skipped fields taking no element.
fn tuple_body(
    rt: &TokenStream,
    fields: &[Field<'_>],
    construct: TokenStream,
    node: TokenStream,
) -> TokenStream {
    let read_count = fields.iter().filter(|f| !f.skip).count();
    let mut reads = Vec::new();
    let mut vars = Vec::new();
    let mut values = Vec::new();
    let mut index = 0usize;
    for (i, f) in fields.iter().enumerate() {
        if f.skip {
            values.push(skipped_value(f));
            continue;
        }
        let v = var(i);
        let read = read_expr(rt, f);
        reads.push(quote!(let #v = #rt::element(__items, #index, __cx, #read);));
        index += 1;
        values.push(quote!(#v));
        vars.push(v);
    }
    quote! {{
        let __decoded = #rt::as_container(#node, __cx);
        let __items = #rt::tuple(&__decoded, #read_count, __cx)?;
        #(#reads)*
        match (#(#vars,)*) {
            (#(::core::option::Option::Some(#vars),)*) => ::core::result::Result::Ok(#construct(#(#values),*)),
            _ => ::core::result::Result::Err(#rt::Failed),
        }
    }}
}

fn enum_spec(rt: &TokenStream, c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let name = &c.name;
    let names = variants.iter().map(|v| {
        let (n, aliases) = (&v.name, &v.aliases);
        quote!(#rt::VariantNames { name: #n, aliases: &[#(#aliases),*] })
    });
    let other = match variants.iter().position(Variant::is_other) {
        Some(i) => quote!(::core::option::Option::Some(#i)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        static __ENUM: #rt::EnumSpec = #rt::EnumSpec { name: #name, variants: &[#(#names),*], other: #other };
    }
}

/// The local closure that reads variant `i` (`__variant0`, ...): each variant's body is
/// generated once and called from every path that reads it.
fn variant_fn(i: usize) -> Ident {
    quote::format_ident!("__variant{}", i)
}

/// An expression of type `Result<Self, Failed>` reading an enum from `__node`, by the
/// enum's tagging.
fn enum_body(rt: &TokenStream, c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let spec = enum_spec(rt, c, variants);
    // A tagged enum is a container: a string holding its JSON is decoded first. (An untagged
    // enum leaves that to each variant: a `String` variant takes the string as written.)
    let spec = match c.tagging() {
        Tagging::Untagged => spec,
        _ => quote! {
            #spec
            let __decoded = #rt::as_container(__node, __cx);
            let __node: &#rt::Node<'_> = &__decoded;
        },
    };
    let fns: Vec<Ident> = (0..variants.len()).map(variant_fn).collect();
    match c.tagging() {
        Tagging::Untagged => untagged_body(rt, c, variants, spec),
        Tagging::Internal { tag } => internal_body(rt, c, variants, &fns, tag, spec),
        Tagging::Adjacent { tag, content } => {
            adjacent_body(rt, c, variants, &fns, tag, content, spec)
        }
        Tagging::External => external_body(rt, c, variants, &fns, spec),
    }
}

/// `untagged`: every variant is tried; the best reading wins.
fn untagged_body(
    rt: &TokenStream,
    c: &Container<'_>,
    variants: &[Variant<'_>],
    spec: TokenStream,
) -> TokenStream {
    let name = &c.name;
    let attempts = variants.iter().enumerate().map(|(i, v)| {
        let body = untagged_variant(rt, v, i, c.deny_unknown);
        quote!(__u.attempt(__cx, |__cx| #body);)
    });
    quote! {{
        #spec
        let mut __u = #rt::Untagged::new();
        #(#attempts)*
        __u.finish(__node, #name, __cx)
    }}
}

/// `tag = ".."`: the tag's value names the variant, read from the rest of the object; with
/// no tag, every variant but `other` is tried.
fn internal_body(
    rt: &TokenStream,
    c: &Container<'_>,
    variants: &[Variant<'_>],
    fns: &[Ident],
    tag: &str,
    spec: TokenStream,
) -> TokenStream {
    let name = &c.name;
    // Each variant read from the whole object, skipping the tag's entry if there is one.
    let defs = variants.iter().zip(fns).map(|(v, f)| {
        let body = internal_variant(rt, v, c.deny_unknown);
        quote! {
            let #f = |__cx: &mut #rt::Context, __skip: ::core::option::Option<usize>, __raw: &str|
                -> ::core::result::Result<Self, #rt::Failed> { #body };
        }
    });
    let arms = fns
        .iter()
        .enumerate()
        .map(|(i, f)| quote!(#i => #f(__cx, ::core::option::Option::Some(__skip), &__raw),));
    let fallback = variants.iter().zip(fns).filter(|(v, _)| !v.is_other()).map(
        |(_, f)| quote!(__u.attempt(__cx, |__cx| #f(__cx, ::core::option::Option::None, ""));),
    );
    quote! {{
        #spec
        #(#defs)*
        match #rt::internal(__node, #tag, &__ENUM, __cx)? {
            ::core::option::Option::Some((__i, __skip, __raw)) => match __i {
                #(#arms)*
                _ => ::core::result::Result::Err(#rt::Failed),
            },
            ::core::option::Option::None => {
                let mut __u = #rt::Untagged::new();
                #(#fallback)*
                __u.finish(__node, #name, __cx)
            }
        }
    }}
}

/// `tag = "..", content = ".."`: the tag names the variant, read from the content key; with
/// no tag, every variant but `other` is tried on the content, or on the object itself.
fn adjacent_body(
    rt: &TokenStream,
    c: &Container<'_>,
    variants: &[Variant<'_>],
    fns: &[Ident],
    tag: &str,
    content: &str,
    spec: TokenStream,
) -> TokenStream {
    let name = &c.name;
    // Each variant read from its content (`None` when the content key is absent).
    let defs = content_fns(rt, c, variants, fns);
    let arms = fns.iter().enumerate().map(|(i, f)| {
        quote!(#i => __cx.at_field(#content, |__cx| #f(__cx, ::core::option::Option::as_deref(&__content), &__raw)),)
    });
    // No tag: every variant is tried on the content, or on the object itself.
    let fallback = variants.iter().zip(fns).filter(|(v, _)| !v.is_other()).map(|(_, f)| {
        quote!(__u.attempt(__cx, |__cx| #f(__cx, ::core::option::Option::Some(__c), ""));)
    }).collect::<Vec<_>>();
    let deny_unknown = c.deny_unknown;
    quote! {{
        #spec
        #(#defs)*
        match #rt::adjacent(__node, #tag, #content, &__ENUM, #deny_unknown, __cx)? {
            #rt::Adjacent::Tagged { index: __i, content: __content, raw: __raw } => match __i {
                #(#arms)*
                _ => ::core::result::Result::Err(#rt::Failed),
            },
            #rt::Adjacent::Untagged { content: __c, in_content: __in_content } => {
                let mut __u = #rt::Untagged::new();
                if __in_content {
                    __cx.at_field(#content, |__cx| { #(#fallback)* });
                } else {
                    #(#fallback)*
                }
                __u.finish(__c, #name, __cx)
            }
        }
    }}
}

/// The default, externally tagged: `"Variant"` or `{"Variant": content}`.
fn external_body(
    rt: &TokenStream,
    c: &Container<'_>,
    variants: &[Variant<'_>],
    fns: &[Ident],
    spec: TokenStream,
) -> TokenStream {
    let defs = content_fns(rt, c, variants, fns);
    let arms = variants.iter().zip(fns).enumerate().map(|(i, (v, f))| {
        let name = &v.name;
        quote!(#i => __cx.at_field(#name, |__cx| #f(__cx, __t.content, &__t.raw)),)
    });
    quote! {{
        #spec
        #(#defs)*
        let __t = #rt::external(__node, &__ENUM, __cx)?;
        match __t.index {
            #(#arms)*
            _ => ::core::result::Result::Err(#rt::Failed),
        }
    }}
}

/// One closure per variant reading it from its content: `Some(node)`, or `None` when only
/// the name was given (external and adjacent tagging share these).
fn content_fns(
    rt: &TokenStream,
    c: &Container<'_>,
    variants: &[Variant<'_>],
    fns: &[Ident],
) -> Vec<TokenStream> {
    variants
        .iter()
        .zip(fns)
        .map(|(v, f)| {
            let body = content_variant(rt, v, c.deny_unknown);
            quote! {
                let #f = |__cx: &mut #rt::Context, __content: ::core::option::Option<&#rt::Node<'_>>, __raw: &str|
                    -> ::core::result::Result<Self, #rt::Failed> { #body };
            }
        })
        .collect()
}

/// A variant read from its content (`__content`), or from its name alone (`__raw`).
fn content_variant(rt: &TokenStream, v: &Variant<'_>, deny_unknown: bool) -> TokenStream {
    let ident = v.ident;
    let construct = quote!(Self::#ident);
    match v.style {
        Style::Unit => quote!(::core::result::Result::Ok(#construct)),
        Style::Newtype if v.is_other() => {
            let read = read_expr(rt, &v.fields[0]);
            quote! {
                match __content {
                    ::core::option::Option::Some(__c) => (#read)(__c, __cx).map(#construct),
                    ::core::option::Option::None => ::core::result::Result::Ok(#construct(::std::string::ToString::to_string(__raw))),
                }
            }
        }
        _ => {
            let body = struct_body(
                rt,
                v.style,
                &v.fields,
                deny_unknown,
                construct,
                quote!(__c),
                quote!(::core::option::Option::None),
            );
            let empty = if v.style == Style::Named {
                quote!(#rt::empty(__node.span))
            } else {
                quote!(#rt::null(__node.span))
            };
            quote! {{
                let __absent;
                let __c = match __content {
                    ::core::option::Option::Some(__c) => __c,
                    ::core::option::Option::None => {
                        __absent = #empty;
                        &__absent
                    }
                };
                #body
            }}
        }
    }
}

/// An internally tagged variant, read from the whole object less the tag's entry `__skip`.
fn internal_variant(rt: &TokenStream, v: &Variant<'_>, deny_unknown: bool) -> TokenStream {
    let ident = v.ident;
    let construct = quote!(Self::#ident);
    match v.style {
        Style::Unit => quote! {{
            static __NONE: #rt::StructSpec = #rt::StructSpec { fields: &[], deny_unknown: #deny_unknown, flatten: false };
            #rt::fields::<0>(__node, &__NONE, __skip, __cx)?;
            ::core::result::Result::Ok(#construct)
        }},
        Style::Newtype if v.is_other() => {
            quote!(::core::result::Result::Ok(#construct(::std::string::ToString::to_string(__raw))))
        }
        Style::Newtype => {
            let read = read_expr(rt, &v.fields[0]);
            quote! {{
                let __c = #rt::without(__node, __skip);
                (#read)(&__c, __cx).map(#construct)
            }}
        }
        _ => struct_body(
            rt,
            v.style,
            &v.fields,
            deny_unknown,
            construct,
            quote!(__node),
            quote!(__skip),
        ),
    }
}

fn untagged_variant(
    rt: &TokenStream,
    v: &Variant<'_>,
    index: usize,
    deny_unknown: bool,
) -> TokenStream {
    let ident = v.ident;
    let construct = quote!(Self::#ident);
    match v.style {
        Style::Unit => quote! {
            #rt::untagged_unit(__node, &__ENUM.variants[#index], __cx).map(|()| #construct)
        },
        _ => struct_body(
            rt,
            v.style,
            &v.fields,
            deny_unknown,
            construct,
            quote!(__node),
            quote!(::core::option::Option::None),
        ),
    }
}
