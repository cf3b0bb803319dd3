use llm_extract::Extract;

#[derive(Extract)]
struct Code {
    #[extract(pattern = "[a-z")]
    value: String,
}

fn main() {}
