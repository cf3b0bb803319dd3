use llm_extract::Extract;

type Queue = String;

#[derive(Extract)]
struct Ticket {
    #[extract(one_of = [1, 2])]
    queue: Queue,
}

fn main() {}
