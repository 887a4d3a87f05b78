//! A proof of the period of a no-repeat heap's losses by induction on the
//! losses alone, for the take sets whose joint state repeats only far beyond
//! the losses' own period (take 1..114 with no repeat: losses every 115 heaps
//! from the start, the joint state's window first repeats past N = 1.8·10⁶).
//!
//! One heap, normal play, `no_repeat`, a finite take set `S` with largest take
//! `m`. Write `W(x)` for the takes `u` with `(x − u, last = u)` a P-position.
//! From `(x, last = c)` the mover wins iff `W(x)` has a take other than `c`,
//! so the start `x` is a loss iff `W(x)` is empty, and `(x, last = u)` is a
//! P-position iff `W(x) ⊆ {u}`. Take a pattern of losses `Λ` (the computed
//! losses up to the horizon `L`, then their period `p` from the preperiod `a`)
//! and, for each heap `x`, the takes `λ(x) = {u ∈ S, u ≤ x : x − u ∈ Λ}`.
//! Suppose the losses below `h` are exactly `Λ`'s. Then `λ(x) ⊆ W(x)` for
//! every `x < h` (a loss `x − u` leaves `W = ∅ ⊆ {u}`), and:
//! - if `h ∉ Λ` and `λ(h)` is not empty, `h` is a win (a take to a loss);
//! - if `h ∈ Λ` and every take `t ≤ h` leaves `x = h − t ∉ Λ` with `λ(x)`
//!   holding a take other than `t`, every move from `h` leaves a win for the
//!   opponent, so `h` is a loss.
//!
//! The losses up to `L` are computed, so the step is needed beyond `L` only.
//! From `h ≥ a + 2m` on, every heap the step reads lies in the periodic part
//! and every take fits, so the step at `h + p` reads what it reads at `h`:
//! checking it for `h` in `[L + 1, max(L + 1, a + 2m) + p)` proves it for
//! every `h > L`, and the losses are `Λ` forever: period `p`, preperiod `a`.
//!
//! The step is sufficient, not necessary (a loss `h` may have a take `t` to a
//! heap whose only witnessed winning take is `t`, yet another winning take
//! that `λ` does not see); when it fails, the caller looks for the joint
//! state's window instead.

use crate::period;

/// The losses' period and preperiod `(p, a)`, proven for every heap, when the
/// induction above holds for the losses `is_p` computed on `0..=L` (normal
/// play, `no_repeat`, take set `takes` ascending and finite).
pub fn loss_period(takes: &[u32], is_p: &[bool]) -> Option<(usize, usize)> {
    let m = *takes.last()? as usize;
    let per = period::observed_period(is_p)?;
    let (p, a, l) = (per.period, per.preperiod, is_p.len() - 1);
    let start = l + 1;
    let end = start.max(a + 2 * m) + p;
    let in_pattern = |x: usize| {
        if x <= l {
            is_p[x]
        } else {
            is_p[a + (x - a) % p]
        }
    };
    // λ(x) for x in [start - m, end): its size (capped at 2) and its one take.
    let lo = start.saturating_sub(m);
    let lambda: Vec<(u8, u32)> = (lo..end)
        .map(|x| {
            let mut found = (0u8, 0u32);
            for &u in takes.iter().take_while(|&&u| u as usize <= x) {
                if in_pattern(x - u as usize) {
                    found = (found.0 + 1, u);
                    if found.0 == 2 {
                        break;
                    }
                }
            }
            found
        })
        .collect();
    let lam = |x: usize| lambda[x - lo];
    let step_holds = |h: usize| {
        if !in_pattern(h) {
            return lam(h).0 > 0;
        }
        takes.iter().take_while(|&&t| t as usize <= h).all(|&t| {
            let x = h - t as usize;
            let (count, only) = lam(x);
            !in_pattern(x) && (count >= 2 || (count == 1 && only != t))
        })
    };
    (start..end).all(step_holds).then_some((p, a))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Start positions of one heap, normal play, no repeat, by brute force
    /// over the states `(x, last)` straight from the rules.
    fn brute_losses(takes: &[u32], len: usize) -> Vec<bool> {
        let m = *takes.last().unwrap() as usize;
        // p[x][c]: is (x, last = c) a P-position (c = 0: no last take).
        let mut p = vec![vec![false; m + 1]; len];
        for x in 0..len {
            for c in 0..=m {
                p[x][c] = !takes
                    .iter()
                    .any(|&t| t as usize <= x && t as usize != c && p[x - t as usize][t as usize]);
            }
        }
        p.iter().map(|row| row[0]).collect()
    }

    #[test]
    fn take_one_to_even_n_losses_are_the_multiples_of_n_plus_one() {
        // By hand (report 004's argument): from k(n+1) + u take u; from k(n+1)
        // every take t leaves a heap whose residue n + 1 − t ≠ t wins.
        for n in [2u32, 4, 6, 114] {
            let takes: Vec<u32> = (1..=n).collect();
            let len = 8 * (n as usize + 1);
            let is_p: Vec<bool> = (0..len).map(|x| x % (n as usize + 1) == 0).collect();
            assert_eq!(
                loss_period(&takes, &is_p),
                Some((n as usize + 1, 0)),
                "n = {n}"
            );
        }
    }

    #[test]
    fn a_wrong_pattern_is_not_proven() {
        // Take 1..2 with no repeat: the brute force gives losses 0, 3, 6, …;
        // losses every 4 are not a pattern the step can carry.
        let takes = [1u32, 2];
        let is_p: Vec<bool> = (0..40).map(|x| x % 4 == 0).collect();
        assert_eq!(loss_period(&takes, &is_p), None);
    }

    #[test]
    fn every_proof_agrees_with_brute_force_far_beyond_the_horizon() {
        // Every take set within 1..9 and horizons from 12 heaps on (short
        // ones show periods that do not last): whenever the step proves a
        // period, the brute force to 3000 follows it.
        let (mut proven, mut tried) = (0, 0);
        for mask in 1u32..512 {
            let takes: Vec<u32> = (1..=9).filter(|t| mask & (1 << (t - 1)) != 0).collect();
            let far = brute_losses(&takes, 3000);
            for len in (12..=150).step_by(3) {
                tried += 1;
                if let Some((p, a)) = loss_period(&takes, &far[..len]) {
                    proven += 1;
                    for x in a..3000 - p {
                        assert_eq!(far[x], far[x + p], "S = {takes:?}, horizon {len}, x = {x}");
                    }
                }
            }
        }
        assert!(3 * proven > tried, "only {proven} of {tried} proven");
    }
}
