use llm_extract::Extract;

#[derive(Extract)]
struct Item {
    #[extract(pattern = "^[0-9]+$")]
    price: u32,
}

fn main() {}
