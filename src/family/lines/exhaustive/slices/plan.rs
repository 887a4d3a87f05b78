//! The slicing plan: which t pieces cut the table, the symmetry group used,
//! the solver's numbering, the waves of representative slices, and what a
//! solve costs in memory, disk and I/O.

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::Problem;
use super::symmetry::{self, Perm};
use crate::family::lines::exhaustive::{self, SliceKernel};
use crate::mem::fmt_bytes;

/// Bytes a slice solve needs besides its tables (binary, kernel tables,
/// thread stacks, allocator slack).
pub const OVERHEAD: u64 = 64 << 20;
/// Largest t: 2^20 slices.
pub const MAX_SLICE_PIECES: usize = 20;
/// How far above the smallest feasible t the planner looks for a symmetric cut.
const EXTRA_T: usize = 6;
/// Planning rates: ns per position solved (one thread), ns per word of an
/// image gathered, ns per byte read or written.
const NS_PER_POSITION: f64 = 0.5;
const NS_PER_IMAGE_WORD: f64 = 4.0;
const NS_PER_IO_BYTE: f64 = 1.0;

/// How a board's table is cut.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Pieces.
    pub n: usize,
    /// Slice pieces t: 2^t slices of 2^(n − t) positions.
    pub t: usize,
    /// The slice pieces (caller's numbering); `pieces[j]` is slice bit j.
    pub pieces: Vec<usize>,
    /// Pieces forced into the solver's lowest positions (with symmetry:
    /// a union of orbits for the six in-word positions, then another for
    /// the lowest word bits where one exists); empty otherwise.
    pub bottom: Vec<usize>,
    /// The solver's numbering (`order[i]` for the caller's piece i).
    pub order: Vec<u8>,
    /// The symmetries used (caller's numbering), identity first; they map
    /// the slice pieces and the bottom pieces onto themselves.
    pub group: Vec<Perm>,
    /// No move removes two slice pieces (so a slice reads only slices with
    /// one piece fewer).
    pub independent: bool,
    /// Block bits of a slice's table (the kernel's).
    pub block_bits: u32,
    /// `slice_perm[g]`: group element g acting on slice bits.
    slice_perm: Vec<Perm>,
    /// `inverse[g]`: the index of g⁻¹.
    inverse: Vec<usize>,
}

/// A source slice of a slice solve: slice `slice` (stored as `rep`, renamed
/// by group element `g` unless `g == 0`), and the cross groups that read it.
#[derive(Clone, Debug)]
pub struct Source {
    /// The slice read.
    pub slice: u64,
    /// Its representative (stored).
    pub rep: u64,
    /// `slice = g(rep)`.
    pub g: usize,
    /// Indices into [`SliceKernel::cross`].
    pub groups: Vec<usize>,
}

impl Plan {
    /// Builds a plan with the given cut (checked), deriving the numbering.
    pub fn with_cut(
        p: &Problem,
        pieces: Vec<usize>,
        bottom: Vec<usize>,
        group: Vec<Perm>,
    ) -> Result<Plan> {
        let n = p.n();
        let t = pieces.len();
        if n < t + 6 {
            bail!(
                "{} pieces cannot be cut by {t} slice pieces: at least 6 must stay inside a slice",
                n
            );
        }
        let lb = exhaustive::slice_block_bits(n, t);
        let local_top = (n - 6 - t) as u32 - lb;
        let order = exhaustive::slice_order(n, &p.kmoves, &pieces, &bottom, local_top as usize);
        Plan::from_parts(p, pieces, bottom, order, group)
    }

    fn from_parts(
        p: &Problem,
        pieces: Vec<usize>,
        bottom: Vec<usize>,
        order: Vec<u8>,
        group: Vec<Perm>,
    ) -> Result<Plan> {
        let n = p.n();
        let t = pieces.len();
        let full_group = symmetry::automorphisms(&p.board, &p.kmoves);
        let kslice = |i: usize| order[i] as usize >= n - t;
        let kbottom = |i: usize| (order[i] as usize) < 6;
        for g in &group {
            if !full_group.contains(g) {
                bail!("a listed symmetry is not a symmetry of the board and its moves");
            }
            for (i, &gi) in g.iter().enumerate() {
                if kslice(i) != kslice(gi as usize) {
                    bail!("a symmetry does not map the slice pieces onto themselves");
                }
                if group.len() > 1 && kbottom(i) != kbottom(gi as usize) {
                    bail!("a symmetry does not map the in-word pieces onto themselves");
                }
            }
        }
        if group.is_empty() || group[0].iter().enumerate().any(|(i, &j)| i != j as usize) {
            bail!("the symmetry list must start with the identity");
        }
        for (j, &i) in pieces.iter().enumerate() {
            if order[i] as usize != n - t + j {
                bail!(
                    "slice piece {i} is not numbered {} by the solver",
                    n - t + j
                );
            }
        }
        let slice_bit = |i: usize| order[i] as usize - (n - t);
        let slice_perm: Vec<Perm> = group
            .iter()
            .map(|g| {
                let mut sp = vec![0u8; t];
                for &i in &pieces {
                    sp[slice_bit(i)] = slice_bit(g[i] as usize) as u8;
                }
                sp
            })
            .collect();
        let inverse = group
            .iter()
            .map(|g| {
                let inv = symmetry::inverse(g);
                group.iter().position(|h| *h == inv).unwrap_or(0)
            })
            .collect::<Vec<_>>();
        if group
            .iter()
            .zip(&inverse)
            .any(|(g, &i)| symmetry::inverse(g) != group[i])
        {
            bail!("the symmetries do not form a group");
        }
        let adj = adjacency_mask(n, &p.kmoves);
        let independent = pieces
            .iter()
            .all(|&i| pieces.iter().all(|&j| i == j || adj[i] >> j & 1 == 0));
        Ok(Plan {
            n,
            t,
            pieces,
            bottom,
            order,
            group,
            independent,
            block_bits: exhaustive::slice_block_bits(n, t),
            slice_perm,
            inverse,
        })
    }

    /// The kernel for this cut.
    pub fn kernel(&self, p: &Problem) -> Result<SliceKernel> {
        SliceKernel::new(self.n, &p.kmoves, p.play, &self.order, self.t)
    }

    /// Number of slices, 2^t.
    pub fn slices(&self) -> u64 {
        1 << self.t
    }

    /// Bytes of one slice's table.
    pub fn slice_bytes(&self) -> u64 {
        1u64 << (self.n - self.t - 3)
    }

    /// Bytes of one block of a slice.
    pub fn block_bytes(&self) -> u64 {
        8u64 << self.block_bits
    }

    /// `g(σ)` for group element g.
    pub fn map_slice(&self, g: usize, s: u64) -> u64 {
        symmetry::apply(&self.slice_perm[g], s)
    }

    /// The representative of slice σ and the element g with `σ = g(rep)`.
    pub fn canon(&self, s: u64) -> (u64, usize) {
        let (mut best, mut bg) = (s, 0);
        for g in 1..self.group.len() {
            let v = self.map_slice(g, s);
            if v < best {
                best = v;
                bg = g;
            }
        }
        // best = bg(σ), so σ = bg⁻¹(best).
        (best, self.inverse[bg])
    }

    /// Is σ stored (its own representative)?
    pub fn is_rep(&self, s: u64) -> bool {
        self.canon(s).0 == s
    }

    /// How many slices are images of representative ρ (its orbit).
    pub fn orbit_size(&self, rep: u64) -> u64 {
        let mut seen: Vec<u64> = (0..self.group.len())
            .map(|g| self.map_slice(g, rep))
            .collect();
        seen.sort_unstable();
        seen.dedup();
        seen.len() as u64
    }

    /// The representatives of wave k (slices with k slice pieces), ascending.
    pub fn wave(&self, k: usize) -> Vec<u64> {
        slices_with_popcount(self.t, k)
            .into_iter()
            .filter(|&s| self.is_rep(s))
            .collect()
    }

    /// The slices a solve of σ reads, with the cross groups reading each.
    pub fn sources(&self, kernel: &SliceKernel, s: u64) -> Vec<Source> {
        let mut out: Vec<Source> = Vec::new();
        for (i, cg) in kernel.cross().iter().enumerate() {
            if s & cg.slice_mask != cg.slice_mask || s & cg.slice_blockers != 0 {
                continue;
            }
            let src = s ^ cg.slice_mask;
            match out.iter_mut().find(|o| o.slice == src) {
                Some(o) => o.groups.push(i),
                None => {
                    let (rep, g) = self.canon(src);
                    out.push(Source {
                        slice: src,
                        rep,
                        g,
                        groups: vec![i],
                    });
                }
            }
        }
        out.sort_by_key(|o| o.slice);
        out
    }

    /// The solver's numbering of a group element, restricted to a slice's
    /// local pieces `0..n − t`, inverted: `ginv[y-piece] = table piece`.
    pub fn local_inverse(&self, g: usize) -> Perm {
        let n = self.n;
        let gk = self.kernel_perm(g);
        let inv = symmetry::inverse(&gk);
        inv[..n - self.t].to_vec()
    }

    /// Group element g in the solver's numbering.
    fn kernel_perm(&self, g: usize) -> Perm {
        let mut gk = vec![0u8; self.n];
        for i in 0..self.n {
            gk[self.order[i] as usize] = self.order[self.group[g][i] as usize];
        }
        gk
    }

    /// The plan as JSON (with the board and rule of `p`).
    pub fn to_json(&self, p: &Problem) -> Value {
        json!({
            "format": FORMAT,
            "board": p.board_json(),
            "shape": p.shape.text(),
            "name": p.shape.name(),
            "take": p.take.text(),
            "play": p.play.as_str(),
            "pieces": self.n,
            "moves": p.moves.len(),
            "fingerprint": format!("{:016x}", p.fingerprint()),
            "slice_pieces": self.pieces,
            "slice_points": self.pieces.iter().map(|&i| [p.board.points[i].0, p.board.points[i].1]).collect::<Vec<_>>(),
            "bottom": self.bottom,
            "order": self.order,
            "symmetry": self.group,
            "block_bits": self.block_bits,
        })
    }

    /// Reads a plan back (`p`: the problem its board and rule describe).
    pub fn from_json(p: &Problem, v: &Value) -> Result<Plan> {
        let want = format!("{:016x}", p.fingerprint());
        if v["fingerprint"].as_str() != Some(want.as_str()) {
            bail!(
                "the plan's fingerprint does not match its board and rule (written by another nimlab version?)"
            );
        }
        let list = |key: &str| -> Result<Vec<u64>> {
            v[key]
                .as_array()
                .with_context(|| format!("plan field `{key}` is not a list"))?
                .iter()
                .map(|x| {
                    x.as_u64()
                        .with_context(|| format!("plan field `{key}`: not a number"))
                })
                .collect()
        };
        let pieces: Vec<usize> = list("slice_pieces")?
            .into_iter()
            .map(|x| x as usize)
            .collect();
        let bottom: Vec<usize> = list("bottom")?.into_iter().map(|x| x as usize).collect();
        let order: Vec<u8> = list("order")?.into_iter().map(|x| x as u8).collect();
        let group: Vec<Perm> = v["symmetry"]
            .as_array()
            .context("plan field `symmetry` is not a list")?
            .iter()
            .map(|g| {
                g.as_array()
                    .context("plan field `symmetry`: not a list of lists")?
                    .iter()
                    .map(|x| {
                        x.as_u64()
                            .map(|x| x as u8)
                            .context("plan field `symmetry`: not a number")
                    })
                    .collect::<Result<Perm>>()
            })
            .collect::<Result<_>>()?;
        if order.len() != p.n() || pieces.iter().chain(&bottom).any(|&i| i >= p.n()) {
            bail!(
                "plan fields `order`, `slice_pieces`, `bottom` do not fit a board of {} pieces",
                p.n()
            );
        }
        if group.iter().any(|g| g.len() != p.n()) {
            bail!("plan field `symmetry`: a permutation of the wrong length");
        }
        let plan = Plan::from_parts(p, pieces, bottom, order, group)?;
        if v["block_bits"].as_u64() != Some(plan.block_bits as u64) {
            bail!("the plan's block size differs from this nimlab's (written by another version?)");
        }
        Ok(plan)
    }
}

/// The plan file's format tag.
pub const FORMAT: &str = "nimlab-board-slices/1";

/// Pieces sharing a move's mask (bit masks).
fn adjacency_mask(n: usize, moves: &[exhaustive::Move]) -> Vec<u64> {
    let mut adj = vec![0u64; n];
    for m in moves {
        let mut rest = m.mask;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            adj[i] |= m.mask & !(1 << i);
            rest &= rest - 1;
        }
    }
    adj
}

/// Every t-bit number with k bits set, ascending.
pub fn slices_with_popcount(t: usize, k: usize) -> Vec<u64> {
    (0..1u64 << t)
        .filter(|s| s.count_ones() as usize == k)
        .collect()
}

/// What the planner may choose from.
#[derive(Clone, Debug)]
pub struct Request {
    /// Memory budget of one slice solve, bytes.
    pub memory: u64,
    /// Threads of one slice solve.
    pub threads: usize,
    /// Forced t.
    pub slice_pieces: Option<usize>,
    /// Use the board's symmetries.
    pub symmetry: bool,
}

/// A plan with its estimates.
#[derive(Clone, Debug)]
pub struct Choice {
    /// The plan.
    pub plan: Plan,
    /// Estimates.
    pub est: Estimate,
}

/// What a plan costs.
#[derive(Clone, Debug, Default)]
pub struct Estimate {
    /// Representative slices per wave.
    pub reps: Vec<u64>,
    /// Slices per wave.
    pub slices: Vec<u64>,
    /// Distinct source slices per slice: largest, mean (over representatives).
    pub sources_max: usize,
    /// Mean number of sources.
    pub sources_mean: f64,
    /// Peak memory of a slice solve, bytes.
    pub memory: u64,
    /// Representatives held in memory at once for images.
    pub reps_in_memory: u64,
    /// Bytes written (all representatives).
    pub written: u64,
    /// Bytes read (sources of every representative).
    pub read: u64,
    /// Images gathered (words).
    pub image_words: u64,
    /// Positions solved.
    pub positions: u64,
    /// Estimated seconds on `threads` threads.
    pub seconds: f64,
}

impl Estimate {
    /// As JSON.
    pub fn to_json(&self) -> Value {
        json!({
            "reps_per_wave": self.reps,
            "slices_per_wave": self.slices,
            "sources_max": self.sources_max,
            "sources_mean": self.sources_mean,
            "memory_bytes": self.memory,
            "reps_in_memory": self.reps_in_memory,
            "disk_bytes": self.written,
            "read_bytes": self.read,
            "write_bytes": self.written,
            "image_words": self.image_words,
            "positions": self.positions,
            "seconds": self.seconds,
        })
    }
}

/// Peak memory of a slice solve holding `reps` representatives for images.
pub fn peak_memory(plan: &Plan, kernel: &SliceKernel, threads: usize, reps: u64) -> u64 {
    // Each worker holds one source block at a time.
    let _ = kernel;
    OVERHEAD + plan.slice_bytes() * (1 + reps) + threads as u64 * plan.block_bytes()
}

/// Estimates a plan: per representative, its sources (read whole), the
/// images it gathers, its table (written once).
pub fn estimate(plan: &Plan, kernel: &SliceKernel, req: &Request) -> Estimate {
    let t = plan.t;
    let mut e = Estimate::default();
    let mut sources_total = 0usize;
    let mut reps_total = 0u64;
    let mut needs_images = false;
    for k in 0..=t {
        let all = slices_with_popcount(t, k);
        let reps: Vec<u64> = all.iter().copied().filter(|&s| plan.is_rep(s)).collect();
        e.slices.push(all.len() as u64);
        e.reps.push(reps.len() as u64);
        for &s in &reps {
            let src = plan.sources(kernel, s);
            sources_total += src.len();
            e.sources_max = e.sources_max.max(src.len());
            let mut reps_read: Vec<u64> = src.iter().map(|x| x.rep).collect();
            reps_read.sort_unstable();
            reps_read.dedup();
            e.read += reps_read.len() as u64 * plan.slice_bytes();
            let images = src.iter().filter(|x| x.g != 0).count() as u64;
            needs_images |= images > 0;
            e.image_words += images * (plan.slice_bytes() / 8);
        }
        reps_total += reps.len() as u64;
    }
    e.sources_mean = sources_total as f64 / reps_total.max(1) as f64;
    e.written = reps_total * plan.slice_bytes();
    e.positions = reps_total << (plan.n - t);
    e.reps_in_memory = if needs_images {
        let free = req
            .memory
            .saturating_sub(peak_memory(plan, kernel, req.threads, 0));
        (free / plan.slice_bytes()).clamp(1, e.sources_max as u64)
    } else {
        0
    };
    e.memory = peak_memory(plan, kernel, req.threads, e.reps_in_memory);
    let threads = req.threads.max(1) as f64;
    e.seconds = (e.positions as f64 * NS_PER_POSITION + e.image_words as f64 * NS_PER_IMAGE_WORD)
        / threads
        * 1e-9
        + (e.read + e.written) as f64 * NS_PER_IO_BYTE * 1e-9;
    e
}

/// Chooses the cut: the smallest t whose slice solve fits the memory budget,
/// and, with symmetry, the largest group of the board's symmetries that
/// maps some pairwise independent set of t' ≥ t pieces (and six in-word
/// pieces) onto itself, where that lowers the estimated time.
pub fn choose(p: &Problem, req: &Request) -> Result<Choice> {
    let n = p.n();
    if n < 6 {
        bail!("a board of {n} pieces is too small to cut into slices (at least 6 pieces)");
    }
    let t_hi = (n - 6).min(MAX_SLICE_PIECES);
    let ts: Vec<usize> = match req.slice_pieces {
        Some(t) if t > t_hi => bail!(
            "--slice-pieces {t}: a board of {n} pieces can be cut by at most {t_hi} pieces (6 stay inside a slice; at most {MAX_SLICE_PIECES})"
        ),
        Some(t) => vec![t],
        None => (n.saturating_sub(exhaustive::MAX_PIECES)..=t_hi).collect(),
    };
    let all_group = symmetry::automorphisms(&p.board, &p.kmoves);
    let groups: Vec<Vec<Perm>> = if req.symmetry {
        symmetry::subgroups(&all_group)
    } else {
        vec![vec![all_group[0].clone()]]
    };
    let mut best: Option<Choice> = None;
    let mut t_min: Option<usize> = None;
    let mut smallest_need = u64::MAX;
    for &t in &ts {
        if n - t > exhaustive::MAX_PIECES {
            continue;
        }
        if let Some(tm) = t_min
            && t > tm + EXTRA_T
        {
            break;
        }
        for group in &groups {
            let Some((pieces, bottom)) = choose_sets(p, group, t) else {
                continue;
            };
            let plan = Plan::with_cut(p, pieces, bottom, group.clone())?;
            let kernel = plan.kernel(p)?;
            let est = estimate(&plan, &kernel, req);
            smallest_need = smallest_need.min(est.memory);
            if est.memory > req.memory {
                continue;
            }
            t_min.get_or_insert(t);
            let better = match &best {
                None => true,
                Some(b) => est.seconds < b.est.seconds * 0.95,
            };
            if better {
                best = Some(Choice { plan, est });
            }
        }
    }
    best.with_context(|| {
        if smallest_need == u64::MAX {
            format!("no cut of this board into slices was found (--slice-pieces {:?})", req.slice_pieces)
        } else {
            format!(
                "the memory budget {} is too small: the smallest slice solve of this board needs {} (raise --memory, or use fewer threads)",
                fmt_bytes(req.memory),
                fmt_bytes(smallest_need)
            )
        }
    })
}

/// Slice pieces (a union of the group's orbits, t pieces, pairwise
/// independent if possible) and, for a non-trivial group, six in-word
/// pieces (a union of orbits, disjoint from them).
pub fn choose_sets(p: &Problem, group: &[Perm], t: usize) -> Option<(Vec<usize>, Vec<usize>)> {
    let n = p.n();
    let strict = exhaustive::adjacency(n, &p.kmoves);
    let masks = adjacency_mask(n, &p.kmoves);
    let orbits = symmetry::orbits(n, group);
    let trivial = group.len() == 1;
    for adj in [&strict, &masks] {
        if let Some(s) = union_of_orbits(&orbits, t, adj, 0) {
            if trivial {
                return Some((bits(s), vec![]));
            }
            // In-word pieces that share moves only slow the in-word solve.
            let none = vec![0u64; n];
            for badj in [&strict, &masks, &none] {
                if let Some(b) = union_of_orbits(&orbits, 6, badj, s) {
                    // The lowest word bits too, if possible: a renamed word
                    // then comes from the same 64-byte line (or 512-byte
                    // run) as its neighbours.
                    let mut bottom = bits(b);
                    'w: for size in [6, 3] {
                        for wadj in [&strict, &masks, &none] {
                            if let Some(w) = union_of_orbits(&orbits, size, wadj, s | b) {
                                bottom.extend(bits(w));
                                break 'w;
                            }
                        }
                    }
                    return Some((bits(s), bottom));
                }
            }
        }
    }
    if trivial {
        // No independent set of t pieces (e.g. `take: any`): the least
        // connected pieces; slices then also read slices two or more pieces down.
        let mut s = 0u64;
        for _ in 0..t {
            let i = (0..n)
                .filter(|&i| s >> i & 1 == 0)
                .min_by_key(|&i| ((masks[i] & s).count_ones(), masks[i].count_ones()))?;
            s |= 1 << i;
        }
        return Some((bits(s), vec![]));
    }
    None
}

fn bits(x: u64) -> Vec<usize> {
    (0..64).filter(|i| x >> i & 1 == 1).collect()
}

/// A union of whole orbits with `size` pieces, pairwise independent under
/// `adj`, avoiding `avoid` (depth-first, bounded).
fn union_of_orbits(orbits: &[u64], size: usize, adj: &[u64], avoid: u64) -> Option<u64> {
    let ok: Vec<u64> = orbits
        .iter()
        .copied()
        .filter(|&o| o & avoid == 0 && independent_set(o, adj))
        .collect();
    let mut budget = 200_000u32;
    fn dfs(
        ok: &[u64],
        i: usize,
        set: u64,
        size: usize,
        adj: &[u64],
        budget: &mut u32,
    ) -> Option<u64> {
        let have = set.count_ones() as usize;
        if have == size {
            return Some(set);
        }
        if i == ok.len() || *budget == 0 {
            return None;
        }
        *budget -= 1;
        let o = ok[i];
        if have + o.count_ones() as usize <= size
            && independent_set(set | o, adj)
            && let Some(s) = dfs(ok, i + 1, set | o, size, adj, budget)
        {
            return Some(s);
        }
        dfs(ok, i + 1, set, size, adj, budget)
    }
    dfs(&ok, 0, 0, size, adj, &mut budget)
}

fn independent_set(s: u64, adj: &[u64]) -> bool {
    let mut rest = s;
    while rest != 0 {
        let i = rest.trailing_zeros() as usize;
        if adj[i] & s != 0 {
            return false;
        }
        rest &= rest - 1;
    }
    true
}
