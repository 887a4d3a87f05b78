//! `strategy:` — a strategy played out against every reply. The claim's
//! `strategy:` gives, for a position (a row), the position its move leaves
//! (the position columns it changes, as `other:` does; null: the strategy
//! names no move there). From each position the strategy's player is to
//! move: the strategy's move must be a legal move, and after it every reply
//! of the opponent, to the end of the game, must leave a position where the
//! strategy again names a legal move, until the opponent is the one who
//! loses. The game's moves come from the family ([`crate::family::Capabilities::plays_out`]), never
//! from a stored result, so the verdict does not rest on the solver.
//!
//! The table gets two columns: `strategy_wins` (the claim read by default)
//! and `strategy_line`, the first line of play that beats the strategy
//! (null where it wins).

use super::other::{Target, targets};
use crate::data::columns::StrVec;
use crate::data::{Dataset, Table, Values};
use crate::family::{Family, Moves};

/// The column holding the line of play that beats the strategy.
pub(super) const LINE: &str = "strategy_line";

/// Positions of a line of play shown at most.
const SHOWN: usize = 41;

/// How the strategy loses from a position where its player is to move.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Lost {
    /// The strategy names no move here.
    NoMove,
    /// The strategy's position is not one move away (its text).
    Illegal(String),
    /// Its move (to the row) leaves the opponent no move, which wins for
    /// them (misère play).
    LastMove(usize),
    /// Its player has no move here and loses (normal play).
    Stuck,
    /// Its move (to `.0`) and the reply `.1` lead back to a position of the
    /// same line: the play need not end.
    Cycle(usize, usize),
    /// Its move (to `.0`) and the reply `.1`, from which it loses.
    Reply(usize, usize),
}

/// For every row: `None` when the strategy's player, to move there, wins
/// by following the strategy against every reply; else how it loses.
pub(super) fn play_out(m: &Moves, targets: &[Target]) -> Vec<Option<Lost>> {
    let n = m.options.len();
    // 0 new, 1 on the current line, 2 decided.
    let mut state = vec![0u8; n];
    let mut result: Vec<Option<Lost>> = vec![None; n];
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        // Frames: (row, the strategy's move, the next reply to try).
        let mut stack: Vec<(usize, usize, usize)> = Vec::new();
        let mut open = Some(start);
        loop {
            if let Some(w) = open.take() {
                state[w] = 1;
                match first_step(m, targets, w) {
                    Ok(q) => stack.push((w, q, 0)),
                    Err(end) => {
                        state[w] = 2;
                        result[w] = end;
                    }
                }
            }
            let Some(&mut (w, q, ref mut i)) = stack.last_mut() else {
                break;
            };
            let mut done: Option<Option<Lost>> = None;
            while *i < m.options[q].len() {
                let r = m.options[q][*i];
                match state[r] {
                    0 => {
                        open = Some(r);
                        break;
                    }
                    1 => {
                        done = Some(Some(Lost::Cycle(q, r)));
                        break;
                    }
                    _ if result[r].is_some() => {
                        done = Some(Some(Lost::Reply(q, r)));
                        break;
                    }
                    _ => *i += 1,
                }
            }
            if open.is_some() {
                continue;
            }
            let end = done.unwrap_or(None);
            stack.pop();
            state[w] = 2;
            result[w] = end;
        }
    }
    result
}

/// The strategy's move from `w` (a row with options to reply from), or
/// the decided end when there is none to play out: `Err(None)` a win.
fn first_step(m: &Moves, targets: &[Target], w: usize) -> Result<usize, Option<Lost>> {
    if m.options[w].is_empty() {
        return Err((!m.no_move_wins[w]).then_some(Lost::Stuck));
    }
    let q = match &targets[w] {
        Target::Null => return Err(Some(Lost::NoMove)),
        Target::Outside(s) => return Err(Some(Lost::Illegal(s.clone()))),
        Target::Row(q) if !m.options[w].contains(q) => {
            return Err(Some(Lost::Illegal(m.name[*q].clone())));
        }
        Target::Row(q) => *q,
    };
    if m.options[q].is_empty() {
        return Err(m.no_move_wins[q].then_some(Lost::LastMove(q)));
    }
    Ok(q)
}

/// The line of play from `w` that beats the strategy, in words:
/// `(1,2,4) → (1,2,3) → (1,1,3) → …: the strategy names no move for (1,1,3)`.
pub(super) fn line(m: &Moves, result: &[Option<Lost>], w: usize) -> Option<String> {
    let mut rows = vec![w];
    let mut at = w;
    let end = loop {
        match result[at].as_ref()? {
            Lost::Reply(q, r) => {
                rows.extend([*q, *r]);
                at = *r;
            }
            Lost::LastMove(q) => {
                rows.push(*q);
                break format!(
                    "the strategy's move to {} is the last move, and the player who cannot move wins: the opponent",
                    m.name[*q]
                );
            }
            Lost::Cycle(q, r) => {
                rows.extend([*q, *r]);
                break format!("{} comes back, so the play need not end", m.name[*r]);
            }
            Lost::NoMove => break format!("the strategy names no move for {}", m.name[at]),
            Lost::Illegal(s) => {
                break format!("the strategy's {s} is not one move from {}", m.name[at]);
            }
            Lost::Stuck => {
                break format!(
                    "the strategy's player has no move at {} and loses",
                    m.name[at]
                );
            }
        }
    };
    let mut names: Vec<&str> = rows.iter().map(|&r| m.name[r].as_str()).collect();
    if names.len() > SHOWN {
        names.drain(SHOWN - 1..names.len() - 1);
        names.insert(SHOWN - 1, "…");
    }
    Some(format!("the line of play {}: {end}", names.join(" → ")))
}

/// `table` with the columns `strategy_wins` and `strategy_line`.
pub(super) fn with_strategy(
    table: &Table,
    ds: Option<&Dataset>,
    family: Option<&dyn Family>,
    dataset: &str,
    strategy: &[(String, String)],
) -> Result<Table, String> {
    let m = moves_of(family, dataset, table)?;
    let to = targets(table, ds, strategy, "strategy")?;
    let result = play_out(&m, &to);
    let mut lines = StrVec::with_capacity(table.rows(), 0);
    for w in 0..table.rows() {
        lines.push_opt(line(&m, &result, w).as_deref());
    }
    let mut t = table.clone();
    t.push(
        crate::spec::STRATEGY_WINS,
        Values::Bool(result.iter().map(Option::is_none).collect()),
    );
    t.push(LINE, Values::Str(lines));
    Ok(t)
}

/// Rows in scope where another strategy move is tried, at most.
const ROWS_TRIED: usize = 32;

/// `--mutate` for a strategy: one of the strategy's moves replaced by
/// another legal move of the same position (or, where every other move
/// wins as well, by no move), played out again, so that the claim fails:
/// the verdict rests on the strategy's moves, not on a stored cell. `None`
/// when no such change makes the claim false on its scope.
pub(super) fn mutation(
    table: &Table,
    ds: Option<&Dataset>,
    family: Option<&dyn Family>,
    dataset: &str,
    strategy: &[(String, String)],
    filter: Option<&str>,
    claim: &str,
) -> Result<Option<super::mutate::Mutation>, String> {
    let m = moves_of(family, dataset, table)?;
    let to = targets(table, ds, strategy, "strategy")?;
    let test = |t: &Table, e: &str| -> Result<Vec<Option<bool>>, String> {
        let x = crate::expr::Expr::compile_predicate(e, t).map_err(|e| e.to_string())?;
        let b = x.bind(t).map_err(|e| e.to_string())?;
        Ok((0..t.rows()).map(|r| b.test(r)).collect())
    };
    let scope: Vec<usize> = match filter {
        Some(f) => test(table, f)?
            .iter()
            .enumerate()
            .filter(|x| *x.1 == Some(true))
            .map(|x| x.0)
            .collect(),
        None => (0..table.rows()).collect(),
    };
    let fails = |to: &[Target]| -> Result<bool, String> {
        let result = play_out(&m, to);
        let mut t = table.clone();
        t.push(
            crate::spec::STRATEGY_WINS,
            Values::Bool(result.iter().map(Option::is_none).collect()),
        );
        t.push(LINE, Values::Null(table.rows()));
        let holds = test(&t, claim)?;
        Ok(scope.iter().any(|&r| holds[r] == Some(false)))
    };
    let step = scope.len().div_ceil(ROWS_TRIED).max(1);
    let mut no_move = None;
    for &r in scope.iter().step_by(step) {
        let Target::Row(q) = to[r] else { continue };
        for &q2 in m.options[r].iter().filter(|&&x| x != q) {
            let mut changed = to.clone();
            changed[r] = Target::Row(q2);
            if fails(&changed)? {
                return Ok(Some(super::mutate::Mutation {
                    row: r,
                    column: format!("the strategy's move from {}", m.name[r]),
                    from: m.name[q].clone(),
                    to: m.name[q2].clone(),
                    contradicts: None,
                }));
            }
        }
        if no_move.is_none() {
            let mut changed = to.clone();
            changed[r] = Target::Null;
            if fails(&changed)? {
                no_move = Some(super::mutate::Mutation {
                    row: r,
                    column: format!("the strategy's move from {}", m.name[r]),
                    from: m.name[q].clone(),
                    to: "no move (every other move wins too)".to_string(),
                    contradicts: None,
                });
            }
        }
    }
    Ok(no_move)
}

/// The moves between the rows of `table` ([`crate::family::Capabilities::plays_out`]).
fn moves_of(
    family: Option<&dyn Family>,
    dataset: &str,
    table: &Table,
) -> Result<crate::family::Moves, String> {
    let family = family.ok_or("`strategy:` needs the sweep's family (its moves)")?;
    let plays_out = family.capabilities().plays_out.ok_or_else(|| {
        format!(
            "the family `{}` cannot play positions of dataset `{dataset}` out",
            family.name()
        )
    })?;
    plays_out(dataset, table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{CheckOptions, check_scoped};
    use crate::family::sweep_rows;
    use crate::family::takeaway::{Takeaway, datasets::POSITIONS};
    use crate::spec::Parts;

    /// Normal play's strategy on three heaps: leave Nim-sum 0, taking from
    /// the first heap that allows it (none from a P-position).
    fn nim_sum_strategy() -> Vec<(String, String)> {
        let x = "let x = xor(N1, N2, N3); x == 0 ? null : ";
        vec![
            (
                "N1".to_string(),
                format!("{x}xor(N1, x) < N1 ? xor(N1, x) : N1"),
            ),
            (
                "N2".to_string(),
                format!("{x}xor(N2, x) < N2 and xor(N1, x) >= N1 ? xor(N2, x) : N2"),
            ),
            (
                "N3".to_string(),
                format!(
                    "{x}xor(N3, x) < N3 and xor(N1, x) >= N1 and xor(N2, x) >= N2 ? xor(N3, x) : N3"
                ),
            ),
        ]
    }

    /// One heap of 0..=6 stones, take 1 or 2, normal play, built by hand:
    /// row N is the heap N.
    fn take_one_or_two() -> Moves {
        Moves {
            options: (0..=6usize)
                .map(|n| [1, 2].iter().filter(|&&t| t <= n).map(|t| n - t).collect())
                .collect(),
            no_move_wins: vec![false; 7],
            name: (0..=6).map(|n| format!("({n})")).collect(),
        }
    }

    #[test]
    fn leaving_a_multiple_of_three_wins_and_taking_one_does_not() {
        let m = take_one_or_two();
        // Leave a multiple of 3 (none to leave from 0, 3, 6).
        let right: Vec<Target> = (0..=6)
            .map(|n| match n % 3 {
                0 => Target::Null,
                r => Target::Row(n - r),
            })
            .collect();
        let won = play_out(&m, &right);
        assert_eq!(won[1], None);
        assert_eq!(won[2], None);
        assert_eq!(won[4], None);
        assert_eq!(won[5], None);
        assert_eq!(won[0], Some(Lost::Stuck));
        assert_eq!(won[3], Some(Lost::NoMove));
        // Always take one: wins from 1 (the opponent is left no move), loses
        // from 2: 2 → 1, the reply takes the last stone.
        let wrong: Vec<Target> = (0..=6)
            .map(|n| {
                if n == 0 {
                    Target::Null
                } else {
                    Target::Row(n - 1)
                }
            })
            .collect();
        let won = play_out(&m, &wrong);
        assert_eq!(won[1], None);
        assert_eq!(won[2], Some(Lost::Reply(1, 0)));
        assert_eq!(won[4], Some(Lost::Reply(3, 2)));
        assert_eq!(
            line(&m, &won, 4).unwrap(),
            "the line of play (4) → (3) → (2) → (1) → (0): the strategy's player has no move at (0) and loses"
        );
        // A move that is not a move: from 5 to 2 (a take of 3).
        let mut bad = right.clone();
        bad[5] = Target::Row(2);
        assert_eq!(
            play_out(&m, &bad)[5],
            Some(Lost::Illegal("(2)".to_string()))
        );
    }

    /// `--mutate` on a strategy that wins: Bouton's Nim-sum strategy in
    /// normal Nim on heaps of 0..2 wins from every N-position; replacing
    /// one of its moves by another legal move of the same position (any
    /// move that does not leave Nim-sum 0) makes it lose from there, by
    /// Bouton's theorem, so a change is found, and it is a legal move.
    #[test]
    fn another_strategy_move_refutes_a_strategy_claim() {
        let yaml = "take: any\nheaps: 3\nN1: 0..2\nN2: 0..2\nN3: 0..2\n";
        let t = sweep_rows(&Takeaway, yaml, "positions").unwrap().unwrap();
        let strategy = nim_sum_strategy();
        let f: &dyn Family = &Takeaway;
        let filter = Some("xor(N1, N2, N3) != 0");
        let played = with_strategy(&t, Some(&POSITIONS), Some(f), "positions", &strategy).unwrap();
        let r = check_scoped(
            &played,
            Some(&POSITIONS),
            filter,
            crate::spec::STRATEGY_WINS,
            &Parts::Whole,
            None,
            &CheckOptions::default(),
        )
        .unwrap();
        assert_eq!(r.verdict, crate::check::Verdict::Holds);
        let m = mutation(
            &t,
            Some(&POSITIONS),
            Some(f),
            "positions",
            &strategy,
            filter,
            crate::spec::STRATEGY_WINS,
        )
        .unwrap()
        .expect("another move loses");
        assert!(m.column.starts_with("the strategy's move from ("), "{m:?}");
        assert_ne!(m.from, m.to);
        // The replacement is one move away: one heap smaller, the others equal.
        let heaps = |s: &str| -> Vec<i64> {
            s.trim_matches(['(', ')'])
                .split(',')
                .map(|x| x.trim().parse().unwrap())
                .collect()
        };
        let here = heaps(m.column.trim_start_matches("the strategy's move from "));
        let to = heaps(&m.to);
        let changed: Vec<usize> = (0..3).filter(|&i| here[i] != to[i]).collect();
        assert_eq!(changed.len(), 1, "{m:?}");
        assert!(to[changed[0]] < here[changed[0]], "{m:?}");
        // It leaves a Nim-sum other than 0 (Bouton: the opponent wins).
        assert_ne!(to[0] ^ to[1] ^ to[2], 0, "{m:?}");
    }

    /// Normal play's Nim-sum strategy played out in misère Nim: a wrong
    /// table the check must refute, with its line of play.
    #[test]
    fn the_normal_play_strategy_loses_misere_nim() {
        let yaml = "take: any\nplay: misere\nheaps: 3\nN1: 0..1\nN2: 0..1\nN3: 0..2\n";
        let t = sweep_rows(&Takeaway, yaml, "positions").unwrap().unwrap();
        let strategy = nim_sum_strategy();
        let f: &dyn Family = &Takeaway;
        let played = with_strategy(&t, Some(&POSITIONS), Some(f), "positions", &strategy).unwrap();
        let r = check_scoped(
            &played,
            Some(&POSITIONS),
            Some("N1 == 1 and N2 == 1 and N3 == 2"),
            crate::spec::STRATEGY_WINS,
            &Parts::Whole,
            None,
            &CheckOptions::default(),
        )
        .unwrap();
        let r = crate::check::with_lines(r, &played);
        assert_eq!(r.verdict, crate::check::Verdict::Fails);
        // (1,1,2): the Nim-sum is 2, so the strategy empties heap C; the
        // first reply (heap A) leaves (0,1,0), and the strategy takes the
        // last stone, which loses in misère play.
        let want = "the line of play (1,1,2) → (1,1,0) → (0,1,0) → (0,0,0): the strategy's move to (0,0,0) is the last move, and the player who cannot move wins: the opponent";
        assert_eq!(r.counterexamples[0].line.as_deref(), Some(want));
        assert!(
            r.evidence_sentence().contains(want),
            "{}",
            r.evidence_sentence()
        );
        // From (1,0,0) every move is the last: the strategy loses at once.
        let row = (0..t.rows())
            .find(|&r| {
                [1, 0, 0] == [t.int("N1", r), t.int("N2", r), t.int("N3", r)].map(Option::unwrap)
            })
            .unwrap();
        assert_eq!(
            played.text(LINE, row),
            Some(
                "the line of play (1,0,0) → (0,0,0): the strategy's move to (0,0,0) is the last move, and the player who cannot move wins: the opponent"
            )
        );
    }
}
