//! `nimlab solve octal`: one position (heaps) of one code.

use std::time::Instant;

use serde_json::json;

use super::code::{CODE_ALLOWED, Code, Split};
use super::misere::{Misere, SPLIT_CAP};
use super::rows::rule_text;
use super::sequence::{self, Horizon};
use crate::family::Answer;
use crate::family::solved::{self, Solved, WinningMove};
use crate::game::{PLAY_WORDS, Play};
use crate::params::{CliArg, CliForm, Node, SpecError};

/// The arguments of `nimlab solve octal`.
pub const CLI_ARGS: &[CliArg] = &[
    CliArg::new("heaps", CliForm::List),
    CliArg::new("code", CliForm::Text),
    CliArg::new("rule", CliForm::Text),
    CliArg::new("play", CliForm::Yaml),
    CliArg::new("moves", CliForm::Text),
    CliArg::new("prove", CliForm::Switch),
];

/// Which winning moves the answer lists (`--moves`): a heap of 10^6 tokens
/// has hundreds of thousands, and listing them costs more than its value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Listed {
    /// Every winning move (the default).
    All,
    /// The first found (heap A first, smallest take first): enough to play.
    First,
    /// None: the outcome and the nim-value only.
    None,
}

/// The words of `--moves`, in [`Listed`]'s order.
pub const MOVES_WORDS: [&str; 3] = ["all", "first", "none"];

impl Listed {
    fn parse(pos: &Node<'_>) -> Result<Listed, SpecError> {
        let Some(m) = pos.get("moves") else {
            return Ok(Listed::All);
        };
        Ok(match m.word(&MOVES_WORDS)? {
            "first" => Listed::First,
            "none" => Listed::None,
            _ => Listed::All,
        })
    }
    fn as_str(self) -> &'static str {
        MOVES_WORDS[self as usize]
    }
}

/// The largest heap `solve` answers in normal play (the sequence is computed
/// to it, unless a period is proven sooner; 2^27 values of a sparse-space
/// code such as Grundy's game take 256 MB).
const MAX_HEAP: i64 = 1 << 27;

/// The code and play of `--code`/`--play` or `--rule "0.77 misere"`.
pub fn rule(pos: &Node<'_>) -> Result<(Code, Play), SpecError> {
    if let Some(r) = pos.get("rule") {
        if pos.get("code").is_some() || pos.get("play").is_some() {
            return Err(r.err("give either --rule or --code/--play, not both"));
        }
        let text = r.str()?;
        let mut words = text.split_whitespace();
        let code = Code::parse(words.next().unwrap_or("")).map_err(|e| r.err(e))?;
        let play = match words.next() {
            None => Play::Normal,
            Some(w) => Play::parse(w).ok_or_else(|| {
                r.err(format!("cannot read {w:?} in the rule {text:?}: after the code comes `misere` or `normal`, e.g. `0.77 misere`"))
            })?,
        };
        if let Some(w) = words.next() {
            return Err(r.err(format!(
                "cannot read {w:?} in the rule {text:?}: e.g. `0.77 misere`"
            )));
        }
        return Ok((code, play));
    }
    let c = pos.req("code", CODE_ALLOWED)?;
    let text = match c.value() {
        serde_json::Value::Number(x) => x.to_string(),
        _ => c.str()?.to_string(),
    };
    let code = Code::parse(&text).map_err(|e| c.err(e))?;
    let play = match pos.get("play") {
        Some(p) => Play::parse(p.word(PLAY_WORDS)?).unwrap_or(Play::Normal),
        None => Play::Normal,
    };
    Ok((code, play))
}

/// `nimlab solve octal`: outcome, nim-value and winning moves of heaps.
pub fn solve(pos: &Node<'_>) -> anyhow::Result<Answer> {
    pos.expect_keys(&["heaps", "code", "rule", "play", "moves", "prove"])?;
    let (code, play) = rule(pos)?;
    let listed = Listed::parse(pos)?;
    let prove = pos
        .get("prove")
        .map(|b| b.bools().map(|v| v[0]))
        .transpose()?
        .unwrap_or(true);
    let hn = pos.req("heaps", "the heap sizes, e.g. --heaps 5,7")?;
    let heaps: Vec<u64> = hn
        .ints(0, MAX_HEAP)?
        .into_iter()
        .map(|x| x as u64)
        .collect();
    let t0 = Instant::now();
    let (is_p, grundy, moves, method) = match play {
        Play::Normal => normal(&code, &heaps, listed, prove)?,
        Play::Misere => misere(&code, &heaps, &hn, listed)?,
    };
    let seconds = t0.elapsed().as_secs_f64();
    let position = |h: &[u64]| solved::map(json!({ "heaps": h }));
    let winning_moves: Vec<WinningMove> = moves
        .iter()
        .map(|&(j, s)| WinningMove {
            text: move_text(heaps.len(), j, s),
            to: position(&after(&heaps, j, s)),
            extra: solved::map(split_json(j, &s)),
        })
        .collect();
    let text = answer_text(&heaps, &code, play, (is_p, grundy), listed, &winning_moves);
    let s = Solved {
        family: "octal",
        rule: rule_text(&code, play),
        game: solved::map(json!({"code": code.text(), "play": play.as_str()})),
        position: position(&heaps),
        is_p,
        grundy,
        winning_moves,
        method,
        seconds,
        details: solved::map(json!({
            "take_max": code.max_take(),
            "splits": code.splits(),
            "moves": listed.as_str(),
        })),
    };
    Ok(Answer {
        text,
        json: s.json(),
    })
}

/// Misère play: a search over multisets of heaps, refused past its caps.
fn misere(
    code: &Code,
    heaps: &[u64],
    hn: &Node<'_>,
    listed: Listed,
) -> anyhow::Result<(bool, Option<u64>, Moves, &'static str)> {
    let total: u64 = heaps.iter().sum();
    if code.splits() && total > SPLIT_CAP || heaps.iter().any(|&h| h > 100_000) {
        return Err(hn
            .err(format!(
                "misère play is searched over multisets of heaps: at most {SPLIT_CAP} tokens in all for a code that splits, heaps up to 100000 otherwise"
            ))
            .into());
    }
    let mut m = Misere::new(code);
    let is_p = m.is_p(heaps);
    let mut moves = Vec::new();
    if !is_p && listed != Listed::None {
        for (j, s, next) in m.options(heaps) {
            if m.is_p(&next) {
                moves.push((j, s));
                if listed == Listed::First {
                    break;
                }
            }
        }
    }
    Ok((is_p, None, moves, "search"))
}

/// The answer's text: the position, its outcome and value, the winning moves.
fn answer_text(
    heaps: &[u64],
    code: &Code,
    play: Play,
    (is_p, grundy): (bool, Option<u64>),
    listed: Listed,
    winning_moves: &[WinningMove],
) -> String {
    let mut text = format!(
        "position {:?}, code {}, {} play: {}",
        heaps,
        code.text(),
        play.as_str(),
        if is_p {
            "P (the player to move loses)"
        } else {
            "N (the player to move wins)"
        }
    );
    if let Some(g) = grundy {
        text.push_str(&format!(", nim-value {g}"));
    }
    let names: Vec<&str> = winning_moves.iter().map(|m| m.text.as_str()).collect();
    let list = match listed {
        _ if is_p => "none".to_string(),
        Listed::None => "not listed (--moves none; --moves first or all lists them)".to_string(),
        Listed::First => format!(
            "{} (the first found; --moves all lists every one)",
            names.join(", ")
        ),
        Listed::All => names.join(", "),
    };
    text.push_str(&format!("\nwinning moves: {list}\n"));
    text
}

type Moves = Vec<(usize, Split)>;

/// Normal play: the nim-sum of the heaps' values; the sequence computed to
/// the largest heap, sooner when `prove` and a period is proven.
fn normal(
    code: &Code,
    heaps: &[u64],
    listed: Listed,
    prove: bool,
) -> anyhow::Result<(bool, Option<u64>, Moves, &'static str)> {
    let top = heaps.iter().copied().max().unwrap_or(0) as usize;
    let h = Horizon {
        naive: top,
        sparse: top,
    };
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let seq = sequence::compute_to(code, h, prove, &cancel).ok_or(crate::family::Interrupted)?;
    let g = |n: u64| seq.value(n).unwrap_or(0);
    let x = heaps.iter().fold(0, |a, &h| a ^ g(h));
    let mut moves = Vec::new();
    if x != 0 && listed != Listed::None {
        'heaps: for (j, &h) in heaps.iter().enumerate() {
            let want = g(h) ^ x;
            for s in code.moves(h) {
                if s.parts().fold(0, |a, h| a ^ g(h)) == want {
                    moves.push((j, s));
                    if listed == Listed::First {
                        break 'heaps;
                    }
                }
            }
        }
    }
    let method = if seq.period.is_some() {
        "period"
    } else {
        "sequence"
    };
    Ok((x == 0, Some(x as u64), moves, method))
}

/// The heaps after a move (the heap moved replaced by what is left, in place).
fn after(heaps: &[u64], j: usize, s: Split) -> Vec<u64> {
    let mut v: Vec<u64> = heaps[..j].to_vec();
    v.extend(s.parts());
    v.extend(&heaps[j + 1..]);
    v
}

/// `take 2 from heap B leaving 1+3`.
pub fn move_text(heaps: usize, j: usize, s: Split) -> String {
    let from = if heaps > 1 {
        format!(" from heap {}", (b'A' + j as u8) as char)
    } else {
        String::new()
    };
    let left = match (s.left, s.mid, s.right) {
        (0, _, 0) => "nothing".to_string(),
        (0, _, r) => r.to_string(),
        (a, 0, b) => format!("{a}+{b}"),
        (a, m, b) => format!("{a}+{m}+{b}"),
    };
    format!("take {}{from} leaving {left}", s.take)
}

/// A winning move's fields (`middle` only when three heaps are left).
fn split_json(j: usize, s: &Split) -> serde_json::Value {
    let mut v = json!({"heap": j + 1, "take": s.take, "left": s.left, "right": s.right});
    if s.mid > 0 {
        v["middle"] = json!(s.mid);
    }
    v
}
