use llm_extract::Extract;

#[derive(Extract)]
struct Ticket {
    #[extract(one_of = ["support", 3])]
    queue: String,
    #[extract(one_of = [1, "2"])]
    priority: Option<u8>,
    #[extract(one_of = [true, "yes"])]
    flags: Vec<bool>,
}

fn main() {}
