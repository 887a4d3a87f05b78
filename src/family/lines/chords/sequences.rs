//! Report 000's board sequences far along: the Grundy values of A(x, y),
//! B(x, y) and C(x, y, z) (`take: maximal`, normal play) for `y` up to tens of
//! thousands, and their periods.
//!
//! A board with few rows has only sub-hexagons with as few rows, so one
//! [`ChordTable`] that is thin in `r` (extent `R ≤ rows − 1`, `Q` and `S` up to
//! the longest line) holds every hexagon these sequences reach: for rows ≤ 11
//! and lines of 10,000 pieces that is 5 million entries (10 MB), computed
//! bottom-up once. The chord memo of [`super::hexsum`] keys sides of at most
//! 1023 pieces and would hash every sub-hexagon.
//!
//! Periods are [`crate::period::observed_period`]'s: the smallest period
//! whose periodic stretch covers at least half of the computed range and at
//! least three periods (GAMES.md), never a repeat seen only near the end.

use super::chordtab::{ChordTable, Hx};
use crate::family::lines::board::Shape;
use crate::period::{self, Period};

/// Grundy values of boards with at most `rows` rows and lines of at most
/// `length` pieces.
pub struct ThinBoards {
    table: ChordTable,
}

/// Which sequence: report 000's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// A(x, y): trapezoid, x rows, top row y.
    A(u32),
    /// B(x, y): parallelogram, x rows of y.
    B(u32),
    /// C(x, y, z): pentagon, A(x, y) on B(z, x + y − 1).
    C(u32, u32),
}

impl Family {
    /// The board with parameter `y`.
    pub fn shape(self, y: u32) -> Shape {
        match self {
            Family::A(x) => Shape::Trapezoid(x, y),
            Family::B(x) => Shape::Parallelogram(x, y),
            Family::C(x, z) => Shape::Pentagon(x, y, z),
        }
    }
    /// `A(2,y)`, `B(3,y)`, `C(2,y,4)`.
    pub fn name(self) -> String {
        match self {
            Family::A(x) => format!("A({x},y)"),
            Family::B(x) => format!("B({x},y)"),
            Family::C(x, z) => format!("C({x},y,{z})"),
        }
    }
    /// Rows of its boards (independent of `y`).
    pub fn rows(self) -> u32 {
        match self {
            Family::A(x) | Family::B(x) => x,
            Family::C(x, z) => x + z - 1,
        }
    }
}

impl ThinBoards {
    /// Every hexagon with at most `rows` rows and extents along the other
    /// two directions at most `length − 1`, on `threads` threads.
    pub fn new(rows: u32, length: u32, threads: usize) -> ThinBoards {
        assert!(rows >= 1 && length >= rows);
        ThinBoards {
            table: ChordTable::build(rows - 1, length - 1, length - 1, threads, &|_| {}),
        }
    }

    /// The table's size: `(rows, length)` as given to [`ThinBoards::new`].
    pub fn bounds(&self) -> (u32, u32) {
        let (r, q, _) = self.table.bounds();
        (r + 1, q + 1)
    }

    /// Bytes a table for these bounds takes.
    pub fn bytes(rows: u32, length: u32) -> u64 {
        ChordTable::bytes(rows - 1, length - 1, length - 1)
    }

    /// The longest line [`ThinBoards::new`] must allow for a family up to `y`.
    pub fn length_for(f: Family, y: u32) -> u32 {
        let h = Hx::from_sides(f.shape(y).sides().expect("a hexagon-family shape"));
        h.q.max(h.s()) + 1
    }

    /// `G` of a board of the hexagon family, if the table holds it.
    pub fn grundy(&self, s: &Shape) -> Option<u32> {
        self.table.grundy(s.sides()?)
    }

    /// `G` of the family's boards for `y = 1..=y_max`.
    pub fn sequence(&self, f: Family, y_max: u32) -> Option<Vec<u32>> {
        (1..=y_max).map(|y| self.grundy(&f.shape(y))).collect()
    }
}

/// The period of a sequence of Grundy values `a(y)`, `y = 1..` (index 0 is
/// `y = 1`): observed only, with GAMES.md's evidence rule.
pub fn period_of(values: &[u32]) -> Option<Period> {
    period::observed_period(values)
}

/// For a sequence of Grundy values without a period, an arithmetic one
/// (`a(y + p) = a(y) + s`) with the same evidence rule. Only `s > 0`: Grundy
/// values are never negative, so a decreasing stretch cannot go on and is no
/// closed form.
pub fn arithmetic_period_of(values: &[u32]) -> Option<period::Arithmetic> {
    let v: Vec<i64> = values.iter().map(|&x| x as i64).collect();
    period::observed_arithmetic_period(&v).filter(|a| a.saltus > 0)
}

#[cfg(test)]
mod tests {
    use super::super::hexsum::HexSolver;
    use super::*;
    use crate::family::lines::board::Hex;

    /// Grundy values grow without bound in an arithmetic period (C(2, y, 2):
    /// +8 every 6) but cannot fall forever: a decreasing stretch (by hand:
    /// 9, 8, …, 2) is no closed form.
    #[test]
    fn only_growing_arithmetic_periods() {
        let up: Vec<u32> = (0..12).map(|y| 2 * y + 1).collect();
        let a = arithmetic_period_of(&up).unwrap();
        assert_eq!((a.period.period, a.saltus), (1, 2));
        let down: Vec<u32> = (2..10).rev().collect();
        assert!(
            period::observed_arithmetic_period(&down.iter().map(|&x| x as i64).collect::<Vec<_>>())
                .is_some()
        );
        assert!(arithmetic_period_of(&down).is_none());
    }

    /// The thin table agrees with the chord recursion on every board of the
    /// three families it is asked about (y ≤ 60), and on report 000's values
    /// worked out by hand in `tests.rs` (A(1,y): 1 for odd y, 2 for even y).
    #[test]
    fn thin_table_matches_the_recursion() {
        let t = ThinBoards::new(7, 70, 2);
        let rec = HexSolver::new(80);
        let fams = [
            Family::A(1),
            Family::A(2),
            Family::A(5),
            Family::A(7),
            Family::B(2),
            Family::B(6),
            Family::C(2, 2),
            Family::C(3, 4),
            Family::C(4, 4),
        ];
        for f in fams {
            let seq = t.sequence(f, 60).unwrap();
            for (i, &g) in seq.iter().enumerate() {
                let y = i as u32 + 1;
                let want = rec.grundy(Hex::from_sides(f.shape(y).sides().unwrap()), &|_| {});
                assert_eq!(g, want, "{} at y = {y}", f.name());
            }
        }
        let a1 = t.sequence(Family::A(1), 60).unwrap();
        assert!(
            a1.iter()
                .enumerate()
                .all(|(i, &g)| g == if i % 2 == 0 { 1 } else { 2 })
        );
        // Outside the table: None.
        assert_eq!(t.grundy(&Shape::Trapezoid(8, 3)), None);
        assert_eq!(t.grundy(&Shape::Trapezoid(2, 70)), None);
        assert_eq!(ThinBoards::length_for(Family::A(2), 68), 69);
        assert!(t.grundy(&Shape::Trapezoid(2, 68)).is_some());
    }

    /// A(5, y) has period 30 from y = 5 (docs/families/lines.md, y ≤ 200),
    /// seen on y ≤ 400 too; its first 20 terms alternate from y = 5 and look
    /// like period 2, which is all that range can show (and is reported with
    /// its evidence window, 8 periods on y = 5..20).
    #[test]
    fn periods_of_sequences() {
        let t = ThinBoards::new(5, 420, 2);
        let a5 = t.sequence(Family::A(5), 400).unwrap();
        let p = period_of(&a5).unwrap();
        assert_eq!((p.period, p.preperiod), (30, 4));
        let short = period_of(&a5[..20]).unwrap();
        assert_eq!(
            (short.period, short.preperiod, short.periods_seen()),
            (2, 4, 8)
        );
    }
}
