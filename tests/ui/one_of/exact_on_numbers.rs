use llm_extract::Extract;

#[derive(Extract)]
struct Ticket {
    #[extract(one_of_exact = [1, 2])]
    priority: u8,
    #[extract(one_of = ["a"], one_of_exact = ["b"])]
    queue: String,
}

fn main() {}
