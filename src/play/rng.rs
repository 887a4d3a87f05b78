//! The seeded choices of a session: SplitMix64 (Steele, Lea and Flood 2014)
//! as a hash of (seed, game, position, purpose). A dozen lines, so no
//! dependency: the generator must never change under us, or recorded games
//! (`--seed`) would replay differently.

/// What a choice is for (so that the slip decision and the move picked are
/// independent draws).
#[derive(Clone, Copy, Debug)]
pub enum Purpose {
    /// Who moves first in a game (`--first random`).
    First = 1,
    /// Does the `easy` level slip here?
    Slip = 2,
    /// Which of several equally good moves.
    Pick = 3,
}

/// One SplitMix64 step.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A draw in `[0, 2^64)` for this seed, game, position key and purpose.
pub fn draw(seed: u64, game: u64, key: u64, purpose: Purpose) -> u64 {
    mix(mix(mix(seed ^ purpose as u64) ^ game) ^ key)
}

/// A uniform index below `n` (n ≥ 1).
pub fn index(seed: u64, game: u64, key: u64, purpose: Purpose, n: usize) -> usize {
    debug_assert!(n >= 1);
    // Multiply-shift: unbiased enough for n ≪ 2^32.
    (((draw(seed, game, key, purpose) >> 32) * n as u64) >> 32) as usize
}

/// True with probability `p`.
pub fn chance(seed: u64, game: u64, key: u64, purpose: Purpose, p: f64) -> bool {
    ((draw(seed, game, key, purpose) >> 11) as f64) / ((1u64 << 53) as f64) < p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_reference_values() {
        // SplitMix64 seeded with 0: the first outputs of the reference
        // implementation (state += golden gamma, then the mix).
        assert_eq!(mix(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mix(0x9E37_79B9_7F4A_7C15), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn index_is_roughly_uniform_and_in_range() {
        let mut counts = [0u32; 3];
        for key in 0..30_000u64 {
            let i = index(7, 1, key, Purpose::Pick, 3);
            counts[i] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn chance_matches_its_probability() {
        let hits = (0..30_000u64)
            .filter(|&k| chance(1, 1, k, Purpose::Slip, 0.25))
            .count();
        assert!((7_000..8_000).contains(&hits), "{hits}");
        assert!(!(0..1000u64).any(|k| chance(1, 1, k, Purpose::Slip, 0.0)));
        assert!((0..1000u64).all(|k| chance(1, 1, k, Purpose::Slip, 1.0)));
    }
}
