//! `nimlab solve parity`: one position (hands and pile), any pile size once
//! the modulus is proven.

use std::fmt::Write as _;

use std::time::Instant;

use anyhow::{Context, bail};
use serde_json::json;

use super::TakeSet;
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

/// A position asked: the hands, the pile and the movers to answer for.
struct Asked {
    a: u64,
    b: u64,
    r: u64,
    movers: Vec<Mover>,
}

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
    let q = asked(pos, variant)?;
    let (a, b, r) = (q.a, q.b, q.r);
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
    let (na, nb) = names(variant);
    let mut text = format!(
        "parity, variant {}, take {} : a = {a} ({na}'s hand), b = {b} ({nb}'s hand), r = {r}\n",
        variant.as_str(),
        take.human()
    );
    let jm = movers_answer(&mut text, &s, variant, &q);
    let _ = writeln!(text, "class: {}", class_text(class, variant));
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
    let mut solved = answer_solved(&s, variant, &take, &q);
    solved.method = if direct { "table" } else { "period" };
    solved.seconds = seconds;
    solved.details = solved::map(json!({
        "take_set": take.takes(),
        "class": class.name(variant),
        "modulus": s.period.map(|p| json!({"M": p.period, "preperiod": p.preperiod, "status": p.status.as_str()})),
        "movers": jm,
    }));
    let json = solved.json();
    Ok(Answer { text, json })
}

/// The players' names in the text: `Odd`/`Even` or `A`/`B`.
fn names(variant: Variant) -> (&'static str, &'static str) {
    match variant {
        Variant::Sides => ("Odd", "Even"),
        Variant::OddWins => ("A", "B"),
    }
}

/// Reads the hands, the pile and the mover, and checks the parity of the total.
fn asked(pos: &Node<'_>, variant: Variant) -> anyhow::Result<Asked> {
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
    check_total(variant, a, b, r)?;
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
    Ok(Asked { a, b, r, movers })
}

/// a + b + r must have the variant's parity.
fn check_total(variant: Variant, a: u64, b: u64, r: u64) -> anyhow::Result<()> {
    if (a + b + r) % 2 == variant.total_parity() {
        return Ok(());
    }
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

/// The JSON position of hands a, b, pile r with `m` to move.
fn position(
    variant: Variant,
    a: u64,
    b: u64,
    r: u64,
    m: Mover,
) -> serde_json::Map<String, serde_json::Value> {
    solved::map(json!({"a": a, "b": b, "r": r, "mover": player_name(variant, m)}))
}

/// One line per mover asked (who wins, the winning takes), and the same as
/// JSON for `details.movers`.
fn movers_answer(
    text: &mut String,
    s: &Solution,
    variant: Variant,
    q: &Asked,
) -> Vec<serde_json::Value> {
    let (a, b, r) = (q.a, q.b, q.r);
    let (na, nb) = names(variant);
    let mut jm = Vec::new();
    for &m in &q.movers {
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
                json!({"take": t, "to": position(variant, x, y, z, m.other())})
            }).collect::<Vec<_>>(),
        }));
    }
    jm
}

/// The class of the position, in words.
fn class_text(class: Class, variant: Variant) -> String {
    let (na, nb) = names(variant);
    match class {
        Class::AbsoluteA => {
            format!("absolute safe state of {na}: {na} wins whoever moves next")
        }
        Class::AbsoluteB => {
            format!("absolute safe state of {nb}: {nb} wins whoever moves next")
        }
        Class::Common => "common safe state: whoever moves next loses".to_string(),
        Class::Neither => "safe for neither: whoever moves next wins".to_string(),
    }
}

/// The answer for scripts, for the first mover asked (Odd or A unless
/// --mover; `details.movers` has every mover asked). The caller sets the
/// method, time and details.
fn answer_solved(s: &Solution, variant: Variant, take: &TakeSet, q: &Asked) -> Solved {
    let (a, b, r, m) = (q.a, q.b, q.r, q.movers[0]);
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
                to: position(variant, x, y, r - t as u64, m.other()),
                extra: solved::map(json!({ "take": t })),
            }
        })
        .collect();
    Solved {
        family: "parity",
        rule: format!("{} take {}", variant.as_str(), take.human()),
        game: solved::map(json!({"variant": variant.as_str(), "take": take.text()})),
        position: position(variant, a, b, r, m),
        is_p: !s.wins(a, b, r, m).unwrap(),
        grundy: None,
        winning_moves,
        method: "",
        seconds: 0.0,
        details: serde_json::Map::new(),
    }
}
