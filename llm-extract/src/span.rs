//! Byte spans in the original text, and their line:column positions.

use serde::Serialize;

/// A half-open byte range `start..end` in the text that was extracted from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    /// First byte of the range.
    pub start: usize,
    /// One past the last byte of the range.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    ///
    /// ```
    /// let s = llm_extract::Span::new(2, 5);
    /// assert_eq!(s.len(), 3);
    /// ```
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// An empty span at `at`.
    pub const fn at(at: usize) -> Span {
        Span { start: at, end: at }
    }

    /// Number of bytes covered.
    pub const fn len(&self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span covers no bytes.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The same span moved `by` bytes to the right.
    pub const fn shift(self, by: usize) -> Span {
        Span {
            start: self.start + by,
            end: self.end + by,
        }
    }
}

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[non_exhaustive]
pub struct Position {
    /// Line number, starting at 1.
    pub line: usize,
    /// Column number in characters, starting at 1.
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `text` (clamped to the text, snapped back to a
    /// character boundary).
    ///
    /// Linear in `offset`: call it when an error or report is built, never per byte.
    ///
    /// ```
    /// use llm_extract::Position;
    /// let p = Position::of("ab\ncd", 4);
    /// assert_eq!((p.line, p.column), (2, 2));
    /// ```
    pub fn of(text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = memchr::memchr_iter(b'\n', before.as_bytes()).count() + 1;
        let line_start = memchr::memrchr(b'\n', before.as_bytes()).map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position { line, column }
    }

    /// Positions of many offsets in one pass over `text`. `offsets` may be in any order.
    ///
    /// Linear in the text plus the number of offsets, however long the lines are.
    pub fn of_many(text: &str, offsets: &[usize]) -> Vec<Position> {
        let mut order: Vec<usize> = (0..offsets.len()).collect();
        order.sort_by_key(|&i| offsets[i]);
        let mut out = vec![Position::default(); offsets.len()];
        let (mut line, mut cursor, mut column) = (1usize, 0usize, 1usize);
        for i in order {
            let mut target = offsets[i].min(text.len());
            while !text.is_char_boundary(target) {
                target -= 1;
            }
            if target > cursor {
                let chunk = &text.as_bytes()[cursor..target];
                match memchr::memrchr(b'\n', chunk) {
                    Some(last) => {
                        line += memchr::memchr_iter(b'\n', chunk).count();
                        column = text[cursor + last + 1..target].chars().count() + 1;
                    }
                    None => column += text[cursor..target].chars().count(),
                }
                cursor = target;
            }
            out[i] = Position { line, column };
        }
        out
    }
}

/// `start..end`, byte offsets.
///
/// ```
/// assert_eq!(llm_extract::Span::new(3, 7).to_string(), "3..7");
/// ```
impl std::fmt::Display for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_agree_one_by_one_and_in_bulk() {
        let text = "a\nbé\n\nxyz";
        let offsets: Vec<usize> = (0..=text.len()).rev().collect();
        let bulk = Position::of_many(text, &offsets);
        for (o, p) in offsets.iter().zip(bulk) {
            assert_eq!(Position::of(text, *o), p, "offset {o}");
        }
        assert_eq!(Position::of(text, 5), Position { line: 2, column: 3 });
        assert_eq!(Position::of(text, 6), Position { line: 3, column: 1 });
        // Inside the two-byte é snaps back to its start.
        assert_eq!(Position::of(text, 4), Position { line: 2, column: 2 });
    }
}
