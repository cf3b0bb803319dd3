//! A story extractor's reply: `{items, story}`.

use llm_extract::Extract;

#[derive(Extract, Debug, PartialEq)]
pub struct Item {
    pub id: String,
    pub value: String,
    pub description: Option<String>,
    pub evidence: Option<String>,
}

#[derive(Extract, Debug, PartialEq)]
pub struct StoryExtraction {
    #[extract(default)]
    pub items: Vec<Item>,
    pub story: String,
}
