use llm_extract::Extract;

#[derive(Extract)]
enum Status {
    Pass,
    #[extract(other)]
    Unknown { reason: String },
}

fn main() {}
