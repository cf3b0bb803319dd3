use llm_extract::Extract;

#[derive(Extract)]
#[extract(tag = "type")]
struct ToolCall {
    tool_name: String,
}

fn main() {}
