//! Searching the splits of a heap for one value, by vectors: the smaller
//! parts `a` ascend in `G` and the larger parts `r − a` in a reversed copy
//! (`back[n_max − a] = G(a)`), so 16 to 64 splits are compared a step
//! without reordering lanes (the adaptive kernel's and the sparse kernel's
//! search for a value that no split with a rare part reaches).

/// Splits of one take looked at before the next take's.
const BLOCK: usize = 1024;

/// The copy of `g` backwards for values up to `n_max`: `back[n_max − a] =
/// g[a]` (the values still to come are 0 until set).
pub(super) fn reversed(g: &[u16], n_max: usize) -> Vec<u16> {
    let mut back = vec![0u16; n_max + 1];
    for (a, &v) in g.iter().enumerate().take(n_max + 1) {
        back[n_max - a] = v;
    }
    back
}

/// The largest smaller part of a split of `r` (the parts unequal or not).
#[inline]
pub(super) fn last_part(r: usize, unequal: bool) -> usize {
    if unequal { (r - 1) / 2 } else { r / 2 }
}

/// The smallest part `a` of a split of `n`, by a take of one of the
/// parities `parities` (bit `d` for parity `d`), with the value `v` and
/// both parts below `old` (`old = n`: every split): every take's splits
/// are searched a block at a time.
#[inline]
pub(super) fn search(
    (g, back): (&[u16], &[u16]),
    takes: &[(usize, bool)],
    parities: u8,
    (n, old): (usize, usize),
    v: u16,
    from: usize,
) -> Option<usize> {
    let mut lo = from.max(1);
    loop {
        let (mut more, mut best) = (false, None);
        for &(i, unequal) in takes {
            if parities & (1 << (i % 2)) == 0 || n < i + 2 {
                continue;
            }
            let r = n - i;
            let top = last_part(r, unequal);
            more |= lo <= top;
            // A part smaller than the best found so far; the larger part
            // `r − a` below `old` ([`super::blocks`]).
            let hi = top.min(lo + BLOCK - 1).min(best.unwrap_or(usize::MAX) - 1);
            let start = lo.max((r + 1).saturating_sub(old));
            if start <= hi {
                // `G(r − a) = back[at + a]`.
                let at = back.len() - 1 - r;
                best = find(g, &back[at..], start, hi, v).or(best);
            }
        }
        if best.is_some() || !more {
            return best;
        }
        lo += BLOCK;
    }
}

/// The first `a` in `lo..=hi` with `g[a] ⊕ h[a] = v`.
#[inline]
fn find(g: &[u16], h: &[u16], lo: usize, hi: usize, v: u16) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512bw") {
            // SAFETY: the CPU has AVX-512 BW, checked just above.
            return unsafe { find_avx512(g, h, lo, hi, v) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { find_avx2(g, h, lo, hi, v) };
        }
    }
    find_lanes(g, h, lo, hi, v)
}

/// [`find`] in 512-bit vectors: 64 splits a step compared into a bit mask
/// whose lowest bit is the answer, the last fewer than 64 by masked loads
/// (no split looked at one by one).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512bw")]
fn find_avx512(g: &[u16], h: &[u16], lo: usize, hi: usize, v: u16) -> Option<usize> {
    use std::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi16_mask, _mm512_loadu_si512, _mm512_mask_cmpeq_epi16_mask,
        _mm512_maskz_loadu_epi16, _mm512_set1_epi16, _mm512_xor_si512,
    };
    let (g, h) = (&g[..=hi], &h[..=hi]);
    let want = _mm512_set1_epi16(v as i16);
    let mut a = lo;
    while a + 64 <= g.len() {
        // SAFETY: `a + 64 ≤ g.len() = h.len()`: the 64 values read from
        // each slice are inside it.
        let [x0, y0, x1, y1] = unsafe {
            let (p, q) = (g.as_ptr().add(a), h.as_ptr().add(a));
            [p, q, p.add(32), q.add(32)].map(|r| _mm512_loadu_si512(r.cast::<__m512i>()))
        };
        let low = _mm512_cmpeq_epi16_mask(_mm512_xor_si512(x0, y0), want);
        let high = _mm512_cmpeq_epi16_mask(_mm512_xor_si512(x1, y1), want);
        let hit = u64::from(low) | (u64::from(high) << 32);
        if hit != 0 {
            return Some(a + hit.trailing_zeros() as usize);
        }
        a += 64;
    }
    while a < g.len() {
        let left = g.len() - a;
        let k = if left >= 32 {
            u32::MAX
        } else {
            (1 << left) - 1
        };
        // SAFETY: the lanes loaded (those set in `k`) are `a..a + min(32,
        // left)`, inside both slices; masked-off lanes are not read.
        let (x, y) = unsafe {
            let (p, q) = (g.as_ptr().add(a), h.as_ptr().add(a));
            (
                _mm512_maskz_loadu_epi16(k, p.cast::<i16>()),
                _mm512_maskz_loadu_epi16(k, q.cast::<i16>()),
            )
        };
        let hit = _mm512_mask_cmpeq_epi16_mask(k, _mm512_xor_si512(x, y), want);
        if hit != 0 {
            return Some(a + hit.trailing_zeros() as usize);
        }
        a += 32;
    }
    None
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn find_avx2(g: &[u16], h: &[u16], lo: usize, hi: usize, v: u16) -> Option<usize> {
    find_lanes(g, h, lo, hi, v)
}

/// [`find`], 64 then 16 values a step (which the compiler turns into
/// vector instructions), the last few one by one.
#[inline(always)]
fn find_lanes(g: &[u16], h: &[u16], lo: usize, hi: usize, v: u16) -> Option<usize> {
    let (g, h) = (&g[..=hi], &h[..=hi]);
    let mut a = lo;
    while a + 64 <= hi + 1 && !any_equal::<64>(&g[a..], &h[a..], v) {
        a += 64;
    }
    while a + 16 <= hi + 1 && !any_equal::<16>(&g[a..], &h[a..], v) {
        a += 16;
    }
    (a..=hi).find(|&b| g[b] ^ h[b] == v)
}

/// Is `x[j] ⊕ y[j] = v` for some `j < L`?
#[inline(always)]
fn any_equal<const L: usize>(x: &[u16], y: &[u16], v: u16) -> bool {
    let (x, y) = (&x[..L], &y[..L]);
    x.iter()
        .zip(y)
        .fold(false, |hit, (&x, &y)| hit | (x ^ y == v))
}

#[cfg(test)]
mod tests {
    use super::{find, find_lanes};

    /// The vector search (AVX-512, AVX2 where the CPU has them, and
    /// without) finds the first equal split one by one would, at every
    /// start, end and lane offset.
    #[test]
    fn the_vector_search_finds_the_first_split_one_by_one_finds() {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 8) as u16
        };
        let g: Vec<u16> = (0..300).map(|_| next()).collect();
        let h: Vec<u16> = (0..300).map(|_| next()).collect();
        for lo in 0..70 {
            for hi in (lo..300).step_by(7) {
                for v in 0..9 {
                    let want = (lo..=hi).find(|&a| g[a] ^ h[a] == v);
                    assert_eq!(find(&g, &h, lo, hi, v), want, "{lo}..={hi} {v}");
                    assert_eq!(find_lanes(&g, &h, lo, hi, v), want, "{lo}..={hi} {v}");
                    #[cfg(target_arch = "x86_64")]
                    {
                        if std::is_x86_feature_detected!("avx512bw") {
                            // SAFETY: the CPU has AVX-512 BW.
                            let got = unsafe { super::find_avx512(&g, &h, lo, hi, v) };
                            assert_eq!(got, want, "avx512 {lo}..={hi} {v}");
                        }
                        if std::is_x86_feature_detected!("avx2") {
                            // SAFETY: the CPU has AVX2.
                            let got = unsafe { super::find_avx2(&g, &h, lo, hi, v) };
                            assert_eq!(got, want, "avx2 {lo}..={hi} {v}");
                        }
                    }
                }
            }
        }
    }
}
