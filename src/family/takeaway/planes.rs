//! Two-heap loss sets (and planes of three-heap ones) as grids for the
//! lattice detector of [`crate::lattice`], and the proof of their lattice
//! when the game is a sum of one-heap games.
//!
//! * [`two_heap_grid`]: the P-positions `(N1, N2)` at the start of a game,
//!   `0 ≤ N1, N2 ≤ n`, from the joint-state solver (any rule).
//! * [`three_heap_planes`]: the same for three heaps, one grid per plane
//!   `N3 = c`.
//! * [`sum_proof`]: for normal play without `no_repeat` the two-heap game is
//!   the sum of two one-heap games, so the proven one-heap Grundy period gives
//!   a proven lattice ([`crate::lattice::proven_for_sum`]).
//! * [`loss_structure`]: proven when a proof exists, observed otherwise;
//!   [`loss_model`] also looks at the two sectors beside the diagonal.

use crate::game::Play;
use crate::lattice::{self, Grid, Model, Proof, Structure};
use crate::period::Status as PeriodStatus;

use super::one_heap::PROOF_CAP;
use super::solver::Joint;
use super::{OneHeap, Rule};

/// The joint-state solution for `heaps` heaps of `0..=n` stones each.
pub fn solve_heaps(rule: &Rule, heaps: usize, n: usize) -> Joint {
    let takes = rule.take.takes(n);
    Joint::solve(
        &vec![n + 1; heaps],
        &takes,
        rule.play,
        rule.no_repeat,
        &|_| {},
    )
}

/// The two-heap loss set on `[0, n]²`: `(x, y)` is in it when `(N1, N2) =
/// (x, y)` is a P-position at the start of a game.
pub fn two_heap_grid(rule: &Rule, n: usize) -> Grid {
    let j = solve_heaps(rule, 2, n);
    Grid::from_fn(n + 1, n + 1, |x, y| j.start_is_p(&[x, y]))
}

/// The planes `N3 = c` (`c = 0..=n`) of the three-heap loss set on `[0, n]³`,
/// as grids over `(N1, N2)`.
pub fn three_heap_planes(rule: &Rule, n: usize) -> Vec<Grid> {
    let j = solve_heaps(rule, 3, n);
    (0..=n)
        .map(|c| Grid::from_fn(n + 1, n + 1, |x, y| j.start_is_p(&[x, y, c])))
        .collect()
}

/// The proof of the two-heap lattice for rules whose two-heap game is a sum
/// of one-heap games (normal play without `no_repeat`, finite take set): the
/// one-heap Grundy sequence, computed to `horizon` and further (up to
/// [`PROOF_CAP`]) until its proof window appears, has a proven period.
pub fn sum_proof(rule: &Rule, horizon: usize) -> Option<Proof> {
    if rule.play != Play::Normal || rule.no_repeat {
        return None;
    }
    rule.take.max_take()?;
    let one = OneHeap::solve_proving(rule, horizon, PROOF_CAP, &|_| {});
    let (_, per) = one.periods().into_iter().find(|(k, _)| *k == "grundy")?;
    let per = per.filter(|p| p.status == PeriodStatus::Proven)?;
    let h = (per.preperiod, per.period);
    Some(lattice::proven_for_sum(h, h))
}

/// The structure of the two-heap loss set on `[0, n]²`: proven (from the
/// one-heap Grundy period) for sums, observed otherwise; `None` when the
/// box shows no lattice.
pub fn loss_structure(rule: &Rule, n: usize) -> Option<Structure> {
    let g = two_heap_grid(rule, n);
    match sum_proof(rule, n.max(64)) {
        Some(proof) => lattice::prove(&g, &proof),
        None => lattice::detect(&g),
    }
}

/// The model of the two-heap loss set on `[0, n]²`: the proven quadrant
/// lattice for sums, else the observed quadrant or sector structure
/// ([`lattice::analyse`]).
pub fn loss_model(rule: &Rule, n: usize) -> Option<Model> {
    let g = two_heap_grid(rule, n);
    match sum_proof(rule, n.max(64)) {
        Some(proof) => lattice::prove(&g, &proof).map(Model::Quadrant),
        None => lattice::analyse(&g),
    }
}

#[cfg(test)]
mod tests {
    use super::super::TakeForm;
    use super::super::solver::grundy_sequence;
    use super::*;
    use crate::lattice::{Lattice, Status};

    fn rule(m: u32, n: u32, no_repeat: bool, play: Play) -> Rule {
        Rule {
            take: TakeForm::Range(m, n),
            play,
            no_repeat,
        }
    }

    /// The invariance group of `G(x) = G(y)` for `G` periodic from `t` with
    /// period `p`: the vectors `(i, j)` with `G(x+i) = G(y+j) ⇔ G(x) = G(y)`
    /// on one period, in Hermite normal form.
    fn relation_lattice(g: &[u32], t: usize, p: usize) -> Lattice {
        let v = |x: usize| g[t + (x - t) % p];
        let inv = |i: usize, j: usize| {
            (t..t + p).all(|x| (t..t + p).all(|y| (v(x + i) == v(y + j)) == (v(x) == v(y))))
        };
        let pp = (1..=p).find(|&i| inv(i, 0)).unwrap();
        for q in 1..=p {
            if let Some(a) = (0..pp).find(|&a| inv(a, q)) {
                return Lattice::new(pp, a, q);
            }
        }
        unreachable!("(0, p) is in the group")
    }

    /// Take 1..n, normal play: G(x) = x mod (n+1), L = {x ≡ y mod (n+1)}:
    /// the lattice ⟨(n+1, 0), (1, 1)⟩ from (0, 0), proven; one member per
    /// tile (report 004's two-heap Cond(1) result).
    #[test]
    fn cond1_sums_have_the_diagonal_lattice() {
        for n in 1..=9 {
            let s = loss_structure(&rule(1, n, false, Play::Normal), 120).unwrap();
            assert_eq!(s.lattice, Lattice::new(n as usize + 1, 1, 1), "n = {n}");
            assert_eq!(s.corner, (0, 0));
            assert_eq!(s.status, Status::Proven);
            assert_eq!(s.members(), 1);
        }
    }

    /// Sums of one-heap games with take sets of every shape: the grid from
    /// the joint solver equals `G(x) = G(y)` from `grundy_sequence`, and the
    /// proven lattice is the invariance group of that relation on one period
    /// (computed directly from the Grundy values).
    #[test]
    fn sums_match_grundy_sequences() {
        let sets: Vec<TakeForm> = vec![
            TakeForm::Range(2, 3),
            TakeForm::Range(3, 7),
            TakeForm::Set(vec![1, 3, 4]),
            TakeForm::Set(vec![2, 5, 6]),
            TakeForm::Set(vec![1, 4, 9]),
        ];
        for take in sets {
            let r = Rule {
                take: take.clone(),
                play: Play::Normal,
                no_repeat: false,
            };
            let n = 150;
            let g = grundy_sequence(&take.takes(n), n + 1).to_vec();
            let grid = two_heap_grid(&r, n);
            assert_eq!(
                grid,
                Grid::from_fn(n + 1, n + 1, |x, y| g[x] == g[y]),
                "{take:?}"
            );
            let proof = sum_proof(&r, 400).unwrap();
            let (t, p) = (proof.corner.0, proof.lattice.p);
            let long = grundy_sequence(&take.takes(400), 401).to_vec();
            assert!((t..=400 - p).all(|x| long[x + p] == long[x]), "{take:?}");
            let s = lattice::prove(&grid, &proof).unwrap();
            assert_eq!(s.status, Status::Proven);
            assert_eq!(s.lattice, relation_lattice(&long, t, p), "{take:?}");
            assert_eq!(lattice::detect(&grid).unwrap().lattice, s.lattice);
        }
    }

    /// Cond(1,3) with n even (report 004, proven there by a strategy
    /// argument): the two-heap losses are `(i(n+1), j(n+1))`; the detector
    /// sees the lattice `(n+1)ℤ²` from the origin, one member per tile.
    #[test]
    fn cond13_even_n_is_the_square_lattice() {
        for n in [2u32, 4, 6, 8] {
            let r = rule(1, n, true, Play::Normal);
            let g = two_heap_grid(&r, 200);
            let k = n as usize + 1;
            assert_eq!(g, Grid::from_fn(201, 201, |x, y| x % k == 0 && y % k == 0));
            let s = loss_structure(&r, 200).unwrap();
            assert_eq!(s.status, Status::Observed);
            assert_eq!(s.lattice, Lattice::new(k, 0, k));
            assert_eq!(s.corner, (0, 0));
            assert_eq!(s.members(), 1);
        }
    }

    /// A plane of a three-heap loss set is the two-heap set when the third
    /// heap is empty.
    #[test]
    fn plane_zero_is_the_two_heap_set() {
        let r = rule(2, 5, true, Play::Normal);
        let planes = three_heap_planes(&r, 30);
        assert_eq!(planes.len(), 31);
        assert_eq!(planes[0], two_heap_grid(&r, 30));
    }
}
