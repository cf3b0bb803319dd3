use llm_extract::Extract;

#[derive(Extract)]
#[extract(alias = "call")]
struct ToolCall {
    tool_name: String,
}

fn main() {}
