//! A case (one code, play and heap count): solving it and filling its rows.

use super::code::{Code, Split};
use super::datasets::{NIM_VALUES, PERIODS, POSITIONS, SPLIT_FIELDS};
use super::misere::{self, Misere};
use super::rows::{game_columns, period_row};
use super::sequence::{self, Horizon, Path, Sequence};
use crate::data::{EnumVec, StructListVec, Table, Values};
use crate::family::{Case, CaseCtx, Cost, Interrupted, Output, TableBytes};
use crate::game::{OUTCOMES, Play, outcome_code};

/// One code, play and number of heaps on the sweep's heap sizes.
pub struct OctalCase {
    /// The rule.
    pub code: Code,
    /// Normal or misère.
    pub play: Play,
    /// Number of heaps (1, 2 or 3; misère: 1).
    pub heaps: usize,
    /// Heap sizes (rows; every heap of several).
    pub ns: Vec<u64>,
    /// How far to compute the sequence.
    pub horizon: Horizon,
    /// The winning moves of its positions of several heaps, counted once
    /// ([`OctalCase::winning_items`]).
    pub items: std::sync::OnceLock<Option<u64>>,
}

/// A winning move in a `positions` row ([`SPLIT_FIELDS`], one integer each).
const ITEM_BYTES: u64 = 8 * SPLIT_FIELDS.len() as u64;

/// The naive kernel's moves up to which a case of several heaps counts its
/// winning moves while planning ([`OctalCase::winning_items`]): two heaps
/// to 4,096 of a code splitting on one take are 4 million.
const ITEMS_WORK: u64 = 1 << 26;

/// Rare parts assumed per splitting take and heap size in a sparse space
/// not probed (0.454 has 16 rare positions, 0.16 49, Grundy's game 360 in
/// their first 2049 values; the kernel runs only when a mask shows).
const RARE_PARTS: u64 = 64;

impl OctalCase {
    fn n_max(&self) -> u64 {
        self.ns.iter().copied().max().unwrap_or(0)
    }
    /// The sparse kernel's moves from heap size `from` to the sparse
    /// horizon: per heap size its takes and `rare` rare parts per splitting
    /// take (the rare positions among the first 2049 values, where the
    /// probe found them: a heap size's time follows them, 0.454 with 16
    /// and Grundy's game with 360 to 1273 took about 6 ns a part).
    fn sparse_work(&self, from: usize, rare: u64) -> u64 {
        let extra = self.run_horizon().sparse.saturating_sub(from) as u64;
        let per_n = self.code.max_take() as u64 + rare * self.code.split_takes().len() as u64;
        extra.saturating_mul(per_n)
    }
}

impl OctalCase {
    /// The case's size ([`Cost::size`]).
    fn size(&self) -> u64 {
        let h = self.horizon.naive.max(self.n_max() as usize) as u64;
        let seq = if self.code.splits() {
            h.saturating_mul(h) / 64
        } else {
            h
        };
        let rows = (self.ns.len() as u64).saturating_pow(self.heaps as u32);
        seq.max(1).saturating_add(rows)
    }
    /// How far its normal-play sequence is computed: the horizons, at
    /// least to the largest heap size.
    fn run_horizon(&self) -> Horizon {
        let n_max = self.n_max() as usize;
        Horizon {
            naive: self.horizon.naive.max(n_max),
            sparse: self.horizon.sparse.max(n_max),
        }
    }
    /// Its work, its sequence going along `path` ([`OctalCase::path`]).
    fn work(&self, path: Option<Path>) -> crate::cost::Work {
        let n_max = self.n_max() as usize;
        let naive = |h: usize| super::kernel::naive_work(&self.code, h);
        // The sequence's kernels past the probe stage, as the run's probe
        // chooses them (a proof may stop them sooner, which only solving
        // tells). Not probed: the naive kernel's moves to the naive horizon
        // and the sparse kernel's past it, where the sweep lets a splitting
        // code go further (an upper bound: the sparse kernel may not run).
        let from = sequence::ADAPTIVE_FROM;
        let h = self.run_horizon();
        let trial = path.map_or(0, |p| sequence::trial_work(&self.code, h, p));
        let seq = match (self.play, path) {
            (Play::Misere, _) if self.code.splits() => misere_work(naive(n_max), n_max),
            (Play::Misere, _) => naive(n_max),
            (Play::Normal, Some(Path::Adaptive(rate))) => {
                naive(from).saturating_add(adaptive_work(rate, h.naive))
            }
            (Play::Normal, Some(Path::Sparse((_, rare)))) => {
                naive(from).saturating_add(self.sparse_work(from, rare as u64))
            }
            (Play::Normal, Some(Path::Naive)) => naive(sequence::naive_top(&self.code, h)),
            (Play::Normal, Some(Path::Proven(stage))) => naive(stage),
            // Only a splitting code goes past the probe stage unprobed.
            (Play::Normal, None) => naive(sequence::naive_top(&self.code, h))
                .saturating_add(self.sparse_work(h.naive, RARE_PARTS)),
        };
        // Each row reads the moves of its heaps: on average those of a heap
        // size up to the largest.
        let per_heap = naive(n_max) / (n_max as u64 + 1) + 1;
        let rows = (self.ns.len() as u64).saturating_pow(self.heaps as u32);
        let moves = rows.saturating_mul(per_heap * self.heaps as u64);
        let all = seq.saturating_add(trial).saturating_add(moves);
        vec![(super::kernels::OCTAL, all)]
    }
    /// Whether its sequence runs long enough in blocks for the kernels
    /// to share heap sizes among threads when the case is alone
    /// ([`Cost::splits_alone`]): one heap (the rows of several are listed
    /// on one thread) in normal play, no digit leaving three heaps (their
    /// kernel runs on one thread), three quarters of the heap sizes or
    /// more past where the blocks start: to the horizon of the kernel the
    /// probe chooses (not probed: the further horizon), the sparse kernel
    /// only where its heap sizes are worth sharing
    /// ([`super::kernel::sparse_shares`]).
    fn spreads(&self, path: Option<Path>) -> bool {
        let h = self.run_horizon();
        let h = match path {
            Some(Path::Sparse((_, rare))) if !super::kernel::sparse_shares(&self.code, rare) => 0,
            Some(Path::Sparse(_)) | None => h.naive.max(h.sparse),
            Some(Path::Adaptive(_)) => h.naive,
            Some(Path::Naive) => sequence::naive_top(&self.code, h),
            Some(Path::Proven(stage)) => stage,
        };
        let one = self.heaps == 1 && self.play == Play::Normal;
        one && !self.code.triples() && h >= 4 * super::blocks::FROM
    }
    /// Where its normal-play sequence stops or goes on past the probe
    /// stage, as the stages a plan makes again say
    /// ([`sequence::planned_path`]; their work is at most the case's own);
    /// `None` where they do not tell, and in misère play (its values are
    /// computed otherwise).
    fn path(&self) -> Option<Path> {
        if self.play == Play::Misere {
            return None;
        }
        sequence::planned_path(&self.code, self.run_horizon())
    }
    fn memory(&self) -> u64 {
        (self.horizon.sparse.max(self.horizon.naive) as u64).saturating_mul(4)
    }
    /// Bytes of a `positions` row as its table holds it: the declared
    /// columns, with its winning moves as counted
    /// ([`OctalCase::winning_items`]) in place of the four a list is
    /// declared with (the two-heap `0.71` to 700 holds 100 a row, `0.77`
    /// 8.4: 3.4 GB against 0.24 GB).
    fn position_row_bytes(&self) -> Option<u64> {
        let items = self.winning_items()?;
        let rows = (self.ns.len() as u64)
            .saturating_pow(self.heaps as u32)
            .max(1);
        let declared_items = 4 * ITEM_BYTES;
        Some(
            POSITIONS.row_bytes() - declared_items
                + items.saturating_mul(ITEM_BYTES).div_ceil(rows),
        )
    }

    /// The winning moves of every position of several heaps, in all
    /// (normal play; `None` for one heap, misère play, or values too far
    /// to compute while planning). A position's winning moves in heap `j`
    /// are the moves of `N_j` to the value of the others' nim-sum (a move
    /// to `G(N_j)` itself there is none, so P-positions count none): over
    /// every position, `heaps ×` the sum over heap sizes `a` and their
    /// moves of how many positions of the other heaps have the move's value
    /// as their nim-sum.
    pub fn winning_items(&self) -> Option<u64> {
        *self.items.get_or_init(|| {
            let n_max = self.n_max() as usize;
            let cheap = super::kernel::naive_work(&self.code, n_max) <= ITEMS_WORK;
            if self.heaps < 2 || self.play != Play::Normal || !cheap {
                return None;
            }
            let never = std::sync::atomic::AtomicBool::new(false);
            let g = super::kernel::naive(&self.code, n_max, &never)?;
            let width = (g.iter().copied().max().unwrap_or(0) as usize + 1).next_power_of_two();
            let mut one = vec![0u64; width];
            for &n in &self.ns {
                one[g[n as usize] as usize] += 1;
            }
            // Positions of the other heaps by nim-sum.
            let mut others = one.clone();
            for _ in 2..self.heaps {
                let mut next = vec![0u64; width];
                for (x, &a) in others.iter().enumerate().filter(|(_, a)| **a > 0) {
                    for (y, &b) in one.iter().enumerate() {
                        next[x ^ y] += a * b;
                    }
                }
                others = next;
            }
            let value = |s: &Split| s.parts().fold(0, |x, h| x ^ g[h as usize]) as usize;
            let per_heap: u64 = self
                .ns
                .iter()
                .flat_map(|&a| self.code.moves(a))
                .map(|s| others.get(value(&s)).copied().unwrap_or(0))
                .sum();
            Some(per_heap.saturating_mul(self.heaps as u64))
        })
    }

    fn rows(&self) -> Vec<(&'static str, u64)> {
        let n = self.ns.len() as u64;
        if self.heaps == 1 {
            vec![("nim_values", n), ("periods", 1)]
        } else {
            vec![("positions", n.saturating_pow(self.heaps as u32))]
        }
    }
}

/// The misère search's work for a splitting code to heap size `n_max`
/// (`moves`: the naive kernel's moves to there): every multiset of heaps
/// of at most `n_max` tokens (the partitions of each total), each heap's
/// moves tried, each option a new multiset built and sorted, about 20
/// moves' time (four codes to 36 tokens: 0.21 s on one thread, to 40:
/// 0.50 s; counted as one heap's moves, the dry run read 48,000× the model
/// and carried it to the sweep's normal-play cases: 5 min 40 s for 1.6 s).
fn misere_work(moves: u64, n_max: usize) -> u64 {
    let per_heap = moves / (n_max as u64 + 1) + 1;
    multisets_to(n_max)
        .saturating_mul(per_heap)
        .saturating_mul(20)
}

/// The multisets of heaps of at most `n` tokens in all: the partitions
/// of each total from 0 to `n`, summed.
fn multisets_to(n: usize) -> u64 {
    // p[k]: the partitions of k.
    let mut p = vec![0u64; n + 1];
    p[0] = 1;
    for part in 1..=n {
        for k in part..=n {
            p[k] = p[k].saturating_add(p[k - part]);
        }
    }
    p.iter().fold(0u64, |a, &x| a.saturating_add(x))
}

/// The adaptive kernel's splits examined from the probe stage to heap
/// size `h`, from its trial's `rate` per heap size: the rate grows as
/// (n / 2048)^0.15, slowing as the heaps grow (0.6 on one thread: 0.02,
/// 0.12, 0.60 and 2.36 s to 8,192, 32,768, 131,072 and 524,288 heaps, a
/// heap size's time ×1.5, ×1.25, ×1.0 per ×4; the naive kernel's grows
/// ×4): the sum of `rate · (n / 2048)^0.15` over `n` from 2048 to `h`.
fn adaptive_work(rate: f64, h: usize) -> u64 {
    let from = sequence::ADAPTIVE_FROM as f64;
    let x = h as f64 / from;
    (rate * from * (x.powf(1.15) - 1.0) / 1.15) as u64
}

impl Case for OctalCase {
    fn key(&self) -> String {
        format!(
            "octal/{}/{}/heaps={}/N={}/horizon={}/{}",
            self.code.text(),
            self.play.as_str(),
            self.heaps,
            crate::family::ints_key(&self.ns),
            self.horizon.naive,
            self.horizon.sparse
        )
    }
    fn cost(&self, _keep: Option<&[String]>) -> Cost {
        let path = self.path();
        Cost {
            size: self.size(),
            work: self.work(path),
            memory_bound: self.memory(),
            rows: self.rows(),
            table_bytes: self
                .position_row_bytes()
                .map(|b| vec![(POSITIONS.name, TableBytes::PerRow(b))])
                .unwrap_or_default(),
            splits_alone: self.spreads(path),
            ..Cost::default()
        }
    }
    fn scaled(&self, factor: f64) -> Option<Box<dyn Case>> {
        // The heap sizes and both horizons cut: the same code and play on
        // the same kernels.
        let cut = |n| crate::family::scaled_count(n, factor);
        let ns = crate::family::scaled_prefix(&self.ns, factor);
        let n_max = ns.iter().copied().max().unwrap_or(0) as usize;
        Some(Box::new(OctalCase {
            code: self.code.clone(),
            play: self.play,
            heaps: self.heaps,
            horizon: Horizon {
                naive: cut(self.horizon.naive).max(n_max),
                sparse: cut(self.horizon.sparse).max(n_max),
            },
            ns,
            items: std::sync::OnceLock::new(),
        }))
    }
    fn solve(&self, ctx: &CaseCtx<'_>) -> anyhow::Result<Output> {
        let out = match self.play {
            Play::Misere => self.misere()?,
            Play::Normal => {
                let h = self.run_horizon();
                let seq = sequence::compute(&self.code, h, ctx.cancel).ok_or(Interrupted)?;
                if self.heaps == 1 {
                    let mut out = Vec::new();
                    if ctx.wants("nim_values") {
                        out.push((&NIM_VALUES, self.normal_rows(&seq)));
                    }
                    out.push((&PERIODS, period_row(&self.code, self.play, &seq)));
                    out
                } else {
                    vec![(&POSITIONS, self.positions(&seq))]
                }
            }
        };
        (ctx.progress)(self.size());
        Ok(out)
    }
}

impl OctalCase {
    /// One row per heap size: outcome, value, winning moves (normal play).
    fn normal_rows(&self, seq: &Sequence) -> Table {
        let g = |n: u64| seq.value(n).unwrap_or(0);
        let mut grundy = Vec::with_capacity(self.ns.len());
        let mut outcome = EnumVec::new(OUTCOMES, self.ns.len());
        let mut moves = StructListVec::new(SPLIT_FIELDS, self.ns.len());
        for &n in &self.ns {
            let v = g(n);
            grundy.push(Some(v as i64));
            outcome.push(outcome_code(v == 0));
            for s in self.code.moves(n) {
                if v != 0 && s.parts().fold(0, |x, h| x ^ g(h)) == 0 {
                    moves.push_item(&split_item(1, &s));
                }
            }
            moves.end_row();
        }
        self.one_heap_table(outcome, Values::OptInt(grundy), moves)
    }

    fn one_heap_table(&self, outcome: EnumVec, grundy: Values, moves: StructListVec) -> Table {
        game_columns(&self.code, self.play, self.ns.len())
            .with(
                "N",
                Values::Int(self.ns.iter().map(|&n| n as i64).collect()),
            )
            .with("outcome", Values::Enum(outcome))
            .with("grundy", grundy)
            .with("winning_splits", Values::StructList(moves))
    }

    /// Misère play, one heap: outcomes and winning moves by search.
    fn misere(&self) -> anyhow::Result<Output> {
        let t0 = std::time::Instant::now();
        let p = misere::one_heap(&self.code, self.n_max()).map_err(anyhow::Error::msg)?;
        let seconds = t0.elapsed().as_secs_f64();
        let mut m = Misere::new(&self.code);
        let mut outcome = EnumVec::new(OUTCOMES, self.ns.len());
        let mut moves = StructListVec::new(SPLIT_FIELDS, self.ns.len());
        for &n in &self.ns {
            outcome.push(outcome_code(p[n as usize]));
            for s in self.code.moves(n) {
                let to_p = if self.code.splits() {
                    m.is_p(&s.parts().collect::<Vec<_>>())
                } else {
                    s.right > 0 && p[s.right as usize]
                };
                if to_p {
                    moves.push_item(&split_item(1, &s));
                }
            }
            moves.end_row();
        }
        let rows = self.one_heap_table(outcome, Values::Null(self.ns.len()), moves);
        let periods = super::rows::misere_period_row(&self.code, &p, seconds);
        Ok(vec![(&NIM_VALUES, rows), (&PERIODS, periods)])
    }

    /// Several heaps, normal play: every position of the heap sizes.
    fn positions(&self, seq: &Sequence) -> Table {
        let g = |n: u64| seq.value(n).unwrap_or(0);
        let mut all: Vec<Vec<u64>> = vec![vec![]];
        for _ in 0..self.heaps {
            all = all
                .into_iter()
                .flat_map(|p| {
                    self.ns.iter().map(move |&n| {
                        let mut q = p.clone();
                        q.push(n);
                        q
                    })
                })
                .collect();
        }
        let rows = all.len();
        let (mut n1, mut n2, mut n3) = (Vec::new(), Vec::new(), Vec::new());
        let mut grundy = Vec::with_capacity(rows);
        let mut outcome = EnumVec::new(OUTCOMES, rows);
        let mut moves = StructListVec::new(SPLIT_FIELDS, rows);
        for pos in &all {
            let x = pos.iter().fold(0, |a, &h| a ^ g(h));
            n1.push(pos[0] as i64);
            n2.push(pos[1] as i64);
            n3.push(pos.get(2).map(|&h| h as i64));
            grundy.push(Some(x as i64));
            outcome.push(outcome_code(x == 0));
            for (j, &h) in pos.iter().enumerate() {
                let want = g(h) ^ x;
                for s in self.code.moves(h) {
                    if x != 0 && s.parts().fold(0, |a, h| a ^ g(h)) == want {
                        moves.push_item(&split_item(j + 1, &s));
                    }
                }
            }
            moves.end_row();
        }
        game_columns(&self.code, self.play, rows)
            .with("heaps", Values::Int(vec![self.heaps as i64; rows]))
            .with("N1", Values::Int(n1))
            .with("N2", Values::Int(n2))
            .with("N3", Values::OptInt(n3))
            .with("outcome", Values::Enum(outcome))
            .with("grundy", Values::OptInt(grundy))
            .with("winning_splits", Values::StructList(moves))
    }
}

/// A winning move as its [`SPLIT_FIELDS`] item: heap (from 1), take, the
/// heaps left (`left`, `right`, and `middle` when three are left).
fn split_item(heap: usize, s: &Split) -> [i64; 5] {
    [
        heap as i64,
        s.take as i64,
        s.left as i64,
        s.right as i64,
        s.mid as i64,
    ]
}

#[cfg(test)]
mod tests {
    /// The partition numbers (OEIS A000041): 1, 1, 2, 3, 5, 7, 11, 15,
    /// 22, 30, 42 to 10 (139 in all), p(40) = 37338.
    #[test]
    fn multisets_are_counted_by_the_partition_numbers() {
        assert_eq!(super::multisets_to(0), 1);
        assert_eq!(super::multisets_to(10), 139);
        assert_eq!(super::multisets_to(40) - super::multisets_to(39), 37338);
    }
}
