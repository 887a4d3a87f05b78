//! The session loop: turns, the computer's choice, commands, transcript.
//!
//! In a terminal the screen is redrawn before every prompt (header, board,
//! the last messages, prompt). Otherwise the game is written as plain text,
//! line by line, and each line read is echoed after its prompt, so that the
//! output of a scripted game reads as a transcript:
//!
//! ```text
//! computer plays A1: 3 5 7 → 2 5 7
//!   A  ● ●              2
//!   …
//! your move> C2
//! you play C2: 2 5 7 → 2 5 5
//! ```

use std::io::{self, BufRead, Write};

use super::rng::{self, Purpose};
use super::term::{self, Paint};
use super::{Move, PlayGame, Player};

/// Who moves first (`--first`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// The person.
    Me,
    /// The computer.
    Computer,
    /// Drawn for each game from the seed.
    Random,
}

/// How well the computer plays (`--level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A winning move whenever one exists.
    Perfect,
    /// Slips now and then (see [`Options::mistakes`]) so that a student can win.
    Easy,
}

/// What the computer does in a lost position (`--when-losing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// The move that leaves the most stones or pieces (a long game).
    Long,
    /// Any legal move.
    Random,
}

/// The session's settings.
#[derive(Clone, Debug)]
pub struct Options {
    /// Who moves first.
    pub first: First,
    /// Perfect or easy.
    pub level: Level,
    /// At level easy, the probability of a slip when a winning move exists.
    pub mistakes: f64,
    /// The computer's move in a lost position.
    pub stall: Stall,
    /// The seed of every random choice.
    pub seed: u64,
}

impl Options {
    /// `perfect` or `easy (slips 33% of the time)`.
    pub fn level_text(&self) -> String {
        match self.level {
            Level::Perfect => "perfect".into(),
            Level::Easy => format!(
                "easy (slips {:.0}% of the time)",
                (self.mistakes * 100.0).round()
            ),
        }
    }
}

/// Why the computer played a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A winning move.
    Win,
    /// A slip of the easy level: these were the winning moves.
    Slip(Vec<Move>),
    /// No winning move existed.
    Stall,
}

/// The computer's move in the current position (see the module
/// documentation of [`crate::play`]); `None` when the game is over.
pub fn choose(game: &dyn PlayGame, opts: &Options, game_no: u64) -> Option<(Move, Choice)> {
    let legal = game.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let key = game.key();
    let pick = |v: &[Move]| v[rng::index(opts.seed, game_no, key, Purpose::Pick, v.len())];
    let wins = game.winning_moves();
    if !wins.is_empty() {
        let slip = opts.level == Level::Easy
            && rng::chance(opts.seed, game_no, key, Purpose::Slip, opts.mistakes);
        if slip {
            let others: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| !wins.contains(m))
                .collect();
            if !others.is_empty() {
                return Some((pick(&others), Choice::Slip(wins)));
            }
        }
        return Some((pick(&wins), Choice::Win));
    }
    let candidates = match opts.stall {
        Stall::Random => legal,
        Stall::Long => {
            let most = legal.iter().map(|&m| game.left_after(m)).max().unwrap();
            legal
                .into_iter()
                .filter(|&m| game.left_after(m) == most)
                .collect()
        }
    };
    Some((pick(&candidates), Choice::Stall))
}

/// What the person typed.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Quit,
    Hint,
    Why,
    Undo,
    New,
    Help,
    Nothing,
    Move(String),
}

fn command(line: &str) -> Command {
    match line.trim().to_lowercase().as_str() {
        "quit" | "q" | "exit" => Command::Quit,
        "hint" | "h" => Command::Hint,
        "why" | "w" => Command::Why,
        "undo" | "u" => Command::Undo,
        "new" | "n" => Command::New,
        "help" | "?" => Command::Help,
        "" => Command::Nothing,
        _ => Command::Move(line.trim().to_string()),
    }
}

/// The commands, for the help text and the prompt line.
const COMMANDS: &str =
    "hint (the winning moves), why (explain the last move), undo, new (a new game), help, quit";

/// Longest input line kept (the rest of a longer line is skipped).
const MAX_LINE: usize = 4096;

/// One line of input without its new line, at most `max` bytes of it kept;
/// `None` at the end of the input.
fn read_line_bounded(input: &mut dyn BufRead, max: usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(line));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let found = done > chunk.len();
        input.consume(done);
        if found {
            return Ok(Some(line));
        }
    }
}

/// Messages kept under the board in a terminal (the most recent).
const LOG_LINES: usize = 10;

/// One session: several games against the same rule.
pub struct Session<'a, W: Write> {
    game: &'a mut dyn PlayGame,
    opts: Options,
    out: W,
    tty: bool,
    game_no: u64,
    first: Player,
    /// This game's moves so far: who played them and why (the computer's).
    moves: Vec<(Player, Move, Option<Choice>)>,
    /// The winner, once the current game is over.
    winner: Option<Player>,
    /// Winners of the games left behind (`new`, `quit`).
    finished: Vec<Player>,
    /// Terminal: the messages under the board.
    log: Vec<String>,
    /// Plain: the board changed since it was last written.
    board_stale: bool,
}

impl<'a, W: Write> Session<'a, W> {
    /// A session writing to `out`; `tty` redraws the screen before each prompt.
    pub fn new(game: &'a mut dyn PlayGame, opts: Options, out: W, tty: bool) -> Self {
        Session {
            game,
            opts,
            out,
            tty,
            game_no: 0,
            first: Player::Person,
            moves: Vec::new(),
            winner: None,
            finished: Vec::new(),
            log: Vec::new(),
            board_stale: true,
        }
    }

    /// Plays until `quit` or the end of the input.
    pub fn run(&mut self, input: &mut dyn BufRead) -> io::Result<()> {
        if !self.tty {
            self.header_plain()?;
        }
        self.new_game()?;
        loop {
            self.computer_turns()?;
            self.show()?;
            // Bytes, not a string: a line that is not UTF-8 is read with
            // replacement characters (and refused as a move), not an error.
            let Some(bytes) = read_line_bounded(input, MAX_LINE)? else {
                if !self.tty {
                    writeln!(self.out)?;
                }
                break;
            };
            let line = String::from_utf8_lossy(&bytes);
            let line = line.trim_end_matches(['\n', '\r']);
            if !self.tty {
                writeln!(self.out, "{line}")?;
            }
            if !self.handle(line)? {
                break;
            }
        }
        self.farewell()
    }

    fn to_move(&self) -> Player {
        self.first.after(self.moves.len())
    }

    fn say(&mut self, line: impl Into<String>) -> io::Result<()> {
        let line = line.into();
        if self.tty {
            self.log.extend(line.lines().map(str::to_string));
            let n = self.log.len();
            if n > LOG_LINES {
                self.log.drain(..n - LOG_LINES);
            }
            Ok(())
        } else {
            writeln!(self.out, "{line}")
        }
    }

    fn header_plain(&mut self) -> io::Result<()> {
        let title = self.game.title();
        let rules = self.game.rules();
        writeln!(self.out, "nimlab play — {title}")?;
        writeln!(self.out, "{rules}")?;
        writeln!(
            self.out,
            "level {}, seed {}; commands: {COMMANDS}",
            self.opts.level_text(),
            self.opts.seed
        )
    }

    fn new_game(&mut self) -> io::Result<()> {
        if let Some(w) = self.winner.take() {
            self.finished.push(w);
        }
        self.game_no += 1;
        self.first = match self.opts.first {
            First::Me => Player::Person,
            First::Computer => Player::Computer,
            First::Random => {
                if rng::index(self.opts.seed, self.game_no, 0, Purpose::First, 2) == 0 {
                    Player::Person
                } else {
                    Player::Computer
                }
            }
        };
        self.game.start(self.first);
        self.moves.clear();
        self.board_stale = true;
        let who = match self.first {
            Player::Person => "you move first",
            Player::Computer => "the computer moves first",
        };
        let n = self.game_no;
        if !self.tty {
            writeln!(self.out)?;
        }
        self.say(format!("game {n}: {who}"))?;
        self.check_over()
    }

    fn play(&mut self, who: Player, m: Move, why: Option<Choice>) -> io::Result<()> {
        let line = format!(
            "{} {} {}: {}",
            who.name(),
            if who == Player::Person {
                "play"
            } else {
                "plays"
            },
            self.game.move_name(m),
            self.game.effect(m)
        );
        self.game.play(m);
        self.moves.push((who, m, why));
        self.board_stale = true;
        self.say(line)?;
        self.check_over()
    }

    fn check_over(&mut self) -> io::Result<()> {
        if self.winner.is_some() {
            return Ok(());
        }
        let Some(mover_wins) = self.game.result() else {
            return Ok(());
        };
        let mover = self.to_move();
        let winner = if mover_wins { mover } else { mover.other() };
        self.winner = Some(winner);
        let reason = self.game.end_reason();
        let verdict = match winner {
            Player::Person => "you win",
            Player::Computer => "the computer wins",
        };
        if !self.tty && self.board_stale {
            self.write_board()?;
        }
        self.say(format!("game over: {verdict} ({reason})"))?;
        let (you, cpu) = self.score();
        self.say(format!(
            "score: you {you}, computer {cpu}. Type new to play again, undo to take back your last move, or quit."
        ))
    }

    fn score(&self) -> (usize, usize) {
        let all = self.finished.iter().chain(self.winner.iter());
        let you = all.clone().filter(|&&w| w == Player::Person).count();
        (you, all.count() - you)
    }

    fn computer_turns(&mut self) -> io::Result<()> {
        while self.winner.is_none() && self.to_move() == Player::Computer {
            let Some((m, why)) = choose(&*self.game, &self.opts, self.game_no) else {
                break;
            };
            self.play(Player::Computer, m, Some(why))?;
        }
        Ok(())
    }

    fn write_board(&mut self) -> io::Result<()> {
        let board = self.game.draw(false);
        writeln!(self.out, "{board}")?;
        self.board_stale = false;
        Ok(())
    }

    fn prompt(&self) -> &'static str {
        if self.winner.is_some() {
            "new, undo or quit> "
        } else {
            "your move> "
        }
    }

    fn show(&mut self) -> io::Result<()> {
        if !self.tty {
            if self.board_stale {
                self.write_board()?;
            }
            write!(self.out, "{}", self.prompt())?;
            return self.out.flush();
        }
        let mut s = String::from(term::CLEAR);
        let (you, cpu) = self.score();
        s.push_str(&term::paint(
            &format!("nimlab play — {}", self.game.title()),
            Paint::Bold,
            true,
        ));
        s.push('\n');
        s.push_str(&term::paint(
            &format!(
                "level {} · game {} · you {you}, computer {cpu}",
                self.opts.level_text(),
                self.game_no
            ),
            Paint::Cyan,
            true,
        ));
        s.push_str("\n\n");
        s.push_str(&self.game.draw(true));
        s.push_str("\n\n");
        for l in &self.log {
            s.push_str(l);
            s.push('\n');
        }
        if self.winner.is_none() {
            s.push_str(&term::paint(
                "Type a move, or hint, why, undo, new, help, quit.",
                Paint::Dim,
                true,
            ));
            s.push('\n');
        }
        s.push_str(self.prompt());
        self.out.write_all(s.as_bytes())?;
        self.out.flush()
    }

    /// Handles one line; false to stop.
    fn handle(&mut self, line: &str) -> io::Result<bool> {
        match command(line) {
            Command::Quit => return Ok(false),
            Command::Nothing => {}
            Command::Help => {
                let rules = self.game.rules();
                self.say(format!("{rules}\ncommands: {COMMANDS}"))?;
            }
            Command::Hint => self.hint()?,
            Command::Why => self.why()?,
            Command::Undo => self.undo()?,
            Command::New => self.new_game()?,
            Command::Move(text) => {
                if self.winner.is_some() {
                    self.say("the game is over: type new to play again, undo to take back your last move, or quit")?;
                } else {
                    match self.game.parse_move(&text) {
                        Ok(m) => self.play(Player::Person, m, None)?,
                        Err(msg) => self.say(format!("cannot play {text:?}: {msg}"))?,
                    }
                }
            }
        }
        Ok(true)
    }

    fn hint(&mut self) -> io::Result<()> {
        if self.winner.is_some() {
            return self.say("the game is over: no move to hint");
        }
        let wins = self.game.winning_moves();
        if wins.is_empty() {
            let (m, _) = choose(
                &*self.game,
                &Options {
                    level: Level::Perfect,
                    stall: Stall::Long,
                    ..self.opts.clone()
                },
                self.game_no,
            )
            .expect("a game that is not over has a move");
            let name = self.game.move_name(m);
            return self.say(format!(
                "no winning move: every move loses against perfect play. To keep the game long and hope for a slip, try {name}."
            ));
        }
        let shown: Vec<String> = wins
            .iter()
            .take(12)
            .map(|&m| format!("{} ({})", self.game.move_name(m), self.game.effect(m)))
            .collect();
        let more = if wins.len() > shown.len() {
            format!(" and {} more", wins.len() - shown.len())
        } else {
            String::new()
        };
        self.say(format!(
            "winning move{}: {}{more}",
            if wins.len() == 1 { "" } else { "s" },
            shown.join(", ")
        ))
    }

    fn why(&mut self) -> io::Result<()> {
        let Some((who, m, choice)) = self.moves.last().cloned() else {
            return self.say("no move has been played in this game yet");
        };
        let text = self.game.why().unwrap_or_default();
        let lead = match who {
            Player::Person => "your move",
            Player::Computer => "the computer's move",
        };
        self.say(format!("{lead}: {text}"))?;
        if let Some(Choice::Slip(wins)) = choice {
            // The winning moves were those of the position before the move.
            self.game.undo();
            let names: Vec<String> = wins.iter().map(|&w| self.game.move_name(w)).collect();
            self.game.play(m);
            self.say(format!(
                "(level easy: that was a deliberate slip; the winning move{} {})",
                if wins.len() == 1 { " was" } else { "s were" },
                names.join(", ")
            ))?;
        }
        Ok(())
    }

    fn undo(&mut self) -> io::Result<()> {
        if !self.moves.iter().any(|(p, _, _)| *p == Player::Person) {
            return self.say("nothing to undo: you have not moved in this game yet");
        }
        loop {
            let (p, _, _) = self.moves.pop().expect("a person's move remains");
            self.game.undo();
            if p == Player::Person {
                break;
            }
        }
        self.winner = None;
        self.board_stale = true;
        self.say("took back your last move (and the computer's reply)")
    }

    fn farewell(&mut self) -> io::Result<()> {
        if let Some(w) = self.winner.take() {
            self.finished.push(w);
        }
        let you = self
            .finished
            .iter()
            .filter(|&&w| w == Player::Person)
            .count();
        let cpu = self.finished.len() - you;
        if self.tty {
            write!(self.out, "{}", term::CLEAR)?;
        }
        writeln!(
            self.out,
            "finished games: {}; you won {you}, the computer won {cpu}",
            self.finished.len()
        )?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::HtmlGame;

    /// A toy family: one heap, take 1 or 2, normal play. By hand: the
    /// P-positions are the multiples of 3.
    struct Toy {
        start: u64,
        n: u64,
        history: Vec<u64>,
    }

    impl Toy {
        fn new(n: u64) -> Toy {
            Toy {
                start: n,
                n,
                history: Vec::new(),
            }
        }
    }

    impl PlayGame for Toy {
        fn title(&self) -> String {
            format!("toy: {} stones, take 1 or 2", self.start)
        }
        fn rules(&self) -> String {
            "take 1 or 2; the last stone wins".into()
        }
        fn start(&mut self, _first: Player) {
            self.n = self.start;
            self.history.clear();
        }
        fn draw(&self, _color: bool) -> String {
            format!("  [{}]", self.n)
        }
        fn parse_move(&self, input: &str) -> Result<Move, String> {
            match input.parse::<u64>() {
                Ok(t @ 1..=2) if t <= self.n => Ok(Move(t)),
                _ => Err("take 1 or 2".into()),
            }
        }
        fn legal_moves(&self) -> Vec<Move> {
            (1..=2.min(self.n)).map(Move).collect()
        }
        fn move_name(&self, m: Move) -> String {
            m.0.to_string()
        }
        fn effect(&self, m: Move) -> String {
            format!("{} → {}", self.n, self.n - m.0)
        }
        fn play(&mut self, m: Move) {
            self.n -= m.0;
            self.history.push(m.0);
        }
        fn undo(&mut self) {
            if let Some(t) = self.history.pop() {
                self.n += t;
            }
        }
        fn result(&self) -> Option<bool> {
            (self.n == 0).then_some(false)
        }
        fn end_reason(&self) -> String {
            "the last stone is gone".into()
        }
        fn winning_moves(&self) -> Vec<Move> {
            self.legal_moves()
                .into_iter()
                .filter(|m| (self.n - m.0).is_multiple_of(3))
                .collect()
        }
        fn left_after(&self, m: Move) -> u64 {
            self.n - m.0
        }
        fn key(&self) -> u64 {
            self.n
        }
        fn why(&self) -> Option<String> {
            self.history
                .last()
                .map(|t| format!("took {t}, leaving {}", self.n))
        }
        fn html(&self) -> anyhow::Result<HtmlGame> {
            anyhow::bail!("no page for the toy")
        }
    }

    fn opts(first: First, level: Level, mistakes: f64) -> Options {
        Options {
            first,
            level,
            mistakes,
            stall: Stall::Long,
            seed: 7,
        }
    }

    fn session(n: u64, o: Options, input: &str) -> String {
        let mut g = Toy::new(n);
        let mut out = Vec::new();
        Session::new(&mut g, o, &mut out, false)
            .run(&mut input.as_bytes())
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_computer_wins_from_an_n_position_and_keeps_lost_games_long() {
        // 7 is N: the computer takes 1 (→ 6), then answers t with 3 - t.
        let t = session(7, opts(First::Computer, Level::Perfect, 0.0), "2\n1\n2\n");
        assert!(t.contains("computer plays 1: 7 → 6"), "{t}");
        assert!(
            t.contains("you play 2: 6 → 4\ncomputer plays 1: 4 → 3"),
            "{t}"
        );
        assert!(
            t.contains("you play 1: 3 → 2\ncomputer plays 2: 2 → 0"),
            "{t}"
        );
        assert!(
            t.contains("game over: the computer wins (the last stone is gone)"),
            "{t}"
        );
        // The game was over: the third line is refused.
        assert!(t.contains("new, undo or quit> 2\nthe game is over"), "{t}");
        assert!(
            t.ends_with("finished games: 1; you won 0, the computer won 1\n"),
            "{t}"
        );
        // From 6 (P) the computer stalls with the move that leaves the most: 1.
        let t = session(6, opts(First::Computer, Level::Perfect, 0.0), "hint\n");
        assert!(t.contains("computer plays 1: 6 → 5"), "{t}");
        assert!(t.contains("winning move: 2 (5 → 3)"), "{t}");
    }

    #[test]
    fn commands_undo_new_why_and_bad_input() {
        let t = session(
            5,
            opts(First::Me, Level::Perfect, 0.0),
            "undo\n7\n\nhint\n1\nwhy\nundo\nwhy\n2\nnew\nquit\nnever read\n",
        );
        assert!(t.contains("your move> undo\nnothing to undo"), "{t}");
        assert!(
            t.contains("your move> 7\ncannot play \"7\": take 1 or 2"),
            "{t}"
        );
        assert!(
            t.contains("your move> hint\nwinning move: 2 (5 → 3)"),
            "{t}"
        );
        // 1 → 4 (N for the computer): it takes 1 → 3.
        assert!(
            t.contains("you play 1: 5 → 4\ncomputer plays 1: 4 → 3"),
            "{t}"
        );
        assert!(
            t.contains("your move> why\nthe computer's move: took 1, leaving 3"),
            "{t}"
        );
        assert!(t.contains("took back your last move"), "{t}");
        assert!(t.contains("your move> why\nno move has been played"), "{t}");
        assert!(
            t.contains("you play 2: 5 → 3\ncomputer plays 1: 3 → 2"),
            "{t}"
        );
        assert!(t.contains("game 2: you move first"), "{t}");
        assert!(!t.contains("never read"), "{t}");
        assert!(
            t.ends_with("finished games: 0; you won 0, the computer won 0\n"),
            "{t}"
        );
    }

    #[test]
    fn undo_after_a_lost_game_and_scores() {
        // 2 is N for the person; taking 1 loses (the computer takes the last).
        let t = session(2, opts(First::Me, Level::Perfect, 0.0), "1\nundo\n2\nnew\n");
        assert!(t.contains("game over: the computer wins"), "{t}");
        assert!(t.contains("score: you 0, computer 1."), "{t}");
        assert!(
            t.contains("you play 2: 2 → 0\n  [0]\ngame over: you win"),
            "{t}"
        );
        assert!(t.contains("score: you 1, computer 0."), "{t}");
        assert!(
            t.contains("finished games: 1; you won 1, the computer won 0"),
            "{t}"
        );
    }

    #[test]
    fn the_easy_level_slips_and_says_so() {
        // Mistakes certain: from 7 the computer plays 2 (→ 5) instead of 1.
        let t = session(7, opts(First::Computer, Level::Easy, 1.0), "why\n");
        assert!(t.contains("computer plays 2: 7 → 5"), "{t}");
        assert!(t.contains("deliberate slip; the winning move was 1"), "{t}");
        // Never at the perfect level, whatever `mistakes` says.
        let t = session(7, opts(First::Computer, Level::Perfect, 1.0), "");
        assert!(t.contains("computer plays 1: 7 → 6"), "{t}");
        // With a slip rate of one half, over many seeds both happen.
        let (mut slips, mut wins) = (0, 0);
        for seed in 0..200 {
            let g = Toy::new(7);
            let o = Options {
                seed,
                ..opts(First::Computer, Level::Easy, 0.5)
            };
            match choose(&g, &o, 1).unwrap().1 {
                Choice::Slip(_) => slips += 1,
                Choice::Win => wins += 1,
                Choice::Stall => unreachable!(),
            }
        }
        assert!(slips > 70 && wins > 70, "{slips} slips, {wins} wins");
    }

    #[test]
    fn long_lines_and_bad_bytes_are_read_safely() {
        let mut input: &[u8] = b"abc\nxyz";
        assert_eq!(
            read_line_bounded(&mut input, 2).unwrap(),
            Some(b"ab".to_vec())
        );
        assert_eq!(
            read_line_bounded(&mut input, 2).unwrap(),
            Some(b"xy".to_vec())
        );
        assert_eq!(read_line_bounded(&mut input, 2).unwrap(), None);
        let long = format!("{}\n1\n", "9".repeat(100_000));
        let t = session(4, opts(First::Me, Level::Perfect, 0.0), &long);
        assert!(t.contains("cannot play"), "{}", &t[..200]);
        assert!(t.contains("you play 1: 4 → 3"), "{t}");
        let mut g = Toy::new(4);
        let mut out = Vec::new();
        Session::new(
            &mut g,
            opts(First::Me, Level::Perfect, 0.0),
            &mut out,
            false,
        )
        .run(&mut &b"\xff\xfe\n1\n"[..])
        .unwrap();
        let t = String::from_utf8(out).unwrap();
        assert!(t.contains("cannot play \"\u{fffd}\u{fffd}\""), "{t}");
        assert!(t.contains("you play 1: 4 → 3"), "{t}");
    }

    #[test]
    fn random_first_player_depends_on_seed_and_game() {
        let mut seen = [false; 2];
        for seed in 0..40 {
            let t = session(
                4,
                Options {
                    seed,
                    ..opts(First::Random, Level::Perfect, 0.0)
                },
                "",
            );
            seen[t.contains("game 1: you move first") as usize] = true;
        }
        assert_eq!(seen, [true, true]);
        // The same seed gives the same game.
        let a = session(
            8,
            opts(First::Random, Level::Perfect, 0.0),
            "1\n1\nnew\n2\n",
        );
        let b = session(
            8,
            opts(First::Random, Level::Perfect, 0.0),
            "1\n1\nnew\n2\n",
        );
        assert_eq!(a, b);
    }

    #[test]
    fn the_terminal_screen_is_redrawn_whole() {
        let mut g = Toy::new(7);
        let mut out = Vec::new();
        Session::new(
            &mut g,
            opts(First::Computer, Level::Perfect, 0.0),
            &mut out,
            true,
        )
        .run(&mut "2\n".as_bytes())
        .unwrap();
        let t = String::from_utf8(out).unwrap();
        let screens: Vec<&str> = t.split(term::CLEAR).filter(|s| !s.is_empty()).collect();
        // Two prompts, then the farewell on a clear screen.
        assert_eq!(screens.len(), 3, "{t:?}");
        assert!(
            screens[0].contains("computer plays 1: 7 → 6"),
            "{:?}",
            screens[0]
        );
        assert!(screens[0].contains("  [6]"));
        assert!(screens[0].ends_with("your move> "));
        // The second screen keeps the recent messages, once each.
        assert_eq!(screens[1].matches("computer plays 1: 7 → 6").count(), 1);
        assert!(screens[1].contains("you play 2: 6 → 4"));
        assert!(screens[1].contains("computer plays 1: 4 → 3"));
        assert!(screens[2].starts_with("finished games"));
    }
}
