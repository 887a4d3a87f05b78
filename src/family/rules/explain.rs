//! A stored `rule_positions` row explained by its moves, for a
//! counterexample a student checks by hand: the rule rebuilt from the row's
//! columns (`move_condition`, `both`, `split`, `play`, the parameters), every
//! first move at the start of a game (`taking 3 leaves 26`, `taking 2 from B
//! leaves (3,2)`) and whether the heaps it leaves are a loss for the
//! opponent, solved again (by Grundy values where the game has them, else by
//! the joint-state solver, the move's take remembered).

use super::cond::{Cond, NAMES};
use super::datasets::DATASETS;
use super::game::{History, Move, Rule};
use super::solver::{Joint, SPLIT_MISERE_TOKENS, grundy_values};
use crate::data::{Cell, Table};
use crate::family::explain_moves::{MoveAccount, group};
use crate::game::Play;

/// Positions of more tokens are not solved again just to explain them.
pub const MAX_TOKENS: u64 = 4096;

/// The rule of row `row`, as the sweep gave it (`None` when the columns do
/// not make the row's `rule` label again).
fn row_rule(t: &Table, row: usize) -> Option<Rule> {
    // The grid's parameters: the columns the family does not declare.
    let params: Vec<(String, i64)> = t
        .columns()
        .iter()
        .map(|(name, _)| name)
        .filter(|name| DATASETS.iter().all(|d| d.column(name).is_none()))
        .filter_map(|p| Some((p.clone(), t.int(p, row)?)))
        .collect();
    let names: Vec<String> = params.iter().map(|p| p.0.clone()).collect();
    let mv = Cond::compile(t.text("move_condition", row)?, &NAMES[..5], &names).ok()?;
    let both = match t.text("both", row) {
        Some(b) => Some(Cond::compile(b, &["t", "n1", "n2"], &names).ok()?),
        None => None,
    };
    let rule = Rule {
        mv,
        both,
        split: matches!(t.cell("split", row), Some(Cell::Bool(true))),
        play: Play::parse(t.text("play", row)?)?,
        params,
    };
    (t.text("rule", row) == Some(rule.label().as_str())).then_some(rule)
}

/// The row's heaps: `N`, or `N1`..`N3`.
fn row_heaps(t: &Table, row: usize) -> Option<Vec<u32>> {
    let heaps: Vec<i64> = match t.int("N", row) {
        Some(n) => vec![n],
        None => ["N1", "N2", "N3"]
            .iter()
            .filter_map(|c| t.int(c, row))
            .collect(),
    };
    if heaps.is_empty() {
        return None;
    }
    heaps.into_iter().map(|n| u32::try_from(n).ok()).collect()
}

/// `26` for one heap, `(3,2)` for several.
fn heaps_text(h: &[u32]) -> String {
    match h {
        [n] => n.to_string(),
        _ => {
            let s: Vec<String> = h.iter().map(u32::to_string).collect();
            format!("({})", s.join(","))
        }
    }
}

/// `taking 3`, `taking 2 from B`, `taking 2 from A and B`, `taking 3 and
/// leaving the rest as 4 + 1`.
fn move_words(m: &Move, heaps: &[u32]) -> String {
    let letter = |i: usize| ((b'A' + i as u8) as char).to_string();
    let mut s = format!("taking {}", m.take);
    match m.heap2 {
        Some(j) => s.push_str(&format!(" from {} and {}", letter(m.heap), letter(j))),
        None if heaps.len() > 1 => s.push_str(&format!(" from {}", letter(m.heap))),
        None => {}
    }
    if m.split > 0 {
        let rest = heaps[m.heap] - m.take;
        s.push_str(&format!(
            " and leaving the rest as {} + {}",
            rest - m.split,
            m.split
        ));
    }
    s
}

/// Each first move and whether the position it leads to is lost for the
/// player then to move (with its Grundy value where the game has them).
type Solved = (Vec<(Move, Vec<u32>, bool, Option<u32>)>, bool, Option<u32>);

/// The position's first moves solved again, and the position's own
/// outcome (`true`: a loss for the player to move) and Grundy value.
fn solve_moves(rule: &Rule, heaps: &[u32]) -> Option<Solved> {
    let tokens: u64 = heaps.iter().map(|&n| u64::from(n)).sum();
    if tokens > MAX_TOKENS || (rule.split && !rule.has_grundy() && tokens > SPLIT_MISERE_TOKENS) {
        return None;
    }
    let mut all = Vec::new();
    let mut env = rule.env();
    rule.moves(&mut env, heaps, History::default(), |m, next| {
        all.push((m, next.to_vec()))
    });
    if rule.has_grundy() {
        let top = heaps.iter().copied().max().unwrap_or(0) as usize;
        let g = grundy_values(rule, top + 1);
        let sum = |h: &[u32]| h.iter().fold(0, |x, &n| x ^ g.get(n as usize));
        let own = sum(heaps);
        let moves = all
            .into_iter()
            .map(|(m, next)| {
                let v = sum(&next);
                (m, next, v == 0, Some(v))
            })
            .collect();
        return Some((moves, own == 0, Some(own)));
    }
    let mut j = Joint::new(rule);
    let h = History::default();
    let own = j.loses(heaps, h);
    let moves = all
        .into_iter()
        .map(|(m, next)| {
            let p = j.loses(&next, h.after(m.take));
            (m, next, p, None)
        })
        .collect();
    Some((moves, own, None))
}

/// A `rule_positions` row by its moves at the start of a game: each take
/// and the heaps it leaves, grouped by whether that is a loss for the
/// opponent (P) or a win (N), and the conclusion.
pub fn first_moves(dataset: &str, t: &Table, row: usize) -> Option<MoveAccount> {
    if dataset != "rule_positions" {
        return None;
    }
    let rule = row_rule(t, row)?;
    let heaps = row_heaps(t, row)?;
    let (moves, own_p, own_g) = solve_moves(&rule, &heaps)?;
    let here = if heaps.len() == 1 {
        format!("a heap of {}", heaps[0])
    } else {
        heaps_text(&heaps)
    };
    let memory = if rule.history() {
        " (the take remembered for the next move)"
    } else {
        ""
    };
    let lines: Vec<(String, String, u8)> = moves
        .iter()
        .map(|(m, next, p, g)| {
            let grundy = g.map(|v| format!(" (Grundy {v})")).unwrap_or_default();
            let line = format!(
                "{} leaves {}{grundy}",
                move_words(m, &heaps),
                heaps_text(next)
            );
            let (to, k) = if *p {
                (format!("a loss for the opponent (P){memory}"), 0)
            } else {
                (format!("a win for the opponent (N){memory}"), 1)
            };
            (line, to, k)
        })
        .collect();
    let grundy = own_g
        .map(|g| format!(", Grundy value {g}"))
        .unwrap_or_default();
    let conclusion = match moves.iter().find(|x| x.2) {
        _ if moves.is_empty() => {
            let who = if rule.play == Play::Misere {
                "wins"
            } else {
                "loses"
            };
            format!(
                "no move: the player to move {who} ({} play), so {here} is {}",
                rule.play.as_str(),
                if own_p { "P" } else { "N" }
            )
        }
        Some((m, next, _, _)) => format!(
            "{} leaves {}, a loss for the opponent: {here} is a win for the player to move (N{grundy})",
            move_words(m, &heaps),
            heaps_text(next)
        ),
        None => format!(
            "every move leaves the opponent a win: {here} is a loss for the player to move (P{grundy})"
        ),
    };
    // The account must agree with the stored outcome, else say nothing.
    let stored = t.text("outcome", row)?;
    if stored != if own_p { "P" } else { "N" } {
        return None;
    }
    Some(MoveAccount {
        position: format!("{here} ({} play)", rule.play.as_str()),
        groups: group(lines),
        conclusion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{StrVec, Values};

    fn row(cond: &str, play: &str, n: i64, outcome: &str) -> Table {
        let s = |v: &str| Values::Str([v].into_iter().collect::<StrVec>());
        Table::new()
            .with("rule", s(cond))
            .with("move_condition", s(cond))
            .with("split", Values::Bool(vec![false]))
            .with("play", s(play))
            .with("N", Values::Int(vec![n]))
            .with("outcome", s(outcome))
    }

    /// Take a square, by hand: from 2 the only move takes 1 and leaves 1,
    /// from which taking 1 wins (Grundy mex{0} = 1), so 2 is a loss (Grundy
    /// mex{1} = 0). Misère from 1: taking the last token loses, so 1 is P.
    #[test]
    fn a_heap_is_explained_by_its_takes() {
        let a = first_moves("rule_positions", &row("is_square(t)", "normal", 2, "P"), 0)
            .expect("an account");
        assert_eq!(a.position, "a heap of 2 (normal play)");
        assert_eq!(a.moves(), 1);
        assert_eq!(a.groups[0].leads_to, "a win for the opponent (N)");
        assert!(
            a.text().contains("taking 1 leaves 1 (Grundy 1)"),
            "{}",
            a.text()
        );
        assert!(
            a.text()
                .contains("a loss for the player to move (P, Grundy value 0)")
        );
        let m = first_moves("rule_positions", &row("is_square(t)", "misere", 1, "P"), 0)
            .expect("an account");
        assert!(m.text().contains("taking 1 leaves 0"), "{}", m.text());
        // A stored outcome the moves contradict gets no account.
        assert_eq!(
            first_moves("rule_positions", &row("is_square(t)", "normal", 2, "N"), 0),
            None
        );
    }

    /// Fibonacci nim from 3, by hand: the first move takes 1 or 2 (less
    /// than the heap). Taking 1 leaves 2 and lets the opponent take up to 2:
    /// they take both and win; taking 2 leaves 1, taken at once. Every move
    /// leaves a win: 3 is P. From 4, taking 1 leaves 3 with takes of at most
    /// 2 for the opponent: they take 1 or 2 and the mover takes the rest.
    #[test]
    fn a_rule_with_history_is_explained_by_its_takes() {
        let fib = "first ? t < n : t <= 2 * last";
        let a = first_moves("rule_positions", &row(fib, "normal", 3, "P"), 0).expect("an account");
        assert_eq!(a.moves(), 2);
        let text = a.text();
        for part in [
            "2 moves reach a win for the opponent (N) (the take remembered",
            "taking 1 leaves 2",
            "taking 2 leaves 1",
            "Every move leaves the opponent a win: a heap of 3 is a loss for the player to move (P)",
        ] {
            assert!(text.contains(part), "{part:?} in {text}");
        }
        let b = first_moves("rule_positions", &row(fib, "normal", 4, "N"), 0).expect("an account");
        assert!(
            b.text()
                .contains("Taking 1 leaves 3, a loss for the opponent: a heap of 4 is a win"),
            "{}",
            b.text()
        );
    }
}
