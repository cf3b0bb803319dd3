//! Code generation for the partial twin: the type a stream shows while a reply arrives
//! (`OrderPartial` for `Order`), and its `PartialValue` impl wiring the runtime helpers in
//! `llm_extract::__private::stream`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::{Generics, Ident};

use crate::ast::{Container, Data, Field, Style, Tagging, Variant};
use crate::attr::StreamMode;
use crate::bounds::{used_params, with_bounds};

/// What the derive emits for streaming: items beside the type (the twin and its impls) and
/// the type named by `type Partial`.
pub struct Twin {
    pub items: TokenStream,
    pub partial: TokenStream,
}

/// The twin of `c`, by its shape.
pub fn twin(c: &Container<'_>) -> Twin {
    let rt = &c.rt();
    let none = Twin {
        items: TokenStream::new(),
        partial: quote!(#rt::NoPartial),
    };
    match &c.data {
        Data::Struct(Style::Named, fields) => {
            let name = &c.partial;
            let doc = format!(
                "The partial twin of [`{}`]: what a `llm_extract::Stream` shows of it while \
                 the reply arrives. Every field is optional (`None`: not shown yet), nested \
                 types are partial twins too, lists grow item by item; numbers, bools and \
                 enum values appear only once complete. Serializes as an object with the \
                 fields' names in the reply, fields not shown yet as `null`. Ask \
                 [`{name}::state`] where each field stands.",
                c.ident
            );
            let spec = TwinSpec {
                name,
                doc,
                vis: c.vis,
                field_vis: None,
                fields,
                original: Some(c.ident),
                validates: c.validate.is_some() || fields.iter().any(|f| !f.rules.is_empty()),
                done: c.stream_done,
            };
            let items = struct_twin(c, &spec);
            let (_, ty_g, _) = c.generics.split_for_impl();
            Twin {
                items,
                partial: quote!(#name #ty_g),
            }
        }
        // A newtype of the standard library's types shows its field's partial as it is; one
        // whose field names another type (which may lead back to this one: `Vec<Self>`, an
        // alias of it) gets a twin of its own, since a partial defined only through itself
        // would be an infinitely nested type.
        Data::Struct(Style::Newtype, fields) if shown(&fields[0]) => {
            let ty = fields[0].ty;
            let params: Vec<&Ident> = c.generics.type_params().map(|p| &p.ident).collect();
            if crate::ast::of_std_types(ty, &params) {
                return Twin {
                    items: TokenStream::new(),
                    partial: quote_spanned!(fields[0].span=> <#ty as #rt::Extract>::Partial),
                };
            }
            let name = &c.partial;
            let (_, ty_g, _) = c.generics.split_for_impl();
            Twin {
                items: newtype_twin(c, &fields[0]),
                partial: quote!(#name #ty_g),
            }
        }
        // Tuple and unit structs, and enums without variants, show nothing until `finish`.
        Data::Struct(..) => none,
        Data::Enum(variants) if variants.is_empty() => none,
        Data::Enum(variants) => {
            let items = enum_twin(c, variants);
            let name = &c.partial;
            let (_, ty_g, _) = c.generics.split_for_impl();
            Twin {
                items,
                partial: quote!(#name #ty_g),
            }
        }
    }
}

/// The twin of a newtype whose field may lead back to it: a tuple struct holding the field's
/// partial once something of it was shown (`None` before: so the twin of a type that is
/// only `Box`es and `Option`s of itself has a default). It derefs to that `Option` and
/// serializes as it.
fn newtype_twin(c: &Container<'_>, f: &Field<'_>) -> TokenStream {
    let rt = &c.rt();
    let generics = generics_with(c, rt);
    let (impl_g, ty_g, where_clause) = generics.split_for_impl();
    let name = &c.partial;
    let (vis, fvis) = (c.vis, f.vis);
    let p = partial_of(rt, f);
    let doc = format!(
        "The partial twin of [`{}`]: what a `llm_extract::Stream` shows of it while the reply \
         arrives, its field's partial once something of it arrived (`None` before). It derefs \
         to that `Option` and serializes as it.",
        c.ident
    );
    let marker = marker(c.generics);
    let marker_field = marker.as_ref().map(|m| quote!(#[doc(hidden)] pub #m,));
    let marker_init = marker
        .as_ref()
        .map(|_| quote!(::core::marker::PhantomData,));
    let names = NewtypeTwin {
        rt,
        name,
        p: &p,
        generics: &generics,
    };
    let traits = newtype_twin_traits(&names);
    let partial_value = newtype_twin_partial_value(&names);
    quote! {
        #[doc = #doc]
        #vis struct #name #generics (#fvis ::core::option::Option<#p>, #marker_field) #where_clause;

        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #[automatically_derived]
            impl #impl_g #name #ty_g #where_clause {
                fn __llm_extract_wrap(__inner: ::core::option::Option<#p>) -> Self {
                    #name(__inner, #marker_init)
                }
            }

            #traits
            #partial_value
        };
    }
}

/// The names a newtype twin's impls are written with.
struct NewtypeTwin<'a> {
    rt: &'a TokenStream,
    name: &'a Ident,
    /// The field's partial.
    p: &'a TokenStream,
    generics: &'a Generics,
}

/// The newtype twin's std traits: it derefs to its `Option`, and is cloned, compared,
/// printed and serialized as that `Option`.
fn newtype_twin_traits(t: &NewtypeTwin<'_>) -> TokenStream {
    let NewtypeTwin { rt, name, p, .. } = *t;
    let (impl_g, ty_g, where_clause) = t.generics.split_for_impl();
    let name_str = name.to_string();
    quote! {
            #[automatically_derived]
            impl #impl_g ::core::ops::Deref for #name #ty_g #where_clause {
                type Target = ::core::option::Option<#p>;
                fn deref(&self) -> &::core::option::Option<#p> {
                    &self.0
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::ops::DerefMut for #name #ty_g #where_clause {
                fn deref_mut(&mut self) -> &mut ::core::option::Option<#p> {
                    &mut self.0
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::default::Default for #name #ty_g #where_clause {
                fn default() -> Self {
                    Self::__llm_extract_wrap(::core::option::Option::None)
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::clone::Clone for #name #ty_g #where_clause {
                fn clone(&self) -> Self {
                    Self::__llm_extract_wrap(::core::clone::Clone::clone(&self.0))
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::cmp::PartialEq for #name #ty_g #where_clause {
                fn eq(&self, __other: &Self) -> bool {
                    self.0 == __other.0
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::fmt::Debug for #name #ty_g #where_clause {
                fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __f.debug_tuple(#name_str).field(&self.0).finish()
                }
            }

            #[automatically_derived]
            impl #impl_g #rt::serde::Serialize for #name #ty_g #where_clause {
                fn serialize<__S: #rt::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #rt::serde::Serialize::serialize(&self.0, __s)
                }
            }

    }
}

/// The newtype twin's `PartialValue`: its field's, once something of it was shown.
fn newtype_twin_partial_value(t: &NewtypeTwin<'_>) -> TokenStream {
    let NewtypeTwin { rt, p, .. } = *t;
    let (impl_g, ty_g, where_clause) = t.generics.split_for_impl();
    let name = t.name;
    quote! {
            #[automatically_derived]
            impl #impl_g #rt::stream::PartialValue for #name #ty_g #where_clause {
                fn apply(
                    __slot: &mut ::core::option::Option<Self>,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    match __slot {
                        ::core::option::Option::Some(__t) => Self::apply_in(__t, __at, __event, __feed),
                        ::core::option::Option::None => {
                            let mut __inner = ::core::option::Option::None;
                            let __changed = <#p as #rt::stream::PartialValue>::apply(&mut __inner, __at, __event, __feed);
                            if __inner.is_some() {
                                *__slot = ::core::option::Option::Some(Self::__llm_extract_wrap(__inner));
                            }
                            __changed
                        }
                    }
                }

                fn apply_in(
                    __t: &mut Self,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    match &mut __t.0 {
                        ::core::option::Option::Some(__p) => {
                            <#p as #rt::stream::PartialValue>::apply_in(__p, __at, __event, __feed)
                        }
                        __none => <#p as #rt::stream::PartialValue>::apply(__none, __at, __event, __feed),
                    }
                }

                fn salvage(
                    __slot: &mut ::core::option::Option<Self>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> ::std::vec::Vec<#rt::Path> {
                    let mut __inner = __slot.take().and_then(|__t| __t.0);
                    let __found = <#p as #rt::stream::PartialValue>::salvage(&mut __inner, __feed);
                    if __inner.is_some() {
                        *__slot = ::core::option::Option::Some(Self::__llm_extract_wrap(__inner));
                    }
                    __found
                }

                fn grow_leaf(__t: &mut Self) -> ::core::option::Option<&mut #rt::stream::PartialString> {
                    __t.0.as_mut().and_then(<#p as #rt::stream::PartialValue>::grow_leaf)
                }
            }
    }
}

/// A struct twin to generate: a struct's, or a struct variant's payload.
struct TwinSpec<'a> {
    name: &'a Ident,
    doc: String,
    vis: &'a syn::Visibility,
    /// The fields' visibility when not their own (a variant's fields are as visible as the
    /// enum).
    field_vis: Option<&'a syn::Visibility>,
    fields: &'a [Field<'a>],
    /// The type the twin mirrors, read whole at its close to run its rules.
    original: Option<&'a Ident>,
    validates: bool,
    done: bool,
}

/// Whether a field has a twin member: read through `Extract` (not skipped, not `with`).
fn shown(f: &Field<'_>) -> bool {
    !f.skip && f.with.is_none()
}

/// A newtype variant's payload partial: the field type's own, an `Option<T>` included (its
/// `PartialOption` reads a placeholder as `None`, as the typed read does, where the variant's
/// `Option` around the payload only says whether anything arrived yet).
fn payload_partial_of(rt: &TokenStream, f: &Field<'_>) -> TokenStream {
    let ty = f.ty;
    quote_spanned!(f.span=> <#ty as #rt::Extract>::Partial)
}

fn partial_of(rt: &TokenStream, f: &Field<'_>) -> TokenStream {
    // A twin's members are `Option`s already (`None` until something arrives, and for a
    // `null`): an `Option<T>` field shows `T`'s partial there.
    let ty = crate::ast::option_inner(f.ty).unwrap_or(f.ty);
    quote_spanned!(f.span=> <#ty as #rt::Extract>::Partial)
}

/// `PhantomData` of every type and lifetime parameter, so a twin that names none of them
/// in its members still uses them; `None` for a type without such parameters.
fn marker(generics: &Generics) -> Option<TokenStream> {
    let types: Vec<&Ident> = generics.type_params().map(|p| &p.ident).collect();
    let lifetimes: Vec<&syn::Lifetime> = generics.lifetimes().map(|l| &l.lifetime).collect();
    if types.is_empty() && lifetimes.is_empty() {
        return None;
    }
    Some(quote!(::core::marker::PhantomData<fn() -> (#(#types,)* #(&#lifetimes (),)*)>))
}

// Long: the pieces of the twin (members, key arms, holding, salvage) are built first, each
// named, then laid into one template of the twin and its seven impls; splitting the template
// would scatter the generated code a reader needs to see whole. A follow-up may move the
// pieces into functions.
fn struct_twin(c: &Container<'_>, t: &TwinSpec<'_>) -> TokenStream {
    let rt = &c.rt();
    let generics = generics_with(c, rt);
    let (impl_g, ty_g, where_clause) = generics.split_for_impl();
    let params = &c.generics.params;
    let name = t.name;
    let name_str = name.to_string();
    let vis = t.vis;
    let doc = &t.doc;
    let marker = marker(c.generics);
    let marker_field = marker
        .as_ref()
        .map(|m| quote!(#[doc(hidden)] __marker: #m,));
    let marker_init = marker
        .as_ref()
        .map(|_| quote!(__marker: ::core::marker::PhantomData,));

    let members: Vec<(usize, &Field<'_>)> = t
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| shown(f))
        .collect();
    let defs = members.iter().map(|(_, f)| {
        let member = &f.member;
        let fvis = t.field_vis.unwrap_or(f.vis);
        let p = partial_of(rt, f);
        let doc = format!(
            "`{member}` so far (`None`: not shown yet).",
            member = quote!(#member)
        );
        quote!(#[doc = #doc] #fvis #member: ::core::option::Option<#p>,)
    });
    let idents: Vec<&syn::Member> = members.iter().map(|(_, f)| &f.member).collect();
    let rust_names: Vec<String> = idents.iter().map(|m| quote!(#m).to_string()).collect();

    // Serialization: wire names; a flattened member's entries merge into the object.
    let ser = members.iter().map(|(_, f)| {
        let member = &f.member;
        let wire = &f.name;
        if f.is_flatten() {
            quote! {
                if let #rt::serde_json::Value::Object(__m) = #rt::serde_json::to_value(&self.#member)
                    .map_err(<__S::Error as #rt::serde::ser::Error>::custom)?
                {
                    for (__k, __v) in __m {
                        #rt::serde::ser::SerializeMap::serialize_entry(&mut __map, &__k, &__v)?;
                    }
                }
            }
        } else {
            quote!(#rt::serde::ser::SerializeMap::serialize_entry(&mut __map, #wire, &self.#member)?;)
        }
    });

    // Names for `state`: every field in declaration order, Rust name and wire name.
    let state_names = t.fields.iter().map(|f| {
        let member = &f.member;
        let rust = quote!(#member).to_string();
        let wire = &f.name;
        quote!((#rust, #wire))
    });

    // Key matching: the fields read from keys, in order (as the full path's `StructSpec`).
    let keyed: Vec<(usize, &Field<'_>)> = t
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.skip && !f.is_flatten())
        .collect();
    let exact: Vec<&String> = keyed.iter().map(|(_, f)| &f.name).collect();
    let exact_slots = 0..keyed.len();
    let specs = keyed.iter().map(|(_, f)| {
        let (n, aliases) = (&f.name, &f.aliases);
        quote!(#rt::FieldSpec { name: #n, aliases: &[#(#aliases),*] })
    });
    // An `Option` field reads a placeholder (`N/A`, `none`) as `None`: the field holds back a
    // string that may still become one and shows a complete one as `None`
    // (`stream::apply_option`), in the twin's `__held`.
    let holds = |f: &Field<'_>| shown(f) && !f.strict && !c.strict && crate::ast::is_option(f.ty);
    let any_holds = keyed.iter().any(|(_, f)| holds(f));
    let arms = keyed.iter().enumerate().map(|(slot, (i, f))| {
        let member = &f.member;
        let apply = if shown(f) {
            let p = partial_of(rt, f);
            // The walk of a growing string goes on into the member, and records it if it is
            // the string (`stream/hot.rs`); a member held back hands nothing down.
            let (s, r, e, fd) = (quote!(__s), quote!(__r), quote!(__e), quote!(__f));
            let body = match f.stream {
                Some(StreamMode::Done) => quote! {
                    #rt::stream::done(#s, #r, #e, #fd, <#p as #rt::stream::PartialValue>::apply)
                },
                _ => quote! {
                    if #fd.tracing() {
                        #rt::stream::trail_apply(#s, #r, #e, #fd)
                    } else {
                        <#p as #rt::stream::PartialValue>::apply(#s, #r, #e, #fd)
                    }
                },
            };
            if holds(f) {
                quote! {
                    #rt::stream::apply_option(
                        &mut __t.#member, &mut __t.__held, #i, __rest, __event, __feed,
                        |#s, #r, #e, #fd| #body,
                    )
                }
            } else {
                quote! {{
                    let (#s, #r, #e, #fd) = (&mut __t.#member, __rest, __event, &mut *__feed);
                    #body
                }}
            }
        } else {
            quote!(false)
        };
        // A strict field's values, and a strict type's, are read as `finish` reads them there.
        let apply = if shown(f) && (f.strict || c.strict) {
            quote! {{
                let __was = __feed.set_strict(true);
                let __changed = #apply;
                __feed.set_strict(__was);
                __changed
            }}
        } else {
            apply
        };
        // A field whose partial shows nothing until `finish` is never called complete.
        let shows = match shown(f) {
            true => {
                let p = partial_of(rt, f);
                quote!(<#p as #rt::stream::PartialValue>::SHOWS)
            }
            false => quote!(true),
        };
        quote! {
            ::core::option::Option::Some(#slot) => {
                if !__t.__state.take_key(#i, __rank) {
                    return false;
                }
                #rt::stream::note_field(&mut __t.__state, #i, __rest, __event, __feed, #shows);
                #apply
            }
        }
    });
    let flattened: Vec<(usize, &Field<'_>)> = t
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_flatten() && shown(f))
        .collect();
    let flatten_apply = flattened.iter().map(|(i, f)| {
        let member = &f.member;
        let p = partial_of(rt, f);
        quote! {
            __t.__state.note(#i, __at, __event);
            __changed |= <#p as #rt::stream::PartialValue>::apply(&mut __t.#member, __at, __event, __feed);
        }
    });
    let flatten_close = flattened.iter().map(|(i, _)| {
        quote! {
            if __t.__state.get(#i) != #rt::stream::FieldState::Pending {
                __t.__state.complete(#i);
            }
        }
    });
    let read_whole = match (t.original, t.validates) {
        (Some(original), true) => {
            let (_, orig_g, _) = c.generics.split_for_impl();
            quote!(let _ = __feed.read::<#original #orig_g>(__event);)
        }
        _ => TokenStream::new(),
    };

    // Holding back: the whole type (`stream = "done"`), or until required fields arrive.
    let required: Vec<(usize, usize)> = keyed
        .iter()
        .enumerate()
        .filter(|(_, (_, f))| f.stream == Some(StreamMode::Required))
        .map(|(slot, (i, _))| (slot, *i))
        .collect();
    let entry = if t.done {
        quote!(#rt::stream::done(__slot, __at, __event, __feed, Self::__llm_extract_apply))
    } else if !required.is_empty() {
        let slots = required.iter().map(|(s, _)| s);
        let indexes = required.iter().map(|(_, i)| i);
        quote! {
            #rt::stream::require(
                __slot, __at, __event, __feed,
                &#rt::stream::Required {
                    spec: Self::__llm_extract_spec(),
                    fields: &[#(#slots),*],
                    complete: |__t: &Self| true #(&& __t.__state.get(#indexes) == #rt::stream::FieldState::Complete)*,
                },
                Self::__llm_extract_apply,
            )
        }
    } else {
        quote!(Self::__llm_extract_apply(__slot, __at, __event, __feed))
    };

    // A twin already shown takes member events in place (no move through an `Option`),
    // unless it is held back, which needs the `Option`.
    let in_place = if t.done || !required.is_empty() {
        TokenStream::new()
    } else {
        quote! {
            fn apply_in(
                __t: &mut Self,
                __at: &[#rt::stream::Step<'_>],
                __event: &#rt::stream::Event<'_>,
                __feed: &mut #rt::stream::Feed<'_>,
            ) -> bool {
                match __at.split_first() {
                    ::core::option::Option::Some((#rt::stream::Step::Key(__k), __rest)) => {
                        Self::__llm_extract_key(__t, __k, __rest, __at, __event, __feed)
                    }
                    _ => {
                        let mut __slot = ::core::option::Option::Some(::core::mem::take(__t));
                        let __changed = Self::__llm_extract_apply(&mut __slot, __at, __event, __feed);
                        if let ::core::option::Option::Some(__v) = __slot {
                            *__t = __v;
                        }
                        __changed
                    }
                }
            }
        }
    };

    let salvage = keyed.iter().filter(|(_, f)| shown(f)).map(|(i, f)| {
        let member = &f.member;
        let (n, aliases) = (&f.name, &f.aliases);
        quote! {
            #rt::stream::salvage_field(&mut __t.#member, &mut __t.__state, #i, &[#n, #(#aliases),*], __feed, &mut __found);
        }
    });

    let (held_field, held_init, held_clone) = if any_holds {
        (
            quote!(#[doc(hidden)] __held: #rt::stream::Held,),
            quote!(__held: ::core::default::Default::default(),),
            quote!(__held: ::core::clone::Clone::clone(&self.__held),),
        )
    } else {
        (TokenStream::new(), TokenStream::new(), TokenStream::new())
    };

    // Two bits per field, in as many words as the fields need.
    let words = t.fields.len().div_ceil(64).max(1);
    let _ = params;
    quote! {
        #[doc = #doc]
        #vis struct #name #generics #where_clause {
            #(#defs)*
            #[doc(hidden)]
            __state: #rt::stream::FieldStates<#words>,
            #held_field
            #marker_field
        }

        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            #[automatically_derived]
            impl #impl_g #name #ty_g #where_clause {
                /// Where field `field` stands (named as in Rust or as in the reply): pending
                /// until its key arrives, incomplete while its value does, then complete.
                #[allow(dead_code)]
                pub fn state(&self, field: &str) -> #rt::stream::FieldState {
                    #rt::stream::state_of(&self.__state, &[#(#state_names),*], field)
                }

                fn __llm_extract_spec() -> &'static #rt::StructSpec {
                    static __SPEC: #rt::StructSpec = #rt::StructSpec {
                        fields: &[#(#specs),*],
                        deny_unknown: false,
                        flatten: false,
                    };
                    &__SPEC
                }

                fn __llm_extract_apply(
                    __slot: &mut ::core::option::Option<Self>,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    match __at.split_first() {
                        ::core::option::Option::None => match __event {
                            #rt::stream::Event::Open(#rt::stream::Container::Object) if __slot.is_none() => {
                                *__slot = ::core::option::Option::Some(::core::default::Default::default());
                                true
                            }
                            #rt::stream::Event::Close => {
                                if let ::core::option::Option::Some(__t) = __slot {
                                    #(#flatten_close)*
                                    let _ = __t;
                                }
                                #read_whole
                                false
                            }
                            _ => {
                                __feed.lenient();
                                false
                            }
                        },
                        ::core::option::Option::Some((#rt::stream::Step::Key(__k), __rest)) => {
                            let __created = __slot.is_none();
                            let __t = __slot.get_or_insert_with(::core::default::Default::default);
                            Self::__llm_extract_key(__t, __k, __rest, __at, __event, __feed) || __created
                        }
                        _ => {
                            __feed.lenient();
                            false
                        }
                    }
                }

                /// An event below the member with key `__k`.
                #[allow(unreachable_patterns)]
                fn __llm_extract_key(
                    __t: &mut Self,
                    __k: &str,
                    __rest: &[#rt::stream::Step<'_>],
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    if __feed.tracing() {
                        __feed.trail_enter(&*__t);
                    }
                    // The names as written first (a jump on the key), then the full matching.
                    let (__field, __rank) = match __k {
                        #(#exact => (::core::option::Option::Some(#exact_slots), 0u8),)*
                        _ => {
                            __feed.lenient();
                            match #rt::stream::field_rank(Self::__llm_extract_spec(), __k) {
                                ::core::option::Option::Some((__i, __r)) => (::core::option::Option::Some(__i), __r),
                                ::core::option::Option::None => (::core::option::Option::None, 0u8),
                            }
                        }
                    };
                    let _ = (__rest, __at);
                    match __field {
                        #(#arms)*
                        _ => {
                            let mut __changed = false;
                            #(#flatten_apply)*
                            __changed
                        }
                    }
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::default::Default for #name #ty_g #where_clause {
                fn default() -> Self {
                    #name {
                        #(#idents: ::core::option::Option::None,)*
                        __state: ::core::default::Default::default(),
                        #held_init
                        #marker_init
                    }
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::clone::Clone for #name #ty_g #where_clause {
                fn clone(&self) -> Self {
                    #name {
                        #(#idents: ::core::clone::Clone::clone(&self.#idents),)*
                        __state: ::core::clone::Clone::clone(&self.__state),
                        #held_clone
                        #marker_init
                    }
                }
            }

            /// Compares the values shown, not the fields' states.
            #[automatically_derived]
            impl #impl_g ::core::cmp::PartialEq for #name #ty_g #where_clause {
                fn eq(&self, __other: &Self) -> bool {
                    true #(&& self.#idents == __other.#idents)*
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::fmt::Debug for #name #ty_g #where_clause {
                fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    __f.debug_struct(#name_str)
                        #(.field(#rust_names, &self.#idents))*
                        .finish()
                }
            }

            #[automatically_derived]
            impl #impl_g #rt::serde::Serialize for #name #ty_g #where_clause {
                fn serialize<__S: #rt::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    let mut __map = #rt::serde::Serializer::serialize_map(__s, ::core::option::Option::None)?;
                    #(#ser)*
                    #rt::serde::ser::SerializeMap::end(__map)
                }
            }

            #[automatically_derived]
            impl #impl_g #rt::stream::PartialValue for #name #ty_g #where_clause {
                fn apply(
                    __slot: &mut ::core::option::Option<Self>,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    #entry
                }

                #in_place

                fn salvage(
                    __slot: &mut ::core::option::Option<Self>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> ::std::vec::Vec<#rt::Path> {
                    let mut __found = ::std::vec::Vec::new();
                    let __was_none = __slot.is_none();
                    let __t = __slot.get_or_insert_with(::core::default::Default::default);
                    #(#salvage)*
                    let _ = __t;
                    if __was_none && __found.is_empty() {
                        *__slot = ::core::option::Option::None;
                    }
                    __found
                }
            }
        };
    }
}

/// The type's generics with `Extract` on the parameters its fields read.
fn generics_with(c: &Container<'_>, rt: &TokenStream) -> Generics {
    with_bounds(c.generics, &used_params(c), quote!(#rt::Extract))
}

/// What a twin enum's variant holds.
enum Payload<'a> {
    /// Nothing: a unit or tuple variant, or the `other` variant (its value comes with
    /// `finish`).
    None,
    /// A newtype variant: its value's partial (`None` until it shows something).
    Newtype(&'a Field<'a>),
    /// A struct variant: its payload twin, `{Enum}{Variant}Partial`.
    Struct(Ident),
}

fn payload<'a>(c: &Container<'_>, v: &'a Variant<'a>) -> Payload<'a> {
    match v.style {
        Style::Newtype if !v.is_other() && shown(&v.fields[0]) => Payload::Newtype(&v.fields[0]),
        Style::Named => Payload::Struct(format_ident!("{}{}", c.partial, v.ident)),
        _ => Payload::None,
    }
}

// Long: as `struct_twin`: per-variant pieces (payload, index, replay, serialization), the
// per-tagging key arms, then one template of the twin and its impls. A follow-up may move the
// per-tagging arms into their own functions.
fn enum_twin(c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
    let rt = &c.rt();
    let generics = generics_with(c, rt);
    let (impl_g, ty_g, where_clause) = generics.split_for_impl();
    let ident = c.ident;
    let (_, orig_g, _) = c.generics.split_for_impl();
    let name = &c.partial;
    let name_str = name.to_string();
    let vis = c.vis;
    let payloads: Vec<Payload<'_>> = variants.iter().map(|v| payload(c, v)).collect();
    let unit_only = payloads.iter().all(|p| matches!(p, Payload::None));

    // The payload twins of struct variants come first.
    let mut out = TokenStream::new();
    for (v, p) in variants.iter().zip(&payloads) {
        if let Payload::Struct(pname) = p {
            let spec = TwinSpec {
                name: pname,
                doc: format!(
                    "The partial twin of the payload of [`{ident}::{}`] (see [`{name}`]).",
                    v.ident
                ),
                vis,
                field_vis: Some(vis),
                fields: &v.fields,
                original: None,
                validates: false,
                done: false,
            };
            out.extend(struct_twin(c, &spec));
        }
    }

    let marker = marker(c.generics);
    let pending_def = match &marker {
        Some(m) => quote!(__Pending(#m)),
        None => quote!(__Pending),
    };
    let pending_pat = match &marker {
        Some(_) => quote!(Self::__Pending(..)),
        None => quote!(Self::__Pending),
    };
    let pending_new = match &marker {
        Some(_) => quote!(Self::__Pending(::core::marker::PhantomData)),
        None => quote!(Self::__Pending),
    };
    let variant_defs = variants.iter().zip(&payloads).map(|(v, p)| {
        let vi = v.ident;
        let doc = format!("[`{ident}::{vi}`]");
        match p {
            Payload::None => quote!(#[doc = #doc] #vi,),
            Payload::Newtype(f) => {
                let pt = payload_partial_of(rt, f);
                quote!(#[doc = #doc] #vi(::core::option::Option<#pt>),)
            }
            Payload::Struct(pname) => quote!(#[doc = #doc] #vi(#pname #ty_g),),
        }
    });
    let doc = format!(
        "The partial twin of [`{ident}`]: what a `llm_extract::Stream` shows of it while the \
         reply arrives. The variant appears once it is known (its name, key or tag complete, \
         or the whole value for an untagged enum), its payload then grows as a partial twin. \
         Serializes as the variant's name (a variant without payload) or `{{\"Name\": \
         payload}}`. The hidden default `__Pending` (serialized as `null`) is what a snapshot \
         shows before anything is known; a field of this type is `None` then instead."
    );

    let indexed = || variants.iter().enumerate().map(|(i, v)| (i, v.ident));
    let index_of_value = indexed().map(|(i, vi)| quote!(#ident::#vi { .. } => #i,));
    let index_of_twin = variants
        .iter()
        .zip(&payloads)
        .enumerate()
        .map(|(i, (v, p))| {
            let vi = v.ident;
            match p {
                Payload::None => quote!(Self::#vi => ::core::option::Option::Some(#i),),
                _ => quote!(Self::#vi(..) => ::core::option::Option::Some(#i),),
            }
        });
    let pick = variants
        .iter()
        .zip(&payloads)
        .enumerate()
        .map(|(i, (v, p))| {
            let vi = v.ident;
            match p {
                Payload::None => quote!(#i => Self::#vi,),
                _ => quote!(#i => Self::#vi(::core::default::Default::default()),),
            }
        });
    // The payload read again: the whole value, or its content member (`__member`).
    let replay_of = |pt: TokenStream| {
        quote! {
            match __member {
                ::core::option::Option::Some(__k) => __feed.replay_member::<#pt>(__at, __k),
                ::core::option::Option::None => __feed.replay::<#pt>(__at),
            }
        }
    };
    let replay = variants.iter().zip(&payloads).enumerate().map(|(i, (v, p))| {
        let vi = v.ident;
        match p {
            Payload::None => quote!(#i => ::core::option::Option::Some(Self::#vi),),
            Payload::Newtype(f) => {
                let read = replay_of(payload_partial_of(rt, f));
                quote!(#i => ::core::option::Option::Some(Self::#vi(#read)),)
            }
            Payload::Struct(pname) => {
                let read = replay_of(quote!(#pname #ty_g));
                quote!(#i => ::core::option::Option::Some(Self::#vi(#read.unwrap_or_default())),)
            }
        }
    });
    let payload_apply = variants.iter().zip(&payloads).map(|(v, p)| {
        let vi = v.ident;
        match p {
            Payload::None => quote!(Self::#vi => false,),
            Payload::Newtype(f) => {
                let pt = payload_partial_of(rt, f);
                quote!(Self::#vi(__p) => <#pt as #rt::stream::PartialValue>::apply(__p, __at, __event, __feed),)
            }
            Payload::Struct(_) => quote!(Self::#vi(__p) => #rt::stream::apply_in(__p, __at, __event, __feed),),
        }
    });
    let ser = variants.iter().zip(&payloads).map(|(v, p)| {
        let (vi, wire) = (v.ident, &v.name);
        match p {
            Payload::None => quote!(Self::#vi => #rt::serde::Serializer::serialize_str(__s, #wire),),
            _ => quote! {
                Self::#vi(__p) => {
                    let mut __map = #rt::serde::Serializer::serialize_map(__s, ::core::option::Option::Some(1))?;
                    #rt::serde::ser::SerializeMap::serialize_entry(&mut __map, #wire, __p)?;
                    #rt::serde::ser::SerializeMap::end(__map)
                }
            },
        }
    });
    let names = variants.iter().map(|v| {
        let (n, aliases) = (&v.name, &v.aliases);
        quote!(#rt::VariantNames { name: #n, aliases: &[#(#aliases),*] })
    });
    let enum_name = &c.name;

    let validates = c.validate.is_some()
        || variants
            .iter()
            .any(|v| v.fields.iter().any(|f| !f.rules.is_empty()));
    // Where the payload is the whole value, it is read again from its start.
    let replays = matches!(c.tagging(), Tagging::Internal { .. } | Tagging::Untagged);
    // The whole value, once complete: read as the type (its rules run, its issues are
    // recorded); shown if nothing was yet, its payload read again.
    let whole = quote! {
        ::core::option::Option::None if __event.completes() && !__event.is_null() => {
            if __slot.is_some() && !#validates {
                return false;
            }
            let __value = __feed.read::<#ident #orig_g>(__event);
            match (__slot.is_none(), __value) {
                (true, ::core::option::Option::Some(__v)) => {
                    let __i = match &__v { #(#index_of_value)* };
                    *__slot = match __event {
                        #rt::stream::Event::Close if #replays => Self::__llm_extract_replay(__i, __at, ::core::option::Option::None, __feed),
                        _ => {
                            let mut __t = Self::__llm_extract_pick(__i);
                            __t.__llm_extract_payload(__at, __event, __feed);
                            ::core::option::Option::Some(__t)
                        }
                    };
                    __slot.is_some()
                }
                _ => false,
            }
        }
    };
    // The variant named by a complete tag value at `[Key(tag)]`.
    let from_tag = |then: TokenStream| {
        quote! {
            if !__rest.is_empty() || !__event.completes() || __slot.is_some() {
                return false;
            }
            let ::core::option::Option::Some(__name) = __feed.read::<::std::string::String>(__event) else {
                return false;
            };
            let ::core::option::Option::Some(__i) = #rt::stream::variant_index(Self::__llm_extract_spec(), &__name) else {
                return false;
            };
            #then
        }
    };
    let keyed = match c.tagging() {
        Tagging::External => quote! {
            ::core::option::Option::Some((#rt::stream::Step::Key(__k), __rest)) => {
                // A variant named by a key: what the typed read makes of it (a unit variant
                // written as an object, a key matched by another name) is its to say.
                __feed.lenient();
                let __i = #rt::stream::variant_index(Self::__llm_extract_spec(), __k);
                match __slot {
                    ::core::option::Option::None => match __i {
                        ::core::option::Option::Some(__i) => {
                            let mut __t = Self::__llm_extract_pick(__i);
                            __t.__llm_extract_payload(__rest, __event, __feed);
                            *__slot = ::core::option::Option::Some(__t);
                            true
                        }
                        ::core::option::Option::None => false,
                    },
                    ::core::option::Option::Some(__t) if __i.is_some() && __t.__llm_extract_index() == __i => {
                        __t.__llm_extract_payload(__rest, __event, __feed)
                    }
                    _ => false,
                }
            }
        },
        Tagging::Internal { tag } => {
            let then = quote! {
                *__slot = Self::__llm_extract_replay(__i, __at, ::core::option::Option::None, __feed);
                __slot.is_some()
            };
            let tagged = from_tag(then);
            quote! {
                ::core::option::Option::Some((#rt::stream::Step::Key(__k), __rest)) if #rt::stream::same_key(#tag, __k) => {
                    #tagged
                }
                ::core::option::Option::Some(_) => match __slot {
                    ::core::option::Option::Some(__t) => __t.__llm_extract_payload(__at, __event, __feed),
                    ::core::option::Option::None => false,
                },
            }
        }
        Tagging::Adjacent { tag, content } => {
            // Content written before the tag is read again once the tag names the variant.
            let then = quote! {
                *__slot = Self::__llm_extract_replay(__i, __at, ::core::option::Option::Some(#content), __feed);
                __slot.is_some()
            };
            let tagged = from_tag(then);
            quote! {
                ::core::option::Option::Some((#rt::stream::Step::Key(__k), __rest)) if #rt::stream::same_key(#tag, __k) => {
                    #tagged
                }
                ::core::option::Option::Some((#rt::stream::Step::Key(__k), __rest)) if #rt::stream::same_key(#content, __k) => {
                    match __slot {
                        ::core::option::Option::Some(__t) => __t.__llm_extract_payload(__rest, __event, __feed),
                        ::core::option::Option::None => false,
                    }
                }
            }
        }
        Tagging::Untagged => TokenStream::new(),
    };
    let entry = if c.stream_done {
        quote!(#rt::stream::done(__slot, __at, __event, __feed, Self::__llm_extract_apply))
    } else {
        quote!(Self::__llm_extract_apply(__slot, __at, __event, __feed))
    };

    let type_def = if unit_only && marker.is_none() {
        quote! {
            #[doc = #doc]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            // `__Pending` is the `Default` a partial needs, not a `non_exhaustive` marker.
            #[allow(clippy::manual_non_exhaustive)]
            #vis enum #name {
                #(#variant_defs)*
                /// Nothing known yet (serialized as `null`).
                #[doc(hidden)]
                #[default]
                __Pending,
            }
        }
    } else {
        quote! {
            #[doc = #doc]
            #[allow(clippy::manual_non_exhaustive)]
            #vis enum #name #generics #where_clause {
                #(#variant_defs)*
                /// Nothing known yet (serialized as `null`).
                #[doc(hidden)]
                #pending_def,
            }
        }
    };
    let by_hand = if unit_only && marker.is_none() {
        TokenStream::new()
    } else {
        let clone = variants.iter().zip(&payloads).map(|(v, p)| {
            let vi = v.ident;
            match p {
                Payload::None => quote!(Self::#vi => Self::#vi,),
                _ => quote!(Self::#vi(__p) => Self::#vi(::core::clone::Clone::clone(__p)),),
            }
        });
        let eq = variants.iter().zip(&payloads).map(|(v, p)| {
            let vi = v.ident;
            match p {
                Payload::None => quote!((Self::#vi, Self::#vi) => true,),
                _ => quote!((Self::#vi(__a), Self::#vi(__b)) => __a == __b,),
            }
        });
        let debug = variants.iter().zip(&payloads).map(|(v, p)| {
            let vi = v.ident;
            let vs = vi.to_string();
            match p {
                Payload::None => quote!(Self::#vi => __f.write_str(#vs),),
                _ => quote!(Self::#vi(__p) => __f.debug_tuple(#vs).field(__p).finish(),),
            }
        });
        let pending_pair = match &marker {
            Some(_) => quote!((Self::__Pending(..), Self::__Pending(..))),
            None => quote!((Self::__Pending, Self::__Pending)),
        };
        quote! {
            #[automatically_derived]
            impl #impl_g ::core::default::Default for #name #ty_g #where_clause {
                fn default() -> Self {
                    #pending_new
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::clone::Clone for #name #ty_g #where_clause {
                fn clone(&self) -> Self {
                    match self {
                        #(#clone)*
                        #pending_pat => #pending_new,
                    }
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::cmp::PartialEq for #name #ty_g #where_clause {
                fn eq(&self, __other: &Self) -> bool {
                    match (self, __other) {
                        #(#eq)*
                        #pending_pair => true,
                        _ => false,
                    }
                }
            }

            #[automatically_derived]
            impl #impl_g ::core::fmt::Debug for #name #ty_g #where_clause {
                fn fmt(&self, __f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    match self {
                        #(#debug)*
                        #pending_pat => __f.write_str("__Pending"),
                    }
                }
            }
        }
    };
    let _ = &name_str;

    out.extend(quote! {
        #type_def

        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, unreachable_patterns, clippy::all, clippy::pedantic)]
        const _: () = {
            #by_hand

            #[automatically_derived]
            impl #impl_g #rt::serde::Serialize for #name #ty_g #where_clause {
                fn serialize<__S: #rt::serde::Serializer>(&self, __s: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    match self {
                        #(#ser)*
                        #pending_pat => #rt::serde::Serializer::serialize_unit(__s),
                    }
                }
            }

            #[automatically_derived]
            impl #impl_g #name #ty_g #where_clause {
                fn __llm_extract_spec() -> &'static #rt::EnumSpec {
                    static __ENUM: #rt::EnumSpec = #rt::EnumSpec {
                        name: #enum_name,
                        variants: &[#(#names),*],
                        other: ::core::option::Option::None,
                    };
                    &__ENUM
                }

                fn __llm_extract_index(&self) -> ::core::option::Option<usize> {
                    match self {
                        #(#index_of_twin)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn __llm_extract_pick(__i: usize) -> Self {
                    match __i {
                        #(#pick)*
                        _ => #pending_new,
                    }
                }

                fn __llm_extract_replay(
                    __i: usize,
                    __at: &[#rt::stream::Step<'_>],
                    __member: ::core::option::Option<&str>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> ::core::option::Option<Self> {
                    match __i {
                        #(#replay)*
                        _ => ::core::option::Option::None,
                    }
                }

                fn __llm_extract_payload(
                    &mut self,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    match self {
                        #(#payload_apply)*
                        _ => false,
                    }
                }

                fn __llm_extract_apply(
                    __slot: &mut ::core::option::Option<Self>,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    match __at.split_first() {
                        #whole
                        #keyed
                        _ => false,
                    }
                }
            }

            #[automatically_derived]
            impl #impl_g #rt::stream::PartialValue for #name #ty_g #where_clause {
                fn apply(
                    __slot: &mut ::core::option::Option<Self>,
                    __at: &[#rt::stream::Step<'_>],
                    __event: &#rt::stream::Event<'_>,
                    __feed: &mut #rt::stream::Feed<'_>,
                ) -> bool {
                    #entry
                }
            }
        };
    });
    out
}
