//! The `cuts` dataset: every first move of a board and the separate regions
//! it leaves, each solved alone (report 000's 「原殘局 = 1 + 剩下之殘局類型 + …」,
//! the notation of its lemmas 四–六 and of 陸 結論 二).

use super::cases::LinesCase;
use super::components::{Components, Mex};
use super::datasets::{dict, enum_repeat};
use super::dispatch::Solved;
use super::rules::{legal_distinct, moves, run_cells, run_text};
use crate::data::{DictVec, IntListVec, Table, Values};
use crate::game::PLAYS;

/// One board's first moves, with the regions each leaves.
struct BoardCuts {
    /// Per move: the run as `nimlab solve` prints it, its pieces, and the
    /// Grundy values of the regions left (ascending).
    moves: Vec<(String, i64, Vec<u32>)>,
    /// The board's Grundy value: the mex of its moves' Nim-sums.
    grundy: u32,
}

/// Every distinct first move of a board and the regions it leaves.
fn board_cuts(case: &LinesCase, board: &super::board::Board) -> BoardCuts {
    let solver = Components::new(board, case.take, case.memo_budget);
    let all = moves(board, case.take);
    let full = board.full();
    let mut out = Vec::new();
    let mut reached = Mex::default();
    for m in legal_distinct(&all, full) {
        let mut values: Vec<u32> = solver
            .region_values(full & !m.mask)
            .into_iter()
            .map(|(_, g)| g)
            .collect();
        values.sort_unstable();
        reached.insert(values.iter().fold(0, |a, &v| a ^ v));
        let cells = run_cells(board, m);
        out.push((run_text(&cells, m.dir as usize), cells.len() as i64, values));
    }
    BoardCuts {
        moves: out,
        grundy: reached.mex(),
    }
}

impl LinesCase {
    /// `cuts`: one row per board and distinct first move.
    pub fn cuts(&self, solved: &[(Solved, f64)]) -> Table {
        let (mut board, mut name) = (DictVec::default(), DictVec::default());
        let (mut run, mut left) = (DictVec::default(), IntListVec::default());
        let mut cols: [Vec<i64>; 6] = Default::default();
        let mut equal_pair = Vec::new();
        for (s, (r, _)) in self.group.shapes.iter().zip(solved) {
            let cuts = board_cuts(self, &s.board());
            debug_assert!(r.grundy.is_none_or(|g| g == cuts.grundy));
            // Some move leaves exactly two regions of one value.
            let pair = cuts
                .moves
                .iter()
                .any(|(_, _, v)| v.len() == 2 && v[0] == v[1]);
            let (text_s, name_s) = (s.text(), self.board_name(s));
            for (i, (text, pieces, values)) in cuts.moves.iter().enumerate() {
                board.push(&text_s);
                name.push(&name_s);
                run.push(text);
                left.push_iter(values.iter().map(|&v| i64::from(v)));
                let nim = values.iter().fold(0, |a, &v| a ^ v);
                let row = [
                    s.pieces() as i64,
                    i as i64,
                    *pieces,
                    values.len() as i64,
                    i64::from(nim),
                    i64::from(cuts.grundy),
                ];
                for (c, v) in cols.iter_mut().zip(row) {
                    c.push(v);
                }
                equal_pair.push(pair);
            }
        }
        let n = equal_pair.len();
        let [pieces, index, run_pieces, regions, option, grundy] = cols;
        Table::new()
            .with("board", Values::Dict(board))
            .with("name", Values::Dict(name))
            .with("pieces", Values::Int(pieces))
            .with("take", dict(&self.take.text(), n))
            .with("play", enum_repeat(PLAYS, self.play.code(), n))
            .with("rule", dict(&self.rule(), n))
            .with("move", Values::Int(index))
            .with("run", Values::Dict(run))
            .with("run_pieces", Values::Int(run_pieces))
            .with("regions_left", Values::Int(regions))
            .with("left_grundy", Values::IntList(left))
            .with("option_grundy", Values::Int(option))
            .with("board_grundy", Values::Int(grundy))
            .with("equal_pair_cut", Values::Bool(equal_pair))
    }
}
