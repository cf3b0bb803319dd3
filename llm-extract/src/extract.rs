//! The `coerce` stage: the [`Extract`] trait that walks a [`Node`] into a Rust type.

use crate::error::{Category, Issue};
use crate::node::Node;
use crate::path::{Path, Segment};
use crate::report::{Coercion, CoercionKind};
use crate::span::Span;

/// Marker returned by [`Extract::from_node`] when it failed; the reasons are in the [`Context`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failed;

/// How lenient coercion is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// Coerce where the meaning is clear (`"42"` into an integer, and so on).
    #[default]
    Lenient,
    /// Accept only values of the exact JSON type.
    Strict,
}

/// State carried through one extraction: the current path, the coercions made, the issues
/// found, and the coercion mode.
#[derive(Debug, Default)]
pub struct Context {
    path: Path,
    coercions: Vec<Coercion>,
    issues: Vec<Issue>,
    mode: Mode,
}

impl Context {
    /// A fresh context at the root path.
    pub fn new() -> Context {
        Context::default()
    }

    /// The path of the value being extracted.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The coercion mode in force.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Runs `f` with `mode` in force, then restores the previous mode.
    pub fn with_mode<R>(&mut self, mode: Mode, f: impl FnOnce(&mut Context) -> R) -> R {
        let saved = std::mem::replace(&mut self.mode, mode);
        let out = f(self);
        self.mode = saved;
        out
    }

    /// Runs `f` one level deeper, at `segment`.
    pub fn at<R>(&mut self, segment: Segment, f: impl FnOnce(&mut Context) -> R) -> R {
        self.path.push(segment);
        let out = f(self);
        self.path.pop();
        out
    }

    /// Records a coercion at the current path.
    pub fn coerce(&mut self, kind: CoercionKind, span: Span, cost: u32) {
        self.coercions.push(Coercion { kind, path: self.path.clone(), span, cost });
    }

    /// Records an issue at the current path and returns [`Failed`] for convenience.
    pub fn fail(&mut self, category: Category, message: impl Into<String>, span: Span) -> Failed {
        self.issues.push(Issue::new(category, self.path.clone(), message).at(span));
        Failed
    }

    /// Records a fully built issue.
    pub fn push_issue(&mut self, issue: Issue) {
        self.issues.push(issue);
    }

    /// The issues recorded so far.
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// The coercions recorded so far.
    pub fn coercions(&self) -> &[Coercion] {
        &self.coercions
    }

    /// Total cost of the coercions recorded so far.
    pub fn cost(&self) -> u32 {
        self.coercions.iter().map(|c| c.cost).sum()
    }

    /// A checkpoint to roll back to when a reading is abandoned (untagged enums).
    pub fn checkpoint(&self) -> (usize, usize) {
        (self.coercions.len(), self.issues.len())
    }

    /// Forgets everything recorded since `checkpoint`.
    pub fn rollback(&mut self, checkpoint: (usize, usize)) {
        self.coercions.truncate(checkpoint.0);
        self.issues.truncate(checkpoint.1);
    }

    /// The coercions and issues, consuming the context.
    pub fn into_parts(self) -> (Vec<Coercion>, Vec<Issue>) {
        (self.coercions, self.issues)
    }
}

/// A type that can be extracted leniently from a parsed [`Node`].
///
/// Implemented by `#[derive(Extract)]` for your own types and by this crate for the std types
/// a reply type is made of.
pub trait Extract: Sized {
    /// Builds a value from `node`, recording coercions and issues in `cx`.
    ///
    /// Returns `Err(Failed)` when no value can be built; the reasons are then in `cx`.
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed>;

    /// The value for an absent field, if the type has one (`Option` gives `None`).
    fn from_missing() -> Option<Self> {
        None
    }
}

impl Extract for serde_json::Value {
    fn from_node(node: &Node<'_>, _cx: &mut Context) -> Result<Self, Failed> {
        Ok(node.to_value())
    }
}

impl<T: Extract> Extract for Vec<T> {
    fn from_node(node: &Node<'_>, cx: &mut Context) -> Result<Self, Failed> {
        match &node.kind {
            crate::node::NodeKind::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                let mut failed = false;
                for (i, item) in items.iter().enumerate() {
                    match cx.at(Segment::Index(i), |cx| T::from_node(item, cx)) {
                        Ok(v) => out.push(v),
                        Err(Failed) => failed = true,
                    }
                }
                if failed { Err(Failed) } else { Ok(out) }
            }
            _ => Err(cx.fail(Category::Type, format!("expected an array, found {}", node.type_name()), node.span)),
        }
    }
}
