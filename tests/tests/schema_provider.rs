//! Schemas in each provider's dialect, tool lists from an enum of tools, and the prompt format.

use llm_extract::tool::{definitions, Provider};
use llm_extract::{json_schema_for, Category, Extract};
use serde_json::{json, Value};

/// Every sub-schema of `v` (objects only), depth first.
fn all_objects(v: &Value) -> Vec<&serde_json::Map<String, Value>> {
    let mut out = Vec::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                out.push(m);
                stack.extend(m.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    out
}

/// An address.
#[derive(Extract, Debug)]
#[allow(dead_code)] // only the schema is read
struct Address {
    city: String,
    zip: Option<String>,
}

impl serde::Serialize for Address {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        json!({"city": self.city, "zip": self.zip}).serialize(s)
    }
}

/// The tools of the agent.
#[derive(Extract, Debug)]
#[allow(dead_code)] // only the schema is read
enum Tool {
    /// Search the web.
    Search {
        query: String,
        #[extract(min = 1, max = 10)]
        limit: Option<u8>,
    },
    /// Ship a parcel.
    Ship { to: Address, express: bool },
    /// The time now.
    Now,
}

#[test]
fn openai_tools_are_strict_every_object_closed_and_fully_required() {
    let tools = definitions::<Tool>(Provider::OpenAi);
    let names: Vec<&str> = tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Now", "Search", "Ship"]); // the schema lists unit variants first
    for tool in tools.as_array().unwrap() {
        assert_eq!(tool["type"], "function");
        assert_eq!(tool["function"]["strict"], true, "{tool}");
        let params = &tool["function"]["parameters"];
        assert_eq!(params["type"], "object", "{tool}");
        for obj in all_objects(params) {
            if obj.get("type") == Some(&json!("object")) {
                assert_eq!(
                    obj.get("additionalProperties"),
                    Some(&json!(false)),
                    "{tool}"
                );
                let props: Vec<&String> = obj["properties"].as_object().unwrap().keys().collect();
                let required: Vec<&str> = obj["required"]
                    .as_array()
                    .map_or(vec![], |r| r.iter().map(|x| x.as_str().unwrap()).collect());
                assert_eq!(props.len(), required.len(), "{tool}");
            }
            assert!(
                !obj.contains_key("allOf") && !obj.contains_key("oneOf"),
                "{tool}"
            );
        }
    }
    let ship = &tools[2]["function"];
    assert_eq!(ship["description"], "Ship a parcel.");
    assert_eq!(
        ship["parameters"]["properties"]["to"]["properties"]["zip"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        tools[1]["function"]["parameters"]["properties"]["limit"]["maximum"],
        10
    );
}

#[test]
fn gemini_tools_have_no_ref_const_or_additional_properties() {
    let tools = definitions::<Tool>(Provider::Gemini);
    let decls = tools[0]["functionDeclarations"].as_array().unwrap();
    assert_eq!(decls.len(), 3);
    for obj in all_objects(&tools) {
        for banned in [
            "$ref",
            "$defs",
            "const",
            "additionalProperties",
            "oneOf",
            "$schema",
        ] {
            assert!(
                !obj.contains_key(banned),
                "{banned} in {}",
                Value::Object(obj.clone())
            );
        }
        if let Some(t) = obj.get("type") {
            assert!(t.is_string(), "Gemini takes one type: {t}");
        }
    }
    assert_eq!(
        decls[2]["parameters"]["properties"]["to"]["properties"]["zip"],
        json!({"type": "string", "nullable": true})
    );
}

#[test]
fn anthropic_tools_use_input_schema() {
    let tools = definitions::<Tool>(Provider::Anthropic);
    assert_eq!(tools[1]["name"], "Search");
    assert_eq!(tools[1]["description"], "Search the web.");
    assert_eq!(tools[1]["input_schema"]["required"], json!(["query"]));
    assert_eq!(
        tools[0]["input_schema"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
}

#[test]
fn a_type_that_cannot_be_strict_is_an_error_saying_where_and_why() {
    #[derive(Extract)]
    #[allow(dead_code)] // only the schema is read
    struct Loose {
        name: String,
        anything: serde_json::Value,
    }
    for provider in [Provider::OpenAi, Provider::Anthropic, Provider::Gemini] {
        let err = json_schema_for::<Loose>(provider).unwrap_err();
        assert_eq!(err.category(), Category::Type);
        assert!(err.to_string().contains("$.properties.anything"), "{err}");
    }
    // As a tool, it is written non-strict (OpenAI accepts that) and says so.
    #[derive(Extract)]
    #[allow(dead_code)] // only the schema is read
    enum Tools {
        Run {
            args: std::collections::HashMap<String, String>,
        },
    }
    let tools = definitions::<Tools>(Provider::OpenAi);
    assert_eq!(tools[0]["function"]["strict"], false);
}

#[test]
fn a_recursive_type_keeps_ref_for_openai_and_is_refused_for_gemini() {
    #[derive(Extract)]
    #[allow(dead_code)] // only the schema is read
    struct Node {
        label: String,
        children: Vec<Node>,
    }
    let openai = json_schema_for::<Node>(Provider::OpenAi).unwrap();
    assert!(openai.to_string().contains("$ref"), "{openai}");
    let err = json_schema_for::<Node>(Provider::Gemini).unwrap_err();
    assert!(err.to_string().contains("contains itself"), "{err}");
}

#[test]
fn the_root_of_a_response_format_must_be_an_object() {
    let err = json_schema_for::<Vec<String>>(Provider::OpenAi).unwrap_err();
    assert!(err.to_string().contains("root must be an object"), "{err}");
}

#[test]
fn values_the_extractor_accepts_are_valid_against_the_openai_schema() {
    #[derive(Extract, serde::Serialize)]
    struct Reply {
        answer: String,
        source: Option<String>,
        to: Address,
    }
    let schema = json_schema_for::<Reply>(Provider::OpenAi).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let reply: Reply = llm_extract::from_str("{answer: 'yes', to: {city: 'Paris'}}").unwrap();
    let value = serde_json::to_value(&reply).unwrap();
    assert!(validator.is_valid(&value), "{value}");
}

#[test]
fn prompt_format_shows_type_and_variant_docs_in_english() {
    /// How the reviewer felt.
    #[derive(Extract)]
    #[allow(dead_code)] // only the schema is read
    enum Mood {
        /// The review is good.
        Happy,
        /// The review is bad.
        Sad,
    }
    /// A product review.
    #[derive(Extract)]
    #[allow(dead_code)] // only the schema is read
    struct Review {
        #[extract(min_len = 1)]
        tags: Vec<String>,
        #[extract(min_len = 1)]
        title: String,
        mood: Mood,
    }
    let text = llm_extract::prompt_format::<Review>();
    assert!(text.starts_with("// A product review.\n{"), "{text}");
    assert!(text.contains("// at least 1 item\n"), "{text}");
    assert!(text.contains("// at least 1 character\n"), "{text}");
    assert!(
        text.contains("//   \"Happy\": The review is good.\n"),
        "{text}"
    );
    assert!(
        text.contains("//   \"Sad\": The review is bad.\n"),
        "{text}"
    );
}

#[test]
fn json_schema_is_reexported_for_generic_callers() {
    fn schema_of<T: Extract + llm_extract::JsonSchema>() -> Value {
        llm_extract::json_schema::<T>().to_value()
    }
    assert_eq!(schema_of::<Address>()["description"], "An address.");
}

#[test]
fn internally_tagged_tools_drop_the_tag_from_their_parameters() {
    /// Tools, tagged by a `tool` key.
    #[derive(Extract)]
    #[extract(tag = "tool")]
    #[allow(dead_code)] // only the schema is read
    enum Tools {
        /// Look something up.
        Lookup { key: String },
    }
    let tools = definitions::<Tools>(Provider::OpenAi);
    let f = &tools[0]["function"];
    assert_eq!(f["name"], "Lookup");
    assert_eq!(f["description"], "Look something up.");
    assert_eq!(f["parameters"]["required"], json!(["key"]));
    assert!(f["parameters"]["properties"].get("tool").is_none(), "{f}");
}
