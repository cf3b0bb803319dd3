//! Quickstart: a messy model reply into a typed, validated Rust value.
//!
//! Run with `cargo run --example quickstart`.

// The types are shown through `Debug`, which the dead-code lint does not count as a read.
#![allow(dead_code)]

use llm_extract::Extract;

/// How the reviewer felt.
#[derive(Extract, Debug)]
enum Sentiment {
    Positive,
    Negative,
    Neutral,
}

/// A product review, as we want it.
#[derive(Extract, Debug)]
struct Review {
    /// The product's name.
    #[extract(alias = "product_name", alias = "item")]
    product: String,
    sentiment: Sentiment,
    /// 1 to 5 stars.
    #[extract(min = 1, max = 5)]
    stars: u8,
    #[extract(default)]
    pros: Vec<String>,
}

fn main() {
    // What a model actually wrote: prose, a fence, single quotes, a trailing comma, a number
    // as a string, a sentence where an enum value belongs, one item where a list belongs.
    let reply = "Sure! Here is the review you asked for:\n\
        ```json\n\
        {'item': 'Aeropress', 'Sentiment': 'The sentiment is POSITIVE.', 'stars': '5', 'pros': 'fast',}\n\
        ```\n\
        Let me know if you need anything else.";

    let out = llm_extract::extract::<Review>(reply).expect("a review");
    println!("{:#?}", out.value);
    println!(
        "score {} (0 = clean JSON of the right shape)",
        out.report.score
    );
    for repair in &out.report.repairs {
        println!("  repaired: {repair}");
    }
    for c in &out.report.coercions {
        println!("  coerced:  {:?} at {}", c.kind, c.path);
    }

    // A reply that cannot become a Review: every issue, with its path and position, and a
    // message to send back to the model.
    let bad = r#"{"product": "Aeropress", "sentiment": "mixed", "stars": 9}"#;
    let err = llm_extract::from_str::<Review>(bad).unwrap_err();
    println!("\n{err}\n\n{}", err.feedback());

    // The same type as a prompt fragment and as a response-format schema.
    println!(
        "\nReply with JSON of this shape:\n{}",
        llm_extract::prompt_format::<Review>()
    );
    let schema = llm_extract::json_schema_strict::<Review>();
    println!(
        "\nstrict schema: {}",
        serde_json::to_string(&schema).expect("json")
    );
}
