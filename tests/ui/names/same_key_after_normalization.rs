use llm_extract::Extract;

#[derive(Extract)]
struct User {
    user_id: u64,
    #[extract(rename = "userId")]
    legacy_id: u64,
}

fn main() {}
