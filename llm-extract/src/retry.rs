//! Re-asking the model: call it, extract, and on failure ask again with feedback it can act
//! on, up to a number of attempts.
//!
//! The caller's closure calls the model (no HTTP client or async runtime here). It gets
//! `None` first, then the feedback on the last failure: written in the model's terms (field
//! paths and allowed values, never a Rust type name), fitting the failure (a reply without
//! JSON is asked for JSON, not told to "correct" it), and showing the expected shape when
//! one is known ([`Retry::expected_format`], or [`Retry::for_type`] with the `schema`
//! feature).

use crate::coerce::Extract;
use crate::error::{Category, Error, Issue};
use crate::extractor::Extractor;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;

/// One failed attempt: what the model wrote and why it could not be used.
#[derive(Debug)]
pub struct Attempt {
    /// The model's reply, as the closure returned it.
    pub raw: String,
    /// Every issue found in it.
    pub error: Error,
    /// The feedback that was (or would have been) sent back.
    pub feedback: String,
}

/// Why [`retry`] gave up: every attempt's raw text and issues, and the caller's own error
/// when `ask` failed (which stops the retries at once).
pub struct RetryError<E> {
    /// The failed attempts, in order.
    pub attempts: Vec<Attempt>,
    /// The error `ask` returned, if that is what stopped it.
    pub ask_error: Option<E>,
}

impl<E> RetryError<E> {
    /// The last extraction error, if any attempt got as far as a reply.
    pub fn last_error(&self) -> Option<&Error> {
        self.attempts.last().map(|a| &a.error)
    }
}

impl<E: fmt::Debug> fmt::Debug for RetryError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RetryError")
            .field("attempts", &self.attempts)
            .field("ask_error", &self.ask_error)
            .finish()
    }
}

impl<E: fmt::Display> fmt::Display for RetryError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.attempts.len();
        match (&self.ask_error, self.attempts.last()) {
            (Some(e), _) => write!(f, "asking the model failed after {n} unusable replies: {e}"),
            (None, Some(last)) => write!(
                f,
                "no usable reply after {n} attempt{}; the last one: {}",
                if n == 1 { "" } else { "s" },
                last.error
            ),
            (None, None) => f.write_str("no attempt was made (max_attempts is 0)"),
        }
    }
}

impl<E: fmt::Debug + fmt::Display + 'static> std::error::Error for RetryError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.ask_error {
            Some(_) => None,
            None => self.attempts.last().map(|a| &a.error as _),
        }
    }
}

/// Re-asking settings for replies read as `T`: attempts, the expected shape shown in
/// feedback, and the extractor.
///
/// `T` is given once: [`Retry::for_type`] names it, [`Retry::new`] infers it from where the
/// result of [`Retry::run`] goes.
///
/// The closure calls the model (no HTTP client or async runtime here; [`Retry::run_async`]
/// for an async one). It gets `None` first, then the feedback on the last failure: written in
/// the model's terms (field paths, allowed values and ranges, never a Rust type name), fitting
/// the failure (a reply without JSON is asked for JSON, one cut off for a complete reply), and
/// showing the expected shape when one is known ([`Retry::expected_format`], or the prompt
/// format with [`Retry::for_type`]). [`RetryError`] holds every attempt's raw text and issues,
/// and the closure's own error when asking failed.
///
/// ```
/// let mut replies = vec!["Sure! The answer is coming.", "{\"answer\": 42}"].into_iter();
/// let mut seen = Vec::new();
/// #[derive(llm_extract::Extract, Debug)]
/// struct Reply { answer: u32 }
/// let reply: Reply = llm_extract::Retry::new(3)
///     .expected_format("{ answer: integer }")
///     .run(|feedback| {
///         seen.push(feedback.map(str::to_string));
///         Ok::<_, std::convert::Infallible>(replies.next().unwrap().to_string())
///     })
///     .unwrap();
/// assert_eq!(reply.answer, 42);
/// let feedback = seen[1].as_deref().unwrap();
/// assert!(feedback.contains("did not contain a JSON value"), "{feedback}");
/// assert!(feedback.contains("{ answer: integer }"), "{feedback}");
/// ```
pub struct Retry<T = serde_json::Value> {
    max_attempts: usize,
    format: Option<String>,
    extractor: Extractor,
    /// What each reply is read as (a function type: `Retry` holds no `T`, so it is `Send`,
    /// `Sync`, `Clone` and `Debug` whatever `T` is).
    target: PhantomData<fn() -> T>,
}

impl<T> Clone for Retry<T> {
    fn clone(&self) -> Self {
        Retry {
            max_attempts: self.max_attempts,
            format: self.format.clone(),
            extractor: self.extractor.clone(),
            target: PhantomData,
        }
    }
}

impl<T> fmt::Debug for Retry<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Retry")
            .field("target", &std::any::type_name::<T>())
            .field("max_attempts", &self.max_attempts)
            .field("format", &self.format)
            .field("extractor", &self.extractor)
            .finish()
    }
}

#[cfg(feature = "schema")]
impl Retry {
    /// Re-asking for `T`, the feedback showing `T`'s shape ([`crate::prompt_format`]); `run`
    /// then returns a `T`, with no annotation.
    ///
    /// ```
    /// #[derive(llm_extract::Extract, Debug)]
    /// struct Triage { urgent: bool }
    /// let triage = llm_extract::Retry::for_type::<Triage>(3)
    ///     .run(|_| Ok::<_, String>("{\"urgent\": true}".to_string()))
    ///     .unwrap();
    /// assert!(triage.urgent);
    /// ```
    pub fn for_type<T: Extract + schemars::JsonSchema>(max_attempts: usize) -> Retry<T> {
        Retry::new(max_attempts).expected_format(crate::schema::prompt_format::<T>())
    }
}

impl<T: Extract> Retry<T> {
    /// At most `max_attempts` calls of the model.
    pub fn new(max_attempts: usize) -> Retry<T> {
        Retry {
            max_attempts,
            format: None,
            extractor: Extractor::new(),
            target: PhantomData,
        }
    }

    /// The expected shape, shown to the model in feedback.
    pub fn expected_format(mut self, format: impl Into<String>) -> Retry<T> {
        self.format = Some(format.into());
        self
    }

    /// Extraction with these settings instead of the defaults.
    pub fn extractor(mut self, extractor: Extractor) -> Retry<T> {
        self.extractor = extractor;
        self
    }

    /// Calls `ask` until a reply holds a `T` or the attempts are spent.
    pub fn run<E>(
        &self,
        mut ask: impl FnMut(Option<&str>) -> Result<String, E>,
    ) -> Result<T, RetryError<E>> {
        let mut attempts: Vec<Attempt> = Vec::new();
        for _ in 0..self.max_attempts {
            let feedback = attempts.last().map(|a| a.feedback.as_str());
            let raw = match ask(feedback) {
                Ok(raw) => raw,
                Err(e) => {
                    return Err(RetryError {
                        attempts,
                        ask_error: Some(e),
                    })
                }
            };
            match self.extractor.from_str::<T>(&raw) {
                Ok(value) => return Ok(value),
                Err(error) => attempts.push(self.attempt(raw, error)),
            }
        }
        Err(RetryError {
            attempts,
            ask_error: None,
        })
    }

    /// [`Retry::run`] with an async `ask`; runs on any executor.
    pub async fn run_async<E, F: Future<Output = Result<String, E>>>(
        &self,
        mut ask: impl FnMut(Option<String>) -> F,
    ) -> Result<T, RetryError<E>> {
        let mut attempts: Vec<Attempt> = Vec::new();
        for _ in 0..self.max_attempts {
            let feedback = attempts.last().map(|a| a.feedback.clone());
            let raw = match ask(feedback).await {
                Ok(raw) => raw,
                Err(e) => {
                    return Err(RetryError {
                        attempts,
                        ask_error: Some(e),
                    })
                }
            };
            match self.extractor.from_str::<T>(&raw) {
                Ok(value) => return Ok(value),
                Err(error) => attempts.push(self.attempt(raw, error)),
            }
        }
        Err(RetryError {
            attempts,
            ask_error: None,
        })
    }

    fn attempt(&self, raw: String, error: Error) -> Attempt {
        let mut feedback = feedback(&error, self.format.as_deref());
        // A reply cut off is read as far as it goes, so its issues are those of a partial
        // value; the model needs to hear first that it stopped too early.
        let cut_off = error.category() != Category::Incomplete
            && self
                .extractor
                .extract::<serde_json::Value>(&raw)
                .is_ok_and(|e| !e.report.complete);
        if cut_off {
            feedback.insert_str(
                0,
                "Your previous reply was cut off before the JSON value ended; reply with the complete value, shorter if needed.\n",
            );
        }
        Attempt {
            raw,
            error,
            feedback,
        }
    }
}

/// Calls `ask` (the model) until its reply holds a `T`, at most `max_attempts` times. `ask`
/// gets `None` first, then feedback on the last failure to send to the model.
///
/// ```
/// #[derive(llm_extract::Extract, Debug)]
/// struct Score { #[extract(min = 1, max = 5)] stars: u8 }
/// let mut replies = vec!["{\"stars\": 9}", "{\"stars\": 4}"].into_iter();
/// let mut feedbacks = Vec::new();
/// let score: Score = llm_extract::retry(3, |feedback| {
///     feedbacks.push(feedback.map(str::to_string));
///     Ok::<_, String>(replies.next().unwrap().to_string())
/// })
/// .unwrap();
/// assert_eq!(score.stars, 4);
/// assert!(feedbacks[1].as_deref().unwrap().contains("$.stars"));
/// ```
pub fn retry<T: Extract, E>(
    max_attempts: usize,
    ask: impl FnMut(Option<&str>) -> Result<String, E>,
) -> Result<T, RetryError<E>> {
    Retry::new(max_attempts).run(ask)
}

/// [`retry`] with an async `ask`: no runtime is needed beyond the caller's own.
pub async fn retry_async<T: Extract, E, F: Future<Output = Result<String, E>>>(
    max_attempts: usize,
    ask: impl FnMut(Option<String>) -> F,
) -> Result<T, RetryError<E>> {
    Retry::new(max_attempts).run_async(ask).await
}

/// The message to send back to the model for `error`: what fits the failure, in its terms,
/// with the expected shape when known.
pub fn feedback(error: &Error, format: Option<&str>) -> String {
    let mut out = String::new();
    let shape = |out: &mut String, lead: &str| {
        if let Some(f) = format {
            out.push_str(lead);
            out.push_str(" this shape:\n");
            out.push_str(f);
            out.push('\n');
        }
    };
    match error.category() {
        Category::NotFound => {
            out.push_str("Your previous reply did not contain a JSON value.\n");
            shape(&mut out, "Reply with only a JSON value of");
            if format.is_none() {
                out.push_str("Reply with only the JSON value.\n");
            }
        }
        Category::Incomplete => {
            out.push_str("Your previous reply was cut off before the JSON value ended.\n");
            out.push_str("Reply again with the complete JSON value; keep it shorter if needed.\n");
            shape(&mut out, "Use");
        }
        Category::Syntax | Category::TooDeep | Category::TooLarge => {
            out.push_str("The JSON in your previous reply could not be read:\n");
            issues(&mut out, error.issues());
            out.push_str("Reply again with only valid JSON.\n");
            shape(&mut out, "Use");
        }
        _ => {
            out.push_str("Your previous reply had these problems:\n");
            issues(&mut out, error.issues());
            shape(&mut out, "Reply again with the corrected JSON value in");
            if format.is_none() {
                out.push_str("Reply again with the corrected JSON value.\n");
            }
        }
    }
    out.truncate(out.trim_end().len());
    out
}

fn issues(out: &mut String, issues: &[Issue]) {
    for issue in issues.iter().take(20) {
        out.push_str("- ");
        if !issue.path.is_root() {
            out.push_str(&issue.path.to_string());
            out.push_str(": ");
        }
        out.push_str(&model_terms(&issue.message));
        match (&issue.expected, &issue.found) {
            (Some(e), Some(f)) => out.push_str(&format!(" (expected {}, got {f})", model_terms(e))),
            (Some(e), None) => out.push_str(&format!(" (expected {})", model_terms(e))),
            (None, Some(f)) => out.push_str(&format!(" (got {f})")),
            (None, None) => {}
        }
        out.push('\n');
    }
    if issues.len() > 20 {
        out.push_str(&format!("- and {} more\n", issues.len() - 20));
    }
}

/// Rewrites what the coerce stage says in Rust's terms into the model's: integer types
/// become ranges, a Rust enum's name goes.
fn model_terms(message: &str) -> String {
    const RANGES: [(&str, &str); 10] = [
        ("u8", "an integer from 0 to 255"),
        ("u16", "an integer from 0 to 65535"),
        ("u32", "an integer from 0 to 4294967295"),
        ("u64", "a non-negative integer"),
        ("usize", "a non-negative integer"),
        ("i8", "an integer from -128 to 127"),
        ("i16", "an integer from -32768 to 32767"),
        ("i32", "an integer from -2147483648 to 2147483647"),
        ("i64", "an integer"),
        ("isize", "an integer"),
    ];
    if let Some((number, ty)) = message.split_once(" is out of range for ") {
        if let Some((_, words)) = RANGES.iter().find(|(t, _)| *t == ty.trim()) {
            return format!("{number} is out of range: expected {words}");
        }
        return format!("{number} is out of range");
    }
    // `unknown variant of `Tool`` names a Rust type; the allowed values follow in `expected`.
    if let Some(at) = message.find("unknown variant of `") {
        let rest = &message[at + "unknown variant of `".len()..];
        let after = rest.find('`').map_or("", |end| &rest[end + 1..]);
        return format!("{}not one of the allowed values{after}", &message[..at]);
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_for_a_range_error_names_the_range_not_the_rust_type() {
        let e: Error = crate::from_str::<u8>("300").unwrap_err();
        let text = feedback(&e, None);
        assert!(!text.contains("u8"), "{text}");
        assert!(text.contains("from 0 to 255"), "{text}");
    }

    #[test]
    fn feedback_for_text_without_json_asks_for_json_not_for_a_correction() {
        let e = crate::repair("I cannot answer that.").unwrap_err();
        let text = feedback(&e, Some("{ answer: string }"));
        assert!(text.contains("did not contain a JSON value"), "{text}");
        assert!(!text.contains("corrected"), "{text}");
        assert!(text.ends_with("{ answer: string }"), "{text}");
    }

    #[test]
    fn feedback_on_a_reply_cut_off_says_so_first() {
        let mut seen = Vec::new();
        let err = Retry::<std::collections::BTreeMap<String, u32>>::new(2)
            .run::<()>(|f| {
                seen.push(f.map(str::to_string));
                // A complete member that does not fit (a cut-off last one would be dropped).
                Ok("{\"a\": \"one\", \"b\": 2, \"c\": \"xy".to_string())
            })
            .unwrap_err();
        assert_eq!(err.attempts.len(), 2);
        let second = seen[1].as_deref().unwrap();
        assert!(
            second.starts_with("Your previous reply was cut off"),
            "{second}"
        );
    }

    /// Runs a future that never waits on anything external to completion (no runtime needed).
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }

    #[test]
    fn retry_async_sends_feedback_then_accepts_a_good_reply() {
        let mut replies = vec!["no idea", "[1, 2]"].into_iter();
        let mut seen = Vec::new();
        let out: Vec<u8> = block_on(retry_async(3, |feedback: Option<String>| {
            seen.push(feedback);
            let reply = replies.next().unwrap_or_default().to_string();
            async move { Ok::<_, ()>(reply) }
        }))
        .unwrap();
        assert_eq!(out, vec![1, 2]);
        assert_eq!(seen[0], None);
        assert!(seen[1]
            .as_deref()
            .unwrap()
            .contains("did not contain a JSON value"));
    }

    #[test]
    fn ask_errors_stop_the_retries_and_are_kept() {
        let mut calls = 0;
        let err = retry::<u32, &str>(5, |_| {
            calls += 1;
            if calls == 1 {
                Ok("no number".to_string())
            } else {
                Err("timeout")
            }
        })
        .unwrap_err();
        assert_eq!(calls, 2);
        assert_eq!(err.ask_error, Some("timeout"));
        assert_eq!(err.attempts.len(), 1);
        assert_eq!(err.attempts[0].raw, "no number");
    }

    #[test]
    fn every_failed_attempt_is_kept_with_its_raw_text() {
        let err = retry::<bool, std::convert::Infallible>(3, |_| Ok("maybe?".into())).unwrap_err();
        assert_eq!(err.attempts.len(), 3);
        assert!(err.attempts.iter().all(|a| a.raw == "maybe?"));
        assert!(err.to_string().contains("3 attempts"), "{err}");
    }
}
