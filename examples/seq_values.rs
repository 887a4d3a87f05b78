//! Prints the Grundy values of one board sequence: `cargo run --release
//! --example seq_values -- C 2 2 1000` (C(2,y,2), y = 1..=1000), `A 5 0 400`, `B 6 0 400`.
use nimlab::family::lines::chords::sequences::{Family, ThinBoards};
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let (x, z, y): (u32, u32, u32) = (
        a[1].parse().unwrap(),
        a[2].parse().unwrap(),
        a[3].parse().unwrap(),
    );
    let f = match a[0].as_str() {
        "A" => Family::A(x),
        "B" => Family::B(x),
        _ => Family::C(x, z),
    };
    let t = ThinBoards::new(f.rows(), ThinBoards::length_for(f, y), 2);
    for (i, g) in t.sequence(f, y).unwrap().iter().enumerate() {
        println!("{} {g}", i + 1);
    }
}
