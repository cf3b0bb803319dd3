use llm_extract::Extract;

#[derive(Extract)]
enum Status {
    Pass,
    #[extract(other)]
    Unknown,
    #[extract(other)]
    Invalid,
}

fn main() {}
