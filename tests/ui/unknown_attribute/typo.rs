use llm_extract::Extract;

#[derive(Extract)]
struct ToolCall {
    #[extract(aliass = "tool")]
    tool_name: String,
}

fn main() {}
