use llm_extract::Extract;

#[derive(Extract)]
#[extract(rename_all = "camelcase")]
struct ToolCall {
    tool_name: String,
}

fn main() {}
