use llm_extract::Extract;

#[derive(Extract)]
struct ToolCall {
    #[extract(rename = "tool", rename = "name")]
    tool_name: String,
}

fn main() {}
