//! `repair` on the corpus of realistic damaged replies, in a binary of its own: what
//! `scripts/bench-against` runs for this checkout and, copied in, for the older commit, so the
//! two builds are measured in binaries of the same shape. (`cargo bench --bench repair` runs the
//! same group among the others.)

mod corpus;

criterion::criterion_group!(benches, corpus::bench_repair);
criterion::criterion_main!(benches);
