//! A capability a family opts into: explaining a position by its moves, for
//! a counterexample a student can check by hand. The family lists the
//! position's first moves in its report's own notation and where each leads
//! (`taking (0,2) leaves A(1,2) + A(1,2): N2`), grouped where many lead alike,
//! and the conclusion (`no move reaches N1 … so A(1,5) is N1`). The core asks
//! a family for the capability ([`super::Capabilities::explains_moves`]) and writes
//! the account; a family without it gives its one-line reason, if any.

use crate::data::Table;

/// Moves shown at most in one group (the rest counted).
pub const SHOWN_PER_GROUP: usize = 4;

/// Groups shown at most (the rest counted).
pub const SHOWN_GROUPS: usize = 10;

/// Moves that lead alike: the moves as the report writes them (each line
/// may stand for several moves alike, `taking (1,0) or (3,0) leaves …`) and
/// where they lead.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveGroup {
    /// Where every move of the group leads (`N2 (Grundy 0)`, `26, a loss`).
    pub leads_to: String,
    /// The moves, as the report writes them, each with the number of moves
    /// it stands for.
    pub moves: Vec<(String, usize)>,
}

impl MoveGroup {
    /// The moves the group stands for.
    pub fn count(&self) -> usize {
        self.moves.iter().map(|m| m.1).sum()
    }
}

/// A position explained by its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAccount {
    /// The position as the report names it (`A(1,5)`, `(3,5,7)`, `N = 29`).
    pub position: String,
    /// The moves grouped by where they lead, in the order to be read.
    pub groups: Vec<MoveGroup>,
    /// What a student concludes from the moves (`no move reaches N1 (Grundy
    /// 1), so A(1,5) is N1`).
    pub conclusion: String,
}

impl MoveAccount {
    /// All moves counted.
    pub fn moves(&self) -> usize {
        self.groups.iter().map(MoveGroup::count).sum()
    }

    /// One paragraph: `A(1,5) has 6 moves. 4 moves reach N2 (Grundy 0):
    /// taking … leaves …; …. 2 moves reach …. The moves reach …`, at most [`SHOWN_GROUPS`] groups and [`SHOWN_PER_GROUP`]
    /// moves of each written out.
    pub fn text(&self) -> String {
        let n = self.moves();
        let mut groups: Vec<String> = self
            .groups
            .iter()
            .take(SHOWN_GROUPS)
            .map(group_text)
            .collect();
        if self.groups.len() > SHOWN_GROUPS {
            let rest: usize = self.groups[SHOWN_GROUPS..]
                .iter()
                .map(MoveGroup::count)
                .sum();
            groups.push(format!("{rest} more moves"));
        }
        if n == 0 {
            return format!(
                "{} has no move. {}",
                self.position,
                capital(&self.conclusion)
            );
        }
        let moves = if n == 1 { "move" } else { "moves" };
        format!(
            "{} has {n} {moves}. {}. {}",
            self.position,
            groups.join(". "),
            capital(&self.conclusion)
        )
    }
}

/// `2 moves reach 26, a loss: taking 3, taking 13`.
fn group_text(g: &MoveGroup) -> String {
    let mut shown: Vec<&str> = g
        .moves
        .iter()
        .take(SHOWN_PER_GROUP)
        .map(|m| m.0.as_str())
        .collect();
    let more;
    if g.moves.len() > SHOWN_PER_GROUP {
        let rest: usize = g.moves[SHOWN_PER_GROUP..].iter().map(|m| m.1).sum();
        more = format!("… {rest} more");
        shown.push(&more);
    }
    let n = g.count();
    let (moves, reach) = if n == 1 {
        ("move", "reaches")
    } else {
        ("moves", "reach")
    };
    format!("{n} {moves} {reach} {}: {}", g.leads_to, shown.join("; "))
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Groups `(move, where it leads, order)` triples by where they lead,
/// sorted by `order` (ties in first-seen order); the same move text twice
/// is one line standing for two moves.
pub fn group<K: Ord>(moves: Vec<(String, String, K)>) -> Vec<MoveGroup> {
    let mut groups: Vec<(K, MoveGroup)> = Vec::new();
    for (m, to, key) in moves {
        let g = match groups.iter().position(|(_, g)| g.leads_to == to) {
            Some(i) => &mut groups[i].1,
            None => {
                groups.push((
                    key,
                    MoveGroup {
                        leads_to: to,
                        moves: Vec::new(),
                    },
                ));
                &mut groups.last_mut().expect("just pushed").1
            }
        };
        match g.moves.iter_mut().find(|x| x.0 == m) {
            Some(x) => x.1 += 1,
            None => g.moves.push((m, 1)),
        }
    }
    groups.sort_by(|a, b| a.0.cmp(&b.0));
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The capability: a family's function explaining a stored row's position
/// by its first moves: the moves of row `row` of a stored `dataset` table
/// and where each leads, or `None` where the family cannot say for that
/// row ([`crate::family::Capabilities::explains_moves`]).
pub type FirstMoves = fn(dataset: &str, table: &Table, row: usize) -> Option<MoveAccount>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_by_destination_and_writes_a_paragraph() {
        let g = group(vec![
            ("taking 1".into(), "28, a win".into(), 1),
            ("taking 3".into(), "26, a loss".into(), 0),
            ("taking 2".into(), "27, a win".into(), 1),
        ]);
        assert_eq!(g.len(), 3);
        assert_eq!(g[0].leads_to, "26, a loss");
        let a = MoveAccount {
            position: "N = 29".into(),
            groups: g,
            conclusion: "taking 3 wins".into(),
        };
        assert_eq!(
            a.text(),
            "N = 29 has 3 moves. 1 move reaches 26, a loss: taking 3. 1 move reaches 28, a win: taking 1. 1 move reaches 27, a win: taking 2. Taking 3 wins"
        );
        // The same text twice is one line for two moves; past four lines
        // the rest are counted.
        let same = group(vec![
            ("a".into(), "x".into(), 0),
            ("b".into(), "x".into(), 0),
            ("b".into(), "x".into(), 0),
            ("c".into(), "x".into(), 0),
            ("d".into(), "x".into(), 0),
            ("e".into(), "x".into(), 0),
            ("f".into(), "x".into(), 0),
        ]);
        assert_eq!(same[0].count(), 7);
        assert_eq!(
            group_text(&same[0]),
            "7 moves reach x: a; b; c; d; … 2 more"
        );
    }
}
