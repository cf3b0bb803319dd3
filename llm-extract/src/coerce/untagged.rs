//! Untagged choice: every reading of an untagged enum is tried and the cheapest wins.

use crate::coerce::variants::{variant, EnumSpec, VariantNames};
use crate::coerce::{Context, Failed};
use crate::error::{Category, Issue};
use crate::node::{Node, NodeKind};
use crate::report::Coercion;

/// A unit variant of an untagged enum: `null`, or (leniently) its name.
pub fn untagged_unit(
    node: &Node<'_>,
    names: &'static VariantNames,
    cx: &mut Context,
) -> Result<(), Failed> {
    match &node.kind {
        NodeKind::Null => Ok(()),
        NodeKind::String(s) => {
            let spec = EnumSpec {
                name: names.name,
                variants: std::slice::from_ref(names),
                other: None,
            };
            variant(&s.text, node.span, &spec, cx).map(|_| ())
        }
        _ => Err(cx.mismatch("null", node)),
    }
}

/// Every reading of an untagged enum is tried; the lowest total cost wins (the first
/// declared on a tie), not the first that succeeds.
pub struct Untagged<T> {
    best: Option<(u32, T, Vec<Coercion>)>,
    closest: Option<Vec<Issue>>,
    exhausted: bool,
    started: bool,
}

impl<T> Default for Untagged<T> {
    fn default() -> Self {
        Untagged {
            best: None,
            closest: None,
            exhausted: false,
            started: false,
        }
    }
}

impl<T> Untagged<T> {
    /// No reading tried yet.
    pub fn new() -> Self {
        Untagged::default()
    }

    /// Tries one reading; its records are kept aside until the choice is made.
    pub fn attempt(
        &mut self,
        cx: &mut Context,
        read: impl FnOnce(&mut Context) -> Result<T, Failed>,
    ) {
        if matches!(self.best, Some((0, _, _))) {
            return; // nothing beats a perfect fit
        }
        if !self.started {
            self.started = true;
            cx.start_choice();
        }
        if !cx.try_reading() {
            self.exhausted = true;
            return;
        }
        let start = cx.checkpoint();
        // A reading may read the same node again as the enum (`A(Box<Self>)`), up to the
        // readings budget deep, without going one level down in the path: check the stack.
        let result = crate::deep::grow(|| cx.choosing(read));
        let cost = cx.cost_since(start);
        let clean = !cx.failed_since(start);
        let (coercions, issues) = cx.take_since(start);
        match result {
            Ok(value) if clean => {
                if self.best.as_ref().is_none_or(|(best, _, _)| cost < *best) {
                    self.best = Some((cost, value, coercions));
                }
            }
            _ => {
                if self.closest.as_ref().is_none_or(|c| issues.len() < c.len()) {
                    self.closest = Some(issues);
                }
            }
        }
    }

    /// The winning reading, or an issue naming the enum plus the closest reading's issues.
    pub fn finish(self, node: &Node<'_>, name: &str, cx: &mut Context) -> Result<T, Failed> {
        match self.best {
            Some((_, value, coercions)) => {
                cx.restore(coercions);
                Ok(value)
            }
            None => {
                let message = if self.exhausted {
                    format!(
                        "no variant of `{name}` fits this value (gave up after {} readings)",
                        crate::coerce::MAX_READINGS
                    )
                } else {
                    format!("no variant of `{name}` fits this value")
                };
                let issue = Issue::new(Category::Type, cx.path(), message)
                    .found(crate::coerce::describe(node))
                    .at(node.span);
                cx.push_issue(issue);
                for issue in self.closest.unwrap_or_default() {
                    cx.push_issue(issue);
                }
                Err(Failed)
            }
        }
    }
}
