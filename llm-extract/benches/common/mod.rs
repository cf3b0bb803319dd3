//! Documents shared by the benches, so `repair` and typed extraction are measured on the same
//! input.

/// A valid order of about `bytes` bytes: many small records (ids, short names, numbers, a
/// nested object), the hardest shape per byte for any JSON reader.
pub fn order_doc(bytes: usize) -> String {
    let mut out = String::from("{\"items\": [");
    let mut i = 0;
    while out.len() < bytes {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            "{{\"id\": {i}, \"name\": \"item number {i}\", \"price\": {}.{:02}, \"tags\": [\"a\", \"b\\n\", \"é\"], \"ok\": true, \"meta\": {{\"x\": null, \"y\": -1.5e-3}}}}",
            i * 7 % 1000,
            i % 100
        ));
        i += 1;
    }
    out.push_str("], \"story\": \"done\"}");
    out
}
