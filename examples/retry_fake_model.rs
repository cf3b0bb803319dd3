//! Re-asking a model until its reply fits the type, with a scripted fake model standing in
//! for the real one: each failure's feedback is shown as the model would receive it.
//!
//! Run: `cargo run --example retry_fake_model`

use llm_extract::{Extract, Retry};

/// How the reviewer felt.
#[derive(Extract, Debug)]
enum Sentiment {
    /// Liked it.
    Positive,
    /// Did not like it.
    Negative,
}

/// A product review, summarized.
#[derive(Extract, Debug)]
struct Review {
    /// One sentence.
    summary: String,
    sentiment: Sentiment,
    /// Stars given.
    #[extract(min = 1, max = 5)]
    stars: u8,
}

fn main() {
    // What the fake model answers, in order: prose without JSON, then JSON with a rating out
    // of range, then a reply cut off, then a good one.
    let mut script = vec![
        "I think the customer was mostly happy with the product!",
        "{\"summary\": \"Great blender.\", \"sentiment\": \"Positive\", \"stars\": 9}",
        "{\"summary\": \"Great blender, loud but strong.\", \"sentiment\": \"Posi",
        "```json\n{\"summary\": \"Great blender, loud but strong.\", \"sentiment\": \"positive\", \"stars\": 4}\n```",
    ]
    .into_iter();

    let retry = Retry::for_type::<Review>(5);
    let result = retry.run::<String>(|feedback| {
        if let Some(feedback) = feedback {
            println!("--- feedback sent to the model ---\n{feedback}\n");
        }
        let reply = script
            .next()
            .ok_or("the fake model has nothing more to say")?;
        println!("--- model replied ---\n{reply}\n");
        Ok(reply.to_string())
    });
    match result {
        Ok(review) => println!(
            "=== accepted: {:?}, {} stars: {}",
            review.sentiment, review.stars, review.summary
        ),
        Err(e) => {
            println!("=== gave up: {e}");
            for (i, attempt) in e.attempts.iter().enumerate() {
                println!("attempt {}: {:?} -> {}", i + 1, attempt.raw, attempt.error);
            }
        }
    }
}
