//! Why a stored parity state has its winner, for a counterexample: every
//! take from the state, the state it leaves and who wins from there (one pass
//! of the fast solver up to the row's pile).

use super::solver::{Mover, Solution, Variant, slot, table};
use crate::data::Table;
use crate::family::explain_moves::{MoveAccount, group};

/// Options shown at most.
const SHOWN: usize = 12;

/// Piles explained at most (one solver pass of this length per explanation).
const MAX_PILE: i64 = 1 << 22;

/// The takes of a `take` column: `max:3` or `set:1,3,4`.
pub fn takes_of(s: &str) -> Option<Vec<u32>> {
    if let Some(k) = s.strip_prefix("max:") {
        let k: u32 = k.parse().ok()?;
        return (k >= 1).then(|| (1..=k).collect());
    }
    let set: Vec<u32> = s
        .strip_prefix("set:")?
        .split(',')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    (set.first() == Some(&1) && set.windows(2).all(|w| w[0] < w[1])).then_some(set)
}

/// One state: the two hands' parities, the pile and who moves. In `sides`
/// `a` is Odd's hand and `odd_to_move` says who moves; in `odd_wins` `a` is
/// the mover's hand and `b` the other's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Odd's hand parity (`sides`) or the mover's (`odd_wins`).
    pub a: u8,
    /// Even's hand parity (`sides`) or the other player's (`odd_wins`).
    pub b: u8,
    /// Stones left in the pile.
    pub r: usize,
    /// `sides`: Odd is to move (unused in `odd_wins`).
    pub odd_to_move: bool,
}

/// Whether the player to move wins from `s`, read from the solver's bytes.
pub fn mover_wins(variant: Variant, bits: &[u8], s: State) -> bool {
    let i = 2 * s.a + s.b;
    match variant {
        Variant::Sides => {
            let odd_wins = if s.odd_to_move {
                bits[s.r] >> (4 + i) & 1 == 1
            } else {
                bits[s.r] >> i & 1 == 1
            };
            odd_wins == s.odd_to_move
        }
        Variant::OddWins => bits[s.r] >> i & 1 == 1,
    }
}

/// The state a take `t` leaves (the taker's hand flips when `t` is odd).
pub fn after(variant: Variant, s: State, t: u32) -> State {
    let flip = (t % 2) as u8;
    let r = s.r - t as usize;
    match variant {
        Variant::Sides if s.odd_to_move => State {
            a: s.a ^ flip,
            b: s.b,
            r,
            odd_to_move: false,
        },
        Variant::Sides => State {
            a: s.a,
            b: s.b ^ flip,
            r,
            odd_to_move: true,
        },
        // The other player moves next: their hand becomes the mover's.
        Variant::OddWins => State {
            a: s.b,
            b: s.a ^ flip,
            r,
            odd_to_move: s.odd_to_move,
        },
    }
}

/// Every take from `s` with whether it wins for the player who makes it.
pub fn options(variant: Variant, takes: &[u32], s: State) -> Vec<(u32, State, bool)> {
    let bits = table(variant, takes, s.r + 1);
    takes
        .iter()
        .filter(|&&t| t as usize <= s.r)
        .map(|&t| {
            let next = after(variant, s, t);
            (t, next, !mover_wins(variant, &bits, next))
        })
        .collect()
}

/// `outcome` rows: "Odd to move at (0,1,7) (takes 1..2): take 1 → (1,1,6), Even to move,
/// Even wins; take 2 → … ; no take wins: every take leaves a state the opponent wins".
pub fn explain(dataset: &str, t: &Table, row: usize) -> Option<String> {
    if !matches!(dataset, "outcome" | "remoteness") {
        return None;
    }
    let (variant, takes, s) = state_of(t, row)?;
    match dataset {
        "remoteness" => lengths(variant, &takes, s),
        _ => Some(describe(variant, &takes, s)),
    }
}

/// A row's variant, takes and state (its hands by their parity).
fn state_of(t: &Table, row: usize) -> Option<(Variant, Vec<u32>, State)> {
    let variant = Variant::parse(t.text("variant", row)?)?;
    let takes = takes_of(t.text("take", row)?)?;
    let r = t.int("r", row)?;
    if !(0..=MAX_PILE).contains(&r) {
        return None;
    }
    let s = State {
        a: u8::try_from(t.int("a_parity", row)?)
            .ok()
            .filter(|&x| x < 2)?,
        b: u8::try_from(t.int("b_parity", row)?)
            .ok()
            .filter(|&x| x < 2)?,
        r: r as usize,
        odd_to_move: t.text("mover", row)? != "even",
    };
    Some((variant, takes, s))
}

/// `(1,1,4), Even to move` or `(1,1,4) for the other player`.
fn state_text(variant: Variant, n: &State) -> String {
    match variant {
        Variant::Sides => format!("({},{},{}), {} to move", n.a, n.b, n.r, who(variant, *n)),
        Variant::OddWins => format!("({},{},{}) for the other player", n.a, n.b, n.r),
    }
}

/// An `outcome` row's state by its takes: each take and the state it
/// leaves, grouped into takes that win for the taker and takes that leave
/// the opponent a win, and who wins.
pub fn first_moves(dataset: &str, t: &Table, row: usize) -> Option<MoveAccount> {
    if dataset != "outcome" {
        return None;
    }
    let (variant, takes, s) = state_of(t, row)?;
    let opts = options(variant, &takes, s);
    let here = format!("{} to move at ({},{},{})", who(variant, s), s.a, s.b, s.r);
    if opts.is_empty() {
        return Some(MoveAccount {
            position: here,
            groups: Vec::new(),
            conclusion: describe(variant, &takes, s),
        });
    }
    let moves = opts
        .iter()
        .map(|(tk, n, wins)| {
            let m = format!("taking {tk} leaves {}", state_text(variant, n));
            let to = if *wins {
                "a state the opponent loses"
            } else {
                "a state the opponent wins"
            };
            (m, to.to_string(), u8::from(!wins))
        })
        .collect();
    let conclusion = match opts.iter().find(|o| o.2) {
        Some((tk, n, _)) => format!(
            "{here} wins: taking {tk} leaves {}, which the opponent loses",
            state_text(variant, n)
        ),
        None => format!("every take leaves a state the opponent wins: {here} loses"),
    };
    Some(MoveAccount {
        position: here,
        groups: group(moves),
        conclusion,
    })
}

/// How long the game lasts after each take from `s` (Smith's remoteness of
/// the state it leaves, plus the take): "the player to move at (1,0,4)
/// loses whatever they take: taking 1 ends the game in 2 moves, taking 2 in
/// 3 moves, taking 3 in 2 moves; the longest is taking 2".
pub fn lengths(variant: Variant, takes: &[u32], s: State) -> Option<String> {
    let sol = Solution::solve(variant, takes, s.r + 1, &|_| {});
    let rem = sol.remoteness(s.r + 1)?;
    let opts = options(variant, takes, s);
    let here = format!("{} to move at ({},{},{})", who(variant, s), s.a, s.b, s.r);
    if opts.is_empty() {
        return Some(format!("{here}: the pile is empty, the game is over"));
    }
    let moves = |n: &State| {
        let m = if variant == Variant::Sides && !n.odd_to_move {
            Mover::B
        } else {
            Mover::A
        };
        1 + rem[n.r][slot(n.a, n.b, m)]
    };
    let wins = opts.iter().any(|o| o.2);
    // The winner takes a winning take that ends the game soonest; the loser
    // any take that ends it latest.
    let counted: Vec<(u32, u32)> = opts
        .iter()
        .filter(|o| o.2 == wins)
        .map(|(t, n, _)| (*t, moves(n)))
        .collect();
    let best = match wins {
        true => counted.iter().map(|x| x.1).min()?,
        false => counted.iter().map(|x| x.1).max()?,
    };
    let mut items: Vec<String> = counted
        .iter()
        .take(SHOWN)
        .map(|(t, n)| format!("taking {t} ends the game in {n} moves"))
        .collect();
    if counted.len() > SHOWN {
        items.push(format!("… {} more", counted.len() - SHOWN));
    }
    let chosen: Vec<String> = counted
        .iter()
        .filter(|x| x.1 == best)
        .map(|x| x.0.to_string())
        .collect();
    let (state, end) = match wins {
        true => ("wins", "the quickest win"),
        false => ("loses whatever they take", "the longest delay"),
    };
    Some(format!(
        "{here} {state}: {}; {end} is taking {}",
        items.join(", "),
        chosen.join(" or ")
    ))
}

fn who(variant: Variant, s: State) -> &'static str {
    match variant {
        Variant::Sides if s.odd_to_move => "Odd",
        Variant::Sides => "Even",
        Variant::OddWins => "the player",
    }
}

/// The explanation of one state.
pub fn describe(variant: Variant, takes: &[u32], s: State) -> String {
    let opts = options(variant, takes, s);
    let here = format!("{} to move at ({},{},{})", who(variant, s), s.a, s.b, s.r);
    if opts.is_empty() {
        let bits = table(variant, takes, s.r + 1);
        let won = mover_wins(variant, &bits, s);
        return format!(
            "{here}: the pile is empty; the hands decide: {} wins",
            if won {
                "the player to move"
            } else {
                "the other player"
            }
        );
    }
    let item = |(t, n, wins): &(u32, State, bool)| {
        let next = match variant {
            Variant::Sides => format!("({},{},{}), {} to move", n.a, n.b, n.r, who(variant, *n)),
            Variant::OddWins => format!("({},{},{}) for the other player", n.a, n.b, n.r),
        };
        let verdict = if *wins {
            "the taker wins"
        } else {
            "the opponent wins"
        };
        format!("take {t} → {next}: {verdict}")
    };
    let mut shown: Vec<String> = opts.iter().take(SHOWN).map(item).collect();
    if opts.len() > SHOWN {
        shown.push(format!("… {} more", opts.len() - SHOWN));
    }
    let wins: Vec<String> = opts
        .iter()
        .filter(|o| o.2)
        .map(|o| o.0.to_string())
        .collect();
    let end = if wins.is_empty() {
        "no take wins: every take leaves a state the opponent wins".to_string()
    } else {
        format!("winning takes: {}", wins.join(", "))
    };
    format!("{here}: {}; {end}", shown.join("; "))
}

/// Stones drawn in the pile at most (a larger pile is written as a number).
const DRAWN_STONES: i64 = 40;

/// The holders of the two hands and the player to move, as the report
/// names them: Odd and Even (`sides`), the player to move and the other
/// (`odd_wins` outcome rows), A and B (`odd_wins` positions).
fn holders(variant: Variant, mover: &str) -> ([&'static str; 2], &'static str) {
    match (variant, mover) {
        (Variant::Sides, "even") => (["Odd", "Even"], "Even"),
        (Variant::Sides, _) => (["Odd", "Even"], "Odd"),
        (Variant::OddWins, "a") => (["A", "B"], "A"),
        (Variant::OddWins, "b") => (["A", "B"], "B"),
        (Variant::OddWins, _) => (["the mover", "the other player"], "the mover"),
    }
}

/// An `outcome` or `positions` row's state as a picture: the pile and the
/// two hands in stones (an `outcome` row's hands by their parity, one stone
/// or none, as the report reduces them: (3,0,9) ≡ (1,0,9)), who moves and
/// the takes.
pub fn draw(dataset: &str, t: &Table, row: usize) -> Option<String> {
    let (a, b) = match dataset {
        "outcome" | "remoteness" => (t.int("a_parity", row)?, t.int("b_parity", row)?),
        "positions" => (t.int("a", row)?, t.int("b", row)?),
        _ => return None,
    };
    let r = t.int("r", row)?;
    let variant = Variant::parse(t.text("variant", row)?)?;
    let takes = takes_of(t.text("take", row)?)?;
    let ([ha, hb], to_move) = holders(variant, t.text("mover", row)?);
    let stones = |n: i64| match n {
        0..=DRAWN_STONES => "●".repeat(n as usize),
        _ => String::new(),
    };
    let parity = |n: i64| if n % 2 == 1 { "odd" } else { "even" };
    let width = [r, a, b].iter().map(|&n| n.min(DRAWN_STONES)).max()? as usize;
    let line = |name: &str, n: i64, note: &str| {
        let s = stones(n);
        format!("  {name:<18}{n:>3}  {s:<width$}  {note}")
            .trim_end()
            .to_string()
            + "\n"
    };
    let mut s = line("pile", r, "");
    s += &line(&format!("{ha}'s hand"), a, parity(a));
    s += &line(&format!("{hb}'s hand"), b, parity(b));
    let rule = crate::family::parity::TakeSet(takes).human();
    s += &format!(
        "  {} to move; a move takes {rule} from the pile\n",
        capital(to_move)
    );
    Some(s)
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The state as the report writes it, `(0,1,5)` (Odd's hand, Even's hand,
/// the pile; in `odd_wins` outcome rows the mover's hand first), with who
/// moves and the takes: `(0,1,5), Odd to move, take 1..2`.
pub fn position_name(dataset: &str, key: &[(String, String)]) -> Option<String> {
    let val = |c: &str| {
        key.iter()
            .find(|(k, _)| k == c)
            .map(|(_, v)| v.trim_matches('"'))
    };
    let (a, b) = match dataset {
        "outcome" | "remoteness" => (val("a_parity")?, val("b_parity")?),
        "positions" => (val("a")?, val("b")?),
        _ => return None,
    };
    let variant = Variant::parse(val("variant")?)?;
    let rule = crate::family::parity::TakeSet(takes_of(val("take")?)?).human();
    let (_, to_move) = holders(variant, val("mover")?);
    let who = match to_move {
        "the mover" => "the player to move's hand first".to_string(),
        m => format!("{m} to move"),
    };
    Some(format!("({a},{b},{}), {who}, take {rule}", val("r")?))
}
