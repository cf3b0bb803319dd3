//! Seed-OSS: `<seed:tool_call><function=f><parameter=k>v</parameter></function></seed:tool_call>`,
//! Qwen3-Coder's call in a wrapper of its own.

use super::Walker;
use crate::span::Span;
use crate::tool::scan::Tok;
use crate::tool::Format;

impl Walker<'_> {
    /// `<seed:tool_call>` and the `<function=...>` call in it.
    pub(super) fn seed_call(&mut self, k: usize) -> (usize, usize) {
        let start = self.toks[k].span.start;
        let body = self.body(k);
        if self.tok(k + 1) != Some(Tok::FunctionOpen) || !self.slice(body).trim().is_empty() {
            let end = match self.tok(k + 1) {
                Some(Tok::SeedCallEnd) => self.toks[k + 1].span.end,
                _ => body.end,
            };
            let cut = self.tok(k + 1).is_none() && self.slice(body).trim().is_empty();
            let why = "a <seed:tool_call> block without a <function=...> call";
            self.miss(Span::new(start, end), Format::SeedOss, why, cut);
            return (k + 1, body.end);
        }
        let (hits, misses) = (self.out.hits.len(), self.out.misses.len());
        let (next, end) = self.function(k + 1, Format::SeedOss);
        let (next, end, closed) = match self.tok(next) {
            Some(Tok::SeedCallEnd) => (next + 1, self.toks[next].span.end, true),
            _ => (next, end, false),
        };
        for hit in &mut self.out.hits[hits..] {
            hit.format = Format::SeedOss;
            hit.span = Span::new(start, end);
            hit.complete &= closed;
        }
        for miss in &mut self.out.misses[misses..] {
            miss.format = Some(Format::SeedOss);
            miss.span = Span::new(start, end);
        }
        (next, end)
    }
}
