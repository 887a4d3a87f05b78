//! Chunks: runs of consecutive cases, of roughly equal estimated cost, with
//! ids that depend only on the plan (never on the machine), so a rerun finds
//! the finished ones; and their deterministic assignment to shards.

use crate::family::Case;
use crate::store::ChunkId;

/// A chunk: consecutive cases `start..end` of a plan.
#[derive(Clone, Debug)]
pub struct Chunk {
    /// Stable id.
    pub id: ChunkId,
    /// First case.
    pub start: usize,
    /// One past the last case.
    pub end: usize,
    /// Estimated cost.
    pub cost: u64,
}

/// Splits a plan's cases into chunks of roughly equal cost. Depends only on the
/// cases (their keys and sizes, [`crate::family::Cost::weight`]), never on the
/// machine.
pub fn chunks(cases: &[Box<dyn Case>]) -> Vec<Chunk> {
    // Saturating: an estimate never wraps (same chunks as a plain sum otherwise).
    let weights: Vec<u64> = cases.iter().map(|c| c.cost(None).weight()).collect();
    let total = weights.iter().fold(0u64, |a, &w| a.saturating_add(w));
    let target = (total / 64).max(1 << 20);
    let mut out = Vec::new();
    let mut start = 0;
    let mut acc = 0u64;
    let mut keys = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        acc = acc.saturating_add(weights[i]);
        keys.push(c.key());
        if acc >= target || keys.len() >= 4096 || i + 1 == cases.len() {
            out.push(Chunk {
                id: ChunkId::new(out.len(), &keys),
                start,
                end: i + 1,
                cost: acc,
            });
            start = i + 1;
            acc = 0;
            keys.clear();
        }
    }
    out
}

/// Assigns chunks to `n` shards: largest estimated cost first, each to the
/// least-loaded shard (ties to the lower shard). Depends only on the plan.
pub fn assign_shards(chunks: &[Chunk], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    order.sort_by(|&a, &b| chunks[b].cost.cmp(&chunks[a].cost).then(a.cmp(&b)));
    let mut load = vec![0u64; n.max(1)];
    let mut out = vec![0usize; chunks.len()];
    for i in order {
        let s = (0..load.len()).min_by_key(|&s| (load[s], s)).unwrap();
        load[s] = load[s].saturating_add(chunks[i].cost.max(1));
        out[i] = s;
    }
    out
}
