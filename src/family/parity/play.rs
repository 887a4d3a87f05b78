//! `nimlab play parity`: one pile, stones kept in hand, both variants,
//! against the computer. The replies come from the family's outcome table
//! ([`Solution`]), computed once, beyond its end through the proven period.
//!
//! In `sides` the person chooses a side (`--side odd|even`, default odd) and
//! either side may move first; in `odd_wins` whoever ends with an odd hand
//! wins (the article's opening example: 17 stones, take 1 to 3).

use std::fmt::Write as _;

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::TakeSet;
use super::params::one_rule;
use super::solver::{self, Mover, Solution, Variant};
use crate::params::Node;
use crate::play::rng::mix;
use crate::play::term::{Paint, paint};
use crate::play::{HtmlGame, Move, PlayGame, Player, capitalise};

/// Largest pile drawn stone by stone in the terminal.
const MAX_DRAWN: u64 = 40;
/// Largest pile on the classroom page.
const MAX_PAGE_PILE: u64 = 100;

/// A parity game in progress.
pub struct ParityGame {
    variant: Variant,
    take: TakeSet,
    sol: Solution,
    /// The starting hands and pile.
    start: (u64, u64, u64),
    /// Hands `a` (Odd's, or the first mover's in `odd_wins`), `b`, and the pile.
    a: u64,
    b: u64,
    r: u64,
    /// `sides`: the hand the person holds (A = Odd).
    person_side: Mover,
    /// Who holds `a` in this game.
    a_holder: Player,
    /// Takes played, in order.
    history: Vec<u32>,
    first: Player,
}

/// The starting hands: `--a`/`--b` (`--odd-hand`/`--even-hand` in `sides`), default 0.
fn hands(p: &Node<'_>, variant: Variant) -> Result<(u64, u64)> {
    let hand = |names: &[&str]| -> Result<u64> {
        let given: Vec<Node<'_>> = names.iter().filter_map(|n| p.get(n)).collect();
        if given.len() > 1 {
            bail!("give the hand once (--{})", names.join(" or --"));
        }
        Ok(match given.first() {
            Some(n) => n.one_int(0, i64::MAX / 4)? as u64,
            None => 0,
        })
    };
    Ok(match variant {
        Variant::Sides => (hand(&["a", "odd_hand"])?, hand(&["b", "even_hand"])?),
        Variant::OddWins => {
            if p.get("odd_hand").is_some() || p.get("even_hand").is_some() {
                bail!("in odd_wins the hands are --a (the first player's) and --b (the second's)");
            }
            (hand(&["a"])?, hand(&["b"])?)
        }
    })
}

/// The person's side in `sides` (`--side odd|even`, default odd).
fn side(p: &Node<'_>, variant: Variant) -> Result<Mover> {
    Ok(match p.get("side") {
        None => Mover::A,
        Some(s) => {
            if variant == Variant::OddWins {
                return Err(s
                    .err("odd_wins has no sides: whoever ends with an odd hand wins")
                    .into());
            }
            if s.word(&["odd", "even"])? == "odd" {
                Mover::A
            } else {
                Mover::B
            }
        }
    })
}

/// Builds the game from `solve`'s parameters (or a sweep's).
pub fn game(p: &Node<'_>) -> Result<Box<dyn PlayGame>> {
    p.expect_keys(&[
        "variant",
        "k",
        "take",
        "rule",
        "r",
        "a",
        "b",
        "odd_hand",
        "even_hand",
        "side",
        // A sweep's keys that do not change the game.
        "at",
        "strip_k",
        "strip_to",
        "outcome",
        "horizon",
    ])?;
    let (variant, take) = one_rule(p)?;
    let r = p
        .req("r", "the pile size, e.g. --r 17")?
        .one_int(0, i64::MAX / 4)? as u64;
    let (a, b) = hands(p, variant)?;
    let person_side = side(p, variant)?;
    if (a + b + r) % 2 != variant.total_parity() {
        bail!(
            "a + b + r = {} must be {} in variant {} ({})",
            a + b + r,
            if variant.total_parity() == 0 {
                "even"
            } else {
                "odd"
            },
            variant.as_str(),
            if variant == Variant::Sides {
                "the initial pile is even, so both hands end with the same parity"
            } else {
                "the initial pile is odd, so exactly one hand ends odd"
            }
        );
    }
    if r == 0 {
        bail!("the pile is empty: there is nothing to play (give --r 1 or more)");
    }
    Ok(Box::new(ParityGame::new(
        variant,
        take,
        (a, b, r),
        person_side,
    )?))
}

impl ParityGame {
    /// A game of `variant` with takes `take` from hands and pile `start`.
    pub fn new(
        variant: Variant,
        take: TakeSet,
        start: (u64, u64, u64),
        person_side: Mover,
    ) -> Result<ParityGame> {
        let (a, b, r) = start;
        let direct = r <= (1 << 22);
        let sol = Solution::solve(
            variant,
            take.takes(),
            if direct { r as usize } else { 0 },
            &|_| {},
        );
        sol.class(a, b, r).with_context(|| {
            format!(
                "no period proven up to r = {}; cannot play from r = {r}",
                sol.end()
            )
        })?;
        Ok(ParityGame {
            variant,
            take,
            sol,
            start,
            a,
            b,
            r,
            person_side,
            a_holder: Player::Person,
            history: Vec::new(),
            first: Player::Person,
        })
    }

    fn to_move(&self) -> Player {
        self.first.after(self.history.len())
    }

    fn hand_of(&self, p: Player) -> Mover {
        if p == self.a_holder {
            Mover::A
        } else {
            Mover::B
        }
    }

    fn holder(&self, m: Mover) -> Player {
        match m {
            Mover::A => self.a_holder,
            Mover::B => self.a_holder.other(),
        }
    }

    fn hand(&self, m: Mover) -> u64 {
        match m {
            Mover::A => self.a,
            Mover::B => self.b,
        }
    }

    /// `Odd` / `Even` in `sides`; nothing in `odd_wins`.
    fn side_name(&self, m: Mover) -> &'static str {
        match (self.variant, m) {
            (Variant::Sides, Mover::A) => " (Odd)",
            (Variant::Sides, Mover::B) => " (Even)",
            _ => "",
        }
    }

    fn who(p: Player) -> &'static str {
        match p {
            Player::Person => "your",
            Player::Computer => "the computer's",
        }
    }

    fn mover(&self) -> Mover {
        self.hand_of(self.to_move())
    }

    fn after(&self, m: Mover, t: u32) -> (u64, u64, u64) {
        let t = t as u64;
        match m {
            Mover::A => (self.a + t, self.b, self.r - t),
            Mover::B => (self.a, self.b + t, self.r - t),
        }
    }

    fn parity(x: u64) -> &'static str {
        if x % 2 == 1 { "odd" } else { "even" }
    }

    fn goal(&self) -> String {
        match self.variant {
            Variant::Sides => {
                "when the pile is empty both hands have the same parity: both odd, Odd wins; both even, Even wins".into()
            }
            Variant::OddWins => "when the pile is empty, whoever holds an odd number of stones wins".into(),
        }
    }

    /// The state just reached, explained: safe for the player who moved there?
    fn safe_text(&self, moved: Mover) -> String {
        let coords = match self.variant {
            Variant::Sides => "(Odd's hand mod 2, Even's hand mod 2, pile)",
            Variant::OddWins => "(the mover's hand mod 2, the other hand mod 2, pile)",
        };
        let safe_for_mover = self.sol.is_safe(
            (self.a % 2) as u8,
            (self.b % 2) as u8,
            self.r as usize,
            moved,
        );
        let name = match self.holder(moved) {
            Player::Person => "you",
            Player::Computer => "the computer",
        };
        let mut t = format!("the state {coords} is {}: ", self.state_text(moved));
        if safe_for_mover {
            let _ = write!(
                t,
                "a safe state for {name}{} (whoever moved there wins with perfect play)",
                self.side_name(moved)
            );
        } else {
            let w = self
                .sol
                .winning_takes(self.a, self.b, self.r, moved.other())
                .unwrap_or_default();
            let _ = write!(
                t,
                "not safe for {name}{}: the other player wins by taking {}",
                self.side_name(moved),
                w.iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
        }
        if let Some(n) = self.class_note() {
            let _ = write!(t, "; it is {n}");
        }
        t.push('.');
        t.push_str(&self.safe_list(moved));
        t
    }

    /// `(x, y, 8n+4) with r = 12 ≡ 4 (mod M = 8)`; in `odd_wins` x is the
    /// hand of the player who moved.
    fn state_text(&self, moved: Mover) -> String {
        let (x, y) = match (self.variant, moved) {
            (Variant::OddWins, Mover::B) => (self.b % 2, self.a % 2),
            _ => (self.a % 2, self.b % 2),
        };
        match self.sol.period.map(|p| (p.period, p.preperiod)) {
            Some((m, pre)) if self.r as usize >= pre => format!(
                "({x}, {y}, {}) with r = {} ≡ {} (mod M = {m})",
                solver::residue_text(m, (self.r % m as u64) as usize),
                self.r,
                self.r % m as u64
            ),
            Some((m, _)) => format!(
                "({x}, {y}, {}) (below the preperiod of M = {m}, read from the table)",
                self.r
            ),
            None => format!("({x}, {y}, {})", self.r),
        }
    }

    /// `sides`: absolute and common safe states.
    fn class_note(&self) -> Option<&'static str> {
        if self.variant != Variant::Sides {
            return None;
        }
        match self.sol.class(self.a, self.b, self.r)? {
            solver::Class::AbsoluteA => {
                Some("an absolute safe state of Odd: Odd wins whoever moves next")
            }
            solver::Class::AbsoluteB => {
                Some("an absolute safe state of Even: Even wins whoever moves next")
            }
            solver::Class::Common => Some("a common safe state: whoever moves next loses"),
            solver::Class::Neither => None,
        }
    }

    /// The safe states of the player who moved, in the article's form.
    fn safe_list(&self, moved: Mover) -> String {
        let Some(m) = self.sol.period.map(|p| p.period) else {
            return String::new();
        };
        // In `odd_wins` the list is written from the player who moved: the
        // solver's side A, whose hand comes first.
        let (side, owner) = match (self.variant, moved) {
            (Variant::Sides, Mover::A) => (Mover::A, "Odd"),
            (Variant::Sides, Mover::B) => (Mover::B, "Even"),
            (Variant::OddWins, _) => (Mover::A, "the player who just moved"),
        };
        match self.sol.safe_states(side) {
            Some((list, _)) => format!(
                " The safe states of {owner}: {}.",
                list.iter()
                    .map(|s| solver::state_text(s, m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => String::new(),
        }
    }
}

impl PlayGame for ParityGame {
    fn title(&self) -> String {
        let (a, b, r) = self.start;
        let hands = if a + b > 0 {
            format!(", hands {a} and {b}")
        } else {
            String::new()
        };
        format!(
            "parity ({}): a pile of {r}{hands}, take {} into your own hand",
            match self.variant {
                Variant::Sides => "Odd against Even",
                Variant::OddWins => "an odd hand wins",
            },
            self.take.human()
        )
    }

    fn rules(&self) -> String {
        let side = match self.variant {
            Variant::Sides => format!(
                " You play {}.",
                if self.person_side == Mover::A {
                    "Odd"
                } else {
                    "Even"
                }
            ),
            Variant::OddWins => String::new(),
        };
        format!(
            "On your turn take {} stones from the pile into your own hand; {}.{side} Type how many stones to take, e.g. 1.",
            self.take.human(),
            self.goal()
        )
    }

    fn start(&mut self, first: Player) {
        self.first = first;
        (self.a, self.b, self.r) = self.start;
        self.history.clear();
        self.a_holder = match self.variant {
            Variant::Sides => {
                if self.person_side == Mover::A {
                    Player::Person
                } else {
                    Player::Computer
                }
            }
            Variant::OddWins => first,
        };
    }

    fn draw(&self, color: bool) -> String {
        let stones = |n: u64, extra: u64| -> String {
            if n + extra > MAX_DRAWN {
                return format!("({n} stones)");
            }
            let mut s = "● ".repeat(n as usize);
            s.push_str(&paint(&"○ ".repeat(extra as usize), Paint::Red, color));
            s
        };
        let last = self.history.last().copied().unwrap_or(0) as u64;
        let last_mover = (!self.history.is_empty()).then(|| self.hand_of(self.to_move().other()));
        let (a0, b0, r0) = self.start;
        let widest = (r0 + a0.max(b0)).min(MAX_DRAWN + 1) as usize;
        let row = |label: String, body: String, count: String| -> String {
            format!(
                "  {} {}  {count}",
                paint(&crate::play::term::pad(&label, 22), Paint::Cyan, color),
                crate::play::term::pad(&body, 2 * widest)
            )
        };
        let mut lines = vec![row(
            "pile".into(),
            stones(self.r, if last_mover.is_some() { last } else { 0 }),
            self.r.to_string(),
        )];
        for m in [self.hand_of(Player::Person), self.hand_of(Player::Computer)] {
            let owner = match self.holder(m) {
                Player::Person => "your hand",
                Player::Computer => "computer's hand",
            };
            let n = self.hand(m);
            lines.push(row(
                format!("{owner}{}", self.side_name(m)),
                stones(n, 0),
                format!("{n} ({})", Self::parity(n)),
            ));
        }
        lines.join("\n")
    }

    fn parse_move(&self, input: &str) -> Result<Move, String> {
        let t = input.trim();
        let t = t.strip_prefix("take").map(str::trim).unwrap_or(t);
        let n: u64 = t.parse().map_err(|_| {
            format!(
                "type how many stones to take ({}), e.g. 1",
                self.take.human()
            )
        })?;
        if !self.take.takes().contains(&(n.min(u32::MAX as u64) as u32)) {
            return Err(format!("you may take {} stones", self.take.human()));
        }
        if n > self.r {
            return Err(format!(
                "the pile has only {} stone{}",
                self.r,
                if self.r == 1 { "" } else { "s" }
            ));
        }
        Ok(Move(n))
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.take
            .takes()
            .iter()
            .filter(|&&t| t as u64 <= self.r)
            .map(|&t| Move(t as u64))
            .collect()
    }

    fn move_name(&self, m: Move) -> String {
        m.0.to_string()
    }

    fn effect(&self, m: Move) -> String {
        let mover = self.mover();
        let (a, b, r) = self.after(mover, m.0 as u32);
        let (before, now) = match mover {
            Mover::A => (self.a, a),
            Mover::B => (self.b, b),
        };
        format!(
            "pile {} → {r}, {} hand {before} → {now}",
            self.r,
            Self::who(self.to_move())
        )
    }

    fn play(&mut self, m: Move) {
        let t = m.0 as u32;
        (self.a, self.b, self.r) = self.after(self.mover(), t);
        self.history.push(t);
    }

    fn undo(&mut self) {
        if let Some(t) = self.history.pop() {
            let t = t as u64;
            // The mover of the taken-back move is the player to move now.
            match self.mover() {
                Mover::A => self.a -= t,
                Mover::B => self.b -= t,
            }
            self.r += t;
        }
    }

    fn result(&self) -> Option<bool> {
        (self.r == 0).then(|| {
            self.sol
                .wins(self.a, self.b, 0, self.mover())
                .expect("r = 0 is in the table")
        })
    }

    fn end_reason(&self) -> String {
        let you = self.hand(self.hand_of(Player::Person));
        let cpu = self.hand(self.hand_of(Player::Computer));
        format!(
            "the pile is empty: your hand {you} ({}), the computer's {cpu} ({})",
            Self::parity(you),
            Self::parity(cpu)
        )
    }

    fn winning_moves(&self) -> Vec<Move> {
        if self.r == 0 {
            return Vec::new();
        }
        self.sol
            .winning_takes(self.a, self.b, self.r, self.mover())
            .unwrap_or_default()
            .into_iter()
            .map(|t| Move(t as u64))
            .collect()
    }

    fn left_after(&self, m: Move) -> u64 {
        self.r - m.0
    }

    fn key(&self) -> u64 {
        // Who holds which hand is part of the position.
        let holder = (self.a_holder == Player::Person) as u64;
        mix(mix(mix(mix(self.a) ^ self.b) ^ self.r) ^ holder ^ (self.history.len() as u64 & 1) << 1)
    }

    fn why(&self) -> Option<String> {
        let &t = self.history.last()?;
        let moved = self.hand_of(self.to_move().other());
        let t64 = t as u64;
        let mover = self.holder(moved);
        let mine = self.hand(moved);
        let theirs = self.hand(moved.other());
        let mut text = format!(
            "took {t}: pile {} → {}, {} hand {} → {mine} ({} {theirs}). ",
            self.r + t64,
            self.r,
            Self::who(mover),
            mine - t64,
            match mover {
                Player::Person => "the computer's",
                Player::Computer => "yours",
            }
        );
        if self.r == 0 {
            let _ = write!(text, "The pile is empty: {}.", self.end_reason());
            return Some(text);
        }
        text.push_str(&capitalise(&self.safe_text(moved)));
        Some(text)
    }

    fn html(&self) -> Result<HtmlGame> {
        let (a0, b0, r0) = self.start;
        if r0 > MAX_PAGE_PILE {
            bail!(
                "the page draws every stone: a pile of at most {MAX_PAGE_PILE} (this one has {r0})"
            );
        }
        let (len, pre, per) = match self.sol.period {
            Some(p) if p.preperiod + p.period < r0 as usize + 1 => {
                (p.preperiod + p.period, p.preperiod, p.period)
            }
            _ => (r0 as usize + 1, r0 as usize + 1, 0),
        };
        Ok(HtmlGame {
            script: include_str!("play.js"),
            data: json!({
                "variant": self.variant.as_str(),
                "takes": self.take.takes(),
                "take_text": self.take.human(),
                "a": a0,
                "b": b0,
                "r": r0,
                "person_side": if self.person_side == Mover::A { "odd" } else { "even" },
                "bits": self.sol.bits[..len].to_vec(),
                "pre": pre,
                "per": per,
                "goal": self.goal(),
            }),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::parity::brute::Position;
    use crate::game::{BruteOutcome, Play};

    fn opening() -> ParityGame {
        ParityGame::new(Variant::OddWins, TakeSet::upto(3), (0, 0, 17), Mover::A).unwrap()
    }

    /// The article's opening example: with 17 stones, take 1..3 and an odd
    /// hand winning, the first player wins ("只有 8n+5 時對先手不利"; 17 = 8·2+1),
    /// and the safe states left by a player whose hand is odd are 8n and 8n+1,
    /// by one whose hand is even 8n+4 and 8n+5.
    #[test]
    fn opening_example_by_the_article() {
        let mut g = opening();
        g.start(Player::Computer);
        assert!(!g.winning_moves().is_empty());
        for r in 1..=40u64 {
            for (x, y) in [(0u8, 0u8), (0, 1), (1, 0), (1, 1)] {
                if (x as u64 + y as u64 + r) % 2 != 1 {
                    continue;
                }
                let safe = g.sol.is_safe(x, y, r as usize, Mover::A);
                let want = if x == 1 {
                    r % 8 == 0 || r % 8 == 1
                } else {
                    r % 8 == 4 || r % 8 == 5
                };
                assert_eq!(safe, want, "(x={x}, y={y}, r={r})");
            }
        }
    }

    /// Winning moves agree with the plain game tree of the family's brute solver.
    #[test]
    fn winning_moves_agree_with_brute_force() {
        for (variant, k, r0) in [
            (Variant::OddWins, 3, 17),
            (Variant::Sides, 3, 16),
            (Variant::Sides, 2, 14),
        ] {
            let mut g = ParityGame::new(variant, TakeSet::upto(k), (0, 0, r0), Mover::A).unwrap();
            g.start(Player::Person);
            let takes: Vec<u32> = (1..=k).collect();
            let shared: std::sync::Arc<[u32]> = takes.clone().into();
            let mut brute = BruteOutcome::new(Play::Normal);
            // Walk a few lines of play and compare at every position.
            let mut line = 0u64;
            while g.result().is_none() {
                let want: Vec<u32> = takes
                    .iter()
                    .copied()
                    .filter(|&t| t as u64 <= g.r)
                    .filter(|&t| {
                        let (a, b, r) = g.after(g.mover(), t);
                        let next = g.mover().other();
                        brute.is_p(&Position::new(variant, a, b, r, next, shared.clone()))
                    })
                    .collect();
                let got: Vec<u32> = g.winning_moves().iter().map(|m| m.0 as u32).collect();
                assert_eq!(got, want, "{variant:?} at ({}, {}, {})", g.a, g.b, g.r);
                let legal = g.legal_moves();
                line = mix(line ^ g.r);
                g.play(legal[(line % legal.len() as u64) as usize]);
            }
        }
    }

    /// `why` lists the article's safe states whichever player moved: own
    /// hand odd → 8n or 8n+1, even → 8n+4 or 8n+5 (the other hand's parity
    /// picks which).
    #[test]
    fn why_lists_the_articles_safe_states_for_either_player() {
        let want = "(0,0,8n+5), (0,1,8n+4), (1,0,8n), (1,1,8n+1)";
        let mut g = opening();
        g.start(Player::Person);
        g.play(Move(1)); // the person, holding a: (1, 0, 16)
        assert!(g.why().unwrap().contains(want), "{}", g.why().unwrap());
        g.play(Move(3)); // the computer, holding b: own 3, other 1, pile 13
        let w = g.why().unwrap();
        assert!(w.contains(want), "{w}");
        assert!(w.contains("(1, 1, 8n+5)"), "{w}");
    }

    #[test]
    fn undo_restores_hands_and_pile() {
        let mut g = opening();
        g.start(Player::Person);
        g.play(Move(3));
        g.play(Move(2));
        assert_eq!((g.a, g.b, g.r), (3, 2, 12));
        g.undo();
        assert_eq!((g.a, g.b, g.r), (3, 0, 14));
        g.undo();
        assert_eq!((g.a, g.b, g.r), (0, 0, 17));
        assert!(g.parse_move("4").unwrap_err().contains("1..3"));
        assert!(g.parse_move("x").is_err());
        assert_eq!(g.parse_move("take 2"), Ok(Move(2)));
    }
}
