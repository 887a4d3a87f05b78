//! Fast solvers for take-away games (GAMES.md §1).
//!
//! * One heap, normal play: the whole Grundy sequence in one pass. For
//!   |S| ≤ 7 each value is a one-hot byte, so the mex of the values at `x - s`
//!   is the lowest clear bit of their OR: `!seen & (seen + 1)`. The last two
//!   values stay in registers (the loop-carried chain is OR, ADD, ANDN); older
//!   ones are loaded from the array. For an interval S = {m..n} of any width a
//!   sliding window keeps a count of each value and a bitmap of the values
//!   present, so each step is O(1). Other sets use a small bitmap per step.
//! * Several heaps, normal play: XOR of one-heap values.
//! * Misère and `no_repeat`: dynamic programming over the joint state (the
//!   heaps, in mixed radix, plus the last take), successors first. For
//!   `no_repeat` the last take need not be stored per state: `(x, last)` is a
//!   P-position exactly when every winning take of `x` (ignoring the
//!   restriction) equals `last`, so each `x` keeps one code — no winning take,
//!   the single winning take, or several — and `(x, last)` is read off it.

/// Code for "two or more different winning takes".
pub const MULTI: u32 = u32::MAX;

/// A Grundy sequence `G(0..len)`.
#[derive(Clone, Debug)]
pub enum Grundy {
    /// One-hot bytes: value `v` is stored as `1 << v` (|S| ≤ 7).
    OneHot(Vec<u8>),
    /// Plain values.
    Wide(Vec<u16>),
}

impl Grundy {
    /// `G(n)`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        match self {
            Grundy::OneHot(v) => v[n].trailing_zeros(),
            Grundy::Wide(v) => v[n] as u32,
        }
    }
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Grundy::OneHot(v) => v.len(),
            Grundy::Wide(v) => v.len(),
        }
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The values as a plain vector (for period detection and tests).
    pub fn to_vec(&self) -> Vec<u32> {
        (0..self.len()).map(|n| self.get(n)).collect()
    }
}

/// True when the sorted set is `{m, m+1, …, n}`.
pub fn is_interval(takes: &[u32]) -> bool {
    takes.windows(2).all(|w| w[1] == w[0] + 1)
}

/// The Grundy sequence `G(0..len)` of the subtraction game with the sorted,
/// duplicate-free take set `takes` (all ≥ 1).
pub fn grundy_sequence(takes: &[u32], len: usize) -> Grundy {
    assert!(
        !takes.is_empty() && takes[0] >= 1,
        "take sets are non-empty and positive"
    );
    if takes.len() <= 7 {
        Grundy::OneHot(onehot_sequence(takes, len))
    } else if is_interval(takes) {
        Grundy::Wide(interval_sequence(
            takes[0] as usize,
            *takes.last().unwrap() as usize,
            len,
        ))
    } else {
        Grundy::Wide(generic_sequence(takes, len))
    }
}

/// One-hot kernel: dispatches to a specialisation for the set's shape.
pub fn onehot_sequence(takes: &[u32], len: usize) -> Vec<u8> {
    let mut m: Vec<u8> = zeroed_huge(len);
    let smax = *takes.last().unwrap() as usize;
    // Warm-up: positions where some takes are not legal yet.
    for x in 0..smax.min(len) {
        let mut seen = 0u8;
        for &s in takes {
            let s = s as usize;
            if s <= x {
                seen |= m[x - s];
            }
        }
        m[x] = !seen & seen.wrapping_add(1);
    }
    if len <= smax {
        return m;
    }
    if smax <= 8 {
        // Every take is at most 8: keep the last eight values in registers and
        // OR the ones S selects, with S compiled in (one loop per subset of 1..8).
        let mask = takes.iter().fold(0u8, |a, &s| a | 1 << (s - 1));
        seq_macro::seq!(M in 1..=255 {
            match mask {
                #( M => window_loop::<M>(&mut m, smax), )*
                _ => unreachable!("a non-empty subset of 1..8"),
            }
        });
        return m;
    }
    let has1 = takes[0] == 1;
    let has2 = takes.contains(&2);
    let far: Vec<usize> = takes
        .iter()
        .map(|&s| s as usize)
        .filter(|&s| s >= 3)
        .collect();
    macro_rules! go {
        ($k:literal) => {{
            let mut a = [0usize; $k];
            a.copy_from_slice(&far);
            match (has1, has2) {
                (true, true) => onehot_loop::<true, true, $k>(&mut m, smax, a),
                (true, false) => onehot_loop::<true, false, $k>(&mut m, smax, a),
                (false, true) => onehot_loop::<false, true, $k>(&mut m, smax, a),
                (false, false) => onehot_loop::<false, false, $k>(&mut m, smax, a),
            }
        }};
    }
    match far.len() {
        0 => go!(0),
        1 => go!(1),
        2 => go!(2),
        3 => go!(3),
        4 => go!(4),
        5 => go!(5),
        6 => go!(6),
        _ => go!(7),
    }
    m
}

/// The steady-state loop for S ⊆ {1..8} given as the bit mask `M` (bit s−1
/// for take s): the last eight values live in registers, so the loop-carried
/// chain is OR, ADD, ANDN and nothing waits on memory.
#[inline(never)]
fn window_loop<const M: u8>(m: &mut [u8], start: usize) {
    let mut r = [0u8; 8];
    for (i, slot) in r.iter_mut().enumerate() {
        if start > i {
            *slot = m[start - 1 - i];
        }
    }
    for v_out in &mut m[start..] {
        let mut seen = 0u8;
        if M & 1 != 0 {
            seen |= r[0];
        }
        if M & 2 != 0 {
            seen |= r[1];
        }
        if M & 4 != 0 {
            seen |= r[2];
        }
        if M & 8 != 0 {
            seen |= r[3];
        }
        if M & 16 != 0 {
            seen |= r[4];
        }
        if M & 32 != 0 {
            seen |= r[5];
        }
        if M & 64 != 0 {
            seen |= r[6];
        }
        if M & 128 != 0 {
            seen |= r[7];
        }
        let v = !seen & seen.wrapping_add(1);
        *v_out = v;
        r = [v, r[0], r[1], r[2], r[3], r[4], r[5], r[6]];
    }
}

/// The steady-state loop: `m[x]` for `x ≥ smax`, with `m[x-1]` and `m[x-2]` in
/// registers and the takes ≥ 3 read from the array.
#[inline(always)]
fn onehot_loop<const H1: bool, const H2: bool, const K: usize>(
    m: &mut [u8],
    smax: usize,
    far: [usize; K],
) {
    let len = m.len();
    let mut r1 = m[smax - 1];
    let mut r2 = if smax >= 2 { m[smax - 2] } else { 0 };
    debug_assert!(far.iter().all(|&s| (3..=smax).contains(&s)));
    let ptr = m.as_mut_ptr();
    for x in smax..len {
        let mut seen = 0u8;
        for &s in &far {
            // SAFETY: 3 ≤ s ≤ smax ≤ x < len, so x - s is in bounds, and it was
            // written on an earlier iteration (no aliasing with the write below).
            seen |= unsafe { *ptr.add(x - s) };
        }
        if H2 {
            seen |= r2;
        }
        if H1 {
            seen |= r1;
        }
        let v = !seen & seen.wrapping_add(1);
        // SAFETY: x < len.
        unsafe { *ptr.add(x) = v };
        r2 = r1;
        r1 = v;
    }
}

/// Interval kernel: S = {lo..=hi}; O(1) per value whatever the width.
pub fn interval_sequence(lo: usize, hi: usize, len: usize) -> Vec<u16> {
    let mut g: Vec<u16> = zeroed_huge(len);
    // Values never exceed |S| (a mex over at most |S| values).
    let width = hi - lo + 1;
    let mut count = vec![0u32; width + 2];
    let mut present = vec![0u64; (width + 2).div_ceil(64)];
    for x in 0..len {
        // Window for x: values G(y) with x - hi ≤ y ≤ x - lo.
        if x >= lo {
            let v = g[x - lo] as usize;
            count[v] += 1;
            if count[v] == 1 {
                present[v >> 6] |= 1 << (v & 63);
            }
        }
        if x > hi {
            let v = g[x - hi - 1] as usize;
            count[v] -= 1;
            if count[v] == 0 {
                present[v >> 6] &= !(1 << (v & 63));
            }
        }
        let mut mex = 0usize;
        for (i, w) in present.iter().enumerate() {
            if *w != u64::MAX {
                mex = i * 64 + (!w).trailing_zeros() as usize;
                break;
            }
        }
        g[x] = mex as u16;
    }
    g
}

/// Any finite set: a bitmap of the values seen, per step.
pub fn generic_sequence(takes: &[u32], len: usize) -> Vec<u16> {
    let mut g = vec![0u16; len];
    let words = (takes.len() + 2).div_ceil(64);
    let mut seen = vec![0u64; words];
    for x in 0..len {
        seen.iter_mut().for_each(|w| *w = 0);
        for &s in takes {
            let s = s as usize;
            if s > x {
                break;
            }
            let v = g[x - s] as usize;
            seen[v >> 6] |= 1 << (v & 63);
        }
        let mut mex = 0;
        for (i, w) in seen.iter().enumerate() {
            if *w != u64::MAX {
                mex = i * 64 + (!w).trailing_zeros() as usize;
                break;
            }
        }
        g[x] = mex as u16;
    }
    g
}

use crate::game::Play;
use crate::mem::zeroed_huge;

/// The joint-state solution of a take-away game on `D` heaps with sizes
/// `0..dims[i]`, for misère play and/or `no_repeat` (any play).
#[derive(Clone, Debug)]
pub struct Joint {
    /// Size of each coordinate (largest heap + 1).
    pub dims: Vec<usize>,
    /// Mixed-radix strides.
    pub strides: Vec<usize>,
    /// Sorted take set (for `take: any`, 1..=largest heap).
    pub takes: Vec<u32>,
    /// Play convention.
    pub play: Play,
    /// The no-repeat rule.
    pub no_repeat: bool,
    /// Per state: 0 = no winning take, `s` = the single winning take, [`MULTI`] =
    /// several. (Without `no_repeat` only "0 or not" matters.)
    pub code: Vec<u32>,
}

impl Joint {
    /// Solves every state with heap `i` in `0..dims[i]`. `cancel` is polled.
    pub fn solve(
        dims: &[usize],
        takes: &[u32],
        play: Play,
        no_repeat: bool,
        progress: &dyn Fn(u64),
    ) -> Joint {
        let mut strides = vec![1usize; dims.len()];
        for i in (0..dims.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * dims[i + 1];
        }
        let total: usize = dims.iter().product();
        let mut j = Joint {
            dims: dims.to_vec(),
            strides,
            takes: takes.to_vec(),
            play,
            no_repeat,
            code: Vec::new(),
        };
        if dims.len() == 1 && no_repeat && play == Play::Normal {
            j.code = one_heap_no_repeat(total, takes, progress);
        } else {
            j.code = vec![0; total];
            j.fill(progress);
        }
        j
    }

    /// The generic pass over every state, successors first.
    fn fill(&mut self, progress: &dyn Fn(u64)) {
        let (no_repeat, total) = (self.no_repeat, self.code.len());
        let dims = self.dims.clone();
        let j = self;
        let mut heaps = vec![0usize; dims.len()];
        let mut last_report = 0usize;
        for idx in 0..total {
            let mut first = 0u32;
            'outer: for (i, &h) in heaps.iter().enumerate() {
                for &s in &j.takes {
                    if s as usize > h {
                        break;
                    }
                    let child = idx - s as usize * j.strides[i];
                    if j.child_is_p(child, Some(s)) {
                        if first == 0 {
                            first = s;
                            if !no_repeat {
                                break 'outer;
                            }
                        } else if first != s {
                            first = MULTI;
                            break 'outer;
                        }
                    }
                }
            }
            j.code[idx] = first;
            // Advance the mixed-radix counter.
            for i in (0..heaps.len()).rev() {
                heaps[i] += 1;
                if heaps[i] < dims[i] {
                    break;
                }
                heaps[i] = 0;
            }
            if idx - last_report >= 1 << 20 {
                progress((idx - last_report) as u64);
                last_report = idx;
            }
        }
        progress((total - last_report) as u64);
    }

    /// The largest heap of state `idx`.
    fn max_heap(&self, mut idx: usize) -> usize {
        let mut m = 0;
        for &st in &self.strides {
            let h = idx / st;
            idx -= h * st;
            m = m.max(h);
        }
        m
    }

    /// Can the player to move at `idx` move when the previous take was `last`?
    pub fn has_legal(&self, idx: usize, last: Option<u32>) -> bool {
        let m = self.max_heap(idx);
        let s1 = self.takes[0];
        if m < s1 as usize {
            return false;
        }
        let last = if self.no_repeat { last } else { None };
        match last {
            Some(l) if l == s1 => self.takes.get(1).is_some_and(|&s2| m >= s2 as usize),
            _ => true,
        }
    }

    /// Is state `idx`, entered by a take of `last` (`None` at the start of a
    /// game), a P-position?
    #[inline]
    pub fn child_is_p(&self, idx: usize, last: Option<u32>) -> bool {
        let c = self.code[idx];
        let no_win = if self.no_repeat {
            c == 0 || (last.is_some() && Some(c) == last)
        } else {
            c == 0
        };
        match self.play {
            // With no legal move the code is 0: P in normal play, as it should be.
            Play::Normal => no_win,
            Play::Misere => no_win && self.has_legal(idx, last),
        }
    }

    /// Index of a heap tuple.
    pub fn index(&self, heaps: &[usize]) -> usize {
        heaps.iter().zip(&self.strides).map(|(h, s)| h * s).sum()
    }

    /// Is the position a P-position at the start of a game?
    pub fn start_is_p(&self, heaps: &[usize]) -> bool {
        self.child_is_p(self.index(heaps), None)
    }

    /// Winning moves `(heap index, take)` from a position with the given last take.
    pub fn winning_moves(&self, heaps: &[usize], last: Option<u32>) -> Vec<(usize, u32)> {
        let idx = self.index(heaps);
        let mut out = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for &s in &self.takes {
                if s as usize > h {
                    break;
                }
                if self.no_repeat && last == Some(s) {
                    continue;
                }
                if self.child_is_p(idx - s as usize * self.strides[i], Some(s)) {
                    out.push((i, s));
                }
            }
        }
        out
    }
}

/// The codes of [`Joint`] for one heap, normal play and `no_repeat`, in O(1)
/// amortised per heap size instead of a scan of every take.
///
/// The winning takes of `x` are the takes `s` whose child `x - s` is a
/// P-position after a take of `s`: either `x - s` has no winning take at all
/// (a *zero*), or its single winning take is `s` itself. The second kind is
/// pushed forward: a heap `y` whose single winning take is `c` makes `c` a
/// winning take of `y + c` (one arrival, kept in a ring of `max(S) + 1`
/// slots). The first kind is read from the zeros within `max(S)` below `x`,
/// newest first, stopping at the second winning take found: only "none",
/// "one (which)" or "several" is kept.
fn one_heap_no_repeat(len: usize, takes: &[u32], progress: &dyn Fn(u64)) -> Vec<u32> {
    let smax = takes.last().map_or(0, |&s| s as usize);
    let in_s = membership(takes);
    // Per slot (x mod (smax + 1)): arrivals at x, and the take of the first.
    let mut arrivals = vec![(0u8, 0u32); smax + 1];
    let mut zeros: std::collections::VecDeque<usize> = std::collections::VecDeque::new();
    let mut code = vec![0u32; len];
    let mut last_report = 0usize;
    // x's slot, x mod (smax + 1), counted along rather than divided.
    let ring = smax + 1;
    let mut slot = ring - 1;
    for x in 0..len {
        while zeros.front().is_some_and(|&z| z + smax < x) {
            zeros.pop_front();
        }
        slot = if slot + 1 == ring { 0 } else { slot + 1 };
        let (mut count, mut first) = std::mem::take(&mut arrivals[slot]);
        for &z in zeros.iter().rev() {
            if count >= 2 {
                break;
            }
            if in_s[x - z] {
                count += 1;
                first = (x - z) as u32;
            }
        }
        code[x] = match count {
            0 => 0,
            1 => first,
            _ => MULTI,
        };
        match code[x] {
            0 => zeros.push_back(x),
            MULTI => {}
            c => {
                let to = slot + c as usize;
                let a = &mut arrivals[if to >= ring { to - ring } else { to }];
                a.1 = c;
                a.0 = a.0.saturating_add(1);
            }
        }
        if x - last_report >= 1 << 20 {
            progress((x - last_report) as u64);
            last_report = x;
        }
    }
    progress((len - last_report) as u64);
    code
}

/// Membership of each take (index = take), up to the largest take.
pub fn membership(takes: &[u32]) -> Vec<bool> {
    let mut v = vec![false; takes.last().map_or(0, |&t| t as usize) + 1];
    for &t in takes {
        v[t as usize] = true;
    }
    v
}

/// The one-heap state sequence that drives a period proof: values that depend
/// only on the `max(S)` previous ones once every take is legal.
/// (With `no_repeat` the codes themselves, borrowed.)
pub fn joint_state_sequence(j: &Joint) -> std::borrow::Cow<'_, [u32]> {
    debug_assert_eq!(j.dims.len(), 1);
    if j.no_repeat {
        std::borrow::Cow::Borrowed(&j.code)
    } else {
        (0..j.code.len())
            .map(|x| j.child_is_p(x, None) as u32)
            .collect()
    }
}

/// `(y + c, y)` for each heap `y` whose code is a single winning take `c`
/// (every code is at most `smax`, the largest take), in increasing order:
/// where each such `y` makes `c` a winning take. Built in order (a ring of
/// `smax + 1` buckets by arrival), not sorted afterwards.
pub fn singles_by_arrival(code: &[u32], smax: usize) -> Vec<(u64, u32)> {
    let ring = smax + 1;
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); ring];
    let mut out = Vec::new();
    // x's bucket, x mod ring, counted along rather than divided.
    let mut slot = ring - 1;
    for x in 0..code.len() + ring {
        slot = if slot + 1 == ring { 0 } else { slot + 1 };
        let b = &mut buckets[slot];
        out.extend(b.iter().map(|&y| (x as u64, y)));
        b.clear();
        if let Some(&c) = code.get(x).filter(|&&c| c != 0 && c != MULTI) {
            let to = slot + c as usize;
            buckets[if to >= ring { to - ring } else { to }].push(x as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(takes: &[u32], len: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for x in 0..len {
            let mut seen: Vec<u32> = takes
                .iter()
                .filter(|&&s| s as usize <= x)
                .map(|&s| g[x - s as usize])
                .collect();
            seen.sort_unstable();
            seen.dedup();
            g.push(crate::game::mex_sorted(&seen));
        }
        g
    }

    #[test]
    fn known_sequences() {
        // S = {1,3,4}: period 7, 0 1 0 1 2 3 2 (a classic; checked by hand).
        let g = grundy_sequence(&[1, 3, 4], 14).to_vec();
        assert_eq!(g, vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
        // S = {1..3}: G(n) = n mod 4.
        assert_eq!(
            grundy_sequence(&[1, 2, 3], 9).to_vec(),
            vec![0, 1, 2, 3, 0, 1, 2, 3, 0]
        );
        // S = {2,3}: G = floor((n mod 5)/2): 0 0 1 1 2 0 0 1 1 2.
        assert_eq!(
            grundy_sequence(&[2, 3], 10).to_vec(),
            vec![0, 0, 1, 1, 2, 0, 0, 1, 1, 2]
        );
    }

    /// Every subset of {1..8} (each has its own compiled loop).
    #[test]
    fn every_small_take_set_agrees_with_naive() {
        for mask in 1u32..256 {
            let s: Vec<u32> = (1..=8).filter(|t| mask & (1 << (t - 1)) != 0).collect();
            let want = naive(&s, 120);
            assert_eq!(onehot_or_window(&s, 120), want, "S = {s:?}");
        }
    }

    fn onehot_or_window(s: &[u32], len: usize) -> Vec<u32> {
        if s.len() <= 7 {
            onehot_sequence(s, len)
                .iter()
                .map(|v| v.trailing_zeros())
                .collect()
        } else {
            grundy_sequence(s, len).to_vec()
        }
    }

    #[test]
    fn kernels_agree_with_naive() {
        let sets: Vec<Vec<u32>> = vec![
            vec![1],
            vec![2],
            vec![1, 2],
            vec![3, 5],
            vec![1, 3, 4],
            vec![2, 5, 6, 9],
            vec![1, 2, 3, 4, 5, 6, 7],
            vec![4, 7, 8, 11, 12, 19, 20],
            (1..=9).collect(),
            (3..=17).collect(),
            vec![1, 4, 9, 16, 25, 36, 49, 64],
            (1..=70).collect(),
        ];
        for s in &sets {
            let want = naive(s, 400);
            assert_eq!(grundy_sequence(s, 400).to_vec(), want, "S = {s:?}");
            assert_eq!(
                generic_sequence(s, 400)
                    .iter()
                    .map(|&v| v as u32)
                    .collect::<Vec<_>>(),
                want
            );
            if is_interval(s) {
                let iv = interval_sequence(s[0] as usize, *s.last().unwrap() as usize, 400);
                assert_eq!(
                    iv.iter().map(|&v| v as u32).collect::<Vec<_>>(),
                    want,
                    "S = {s:?}"
                );
            }
        }
    }

    /// The codes of the generic pass, which scans every take of every state.
    fn scanned_codes(takes: &[u32], len: usize) -> Vec<u32> {
        let mut j = Joint {
            dims: vec![len],
            strides: vec![1],
            takes: takes.to_vec(),
            play: Play::Normal,
            no_repeat: true,
            code: vec![0; len],
        };
        j.fill(&|_| {});
        j.code
    }

    #[test]
    fn no_repeat_one_heap_agrees_with_the_scan() {
        // Every take set within 1..9, and intervals and sparse sets up to 60.
        let mut sets: Vec<Vec<u32>> = (1u32..512)
            .map(|mask| (1..=9).filter(|t| mask & (1 << (t - 1)) != 0).collect())
            .collect();
        for (m, n) in [(1, 20), (1, 60), (2, 31), (3, 59), (7, 40), (30, 33)] {
            sets.push((m..=n).collect());
        }
        sets.push(vec![2, 5, 11, 17, 23, 40]);
        sets.push((1..=60).filter(|t| t % 3 != 0).collect());
        for s in &sets {
            let fast = Joint::solve(&[700], s, Play::Normal, true, &|_| {});
            assert_eq!(fast.code, scanned_codes(s, 700), "S = {s:?}");
        }
    }

    #[test]
    fn no_repeat_codes_by_hand() {
        // S = {1, 2}, no repeat. 0: no take (P). 1: take 1 to (0, last 1),
        // P: code 1. 2: take 2 to 0 (P); take 1 to (1, last 1), where 1 cannot
        // be taken again: P too. Two winning takes: MULTI. 3: take 1 to
        // (2, last 1): 2 then wins by 2 only, allowed, so N; take 2 to
        // (1, last 2): 1 wins by 1: N. No winning take: 0 (P).
        let j = Joint::solve(&[4], &[1, 2], Play::Normal, true, &|_| {});
        assert_eq!(j.code, vec![0, 1, MULTI, 0]);
    }

    #[test]
    fn singles_come_in_the_order_a_sort_gives() {
        for s in [
            vec![1u32, 2],
            vec![1, 3, 4],
            (1..=20).collect(),
            vec![3, 7, 9],
        ] {
            let j = Joint::solve(&[500], &s, Play::Normal, true, &|_| {});
            let mut sorted: Vec<(u64, u32)> = (0..j.code.len())
                .filter(|&n| j.code[n] != 0 && j.code[n] != MULTI)
                .map(|n| (n as u64 + j.code[n] as u64, n as u32))
                .collect();
            sorted.sort_unstable();
            assert!(!sorted.is_empty());
            assert_eq!(
                singles_by_arrival(&j.code, *s.last().unwrap() as usize),
                sorted
            );
        }
    }
}
