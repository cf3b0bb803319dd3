//! Quickstart: repair a messy model reply.
fn main() {
    let reply = "Sure! Here it is:\n```json\n{\"name\": \"Ada\", \"age\": 36}\n```";
    println!("{}", llm_extract::repair(reply).expect("a JSON value"));
}
