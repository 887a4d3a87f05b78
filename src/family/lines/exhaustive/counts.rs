//! Counting: the P-positions of a tile per piece count (while the tile is
//! in cache), and the positions per piece count (binomials).

use super::moves::MAX_PIECES;

/// Bits `i` of a word with `popcount(i) == j`, for j = 0..=6.
pub(super) const LEVELS: [u64; 7] = {
    let mut l = [0u64; 7];
    let mut i = 0;
    while i < 64 {
        l[(i as u64).count_ones() as usize] |= 1 << i;
        i += 1;
    }
    l
};

/// Adds the P-positions of `words` (word index `base..`) to `counts` by piece count.
///
/// `#[inline]`: the kernel calls it once per tile from another file; inlined
/// there as it was when both lived in one file.
#[inline]
pub(super) fn count_into(words: &[u64], base: u64, counts: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has the popcnt instruction (checked just above).
        unsafe { count_popcnt(words, base, counts) };
        return;
    }
    count_words(words, base, counts);
}

/// [`count_words`] compiled with the popcnt instruction.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
pub(super) fn count_popcnt(words: &[u64], base: u64, counts: &mut [u64]) {
    count_words(words, base, counts);
}

#[inline(always)]
pub(super) fn count_words(words: &[u64], base: u64, counts: &mut [u64]) {
    // By level first (`by_level[j][k]`): the seven adds of a word go to
    // seven separate rows, which keeps them scalar and free of store
    // forwarding stalls between words of different popcount.
    let mut by_level = [[0u64; MAX_PIECES + 1]; 7];
    for (l, &p) in words.iter().enumerate() {
        if p == 0 {
            continue;
        }
        let k = (base | l as u64).count_ones() as usize;
        for (row, lv) in by_level.iter_mut().zip(LEVELS) {
            row[k] += (p & lv).count_ones() as u64;
        }
    }
    for (j, row) in by_level.iter().enumerate() {
        for (k, &c) in row.iter().enumerate() {
            if c != 0 {
                counts[k + j] += c;
            }
        }
    }
}

/// The binomial coefficients C(n, 0..=n) (how many positions of each
/// piece count a board of `n` cells has).
pub(crate) fn binomials(n: usize) -> Vec<u64> {
    let mut row = vec![1u64];
    for _ in 0..n {
        let mut next = vec![1u64; row.len() + 1];
        for k in 1..row.len() {
            next[k] = row[k - 1] + row[k];
        }
        row = next;
    }
    row
}
