//! The location of a value inside a document, printed as JSONPath (`$.items[0].name`).

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

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
///
/// A path is shared, not copied: cloning one is a reference count, so a report that gives
/// thousands of repairs the same deep path holds it once.
#[derive(Clone, Default)]
pub struct Path {
    /// The steps from the root; `None` at the root (which allocates nothing).
    segments: Option<Arc<Vec<Segment>>>,
}

impl Path {
    /// The document root, `$`.
    pub fn root() -> Path {
        Path::default()
    }

    /// This path extended by an object key.
    pub fn key(mut self, key: impl Into<String>) -> Path {
        self.push(Segment::Key(key.into()));
        self
    }

    /// This path extended by an array index.
    pub fn index(mut self, index: usize) -> Path {
        self.push(Segment::Index(index));
        self
    }

    /// Appends a segment in place (copying the steps first if another clone shares them).
    pub fn push(&mut self, segment: Segment) {
        match &mut self.segments {
            Some(segments) => Arc::make_mut(segments).push(segment),
            None => self.segments = Some(Arc::new(vec![segment])),
        }
    }

    /// Removes the last segment in place.
    pub fn pop(&mut self) -> Option<Segment> {
        let segments = self.segments.as_mut()?;
        let last = Arc::make_mut(segments).pop();
        if segments.is_empty() {
            self.segments = None;
        }
        last
    }

    /// The steps from the root.
    pub fn segments(&self) -> &[Segment] {
        self.segments.as_deref().map_or(&[], Vec::as_slice)
    }

    /// Whether this is the root path `$`.
    pub fn is_root(&self) -> bool {
        self.segments.is_none()
    }
}

/// The paths of the last place a reader logged a repair: the innermost open container's and
/// the value's inside it, so that repairs logged one after another at one place share one
/// path however deep it is. `K` tells the containers around the place apart (the parser's
/// count of frames opened and closed, the stream reader's depth and innermost opener).
#[derive(Debug, Clone, Default)]
pub(crate) struct PlaceCache<K> {
    around: Option<K>,
    container: Path,
    value: Option<(Segment, Path)>,
}

impl<K: PartialEq> PlaceCache<K> {
    /// The path at `around`: the container's, built by `container` when the containers
    /// changed, and with `value`'s step when there is one.
    pub(crate) fn path(
        &mut self,
        around: K,
        container: impl FnOnce() -> Vec<Segment>,
        value: Option<Segment>,
    ) -> Path {
        if self.around.as_ref() != Some(&around) {
            *self = PlaceCache {
                around: Some(around),
                container: Path::from(container()),
                value: None,
            };
        }
        let Some(segment) = value else {
            return self.container.clone();
        };
        match &self.value {
            Some((last, path)) if *last == segment => path.clone(),
            _ => {
                let mut path = self.container.clone();
                path.push(segment.clone());
                self.value = Some((segment, path.clone()));
                path
            }
        }
    }
}

impl From<Vec<Segment>> for Path {
    fn from(segments: Vec<Segment>) -> Path {
        Path {
            segments: (!segments.is_empty()).then(|| Arc::new(segments)),
        }
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.segments() == other.segments()
    }
}

impl Eq for Path {}

impl Hash for Path {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.segments().hash(state);
    }
}

impl PartialOrd for Path {
    fn partial_cmp(&self, other: &Path) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Path {
    fn cmp(&self, other: &Path) -> Ordering {
        self.segments().cmp(other.segments())
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Path")
            .field("segments", &self.segments())
            .finish()
    }
}

impl FromIterator<Segment> for Path {
    fn from_iter<I: IntoIterator<Item = Segment>>(iter: I) -> Path {
        Path::from(iter.into_iter().collect::<Vec<_>>())
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
        for segment in self.segments() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    fn hash(path: &Path) -> u64 {
        let mut hasher = DefaultHasher::new();
        path.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn a_path_emptied_in_place_is_the_root() {
        let mut path = Path::root().key("a");
        assert_eq!(path.pop(), Some(Segment::Key("a".into())));
        assert!(path.is_root());
        assert_eq!(path, Path::root());
        assert_eq!(hash(&path), hash(&Path::root()));
        assert_eq!(path.pop(), None);
        assert_eq!(Path::from(Vec::new()), Path::root());
    }

    #[test]
    fn a_clone_changed_in_place_leaves_the_original() {
        let original = Path::root().key("items").index(2);
        let mut changed = original.clone();
        changed.push(Segment::Key("price".into()));
        assert_eq!(original.to_string(), "$.items[2]");
        assert_eq!(changed.to_string(), "$.items[2].price");
        changed.pop();
        changed.pop();
        assert_eq!(original.to_string(), "$.items[2]");
        assert!(original > changed);
        assert_eq!(
            format!("{original:?}"),
            "Path { segments: [Key(\"items\"), Index(2)] }"
        );
    }
}
