use llm_extract::Extract;

#[derive(Extract)]
#[extract(stream = "required")]
struct Held {
    #[extract(stream = "later")]
    a: String,
    #[extract(stream = 1)]
    b: u8,
    #[extract(stream = "done", stream = "required")]
    c: u8,
}

#[derive(Extract)]
#[extract(partial = "not a name")]
struct Named {
    a: u8,
}

#[derive(Extract)]
struct Pair(#[extract(stream = "required")] String, u8);

fn main() {}
