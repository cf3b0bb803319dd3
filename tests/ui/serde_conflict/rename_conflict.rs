use llm_extract::Extract;

#[derive(Extract, serde::Deserialize)]
struct ToolCall {
    #[serde(rename = "tool")]
    #[extract(rename = "name")]
    tool_name: String,
}

fn main() {}
