//! The fast solver: one dynamic-programming pass over the pile size `r`.
//!
//! Only the parities of the two hands matter, so the whole game at pile size
//! `r` is a handful of bits. Each `r` gets one byte:
//!
//! * `sides` — index `i = 2a + b` (a = Odd's hand parity, b = Even's). Bit `i`:
//!   Odd wins when **Even** is to move at `(a, b, r)`; bit `4 + i`: Odd wins
//!   when **Odd** is to move.
//! * `odd_wins` — index `i = 2x + y` (x = the mover's hand parity, y = the other
//!   hand's). Bit `i`: the player to move wins. The high nibble is unused.
//!
//! Bits of states that cannot occur are kept at 0: in `sides` the two hands
//! and the pile always add up to an even number (the initial pile is even), in
//! `odd_wins` to an odd one. A possible state only moves to possible states, so
//! the impossible ones never influence the others.
//!
//! Recurrences (t ranges over the takes `t ≤ r`; the taker's hand parity flips
//! when t is odd):
//!
//! * `sides`: `O_r[a,b] = OR_t E_{r-t}[a ⊕ t, b]` (Odd moves) and
//!   `E_r[a,b] = AND_t O_{r-t}[a, b ⊕ t]` (Even moves: Odd wins only if every
//!   move of Even leads to an Odd win). At `r = 0` Odd wins iff `a` is odd.
//! * `odd_wins`: `W_r[x,y] = OR_t ¬W_{r-t}[y, x ⊕ t]`; at `r = 0` the mover wins
//!   iff `x` is odd.
//!
//! The OR/AND over even takes and over odd takes are accumulated separately on
//! whole bytes, then one fixed bit permutation applies the parity flip, so the
//! inner loop is a single OR (and AND) per take: `O(r · |S|)` byte operations.
//!
//! The byte sequence, together with `r mod 2`, is the joint state of the
//! recurrence: for `r ≥ max(S)` the byte at `r` is a function of the `max(S)`
//! bytes before it. One repeat over a full window therefore proves a period
//! (see [`crate::period::proven_state_period`]); the modulus `M` of the article
//! is the minimal period of this sequence.

use crate::period::{self, Period, Status};

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Odd player against Even player; the initial pile is even.
    Sides,
    /// Whoever ends with an odd hand wins; the initial pile is odd.
    OddWins,
}

impl Variant {
    /// `sides` / `odd_wins`.
    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Sides => "sides",
            Variant::OddWins => "odd_wins",
        }
    }
    /// Parses the spec word.
    pub fn parse(s: &str) -> Option<Variant> {
        match s {
            "sides" => Some(Variant::Sides),
            "odd_wins" => Some(Variant::OddWins),
            _ => None,
        }
    }
    /// The parity `a + b + r` must have (0: even, 1: odd).
    pub fn total_parity(self) -> u64 {
        match self {
            Variant::Sides => 0,
            Variant::OddWins => 1,
        }
    }
    /// Mask of the possible hand-parity indices `2a + b` at pile size `r`.
    #[inline]
    pub fn possible(self, r: u64) -> u8 {
        // Indices 0 = (0,0) and 3 = (1,1) have a + b even; 1 and 2 odd.
        if (r + self.total_parity()).is_multiple_of(2) {
            0b1001
        } else {
            0b0110
        }
    }
}

/// The words a spec may use for [`Variant`].
pub const VARIANT_WORDS: &[&str] = &["sides", "odd_wins"];

/// Swaps the `a` bit of a nibble index `2a + b`.
#[inline]
fn swap_a(m: u8) -> u8 {
    ((m & 0b0011) << 2) | ((m >> 2) & 0b0011)
}

/// Swaps the `b` bit of a nibble index `2a + b`.
#[inline]
fn swap_b(m: u8) -> u8 {
    ((m & 0b0101) << 1) | ((m >> 1) & 0b0101)
}

/// `odd_wins` successor permutation: bit `(x, y)` of the result is bit
/// `(y, x ⊕ p)` of `m` (the roles swap, the old mover's hand flips when p = 1).
const fn odd_wins_map(p: usize) -> [u8; 16] {
    let mut out = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        let mut v = 0u8;
        let mut x = 0;
        while x < 2 {
            let mut y = 0;
            while y < 2 {
                let src = y * 2 + (x ^ p);
                if m & (1 << src) != 0 {
                    v |= 1 << (x * 2 + y);
                }
                y += 1;
            }
            x += 1;
        }
        out[m] = v;
        m += 1;
    }
    out
}

const OW_MAP: [[u8; 16]; 2] = [odd_wins_map(0), odd_wins_map(1)];

/// The solved table `r = 0..=horizon` for one variant and one take set.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The variant.
    pub variant: Variant,
    /// The take set, sorted, containing 1.
    pub takes: Vec<u32>,
    /// One byte per pile size (see the module documentation).
    pub bits: Vec<u8>,
    /// The proven period of `bits` (the article's modulus M), if found.
    pub period: Option<Period>,
}

/// Fills `bits[0..len]`.
pub fn table(variant: Variant, takes: &[u32], len: usize) -> Vec<u8> {
    assert!(takes.first() == Some(&1), "take sets contain 1");
    let even: Vec<usize> = takes
        .iter()
        .filter(|&&t| t % 2 == 0)
        .map(|&t| t as usize)
        .collect();
    let odd: Vec<usize> = takes
        .iter()
        .filter(|&&t| t % 2 == 1)
        .map(|&t| t as usize)
        .collect();
    let mut v = vec![0u8; len];
    if len == 0 {
        return v;
    }
    // r = 0: the holder of an odd hand (Odd in `sides`, the mover's x in `odd_wins`).
    v[0] = match variant {
        Variant::Sides => (0b1100 | 0b1100 << 4) & both(variant.possible(0)),
        Variant::OddWins => 0b1100 & variant.possible(0),
    };
    let smax = *takes.last().unwrap() as usize;
    for r in 1..len {
        // Takes that fit: all of them once r ≥ max(S).
        let (ev, od) = if r >= smax {
            (&even[..], &odd[..])
        } else {
            (
                &even[..even.partition_point(|&t| t <= r)],
                &odd[..odd.partition_point(|&t| t <= r)],
            )
        };
        let (mut or_e, mut and_e) = (0u8, 0xFFu8);
        for &t in ev {
            let x = v[r - t];
            or_e |= x;
            and_e &= x;
        }
        let (mut or_o, mut and_o) = (0u8, 0xFFu8);
        for &t in od {
            let x = v[r - t];
            or_o |= x;
            and_o &= x;
        }
        let possible = variant.possible(r as u64);
        v[r] = match variant {
            Variant::Sides => {
                // Odd to move (high nibble): some move reaches an Odd win with Even to move (low nibble).
                let om = (or_e & 0xF) | swap_a(or_o & 0xF);
                // Even to move (low nibble): every move reaches an Odd win with Odd to move (high nibble).
                let em = (and_e >> 4) & swap_b(and_o >> 4);
                ((om & possible) << 4) | (em & possible)
            }
            Variant::OddWins => {
                // The mover wins iff some take leaves the opponent in a lost
                // position: OR of NOT = NOT of AND, then the role swap.
                (OW_MAP[0][(!and_e & 0xF) as usize] | OW_MAP[1][(!and_o & 0xF) as usize]) & possible
            }
        };
    }
    v
}

/// The slot of a state in [`Solution::remoteness`].
pub fn slot(a: u8, b: u8, m: Mover) -> usize {
    4 * usize::from(m == Mover::B) + 2 * usize::from(a % 2) + usize::from(b % 2)
}

/// Bit `slot` set when the player to move at that slot wins, from a pile
/// size's byte (see the module documentation).
fn win_mask(variant: Variant, byte: u8) -> u8 {
    match variant {
        // A (Odd) to move: bit 4 + i; B (Even) to move wins when bit i is clear.
        Variant::Sides => (byte >> 4) | ((!byte & 0xF) << 4),
        Variant::OddWins => byte & 0xF,
    }
}

/// [`Solution::remoteness`] for the takes 1..k: the children of a take of
/// parity `q` lie at the piles `j ≡ r - q` in `[r - k, r - 1]`; one
/// monotone queue per child slot and pile parity keeps that window's
/// longest remoteness, another its shortest among the states lost for
/// their mover.
fn window_remoteness(rem: &mut [[u32; 8]], wins: &[u8], parents: &[(usize, [usize; 2])], k: usize) {
    use std::collections::VecDeque;
    let mut longest: Vec<VecDeque<(usize, u32)>> = vec![VecDeque::new(); 16];
    let mut shortest: Vec<VecDeque<(usize, u32)>> = vec![VecDeque::new(); 16];
    for r in 1..rem.len() {
        let j = r - 1;
        for (c, &v) in rem[j].iter().enumerate() {
            let q = 2 * c + j % 2;
            let l = &mut longest[q];
            while l.back().is_some_and(|&(_, x)| x <= v) {
                l.pop_back();
            }
            l.push_back((j, v));
            if wins[j] >> c & 1 == 0 {
                let s = &mut shortest[q];
                while s.back().is_some_and(|&(_, x)| x >= v) {
                    s.pop_back();
                }
                s.push_back((j, v));
            }
        }
        for d in longest.iter_mut().chain(shortest.iter_mut()) {
            while d.front().is_some_and(|&(i, _)| i + k < r) {
                d.pop_front();
            }
        }
        for &(p, child) in parents {
            // Take parity 0 (even) leaves the pile's parity, 1 (odd) flips it.
            let queue = |t: usize| 2 * child[t] + (r - t) % 2;
            let here = if wins[r] >> p & 1 == 1 {
                [0, 1]
                    .iter()
                    .filter_map(|&t| shortest[queue(t)].front().map(|x| x.1))
                    .min()
            } else {
                [0, 1]
                    .iter()
                    .filter_map(|&t| longest[queue(t)].front().map(|x| x.1))
                    .max()
            };
            rem[r][p] = 1 + here.unwrap_or(0);
        }
    }
}

/// The nibble mask duplicated into both nibbles.
#[inline]
fn both(m: u8) -> u8 {
    m | (m << 4)
}

/// Who is to move, named by the hand they hold in `(a, b, r)`: in `sides`
/// `a` is Odd's hand and `b` Even's; in `odd_wins` `a` is player A's and `b`
/// player B's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mover {
    /// The holder of `a` (Odd, or A).
    A,
    /// The holder of `b` (Even, or B).
    B,
}

impl Mover {
    /// The other player.
    pub fn other(self) -> Mover {
        match self {
            Mover::A => Mover::B,
            Mover::B => Mover::A,
        }
    }
}

/// The four kinds of state `(a, b, r)` (GAMES.md §2, report 001 §3 and §5),
/// from who wins when A moves next and who wins when B moves next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// A wins whoever moves next (an *absolute* safe state of A).
    AbsoluteA,
    /// B wins whoever moves next.
    AbsoluteB,
    /// Whoever moves next loses: safe for both (a *common* safe state).
    Common,
    /// Whoever moves next wins: safe for neither.
    Neither,
}

impl Class {
    /// The data spelling; `a`/`b` are the names of the two hands' holders.
    pub fn name(self, variant: Variant) -> &'static str {
        match (self, variant) {
            (Class::AbsoluteA, Variant::Sides) => "absolute_odd",
            (Class::AbsoluteB, Variant::Sides) => "absolute_even",
            (Class::AbsoluteA, Variant::OddWins) => "absolute_a",
            (Class::AbsoluteB, Variant::OddWins) => "absolute_b",
            (Class::Common, _) => "common",
            (Class::Neither, _) => "neither",
        }
    }
}

/// One safe state in periodic form: `(a, b, M·n + residue)` for every `n` with
/// `M·n + residue ≥ preperiod`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SafeState {
    /// Hand parity of A (Odd).
    pub a: u8,
    /// Hand parity of B (Even).
    pub b: u8,
    /// `r mod M`.
    pub residue: usize,
}

/// A pile size below the preperiod where the periodic form is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exception {
    /// Hand parity of A.
    pub a: u8,
    /// Hand parity of B.
    pub b: u8,
    /// The pile size.
    pub r: usize,
    /// Whether the state really is safe (the periodic form says the opposite).
    pub safe: bool,
}

/// The largest table computed while looking for a proof of the period.
pub const MAX_HORIZON: usize = 1 << 24;

/// The default number of pile sizes computed for period detection.
pub fn default_horizon(takes: &[u32]) -> usize {
    (64 * *takes.last().unwrap() as usize + 64).max(1024)
}

impl Solution {
    /// Solves `r = 0..=horizon` (at least), extending the table (×4 at a time,
    /// up to [`MAX_HORIZON`]) until the period of the joint state is proven.
    /// `progress` receives the number of pile sizes computed.
    pub fn solve(
        variant: Variant,
        takes: &[u32],
        horizon: usize,
        progress: &dyn Fn(u64),
    ) -> Solution {
        let w = *takes.last().unwrap() as usize;
        let mut len = horizon.max(default_horizon(takes)) + 1;
        loop {
            let bits = table(variant, takes, len);
            progress(len as u64);
            let state = joint_state(&bits);
            let witness = period::proven_state_period(&state, w, w);
            if witness.is_some() || len > MAX_HORIZON {
                let period = witness.and_then(|wt| period::period_of(&state, Some(wt)));
                return Solution {
                    variant,
                    takes: takes.to_vec(),
                    bits,
                    period,
                };
            }
            len = (len * 4).min(MAX_HORIZON + 1);
        }
    }

    /// Largest take.
    pub fn max_take(&self) -> usize {
        *self.takes.last().unwrap() as usize
    }

    /// Last computed pile size.
    pub fn end(&self) -> usize {
        self.bits.len() - 1
    }

    /// The byte of pile size `r`, using the proven period beyond the table.
    pub fn byte(&self, r: u64) -> Option<u8> {
        if r < self.bits.len() as u64 {
            return Some(self.bits[r as usize]);
        }
        let p = self
            .period
            .as_ref()
            .filter(|p| p.status == Status::Proven)?;
        Some(self.bits[p.reduce(r)])
    }

    /// Does the player to move win at `(a, b, r)`? `None` beyond the table
    /// when no period is proven. For `sides`, `a + b + r` must be even; for
    /// `odd_wins`, odd (impossible states read as lost for the mover).
    pub fn wins(&self, a: u64, b: u64, r: u64, mover: Mover) -> Option<bool> {
        let byte = self.byte(r)?;
        let (a, b) = ((a % 2) as u8, (b % 2) as u8);
        Some(match self.variant {
            Variant::Sides => {
                let i = 2 * a + b;
                match mover {
                    Mover::A => byte >> (4 + i) & 1 == 1,
                    Mover::B => byte >> i & 1 == 0,
                }
            }
            Variant::OddWins => {
                let i = match mover {
                    Mover::A => 2 * a + b,
                    Mover::B => 2 * b + a,
                };
                byte >> i & 1 == 1
            }
        })
    }

    /// Smith's remoteness of every state for `r = 0..len`: the number of
    /// moves to the end of the game when the winner ends it as fast as
    /// possible and the loser delays it as long as possible (0 at an empty
    /// pile). Slot `4m + 2a + b`, `m` = 0 when A (Odd) moves, 1 when B
    /// (Even) moves; `odd_wins` uses the slots of A, `a` the mover's hand.
    /// `None` beyond the table when no period is proven. A take set 1..k
    /// keeps, per child slot and parity of the pile, the window's longest
    /// and shortest lost remoteness (monotone queues: `O(len)` for any k);
    /// another set tries every take.
    pub fn remoteness(&self, len: usize) -> Option<Vec<[u32; 8]>> {
        let wins: Vec<u8> = (0..len as u64)
            .map(|r| self.byte(r).map(|x| win_mask(self.variant, x)))
            .collect::<Option<_>>()?;
        let parents: Vec<(usize, [usize; 2])> = self
            .slots()
            .into_iter()
            .map(|(a, b, m)| {
                let child = |t| {
                    let (ca, cb, cm) = self.after_take(a, b, m, t);
                    slot(ca, cb, cm)
                };
                (slot(a, b, m), [child(2), child(1)])
            })
            .collect();
        let mut rem = vec![[0u32; 8]; len];
        match self.takes.len() == self.max_take() {
            true => window_remoteness(&mut rem, &wins, &parents, self.max_take()),
            false => {
                for r in 1..len {
                    for &(p, child) in &parents {
                        let (mut best, mut longest) = (u32::MAX, 0u32);
                        for &t in self.takes.iter().take_while(|&&t| t as usize <= r) {
                            let (j, c) = (r - t as usize, child[(t % 2) as usize]);
                            longest = longest.max(rem[j][c]);
                            if wins[j] >> c & 1 == 0 {
                                best = best.min(rem[j][c]);
                            }
                        }
                        rem[r][p] = 1 + if wins[r] >> p & 1 == 1 { best } else { longest };
                    }
                }
            }
        }
        Some(rem)
    }

    /// Every (hand parity, hand parity, mover) a row can have: both movers
    /// in `sides`, the mover A (whose hand is `a`) in `odd_wins`.
    fn slots(&self) -> Vec<(u8, u8, Mover)> {
        let movers: &[Mover] = match self.variant {
            Variant::Sides => &[Mover::A, Mover::B],
            Variant::OddWins => &[Mover::A],
        };
        let mut v = Vec::new();
        for &m in movers {
            for (a, b) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                v.push((a, b, m));
            }
        }
        v
    }

    /// The hand parities and the mover after the mover at `(a, b)` takes
    /// `t` (in `odd_wins` the new mover's hand first, as A's).
    fn after_take(&self, a: u8, b: u8, m: Mover, t: u32) -> (u8, u8, Mover) {
        let f = (t % 2) as u8;
        match (self.variant, m) {
            (Variant::Sides, Mover::A) => (a ^ f, b, Mover::B),
            (Variant::Sides, Mover::B) => (a, b ^ f, Mover::A),
            (Variant::OddWins, _) => (b, a ^ f, Mover::A),
        }
    }

    /// The winning takes of the player to move.
    pub fn winning_takes(&self, a: u64, b: u64, r: u64, mover: Mover) -> Option<Vec<u32>> {
        if r < self.bits.len() as u64 {
            return Some(self.winning_takes_in_table(a, b, r as usize, mover));
        }
        let mut out = Vec::new();
        for &t in &self.takes {
            let t64 = t as u64;
            if t64 > r {
                break;
            }
            let (na, nb) = match mover {
                Mover::A => (a + t64, b),
                Mover::B => (a, b + t64),
            };
            if !self.wins(na, nb, r - t64, mover.other())? {
                out.push(t);
            }
        }
        Some(out)
    }

    /// [`Self::winning_takes`] inside the table: for each parity of the take,
    /// the one bit of the child's byte that decides, and the value that means
    /// "the opponent loses there".
    fn winning_takes_in_table(&self, a: u64, b: u64, r: usize, mover: Mover) -> Vec<u32> {
        let (a, b) = ((a % 2) as u32, (b % 2) as u32);
        let probe = |p: u32| -> (u32, u8) {
            match (self.variant, mover) {
                // Odd moves to (a^p, b), Even to move: Odd wins iff its low bit is set.
                (Variant::Sides, Mover::A) => (2 * (a ^ p) + b, 1),
                // Even moves to (a, b^p), Odd to move: Even wins iff its high bit is clear.
                (Variant::Sides, Mover::B) => (4 + 2 * a + (b ^ p), 0),
                // A moves; B is then the mover with hands (b, a^p): A wins iff B loses.
                (Variant::OddWins, Mover::A) => (2 * b + (a ^ p), 0),
                (Variant::OddWins, Mover::B) => (2 * a + (b ^ p), 0),
            }
        };
        let tests = [probe(0), probe(1)];
        let mut out = Vec::new();
        for &t in &self.takes {
            let tu = t as usize;
            if tu > r {
                break;
            }
            let (shift, want) = tests[(t & 1) as usize];
            if (self.bits[r - tu] >> shift) & 1 == want {
                out.push(t);
            }
        }
        out
    }

    /// The kind of the state `(a, b, r)`.
    pub fn class(&self, a: u64, b: u64, r: u64) -> Option<Class> {
        let wa = self.wins(a, b, r, Mover::A)?;
        let wb = self.wins(a, b, r, Mover::B)?;
        Some(match (wa, wb) {
            (true, false) => Class::AbsoluteA,
            (false, true) => Class::AbsoluteB,
            (false, false) => Class::Common,
            (true, true) => Class::Neither,
        })
    }

    /// Is `(a, b, r)` safe for `side` (the player who has just moved there wins)?
    /// For `odd_wins` the side is the player holding `a`.
    pub fn is_safe(&self, a: u8, b: u8, r: usize, side: Mover) -> bool {
        !self
            .wins(a as u64, b as u64, r as u64, side.other())
            .unwrap_or(false)
    }

    /// Possible hand parities `(a, b)` at pile size `r`.
    pub fn hands(&self, r: usize) -> [(u8, u8); 2] {
        if self.variant.possible(r as u64) == 0b1001 {
            [(0, 0), (1, 1)]
        } else {
            [(0, 1), (1, 0)]
        }
    }

    /// The safe states of `side` in periodic form (sorted by a, b, residue) and
    /// the exceptions below the preperiod. `None` without a proven period.
    pub fn safe_states(&self, side: Mover) -> Option<(Vec<SafeState>, Vec<Exception>)> {
        let p = self.period.as_ref()?;
        let (n0, m) = (p.preperiod, p.period);
        let mut list = Vec::new();
        for r in n0..n0 + m {
            for (a, b) in self.hands(r) {
                if self.is_safe(a, b, r, side) {
                    list.push(SafeState {
                        a,
                        b,
                        residue: r % m,
                    });
                }
            }
        }
        list.sort();
        let mut exc = Vec::new();
        for r in 0..n0 {
            let twin = n0 + (r + m - n0 % m) % m;
            for (a, b) in self.hands(r) {
                let actual = self.is_safe(a, b, r, side);
                if actual != self.is_safe(a, b, twin, side) {
                    exc.push(Exception {
                        a,
                        b,
                        r,
                        safe: actual,
                    });
                }
            }
        }
        Some((list, exc))
    }
}

/// The joint state of the recurrence at each `r`: the byte and `r mod 2`.
pub fn joint_state(bits: &[u8]) -> Vec<u16> {
    bits.iter()
        .enumerate()
        .map(|(r, &b)| b as u16 | ((r as u16 & 1) << 8))
        .collect()
}

/// `M·n + c` as the article writes it (`8n`, `8n+4`).
pub fn residue_text(m: usize, c: usize) -> String {
    if c == 0 {
        format!("{m}n")
    } else {
        format!("{m}n+{c}")
    }
}

/// `(a,b,Mn+c)`.
pub fn state_text(s: &SafeState, m: usize) -> String {
    format!("({},{},{})", s.a, s.b, residue_text(m, s.residue))
}

/// Report 001 §6 for `sides` with takes 1..k: the modulus and the safe states
/// of Odd and of Even, in periodic form.
pub fn article_claim(k: usize) -> (usize, Vec<SafeState>, Vec<SafeState>) {
    let s = |a, b, residue| SafeState { a, b, residue };
    let (m, mut odd, mut even) = if k.is_multiple_of(2) {
        let m = k + 2;
        (
            m,
            vec![s(0, 1, k + 1), s(1, 0, 1), s(1, 1, 0)],
            vec![s(0, 1, k + 1), s(1, 0, 1), s(0, 0, 0)],
        )
    } else {
        let m = 2 * (k + 1);
        (
            m,
            vec![s(0, 0, k + 1), s(0, 1, k + 2), s(1, 0, 1), s(1, 1, 0)],
            vec![s(1, 1, k + 1), s(0, 1, k + 2), s(1, 0, 1), s(0, 0, 0)],
        )
    };
    odd.sort();
    even.sort();
    (m, odd, even)
}
