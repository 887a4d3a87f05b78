//! Octal counterexamples in moves ([`crate::family::explain_moves::FirstMoves`]): a heap's first moves
//! as the code allows them (`taking 2 leaves 1 + 3`), where each leads and
//! the conclusion a student checks by hand. Normal play: each move's
//! nim-value is the nim-sum of the heaps it leaves (read from the rows of
//! the same code), and the heap's value is the mex of those. Misère play:
//! a move that leaves at most one heap, with that heap's outcome (a move
//! that leaves two heaps has no value in a one-heap table: no account).

use std::collections::{BTreeSet, HashMap};

use super::code::{Code, Split};
use crate::data::Table;
use crate::family::explain_moves::{MoveAccount, group};

/// The value of every heap size stored for this row's code and play:
/// the nim-value (normal play) or `P`/`N` as 0/1 (misère play).
fn values(t: &Table, code: &str, play: &str) -> HashMap<u64, i64> {
    let normal = play == "normal";
    (0..t.rows())
        .filter(|&i| t.text("code", i) == Some(code) && t.text("play", i) == Some(play))
        .filter_map(|i| {
            let n = u64::try_from(t.int("N", i)?).ok()?;
            let v = if normal {
                t.int("grundy", i)?
            } else {
                i64::from(t.text("outcome", i)? == "N")
            };
            Some((n, v))
        })
        .collect()
}

/// `taking 2 leaves 1 + 3`, `taking 3 leaves 4`, `taking 3 leaves nothing`.
fn move_words(s: &Split) -> String {
    match (s.left, s.right) {
        (0, 0) => format!("taking {} leaves nothing", s.take),
        (0, r) => format!("taking {} leaves {r}", s.take),
        (a, b) => format!("taking {} leaves {a} + {b}", s.take),
    }
}

/// The smallest value ≥ 0 not in `reached`.
fn mex(reached: &BTreeSet<i64>) -> i64 {
    (0..).find(|v| !reached.contains(v)).unwrap_or(0)
}

/// The account of row `row` of `nim_values` (one heap), or `None` where a
/// value it needs is not stored.
pub fn first_moves(dataset: &str, t: &Table, row: usize) -> Option<MoveAccount> {
    if dataset != "nim_values" {
        return None;
    }
    let code_text = t.text("code", row)?;
    let play = t.text("play", row)?;
    let code = Code::parse(code_text).ok()?;
    let n = u64::try_from(t.int("N", row)?).ok()?;
    let known = values(t, code_text, play);
    let value = |h: u64| {
        if h == 0 {
            Some(0)
        } else {
            known.get(&h).copied()
        }
    };
    let here = format!("a heap of {n} ({code_text}, {play} play)");
    let splits = code.moves(n);
    if play == "normal" {
        normal_account(here, &splits, &value)
    } else {
        misere_account(here, &splits, &value)
    }
}

/// Normal play: each move's Grundy value, their mex, a winning move.
fn normal_account(
    here: String,
    splits: &[Split],
    value: &dyn Fn(u64) -> Option<i64>,
) -> Option<MoveAccount> {
    let mut moves = Vec::new();
    let mut reached = BTreeSet::new();
    let mut winning = None;
    for s in splits {
        let v = value(s.left)? ^ value(s.right)?;
        reached.insert(v);
        let mut words = move_words(s);
        if s.left > 0 {
            words = format!(
                "{words} (Grundy {} ⊕ {} = {v})",
                value(s.left)?,
                value(s.right)?
            );
        }
        let to = if v == 0 {
            winning.get_or_insert_with(|| move_words(s));
            "Grundy 0, a loss for the opponent (P)".to_string()
        } else {
            format!("Grundy {v}")
        };
        moves.push((words, to, v));
    }
    let m = mex(&reached);
    let listed: Vec<String> = reached.iter().map(i64::to_string).collect();
    let conclusion = match (&winning, splits.is_empty()) {
        (_, true) => {
            format!("no move: {here} has Grundy value 0, a loss for the player to move (P)")
        }
        (Some(w), _) => format!(
            "the moves reach the values {{{}}}; the smallest value not among them (the mex) is {m}, so {here} has Grundy value {m}, a win for the player to move: {w}",
            listed.join(", ")
        ),
        (None, _) => format!(
            "the moves reach the values {{{}}}; 0 is not among them, so {here} has Grundy value 0: a loss for the player to move (P)",
            listed.join(", ")
        ),
    };
    Some(MoveAccount {
        position: here,
        groups: group(moves),
        conclusion,
    })
}

/// Misère play, one heap: which moves leave the opponent a loss.
fn misere_account(
    here: String,
    splits: &[Split],
    value: &dyn Fn(u64) -> Option<i64>,
) -> Option<MoveAccount> {
    // Misère, one heap: leaving nothing means taking the last token.
    let mut moves = Vec::new();
    let mut winning = None;
    for s in splits {
        if s.left > 0 {
            return None;
        }
        let (to, key) = if s.right == 0 {
            (
                "nothing: the mover took the last token and loses".to_string(),
                1,
            )
        } else if value(s.right)? == 0 {
            winning.get_or_insert_with(|| move_words(s));
            ("a loss for the opponent (P)".to_string(), 0)
        } else {
            ("a win for the opponent (N)".to_string(), 1)
        };
        moves.push((move_words(s), to, key));
    }
    let conclusion = match (&winning, splits.is_empty()) {
        (_, true) => format!("no move: the player to move at {here} wins (misère play)"),
        (Some(w), _) => format!("{here} is a win for the player to move (N): {w}"),
        (None, _) => format!(
            "no move leaves the opponent a loss: {here} is a loss for the player to move (P)"
        ),
    };
    Some(MoveAccount {
        position: here,
        groups: group(moves),
        conclusion,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{StrVec, Values};

    /// A `nim_values` table of one code and play, N = 0..values.len().
    fn table(code: &str, play: &str, grundy: &[i64], outcome: &[&str]) -> Table {
        let n = grundy.len().max(outcome.len());
        let strs = |x: &str| Values::Str((0..n).map(|_| x).collect::<StrVec>());
        let mut t = Table::new()
            .with("code", strs(code))
            .with("play", strs(play))
            .with("N", Values::Int((0..n as i64).collect()));
        if !grundy.is_empty() {
            t = t.with("grundy", Values::Int(grundy.to_vec()));
        }
        if !outcome.is_empty() {
            t = t.with(
                "outcome",
                Values::Str(outcome.iter().copied().collect::<StrVec>()),
            );
        }
        t
    }

    /// Kayles (0.77), nim-values 0, 1, 2, 3, 1, 4, 3 (OEIS A002186). From
    /// 4: taking 1 leaves 3 (3) or 1 + 2 (1 ⊕ 2 = 3), taking 2 leaves 2 (2)
    /// or 1 + 1 (0): the values {0, 2, 3}, mex 1 = G(4), and 1 + 1 wins.
    #[test]
    fn kayles_four_by_hand() {
        let t = table("0.77", "normal", &[0, 1, 2, 3, 1, 4, 3], &[]);
        let a = first_moves("nim_values", &t, 4).expect("an account");
        assert_eq!(a.moves(), 4);
        assert_eq!(
            a.groups[0].leads_to,
            "Grundy 0, a loss for the opponent (P)"
        );
        assert_eq!(
            a.groups[0].moves[0].0,
            "taking 2 leaves 1 + 1 (Grundy 1 ⊕ 1 = 0)"
        );
        let text = a.text();
        assert!(text.contains("2 moves reach Grundy 3: taking 1 leaves 3; taking 1 leaves 1 + 2 (Grundy 1 ⊕ 2 = 3)"), "{text}");
        assert!(
            a.conclusion
                .contains("the values {0, 2, 3}; the smallest value not among them (the mex) is 1")
                && a.conclusion.ends_with("taking 2 leaves 1 + 1"),
            "{}",
            a.conclusion
        );
        // Another dataset, or a value not stored: no account.
        assert!(first_moves("periods", &t, 4).is_none());
        let s = |x: &str| Values::Str([x, x].into_iter().collect::<StrVec>());
        let gap = Table::new()
            .with("code", s("0.77"))
            .with("play", s("normal"))
            .with("N", Values::Int(vec![0, 2]))
            .with("grundy", Values::Int(vec![0, 2]));
        assert!(first_moves("nim_values", &gap, 1).is_none());
    }

    /// Misère 0.07 (Dawson's Kayles: take 2 leaving nothing, one or two
    /// heaps): from 2 the only move takes the last two tokens and loses,
    /// so 2 is P in misère play; from 3 taking 2 leaves 1, which has no
    /// move (its mover wins: N); no winning move, 3 is P.
    #[test]
    fn misere_one_heap_by_hand() {
        let t = table("0.07", "misere", &[], &["N", "N", "P", "P"]);
        let a = first_moves("nim_values", &t, 2).expect("an account");
        assert_eq!(a.moves(), 1);
        assert!(
            a.groups[0]
                .leads_to
                .starts_with("nothing: the mover took the last token")
        );
        assert!(
            a.conclusion
                .ends_with("is a loss for the player to move (P)")
        );
        let b = first_moves("nim_values", &t, 3).expect("an account");
        assert_eq!(b.groups[0].moves[0].0, "taking 2 leaves 1");
        assert_eq!(b.groups[0].leads_to, "a win for the opponent (N)");
    }
}
