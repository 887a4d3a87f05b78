//! `nimlab solve parity`: one position (hands and pile), any pile size once
//! the modulus is proven.

use std::fmt::Write as _;

use std::time::Instant;

use anyhow::{Context, bail};
use serde_json::json;

use super::params::one_rule;
use super::rows::{after_text, player_name};
use super::solver::{Class, Mover, Solution, Variant};
use crate::family::Answer;
use crate::family::solved::{self, Solved, WinningMove};
use crate::params::{CliArg, CliForm, Node};

/// The arguments of `nimlab solve parity` and `nimlab play parity`.
pub const CLI_ARGS: &[CliArg] = &[
    CliArg::new("variant", CliForm::Yaml),
    CliArg::new("k", CliForm::Yaml),
    CliArg::new("take", CliForm::Text),
    CliArg::new("rule", CliForm::Text),
    CliArg::new("r", CliForm::Yaml),
    CliArg::new("a", CliForm::Yaml),
    CliArg::new("b", CliForm::Yaml),
    CliArg::new("odd_hand", CliForm::Yaml),
    CliArg::new("even_hand", CliForm::Yaml),
    CliArg::new("mover", CliForm::Yaml),
    CliArg::new("side", CliForm::Yaml),
];

/// `nimlab solve parity`: who wins a position, with the winning takes.
pub fn solve(pos: &Node<'_>) -> anyhow::Result<Answer> {
    pos.expect_keys(&[
        "variant",
        "k",
        "take",
        "rule",
        "r",
        "a",
        "b",
        "odd_hand",
        "even_hand",
        "mover",
    ])?;
    let (variant, take) = one_rule(pos)?;
    let r = pos
        .req("r", "the pile size, e.g. --r 10")?
        .int(0, i64::MAX)? as u64;
    let hand = |names: &[&str]| -> anyhow::Result<u64> {
        let given: Vec<Node<'_>> = names.iter().filter_map(|n| pos.get(n)).collect();
        if given.len() > 1 {
            bail!("give the hand once (--{})", names.join(" or --"));
        }
        Ok(match given.first() {
            Some(n) => n.int(0, i64::MAX / 4)? as u64,
            None => 0,
        })
    };
    let (a, b) = match variant {
        Variant::Sides => (hand(&["a", "odd_hand"])?, hand(&["b", "even_hand"])?),
        Variant::OddWins => {
            if pos.get("odd_hand").is_some() || pos.get("even_hand").is_some() {
                bail!("in odd_wins the hands are --a (player A's) and --b (player B's)");
            }
            (hand(&["a"])?, hand(&["b"])?)
        }
    };
    if (a + b + r) % 2 != variant.total_parity() {
        let field = if a + b > 0 { "a + b + r" } else { "r" };
        bail!(
            "{field} = {} is {}: in variant {} a + b + r must be {} ({})",
            a + b + r,
            if (a + b + r).is_multiple_of(2) {
                "even"
            } else {
                "odd"
            },
            variant.as_str(),
            if variant.total_parity() == 0 {
                "even"
            } else {
                "odd"
            },
            if variant == Variant::Sides {
                "the initial pile is even, so both hands end with the same parity"
            } else {
                "the initial pile is odd, so exactly one hand ends odd"
            }
        );
    }
    let movers: Vec<Mover> = match pos.get("mover") {
        None => vec![Mover::A, Mover::B],
        Some(m) => {
            let words: &[&str] = if variant == Variant::Sides {
                &["odd", "even"]
            } else {
                &["a", "b"]
            };
            let w = m.word(words)?;
            vec![if w == words[0] { Mover::A } else { Mover::B }]
        }
    };
    // Small piles are computed directly; larger ones are reduced by the proven period.
    let direct = r <= (1 << 22);
    let t0 = Instant::now();
    let s = Solution::solve(
        variant,
        take.takes(),
        if direct { r as usize } else { 0 },
        &|_| {},
    );
    let seconds = t0.elapsed().as_secs_f64();
    let class = s.class(a, b, r).with_context(|| {
        format!(
            "no period proven up to r = {}; cannot answer r = {r}",
            s.end()
        )
    })?;
    let (na, nb) = match variant {
        Variant::Sides => ("Odd", "Even"),
        Variant::OddWins => ("A", "B"),
    };
    let mut text = format!(
        "parity, variant {}, take {} : a = {a} ({na}'s hand), b = {b} ({nb}'s hand), r = {r}\n",
        variant.as_str(),
        take.human()
    );
    let position = |a: u64, b: u64, r: u64, m: Mover| {
        solved::map(json!({"a": a, "b": b, "r": r, "mover": player_name(variant, m)}))
    };
    let mut jm = Vec::new();
    for &m in &movers {
        let wins = s.wins(a, b, r, m).unwrap();
        let winner = if wins { m } else { m.other() };
        let name = |x: Mover| if x == Mover::A { na } else { nb };
        let w = s.winning_takes(a, b, r, m).unwrap();
        let _ = write!(text, "{} moves first: {} wins", name(m), name(winner));
        if w.is_empty() {
            let _ = writeln!(
                text,
                " (no winning move: every take loses against perfect play)"
            );
        } else {
            let list: Vec<String> = w
                .iter()
                .map(|&t| format!("take {t} → {}", after_text(a, b, r, m, t)))
                .collect();
            let _ = writeln!(text, "; winning moves: {}", list.join(", "));
        }
        jm.push(json!({
            "mover": player_name(variant, m),
            "winner": player_name(variant, winner),
            "mover_wins": wins,
            "winning_moves": w.iter().map(|&t| {
                let (x, y, z) = match m {
                    Mover::A => (a + t as u64, b, r - t as u64),
                    Mover::B => (a, b + t as u64, r - t as u64),
                };
                // The same shape as the top-level `to`: the position after the move.
                json!({"take": t, "to": position(x, y, z, m.other())})
            }).collect::<Vec<_>>(),
        }));
    }
    let class_text = match class {
        Class::AbsoluteA => {
            format!("absolute safe state of {na}: {na} wins whoever moves next")
        }
        Class::AbsoluteB => {
            format!("absolute safe state of {nb}: {nb} wins whoever moves next")
        }
        Class::Common => "common safe state: whoever moves next loses".to_string(),
        Class::Neither => "safe for neither: whoever moves next wins".to_string(),
    };
    let _ = writeln!(text, "class: {class_text}");
    let period_text = match s.period {
        Some(p) => format!(
            "modulus M = {} (preperiod {}, {})",
            p.period,
            p.preperiod,
            p.status.as_str()
        ),
        None => "no period proven".into(),
    };
    let _ = writeln!(text, "{period_text}");
    // The JSON answers the position for the first mover asked (Odd or A
    // unless --mover); `details.movers` has every mover asked.
    let m = movers[0];
    let winning_moves = s
        .winning_takes(a, b, r, m)
        .unwrap()
        .into_iter()
        .map(|t| {
            let (x, y) = match m {
                Mover::A => (a + t as u64, b),
                Mover::B => (a, b + t as u64),
            };
            WinningMove {
                text: t.to_string(),
                to: position(x, y, r - t as u64, m.other()),
                extra: solved::map(json!({ "take": t })),
            }
        })
        .collect();
    let solved = Solved {
        family: "parity",
        rule: format!("{} take {}", variant.as_str(), take.human()),
        game: solved::map(json!({"variant": variant.as_str(), "take": take.text()})),
        position: position(a, b, r, m),
        is_p: !s.wins(a, b, r, m).unwrap(),
        grundy: None,
        winning_moves,
        method: if direct { "table" } else { "period" },
        seconds,
        details: solved::map(json!({
            "take_set": take.takes(),
            "class": class.name(variant),
            "modulus": s.period.map(|p| json!({"M": p.period, "preperiod": p.preperiod, "status": p.status.as_str()})),
            "movers": jm,
        })),
    };
    let json = solved.json();
    Ok(Answer { text, json })
}
