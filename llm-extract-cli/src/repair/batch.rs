//! `repair --jsonl`: one reply per input line, repaired on a pool of threads, written in input
//! order as it goes.
//!
//! The input is streamed, never read whole: a reader thread cuts it into chunks of lines
//! (at most [`CHUNK_LINES`] lines or [`CHUNK_BYTES`] bytes, or a single longer line; or what
//! has arrived so far, when the input is a pipe that has nothing more yet), the pool repairs
//! a chunk's lines in parallel, and their output lines are written in order before the next
//! chunk is taken. At most two chunks wait while one is repaired, so memory stays bounded
//! however long the input is.

use super::output::{dispose, render};
use super::{io_reason, one_line, output_failed, raw_text, Args};
use llm_extract::Extractor;
use rayon::prelude::*;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc;

/// Lines per chunk: enough that handing a chunk to the pool costs nothing next to repairing
/// it, few enough that a chunk of typical replies is a few megabytes.
const CHUNK_LINES: usize = 4096;

/// Bytes per chunk, so a chunk of long replies stays bounded too.
const CHUNK_BYTES: usize = 16 << 20;

/// A run of input lines, as text (each sequence of bytes that is not UTF-8 became U+FFFD).
struct Chunk {
    /// The 0-based number of the first line in the whole input.
    first_line: usize,
    lines: Vec<String>,
}

/// Where the input was not UTF-8: the first such byte offset, and how many places.
#[derive(Default)]
struct Invalid {
    first: Option<usize>,
    count: usize,
}

/// What the reader thread sends: a chunk, or the error that stopped reading.
type Message = Result<Chunk, io::Error>;

/// Runs `repair --jsonl` over `input` (already opened), writing to standard output.
pub fn run(
    extractor: &Extractor,
    input: Box<dyn Read + Send>,
    source: &str,
    args: &Args,
) -> ExitCode {
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // One job runs on this thread; more on a pool of their own.
    let pool = match jobs {
        1 => None,
        _ => match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
            Ok(pool) => Some(pool),
            Err(e) => {
                eprintln!("llm-extract: cannot start {jobs} threads: {e}");
                return ExitCode::from(2);
            }
        },
    };
    // Two chunks may wait while one is repaired: reading overlaps repairing, memory is bounded.
    let (send, receive) = mpsc::sync_channel::<Message>(2);
    // Not a scoped thread: when writing fails (a closed pipe) the run ends at once, even if
    // the reader is still blocked on its input.
    let reader = std::thread::spawn(move || read_chunks(input, &send));
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let deep = args.max_depth > 128;
    for message in receive {
        let chunk = match message {
            Ok(chunk) => chunk,
            Err(e) => {
                let _ = out.flush();
                eprintln!("llm-extract: cannot read {source}: {}", io_reason(&e));
                return ExitCode::from(2);
            }
        };
        let repair = |line: &String| repair_line(extractor, line, deep, args);
        let rendered: Vec<Result<String, String>> = match &pool {
            None => chunk.lines.iter().map(repair).collect(),
            Some(pool) => pool.install(|| chunk.lines.par_iter().map(repair).collect()),
        };
        for (i, line) in rendered.into_iter().enumerate() {
            let written = match line {
                Ok(value) => writeln!(out, "{value}"),
                Err(reason) => {
                    // Not being able to report a reason must not stop the batch either.
                    let n = chunk.first_line + i + 1;
                    let _ = writeln!(io::stderr(), "llm-extract: input line {n}: {reason}");
                    writeln!(out)
                }
            };
            if let Err(e) = written {
                return output_failed(&e);
            }
        }
        // Each chunk's lines go out when they are ready (a reader may be waiting on them).
        if let Err(e) = out.flush() {
            return output_failed(&e);
        }
    }
    if let Err(e) = out.flush() {
        return output_failed(&e);
    }
    // The channel closed: the reader has finished, so joining does not wait.
    if let Ok(invalid) = reader.join() {
        if let Some(first) = invalid.first {
            super::warn_invalid_utf8(first, invalid.count);
        }
    }
    ExitCode::SUCCESS
}

/// The output line for one input line: the repaired value (with `--all`, the array of every
/// value), or why there is none. Output line N answers input line N: a failure is written as
/// an empty line, which is never a JSON value, so it cannot be mistaken for a reply of any
/// shape (a reply can be `{"error": ".."}` or `null`), its reason going to stderr.
fn repair_line(
    extractor: &Extractor,
    line: &str,
    deep: bool,
    args: &Args,
) -> Result<String, String> {
    if line.trim().is_empty() {
        return Err("empty (expected a JSON string)".to_string());
    }
    let raw = raw_text(line).map_err(|why| format!("not a JSON string: {why}"))?;
    let value = if args.all {
        extractor.repair_all(&raw).map(serde_json::Value::Array)
    } else {
        extractor.repair(&raw)
    }
    .map_err(|e| one_line(&e, &raw, args))?;
    let text = render(&value, false);
    if deep {
        dispose(value);
    }
    Ok(text)
}

/// Reads `input` line by line into chunks and sends them in order; returns where the input
/// was not UTF-8. Stops early when the receiver is gone.
fn read_chunks(input: Box<dyn Read + Send>, send: &mpsc::SyncSender<Message>) -> Invalid {
    // A large buffer: from a file, each chunk is then full (`CHUNK_LINES`) before the buffer
    // runs dry; from a pipe, a read returns what the producer has written so far.
    let mut input = BufReader::with_capacity(1 << 20, input);
    let mut invalid = Invalid::default();
    let mut offset = 0usize;
    let mut line_number = 0usize;
    let mut chunk = Chunk {
        first_line: 0,
        lines: Vec::new(),
    };
    let mut chunk_bytes = 0usize;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = match input.read_until(b'\n', &mut bytes) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = send.send(Err(e));
                return invalid;
            }
        };
        if read == 0 {
            break;
        }
        // Lines as `str::lines` cuts them: without `\n` and a `\r` before it.
        let mut line = &bytes[..];
        if let Some(rest) = line.strip_suffix(b"\n") {
            line = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        chunk.lines.push(text_of(line, offset, &mut invalid));
        offset += read;
        line_number += 1;
        chunk_bytes += read;
        // A chunk goes as soon as it is full, or when everything read so far is used up: the
        // next read may wait for a producer that writes a line at a time, whose output must
        // not wait for lines that have not been written yet.
        let drained = input.buffer().is_empty();
        if chunk.lines.len() >= CHUNK_LINES || chunk_bytes >= CHUNK_BYTES || drained {
            let full = std::mem::replace(
                &mut chunk,
                Chunk {
                    first_line: line_number,
                    lines: Vec::new(),
                },
            );
            chunk_bytes = 0;
            if send.send(Ok(full)).is_err() {
                return invalid;
            }
        }
    }
    if !chunk.lines.is_empty() {
        let _ = send.send(Ok(chunk));
    }
    invalid
}

/// The line as text; each sequence of bytes that is not UTF-8 becomes one U+FFFD (as
/// `String::from_utf8_lossy` does) and is counted, `offset` being the line's first byte.
fn text_of(line: &[u8], offset: usize, invalid: &mut Invalid) -> String {
    match std::str::from_utf8(line) {
        Ok(text) => text.to_string(),
        Err(_) => {
            let mut at = offset;
            for chunk in line.utf8_chunks() {
                at += chunk.valid().len();
                if !chunk.invalid().is_empty() {
                    invalid.first.get_or_insert(at);
                    invalid.count += 1;
                    at += chunk.invalid().len();
                }
            }
            String::from_utf8_lossy(line).into_owned()
        }
    }
}
