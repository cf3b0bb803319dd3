//! Which type parameters a derived impl bounds, and the bounds added: shared by the `Extract`
//! impl, its partial twin and its schema.

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::{Generics, Ident, Type};

use crate::ast::{Container, Data, Field};

/// Type parameters used by fields that are read through `Extract` (serde's inference).
pub fn used_params(c: &Container<'_>) -> Vec<Ident> {
    let fields: Vec<&Field<'_>> = match &c.data {
        Data::Struct(_, fields) => fields.iter().collect(),
        Data::Enum(variants) => variants.iter().flat_map(|v| v.fields.iter()).collect(),
    };
    c.generics
        .type_params()
        .map(|p| p.ident.clone())
        .filter(|p| {
            fields
                .iter()
                .any(|f| !f.skip && f.with.is_none() && type_uses(f.ty, p))
        })
        .collect()
}

fn type_uses(ty: &Type, param: &Ident) -> bool {
    fn walk(tokens: TokenStream, param: &Ident) -> bool {
        tokens.into_iter().any(|t| match t {
            TokenTree::Ident(i) => i == *param,
            TokenTree::Group(g) => walk(g.stream(), param),
            _ => false,
        })
    }
    walk(quote!(#ty), param)
}

pub fn with_bounds(generics: &Generics, params: &[Ident], bound: TokenStream) -> Generics {
    let mut g = generics.clone();
    let where_clause = g.make_where_clause();
    for p in params {
        where_clause.predicates.push(syn::parse_quote!(#p: #bound));
    }
    g
}
