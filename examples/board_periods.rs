//! Report 000's board sequences far along, with their periods:
//! `cargo run --release --example board_periods -- 10000` computes A(x, y),
//! B(x, y) for x ≤ 10 and C(x, y, z) for x, z ≤ 6, y = 1..=Y (`take: maximal`,
//! normal play) and prints a Markdown period table.
use nimlab::family::lines::sequences::{Family, ThinBoards, arithmetic_period_of, period_of};
use std::time::Instant;

fn main() {
    let y_max: u32 = std::env::args()
        .nth(1)
        .map_or(10_000, |s| s.parse().unwrap());
    let threads: usize = std::env::args().nth(2).map_or(2, |s| s.parse().unwrap());
    let mut fams: Vec<Family> = (1..=10).map(Family::A).collect();
    fams.extend((1..=10).map(Family::B));
    for x in 1..=6 {
        for z in 1..=6 {
            fams.push(Family::C(x, z));
        }
    }
    let rows = fams.iter().map(|f| f.rows()).max().unwrap();
    let length = fams
        .iter()
        .map(|&f| ThinBoards::length_for(f, y_max))
        .max()
        .unwrap();
    let t = Instant::now();
    let boards = ThinBoards::new(rows, length, threads);
    let build = t.elapsed().as_secs_f64();
    eprintln!(
        "table: rows ≤ {rows}, lines ≤ {length} pieces, {:.1} MB, built in {build:.1} s on {threads} threads",
        ThinBoards::bytes(rows, length) as f64 / 1e6
    );
    println!(
        "| sequence | y | period | periodic from y = | periods seen | evidence | one period (from the start of the periodic stretch) | max G |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for f in fams {
        let seq = boards
            .sequence(f, y_max)
            .expect("every board is in the table");
        let max = seq.iter().max().unwrap();
        match period_of(&seq) {
            Some(p) => {
                let vals: Vec<String> = seq[p.preperiod..p.preperiod + p.period]
                    .iter()
                    .map(|v| v.to_string())
                    .collect();
                let one = if p.period <= 40 {
                    vals.join(" ")
                } else {
                    format!("({} values)", p.period)
                };
                println!(
                    "| {} | 1..{y_max} | {} | {} | {} | observed on y = {}..{y_max} | {one} | {max} |",
                    f.name(),
                    p.period,
                    p.preperiod + 1,
                    p.periods_seen(),
                    p.preperiod + 1
                );
            }
            None => match arithmetic_period_of(&seq) {
                Some(ar) => println!(
                    "| {} | 1..{y_max} | none; arithmetic: G(y + {}) = G(y) + {} | {} | {} | observed on y = {}..{y_max} | {} | {max} |",
                    f.name(),
                    ar.period.period,
                    ar.saltus,
                    ar.period.preperiod + 1,
                    ar.period.periods_seen(),
                    ar.period.preperiod + 1,
                    seq[ar.period.preperiod..ar.period.preperiod + ar.period.period]
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                None => println!(
                    "| {} | 1..{y_max} | none | | | no period covering half of y = 1..{y_max} and three periods | | {max} |",
                    f.name()
                ),
            },
        }
    }
    eprintln!("total {:.1} s", t.elapsed().as_secs_f64());
}
