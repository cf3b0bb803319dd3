//! Collecting every attribute mistake of one derive, to report them together.

/// The mistakes found so far. It must be consumed with [`Errors::finish`], as serde_derive's
/// `Ctxt` must be checked: a collector dropped unchecked could let a wrong attribute through
/// silently, so dropping one panics (a bug in the macro, caught by any test that expands it).
pub struct Errors {
    /// `None` once finished.
    list: Option<Vec<syn::Error>>,
}

impl Errors {
    pub fn new() -> Errors {
        Errors {
            list: Some(Vec::new()),
        }
    }

    pub fn push(&mut self, error: syn::Error) {
        self.list
            .as_mut()
            .expect("Errors used after finish()")
            .push(error);
    }

    /// All mistakes combined into one error (each keeps its own span), or `Ok`.
    pub fn finish(mut self) -> Result<(), syn::Error> {
        let list = self.list.take().expect("Errors finished twice");
        let mut iter = list.into_iter();
        let Some(mut first) = iter.next() else {
            return Ok(());
        };
        for e in iter {
            first.combine(e);
        }
        Err(first)
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if self.list.is_some() && !std::thread::panicking() {
            panic!("Errors dropped without finish(): attribute mistakes would go unreported");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Errors;

    #[test]
    fn finished_collector_combines_every_mistake() {
        let mut errors = Errors::new();
        errors.push(syn::Error::new(proc_macro2::Span::call_site(), "first"));
        errors.push(syn::Error::new(proc_macro2::Span::call_site(), "second"));
        let combined = errors.finish().unwrap_err();
        let messages: Vec<String> = combined.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages, ["first", "second"]);
        assert!(Errors::new().finish().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped without finish")]
    fn unchecked_collector_panics_even_when_empty() {
        drop(Errors::new());
    }
}
