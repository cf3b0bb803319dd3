//! Collecting every attribute mistake of one derive, to report them together.

/// The mistakes found so far. Must be consumed with [`Errors::finish`]: dropping it with
/// mistakes unreported would silently accept a wrong attribute, so that panics in debug.
#[derive(Default)]
pub struct Errors {
    list: Option<Vec<syn::Error>>,
}

impl Errors {
    pub fn new() -> Errors {
        Errors {
            list: Some(Vec::new()),
        }
    }

    pub fn push(&mut self, error: syn::Error) {
        self.list.get_or_insert_with(Vec::new).push(error);
    }

    /// All mistakes combined into one error (each keeps its own span), or `Ok`.
    pub fn finish(mut self) -> Result<(), syn::Error> {
        let list = self.list.take().unwrap_or_default();
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
        if !std::thread::panicking() {
            debug_assert!(
                self.list.as_ref().is_none_or(Vec::is_empty),
                "Errors dropped without finish()"
            );
        }
    }
}
