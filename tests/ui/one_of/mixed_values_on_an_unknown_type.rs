use llm_extract::Extract;

type Queue = String;

#[derive(Extract)]
struct Ticket {
    #[extract(one_of = ["support", 3, false])]
    queue: Queue,
}

fn main() {}
