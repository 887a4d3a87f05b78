//! `nimlab play` end to end: the real binary, moves on standard input.
//!
//! Each game here has its rules written out again in this file (heaps, a
//! pile with two hands, runs on a board read off the program's own drawing)
//! and a plain memoised minimax over them. A scripted opponent plays the
//! binary through its standard input and output; every reply of the
//! computer is checked to be legal, every end of game to be declared with
//! the winner the rules give, and every game against the minimax:
//!
//! * exhaustive: the opponent tries every legal move at every position it
//!   meets (and takes it back with `undo`), so every line of play is
//!   covered — the computer's choices depend only on the seed, the game
//!   number and the position, so one visit of each position suffices;
//! * the computer wins a game exactly when it was to move in a winning
//!   position at some point (so it never loses from an N-position and
//!   always wins once the opponent errs).

use std::collections::{HashMap, HashSet};
use std::fmt::Debug;
use std::hash::Hash;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

mod common;
use common::tmux::Tmux;

// ---------------------------------------------------------------------------
// The binary, driven line by line.

struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    transcript: String,
}

const PROMPTS: [&str; 2] = ["your move> ", "new, undo or quit> "];

impl Session {
    fn start(args: &[&str]) -> (Session, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nimlab"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nimlab runs");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Session {
            child,
            stdin,
            stdout,
            transcript: String::new(),
        };
        let first = s.read_to_prompt();
        (s, first)
    }

    /// Output up to the next prompt (the program then waits for a line).
    fn read_to_prompt(&mut self) -> String {
        let mut out = Vec::new();
        loop {
            let buf = self.stdout.fill_buf().expect("read the game");
            assert!(
                !buf.is_empty(),
                "nimlab ended unexpectedly; output so far:\n{}{}",
                self.transcript,
                String::from_utf8_lossy(&out)
            );
            let n = buf.len();
            out.extend_from_slice(buf);
            self.stdout.consume(n);
            let text = String::from_utf8_lossy(&out);
            if PROMPTS.iter().any(|p| text.ends_with(p)) {
                break;
            }
        }
        let text = String::from_utf8(out).unwrap();
        self.transcript.push_str(&text);
        text
    }

    fn send(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        self.read_to_prompt()
    }

    fn finish(mut self) -> String {
        writeln!(self.stdin, "quit").unwrap();
        drop(self.stdin);
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        let status = self.child.wait().unwrap();
        assert!(status.success());
        self.transcript.push_str(&rest);
        self.transcript
    }
}

/// The computer's move in a response, as it names it.
fn computer_move(out: &str) -> Option<String> {
    out.lines()
        .filter_map(|l| l.strip_prefix("computer plays "))
        .map(|l| l.split(':').next().unwrap().to_string())
        .next_back()
}

fn game_over(out: &str) -> Option<&'static str> {
    let l = out.lines().find(|l| l.starts_with("game over: "))?;
    Some(if l.starts_with("game over: you win") {
        "person"
    } else if l.starts_with("game over: the computer wins") {
        "computer"
    } else {
        panic!("unreadable end of game: {l}")
    })
}

// ---------------------------------------------------------------------------
// Rules, written out again, and the reference minimax.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Who {
    Person,
    Computer,
}

trait Rules {
    type S: Clone + Eq + Hash + Debug;
    type M: Clone + Debug;
    /// Legal moves of the player to move (`turn`).
    fn moves(&self, s: &Self::S) -> Vec<Self::M>;
    fn apply(&self, s: &Self::S, m: &Self::M) -> Self::S;
    fn turn(&self, s: &Self::S) -> Who;
    /// When the game is over: the winner.
    fn winner(&self, s: &Self::S) -> Option<Who>;
    /// The move as the person types it.
    fn typed(&self, s: &Self::S, m: &Self::M) -> String;
    /// The computer's move from its name.
    fn read(&self, s: &Self::S, name: &str) -> Self::M;
}

/// Memoised minimax: does the player to move win?
struct Minimax<R: Rules> {
    memo: HashMap<R::S, bool>,
}

impl<R: Rules> Minimax<R> {
    fn new() -> Self {
        Minimax {
            memo: HashMap::new(),
        }
    }
    fn mover_wins(&mut self, r: &R, s: &R::S) -> bool {
        if let Some(&v) = self.memo.get(s) {
            return v;
        }
        let v = match r.winner(s) {
            Some(w) => w == r.turn(s),
            None => r
                .moves(s)
                .iter()
                .any(|m| !self.mover_wins(r, &r.apply(s, m))),
        };
        self.memo.insert(s.clone(), v);
        v
    }
}

/// After the person's move: has the computer won, or is it to move in a
/// winning position?
fn computer_ahead<R: Rules>(r: &R, mm: &mut Minimax<R>, s: &R::S) -> bool {
    match r.winner(s) {
        Some(w) => w == Who::Computer,
        None => r.turn(s) == Who::Computer && mm.mover_wins(r, s),
    }
}

/// Applies the computer's reply (if any) found in `out` to `s`, checking it.
fn follow<R: Rules>(r: &R, s: R::S, out: &str) -> R::S {
    let mut s = s;
    // At most one computer move per response (strict alternation).
    if let Some(name) = computer_move(out) {
        assert_eq!(
            r.turn(&s),
            Who::Computer,
            "a computer move out of turn: {out}"
        );
        let m = r.read(&s, &name);
        let legal: Vec<String> = r.moves(&s).iter().map(|x| r.typed(&s, x)).collect();
        assert!(
            legal.contains(&r.typed(&s, &m)),
            "illegal computer move {name} at {s:?}; legal: {legal:?}"
        );
        s = r.apply(&s, &m);
    }
    let declared = game_over(out);
    let want = r.winner(&s).map(|w| match w {
        Who::Person => "person",
        Who::Computer => "computer",
    });
    assert_eq!(declared, want, "end of game at {s:?}:\n{out}");
    s
}

#[derive(Default, Debug)]
struct Tally {
    positions: usize,
    /// Person moves tried.
    moves: usize,
    games: usize,
    computer_wins: usize,
}

/// Every person move at every position met. `hot`: the computer has been to
/// move in a winning position in this line. Asserts that the computer wins
/// exactly the games where it was, and returns the number of games played.
fn explore<R: Rules>(
    r: &R,
    h: &mut Session,
    s: R::S,
    hot: bool,
    mm: &mut Minimax<R>,
    seen: &mut HashSet<(R::S, bool)>,
    t: &mut Tally,
) {
    if !seen.insert((s.clone(), hot)) {
        return;
    }
    t.positions += 1;
    for m in r.moves(&s) {
        t.moves += 1;
        let after = r.apply(&s, &m);
        let hot2 = hot || computer_ahead(r, mm, &after);
        let out = h.send(&r.typed(&s, &m));
        assert!(
            !out.contains("cannot play"),
            "a legal move was refused: {out}"
        );
        let s2 = follow(r, after, &out);
        match r.winner(&s2) {
            Some(w) => {
                t.games += 1;
                if w == Who::Computer {
                    t.computer_wins += 1;
                }
                assert_eq!(
                    w == Who::Computer,
                    hot2,
                    "the computer {} at {s2:?} (it {} a winning position on the way)",
                    if w == Who::Computer { "won" } else { "lost" },
                    if hot2 { "had" } else { "never had" }
                );
            }
            None => explore(r, h, s2, hot2, mm, seen, t),
        }
        let back = h.send("undo");
        assert!(back.contains("took back your last move"), "{back}");
    }
}

/// Starts a game and explores it exhaustively.
fn exhaustive<R: Rules>(r: &R, args: &[&str], start: R::S) -> Tally {
    let (mut h, first) = Session::start(args);
    let mut mm = Minimax::new();
    let hot0 = r.turn(&start) == Who::Computer && mm.mover_wins(r, &start);
    let s = follow(r, start.clone(), &first);
    let mut t = Tally::default();
    let mut seen = HashSet::new();
    explore(r, &mut h, s, hot0, &mut mm, &mut seen, &mut t);
    h.finish();
    eprintln!("exhaustive {}: {t:?}", args.join(" "));
    t
}

// ---------------------------------------------------------------------------
// Take-away games.

struct Heaps {
    takes: Vec<u32>,
    any: bool,
    misere: bool,
    no_repeat: bool,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct HeapState {
    h: Vec<u32>,
    last: Option<u32>,
    turn: Who,
}

impl Rules for Heaps {
    type S = HeapState;
    type M = (usize, u32);
    fn moves(&self, s: &HeapState) -> Vec<(usize, u32)> {
        let mut out = Vec::new();
        for (i, &h) in s.h.iter().enumerate() {
            let takes: Vec<u32> = if self.any {
                (1..=h).collect()
            } else {
                self.takes.clone()
            };
            for t in takes {
                if t <= h && !(self.no_repeat && s.last == Some(t)) {
                    out.push((i, t));
                }
            }
        }
        out
    }
    fn apply(&self, s: &HeapState, &(i, t): &(usize, u32)) -> HeapState {
        let mut n = s.clone();
        n.h[i] -= t;
        n.last = Some(t);
        n.turn = match s.turn {
            Who::Person => Who::Computer,
            Who::Computer => Who::Person,
        };
        n
    }
    fn turn(&self, s: &HeapState) -> Who {
        s.turn
    }
    fn winner(&self, s: &HeapState) -> Option<Who> {
        if !self.moves(s).is_empty() {
            return None;
        }
        // No move: the player to move loses in normal play, wins in misère.
        let other = match s.turn {
            Who::Person => Who::Computer,
            Who::Computer => Who::Person,
        };
        Some(if self.misere { s.turn } else { other })
    }
    fn typed(&self, s: &HeapState, &(i, t): &(usize, u32)) -> String {
        if s.h.len() == 1 {
            t.to_string()
        } else {
            format!("{}{t}", (b'A' + i as u8) as char)
        }
    }
    fn read(&self, s: &HeapState, name: &str) -> (usize, u32) {
        if s.h.len() == 1 {
            (0, name.parse().unwrap())
        } else {
            (
                (name.as_bytes()[0] - b'A') as usize,
                name[1..].parse().unwrap(),
            )
        }
    }
}

fn heaps_start(h: &[u32], first: Who) -> HeapState {
    HeapState {
        h: h.to_vec(),
        last: None,
        turn: first,
    }
}

fn nim(misere: bool) -> Heaps {
    Heaps {
        takes: vec![],
        any: true,
        misere,
        no_repeat: false,
    }
}

/// Acceptance: misère 3-5-7 (report 003), the computer first: it wins every
/// game, whatever the opponent plays.
#[test]
fn misere_357_computer_first_wins_every_game() {
    let args = [
        "takeaway", "--heaps", "3,5,7", "--take", "any", "--play", "misere", "--first", "computer",
        "--seed", "1",
    ];
    let t = exhaustive(&nim(true), &args, heaps_start(&[3, 5, 7], Who::Computer));
    assert_eq!(t.computer_wins, t.games, "{t:?}");
    assert!(t.positions > 30 && t.games >= 10, "{t:?}");
    // Other seeds make other first moves; they win as well.
    for seed in ["2", "3"] {
        let mut a = args;
        a[10] = seed;
        let t = exhaustive(&nim(true), &a, heaps_start(&[3, 5, 7], Who::Computer));
        assert_eq!(t.computer_wins, t.games, "seed {seed}: {t:?}");
    }
}

/// The person first at 3-5-7 (an N-position for them): the computer wins
/// exactly the games in which the person errs.
#[test]
fn misere_357_person_first_computer_wins_when_the_person_errs() {
    let args = [
        "takeaway", "--heaps", "3,5,7", "--take", "any", "--play", "misere", "--first", "me",
        "--seed", "4",
    ];
    let t = exhaustive(&nim(true), &args, heaps_start(&[3, 5, 7], Who::Person));
    assert!(t.computer_wins > 0 && t.computer_wins < t.games, "{t:?}");
}

/// Normal Nim from a P-position (1, 2, 3), the computer first: it loses to
/// perfect play and wins whenever the opponent errs.
#[test]
fn nim_123_computer_first_wins_when_the_person_errs() {
    let args = [
        "takeaway", "--heaps", "1,2,3", "--take", "any", "--first", "computer", "--seed", "5",
    ];
    let t = exhaustive(&nim(false), &args, heaps_start(&[1, 2, 3], Who::Computer));
    assert!(t.computer_wins > 0 && t.computer_wins < t.games, "{t:?}");
}

// ---------------------------------------------------------------------------
// The parity game.

struct Parity {
    takes: Vec<u32>,
    /// `sides`: the person's side is Odd; `odd_wins` otherwise.
    sides: Option<bool>,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct ParityState {
    pile: u32,
    mine: u32,
    theirs: u32,
    turn: Who,
}

impl Rules for Parity {
    type S = ParityState;
    type M = u32;
    fn moves(&self, s: &ParityState) -> Vec<u32> {
        self.takes
            .iter()
            .copied()
            .filter(|&t| t <= s.pile)
            .collect()
    }
    fn apply(&self, s: &ParityState, &t: &u32) -> ParityState {
        let mut n = s.clone();
        n.pile -= t;
        match s.turn {
            Who::Person => {
                n.mine += t;
                n.turn = Who::Computer;
            }
            Who::Computer => {
                n.theirs += t;
                n.turn = Who::Person;
            }
        }
        n
    }
    fn turn(&self, s: &ParityState) -> Who {
        s.turn
    }
    fn winner(&self, s: &ParityState) -> Option<Who> {
        if s.pile > 0 {
            return None;
        }
        Some(match self.sides {
            // Both hands end with the same parity; both odd: Odd wins.
            Some(person_odd) => {
                assert_eq!(s.mine % 2, s.theirs % 2);
                if (s.mine % 2 == 1) == person_odd {
                    Who::Person
                } else {
                    Who::Computer
                }
            }
            None => {
                if s.mine % 2 == 1 {
                    Who::Person
                } else {
                    Who::Computer
                }
            }
        })
    }
    fn typed(&self, _: &ParityState, t: &u32) -> String {
        t.to_string()
    }
    fn read(&self, _: &ParityState, name: &str) -> u32 {
        name.parse().unwrap()
    }
}

/// Acceptance: report 001's opening example, 17 stones, take 1..3, an odd
/// hand wins; the computer first wins every game.
#[test]
fn parity_17_computer_first_wins_every_game() {
    let rules = Parity {
        takes: vec![1, 2, 3],
        sides: None,
    };
    let start = ParityState {
        pile: 17,
        mine: 0,
        theirs: 0,
        turn: Who::Computer,
    };
    let args = [
        "parity",
        "--k",
        "3",
        "--r",
        "17",
        "--variant",
        "odd_wins",
        "--first",
        "computer",
        "--seed",
        "1",
    ];
    let t = exhaustive(&rules, &args, start.clone());
    assert_eq!(t.computer_wins, t.games, "{t:?}");
    assert!(t.positions > 10 && t.games >= 10, "{t:?}");
    // The person first: the computer wins exactly when the person errs.
    let args = [
        "parity",
        "--k",
        "3",
        "--r",
        "17",
        "--variant",
        "odd_wins",
        "--first",
        "me",
        "--seed",
        "1",
    ];
    let t = exhaustive(
        &rules,
        &args,
        ParityState {
            turn: Who::Person,
            ..start
        },
    );
    assert!(t.computer_wins > 0 && t.computer_wins < t.games, "{t:?}");
}

/// The article's main game, Odd against Even, both sides for the person.
#[test]
fn parity_sides_both_sides() {
    for (side, person_odd) in [("odd", true), ("even", false)] {
        for first in ["me", "computer"] {
            let rules = Parity {
                takes: vec![1, 2],
                sides: Some(person_odd),
            };
            let start = ParityState {
                pile: 12,
                mine: 0,
                theirs: 0,
                turn: if first == "me" {
                    Who::Person
                } else {
                    Who::Computer
                },
            };
            let args = [
                "parity", "--k", "2", "--r", "12", "--side", side, "--first", first, "--seed", "9",
            ];
            let t = exhaustive(&rules, &args, start);
            assert!(t.games >= 3, "{side} {first}: {t:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Boards: the cells are read off the program's first drawing.

struct Lines {
    /// Cell name → (q, r).
    cells: HashMap<String, (i32, i32)>,
    /// `None`: maximal runs; `Some(p)`: runs of 1..p (`u32::MAX` for any).
    max: Option<u32>,
    misere: bool,
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct BoardState {
    present: Vec<(i32, i32)>,
    turn: Who,
}

const DIRS: [(i32, i32); 3] = [(1, 0), (0, 1), (1, -1)];

fn column(name: &str) -> (i32, i32) {
    let split = name.find(|c: char| c.is_ascii_digit()).unwrap();
    let (c, r) = name.split_at(split);
    let mut q = 0i32;
    for ch in c.chars() {
        q = q * 26 + (ch as u8 - b'a') as i32 + 1;
    }
    (q - 1, r.parse::<i32>().unwrap() - 1)
}

impl Lines {
    fn from_drawing(first_output: &str, max: Option<u32>, misere: bool) -> (Lines, BoardState) {
        let mut cells = HashMap::new();
        for line in first_output.lines() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('(') {
                continue;
            }
            if t.split_whitespace().all(|w| {
                w.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                    && w.chars().last().is_some_and(|c| c.is_ascii_digit())
                    && w.chars().all(|c| c.is_ascii_alphanumeric())
            }) {
                for w in t.split_whitespace() {
                    cells.insert(w.to_string(), column(w));
                }
            }
        }
        let mut present: Vec<(i32, i32)> = cells.values().copied().collect();
        present.sort();
        (
            Lines { cells, max, misere },
            BoardState {
                present,
                turn: Who::Person,
            },
        )
    }

    fn name(&self, p: (i32, i32)) -> String {
        self.cells
            .iter()
            .find(|(_, v)| **v == p)
            .map(|(k, _)| k.clone())
            .unwrap()
    }
}

impl Rules for Lines {
    type S = BoardState;
    type M = Vec<(i32, i32)>;
    fn moves(&self, s: &BoardState) -> Vec<Vec<(i32, i32)>> {
        let has = |p: (i32, i32)| s.present.binary_search(&p).is_ok();
        let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
        for &p in &s.present {
            for d in DIRS {
                let mut run = vec![p];
                loop {
                    let last = *run.last().unwrap();
                    let ok = match self.max {
                        Some(m) => (run.len() as u32) <= m,
                        None => {
                            // Maximal: no present piece just beyond either end.
                            !has((p.0 - d.0, p.1 - d.1)) && !has((last.0 + d.0, last.1 + d.1))
                        }
                    };
                    if ok {
                        let mut key = run.clone();
                        key.sort();
                        if !out.contains(&key) {
                            out.push(key);
                        }
                    }
                    let next = (last.0 + d.0, last.1 + d.1);
                    if !has(next) {
                        break;
                    }
                    run.push(next);
                }
            }
        }
        out
    }
    fn apply(&self, s: &BoardState, m: &Vec<(i32, i32)>) -> BoardState {
        BoardState {
            present: s
                .present
                .iter()
                .copied()
                .filter(|p| !m.contains(p))
                .collect(),
            turn: match s.turn {
                Who::Person => Who::Computer,
                Who::Computer => Who::Person,
            },
        }
    }
    fn turn(&self, s: &BoardState) -> Who {
        s.turn
    }
    fn winner(&self, s: &BoardState) -> Option<Who> {
        if !s.present.is_empty() {
            return None;
        }
        let other = match s.turn {
            Who::Person => Who::Computer,
            Who::Computer => Who::Person,
        };
        Some(if self.misere { s.turn } else { other })
    }
    fn typed(&self, _: &BoardState, m: &Vec<(i32, i32)>) -> String {
        // Ends of the run: the extreme cells.
        let (a, b) = (m[0], m[m.len() - 1]);
        if m.len() == 1 {
            self.name(a)
        } else {
            format!("{}-{}", self.name(a), self.name(b))
        }
    }
    fn read(&self, _: &BoardState, name: &str) -> Vec<(i32, i32)> {
        let ends: Vec<(i32, i32)> = name.split('-').map(|c| self.cells[c]).collect();
        let (a, b) = (ends[0], ends[ends.len() - 1]);
        let k = (b.0 - a.0).abs().max((b.1 - a.1).abs());
        let step = if k == 0 {
            (0, 0)
        } else {
            ((b.0 - a.0) / k, (b.1 - a.1) / k)
        };
        let mut v: Vec<(i32, i32)> = (0..=k)
            .map(|j| (a.0 + j * step.0, a.1 + j * step.1))
            .collect();
        v.sort();
        v
    }
}

fn board_game(args: &[&str], max: Option<u32>, misere: bool, first: Who) -> Tally {
    // Read the board from a first session in which the person moves first.
    let mut probe: Vec<&str> = args.to_vec();
    probe.extend(["--first", "me", "--seed", "0"]);
    let (h, out) = Session::start(&probe);
    h.finish();
    let (rules, mut start) = Lines::from_drawing(&out, max, misere);
    assert!(!rules.cells.is_empty(), "no board in:\n{out}");
    start.turn = first;
    let mut a: Vec<&str> = args.to_vec();
    a.extend([
        "--first",
        if first == Who::Person {
            "me"
        } else {
            "computer"
        },
        "--seed",
        "11",
    ]);
    exhaustive(&rules, &a, start)
}

/// Acceptance: report 002's game on the triangle of 4 rows (runs of 1 to 3,
/// misère). The full triangle is a P-position (by the minimax here as well),
/// so the player moving second wins: with the person first, the computer wins
/// every game; with the computer first, exactly the games where the person errs.
#[test]
fn triangle_4_misere_the_computer_second_wins_every_game() {
    let args = [
        "lines",
        "--triangle",
        "4",
        "--take",
        "max:3",
        "--play",
        "misere",
    ];
    let t = board_game(&args, Some(3), true, Who::Person);
    assert_eq!(t.computer_wins, t.games, "{t:?}");
    assert!(t.positions > 50, "{t:?}");
    let t = board_game(&args, Some(3), true, Who::Computer);
    assert!(t.computer_wins > 0 && t.computer_wins < t.games, "{t:?}");
}

#[test]
fn hexagon_and_trapezoid_normal_play() {
    // Report 000's rule (maximal runs) on the regular hexagon of side 2 and A(2,3).
    let t = board_game(&["lines", "--regular", "2"], None, false, Who::Computer);
    assert!(t.games > 5, "{t:?}");
    let t = board_game(&["lines", "--trapezoid", "2,3"], None, false, Who::Person);
    assert!(t.games > 5, "{t:?}");
    let t = board_game(
        &["lines", "--parallelogram", "2,3", "--take", "max:2"],
        Some(2),
        false,
        Who::Computer,
    );
    assert!(t.games > 5, "{t:?}");
}

// ---------------------------------------------------------------------------
// Sampled games on larger rules: random opponents, many games in one session.

struct Lcg(u64);
impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n
    }
}

fn sampled<R: Rules>(r: &R, args: &[&str], start: R::S, games: usize, seed: u64) -> Tally {
    let (mut h, first) = Session::start(args);
    let mut mm = Minimax::new();
    let mut rng = Lcg(seed);
    let mut t = Tally::default();
    let mut out = first;
    for g in 0..games {
        let computer_first = out.contains(": the computer moves first");
        let mut s = start.clone();
        assert_eq!(r.turn(&s) == Who::Computer, computer_first, "{out}");
        let mut hot = r.turn(&s) == Who::Computer && mm.mover_wins(r, &s);
        s = follow(r, s, &out);
        while r.winner(&s).is_none() {
            let moves = r.moves(&s);
            let m = moves[rng.below(moves.len())].clone();
            let after = r.apply(&s, &m);
            hot |= computer_ahead(r, &mut mm, &after);
            out = h.send(&r.typed(&s, &m));
            s = follow(r, after, &out);
        }
        t.games += 1;
        let w = r.winner(&s).unwrap();
        if w == Who::Computer {
            t.computer_wins += 1;
        }
        assert_eq!(w == Who::Computer, hot, "game {g} ended at {s:?}");
        out = h.send("new");
    }
    h.finish();
    t
}

#[test]
fn sampled_takeaway_rules() {
    // Take 1..3 with no repeat, two heaps; take {1,3,4} misère; take 2..4 misère no repeat.
    let cases: Vec<(Heaps, Vec<&str>, Vec<u32>)> = vec![
        (
            Heaps {
                takes: vec![1, 2, 3],
                any: false,
                misere: false,
                no_repeat: true,
            },
            vec![
                "takeaway",
                "--heaps",
                "9,13",
                "--take",
                "max:3",
                "--no-repeat",
                "true",
            ],
            vec![9, 13],
        ),
        (
            Heaps {
                takes: vec![1, 3, 4],
                any: false,
                misere: true,
                no_repeat: false,
            },
            vec![
                "takeaway",
                "--heaps",
                "7,8,5",
                "--take",
                "set:1,3,4",
                "--play",
                "misere",
            ],
            vec![7, 8, 5],
        ),
        (
            Heaps {
                takes: vec![2, 3, 4],
                any: false,
                misere: true,
                no_repeat: true,
            },
            vec![
                "takeaway",
                "--heaps",
                "15",
                "--take",
                "min:2,max:4",
                "--play",
                "misere",
                "--no-repeat",
                "true",
            ],
            vec![15],
        ),
        (
            nim(false),
            vec!["takeaway", "--heaps", "5,9,12,6", "--take", "any"],
            vec![5, 9, 12, 6],
        ),
    ];
    for (i, (rules, args, heaps)) in cases.iter().enumerate() {
        for (first, who) in [("computer", Who::Computer), ("me", Who::Person)] {
            let mut a = args.clone();
            let seed = format!("{}", 20 + i);
            a.extend(["--first", first, "--seed", &seed]);
            let t = sampled(rules, &a, heaps_start(heaps, who), 12, 99 + i as u64);
            assert_eq!(t.games, 12, "{a:?}");
        }
    }
}

#[test]
fn sampled_boards() {
    for (args, max, misere) in [
        (
            vec![
                "lines",
                "--triangle",
                "5",
                "--take",
                "any",
                "--play",
                "misere",
            ],
            Some(u32::MAX),
            true,
        ),
        (vec!["lines", "--regular", "3"], None, false),
        (
            vec!["lines", "--triangle", "5", "--take", "max:2"],
            Some(2),
            false,
        ),
        (
            vec![
                "lines",
                "--mask",
                "OO.O/OOOO/.OO",
                "--take",
                "max:3",
                "--play",
                "misere",
            ],
            Some(3),
            true,
        ),
    ] {
        let mut probe = args.clone();
        probe.extend(["--first", "me", "--seed", "0"]);
        let (h, out) = Session::start(&probe);
        h.finish();
        let (rules, start) = Lines::from_drawing(&out, max, misere);
        for (first, who) in [("computer", Who::Computer), ("me", Who::Person)] {
            let mut a = args.clone();
            a.extend(["--first", first, "--seed", "3"]);
            let s = BoardState {
                turn: who,
                ..start.clone()
            };
            let t = sampled(&rules, &a, s, 6, 7);
            assert_eq!(t.games, 6, "{a:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Report 003's worked line of play, as a transcript.

/// Report 003 (二(三), 二(四)): the first player takes one stone from any heap;
/// then, whatever the second player does, the first answers with its table
/// of eight cases, e.g. (2,4,n) → (2,4,6), (1,4,n) → (1,4,5), (1,2,n) →
/// (1,2,3), (n₁,n₁,n₂) → (n,n,0), (1,n,0) → (1,0,0), and the second player
/// takes the last stone.
#[test]
fn report_003_line_of_play() {
    let (mut h, first) = Session::start(&[
        "takeaway", "--heaps", "3,5,7", "--take", "any", "--play", "misere", "--first", "computer",
        "--seed", "1",
    ]);
    // The computer's first move: one stone from any heap (the report's three).
    let opening = computer_move(&first).unwrap();
    let reply = match opening.as_str() {
        "A1" => "B1", // (2,5,7) → (2,4,7)
        "B1" => "A1", // (3,4,7) → (2,4,7)
        "C1" => "A1", // (3,5,6) → (2,5,6)
        other => panic!("the first move takes one stone, not {other}"),
    };
    // (person's move, the position the report's table makes, the case).
    let line = [
        (reply, "2 4 6", 8),
        ("A1", "1 4 5", 7),
        ("B2", "1 2 3", 6),
        ("C1", "0 2 2", 5),
        ("C1", "0 0 1", 2),
    ];
    for (mine, target, case) in line {
        let out = h.send(mine);
        let reached = out
            .lines()
            .find_map(|l| l.strip_prefix("computer plays "))
            .and_then(|l| l.split(" → ").nth(1))
            .unwrap_or_else(|| panic!("no reply to {mine}: {out}"));
        assert_eq!(reached, target, "{out}");
        let why = h.send("why");
        assert!(
            why.contains(&format!("case ({case})")) && why.contains("does exactly that"),
            "{why}"
        );
    }
    let out = h.send("C1");
    assert!(
        out.contains("you play C1: 0 0 1 → 0 0 0")
            && out.contains("game over: the computer wins (you took the last stone)"),
        "{out}"
    );
    let transcript = h.finish();
    assert!(transcript.contains("finished games: 1; you won 0, the computer won 1"));
}

// ---------------------------------------------------------------------------
// Bad input never crashes.

#[test]
fn illegal_input_gets_a_message_and_the_prompt_again() {
    let (mut h, _) = Session::start(&[
        "lines",
        "--triangle",
        "4",
        "--take",
        "max:3",
        "--first",
        "me",
        "--seed",
        "1",
    ]);
    for (input, want) in [
        ("a1-d1", "at most 3"),
        ("a1-b2", "not on one line"),
        ("q7", "not a cell of this board"),
        ("hello world", "not a cell name"),
        ("é", "not a cell name"),
        ("", ""),
    ] {
        let out = h.send(input);
        assert!(out.contains(want), "{input:?}: {out}");
        assert!(out.ends_with("your move> "), "{out}");
    }
    h.finish();
    let (mut h, _) = Session::start(&[
        "parity",
        "--k",
        "3",
        "--r",
        "5",
        "--variant",
        "odd_wins",
        "--first",
        "me",
        "--seed",
        "1",
    ]);
    for input in ["0", "4", "-1", "99999999999999999999", "take", "3 3"] {
        let out = h.send(input);
        assert!(out.contains("cannot play"), "{input:?}: {out}");
    }
    h.finish();
}

#[test]
fn bad_parameters_are_errors_naming_the_field() {
    let run = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_nimlab"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("play")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    assert!(run(&["takeaway", "--heaps", "3,5", "--take", "bogus"]).contains("unknown take rule"));
    assert!(
        run(&[
            "takeaway", "--heaps", "3,5", "--take", "any", "--first", "you"
        ])
        .contains("--first")
    );
    assert!(
        run(&[
            "takeaway", "--heaps", "3", "--take", "any", "--level", "hard"
        ])
        .contains("--level")
    );
    assert!(
        run(&[
            "takeaway",
            "--heaps",
            "3",
            "--take",
            "any",
            "--mistakes",
            "2"
        ])
        .contains("--mistakes")
    );
    assert!(run(&["parity", "--k", "3", "--r", "17"]).contains("must be even"));
    assert!(run(&["lines", "--triangle", "12", "--play", "misere"]).contains("78 pieces"));
    assert!(run(&["nosuch"]).contains("unknown family"));
    let e = run(&["experiments/report-002.yaml"]);
    assert!(e.contains("--sweep"), "{e}");
    let e = run(&["experiments/report-002.yaml", "--sweep", "triangles"]);
    assert!(e.contains("triangle") && e.contains("one"), "{e}");
}

/// A spec's sweep names the game; the command line chooses among its values.
#[test]
fn a_sweep_names_the_game() {
    let root = env!("CARGO_MANIFEST_DIR");
    let spec = format!("{root}/experiments/report-003.yaml");
    let (h, out) = Session::start(&[
        &spec,
        "--sweep",
        "misere-357-start",
        "--first",
        "computer",
        "--seed",
        "1",
    ]);
    h.finish();
    assert!(
        out.contains("takeaway: heaps 3 5 7, take any, misère play"),
        "{out}"
    );
    let spec = format!("{root}/experiments/report-002.yaml");
    let (h, out) = Session::start(&[
        &spec,
        "--sweep",
        "triangles",
        "--board",
        "triangle:4",
        "--take",
        "max:3",
        "--play",
        "misere",
        "--seed",
        "1",
    ]);
    h.finish();
    assert!(
        out.contains("T(4)") && out.contains("take max:3, misère"),
        "{out}"
    );
}

/// The harness is not vacuous: a computer that slips on purpose at every
/// chance loses games it had won, and the exhaustive check says so.
#[test]
fn a_careless_computer_is_caught() {
    let args = [
        "takeaway",
        "--heaps",
        "3,5,7",
        "--take",
        "any",
        "--play",
        "misere",
        "--first",
        "computer",
        "--seed",
        "1",
        "--level",
        "easy",
        "--mistakes",
        "1",
    ];
    let caught = std::panic::catch_unwind(|| {
        exhaustive(&nim(true), &args, heaps_start(&[3, 5, 7], Who::Computer))
    });
    assert!(caught.is_err(), "the careless computer passed: {caught:?}");
}

// ---------------------------------------------------------------------------
// In a terminal: the screen is redrawn whole (checked inside tmux).

#[test]
fn terminal_screen_in_tmux() {
    let cmd = format!(
        "{} play takeaway --heaps 3,5,7 --take any --play misere --first computer --seed 1; echo EXITED $?; sleep 60",
        env!("CARGO_BIN_EXE_nimlab")
    );
    let Some(term) = Tmux::start("play", &cmd, 100, 32) else {
        return;
    };
    let wait = |what: &str| term.wait(what, 5);
    let check = || {
        let s0 = wait("your move>");
        let lines: Vec<&str> = s0.lines().collect();
        assert!(
            lines[0].starts_with("nimlab play — takeaway: heaps 3 5 7"),
            "{s0}"
        );
        assert_eq!(s0.matches("nimlab play —").count(), 1, "{s0}");
        s0
    };
    let s0 = check();
    assert!(s0.contains("game 1: the computer moves first"), "{s0}");
    assert!(s0.contains("computer plays"), "{s0}");
    assert!(s0.contains("  A  ● ●") || s0.contains("  A  ● ● ●"), "{s0}");
    let send = |keys: &str| term.send(keys);
    send("Z9");
    let s1 = wait("cannot play");
    assert_eq!(s1.matches("nimlab play —").count(), 1, "{s1}");
    assert!(s1.contains("there is no heap Z"), "{s1}");
    // The screen was cleared and redrawn: the title on top, once; the
    // recent messages below the board, once each.
    assert!(s1.starts_with("nimlab play —"), "{s1}");
    assert_eq!(
        s1.matches("game 1: the computer moves first").count(),
        1,
        "{s1}"
    );
    send("hint");
    let s2 = wait("no winning move");
    let last = s2.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    assert!(last.starts_with("your move>"), "{s2}");
    assert_eq!(s2.matches("cannot play").count(), 1, "{s2}");
    send("quit");
    let s3 = wait("EXITED");
    assert!(
        s3.contains("finished games: 0") && s3.contains("EXITED 0"),
        "{s3}"
    );
    assert!(!s3.contains("nimlab play —"), "{s3}");
}
