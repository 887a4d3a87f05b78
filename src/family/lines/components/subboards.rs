//! The component solver's work ([`crate::family::lines::components`]), counted without
//! solving: the connected sub-boards it evaluates.
//!
//! Under a rule that takes single pieces (`max: P`, `any`) every connected
//! set of pieces is a component of some reachable position, and the solver
//! evaluates each class of them (the same shape up to translation and the 12
//! lattice symmetries) once: it examines the legal moves inside it (each
//! leaves a position split into components, looked up in the memo) and puts
//! its value in the memo. So its work is, per class of connected sub-boards
//! of at least two pieces (a lone piece is not memoised) other than the
//! whole board (not memoised either), the moves inside it.
//!
//! The sub-boards are listed once each (Redelmeier's method: grown from their
//! lowest piece, each neighbour either added or excluded for good). A class
//! is counted by one translate of it: the sub-boards that cannot be moved one
//! step left, down or down-right inside the board (on a board cut by three
//! strips, the hexagon family, the translates of a shape that fit form such
//! a region too, and exactly one of them is its lowest, leftmost point), and
//! divided by the board's own symmetries: shapes that also fit turned another
//! way make it more than the classes, shapes symmetric themselves less (on
//! the boards of the hexagon family from 10 pieces up, within 0.8 to 1.6
//! times the classes the solver memoises, up to 2.2 on a pentagon, which has
//! no symmetry but many of whose shapes fit turned: a test holds it).
//!
//! Under `take: maximal` a piece goes only with its whole run, so far fewer
//! sub-boards are reached: the count of connected sub-boards is then a bound.
//!
//! A board with more than [`CAP`] sub-boards (the triangle of 7 rows has
//! tens of millions) is not listed whole: the pieces whose sub-boards were
//! listed within the cap count exactly, and the others are estimated by
//! random descents of the listing's tree (Knuth's estimator of a search
//! tree's size: each node met on a descent counts the product of the
//! branchings above it, an unbiased estimate of the nodes at its depth).

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::family::lines::board::{Board, NEIGHBOURS, Shape, transform};
use crate::family::lines::rules::{Take, moves};

/// Sub-boards listed at most; beyond, the count is a lower bound.
pub const CAP: u64 = 4_000_000;

/// What the component solver evaluates on one board under one rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubBoards {
    /// Connected sub-boards of at least two pieces, not the whole board.
    pub connected: u64,
    /// Their classes (estimated: the translates counted once, over the
    /// board's symmetries).
    pub classes: u64,
    /// The legal moves inside those classes' sub-boards (estimated alike).
    pub moves: u64,
    /// Every sub-board listed (false: past [`CAP`], the rest estimated by
    /// random descents, [`DESCENTS`]).
    pub complete: bool,
    /// The sub-boards at their lowest translate (not moved one step left,
    /// down or down-right inside the board), and the moves inside them.
    pub lowest: (u64, u64),
}

/// [`count`] of a shape's board, once per process (the dry run, the guard
/// and the progress bar each ask).
pub fn of_shape(shape: &Shape, take: Take) -> SubBoards {
    static SEEN: Mutex<Option<FxHashMap<(String, Take), SubBoards>>> = Mutex::new(None);
    let key = (shape.text(), take);
    if let Some(c) = SEEN.lock().unwrap().get_or_insert_default().get(&key) {
        return *c;
    }
    let c = count(&shape.board(), take);
    SEEN.lock().unwrap().get_or_insert_default().insert(key, c);
    c
}

/// The component solver's work units on a board: each class's moves, and
/// its canonical form (12 passes over its pieces) as 12.
pub fn work(c: &SubBoards) -> u64 {
    c.moves.saturating_add(c.classes.saturating_mul(12))
}

/// Counts the component solver's work on `board` under `take`; boards of
/// at most 64 pieces.
pub fn count(board: &Board, take: Take) -> SubBoards {
    count_within(board, take, CAP)
}

/// [`count`], listing at most `cap` sub-boards (the rest estimated).
fn count_within(board: &Board, take: Take, cap: u64) -> SubBoards {
    let n = board.len();
    assert!(n <= 64);
    let bit = |p| board.index(p).map_or(0u64, |i| 1u64 << i);
    let nbr: Vec<u64> = board
        .points
        .iter()
        .map(|&(q, r)| {
            NEIGHBOURS
                .iter()
                .fold(0, |a, &(dq, dr)| a | bit((q + dq, r + dr)))
        })
        .collect();
    // Pieces on the left, lower and lower-right edges: a sub-board touching
    // all three cannot be moved one step that way.
    let edge = |dq: i32, dr: i32| {
        board
            .points
            .iter()
            .enumerate()
            .filter(|&(_, &(q, r))| board.index((q + dq, r + dr)).is_none())
            .fold(0u64, |a, (i, _)| a | 1 << i)
    };
    let edges = [edge(-1, 0), edge(0, -1), edge(1, -1)];
    let mut masks: Vec<u64> = moves(board, take).iter().map(|m| m.mask).collect();
    masks.sort_unstable();
    masks.dedup();
    let by_piece: Vec<Vec<u64>> = (0..n)
        .map(|i| masks.iter().copied().filter(|m| m >> i & 1 == 1).collect())
        .collect();
    let mut walk = Walk {
        nbr: &nbr,
        by_piece: &by_piece,
        edges,
        full: board.full(),
        cap,
        visits: 0,
        connected: 0,
        shapes: 0,
        moves: 0,
    };
    for v in 0..n {
        let listed = (walk.connected, walk.shapes, walk.moves);
        if !walk.grow_from(v) {
            // Past the cap: the pieces from `v` on are estimated.
            (walk.connected, walk.shapes, walk.moves) = listed;
            let [c, s, m] = walk.estimate_from(v, DESCENTS);
            walk.connected += c.round() as u64;
            walk.shapes += s.round() as u64;
            walk.moves += m.round() as u64;
            break;
        }
    }
    let sym = symmetries(board);
    SubBoards {
        connected: walk.connected,
        classes: walk.shapes.div_ceil(sym),
        moves: walk.moves.div_ceil(sym),
        complete: walk.visits <= cap,
        lowest: (walk.shapes, walk.moves),
    }
}

/// The listing's state.
struct Walk<'a> {
    nbr: &'a [u64],
    by_piece: &'a [Vec<u64>],
    edges: [u64; 3],
    full: u64,
    /// Sub-boards listed at most ([`CAP`]).
    cap: u64,
    visits: u64,
    connected: u64,
    /// Sub-boards at their lowest translate.
    shapes: u64,
    /// Moves inside those.
    moves: u64,
}

/// Random descents per board whose sub-boards pass [`CAP`], spread over
/// the pieces not listed (a few hundredths of a second on a triangle of 7
/// rows; the estimate within 20 % of the listing, see the tests).
pub const DESCENTS: u64 = 1 << 18;

impl Walk<'_> {
    /// Lists the sub-boards grown from piece `v` (their lowest); false once
    /// [`CAP`] is passed.
    fn grow_from(&mut self, v: usize) -> bool {
        let below = (1u64 << v) - 1;
        let seen = below | 1 << v | self.nbr[v];
        let own = self.by_piece[v].iter().filter(|&&m| m == 1 << v).count() as u64;
        self.grow(1 << v, own, self.nbr[v] & !below, seen)
    }

    /// Estimates `(connected, shapes, moves)` of the sub-boards grown from
    /// pieces `from..`, by `descents` random descents spread evenly over
    /// those pieces (a fixed seed: the same board gives the same figures).
    fn estimate_from(&self, from: usize, descents: u64) -> [f64; 3] {
        let n = self.nbr.len();
        let each = (descents / (n - from).max(1) as u64).max(16);
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut total = [0.0; 3];
        for v in from..n {
            let mut sum = [0.0; 3];
            for _ in 0..each {
                let d = self.descend(v, &mut rng);
                sum.iter_mut().zip(d).for_each(|(a, x)| *a += x);
            }
            let mean = sum.map(|x| x / each as f64);
            total.iter_mut().zip(mean).for_each(|(a, x)| *a += x);
        }
        total
    }

    /// One random descent of [`Walk::grow`]'s tree from piece `v`: at each
    /// sub-board one of its children at random; each sub-board met counts
    /// the product of the numbers of children above it (Knuth's estimator).
    fn descend(&self, v: usize, rng: &mut u64) -> [f64; 3] {
        let below = (1u64 << v) - 1;
        let mut seen = below | 1 << v | self.nbr[v];
        let mut s = 1u64 << v;
        let mut inside = self.by_piece[v].iter().filter(|&&m| m == 1 << v).count() as u64;
        let mut untried = self.nbr[v] & !below;
        let (mut weight, mut acc) = (1.0, [0.0; 3]);
        loop {
            if s.count_ones() >= 2 && s != self.full {
                acc[0] += weight;
                if self.edges.iter().all(|&e| s & e != 0) {
                    acc[1] += weight;
                    acc[2] += weight * inside as f64;
                }
            }
            let k = untried.count_ones();
            if k == 0 {
                return acc;
            }
            // The child adding the `pick`-th lowest untried piece `u` tries
            // the untried pieces above `u` and `u`'s unseen neighbours.
            let mut rest = untried;
            for _ in 0..splitmix(rng) % u64::from(k) {
                rest &= rest - 1;
            }
            let u = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            s |= 1 << u;
            inside += self.by_piece[u].iter().filter(|&&m| m & !s == 0).count() as u64;
            let new = self.nbr[u] & !seen;
            untried = rest | new;
            seen |= new;
            weight *= f64::from(k);
        }
    }

    /// Visits `s` (with `inside` moves inside it) and every connected
    /// sub-board grown from it by pieces of `untried` and their unseen
    /// neighbours; false once [`CAP`] is passed.
    fn grow(&mut self, s: u64, inside: u64, mut untried: u64, seen: u64) -> bool {
        self.visits += 1;
        if self.visits > self.cap {
            return false;
        }
        if s.count_ones() >= 2 && s != self.full {
            self.connected += 1;
            if self.edges.iter().all(|&e| s & e != 0) {
                self.shapes += 1;
                self.moves += inside;
            }
        }
        while untried != 0 {
            let u = untried.trailing_zeros() as usize;
            untried &= untried - 1;
            let t = s | 1 << u;
            let added = self.by_piece[u].iter().filter(|&&m| m & !t == 0).count() as u64;
            let new = self.nbr[u] & !seen;
            if !self.grow(t, inside + added, untried | new, seen | new) {
                return false;
            }
        }
        true
    }
}

/// The next number of the splitmix64 sequence in `state`.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The lattice symmetries that map the board onto itself (translated): 1
/// to 12.
pub fn symmetries(board: &Board) -> u64 {
    let norm = |mut pts: Vec<(i32, i32)>| {
        let q0 = pts.iter().map(|p| p.0).min().unwrap_or(0);
        let r0 = pts.iter().map(|p| p.1).min().unwrap_or(0);
        for p in &mut pts {
            *p = (p.0 - q0, p.1 - r0);
        }
        pts.sort_unstable();
        pts
    };
    let own = norm(board.points.clone());
    (0..12)
        .filter(|&t| norm(board.points.iter().map(|&p| transform(t, p)).collect()) == own)
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::lines::board::parse_mask;
    use crate::family::lines::components::Components;
    use std::sync::atomic::Ordering;

    fn mask(rows: &[&str]) -> Board {
        Shape::Mask(parse_mask(rows).unwrap()).board()
    }

    /// Connected by a flood from the lowest piece.
    fn connected(nbr: &[u64], x: u64) -> bool {
        let mut c = x & x.wrapping_neg();
        loop {
            let grown = (0..64)
                .filter(|i| c >> i & 1 == 1)
                .fold(c, |a, i| a | nbr[i] & x);
            if grown == c {
                return c == x;
            }
            c = grown;
        }
    }

    /// Every subset of the board's pieces, from the rules: the connected
    /// ones (two pieces or more, not the whole board), and those that cannot
    /// be moved one step left, down or down-right, with the distinct moves
    /// of the rule inside them.
    fn brute(b: &Board, take: Take) -> (u64, u64, u64) {
        let n = b.len();
        let pts = &b.points;
        let nbr: Vec<u64> = pts
            .iter()
            .map(|&(q, r)| {
                (0..n)
                    .filter(|&j| {
                        let (dq, dr) = (pts[j].0 - q, pts[j].1 - r);
                        NEIGHBOURS.contains(&(dq, dr))
                    })
                    .fold(0, |a, j| a | 1u64 << j)
            })
            .collect();
        let mut masks: Vec<u64> = moves(b, take).iter().map(|m| m.mask).collect();
        masks.sort_unstable();
        masks.dedup();
        let fits = |x: u64, (dq, dr): (i32, i32)| {
            (0..n)
                .filter(|i| x >> i & 1 == 1)
                .all(|i| b.index((pts[i].0 + dq, pts[i].1 + dr)).is_some())
        };
        let (mut conn, mut lowest, mut inside) = (0, 0, 0);
        for x in 1..(1u64 << n) - 1 {
            if x.count_ones() < 2 || !connected(&nbr, x) {
                continue;
            }
            conn += 1;
            if [(-1, 0), (0, -1), (1, -1)].iter().all(|&d| !fits(x, d)) {
                lowest += 1;
                inside += masks.iter().filter(|&&m| x & m == m).count() as u64;
            }
        }
        (conn, lowest, inside)
    }

    #[test]
    fn a_line_of_n_pieces_has_n_n_plus_1_over_2_connected_sub_boards() {
        for n in 2..=9usize {
            let b = mask(&[&"O".repeat(n)]);
            let c = count(&b, Take::Max(2));
            // n(n+1)/2 runs, less the n lone pieces and the whole line.
            assert_eq!(c.connected as usize, n * (n + 1) / 2 - n - 1, "{n}");
            // At their lowest translate: the runs from the first piece, of
            // 2..n-1 pieces; inside a run of k pieces, k + (k - 1) moves.
            let inside: usize = (2..n).map(|k| 2 * k - 1).sum();
            assert_eq!(c.lowest, ((n - 2) as u64, inside as u64), "{n}");
            assert!(c.complete);
        }
        // A line is mapped onto itself by 4 of the 12 symmetries; a triangle
        // by 6, a regular hexagon by 12, a parallelogram of unequal sides by 2.
        assert_eq!(symmetries(&mask(&["OOOO"])), 4);
        assert_eq!(symmetries(&Shape::Triangle(4).board()), 6);
        assert_eq!(symmetries(&Shape::Hexagon([2; 6]).board()), 12);
        assert_eq!(symmetries(&Shape::Parallelogram(2, 3).board()), 2);
        assert_eq!(symmetries(&mask(&["OO.", ".OO", "O.."])), 1);
    }

    #[test]
    fn the_count_agrees_with_every_subset_of_small_boards() {
        let boards = [
            Shape::Triangle(3).board(),
            Shape::Triangle(4).board(),
            Shape::Hexagon([2; 6]).board(),
            Shape::Parallelogram(3, 4).board(),
            Shape::Trapezoid(3, 3).board(),
            mask(&["OOO.O", "O.OOO", "OO..O"]),
            mask(&["O.O", "OOO"]),
        ];
        for b in &boards {
            for take in crate::family::lines::rules::SAMPLE_RULES {
                let c = count(b, take);
                let (conn, lowest, inside) = brute(b, take);
                assert_eq!(
                    (c.connected, c.lowest),
                    (conn, (lowest, inside)),
                    "{:?} {}",
                    b.points,
                    take.text()
                );
            }
        }
    }

    /// Listed only in part (a cap of a twentieth of their sub-boards, as
    /// the triangle of 7 rows is), the boards' counts are estimated by
    /// random descents within 20 % of the whole listing's (the descents
    /// tend to miss the few deep branches: they read under).
    #[test]
    fn the_estimate_past_the_cap_is_near_the_whole_listing() {
        let boards = [
            (Shape::Triangle(6), Take::Max(3)),
            (Shape::Triangle(6), Take::Any),
            (Shape::Parallelogram(4, 5), Take::Max(1)),
            (Shape::Hexagon([3, 2, 3, 2, 3, 2]), Take::Max(2)),
            (Shape::Trapezoid(4, 4), Take::Maximal),
        ];
        for (s, take) in boards {
            let b = s.board();
            let whole = count(&b, take);
            let part = count_within(&b, take, whole.connected / 20);
            assert!(whole.complete && !part.complete, "{}", s.name());
            let near = |a: u64, b: u64| (a as f64 / b as f64 - 1.0).abs() < 0.2;
            let name = format!("{} {}", s.name(), take.text());
            assert!(
                near(part.connected, whole.connected),
                "{name}: {part:?} {whole:?}"
            );
            assert!(
                near(part.classes, whole.classes),
                "{name}: {part:?} {whole:?}"
            );
            assert!(near(part.moves, whole.moves), "{name}: {part:?} {whole:?}");
        }
    }

    /// The classes the solver memoises and the moves it examines inside them
    /// (its own counters), against the count's estimate.
    #[test]
    fn the_estimate_is_near_the_solvers_own_counters() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let shapes = [
            Shape::Triangle(4),
            Shape::Triangle(5),
            Shape::Parallelogram(3, 4),
            Shape::Parallelogram(4, 4),
            Shape::Trapezoid(3, 4),
            Shape::Hexagon([3, 2, 3, 2, 3, 2]),
            Shape::Pentagon(3, 3, 2),
        ];
        for s in &shapes {
            let b = s.board();
            for take in [Take::Max(1), Take::Max(3), Take::Any, Take::Maximal] {
                let solver = Components::new(&b, take, u64::MAX);
                pool.install(|| solver.options(b.full(), &|_| {}));
                let computed = solver.computed();
                let moves = solver.counted.moves.load(Ordering::Relaxed);
                assert_eq!(computed, solver.memo_len());
                let c = count(&b, take);
                let name = format!("{} {}", s.name(), take.text());
                if take == Take::Maximal {
                    // A bound: far fewer sub-boards are reached.
                    assert!(computed <= c.classes && moves <= c.moves, "{name}");
                    continue;
                }
                let r = c.classes as f64 / computed as f64;
                let m = c.moves as f64 / moves as f64;
                // The pentagon has no symmetry, but many of its shapes fit
                // turned: its estimate is furthest over.
                let within = if matches!(s, Shape::Pentagon(..)) {
                    2.2
                } else {
                    1.6
                };
                assert!(
                    (0.8..within).contains(&r),
                    "{name}: classes {} against {computed}",
                    c.classes
                );
                assert!(
                    (0.8..within).contains(&m),
                    "{name}: moves {} against {moves}",
                    c.moves
                );
            }
        }
    }
}
