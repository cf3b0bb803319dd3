//! Which handler reads a token of the formats whose handlers live in this folder.

use super::{gemma, Walker};
use crate::tool::scan::Tok;

impl Walker<'_> {
    /// The step that begins at token `k`: a call of one of these families, or a wrapper,
    /// separator or closer on its own, which carries nothing.
    pub(super) fn family_step(&mut self, k: usize) -> (usize, usize) {
        match self.toks[k].tok {
            Tok::DsmlInvoke => self.dsml_invoke(k),
            Tok::GemmaCall => self.gemma_call(k, gemma::GEMMA4),
            Tok::FnGemmaCall => self.gemma_call(k, gemma::FUNCTION_GEMMA),
            Tok::ToolCode => self.tool_code(k),
            Tok::SeedCall => self.seed_call(k),
            Tok::XtmlCall => self.xtml_call(k),
            Tok::StepCallBegin => self.step_call_begin(k),
            Tok::StepInvoke => self.step_invoke(k),
            Tok::FunctionNamed => self.minicpm_function(k),
            Tok::FunctionCalls => self.function_calls(k),
            Tok::InklingMessage => self.inkling_message(k),
            Tok::InklingToolJson => self.inkling_call(k),
            Tok::HunyuanCalls => self.hunyuan_calls(k),
            Tok::ApertusCalls => self.apertus_calls(k),
            Tok::M3Invoke => self.m3_invoke(k),
            _ => (k + 1, self.toks[k].span.end),
        }
    }
}
