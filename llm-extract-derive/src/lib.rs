//! `#[derive(Extract)]` for llm-extract: the entry points only. The work happens in stages:
//! [`attr`] parses attributes, [`ast`] builds the model of the type, [`check`] applies the
//! cross-attribute rules, [`expand`] and [`schema`] generate code.

mod ast;
mod attr;
mod case;
mod check;
mod errors;
mod expand;
mod schema;

use proc_macro::TokenStream;

/// Derives `llm_extract::Extract` (and, with the `schema` feature, `schemars::JsonSchema`).
///
/// See the `llm_extract` crate documentation for the attributes.
#[proc_macro_derive(Extract, attributes(extract))]
pub fn derive_extract(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    let mut errors = errors::Errors::new();
    let container = ast::Container::from_ast(&input, &mut errors);
    if let Some(c) = &container {
        check::check(c, &mut errors);
    }
    match (errors.finish(), container) {
        (Ok(()), Some(c)) => {
            let mut out = expand::expand(&c);
            out.extend(schema::expand(&c));
            out.into()
        }
        (result, _) => {
            let mut out = expand::fallback(&input);
            out.extend(schema::fallback(&input));
            if let Err(e) = result {
                out.extend(e.to_compile_error());
            }
            out.into()
        }
    }
}
