//! The location of a value inside a document, printed as JSONPath (`$.items[0].name`).

use serde::{Serialize, Serializer};
use std::fmt;

/// One step of a [`Path`]: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    /// An object member.
    Key(String),
    /// An array element.
    Index(usize),
}

/// A location inside a document, such as `$.items[2].price`.
///
/// One type serves extraction errors, validation issues, the report and assertions.
///
/// ```
/// use llm_extract::Path;
/// let p = Path::root().key("items").index(2).key("price");
/// assert_eq!(p.to_string(), "$.items[2].price");
/// assert_eq!(Path::root().key("odd key").to_string(), "$['odd key']");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path {
    segments: Vec<Segment>,
}

impl Path {
    /// The document root, `$`.
    pub fn root() -> Path {
        Path::default()
    }

    /// This path extended by an object key.
    pub fn key(mut self, key: impl Into<String>) -> Path {
        self.segments.push(Segment::Key(key.into()));
        self
    }

    /// This path extended by an array index.
    pub fn index(mut self, index: usize) -> Path {
        self.segments.push(Segment::Index(index));
        self
    }

    /// Appends a segment in place.
    pub fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    /// Removes the last segment in place.
    pub fn pop(&mut self) -> Option<Segment> {
        self.segments.pop()
    }

    /// The steps from the root.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Whether this is the root path `$`.
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }
}

impl FromIterator<Segment> for Path {
    fn from_iter<I: IntoIterator<Item = Segment>>(iter: I) -> Path {
        Path {
            segments: iter.into_iter().collect(),
        }
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("$")?;
        for segment in &self.segments {
            match segment {
                Segment::Index(i) => write!(f, "[{i}]")?,
                Segment::Key(k) if is_identifier(k) => write!(f, ".{k}")?,
                Segment::Key(k) => {
                    f.write_str("['")?;
                    for c in k.chars() {
                        match c {
                            '\'' => f.write_str("\\'")?,
                            '\\' => f.write_str("\\\\")?,
                            c => write!(f, "{c}")?,
                        }
                    }
                    f.write_str("']")?;
                }
            }
        }
        Ok(())
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}
