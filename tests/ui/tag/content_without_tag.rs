use llm_extract::Extract;

#[derive(Extract)]
#[extract(content = "arguments")]
enum Tool {
    Search { query: String },
}

fn main() {}
