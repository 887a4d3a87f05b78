//! `lines`: removing runs of pieces on a triangular-lattice board (GAMES.md §3;
//! reports 000 and 002).
//!
//! Sweep parameters:
//!
//! ```yaml
//! family: lines
//! board: {trapezoid: [1..6, 1..200]}   # hexagon: [p0..p5] | regular: s | triangle: n | trapezoid: [x, y]
//!                                      # | parallelogram: [x, y] | pentagon: [x, y, z]
//!                                      # | mask: "O O ./O O O" | hexagons: {max_side: L, max_pieces: K}
//!                                      # | sum: [board, board, ...] (separate regions side by side)
//!                                      # (ranges allowed in every parameter; a list of boards)
//! take: maximal                        # maximal | {max: P} | any, or a list
//! play: normal                         # normal | misere, or a list
//! along: y                             # the parameter sequences run along (periods, class tables)
//! counts: false                        # report 002's table (P-positions per piece count, exhaustive)
//! grundy: true                         # false: normal play's outcome by the exhaustive table
//! regions: false                       # the `regions` dataset: each region's Grundy value and class
//! cuts: false                          # the `cuts` dataset: each first move and the regions it leaves
//! pictures: false                      # board pictures with a winning run (default: ≤ 8 boards)
//! ```
//!
//! The family's rooms, one per solver: [`chords`] (normal play with
//! `take: maximal` on hexagon-family boards, any size: the chord recursion,
//! its dense table, the memo work counted for the cost model, report 000's
//! long sequences); [`components`] (other normal-play cases, ≤ 64 pieces:
//! the component decomposition and its sub-boards counted); [`exhaustive`]
//! (misère play and count tables: the bitmap analysis and its slices).
//! The solvers' rooms import only what lies below them (the board, the
//! rules, the shared memo; chords also the components' `Mex`), never the
//! family-level files beside this one.
//!
//! At the top, what serves the family as a whole: [`params`] (a sweep's
//! parameters → cases), [`group`], [`cases`] and [`rows`] (the boards of a
//! case, solving it, filling its typed rows), [`census`] (the hexagon census case), [`cuts`] (the `cuts`
//! dataset), [`dispatch`] (which solver a board gets), [`datasets`] and
//! [`views`] (declared once), [`board`] and [`rules`] (the lattice and the
//! moves), [`brute`] (the plain references every solver is tested against),
//! `memo` (the concurrent memo two solvers share), [`kernels`] (the cost
//! model's kernels), [`solve`] (`nimlab solve lines`), [`outofcore`]
//! (`nimlab board lines`: the sliced table out of core), [`explain`] and
//! [`play`] (`nimlab play lines`, with `play.js` for its page).

pub mod board;
pub(crate) mod brute;
pub(crate) mod cases;
pub(crate) mod census;
pub mod chords;
pub(crate) mod components;
pub(crate) mod cuts;
pub mod datasets;
pub(crate) mod dispatch;
pub mod exhaustive;
pub(crate) mod explain;
pub(crate) mod group;
pub(crate) mod kernels;
mod memo;
pub(crate) mod outofcore;
pub(crate) mod params;
pub(crate) mod play;
pub(crate) mod rows;
pub mod rules;
pub(crate) mod solve;
pub(crate) mod views;

pub use dispatch::{Solved, solve_board};
pub use rows::closed_form;

use crate::data::Dataset;
use crate::family::watch::Watch;
use crate::family::{Answer, Capabilities, Family, Plan, Planning};
use crate::params::{Node, SpecError};
use crate::view::View;

/// The family (registered in [`crate::family::FAMILIES`]).
pub struct Lines;

impl Family for Lines {
    fn name(&self) -> &'static str {
        "lines"
    }
    fn about(&self) -> &'static str {
        "Pieces on a triangular-lattice board; a move removes a run of pieces along one of the three lines: \
         a maximal run (report 000), a run of 1..P pieces, or any run (report 002). Boards: equiangular hexagons \
         by side piece counts, triangles, trapezoids A(x,y), parallelograms B(x,y), pentagons C(x,y,z), masks, \
         and every hexagon up to a size. Normal play (Grundy values, report 000's classes N1..N5) and misère \
         play (exhaustive analysis, report 002's count table)."
    }
    fn params_help(&self) -> &'static str {
        "board: {hexagon: [p0..p5]} | {regular: s} | {triangle: n} | {trapezoid: [x, y]} | {parallelogram: [x, y]} | {pentagon: [x, y, z]}\n\
         \x20      | {mask: \"O O ./O O O\"} | {hexagons: {max_side: L, max_pieces: K}} | {sum: [board, board, ...]}\n\
         \x20      (ranges a..b in any parameter; a list)\n\
         take: maximal | {max: P} | any (or a list)\n\
         play: normal | misere (or a list)\n\
         along: the parameter sequences run along (default: the last one given as a range)\n\
         counts: true | false — P-positions per piece count (exhaustive)\n\
         grundy: true | false — false: normal play's outcome by the exhaustive table, without Grundy values\n\
         regions: true | false — each board's separate regions, their Grundy values and report 000's class counts\n\
         cuts: true | false — each first move of each board, the regions it leaves and their Grundy values (normal play, ≤ 64 pieces)\n\
         pictures: true | false — board pictures with a winning run (default: when at most 8 boards)\n\
         memo_gib: memo budget of the component solver (default 12)\n\
         solve: --board T(5) | --board \"trapezoid: [2, 3]\" | --triangle 5 | --hexagon 3,3,3,3,3,3 | --trapezoid 2,3\n\
         \x20      | --mask \"OO./OOO\" …, --take max:3, --play misere (or --rule \"max:3 misere\"),\n\
         \x20      --remove [[q,r],…] (a position of the board), --counts"
    }
    fn datasets(&self) -> &'static [&'static Dataset] {
        datasets::DATASETS
    }
    fn views(&self) -> &'static [&'static View] {
        views::VIEWS
    }
    fn plan(&self, sweep: &Node<'_>, how: Planning<'_>) -> Result<Plan, SpecError> {
        let mode = match how {
            Planning::Solve { .. } => params::Mode::Exact,
            Planning::Estimate => params::Mode::Estimate,
        };
        params::plan(sweep, mode)
    }
    fn play(&self, params: &Node<'_>) -> anyhow::Result<Box<dyn crate::play::PlayGame>> {
        play::game(params)
    }
    fn cli_args(&self) -> &'static [crate::params::CliArg] {
        solve::CLI_ARGS
    }
    fn probes(&self) -> Vec<crate::family::calibration::Probe> {
        use crate::family::calibration::{Probe, probe_sweep};
        vec![
            Probe {
                kernel: kernels::CHORD_LOOKUPS,
                run: probe_lookups,
            },
            Probe {
                kernel: kernels::CHORD_CENSUS,
                run: probe_census,
            },
            Probe {
                kernel: kernels::CHORD_VALUES,
                run: || {
                    crate::family::calibration::probe_sweep_keeping(
                        &Lines,
                        "board: {parallelogram: [1..3, 1025..1100]}\ntake: maximal\nalong: y\n",
                        kernels::CHORD_VALUES,
                        Some(&["periods".to_string()]),
                    )
                },
            },
            Probe {
                kernel: kernels::COMPONENT_MOVES,
                run: || {
                    probe_sweep(
                        &Lines,
                        "board: {triangle: 6}\ntake: {max: 1}\n",
                        kernels::COMPONENT_MOVES,
                    )
                },
            },
            Probe {
                kernel: kernels::EXHAUSTIVE,
                run: || {
                    probe_sweep(
                        &Lines,
                        "board: {parallelogram: [5, 5]}\ntake: [{max: 2}, {max: 3}, any]\nplay: misere\n",
                        kernels::EXHAUSTIVE,
                    )
                },
            },
            Probe {
                kernel: kernels::EXHAUSTIVE_ROUNDS,
                run: || {
                    probe_sweep(
                        &Lines,
                        "board: {parallelogram: [5, 5]}\ntake: maximal\nplay: misere\n",
                        kernels::EXHAUSTIVE_ROUNDS,
                    )
                },
            },
            Probe {
                kernel: kernels::CHORD_MEMO,
                run: || chords::memofill::probe(false),
            },
            Probe {
                kernel: kernels::CHORD_MEMO_HASHED,
                run: || chords::memofill::probe(true),
            },
            Probe {
                kernel: kernels::CHORD_TABLE,
                run: cases::probe_chord_table,
            },
        ]
    }
    fn solve_schema(&self) -> &'static str {
        include_str!("solve.schema.json")
    }
    fn solve(&self, pos: &Node<'_>, watch: &dyn Watch) -> anyhow::Result<Answer> {
        solve::solve(pos, watch)
    }
    fn explain(&self, dataset: &str, table: &crate::data::Table, row: usize) -> Option<String> {
        explain::explain(dataset, table, row)
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities {
            explains_moves: Some(explain::first_moves),
            out_of_core: Some(&outofcore::LinesBoards),
            names_rows_by_label: Some(|dataset| dataset == "positions"),
            ..Capabilities::NONE
        }
    }
    fn draw(&self, dataset: &str, table: &crate::data::Table, row: usize) -> Option<String> {
        explain::draw(dataset, table, row)
    }
    fn unit(&self, dataset: &str) -> (&'static str, &'static str) {
        match dataset {
            "positions" => ("board", "boards"),
            "cuts" => ("cut", "cuts"),
            "regions" => ("region", "regions"),
            "periods" | "class_counts" => ("sequence", "sequences"),
            d if d.starts_with("hexagon") => ("hexagon", "hexagons"),
            _ => ("case", "cases"),
        }
    }
}

#[cfg(test)]
mod tests;

/// The hexagons the chord solver's probes value: their memo is filled once
/// (on the probe's first run) and kept, as a big sweep's table is filled
/// before its boards are read.
const PROBE_HEXAGONS: &str = "board: {hexagons: {max_side: 16}}\ntake: maximal\n";

/// `nimlab calibrate`'s probe of [`kernels::CHORD_LOOKUPS`]:
/// every hexagon with sides up to 16, its row and winning runs kept.
fn probe_lookups() -> anyhow::Result<u64> {
    static PLAN: std::sync::OnceLock<crate::family::Plan> = std::sync::OnceLock::new();
    let keep = [datasets::POSITIONS.name.to_string()];
    crate::family::calibration::probe_planned(
        &PLAN,
        (&Lines, PROBE_HEXAGONS),
        kernels::CHORD_LOOKUPS,
        Some(&keep),
    )
}

/// `nimlab calibrate`'s probe of [`kernels::CHORD_CENSUS`]: the
/// census of every hexagon with sides up to 16.
fn probe_census() -> anyhow::Result<u64> {
    static PLAN: std::sync::OnceLock<crate::family::Plan> = std::sync::OnceLock::new();
    let keep: Vec<String> = [
        &datasets::HEXAGON_VALUES,
        &datasets::HEXAGON_BOUNDS,
        &datasets::HEXAGON_P_POSITIONS,
        &datasets::CLASS_COUNTS,
    ]
    .iter()
    .map(|d| d.name.to_string())
    .collect();
    crate::family::calibration::probe_planned(
        &PLAN,
        (&Lines, PROBE_HEXAGONS),
        kernels::CHORD_CENSUS,
        Some(&keep),
    )
}
