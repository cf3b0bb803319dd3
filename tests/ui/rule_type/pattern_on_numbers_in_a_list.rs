use llm_extract::Extract;

#[derive(Extract)]
struct Scores {
    #[extract(pattern = "^[0-9]+$", min_len = 1)]
    values: Vec<u32>,
}

fn main() {}
