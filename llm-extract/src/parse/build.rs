//! What the parser builds: the [`Node`] tree that typed extraction walks, or a
//! `serde_json::Value` directly when that is all the caller wants (`repair`), which skips a
//! whole tree and its conversion.

use crate::node::{Entry, Node, NodeKind, Str};
use crate::span::Span;

/// A target for the parser's values.
pub(crate) trait Build<'a> {
    /// A finished value.
    type Value;
    /// An object being filled.
    type Object: Default;
    /// A scalar (null, boolean, number or string) node as a value; `text` is what its span
    /// points into.
    fn scalar(node: Node<'a>, text: &'a str) -> Self::Value;
    /// A finished array.
    fn array(items: Vec<Self::Value>, span: Span, complete: bool) -> Self::Value;
    /// A finished object.
    fn object(entries: Self::Object, span: Span, complete: bool) -> Self::Value;
    /// Adds a member, in source order.
    fn insert(object: &mut Self::Object, key: Str<'a>, key_span: Span, value: Self::Value);
    /// Adds a member the parser completed: its value is missing (`value` is the `null` in its
    /// place) or its key is (the empty key). It never replaces a member the same key was
    /// written with before.
    fn insert_missing(object: &mut Self::Object, key: Str<'a>, key_span: Span, value: Self::Value) {
        Self::insert(object, key, key_span, value);
    }
    /// Whether no entry was inserted yet.
    fn is_empty(object: &Self::Object) -> bool;
    /// An empty object with room for `members` (a guess from the object before it).
    fn object_with_capacity(members: usize) -> Self::Object {
        let _ = members;
        Self::Object::default()
    }
}

/// Builds the [`Node`] tree.
pub(crate) struct Tree;

impl<'a> Build<'a> for Tree {
    type Value = Node<'a>;
    type Object = Vec<Entry<'a>>;

    fn scalar(node: Node<'a>, _: &'a str) -> Node<'a> {
        node
    }

    fn array(items: Vec<Node<'a>>, span: Span, complete: bool) -> Node<'a> {
        Node {
            kind: NodeKind::Array(items),
            span,
            complete,
        }
    }

    fn object(entries: Vec<Entry<'a>>, span: Span, complete: bool) -> Node<'a> {
        Node {
            kind: NodeKind::Object(entries),
            span,
            complete,
        }
    }

    fn object_with_capacity(members: usize) -> Vec<Entry<'a>> {
        Vec::with_capacity(members)
    }

    fn is_empty(object: &Vec<Entry<'a>>) -> bool {
        object.is_empty()
    }

    fn insert(object: &mut Vec<Entry<'a>>, key: Str<'a>, key_span: Span, value: Node<'a>) {
        object.push(Entry {
            key,
            key_span,
            value,
        });
    }
}

/// Builds a `serde_json::Value`, exactly as [`Node::to_value`] would convert the tree.
pub(crate) struct Json;

impl<'a> Build<'a> for Json {
    type Value = serde_json::Value;
    type Object = serde_json::Map<String, serde_json::Value>;

    fn scalar(node: Node<'a>, text: &'a str) -> serde_json::Value {
        use serde_json::Value;
        // Its kind moved out, the node owns nothing: its drop (which looks for containers
        // inside) is skipped.
        let mut node = std::mem::ManuallyDrop::new(node);
        match std::mem::replace(&mut node.kind, NodeKind::Null) {
            NodeKind::Null => Value::Null,
            NodeKind::Bool(b) => Value::Bool(b),
            NodeKind::Number(n) => crate::node::number_value_in(n, node.span, text, 0),
            NodeKind::String(s) => Value::String(s.text.into_owned()),
            // Containers never come through here; keep them whole if they ever do.
            kind => Node {
                kind,
                span: node.span,
                complete: node.complete,
            }
            .to_value(),
        }
    }

    fn array(items: Vec<serde_json::Value>, _: Span, _: bool) -> serde_json::Value {
        serde_json::Value::Array(items)
    }

    fn object(entries: Self::Object, _: Span, _: bool) -> serde_json::Value {
        serde_json::Value::Object(entries)
    }

    fn object_with_capacity(members: usize) -> Self::Object {
        serde_json::Map::with_capacity(members)
    }

    fn is_empty(object: &Self::Object) -> bool {
        object.is_empty()
    }

    fn insert(object: &mut Self::Object, key: Str<'a>, _: Span, value: serde_json::Value) {
        // Duplicate keys keep the last value, as serde_json and `Node::to_value` do.
        object.insert(key.text.into_owned(), value);
    }

    fn insert_missing(object: &mut Self::Object, key: Str<'a>, _: Span, value: serde_json::Value) {
        object.entry(key.text.into_owned()).or_insert(value);
    }
}

/// Builds nothing: for finding where a value ends (see [`super::read_on`]).
pub(crate) struct Skim;

impl<'a> Build<'a> for Skim {
    type Value = ();
    /// How many members were added.
    type Object = usize;

    fn scalar(_: Node<'a>, _: &'a str) {}

    fn array(_: Vec<()>, _: Span, _: bool) {}

    fn object(_: usize, _: Span, _: bool) {}

    fn is_empty(object: &usize) -> bool {
        *object == 0
    }

    fn insert(object: &mut usize, _: Str<'a>, _: Span, _: ()) {
        *object += 1;
    }
}
