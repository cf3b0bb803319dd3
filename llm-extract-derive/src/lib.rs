//! `#[derive(Extract)]` for llm-extract: the entry points only. The work happens in stages:
//! `attr` parses attributes, `ast` builds the checked model of the type, `check` applies the
//! cross-attribute rules, `expand` and `schema` generate code from the model alone.

mod ast;
mod attr;
mod bounds;
mod case;
mod check;
mod direct;
mod errors;
mod expand;
mod field;
mod schema;
mod twin;

use proc_macro::TokenStream;

/// Derives `llm_extract::Extract` (and, with the `schema` feature, `schemars::JsonSchema`):
/// a lenient reader of model replies into the type, and its partial twin for streaming.
///
/// Use it as `llm_extract::Extract` (the re-export), whose documentation has a runnable
/// example of each attribute in the table below.
///
/// ```ignore
/// #[derive(llm_extract::Extract, Debug)]
/// #[extract(rename_all = "camelCase")]
/// struct Review {
///     #[extract(alias = "item")]
///     product_name: String,
///     #[extract(min = 1, max = 5)]
///     stars: u8,
/// }
/// ```
///
/// # Attributes
///
/// All go in `#[extract(...)]`; `#[serde(rename, alias, rename_all, default, skip, flatten,
/// tag, content, untagged, deny_unknown_fields)]` are read too, and a disagreement between
/// the two is a compile error.
///
/// | On | Attribute | Example | Meaning |
/// |---|---|---|---|
/// | container | `rename` | `#[extract(rename = "Review")]` | the schema name |
/// | container | `rename_all` | `#[extract(rename_all = "snake_case")]` | how fields (structs) or variants (enums) are spelled: `lowercase`, `UPPERCASE`, `PascalCase`, `camelCase`, `snake_case`, `SCREAMING_SNAKE_CASE`, `kebab-case`, `SCREAMING-KEBAB-CASE` |
/// | enum | `tag` | `#[extract(tag = "type")]` | internally tagged: `{"type": "Click", "x": 3}` |
/// | enum | `tag` + `content` | `#[extract(tag = "name", content = "arguments")]` | adjacently tagged, the shape of a tool call |
/// | enum | `untagged` | `#[extract(untagged)]` | every variant tried, the cheapest reading wins |
/// | container | `deny_unknown_fields` | `#[extract(deny_unknown_fields)]` | unknown keys are errors |
/// | container | `validate` | `#[extract(validate = check_dates)]` | a cross-field rule, `fn(&Self) -> Result<(), E>` with `E: Display`: runs once every field is read, after the fields' own rules; its issue is at the container's path |
/// | container | `crate` | `#[extract(crate = "my::extraction")]` | the runtime crate's path, for a crate that re-exports it |
/// | container | `partial` | `#[extract(partial = "ReviewSoFar")]` | the name of the streaming twin (default `{Type}Partial`) |
/// | container, field | `strict` | `#[extract(strict)]` | no value coercion here (`"42"` is not a number; `"N/A"` is `Some("N/A")` for an `Option<String>`), streamed the same way |
/// | container, field | `stream` | `#[extract(stream = "done")]` | while streaming, shown only once complete |
/// | field | `stream` | `#[extract(stream = "required")]` | while streaming, the object shows nothing until this field is complete |
/// | field, variant | `rename` | `#[extract(rename = "mail")]` | the name written in replies and schemas |
/// | field, variant | `alias` | `#[extract(alias = "email", alias = "e_mail")]` | more names it answers to |
/// | variant | `other` | `#[extract(other)] Other(String)` | the catch-all for unknown names |
/// | field | `default` | `#[extract(default)]`, `#[extract(default = three)]` | the value when missing, or `null` the type refuses (`Default`, or `fn() -> T`) |
/// | field | `skip` | `#[extract(skip)]` | never read; its default |
/// | field | `flatten` | `#[extract(flatten)] rest: HashMap<String, Value>` | takes the keys no other field matched |
/// | field | `catch` | `#[extract(catch)]` | a value that cannot be read or fails a rule becomes the default, recorded as `Caught` |
/// | field | `with` | `#[extract(with = hhmm)]` | the module's `fn from_node(&Node<'_>, &mut Context) -> Result<T, Failed>` reads it; the field's type still gives the schema |
/// | field | `min`, `max` | `#[extract(min = 1, max = 5)]` | numbers (each item of a collection) |
/// | field | `min_len`, `max_len` | `#[extract(min_len = 1, max_len = 280)]` | characters of a string, items of a collection |
/// | field | `pattern` | `#[extract(pattern = "^[A-Z]{3}$")]` | strings (each item of a collection); a regex checked at compile time, compiled once, matching anywhere (anchor with `^...$`) |
/// | field | `one_of` | `#[extract(one_of = ["support", "billing"])]` | strings, numbers, booleans (each item of a collection); strings compared as enum variants are matched (case, separators and diacritics aside: `"Billing"` passes, kept as written); a value of another kind than the field's is a compile error |
/// | field | `one_of_exact` | `#[extract(one_of_exact = ["EUR", "USD"])]` | compared exactly |
/// | field | `validate` | `#[extract(validate = not_blank)]` | `fn(&T) -> Result<(), E>`, `E: Display` |
///
/// Attribute mistakes are reported in one compile, each at its tokens, with did-you-mean
/// hints (`unknown extract attribute `defualt`; did you mean `default`?`).
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
