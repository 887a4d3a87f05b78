//! The typed rows of lines' datasets, filled from solved boards.

use super::board::{Pt, Shape};
use super::brute::program_002_counts;
use super::cases::LinesCase;
use super::components::Components;
use super::datasets::class_of;
use super::datasets::{
    CELL_KINDS, CLASSES, METHODS, RUN_FIELDS, SEQUENCES, SHAPES, dict, enum_repeat,
};
use super::dispatch::Solved;
use super::rules::moves;
use crate::data::{DictVec, EnumVec, IntListVec, StrVec, StructListVec, Table, Values};
use crate::game::{OUTCOMES, PLAYS, Play, outcome_code};
use crate::period::{self, PeriodRows};

/// Report 002's program took at most 21 pieces (`DIM X(21)`); its replay
/// runs on boards up to that size.
pub const PROGRAM_002_MAX_PIECES: u64 = 21;

/// Boards drawn as pictures at most this large.
const PICTURE_MAX_PIECES: usize = 5000;

fn class_code(g: u32) -> u8 {
    g.min(5) as u8
}

impl LinesCase {
    pub(super) fn rule(&self) -> String {
        format!("{} {}", self.take.text(), self.play.as_str())
    }

    /// `positions`: one row per board.
    pub fn positions(&self, solved: &[(Solved, f64)]) -> Table {
        let shapes = &self.group.shapes;
        let n = shapes.len();
        let mut sides = IntListVec::default();
        let (mut xs, mut ys, mut zs) = (vec![], vec![], vec![]);
        let mut outcome = EnumVec::new(OUTCOMES, n);
        let mut class = EnumVec::new(CLASSES, n);
        let mut method = EnumVec::new(METHODS, n);
        let mut shape = EnumVec::new(SHAPES, n);
        let mut wins = StructListVec::new(RUN_FIELDS, n);
        let (mut board, mut name, mut shape_rule) =
            (DictVec::default(), DictVec::default(), DictVec::default());
        let rule = self.rule();
        for (s, (r, _)) in shapes.iter().zip(solved) {
            board.push(&s.text());
            name.push(&self.board_name(s));
            shape.push_str(s.kind());
            shape_rule.push(&format!("{} {rule}", s.kind()));
            match s.sides() {
                Some(p) => sides.push_iter(p.iter().map(|&x| x as i64)),
                None => sides.push_null(),
            }
            let [x, y, z] = s.params();
            xs.push(x.map(i64::from));
            ys.push(y.map(i64::from));
            zs.push(z.map(i64::from));
            outcome.push(outcome_code(r.is_p));
            match r.grundy {
                Some(g) => class.push(class_code(g)),
                None => class.push_null(),
            }
            for (_, cells) in &r.wins {
                push_run(&mut wins, cells);
            }
            wins.end_row();
            method.push_str(r.method);
        }
        let (sequence, along) = match &self.group.along {
            Some((_, vals)) => (dict(&self.group.label, n), Values::Int(vals.clone())),
            None => (Values::Null(n), Values::Null(n)),
        };
        Table::new()
            .with("board", Values::Dict(board))
            .with("name", Values::Dict(name))
            .with("shape", Values::Enum(shape))
            .with("sequence", sequence)
            .with("along_value", along)
            .with("x", Values::OptInt(xs))
            .with("y", Values::OptInt(ys))
            .with("z", Values::OptInt(zs))
            .with("hexagon_sides", Values::IntList(sides))
            .with(
                "pieces",
                Values::Int(shapes.iter().map(|s| s.pieces() as i64).collect()),
            )
            .with("take", dict(&self.take.text(), n))
            .with("play", enum_repeat(PLAYS, self.play.code(), n))
            .with("rule", dict(&rule, n))
            .with("shape_rule", Values::Dict(shape_rule))
            .with("outcome", Values::Enum(outcome))
            .with("grundy", grundy_column(solved))
            .with("class", Values::Enum(class))
            .with("winning_runs", Values::StructList(wins))
            .with(
                "winning_move_count",
                Values::Int(solved.iter().map(|(r, _)| r.wins.len() as i64).collect()),
            )
            .with("method", Values::Enum(method))
            .with(
                "seconds",
                Values::Float(solved.iter().map(|(_, t)| *t).collect()),
            )
    }

    /// `regions`: each board's separate regions, solved alone, and report
    /// 000's class counts, beside the whole board's outcome.
    pub fn regions(&self, solved: &[(Solved, f64)]) -> Table {
        let shapes = &self.group.shapes;
        let n = shapes.len();
        let (mut board, mut name) = (DictVec::default(), DictVec::default());
        let (mut pieces, mut values) = (IntListVec::default(), IntListVec::default());
        let mut counts: Vec<Vec<i64>> = (0..6).map(|_| Vec::with_capacity(n)).collect();
        let (mut count, mut number, mut xor) = (vec![], vec![], vec![]);
        let mut outcome = EnumVec::new(OUTCOMES, n);
        let mut method = EnumVec::new(METHODS, n);
        for (s, (r, _)) in shapes.iter().zip(solved) {
            board.push(&s.text());
            name.push(&self.board_name(s));
            // One solver for the board: its regions share the memo.
            let b = s.board();
            let regions = Components::new(&b, self.take, self.memo_budget).region_values(b.full());
            let g: Vec<u32> = regions.iter().map(|&(_, v)| v).collect();
            pieces.push_iter(regions.iter().map(|&(c, _)| i64::from(c.count_ones())));
            values.push_iter(g.iter().map(|&v| i64::from(v)));
            // Grundy order: N2 = 0, N1 = 1, N3 = 2, N4 = 3, N5 = 4, beyond = 5.
            let by_value: Vec<i64> = (0..6u8)
                .map(|c| g.iter().filter(|&&v| class_code(v) == c).count() as i64)
                .collect();
            for (c, col) in counts.iter_mut().enumerate() {
                col.push(by_value[c]);
            }
            count.push(regions.len() as i64);
            // Region Number: N_k counts k (N1 = Grundy 1, N2 = 0, N3..N5 = 2..4).
            number.push(
                by_value[1] + 2 * by_value[0] + 3 * by_value[2] + 4 * by_value[3] + 5 * by_value[4],
            );
            xor.push(i64::from(g.iter().fold(0, |a, &v| a ^ v)));
            outcome.push(outcome_code(r.is_p));
            method.push_str(r.method);
        }
        let mut counts = counts.into_iter();
        let mut next = || Values::Int(counts.next().unwrap_or_default());
        let (c0, c1, c2, c3, c4, c5) = (next(), next(), next(), next(), next(), next());
        Table::new()
            .with("board", Values::Dict(board))
            .with("name", Values::Dict(name))
            .with(
                "pieces",
                Values::Int(shapes.iter().map(|s| s.pieces() as i64).collect()),
            )
            .with("take", dict(&self.take.text(), n))
            .with("play", enum_repeat(PLAYS, self.play.code(), n))
            .with("rule", dict(&self.rule(), n))
            .with("regions", Values::Int(count))
            .with("region_pieces", Values::IntList(pieces))
            .with("region_grundy", Values::IntList(values))
            .with("n1", c1)
            .with("n2", c0)
            .with("n3", c2)
            .with("n4", c3)
            .with("n5", c4)
            .with("beyond", c5)
            .with("region_number", Values::Int(number))
            .with("grundy_xor", Values::Int(xor))
            .with("outcome", Values::Enum(outcome))
            .with("grundy", grundy_column(solved))
            .with("method", Values::Enum(method))
    }

    /// A board's name: a mask alone in its group (a `sum:` of regions) is
    /// named by its group's label (`A(1,5) + B(2,3)`; a plain mask's label
    /// is its own name).
    pub(super) fn board_name(&self, s: &Shape) -> String {
        match s {
            Shape::Mask(_) if self.group.shapes.len() == 1 => self.group.label.clone(),
            _ => s.name(),
        }
    }

    /// `class_counts`: boards per class, every class listed (zeros included).
    pub fn class_counts(&self, solved: &[(Solved, f64)]) -> Table {
        // Every class in Grundy order (N2 = 0 first), so tables line up.
        let order: &[u8] = if self.play == Play::Normal && self.grundy {
            &[0, 1, 2, 3, 4, 5]
        } else {
            &[6, 7]
        };
        let code = |r: &Solved| match r.grundy {
            Some(g) => class_code(g),
            None if r.is_p => 6,
            None => 7,
        };
        let counts: Vec<i64> = order
            .iter()
            .map(|&c| solved.iter().filter(|(r, _)| code(r) == c).count() as i64)
            .collect();
        let k = order.len();
        Table::new()
            .with("group", dict(&self.group.label, k))
            .with("take", dict(&self.take.text(), k))
            .with("play", enum_repeat(PLAYS, self.play.code(), k))
            .with("rule", dict(&self.rule(), k))
            .with(
                "class",
                Values::Enum(EnumVec {
                    levels: CLASSES,
                    codes: order.to_vec(),
                }),
            )
            .with("boards", Values::Int(counts))
    }

    /// `periods`: the Grundy values and outcomes along a sequence of
    /// consecutive parameter values; `None` outside a sequence.
    pub fn periods(&self, solved: &[(Solved, f64)]) -> Option<Table> {
        let (letter, vals) = self.group.along.as_ref()?;
        if vals.len() < 2 || !vals.windows(2).all(|w| w[1] == w[0] + 1) {
            return None;
        }
        let o: Vec<bool> = solved.iter().map(|(r, _)| r.is_p).collect();
        let g: Option<Vec<u32>> = (self.play == Play::Normal && self.grundy)
            .then(|| solved.iter().map(|(r, _)| r.grundy.unwrap_or(0)).collect());
        let mut rows = PeriodRows::default();
        let mut which = EnumVec::new(SEQUENCES, 2);
        let (mut from, mut seen, mut values, mut pattern) =
            (vec![], vec![], IntListVec::default(), StrVec::default());
        let seqs: Vec<(&str, Option<period::Period>)> = g
            .iter()
            .map(|g| ("grundy", period::observed_period(g)))
            .chain([("outcome", period::observed_period(&o))])
            .collect();
        for (name, p) in &seqs {
            which.push_str(name);
            let Some(p) = p else {
                let (ev, form) =
                    no_period(letter, vals, g.as_deref().filter(|_| *name == "grundy"));
                rows.push(None, &ev, form.as_deref());
                from.push(None);
                seen.push(None);
                values.push_null();
                pattern.push_null();
                continue;
            };
            let terms: Vec<String> = match (&g, *name) {
                (Some(g), "grundy") => g.iter().map(|v| format!("{v}:{}", class_of(*v))).collect(),
                _ => o
                    .iter()
                    .map(|&p| if p { "P" } else { "N" }.to_string())
                    .collect(),
            };
            let ev = format!(
                "observed on {letter} = {}..{}, {} periods",
                vals[p.preperiod],
                vals[vals.len() - 1],
                p.periods_seen()
            );
            rows.push(
                Some(p),
                &ev,
                Some(&closed_form(name, letter, vals, &terms, p)),
            );
            from.push(Some(vals[p.preperiod]));
            seen.push(Some(p.periods_seen() as i64));
            let range = p.preperiod..p.preperiod + p.period;
            match (&g, *name) {
                (Some(g), "grundy") => values.push_iter(range.clone().map(|i| g[i] as i64)),
                _ => values.push_null(),
            }
            pattern.push_with(|b| range.for_each(|i| b.push(if o[i] { 'P' } else { 'N' })));
        }
        let k = seqs.len();
        let t = Table::new()
            .with("sequence", dict(&self.group.label, k))
            .with("values", Values::Enum(which))
            .with("take", dict(&self.take.text(), k))
            .with("play", enum_repeat(PLAYS, self.play.code(), k))
            .with("along", dict(letter, k))
            .with("from", Values::Int(vec![vals[0]; k]))
            .with("to", Values::Int(vec![vals[vals.len() - 1]; k]));
        Some(
            rows.into_table(t)
                .with("periodic_from", Values::OptInt(from))
                .with("periods_seen", Values::OptInt(seen))
                .with("period_values", Values::IntList(values))
                .with("period_pattern", Values::Str(pattern)),
        )
    }

    /// `counts`: report 002's table, per board.
    pub fn count_table(&self, solved: &[(Solved, f64)]) -> anyhow::Result<Table> {
        let mut t = Table::new();
        for (s, (r, _)) in self.group.shapes.iter().zip(solved) {
            let Some(c) = r.counts.as_ref() else {
                anyhow::bail!("{}: the exhaustive table gave no counts", s.name());
            };
            let k = c.len();
            let label = format!("{} take {}", s.name(), self.take.text());
            let program: Vec<Option<i64>> = match self.program_002(s) {
                Some(p) => p.into_iter().map(|x| Some(x as i64)).collect(),
                None => vec![None; k],
            };
            t.append(
                &Table::new()
                    .with("board", dict(&s.text(), k))
                    .with("name", dict(&s.name(), k))
                    .with("label", dict(&label, k))
                    .with("pieces", Values::Int(vec![s.pieces() as i64; k]))
                    .with("take", dict(&self.take.text(), k))
                    .with("play", enum_repeat(PLAYS, self.play.code(), k))
                    .with("pieces_left", Values::Int((0..k as i64).collect()))
                    .with(
                        "positions",
                        Values::Int(c.iter().map(|x| x.0 as i64).collect()),
                    )
                    .with(
                        "p_positions",
                        Values::Int(c.iter().map(|x| x.1 as i64).collect()),
                    )
                    .with("program_p_positions", Values::OptInt(program)),
            )?;
        }
        Ok(t)
    }

    /// Report 002's program replayed on a board (misère play, at most
    /// [`PROGRAM_002_MAX_PIECES`] pieces): its marked positions per piece count.
    fn program_002(&self, s: &Shape) -> Option<Vec<u64>> {
        if self.play != Play::Misere || s.pieces() > PROGRAM_002_MAX_PIECES {
            return None;
        }
        let board = s.board();
        let pairs: Vec<(u64, u64)> = moves(&board, self.take)
            .iter()
            .map(|m| (m.mask, m.blockers))
            .collect();
        Some(program_002_counts(board.len(), &pairs))
    }

    /// `cells`: board pictures with the first winning move.
    pub fn cells(&self, solved: &[(Solved, f64)]) -> anyhow::Result<Option<Table>> {
        let mut t = Table::new();
        for (s, (r, _)) in self.group.shapes.iter().zip(solved) {
            if s.pieces() as usize > PICTURE_MAX_PIECES {
                continue;
            }
            t.append(&self.picture(s, r))?;
        }
        Ok((t.rows() > 0).then_some(t))
    }

    fn picture(&self, s: &Shape, r: &Solved) -> Table {
        let b = s.board();
        let win: Vec<Pt> = r.wins.first().map(|w| w.1.clone()).unwrap_or_default();
        let label = format!(
            "{} {}{}",
            s.name(),
            self.rule(),
            if r.is_p { " (P: no winning move)" } else { "" }
        );
        let k = b.len();
        let mut cell = EnumVec::new(CELL_KINDS, k);
        for p in &b.points {
            cell.push(u8::from(win.contains(p)));
        }
        let pts = &b.points;
        Table::new()
            .with("picture", dict(&label, k))
            .with("board", dict(&s.text(), k))
            .with("take", dict(&self.take.text(), k))
            .with("play", enum_repeat(PLAYS, self.play.code(), k))
            .with(
                "cell_q",
                Values::Int(pts.iter().map(|p| p.0 as i64).collect()),
            )
            .with(
                "cell_r",
                Values::Int(pts.iter().map(|p| p.1 as i64).collect()),
            )
            .with(
                "px",
                Values::Float(pts.iter().map(|p| p.0 as f64 + p.1 as f64 / 2.0).collect()),
            )
            .with(
                "py",
                Values::Float(pts.iter().map(|p| p.1 as f64 * 3f64.sqrt() / 2.0).collect()),
            )
            .with("cell", Values::Enum(cell))
    }
}

/// The evidence text of a sequence without a period, and for Grundy values
/// an arithmetic period (`G(y + p) = G(y) + s`, same evidence rule) as its
/// closed form when there is one (C(2, y, 2) grows).
fn no_period(letter: &str, vals: &[i64], g: Option<&[u32]>) -> (String, Option<String>) {
    let (first, last) = (vals[0], vals[vals.len() - 1]);
    let none = format!("no period covering half of {letter} = {first}..{last} and three periods");
    let ar = g.and_then(super::chords::sequences::arithmetic_period_of);
    let Some(ar) = ar else {
        return (none, None);
    };
    let (pe, y0) = (ar.period.period, vals[ar.period.preperiod]);
    let ev = format!(
        "{none}; arithmetic period: G({letter} + {pe}) = G({letter}) + {}, observed on {letter} = {y0}..{last}, {} periods",
        ar.saltus,
        ar.period.periods_seen()
    );
    let form = format!(
        "G({letter} + {pe}) = G({letter}) + {} for {letter} ≥ {y0} (observed on {letter} = {y0}..{last})",
        ar.saltus
    );
    (ev, Some(form))
}

/// A run as its first and last piece.
fn push_run(col: &mut StructListVec, cells: &[Pt]) {
    let (a, b) = (cells[0], cells[cells.len() - 1]);
    col.push_item(&[a.0 as i64, a.1 as i64, b.0 as i64, b.1 as i64]);
}

/// The closed form a detected period implies for a sequence along `letter`
/// (`vals` the parameter values, consecutive; `labels` the terms, `g:class`
/// for Grundy values, `P`/`N` for outcomes): "G(y) = 0 for even y, 3 for odd
/// y, y ≥ 8 (observed on y = 8..200)", "P ⇔ y mod 2 = 1, y ≥ 3 (observed …)".
pub fn closed_form(
    values: &str,
    letter: &str,
    vals: &[i64],
    labels: &[String],
    p: &period::Period,
) -> String {
    let y0 = vals[p.preperiod];
    let pe = p.period as i64;
    let term = |i: usize| labels[i].split(':').next().unwrap_or("").to_string();
    // The term for each residue of the parameter mod the period.
    let mut by_res: Vec<(i64, String)> = (p.preperiod..p.preperiod + p.period)
        .map(|i| (vals[i].rem_euclid(pe), term(i)))
        .collect();
    by_res.sort();
    let range = format!(
        "{} on {letter} = {y0}..{}",
        p.status.as_str(),
        vals[vals.len() - 1]
    );
    let body = if values == "outcome" {
        let res: Vec<String> = by_res
            .iter()
            .filter(|(_, t)| t == "P")
            .map(|(r, _)| r.to_string())
            .collect();
        if res.is_empty() {
            format!("never P for {letter} ≥ {y0}")
        } else if res.len() == by_res.len() {
            format!("always P for {letter} ≥ {y0}")
        } else if pe == 2 {
            format!(
                "P ⇔ {letter} {}, {letter} ≥ {y0}",
                if res[0] == "0" { "even" } else { "odd" }
            )
        } else {
            format!(
                "P ⇔ {letter} mod {pe} ∈ {{{}}}, {letter} ≥ {y0}",
                res.join(", ")
            )
        }
    } else if pe == 1 {
        format!("G({letter}) = {} for {letter} ≥ {y0}", by_res[0].1)
    } else if pe == 2 {
        format!(
            "G({letter}) = {} for even {letter}, {} for odd {letter}, {letter} ≥ {y0}",
            by_res[0].1, by_res[1].1
        )
    } else {
        format!(
            "G({letter}) = ({})[{letter} mod {pe}] for {letter} ≥ {y0}",
            by_res
                .iter()
                .map(|(_, t)| t.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!("{body} ({range})")
}

/// The boards' Grundy values, null where the solver gives none.
fn grundy_column(solved: &[(Solved, f64)]) -> Values {
    Values::OptInt(
        solved
            .iter()
            .map(|(r, _)| r.grundy.map(i64::from))
            .collect(),
    )
}
