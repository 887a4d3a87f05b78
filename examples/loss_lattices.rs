//! The lattice of each two-heap loss set of a family of take-away rules, as a
//! Markdown table: `cargo run --release --example loss_lattices -- cond23 300`
//! (Cond(2,3): take m..n, no repeat, 1 ≤ m < n ≤ 20), `cond13 300` (Cond(1,3):
//! take 1..n, no repeat, n ≤ 40); add `misere` for misère play.
use nimlab::family::takeaway::planes::loss_model;
use nimlab::family::takeaway::{Rule, TakeForm};
use nimlab::game::Play;
use nimlab::lattice::{Model, Structure};
use std::time::Instant;

/// For a tile `p × p` (a = 0) of the form `b(x) = b(y) ≠ gap`: the labels of
/// the residues `0..p` (`A`, `B`, … in order of first appearance, `.` for a
/// gap), or `-` when the tile is not of that form.
fn blocks(s: &Structure) -> String {
    let l = s.lattice;
    if l.a != 0 || l.p != l.q {
        return "-".into();
    }
    let p = l.p;
    let (x0, y0) = s.corner;
    // member(r1, r2): residues r1 (x) and r2 (y).
    let member = |r1: usize, r2: usize| {
        let i = (r1 + p - x0 % p) % p;
        let j = (r2 + p - y0 % p) % p;
        s.tile[j].binary_search(&i).is_ok()
    };
    let mut label = vec![usize::MAX; p];
    let mut next = 0;
    for r in 0..p {
        if !member(r, r) || label[r] != usize::MAX {
            continue;
        }
        for (r2, l) in label.iter_mut().enumerate() {
            if member(r, r2) {
                *l = next;
            }
        }
        next += 1;
    }
    for r1 in 0..p {
        for r2 in 0..p {
            let want = label[r1] != usize::MAX && label[r1] == label[r2];
            if member(r1, r2) != want {
                return "-".into();
            }
        }
    }
    label
        .iter()
        .map(|&b| {
            if b == usize::MAX {
                '.'
            } else {
                (b'A' + (b % 26) as u8) as char
            }
        })
        .collect()
}

fn row(s: &Structure) -> String {
    let l = s.lattice_xy();
    format!(
        "{} | ({}, {}, {}) | {} | {}×{} | {} | {:.5} | {}×{} | {}",
        s.frame.as_str(),
        l.p,
        l.a,
        l.q,
        s.frame.region(s.corner),
        s.lattice.p,
        s.lattice.q,
        s.members(),
        s.density,
        s.evidence.copies.0,
        s.evidence.copies.1,
        s.strips.map_or("—".to_string(), |st| format!(
            "({}, {})",
            st.from.0, st.from.1
        )),
    ) + &format!(" | {}", blocks(s))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let family = args.first().map(String::as_str).unwrap_or("cond23");
    let n_max: usize = args.get(1).map_or(300, |s| s.parse().unwrap());
    let play = if args.iter().any(|a| a == "misere") {
        Play::Misere
    } else {
        Play::Normal
    };
    let rules: Vec<(u32, u32)> = match family {
        "cond23" => (2..=20).flat_map(|n| (1..n).map(move |m| (m, n))).collect(),
        "cond13" => (1..=40).map(|n| (1, n)).collect(),
        _ => panic!("family: cond23 or cond13"),
    };
    println!(
        "| m | n | frame | lattice (p, a, q) in (x, y) | periodic region | tile | members | density | tiles in box | strips from | blocks (residues mod p) | status | s |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (m, n) in rules {
        let rule = Rule {
            take: TakeForm::Range(m, n),
            play,
            no_repeat: true,
        };
        let t = Instant::now();
        let model = loss_model(&rule, n_max);
        let secs = t.elapsed().as_secs_f64();
        match model {
            Some(Model::Quadrant(s)) => println!(
                "| {m} | {n} | {} | {} | {secs:.2} |",
                row(&s),
                s.status.as_str()
            ),
            Some(Model::Sectors { below, above }) => {
                println!(
                    "| {m} | {n} | {} | {} | {secs:.2} |",
                    row(&below),
                    below.status.as_str()
                );
                println!("| | | {} | {} | |", row(&above), above.status.as_str());
            }
            None => println!("| {m} | {n} | none | | | | | | | | | | {secs:.2} |"),
        }
    }
}
