//! `nimlab play octal`: a game of heaps under an octal code against the
//! computer. A move takes tokens from one heap and leaves what the code
//! allows: `A2` takes 2 from heap A and leaves one heap (or nothing, when
//! the heap had 2), `A2:1+4` takes 2 and leaves heaps of 1 and 4 (`2:1+4`
//! with one heap). Normal play answers from the nim-values (nim-sums),
//! misère play by search over multisets of heaps.

use std::collections::HashSet;

use anyhow::{Result, bail};
use serde_json::json;

use super::code::{Code, Split};
use super::misere::{Misere, SPLIT_CAP};
use super::rows::rule_text;
use super::sequence::{self, Horizon};
use super::solve::rule;
use crate::game::Play;
use crate::params::Node;
use crate::play::{HtmlGame, Move, PlayGame, Player};

/// The largest heap the game starts with (every move of it is listed).
const MAX_HEAP: u64 = 10_000;
/// The largest heap the page draws (one token each).
const MAX_PAGE_HEAP: u64 = 40;
/// The most positions a misère page holds (each one searched and, when P,
/// embedded as its key).
const MAX_PAGE_POSITIONS: usize = 50_000;

/// A game in progress.
pub struct OctalGame {
    code: Code,
    play: Play,
    start: Vec<u64>,
    heaps: Vec<u64>,
    history: Vec<(Vec<u64>, Move)>,
    values: Vec<u32>,
    misere: Option<std::cell::RefCell<Misere>>,
}

/// The game of `nimlab play octal --code C --heaps …` (or `--rule`).
pub fn game(params: &Node<'_>) -> Result<Box<dyn PlayGame>> {
    let (code, play) = rule(params)?;
    let hn = params.req("heaps", "the heap sizes, e.g. --heaps 5,7")?;
    let start: Vec<u64> = hn
        .ints(0, MAX_HEAP as i64)?
        .into_iter()
        .map(|x| x as u64)
        .collect();
    let total: u64 = start.iter().sum();
    let top = start.iter().copied().max().unwrap_or(0) as usize;
    let misere = match play {
        Play::Misere if code.splits() && total > SPLIT_CAP => bail!(
            "--heaps: misère play of a code that splits is searched over multisets of heaps: at most {SPLIT_CAP} tokens in all, here {total}"
        ),
        Play::Misere => Some(std::cell::RefCell::new(Misere::new(&code))),
        Play::Normal => None,
    };
    let values = if misere.is_some() {
        Vec::new()
    } else {
        let h = Horizon {
            naive: top,
            sparse: top,
        };
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let seq = sequence::compute(&code, h, &cancel).ok_or(crate::family::Interrupted)?;
        (0..=top as u64)
            .map(|n| seq.value(n).unwrap_or(0))
            .collect()
    };
    Ok(Box::new(OctalGame {
        code,
        play,
        heaps: start.clone(),
        start,
        history: Vec::new(),
        values,
        misere,
    }))
}

/// A move as a number: heap, take, middle and smallest heap left (heaps
/// are below 2^16; the largest follows from the others).
fn encode(j: usize, s: Split) -> Move {
    Move(((j as u64) << 48) | (s.take << 32) | (s.mid << 16) | s.left)
}

impl OctalGame {
    fn decode(&self, m: Move) -> (usize, Split) {
        let j = (m.0 >> 48) as usize;
        let take = (m.0 >> 32) & 0xffff;
        let (mid, left) = ((m.0 >> 16) & 0xffff, m.0 & 0xffff);
        let h = self.heaps[j];
        let right = h - take - left - mid;
        (
            j,
            Split {
                take,
                left,
                mid,
                right,
            },
        )
    }
    fn after(&self, m: Move) -> Vec<u64> {
        let (j, s) = self.decode(m);
        let mut v: Vec<u64> = self.heaps[..j].to_vec();
        v.extend(s.parts());
        v.extend(&self.heaps[j + 1..]);
        v
    }
    fn is_p(&self, heaps: &[u64]) -> bool {
        match &self.misere {
            Some(m) => m.borrow_mut().is_p(heaps),
            None => heaps.iter().fold(0, |a, &h| a ^ self.values[h as usize]) == 0,
        }
    }
    fn several(&self) -> bool {
        self.start.len() > 1
    }
    fn text(heaps: &[u64]) -> String {
        if heaps.is_empty() {
            return "(nothing)".into();
        }
        heaps
            .iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl PlayGame for OctalGame {
    fn title(&self) -> String {
        format!(
            "octal {}: heaps {}",
            rule_text(&self.code, self.play),
            Self::text(&self.start)
        )
    }
    fn rules(&self) -> String {
        let last = match self.play {
            Play::Normal => "who cannot move loses",
            Play::Misere => "who cannot move wins (misère)",
        };
        format!(
            "Code {}: take i tokens from one heap and leave what digit d_i allows (1: nothing, 2: one heap, 4: two heaps{}){}; {last}. \
             Type A2 (take 2 from heap A, leave one heap or nothing) or A2:1+4 (take 2, leave 1 and 4); with one heap, 2 or 2:1+4.",
            self.code.text(),
            if self.code.triples() {
                ", 8: three heaps, as 1+2+4"
            } else {
                ""
            },
            if self.code.any_unequal() {
                ", `!`: the heaps left all differ"
            } else {
                ""
            },
        )
    }
    fn start(&mut self, _first: Player) {
        self.heaps = self.start.clone();
        self.history.clear();
    }
    fn draw(&self, _color: bool) -> String {
        let letters = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        self.heaps
            .iter()
            .enumerate()
            .map(|(j, &h)| {
                let name = letters.get(j).map_or('?', |&c| c as char);
                format!("  {name}  {}  {h}", "●".repeat(h.min(60) as usize))
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
    fn parse_move(&self, input: &str) -> Result<Move, String> {
        let t = input.trim().to_ascii_uppercase();
        let (j, rest) = match t.chars().next() {
            Some(c) if c.is_ascii_uppercase() => ((c as u8 - b'A') as usize, &t[1..]),
            _ if self.heaps.len() == 1 => (0, t.as_str()),
            _ => {
                return Err(format!(
                    "name the heap by its letter, e.g. A2 or A2:1+4; {}",
                    self.rules()
                ));
            }
        };
        let Some(&h) = self.heaps.get(j) else {
            return Err(format!("there is no heap {}", (b'A' + j as u8) as char));
        };
        let (take, split) = rest
            .split_once(':')
            .map_or((rest, None), |(a, b)| (a, Some(b)));
        let take: u64 = take
            .trim()
            .parse()
            .map_err(|_| format!("cannot read {input:?}; {}", self.rules()))?;
        let want = match split {
            None => Split {
                take,
                left: 0,
                mid: 0,
                right: h.saturating_sub(take),
            },
            Some(s) => heaps_left(take, s, input)?,
        };
        if self.code.moves(h).contains(&want) {
            Ok(encode(j, want))
        } else {
            Err(format!(
                "not a move of code {} on a heap of {h}: {}",
                self.code.text(),
                self.rules()
            ))
        }
    }
    fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::new();
        for (j, &h) in self.heaps.iter().enumerate() {
            out.extend(self.code.moves(h).into_iter().map(|s| encode(j, s)));
        }
        out
    }
    fn move_name(&self, m: Move) -> String {
        let (j, s) = self.decode(m);
        let heap = if self.heaps.len() > 1 || self.several() {
            ((b'A' + j as u8) as char).to_string()
        } else {
            String::new()
        };
        if s.mid > 0 {
            format!("{heap}{}:{}+{}+{}", s.take, s.left, s.mid, s.right)
        } else if s.left > 0 {
            format!("{heap}{}:{}+{}", s.take, s.left, s.right)
        } else {
            format!("{heap}{}", s.take)
        }
    }
    fn effect(&self, m: Move) -> String {
        format!(
            "{} → {}",
            Self::text(&self.heaps),
            Self::text(&self.after(m))
        )
    }
    fn play(&mut self, m: Move) {
        let next = self.after(m);
        self.history
            .push((std::mem::replace(&mut self.heaps, next), m));
    }
    fn undo(&mut self) {
        if let Some((h, _)) = self.history.pop() {
            self.heaps = h;
        }
    }
    fn result(&self) -> Option<bool> {
        self.legal_moves()
            .is_empty()
            .then_some(self.play == Play::Misere)
    }
    fn end_reason(&self) -> String {
        "no move is left".into()
    }
    fn winning_moves(&self) -> Vec<Move> {
        self.legal_moves()
            .into_iter()
            .filter(|&m| self.is_p(&self.after(m)))
            .collect()
    }
    fn left_after(&self, m: Move) -> u64 {
        self.after(m).iter().sum()
    }
    fn key(&self) -> u64 {
        let mut v = self.heaps.clone();
        v.sort_unstable();
        v.iter().fold(0xcbf2_9ce4_8422_2325u64, |a, &h| {
            (a ^ h).wrapping_mul(0x100_0000_01b3)
        })
    }
    fn why(&self) -> Option<String> {
        let (before, _) = self.history.last()?;
        let mut t = format!("{} → {}. ", Self::text(before), Self::text(&self.heaps));
        if self.misere.is_none() {
            let g: Vec<String> = self
                .heaps
                .iter()
                .map(|&h| self.values[h as usize].to_string())
                .collect();
            let x = self
                .heaps
                .iter()
                .fold(0, |a, &h| a ^ self.values[h as usize]);
            t.push_str(&format!(
                "Nim-values of the heaps after the move: {} = {x}. ",
                if g.is_empty() {
                    "0".into()
                } else {
                    g.join(" ⊕ ")
                }
            ));
        }
        if self.is_p(&self.heaps) {
            t.push_str("A safe position (P): every reply leaves a winning answer.");
        } else {
            t.push_str("Not safe: the player to move can win.");
        }
        Some(t)
    }
    fn html(&self) -> Result<HtmlGame> {
        let top = self.start.iter().copied().max().unwrap_or(0);
        if top > MAX_PAGE_HEAP {
            bail!(
                "the page draws every token: heaps of at most {MAX_PAGE_HEAP} (the largest here has {top})"
            );
        }
        let p_positions = match &self.misere {
            Some(m) => page_p_positions(&mut m.borrow_mut(), &self.start)?,
            None => Vec::new(),
        };
        Ok(HtmlGame {
            script: concat!(include_str!("../heaps/heaps.js"), include_str!("play.js")),
            data: json!({
                "heaps": self.start,
                "digits": self.code.digits(),
                "rule": rule_text(&self.code, self.play),
                "misere": self.misere.is_some(),
                "values": self.values,
                "p_positions": p_positions,
            }),
        })
    }
}

/// The misère P-positions the page may meet: every position reachable from
/// `start`, as the solver keys it (live heaps, ascending, joined by `,`;
/// the empty position is `""`), those the search finds P. At most
/// [`MAX_PAGE_POSITIONS`] positions are searched; more is refused.
fn page_p_positions(m: &mut Misere, start: &[u64]) -> Result<Vec<String>> {
    let first = m.canonical(start);
    let mut seen: HashSet<Vec<u64>> = HashSet::from([first.clone()]);
    let mut todo = vec![first];
    while let Some(pos) = todo.pop() {
        for (_, _, next) in m.options(&pos) {
            let next = m.canonical(&next);
            if !seen.contains(&next) {
                if seen.len() >= MAX_PAGE_POSITIONS {
                    bail!(
                        "the misère page holds every position the game can reach: at most {MAX_PAGE_POSITIONS}, and heaps {} reach more (fewer or smaller heaps fit)",
                        OctalGame::text(start)
                    );
                }
                seen.insert(next.clone());
                todo.push(next);
            }
        }
    }
    let mut p: Vec<String> = seen
        .into_iter()
        .filter(|pos| m.is_p(pos))
        .map(|pos| key_text(&pos))
        .collect();
    p.sort_unstable();
    Ok(p)
}

/// A position as the page keys it: `1,4,4`.
fn key_text(heaps: &[u64]) -> String {
    heaps
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The heaps after `:` in a typed move, `1+4` (or `1+2+4`), as a split.
fn heaps_left(take: u64, text: &str, input: &str) -> Result<Split, String> {
    let mut parts = text
        .split('+')
        .map(|a| {
            a.trim()
                .parse::<u64>()
                .map_err(|_| format!("cannot read {a:?}"))
        })
        .collect::<Result<Vec<u64>, String>>()?;
    parts.sort_unstable();
    match parts[..] {
        [a, b] => Ok(Split {
            take,
            left: a,
            mid: 0,
            right: b,
        }),
        [a, b, c] => Ok(Split {
            take,
            left: a,
            mid: b,
            right: c,
        }),
        _ => Err(format!(
            "after `:` come the two (or three) heaps left, as 1+4 (in {input:?})"
        )),
    }
}
