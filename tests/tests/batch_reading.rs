//! Batch reading (feature `parallel`): every reply read on a thread pool gives what reading it
//! alone gives, at its input's index.

use llm_extract::{Extract, Extractor};

#[derive(Extract, Debug, PartialEq)]
struct Order {
    id: u64,
    #[extract(alias = "items")]
    lines: Vec<Line>,
    status: Status,
}

#[derive(Extract, Debug, PartialEq)]
struct Line {
    sku: String,
    #[extract(min = 1)]
    qty: u32,
}

#[derive(Extract, Debug, PartialEq)]
enum Status {
    Open,
    Shipped,
}

/// Replies of every kind, each different, so an answer at the wrong index shows.
fn replies() -> Vec<String> {
    (0..500)
        .map(|i| match i % 5 {
            0 => format!("{{\"id\": {i}, \"lines\": [{{\"sku\": \"a{i}\", \"qty\": 1}}], \"status\": \"Open\"}}"),
            1 => format!("Sure!\n```json\n{{'id': '{i}', items: [{{sku: 'b', qty: 2,}}], status: 'shipped'}}\n```"),
            2 => format!("{{\"id\": {i}, \"lines\": [{{\"sku\": \"c\", \"qty\": 0}}], \"status\": \"Open\"}}"),
            3 => format!("no order here, only the number {i}"),
            _ => format!("{{\"id\": {i}, \"lines\": [{{\"sku\": \"d\", \"qty\": {}", i % 7 + 1),
        })
        .collect()
}

#[test]
fn repair_batch_is_repair_of_each_in_order() {
    let replies = replies();
    let batch = llm_extract::repair_batch(&replies);
    assert_eq!(batch.len(), replies.len());
    for (reply, got) in replies.iter().zip(&batch) {
        match (llm_extract::repair(reply), got) {
            (Ok(one), Ok(many)) => assert_eq!(&one, many, "{reply}"),
            (Err(one), Err(many)) => assert_eq!(one.to_string(), many.to_string(), "{reply}"),
            (one, many) => panic!("{reply}: alone {one:?}, in a batch {many:?}"),
        }
    }
}

#[test]
fn typed_batches_are_each_reply_alone_in_order() {
    let replies = replies();
    let texts: Vec<&str> = replies.iter().map(String::as_str).collect();
    let e = Extractor::new().max_depth(16);
    let values = e.from_str_batch::<Order, _>(&texts);
    let extracted = e.extract_batch::<Order, _>(&texts);
    let free = llm_extract::from_str_batch::<Order, _>(&texts);
    for (i, reply) in texts.iter().enumerate() {
        let alone = e.extract::<Order>(reply);
        match (&alone, &values[i], &extracted[i], &free[i]) {
            (Ok(a), Ok(v), Ok(x), Ok(f)) => {
                assert_eq!(&a.value, v);
                assert_eq!(&a.value, f);
                assert_eq!(a.value, x.value);
                assert_eq!(a.report.score, x.report.score);
                assert_eq!(a.value.id, i as u64);
            }
            (Err(a), Err(v), Err(x), Err(f)) => {
                assert_eq!(a.to_string(), v.to_string());
                assert_eq!(a.to_string(), x.to_string());
                assert_eq!(a.to_string(), f.to_string());
            }
            _ => panic!("{reply}: the batch differs from the reply read alone"),
        }
    }
    // Every kind of reply is in the table: read, repaired, coerced, broken, truncated.
    assert_eq!(values.iter().filter(|v| v.is_ok()).count(), 200);
}

#[test]
fn a_batch_runs_on_the_pool_it_is_called_from() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let texts = ["[1]", "[2, 3,]", "x"];
    let threads = pool.install(|| {
        let out = llm_extract::repair_batch(&texts);
        assert_eq!(out[1].as_ref().unwrap(), &serde_json::json!([2, 3]));
        rayon::current_num_threads()
    });
    assert_eq!(threads, 2);
    let empty: [&str; 0] = [];
    assert!(llm_extract::repair_batch(&empty).is_empty());
}
