//! Code generation for `schemars::JsonSchema` (feature `schema`): the canonical names, doc
//! comments as descriptions, validation rules as keywords, built by runtime helpers.

#[cfg(not(feature = "schema"))]
pub fn expand(_: &crate::ast::Container<'_>) -> proc_macro2::TokenStream {
    proc_macro2::TokenStream::new()
}

#[cfg(not(feature = "schema"))]
pub fn fallback(_: &syn::DeriveInput, _: &syn::Path) -> proc_macro2::TokenStream {
    proc_macro2::TokenStream::new()
}

#[cfg(feature = "schema")]
pub use imp::{expand, fallback};

#[cfg(feature = "schema")]
mod imp {
    use proc_macro2::{Literal, TokenStream};
    use quote::{quote, quote_spanned};

    use crate::ast::{is_option, Container, Data, Field, Style, Tagging, Variant};
    use crate::attr::Allowed;
    use crate::bounds::{used_params, with_bounds};

    /// The runtime paths: `<crate>::__private` and its `schema` module.
    struct Paths {
        private: TokenStream,
        rt: TokenStream,
    }

    impl Paths {
        fn new(krate: &syn::Path) -> Paths {
            Paths {
                private: quote!(#krate::__private),
                rt: quote!(#krate::__private::schema),
            }
        }
    }

    fn doc(d: &Option<String>) -> TokenStream {
        match d {
            Some(d) => quote!(::core::option::Option::Some(#d)),
            None => quote!(::core::option::Option::None),
        }
    }

    fn opt_f64(v: Option<f64>) -> TokenStream {
        match v {
            Some(v) => {
                let v = Literal::f64_suffixed(v);
                quote!(::core::option::Option::Some(#v))
            }
            None => quote!(::core::option::Option::None),
        }
    }

    fn opt_u64(v: Option<usize>) -> TokenStream {
        match v {
            Some(v) => {
                let v = v as u64;
                quote!(::core::option::Option::Some(#v))
            }
            None => quote!(::core::option::Option::None),
        }
    }

    fn rules(p: &Paths, f: &Field<'_>) -> TokenStream {
        let (rt, private) = (&p.rt, &p.private);
        let r = &f.rules;
        let min = opt_f64(r.min.as_ref().map(|b| b.value.value));
        let max = opt_f64(r.max.as_ref().map(|b| b.value.value));
        let min_len = opt_u64(r.min_len.as_ref().map(|n| n.value));
        let max_len = opt_u64(r.max_len.as_ref().map(|n| n.value));
        let pattern = match &r.pattern {
            Some(p) => {
                let p = &p.value;
                quote!(::core::option::Option::Some(#p))
            }
            None => quote!(::core::option::Option::None),
        };
        let one_of = r
            .one_of
            .iter()
            .flat_map(|o| &o.value.values)
            .map(|a| match &a.value {
                Allowed::Str(s) => quote!(#private::Allowed::Str(#s)),
                Allowed::Number(n) => {
                    let n = Literal::f64_suffixed(*n);
                    quote!(#private::Allowed::Number(#n))
                }
                Allowed::Bool(b) => quote!(#private::Allowed::Bool(#b)),
            });
        let each = crate::ast::collection(f.ty).is_some();
        quote! {
            &#rt::Rules {
                min: #min, max: #max, min_len: #min_len, max_len: #max_len, pattern: #pattern,
                one_of: &[#(#one_of),*], each: #each,
            }
        }
    }

    fn subschema(f: &Field<'_>) -> TokenStream {
        let ty = f.ty;
        quote_spanned!(f.span=> __g.subschema_for::<#ty>())
    }

    /// An object schema from named fields (a struct, a struct variant).
    fn object(
        p: &Paths,
        fields: &[Field<'_>],
        doc_tokens: TokenStream,
        deny_unknown: bool,
        tag: Option<(&str, &str)>,
    ) -> TokenStream {
        let rt = &p.rt;
        let mut steps = Vec::new();
        for f in fields.iter().filter(|f| !f.skip) {
            let ty = f.ty;
            if f.is_flatten() {
                steps.push(quote_spanned!(f.span=> __o.flatten(<#ty as #rt::JsonSchema>::json_schema(__g));));
                continue;
            }
            let name = &f.name;
            let required = f.default.is_none() && !f.catch && !is_option(ty);
            let d = doc(&f.doc);
            let sub = subschema(f);
            let r = rules(p, f);
            steps.push(quote!(__o.property(#name, #sub, #required, #d, #r);));
        }
        let tag = tag.map(|(t, v)| quote!(__o.tag(#t, #v);));
        quote! {{
            let mut __o = #rt::Object::new(#doc_tokens, #deny_unknown);
            #(#steps)*
            #tag
            __o.build()
        }}
    }

    fn struct_schema(
        p: &Paths,
        style: Style,
        fields: &[Field<'_>],
        d: &Option<String>,
        deny_unknown: bool,
    ) -> TokenStream {
        let rt = &p.rt;
        let doc_tokens = doc(d);
        match style {
            Style::Unit => quote!(#rt::null(#doc_tokens)),
            Style::Named => object(p, fields, doc_tokens, deny_unknown, None),
            Style::Newtype if !fields[0].skip => {
                let sub = subschema(&fields[0]);
                let r = rules(p, &fields[0]);
                quote!(#rt::annotate(#sub, #doc_tokens, #r))
            }
            Style::Newtype | Style::Tuple => {
                let items = fields.iter().filter(|f| !f.skip).map(|f| {
                    let sub = subschema(f);
                    let r = rules(p, f);
                    quote!(#rt::annotate(#sub, ::core::option::Option::None, #r))
                });
                quote!(#rt::tuple(::std::vec![#(#items),*], #doc_tokens))
            }
        }
    }

    fn enum_schema(p: &Paths, c: &Container<'_>, variants: &[Variant<'_>]) -> TokenStream {
        let rt = &p.rt;
        let cdoc = doc(&c.doc);
        let listed: Vec<&Variant<'_>> = variants
            .iter()
            .filter(|v| !(v.is_other() && v.style != Style::Unit))
            .collect();
        match c.tagging() {
            Tagging::Untagged => {
                let options = variants.iter().map(|v| match v.style {
                    Style::Unit => {
                        let d = doc(&v.doc);
                        quote!(#rt::null(#d))
                    }
                    _ => struct_schema(p, v.style, &v.fields, &v.doc, c.deny_unknown),
                });
                quote!(#rt::choice(::std::vec![#(#options),*], false, #cdoc))
            }
            Tagging::Internal { tag } => {
                let options = listed.iter().map(|v| {
                    let name = v.name.as_str();
                    let d = doc(&v.doc);
                    match v.style {
                        Style::Newtype => {
                            let ty = v.fields[0].ty;
                            quote! {{
                                let mut __o = #rt::Object::new(#d, false);
                                __o.flatten(<#ty as #rt::JsonSchema>::json_schema(__g));
                                __o.tag(#tag, #name);
                                __o.build()
                            }}
                        }
                        _ => object(p, &v.fields, d, c.deny_unknown, Some((tag, name))),
                    }
                });
                quote!(#rt::choice(::std::vec![#(#options),*], true, #cdoc))
            }
            Tagging::Adjacent { tag, content } => {
                // `{"<tag>": "Name", "<content>": ..}`; a unit variant has the tag alone.
                let options = listed.iter().map(|v| {
                    let name = v.name.as_str();
                    let d = doc(&v.doc);
                    let content_schema = match v.style {
                        Style::Unit => quote!(::core::option::Option::None),
                        _ => {
                            let s = struct_schema(p, v.style, &v.fields, &None, c.deny_unknown);
                            quote!(::core::option::Option::Some(#s))
                        }
                    };
                    quote!(#rt::adjacent(#tag, #name, #content, #content_schema, #d))
                });
                quote!(#rt::choice(::std::vec![#(#options),*], true, #cdoc))
            }
            Tagging::External => external_schema(p, c, &listed, cdoc),
        }
    }

    /// Externally tagged: unit variants as a list of names, the others as single-key
    /// objects `{"Name": content}`.
    fn external_schema(
        p: &Paths,
        c: &Container<'_>,
        listed: &[&Variant<'_>],
        cdoc: TokenStream,
    ) -> TokenStream {
        let rt = &p.rt;
        let units: Vec<TokenStream> = listed
            .iter()
            .filter(|v| v.style == Style::Unit)
            .map(|v| {
                let (name, d) = (&v.name, doc(&v.doc));
                quote!((#name, #d))
            })
            .collect();
        let data: Vec<TokenStream> = listed
            .iter()
            .filter(|v| v.style != Style::Unit)
            .map(|v| {
                let name = &v.name;
                let d = doc(&v.doc);
                let content = struct_schema(p, v.style, &v.fields, &None, c.deny_unknown);
                quote!(#rt::single_key(#name, #content, #d))
            })
            .collect();
        if data.is_empty() {
            return quote!(#rt::names(&[#(#units),*], #cdoc));
        }
        let names = (!units.is_empty())
            .then(|| quote!(#rt::names(&[#(#units),*], ::core::option::Option::None),));
        quote!(#rt::choice(::std::vec![#names #(#data),*], true, #cdoc))
    }

    pub fn expand(c: &Container<'_>) -> TokenStream {
        let p = &Paths::new(&c.krate);
        let rt = &p.rt;
        let ident = c.ident;
        let name = &c.name;
        let params = used_params(c);
        let generics = with_bounds(c.generics, &params, quote!(#rt::JsonSchema));
        let (impl_g, ty_g, where_clause) = generics.split_for_impl();
        let all_params: Vec<_> = c.generics.type_params().map(|p| &p.ident).collect();
        let (schema_name, schema_id) = if all_params.is_empty() {
            (
                quote!(#rt::Cow::Borrowed(#name)),
                quote!(#rt::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", #name))),
            )
        } else {
            (
                quote! {
                    #rt::Cow::Owned(::std::format!(
                        "{}_for_{}", #name, [#(<#all_params as #rt::JsonSchema>::schema_name()),*].join("_and_")
                    ))
                },
                quote! {
                    #rt::Cow::Owned(::std::format!(
                        "{}::{}<{}>", ::core::module_path!(), #name,
                        [#(<#all_params as #rt::JsonSchema>::schema_id()),*].join(", ")
                    ))
                },
            )
        };
        let body = match &c.data {
            Data::Struct(style, fields) => struct_schema(p, *style, fields, &c.doc, c.deny_unknown),
            Data::Enum(variants) => enum_schema(p, c, variants),
        };
        // Generic parameters not used by fields still need a name for `schema_name`.
        let mut generics = generics.clone();
        let unused: Vec<_> = all_params.iter().filter(|p| !params.contains(p)).collect();
        for p in unused {
            generics
                .make_where_clause()
                .predicates
                .push(syn::parse_quote!(#p: #rt::JsonSchema));
        }
        let _ = (&impl_g, &where_clause);
        let (impl_g, _, where_clause) = generics.split_for_impl();
        quote! {
            #[doc(hidden)]
            #[allow(unused_qualifications, clippy::all, clippy::pedantic)]
            const _: () = {
                #[automatically_derived]
                impl #impl_g #rt::JsonSchema for #ident #ty_g #where_clause {
                    fn schema_name() -> #rt::Cow<'static, str> {
                        #schema_name
                    }

                    fn schema_id() -> #rt::Cow<'static, str> {
                        #schema_id
                    }

                    fn json_schema(__g: &mut #rt::SchemaGenerator) -> #rt::Schema {
                        #body
                    }
                }
            };
        }
    }

    pub fn fallback(input: &syn::DeriveInput, krate: &syn::Path) -> TokenStream {
        let rt = &Paths::new(krate).rt;
        let ident = &input.ident;
        let (impl_g, ty_g, where_clause) = input.generics.split_for_impl();
        quote! {
            const _: () = {
                #[automatically_derived]
                impl #impl_g #rt::JsonSchema for #ident #ty_g #where_clause {
                    fn schema_name() -> #rt::Cow<'static, str> {
                        ::core::unreachable!("the derive reported an error")
                    }

                    fn json_schema(_: &mut #rt::SchemaGenerator) -> #rt::Schema {
                        ::core::unreachable!("the derive reported an error")
                    }
                }
            };
        }
    }
}
