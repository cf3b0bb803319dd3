//! `#[derive(Extract)]` for llm-extract (placeholder until the derive lands).

use proc_macro::TokenStream;

/// Derives `llm_extract::Extract`.
#[proc_macro_derive(Extract, attributes(extract))]
pub fn derive_extract(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
