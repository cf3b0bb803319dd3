//! An agent loop over raw model output: three model families write tool calls in their own
//! wire formats, and one typed `Tool` enum reads them all.
//!
//! Run: `cargo run --example tool_agent_loop`

use llm_extract::tool::{self, Provider};
use llm_extract::Extract;

/// The tools this agent offers.
#[derive(Extract, Debug)]
enum Tool {
    /// Search the web for a query.
    Search {
        /// What to search for.
        query: String,
        /// How many results (1 to 10).
        #[extract(min = 1, max = 10)]
        limit: Option<u8>,
    },
    /// The weather forecast for a city.
    GetWeather {
        /// The city name.
        city: String,
        /// Days ahead (1 to 7).
        #[extract(min = 1, max = 7)]
        days: Option<u8>,
    },
}

/// What running a tool returns (a stand-in for the real thing).
fn run(tool: &Tool) -> String {
    match tool {
        Tool::Search { query, limit } => {
            format!("{} results for {query:?}", limit.unwrap_or(3))
        }
        Tool::GetWeather { city, days } => {
            format!("{city}: sunny for the next {} days", days.unwrap_or(1))
        }
    }
}

fn main() {
    // The tool list to send, in each API's shape, from the same enum.
    let openai = tool::definitions::<Tool>(Provider::OpenAi);
    println!(
        "OpenAI tool list:\n{}\n",
        serde_json::to_string_pretty(&openai).unwrap_or_default()
    );

    // Raw completions as open-weight models served without a tool parser write them.
    let turns = [
        (
            "Qwen3 (Hermes format, after reasoning)",
            "<think>\nThe user wants a 3-day forecast for Paris and some news.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>\n<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"Paris news\", \"limit\": 5}}\n</tool_call>",
        ),
        (
            "Mistral (v11 [TOOL_CALLS]name[ARGS])",
            "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Lyon\"}",
        ),
        (
            "gpt-oss (Harmony)",
            "<|channel|>analysis<|message|>Need to search for the museum hours.<|end|><|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{\"query\": \"Louvre opening hours\"}<|call|>",
        ),
        (
            "Llama 3.2 (pythonic)",
            "[get_weather(city='Nice', days=2)]",
        ),
        (
            "a call cut off mid-arguments (never run)",
            "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"query\": \"rm -rf",
        ),
        (
            "a tool the agent does not have",
            "<tool_call>{\"name\": \"delete_files\", \"arguments\": {\"path\": \"/\"}}</tool_call>",
        ),
        ("a plain answer", "Paris will be sunny all week."),
    ];

    for (model, raw) in turns {
        println!("== {model}");
        let reply = tool::read(raw);
        for thought in &reply.thoughts {
            println!("   reasoning: {thought}");
        }
        for cut in &reply.incomplete {
            println!(
                "   not run: the call to `{}` was cut off ({})",
                cut.call.name, cut.format
            );
        }
        match tool::calls::<Tool>(raw) {
            Ok(calls) if calls.is_empty() => println!("   answer: {}", reply.text),
            Ok(calls) => {
                for call in &calls {
                    println!("   {call:?} -> {}", run(call));
                }
            }
            Err(e) => {
                println!("   error: {e}");
                let feedback = llm_extract::feedback(&e, None);
                println!(
                    "   feedback to send back to the model:\n{}",
                    indent(&feedback)
                );
            }
        }
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("     {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
