use llm_extract::Extract;

#[derive(Extract)]
#[extract(tag = "name", content = "name")]
enum Tool {
    Search { query: String },
}

fn main() {}
