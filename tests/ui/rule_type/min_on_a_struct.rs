use llm_extract::Extract;

#[derive(Extract)]
struct Money {
    cents: u64,
}

#[derive(Extract)]
struct Item {
    #[extract(min = 1)]
    price: Money,
}

fn main() {}
