//! `#[derive(Extract)]` for llm-extract: the entry points only. The work happens in stages:
//! `attr` parses attributes, `ast` builds the checked model of the type, `check` applies the
//! cross-attribute rules, `expand` and `schema` generate code from the model alone.

mod ast;
mod attr;
mod case;
mod check;
mod direct;
mod errors;
mod expand;
mod schema;
mod twin;

use proc_macro::TokenStream;

/// Derives `llm_extract::Extract` (and, with the `schema` feature, `schemars::JsonSchema`).
///
/// See the `llm_extract` crate documentation for the attributes.
#[proc_macro_derive(Extract, attributes(extract))]
pub fn derive_extract(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    derive(&input).into()
}

/// The whole derive on `proc_macro2` tokens (so unit tests can expand a type).
fn derive(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let mut errors = errors::Errors::new();
    let container = ast::Container::from_ast(input, &mut errors).map(|(c, written)| {
        check::check(&c, &written, &mut errors);
        c
    });
    match (errors.finish(), container) {
        (Ok(()), Some(c)) => {
            let mut out = expand::expand(&c);
            out.extend(schema::expand(&c));
            out
        }
        (result, c) => {
            // The runtime path still matters here: the fallback impls name it.
            let krate = c.map_or_else(ast::default_crate, |c| c.krate);
            let mut out = expand::fallback(input, &krate);
            out.extend(schema::fallback(input, &krate));
            if let Err(e) = result {
                out.extend(e.to_compile_error());
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use proc_macro2::{TokenStream, TokenTree};

    fn idents(tokens: TokenStream, out: &mut Vec<String>) {
        for t in tokens {
            match t {
                TokenTree::Ident(i) => out.push(i.to_string()),
                TokenTree::Group(g) => idents(g.stream(), out),
                _ => {}
            }
        }
    }

    /// The `crate` attribute is honoured by every generated path: with it, the expansion
    /// never names `llm_extract` (a crate the user may not depend on directly).
    #[test]
    fn crate_attribute_replaces_every_runtime_path() {
        let inputs: [syn::DeriveInput; 3] = [
            syn::parse_quote! {
                #[extract(crate = "my::rt")]
                struct S { #[extract(min = 1, pattern = "a", one_of = [1, 2])] a: Vec<u8>, b: Option<String> }
            },
            syn::parse_quote! {
                #[extract(crate = "my::rt", tag = "name", content = "arguments")]
                enum E { A { x: u8 }, B(String), #[extract(other)] C }
            },
            syn::parse_quote! {
                #[extract(crate = "my::rt", tag = "oops")]
                struct Wrong { a: u8 }
            },
        ];
        for input in inputs {
            let mut names = Vec::new();
            idents(super::derive(&input), &mut names);
            assert!(names.iter().any(|n| n == "my"), "{names:?}");
            assert!(!names.iter().any(|n| n == "llm_extract"), "{names:?}");
        }
        // And without it, the runtime is `::llm_extract`.
        let mut names = Vec::new();
        idents(
            super::derive(&syn::parse_quote!(
                struct T;
            )),
            &mut names,
        );
        assert!(names.iter().any(|n| n == "llm_extract"));
    }
}
