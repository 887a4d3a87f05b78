//! Playing against the computer (`nimlab play`): the family-neutral core.
//!
//! A family hands the core a [`PlayGame`]: one game in progress that can draw
//! its position, read a typed move, list the legal and the winning moves,
//! play and take back moves and explain the last one in its own terms. The
//! core knows nothing of heaps, hands or boards; it runs the session
//! ([`session`]: whose turn, the computer's choice of move, the commands
//! `hint`, `why`, `undo`, `new`, `quit`), draws it in a terminal or writes it
//! as a plain transcript ([`term`]), and writes the classroom page
//! ([`html`]), into which the family puts its data and its script.
//!
//! The computer's choice ([`session::choose`]):
//!
//! * a winning move whenever one exists (chosen among the winning moves by the
//!   seeded generator of [`rng`]), except that the `easy` level slips now and
//!   then (with probability `mistakes`, default 1/3) and plays a move that is
//!   not winning;
//! * otherwise, with `--when-losing long` (the default), a move that keeps the
//!   game long: the legal move that leaves the most stones or pieces on the
//!   table (so, like report 003's Scratch program, it takes one stone when it
//!   cannot win), ties broken by the generator; with `--when-losing random`,
//!   any legal move.
//!
//! Every random choice is a function of the seed, the game number and the
//! position (not of the order in which positions were reached), so a game is
//! reproducible with `--seed`, `undo` followed by the same move brings the
//! same reply, and a test that visits every position once has tried every
//! line of play.

pub mod html;
pub mod rng;
pub mod session;
pub mod term;

pub use session::{First, Level, Options, Stall};

/// A move, opaque to the core: each family encodes its own (a heap and a
/// take, a take, the pieces of a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u64);

/// The two players of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The person at the keyboard.
    Person,
    /// nimlab.
    Computer,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Person => Player::Computer,
            Player::Computer => Player::Person,
        }
    }
    /// The player to move after `moves` moves, `self` having moved first.
    pub fn after(self, moves: usize) -> Player {
        if moves.is_multiple_of(2) {
            self
        } else {
            self.other()
        }
    }
    /// `you` / `computer`, as the transcript names them.
    pub fn name(self) -> &'static str {
        match self {
            Player::Person => "you",
            Player::Computer => "computer",
        }
    }
}

/// What a family embeds in the classroom page: its script (which defines
/// `nimlabGame(data)`, see `src/play/page.js`) and the data its replies are
/// read from.
pub struct HtmlGame {
    /// The family's script.
    pub script: &'static str,
    /// The data the script plays from (a rule's period, an outcome table,
    /// a P-position bitmap…) as JSON.
    pub data: serde_json::Value,
}

/// One game of a family, in progress: the plug-in boundary of `nimlab play`.
///
/// Positions alternate strictly between the two players; the family keeps
/// the moves played so far (for [`PlayGame::undo`] and [`PlayGame::why`]).
pub trait PlayGame {
    /// One line: the family, the starting position and the rule.
    fn title(&self) -> String;
    /// How the game is won and how to type a move, with an example.
    fn rules(&self) -> String;
    /// Starts a new game at the starting position; `first` moves first
    /// (families whose two players differ in what they may do need it).
    fn start(&mut self, first: Player);
    /// The position as text (several lines, no trailing new line), the last
    /// move marked; `color` allows ANSI colours.
    fn draw(&self, color: bool) -> String;
    /// Reads a typed move; the error says what is wrong and what is allowed.
    /// Only legal moves are accepted.
    fn parse_move(&self, input: &str) -> Result<Move, String>;
    /// The legal moves of the player to move (empty when the game is over).
    fn legal_moves(&self) -> Vec<Move>;
    /// A move as a person types it (`C2`, `a1-c1`, `3`).
    fn move_name(&self, m: Move) -> String;
    /// What a move does, from the current position (`3 5 7 → 2 5 7`).
    fn effect(&self, m: Move) -> String;
    /// Plays a legal move.
    fn play(&mut self, m: Move);
    /// Takes back the last move (no-op at the start).
    fn undo(&mut self);
    /// `Some(mover_wins)` when the game is over: does the player who would be
    /// to move win?
    fn result(&self) -> Option<bool>;
    /// Why the game ended, in the family's terms (`you took the last stone`).
    fn end_reason(&self) -> String;
    /// The winning moves of the player to move (empty: a P-position, or over).
    fn winning_moves(&self) -> Vec<Move>;
    /// Stones or pieces left after a move (the computer keeps a lost game long).
    fn left_after(&self, m: Move) -> u64;
    /// A key of the position (with whatever else decides the future, such as
    /// the last take under `no_repeat`), for the seeded choices.
    fn key(&self) -> u64;
    /// Explains the last move in the family's terms (Nim sum and target, Grundy
    /// values of the components, safe states mod M…); `None` before any move.
    fn why(&self) -> Option<String>;
    /// The data and script for the classroom page, or why this game is too
    /// large for one.
    fn html(&self) -> anyhow::Result<HtmlGame>;
}

/// The text with its first letter in upper case ("odd wins" → "Odd wins").
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::Player;

    /// Turns alternate: after an even number of moves the first player is
    /// to move again, after an odd number the other one.
    #[test]
    fn turns_alternate_from_the_first_player() {
        for first in [Player::Person, Player::Computer] {
            let second = if first == Player::Person {
                Player::Computer
            } else {
                Player::Person
            };
            assert_eq!(first.after(0), first);
            assert_eq!(first.after(1), second);
            assert_eq!(first.after(2), first);
            assert_eq!(first.after(7), second);
        }
    }
}
