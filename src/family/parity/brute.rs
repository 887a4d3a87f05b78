//! The reference: the parity game played out with real hand sizes (never
//! reduced to parities, never reduced modulo anything), solved by the generic
//! memoised recursion of [`crate::game::BruteOutcome`].
//!
//! `BruteOutcome` knows only "the player who cannot move loses". The end of a
//! parity game is encoded in those terms: at `pile = 0` the player to move has
//! exactly one move (to [`Position::over`]) when the final hands make them
//! the winner, and none when they make them the loser; after that move the
//! opponent has no move and loses.

use std::sync::Arc;

use super::solver::{Mover, Variant};
use crate::game::Game;

/// A full position: both hands, the pile, who moves.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The variant.
    pub variant: Variant,
    /// Hand of A (Odd in `sides`).
    pub a: u64,
    /// Hand of B (Even in `sides`).
    pub b: u64,
    /// Stones left.
    pub pile: u64,
    /// Who moves.
    pub mover: Mover,
    /// The take set.
    pub takes: Arc<[u32]>,
    /// The game is over and has been claimed by the previous mover.
    pub over: bool,
}

/// A move: take `t` stones, or claim the win at the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// Take this many stones into one's hand.
    Take(u32),
    /// The pile is empty and the final hands make the mover the winner.
    Claim,
}

impl Position {
    /// A fresh position.
    pub fn new(
        variant: Variant,
        a: u64,
        b: u64,
        pile: u64,
        mover: Mover,
        takes: Arc<[u32]>,
    ) -> Position {
        Position {
            variant,
            a,
            b,
            pile,
            mover,
            takes,
            over: false,
        }
    }

    /// At `pile = 0`: does the player to move hold the winning hand? Written
    /// from the rules, on the real hand sizes.
    pub fn mover_has_won(&self) -> bool {
        match self.variant {
            Variant::Sides => {
                // Both hands have the same parity here (the total is even).
                let odd_wins = self.a % 2 == 1 && self.b % 2 == 1;
                let even_wins = self.a.is_multiple_of(2) && self.b.is_multiple_of(2);
                assert!(
                    odd_wins || even_wins,
                    "sides: hands of different parity at the end: {self:?}"
                );
                match self.mover {
                    Mover::A => odd_wins,
                    Mover::B => even_wins,
                }
            }
            Variant::OddWins => {
                let mine = match self.mover {
                    Mover::A => self.a,
                    Mover::B => self.b,
                };
                mine % 2 == 1
            }
        }
    }
}

impl Game for Position {
    type Move = Move;
    fn moves(&self) -> Vec<(Move, Position)> {
        if self.over {
            return vec![];
        }
        if self.pile == 0 {
            if self.mover_has_won() {
                let mut p = self.clone();
                p.over = true;
                p.mover = self.mover.other();
                return vec![(Move::Claim, p)];
            }
            return vec![];
        }
        let mut out = Vec::new();
        for &t in self.takes.iter() {
            if t as u64 > self.pile {
                continue;
            }
            let mut p = self.clone();
            p.pile -= t as u64;
            match self.mover {
                Mover::A => p.a += t as u64,
                Mover::B => p.b += t as u64,
            }
            p.mover = self.mover.other();
            out.push((Move::Take(t), p));
        }
        out
    }
}
