//! The order documents of the typed and memory measurements, shared by the `typed` and `memory`
//! benches: a struct with a nested list of line items, an enum, options, numbers and bools,
//! deriving both `Extract` and serde's `Deserialize`.

use llm_extract::Extract;
use serde::Deserialize;

#[derive(Extract, Deserialize, Debug)]
#[allow(dead_code)] // read only through black_box
pub struct Order {
    pub id: u64,
    pub customer: String,
    pub status: Status,
    pub items: Vec<LineItem>,
    pub notes: Option<String>,
    pub paid: bool,
    pub total: f64,
    pub coupon: Option<String>,
}

#[derive(Extract, Deserialize, Debug)]
#[allow(dead_code)]
pub struct LineItem {
    pub sku: String,
    pub name: String,
    pub qty: u32,
    pub price: f64,
    pub gift: bool,
    pub discount: Option<f64>,
}

#[derive(Extract, Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
#[extract(rename_all = "snake_case")]
pub enum Status {
    Pending,
    Paid,
    Shipped,
    Cancelled,
}

/// A valid order document of about `bytes` bytes.
pub fn valid(bytes: usize) -> String {
    let mut items = String::new();
    let mut i = 0u64;
    while items.len() + 200 < bytes || i == 0 {
        if i > 0 {
            items.push_str(", ");
        }
        let discount = if i.is_multiple_of(3) {
            "null".to_string()
        } else {
            format!("0.{}", i % 9 + 1)
        };
        items.push_str(&format!(
            "{{\"sku\": \"SKU-{i:05}\", \"name\": \"Item number {i}, blue\", \"qty\": {}, \"price\": {}.{:02}, \"gift\": {}, \"discount\": {discount}}}",
            i % 7 + 1,
            i * 13 % 500,
            i % 100,
            i.is_multiple_of(4),
        ));
        i += 1;
    }
    format!(
        "{{\"id\": 1042, \"customer\": \"Ada Lovelace\", \"status\": \"shipped\", \"items\": [{items}], \"notes\": \"leave at the door\", \"paid\": true, \"total\": 1234.5, \"coupon\": null}}"
    )
}

/// The same order as a model writes it: in a fence with prose around, single quotes,
/// Python's `True`, a trailing comma.
pub fn messy(valid: &str) -> String {
    let body = valid
        .replace('"', "'")
        .replace("true", "True")
        .replace(", 'coupon': null}", ", 'coupon': null,}");
    format!("Here is the order you asked for:\n\n```json\n{body}\n```\n\nLet me know if anything is missing!")
}
