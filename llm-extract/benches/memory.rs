//! Peak heap allocation while reading one 10 MB order document, by a counting global
//! allocator: `llm_extract::from_str::<Order>` against `serde_json::from_str::<Order>`, and
//! the schema-less readers, on the valid document and on the messy one.
//!
//! Run: `cargo bench -p llm-extract --bench memory` (prints a table; no criterion).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

mod orders;
use orders::Order;

/// The system allocator, counting the bytes live now and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; only counters are updated around it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most bytes allocated at once while `read` ran (and its result lived), beyond what was
/// live before: the input itself is not counted.
fn peak<R>(read: impl FnOnce() -> R) -> usize {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = read();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    drop(out);
    peak
}

fn mb(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn main() {
    let valid = orders::valid(10_000_000);
    let messy = orders::messy(&valid);
    // Warm the shared default `Extractor` so its settings are not counted.
    let _ = llm_extract::repair("{}");

    let serde_typed = peak(|| serde_json::from_str::<Order>(&valid).unwrap());
    let ours_typed = peak(|| llm_extract::from_str::<Order>(&valid).unwrap());
    let serde_value = peak(|| serde_json::from_str::<serde_json::Value>(&valid).unwrap());
    let ours_value = peak(|| llm_extract::repair(&valid).unwrap());
    let messy_repair = peak(|| llm_extract::repair(&messy).unwrap());
    let messy_typed = peak(|| llm_extract::from_str::<Order>(&messy).unwrap());
    let messy_value =
        peak(|| serde_json::from_value::<Order>(llm_extract::repair(&messy).unwrap()).unwrap());

    println!(
        "Peak heap while reading a {} order document",
        mb(valid.len())
    );
    println!("| Reader | Peak | vs serde_json |");
    println!("|---|---|---|");
    let row = |name: &str, bytes: usize, base: usize| {
        println!(
            "| {name} | {} | {:.1}x |",
            mb(bytes),
            bytes as f64 / base as f64
        );
    };
    row("`serde_json::from_str::<Order>`", serde_typed, serde_typed);
    row("`llm_extract::from_str::<Order>`", ours_typed, serde_typed);
    row("`serde_json::from_str::<Value>`", serde_value, serde_value);
    row("`llm_extract::repair`", ours_value, serde_value);
    row("messy: `llm_extract::repair`", messy_repair, serde_value);
    row(
        "messy: `llm_extract::from_str::<Order>`",
        messy_typed,
        serde_typed,
    );
    row(
        "messy: `repair` + `from_value::<Order>`",
        messy_value,
        serde_typed,
    );
}
