//! The schema the derive generates: names, descriptions and rules as keywords; the strict
//! rendering; the prompt format; and, by behaviour, every value the extractor accepts is
//! valid under the schema.

use llm_extract::Extract;
use serde::Serialize;
use serde_json::{json, Value};

/// The mood of a review.
#[derive(Extract, Serialize, Debug, PartialEq)]
enum Sentiment {
    Positive,
    Negative,
    /// Neither.
    Neutral,
}

/// A product review.
#[derive(Extract, Serialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Review {
    /// One sentence.
    #[extract(min_len = 1, max_len = 200)]
    summary: String,
    sentiment: Sentiment,
    #[extract(min = 1, max = 5)]
    star_rating: Option<u8>,
    #[extract(default, max_len = 3)]
    tags: Vec<String>,
    #[extract(pattern = "^[a-z]{2}$")]
    language: String,
}

#[test]
fn schema_has_canonical_names_descriptions_and_rules() {
    let schema = llm_extract::json_schema::<Review>().to_value();
    assert_eq!(schema["title"], "Review");
    assert_eq!(schema["description"], "A product review.");
    let props = &schema["properties"];
    assert_eq!(props["summary"]["description"], "One sentence.");
    assert_eq!(props["summary"]["minLength"], 1);
    assert_eq!(props["summary"]["maxLength"], 200);
    assert_eq!(props["starRating"]["minimum"], 1);
    assert_eq!(props["starRating"]["maximum"], 5);
    assert_eq!(props["tags"]["maxItems"], 3);
    assert_eq!(props["language"]["pattern"], "^[a-z]{2}$");
    assert_eq!(props["sentiment"]["$ref"], "#/$defs/Sentiment");
    assert_eq!(
        schema["required"],
        json!(["summary", "sentiment", "language"])
    );
    let sentiment = &schema["$defs"]["Sentiment"];
    assert_eq!(sentiment["description"], "The mood of a review.");
    assert_eq!(
        sentiment["oneOf"][2],
        json!({"type": "string", "const": "Neutral", "description": "Neither."})
    );
}

#[test]
fn strict_rendering_for_model_apis() {
    let schema = llm_extract::json_schema_strict::<Review>().to_value();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(
        schema["required"],
        json!(["summary", "sentiment", "starRating", "tags", "language"])
    );
    assert_eq!(
        schema["properties"]["starRating"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(
        schema["properties"]["tags"]["type"],
        json!(["array", "null"])
    );
    assert!(
        schema["$defs"]["Sentiment"].get("anyOf").is_some(),
        "oneOf becomes anyOf"
    );
}

#[test]
fn prompt_format_is_compact_and_readable() {
    let text = llm_extract::prompt_format::<Review>();
    let want = r#"// A product review.
{
  // One sentence.
  summary: string, // at least 1 character, at most 200 characters
  sentiment: "Positive" | "Negative" | "Neutral",
  //   "Neutral": Neither.
  starRating?: integer | null, // minimum 1, maximum 5
  tags?: string[], // at most 3 items
  language: string, // matches ^[a-z]{2}$
}"#;
    assert_eq!(text, want);
}

#[derive(Extract, Serialize, Debug)]
#[serde(tag = "kind")]
enum Shape {
    Circle { radius: f64 },
    Square { side: f64 },
}

#[derive(Extract, Serialize, Debug)]
#[serde(untagged)]
enum Loose {
    N(i64),
    S(String),
}

#[derive(Extract, Serialize, Debug)]
enum Command {
    Stop,
    Go { speed: u32 },
}

#[derive(Extract, Serialize, Debug)]
struct Everything {
    shapes: Vec<Shape>,
    loose: Vec<Loose>,
    commands: Vec<Command>,
    pair: (u8, String),
    /// Free-form extras (a flattened map cannot be expressed in strict schemas).
    #[serde(flatten)]
    extra: std::collections::BTreeMap<String, Value>,
}

#[test]
fn enum_schemas() {
    let schema = llm_extract::json_schema::<Everything>().to_value();
    let shape = &schema["$defs"]["Shape"]["oneOf"][0];
    assert_eq!(
        shape["properties"]["kind"],
        json!({"type": "string", "const": "Circle"})
    );
    assert_eq!(shape["required"], json!(["kind", "radius"]));
    assert!(schema["$defs"]["Loose"]["anyOf"].is_array());
    assert_eq!(
        schema["$defs"]["Command"]["oneOf"][0],
        json!({"type": "string", "enum": ["Stop"]})
    );
    assert_eq!(
        schema["properties"]["pair"]["prefixItems"][1]["type"],
        "string"
    );
    assert_eq!(schema["additionalProperties"], true);
}

fn check<T: Extract + Serialize + schemars::JsonSchema>(texts: &[&str], with_strict: bool) {
    let schema = llm_extract::json_schema::<T>().to_value();
    let strict = llm_extract::json_schema_strict::<T>().to_value();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let strict_validator = jsonschema::validator_for(&strict).expect("a valid strict schema");
    for text in texts {
        let value: T = llm_extract::from_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let json = serde_json::to_value(&value).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{text} -> {json} is not valid under the schema: {errors:?}"
        );
        if !with_strict {
            continue;
        }
        let errors: Vec<String> = strict_validator
            .iter_errors(&json)
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors.is_empty(),
            "{text} -> {json} is not valid under the strict schema: {errors:?}"
        );
    }
}

#[test]
fn every_accepted_value_is_valid_under_its_schema() {
    check::<Review>(
        &[
            r#"{"summary": "Good.", "sentiment": "Positive", "starRating": 5, "tags": ["a"], "language": "en"}"#,
            r#"Here you go: {summary: 'Fine', sentiment: 'the sentiment is neutral', star_rating: '3', language: 'de'}"#,
            r#"{"Summary": "x", "SENTIMENT": "negative", "starRating": "N/A", "tags": "solo", "language": "fr"}"#,
        ],
        true,
    );
    check::<Everything>(
        &[
            r#"{"shapes": [{"kind": "Circle", "radius": 1}], "loose": [1, "a"], "commands": ["Stop", {"Go": {"speed": 2}}], "pair": [1, "x"], "other": 1}"#,
            r#"{"shapes": {"kind": "square", "side": "2"}, "loose": [], "commands": "stop", "pair": ["7", 3]}"#,
        ],
        false,
    );
}

#[derive(Extract, Serialize, Debug)]
struct Survey {
    #[extract(min = 1, max = 5, max_len = 4)]
    answers: Vec<u8>,
    #[extract(pattern = "^[a-z]+$")]
    tags: Option<Vec<String>>,
}

#[test]
fn rules_on_collections_go_to_the_items_schema() {
    let schema = llm_extract::json_schema::<Survey>().to_value();
    let answers = &schema["properties"]["answers"];
    assert_eq!(answers["maxItems"], 4);
    assert_eq!(answers["items"]["minimum"], 1);
    assert_eq!(answers["items"]["maximum"], 5);
    assert!(answers.get("minimum").is_none());
    assert_eq!(schema["properties"]["tags"]["items"]["pattern"], "^[a-z]+$");
    check::<Survey>(&[r#"{"answers": [1, "5"], "tags": "abc"}"#], true);
}
