//! Solving slices: one representative slice at a time, its table in memory,
//! its sources read block by block from their files (or renamed from a
//! representative held in memory), the result written atomically.

use std::collections::BTreeMap;
use std::fs::File;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use serde_json::{Value, json};

use super::plan::{self, Plan, Source};
use super::store::{self, Store};
use super::symmetry::Image;
use super::{Answer, Problem};
use crate::family::lines::exhaustive::{self, CrossGroup, SliceKernel};
use crate::mem::{fmt_bytes, zeroed_huge};

/// What solving one slice did.
#[derive(Clone, Debug, Default)]
pub struct SliceStats {
    /// Seconds.
    pub seconds: f64,
    /// Bytes read from slice files.
    pub read: u64,
    /// Bytes written.
    pub written: u64,
    /// Source slices.
    pub sources: usize,
    /// Of which renamed from a representative.
    pub images: usize,
    /// Passes over the table (more than one when the representatives to
    /// rename do not fit in memory together).
    pub passes: usize,
}

/// A slice solve's outcome.
#[derive(Clone, Debug)]
pub enum SliceRun {
    /// Solved now.
    Solved(SliceStats),
    /// Already complete: nothing done.
    Skipped,
}

/// A background write: its thread hands the table back.
type Writer = std::thread::JoinHandle<Result<Vec<u64>>>;

/// Everything needed to solve the slices of one plan.
pub struct Engine<'a> {
    /// The board and rule.
    pub problem: &'a Problem,
    /// The cut.
    pub plan: &'a Plan,
    /// The kernel.
    pub kernel: SliceKernel,
    /// The files.
    pub store: Store,
    /// Renamings by group element (`None` for the identity).
    images: Vec<Option<Image>>,
    /// Representatives held in memory at once for renaming (at least 1).
    pub reps_in_memory: usize,
    /// Drop the slice files from the page cache after use, so that every
    /// read reaches the disk (an honest out-of-core measurement).
    pub drop_cache: bool,
    read: AtomicU64,
    written: AtomicU64,
    /// Block buffers (one per worker at a time).
    pool: Mutex<Vec<Vec<u64>>>,
    /// Slice-sized tables, reused from slice to slice (fresh memory costs
    /// page faults on every touch).
    tables: Mutex<Vec<Vec<u64>>>,
    /// Write tables in the background while the next slice is solved (when
    /// the budget holds one more table).
    pub background_writes: bool,
    /// Stop before a slice whose table would take the slice files on disk
    /// above this many bytes ([`Engine::solve_waves`] then returns `false`).
    pub disk_limit: Option<u64>,
    /// The write in flight: its slice and its thread (which hands the table back).
    pending: Mutex<Option<(u64, Writer)>>,
}

impl<'a> Engine<'a> {
    /// The engine for a plan, its files in `store`, under a memory budget
    /// (checked against the current thread count).
    pub fn new(problem: &'a Problem, plan: &'a Plan, store: Store, memory: u64) -> Result<Self> {
        let kernel = plan.kernel(problem)?;
        Self::with_kernel(problem, plan, kernel, store, memory)
    }

    /// As [`Engine::new`] with a given kernel (tests shrink its sizes).
    pub fn with_kernel(
        problem: &'a Problem,
        plan: &'a Plan,
        kernel: SliceKernel,
        store: Store,
        memory: u64,
    ) -> Result<Self> {
        let lw = (plan.n - 6 - plan.t) as u32;
        let images = (0..plan.group.len())
            .map(|g| (g != 0).then(|| Image::new(&plan.local_inverse(g), lw)))
            .collect();
        let threads = rayon::current_num_threads();
        let need = plan::peak_memory(plan, &kernel, threads, u64::from(plan.group.len() > 1));
        if need > memory {
            bail!(
                "a slice solve of this plan needs about {} on {threads} threads ({} per slice table{}), more than the memory budget {}: use fewer threads, a larger --memory, or plan with this budget (more slice pieces)",
                fmt_bytes(need),
                fmt_bytes(plan.slice_bytes()),
                if plan.group.len() > 1 {
                    ", twice with symmetry"
                } else {
                    ""
                },
                fmt_bytes(memory)
            );
        }
        let free = memory - plan::peak_memory(plan, &kernel, threads, 0);
        let reps_in_memory = (free / plan.slice_bytes()).max(1) as usize;
        Ok(Engine {
            problem,
            plan,
            kernel,
            store,
            images,
            reps_in_memory,
            drop_cache: false,
            read: AtomicU64::new(0),
            written: AtomicU64::new(0),
            pool: Mutex::new(Vec::new()),
            tables: Mutex::new(Vec::new()),
            background_writes: reps_in_memory >= 2
                || plan.group.len() == 1 && free >= plan.slice_bytes(),
            disk_limit: None,
            pending: Mutex::new(None),
        })
    }

    /// The renaming of group element g (`None` for the identity).
    #[cfg(test)]
    pub fn image(&self, g: usize) -> Option<&Image> {
        self.images[g].as_ref()
    }

    /// Bytes read from and written to slice files by this engine so far.
    pub fn io(&self) -> (u64, u64) {
        (
            self.read.load(Ordering::Relaxed),
            self.written.load(Ordering::Relaxed),
        )
    }

    /// Solves representative slice σ unless it is complete. Its sources must
    /// be complete.
    pub fn solve_slice(
        &self,
        s: u64,
        progress: &(dyn Fn(u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<SliceRun> {
        if !self.plan.is_rep(s) {
            bail!(
                "slice {s:x} is not a representative (its orbit's is {:x})",
                self.plan.canon(s).0
            );
        }
        if self.store.is_done(s) {
            return Ok(SliceRun::Skipped);
        }
        let t0 = Instant::now();
        let (r0, w0) = self.io();
        let sources = self.ready_sources(s)?;
        let (words, counts, passes, load_secs) = self.compute(s, &sources, progress, cancel)?;
        let images = sources.iter().filter(|x| x.g != 0).count();
        let record = json!({
            "slice": s,
            "wave": s.count_ones(),
            "counts": counts,
            "xxh3": store::checksum(&words),
            "bytes": self.plan.slice_bytes(),
            "seconds": (t0.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
            "seconds_load": (load_secs * 1000.0).round() / 1000.0,
            "read_bytes": self.io().0 - r0,
            "sources": sources.len(),
            "images": images,
            "passes": passes,
            "threads": rayon::current_num_threads(),
            "host": store::hostname(),
        });
        self.write(s, words, record)?;
        let (r1, w1) = self.io();
        Ok(SliceRun::Solved(SliceStats {
            seconds: t0.elapsed().as_secs_f64(),
            read: r1 - r0,
            written: w1 - w0,
            sources: sources.len(),
            images,
            passes,
        }))
    }

    /// The sources of σ, each checked complete and on disk (a write in
    /// flight of one of them is waited for).
    fn ready_sources(&self, s: u64) -> Result<Vec<Source>> {
        let sources = self.plan.sources(&self.kernel, s);
        if self
            .pending_slice()
            .is_some_and(|p| sources.iter().any(|x| x.rep == p))
        {
            self.flush()?;
        }
        for src in &sources {
            if !self.store.is_done(src.rep) {
                bail!(
                    "slice {s:x} (wave {}) reads slice {:x} (wave {}), which is not complete: solve wave {} first",
                    s.count_ones(),
                    src.rep,
                    src.rep.count_ones(),
                    src.rep.count_ones()
                );
            }
            if !self.store.has_table(src.rep) {
                bail!(
                    "slice {s:x} reads slice {:x}, whose table was deleted (--prune): solve again from wave {}",
                    src.rep,
                    src.rep.count_ones()
                );
            }
        }
        Ok(sources)
    }

    /// Solves σ's table: the renamed sources' representatives are loaded a
    /// batch at a time (as many as the budget holds); every pass but the last
    /// only pulls from them, the last also pulls from the stored sources,
    /// block by block, and runs the kernel. Returns the table, the counts,
    /// the passes and the seconds spent loading.
    fn compute(
        &self,
        s: u64,
        sources: &[Source],
        progress: &(dyn Fn(u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<(Vec<u64>, Vec<u64>, usize, f64)> {
        let direct: Vec<&Source> = sources.iter().filter(|x| x.g == 0).collect();
        let files: Vec<File> = direct
            .iter()
            .map(|x| self.store.open(x.rep))
            .collect::<Result<_>>()?;
        let mut image_reps: Vec<u64> = sources.iter().filter(|x| x.g != 0).map(|x| x.rep).collect();
        image_reps.sort_unstable();
        image_reps.dedup();
        let batches: Vec<&[u64]> = image_reps.chunks(self.reps_in_memory).collect();
        let mut words = self.take_table();
        words.par_chunks_mut(1 << 16).for_each(|c| c.fill(0));
        let passes = batches.len().max(1);
        let mut load_secs = 0.0;
        for pass in 0..passes {
            let tl = Instant::now();
            let loaded = self.load_reps(batches.get(pass).copied().unwrap_or(&[]))?;
            load_secs += tl.elapsed().as_secs_f64();
            let images: Vec<(&Source, &[u64])> = sources
                .iter()
                .filter(|x| x.g != 0)
                .filter_map(|x| {
                    let l = loaded.iter().find(|l| l.0 == x.rep)?;
                    Some((x, l.1.as_slice()))
                })
                .collect();
            let result = if pass + 1 < passes {
                self.pull_images_everywhere(&images, &mut words, cancel)
            } else {
                let before = |b: u64, dst: &mut [u64]| -> Result<()> {
                    for (src, f) in direct.iter().zip(&files) {
                        self.pull_file(src, f, b, dst)?;
                    }
                    for (src, table) in &images {
                        self.pull_image(src, table, b, dst);
                    }
                    Ok(())
                };
                self.kernel.solve(s, &mut words, &before, progress, cancel)
            };
            for (_, t) in loaded {
                self.give_table(t);
            }
            let counts = result?;
            if pass + 1 == passes {
                return Ok((words, counts, passes, load_secs));
            }
        }
        unreachable!("the last pass returns")
    }

    /// Reads whole representatives into pooled tables.
    fn load_reps(&self, reps: &[u64]) -> Result<Vec<(u64, Vec<u64>)>> {
        reps.iter()
            .map(|&r| -> Result<(u64, Vec<u64>)> {
                let mut v = self.take_table();
                self.store.read_slice_into(r, &mut v)?;
                self.read
                    .fetch_add(self.plan.slice_bytes(), Ordering::Relaxed);
                self.forget(r, 0, self.plan.slice_bytes());
                Ok((r, v))
            })
            .collect()
    }

    /// One pass over every block pulling from renamed sources only (all
    /// passes but the last); returns no counts.
    fn pull_images_everywhere(
        &self,
        images: &[(&Source, &[u64])],
        words: &mut [u64],
        cancel: &AtomicBool,
    ) -> Result<Vec<u64>> {
        words
            .par_chunks_mut(self.kernel.block_words())
            .enumerate()
            .try_for_each(|(b, dst)| -> Result<()> {
                if cancel.load(Ordering::Relaxed) {
                    bail!("cancelled");
                }
                for (src, table) in images {
                    self.pull_image(src, table, b as u64, dst);
                }
                Ok(())
            })?;
        Ok(Vec::new())
    }

    /// Writes σ's table and then its record (in the background when
    /// `background_writes`: the previous write is waited for first).
    fn write(&self, s: u64, words: Vec<u64>, mut record: Value) -> Result<()> {
        self.flush()?;
        self.written
            .fetch_add(self.plan.slice_bytes(), Ordering::Relaxed);
        let store = self.store.clone();
        let drop_cache = self.drop_cache;
        let bytes = self.plan.slice_bytes();
        let write = move || -> Result<Vec<u64>> {
            let tw = Instant::now();
            store.write_table(s, &words)?;
            record["seconds_write"] = json!((tw.elapsed().as_secs_f64() * 1000.0).round() / 1000.0);
            store.write_record(s, &record)?;
            if drop_cache {
                forget(&store, s, 0, bytes);
            }
            Ok(words)
        };
        if self.background_writes {
            let h = std::thread::Builder::new()
                .name("slice-writer".into())
                .spawn(write)
                .context("cannot start a writer thread")?;
            *self.pending.lock().expect("pending write") = Some((s, h));
        } else {
            let words = write()?;
            self.give_table(words);
        }
        Ok(())
    }

    /// The cross groups of `src` legal in block b, by source block.
    fn by_source_block<'s>(&'s self, src: &Source, b: u64) -> BTreeMap<u64, Vec<&'s CrossGroup>> {
        let mut out: BTreeMap<u64, Vec<&CrossGroup>> = BTreeMap::new();
        for &i in &src.groups {
            let cg = &self.kernel.cross()[i];
            if b & cg.block_mask == cg.block_mask && b & cg.block_blockers == 0 {
                out.entry(b ^ cg.block_mask).or_default().push(cg);
            }
        }
        out
    }

    /// A slice-sized table (contents unspecified).
    fn take_table(&self) -> Vec<u64> {
        let t = self.tables.lock().expect("table pool").pop();
        t.unwrap_or_else(|| zeroed_huge(self.kernel.slice_words()))
    }

    fn give_table(&self, t: Vec<u64>) {
        self.tables.lock().expect("table pool").push(t);
    }

    fn take_buffer(&self) -> Vec<u64> {
        let b = self.pool.lock().expect("buffer pool").pop();
        b.unwrap_or_else(|| vec![0u64; self.kernel.block_words()])
    }

    fn give_buffer(&self, b: Vec<u64>) {
        self.pool.lock().expect("buffer pool").push(b);
    }

    /// Pulls the moves from a stored source into block b.
    fn pull_file(&self, src: &Source, f: &File, b: u64, dst: &mut [u64]) -> Result<()> {
        let bw = self.kernel.block_words() as u64;
        for (sb, groups) in self.by_source_block(src, b) {
            let mut buf = self.take_buffer();
            let r = Store::read_words(f, sb * bw, &mut buf)
                .with_context(|| format!("slice {:x}, block {sb}", src.rep));
            if r.is_ok() {
                self.read.fetch_add(bw * 8, Ordering::Relaxed);
                self.forget(src.rep, sb * bw * 8, bw * 8);
                self.kernel.pull(dst, &buf, &groups);
            }
            self.give_buffer(buf);
            r?;
        }
        Ok(())
    }

    /// Pulls the moves from a renamed source (its representative's table in
    /// memory) into block b.
    fn pull_image(&self, src: &Source, table: &[u64], b: u64, dst: &mut [u64]) {
        let bw = self.kernel.block_words() as u64;
        let img = self.images[src.g]
            .as_ref()
            .expect("a renaming for g ≠ identity");
        for (sb, groups) in self.by_source_block(src, b) {
            let mut buf = self.take_buffer();
            img.gather(table, sb * bw, &mut buf);
            self.kernel.pull(dst, &buf, &groups);
            self.give_buffer(buf);
        }
    }

    /// Drops a range of a slice file from the page cache (with `drop_cache`).
    fn forget(&self, s: u64, offset: u64, len: u64) {
        if self.drop_cache {
            forget(&self.store, s, offset, len);
        }
    }

    /// The slice whose write is in flight, if any.
    fn pending_slice(&self) -> Option<u64> {
        self.pending
            .lock()
            .expect("pending write")
            .as_ref()
            .map(|p| p.0)
    }

    /// Waits for the write in flight (its table and record are on disk after).
    pub fn flush(&self) -> Result<()> {
        let p = self.pending.lock().expect("pending write").take();
        if let Some((s, h)) = p {
            let words = h
                .join()
                .map_err(|_| anyhow::anyhow!("the writer of slice {s:x} panicked"))??;
            self.give_table(words);
        }
        Ok(())
    }

    /// Solves the representatives of waves `first..=last` in order, each
    /// wave's slices one after the other (each on all threads), skipping
    /// complete ones; `report` hears about every slice. With `prune`, a
    /// table no later slice and no [`Engine::finish`] reads is deleted as soon
    /// as its last reader is done (its record stays). Returns `false` when
    /// it stopped at the disk limit.
    pub fn solve_waves(
        &self,
        first: usize,
        last: usize,
        prune: bool,
        report: &mut dyn FnMut(u64, &SliceRun),
        progress: &(dyn Fn(u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<bool> {
        let last = last.min(self.plan.t);
        let last_reader = if prune {
            self.last_readers()
        } else {
            BTreeMap::new()
        };
        for k in first..=last {
            for s in self.plan.wave(k) {
                if cancel.load(Ordering::Relaxed) {
                    bail!(crate::family::Interrupted);
                }
                if let Some(limit) = self.disk_limit
                    && !self.store.is_done(s)
                    && self.store.disk_bytes() + 2 * self.plan.slice_bytes() > limit
                {
                    self.flush()?;
                    return Ok(false);
                }
                let r = self.solve_slice(s, progress, cancel)?;
                report(s, &r);
            }
            self.flush()?;
            if prune {
                for (&rep, &w) in &last_reader {
                    if w <= k {
                        self.store.remove_table(rep)?;
                    }
                }
            }
        }
        Ok(true)
    }

    /// For every representative that may be deleted after use: the last
    /// wave that reads it (representatives [`Engine::finish`] reads are kept).
    fn last_readers(&self) -> BTreeMap<u64, usize> {
        let mut last: BTreeMap<u64, usize> = BTreeMap::new();
        for k in 0..=self.plan.t {
            for s in self.plan.wave(k) {
                last.entry(s).or_insert(k);
                for src in self.plan.sources(&self.kernel, s) {
                    let e = last.entry(src.rep).or_insert(k);
                    *e = (*e).max(k);
                }
            }
        }
        for x in self.finish_positions() {
            let y = exhaustive::to_solver(x, &self.plan.order);
            last.remove(&self.plan.canon(y >> (self.plan.n - self.plan.t)).0);
        }
        last
    }

    /// The positions [`Engine::finish`] looks up: the full board and its children.
    fn finish_positions(&self) -> Vec<u64> {
        let full = self.problem.board.full();
        let mut v = vec![full];
        v.extend(
            self.problem
                .moves
                .iter()
                .filter(|m| m.legal(full))
                .map(|m| full & !m.mask),
        );
        v
    }

    /// Is position `x` (the caller's numbering) a P-position? Reads one word
    /// of its slice's representative.
    pub fn is_p(&self, x: u64) -> Result<bool> {
        let n = self.plan.n;
        let t = self.plan.t;
        let y = exhaustive::to_solver(x, &self.plan.order);
        let s = y >> (n - t);
        let local = y & ((1u64 << (n - t)) - 1);
        let (rep, g) = self.plan.canon(s);
        let z = match &self.images[g] {
            None => local,
            Some(img) => img.source_position(local),
        };
        let f = self.store.open(rep)?;
        let mut w = [0u64];
        Store::read_words(&f, z >> 6, &mut w)?;
        Ok(w[0] >> (z & 63) & 1 == 1)
    }

    /// The answer from the completed slices: counts summed over the
    /// representatives times their orbit sizes, the full board's outcome and
    /// winning first moves read from the slice files.
    pub fn finish(&self) -> Result<Answer> {
        let n = self.plan.n;
        let mut total = vec![0u64; n + 1];
        let mut missing = Vec::new();
        for k in 0..=self.plan.t {
            for s in self.plan.wave(k) {
                if !self.store.record_path(s).is_file() {
                    missing.push(s);
                    continue;
                }
                let c = self.store.counts(s, n)?;
                let m = self.plan.orbit_size(s);
                for (x, y) in total.iter_mut().zip(c) {
                    *x += m * y;
                }
            }
        }
        if let Some(&s) = missing.first() {
            bail!(
                "{} slices are not complete, the first: {s:x} of wave {}; solve them first",
                missing.len(),
                s.count_ones()
            );
        }
        let binom = exhaustive::binomials(n);
        let counts = (0..=n).map(|k| (binom[k], total[k])).collect();
        Answer::new(self.problem, counts, &|x| self.is_p(x))
    }
}

/// Drops a range of a slice file from the page cache.
fn forget(store: &Store, s: u64, offset: u64, len: u64) {
    if let Ok(f) = File::open(store.data_path(s)) {
        use std::os::fd::AsRawFd as _;
        // SAFETY: a valid open descriptor; the call only advises the kernel
        // about cached pages and never changes the file.
        unsafe {
            libc::posix_fadvise(
                f.as_raw_fd(),
                offset as libc::off_t,
                len as libc::off_t,
                libc::POSIX_FADV_DONTNEED,
            );
        }
    }
}

impl Drop for Engine<'_> {
    fn drop(&mut self) {
        // A write in flight finishes before the engine goes (errors were
        // reported by `flush` where it mattered).
        let _ = self.flush();
    }
}
