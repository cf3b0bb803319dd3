//! A corpus of realistic damaged replies, the same for every build from the same seed: a
//! document (a support ticket, an order, an analysis, a tool call's arguments) written with the
//! damage models mix (quote styles, unquoted keys and words, missing and trailing commas,
//! comments, Python literals, unescaped inner quotes, missing closing quotes, cut off by a token
//! limit), inside what models put around it (prose, fences, `Output:`/`Note:` labels,
//! `<think>` blocks). Only `std`: `scripts/bench-against` copies this file into an older
//! checkout to measure both builds on the same replies.

/// A small deterministic generator (xorshift64*): the corpus depends on the seed alone.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// A document before it is written: what a model means.
enum Doc {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    List(Vec<Doc>),
    Object(Vec<(String, Doc)>),
}

const NAMES: &[&str] = &[
    "Ada Lovelace",
    "Grace Hopper",
    "José Núñez",
    "Li Wei",
    "Zoë Brand",
];
const WORDS: &[&str] = &[
    "login", "billing", "refund", "urgent", "api", "timeout", "mobile", "export", "invoice",
];
const SENTENCES: &[&str] = &[
    "The user cannot log in since the last deploy.",
    "Refund the second charge, it was a duplicate.",
    "Export fails with a timeout after 30 seconds.",
    "See https://example.com/docs?id=42&lang=en for details.",
    "Customer says the app \"freezes\" on startup.",
    "Line one.\nLine two, after a break.",
];
const KEYS: &[&str] = &[
    "id",
    "title",
    "status",
    "priority",
    "owner",
    "tags",
    "summary",
    "score",
    "created_at",
    "active",
    "notes",
    "items",
    "sku",
    "qty",
    "price",
    "reason",
    "steps",
    "confidence",
];

fn scalar(rng: &mut Rng) -> Doc {
    match rng.below(9) {
        0 => Doc::Null,
        1 => Doc::Bool(rng.chance(50)),
        2 | 3 => Doc::Int(rng.below(5000) as i64 - 100),
        4 => Doc::Float((rng.below(100_000) as f64) / 100.0),
        5 => Doc::Text(rng.pick(NAMES).to_string()),
        6 => Doc::Text(rng.pick(WORDS).to_string()),
        _ => Doc::Text(rng.pick(SENTENCES).to_string()),
    }
}

fn object(rng: &mut Rng, depth: usize) -> Doc {
    let n = 2 + rng.below(6);
    let mut members = Vec::with_capacity(n);
    for i in 0..n {
        let key = format!(
            "{}{}",
            rng.pick(KEYS),
            if i > 0 && rng.chance(30) { "_2" } else { "" }
        );
        let value = match rng.below(10) {
            0 | 1 if depth < 3 => object(rng, depth + 1),
            2 if depth < 3 => {
                let items = 1 + rng.below(4);
                let objects = rng.chance(50);
                Doc::List(
                    (0..items)
                        .map(|_| {
                            if objects {
                                object(rng, depth + 1)
                            } else {
                                scalar(rng)
                            }
                        })
                        .collect(),
                )
            }
            3 => Doc::List(
                (0..1 + rng.below(4))
                    .map(|_| Doc::Text(rng.pick(WORDS).into()))
                    .collect(),
            ),
            _ => scalar(rng),
        };
        members.push((key, value));
    }
    Doc::Object(members)
}

/// The damage one reply carries: each kind on or off, as models mix them.
#[derive(Default)]
struct Damage {
    single_quotes: bool,
    unquoted_keys: bool,
    unquoted_words: bool,
    missing_commas: bool,
    trailing_commas: bool,
    comments: bool,
    python_literals: bool,
    inner_quotes: bool,
    missing_quote: bool,
    pretty: bool,
}

impl Damage {
    fn draw(rng: &mut Rng) -> Damage {
        Damage {
            single_quotes: rng.chance(25),
            unquoted_keys: rng.chance(20),
            unquoted_words: rng.chance(8),
            missing_commas: rng.chance(15),
            trailing_commas: rng.chance(20),
            comments: rng.chance(12),
            python_literals: rng.chance(15),
            inner_quotes: rng.chance(10),
            missing_quote: rng.chance(5),
            pretty: rng.chance(50),
        }
    }
}

struct Writer<'r> {
    rng: &'r mut Rng,
    damage: Damage,
    out: String,
}

impl Writer<'_> {
    fn indent(&mut self, depth: usize) {
        if self.damage.pretty {
            self.out.push('\n');
            for _ in 0..depth {
                self.out.push_str("  ");
            }
        }
    }

    fn separator(&mut self, depth: usize) {
        if !(self.damage.missing_commas && self.rng.chance(30)) {
            self.out.push(',');
        }
        if self.damage.comments && self.rng.chance(10) {
            self.out.push_str(" // see above");
            self.out.push('\n');
        } else if !self.damage.pretty {
            self.out.push(' ');
        }
        self.indent(depth);
    }

    fn close(&mut self, depth: usize, closer: char) {
        if self.damage.trailing_commas && self.rng.chance(30) {
            self.out.push(',');
        }
        self.indent(depth);
        self.out.push(closer);
    }

    fn string(&mut self, text: &str, key: bool) {
        let bare = text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if key && self.damage.unquoted_keys && bare {
            self.out.push_str(text);
            return;
        }
        if !key && self.damage.unquoted_words && bare && self.rng.chance(50) {
            self.out.push_str(text);
            return;
        }
        let quote = if self.damage.single_quotes { '\'' } else { '"' };
        self.out.push(quote);
        for c in text.chars() {
            match c {
                '"' if quote == '"' && self.damage.inner_quotes => self.out.push('"'),
                '"' | '\\' if quote == '"' => {
                    self.out.push('\\');
                    self.out.push(c);
                }
                '\'' if quote == '\'' => self.out.push_str("\\'"),
                '\n' => self.out.push_str("\\n"),
                c => self.out.push(c),
            }
        }
        if !(self.damage.missing_quote && !key && self.rng.chance(20)) {
            self.out.push(quote);
        }
    }

    fn value(&mut self, doc: &Doc, depth: usize) {
        let python = self.damage.python_literals;
        match doc {
            Doc::Null => self.out.push_str(if python { "None" } else { "null" }),
            Doc::Bool(b) => self.out.push_str(match (b, python) {
                (true, true) => "True",
                (false, true) => "False",
                (true, false) => "true",
                (false, false) => "false",
            }),
            Doc::Int(n) => self.out.push_str(&n.to_string()),
            Doc::Float(f) => self.out.push_str(&format!("{f:?}")),
            Doc::Text(t) => self.string(t, false),
            Doc::List(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.separator(depth + 1);
                    } else {
                        self.indent(depth + 1);
                    }
                    self.value(item, depth + 1);
                }
                self.close(depth, ']');
            }
            Doc::Object(members) => {
                self.out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        self.separator(depth + 1);
                    } else {
                        self.indent(depth + 1);
                    }
                    self.string(key, true);
                    self.out.push_str(": ");
                    self.value(value, depth + 1);
                }
                self.close(depth, '}');
            }
        }
    }
}

/// The document written with its damage, cut off at a random byte for some replies.
fn damaged_document(rng: &mut Rng) -> String {
    let doc = if rng.chance(20) {
        Doc::List((0..2 + rng.below(4)).map(|_| object(rng, 1)).collect())
    } else {
        object(rng, 0)
    };
    let damage = Damage::draw(rng);
    let mut writer = Writer {
        rng,
        damage,
        out: String::new(),
    };
    writer.value(&doc, 0);
    let mut text = writer.out;
    if rng.chance(12) {
        let mut cut = text.len() / 3 + rng.below(text.len() * 2 / 3);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// One reply: the damaged document and what the model wrote around it.
fn reply(rng: &mut Rng) -> String {
    let doc = damaged_document(rng);
    let mut out = String::new();
    if rng.chance(25) {
        out.push_str("<think>\nThe user wants the ticket as JSON. Fields: title, status {open|closed}.\nI will fill them in.\n</think>\n");
    }
    let fenced = rng.chance(45);
    let labeled = rng.chance(15);
    if labeled {
        out.push_str("Output:\n");
    } else if rng.chance(50) {
        out.push_str(rng.pick(&[
            "Here is the JSON you asked for:\n",
            "Sure! ",
            "Based on the conversation, the result is:\n\n",
        ]));
    }
    if fenced {
        out.push_str(rng.pick(&["```json\n", "```\n", "```JSON\n"]));
        out.push_str(&doc);
        out.push_str("\n```");
    } else {
        out.push_str(&doc);
    }
    if labeled {
        out.push_str("\nNote: the priority is a guess.\nConfidence: medium");
    } else if rng.chance(40) {
        out.push_str(rng.pick(&[
            "\n\nLet me know if you need anything else.",
            "\nThis covers every field of the schema.",
            " Hope this helps!",
        ]));
    }
    out
}

/// `n` damaged replies from `seed`.
pub fn replies(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| reply(&mut rng)).collect()
}

/// How many replies the corpus holds, and its seed.
pub const REPLIES: usize = 4000;
pub const SEED: u64 = 25;

/// `repair` over the whole corpus, one reply after another; the label (`BENCH_LABEL`, default
/// `this build`) names the build when two are compared.
pub fn bench_repair(c: &mut criterion::Criterion) {
    let corpus = replies(SEED, REPLIES);
    let bytes: usize = corpus.iter().map(String::len).sum();
    let label = std::env::var("BENCH_LABEL").unwrap_or_else(|_| "this build".into());
    let mut group = c.benchmark_group("corpus");
    group.throughput(criterion::Throughput::Bytes(bytes as u64));
    group.bench_function(criterion::BenchmarkId::new("repair", label), |b| {
        b.iter(|| {
            corpus
                .iter()
                .filter(|reply| llm_extract::repair(criterion::black_box(reply)).is_ok())
                .count()
        })
    });
    group.finish();
}
