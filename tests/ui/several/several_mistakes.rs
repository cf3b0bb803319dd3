use llm_extract::Extract;

#[derive(Extract)]
#[extract(rename_all = "kebab", untagged)]
struct Reply {
    #[extract(alias = "a", defualt)]
    answer: String,
    #[extract(min_len = 1, min_len = 2)]
    sources: Vec<String>,
    #[extract(min = 5, max = 1)]
    score: u8,
    #[extract(skip, alias = "x")]
    cache: Vec<u8>,
}

fn main() {}
