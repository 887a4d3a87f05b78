//! Parquet's encodings of levels and values that [`super::runs`] writes,
//! as the format specifies them (`Encodings.md` of parquet-format): the
//! RLE/bit-packing hybrid (levels, dictionary keys), and
//! DELTA_BINARY_PACKED (integers), each fed whole runs or slices.

/// Bits needed for values up to `max`.
pub(super) fn bit_width(max: u64) -> u8 {
    (64 - max.leading_zeros()) as u8
}

/// Appends `v` as an unsigned LEB128 varint.
pub(super) fn uleb128(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Appends a miniblock of 32 values below `2^width`, `width` bits each,
/// least significant bit first: `4 * width` bytes.
fn pack_mini(out: &mut Vec<u8>, values: &[u64; 32], width: u8) {
    let start = out.len();
    out.resize(start + 4 * width as usize, 0);
    let buf = &mut out[start..];
    // The common widths with constant shifts (unrolled), the others alike.
    macro_rules! widths {
        ($($w:literal)*) => {
            match width {
                0 => {}
                $($w => pack::<$w>(buf, values),)*
                _ => pack_any(buf, values, width as u32),
            }
        };
    }
    widths!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
}

/// [`pack_mini`] for a width known at compile time: each group of 8 values
/// is `W` bytes, assembled in one register (shifts constant, no branch).
#[inline(always)]
fn pack<const W: u32>(buf: &mut [u8], values: &[u64; 32]) {
    for (g, out) in values.chunks_exact(8).zip(buf.chunks_exact_mut(W as usize)) {
        if W <= 8 {
            let x = (0..8).fold(0u64, |a, i| a | g[i] << (i as u32 * W));
            out.copy_from_slice(&x.to_le_bytes()[..W as usize]);
        } else {
            let x = (0..8).fold(0u128, |a, i| a | (g[i] as u128) << (i as u32 * W));
            out.copy_from_slice(&x.to_le_bytes()[..W as usize]);
        }
    }
}

/// [`pack_mini`]'s packing into `buf` (`4 * w` bytes), `0 < w ≤ 64`.
#[inline(always)]
fn pack_any(buf: &mut [u8], values: &[u64; 32], w: u32) {
    let (mut acc, mut bits, mut at) = (0u64, 0u32, 0);
    for &x in values {
        acc |= x << bits;
        bits += w;
        if bits >= 64 {
            buf[at..at + 8].copy_from_slice(&acc.to_le_bytes());
            at += 8;
            bits -= 64;
            // The bits of x that did not fit (none when it ended the word).
            acc = if bits > 0 { x >> (w - bits) } else { 0 };
        }
    }
    // 32 · w bits: what is left is 0 or 32 bits.
    let rest = (bits / 8) as usize;
    buf[at..at + rest].copy_from_slice(&acc.to_le_bytes()[..rest]);
}

/// The RLE/bit-packing hybrid, fed runs: equal runs are merged, a run of 8
/// or more is one RLE header and value, shorter runs become bit-packed
/// groups of 8. Literal groups are packed as soon as they are complete, so a
/// run costs a few operations whatever its length.
#[derive(Clone)]
pub(super) struct Hybrid {
    width: u8,
    out: Vec<u8>,
    /// Complete literal groups, packed, not yet given their header.
    packed: Vec<u8>,
    /// The values of the literal group being filled (widths above 8).
    group: [u32; 8],
    /// The literal group being filled, packed (widths up to 8).
    acc: u64,
    filled: usize,
    /// Complete literal groups not yet given their header.
    groups: usize,
    pending: (u32, usize),
}

impl Hybrid {
    /// Bit-packed groups per header (as the `parquet` crate writes: one header byte).
    const MAX_GROUPS: usize = 63;

    /// An empty stream of `width`-bit values.
    pub fn new(width: u8) -> Hybrid {
        Hybrid {
            width,
            out: Vec::new(),
            packed: Vec::new(),
            group: [0; 8],
            acc: 0,
            filled: 0,
            groups: 0,
            pending: (0, 0),
        }
    }
    /// Appends `n` copies of `v`.
    #[inline]
    pub fn run(&mut self, v: u32, n: usize) {
        if v == self.pending.0 {
            self.pending.1 += n;
        } else {
            self.emit();
            self.pending = (v, n);
        }
    }
    /// Appends `n < 8 - filled` copies of `v` to the group being filled,
    /// packing it when complete.
    #[inline]
    fn fill(&mut self, v: u32, n: usize) {
        if self.width <= 8 {
            // The group's values packed as they come: `n` copies of `v` at
            // once (no carry between fields, as `v < 2^width`).
            let w = self.width as u32;
            self.acc |= (v as u64 * COPIES[w as usize][n]) << (self.filled as u32 * w);
            self.filled += n;
            if self.filled == 8 {
                self.packed
                    .extend_from_slice(&self.acc.to_le_bytes()[..w as usize]);
                (self.acc, self.filled) = (0, 0);
                self.groups += 1;
            }
            return;
        }
        self.group[self.filled..self.filled + n].fill(v);
        self.filled += n;
        if self.filled == 8 {
            let bytes = group_bytes(&self.group, self.width);
            self.packed.extend_from_slice(&bytes[..self.width as usize]);
            self.filled = 0;
            self.groups += 1;
        }
    }
    fn emit(&mut self) {
        let (v, mut n) = std::mem::take(&mut self.pending);
        if n == 0 {
            return;
        }
        if self.filled > 0 {
            // A bit-packed run holds whole groups of 8: complete the group first.
            let k = (8 - self.filled).min(n);
            self.fill(v, k);
            n -= k;
        }
        if n >= 8 {
            self.flush_literals();
            uleb128(&mut self.out, (n as u64) << 1);
            let bytes = (self.width as usize).div_ceil(8);
            self.out.extend_from_slice(&v.to_le_bytes()[..bytes]);
        } else if n > 0 {
            self.fill(v, n);
        }
    }
    /// The encoded stream (the last group padded with zeros).
    pub fn finish(mut self) -> Vec<u8> {
        self.emit();
        if self.filled > 0 {
            self.fill(0, 8 - self.filled);
        }
        self.flush_literals();
        self.out
    }
    fn flush_literals(&mut self) {
        debug_assert_eq!(self.filled, 0);
        let w = self.width as usize;
        let mut at = 0;
        let mut left = std::mem::take(&mut self.groups);
        while left > 0 {
            let g = left.min(Self::MAX_GROUPS);
            uleb128(&mut self.out, (g as u64) << 1 | 1);
            self.out.extend_from_slice(&self.packed[at..at + g * w]);
            (at, left) = (at + g * w, left - g);
        }
        self.packed.clear();
    }
}

/// `COPIES[w][n]`: a one in each of the first `n` fields of `w` bits
/// (`n ≤ 8`, `w ≤ 8`), so that `v * COPIES[w][n]` is `n` copies of `v`.
const COPIES: [[u64; 9]; 9] = {
    let mut t = [[0u64; 9]; 9];
    let mut w = 0;
    while w <= 8 {
        let mut n = 1;
        while n <= 8 {
            t[w][n] = t[w][n - 1] | 1 << ((n - 1) * w);
            n += 1;
        }
        w += 1;
    }
    t
};

/// Eight values of `width ≤ 32` bits packed, least significant bit first:
/// the first `width` bytes of the result.
#[inline]
fn group_bytes(group: &[u32; 8], width: u8) -> [u8; 32] {
    let mut out = [0u8; 32];
    if width <= 8 {
        let w = width as u32;
        let x = group
            .iter()
            .enumerate()
            .fold(0u64, |acc, (i, &v)| acc | (v as u64) << (i as u32 * w));
        out[..8].copy_from_slice(&x.to_le_bytes());
    } else {
        let (mut acc, mut bits, mut at) = (0u128, 0u32, 0);
        for &v in group {
            acc |= (v as u128) << bits;
            bits += width as u32;
            while bits >= 64 {
                out[at..at + 8].copy_from_slice(&(acc as u64).to_le_bytes());
                (acc, bits, at) = (acc >> 64, bits - 64, at + 8);
            }
        }
        if at < 32 {
            out[at..at + 8].copy_from_slice(&(acc as u64).to_le_bytes());
        }
    }
    out
}

/// DELTA_BINARY_PACKED integers, in the `parquet` crate's layout: blocks of
/// 128 values in 4 miniblocks of 32; also their minimum and maximum. Whole
/// blocks are encoded straight from the slices fed, a block at a time (its
/// deltas, minimum and widths computed over the block while it is in cache).
pub(super) struct Delta {
    blocks: Vec<u8>,
    first: i64,
    last: i64,
    count: usize,
    /// The deltas of the block being filled: the first `filled`.
    deltas: Box<[i64; Self::BLOCK]>,
    filled: usize,
    /// Smallest and largest value, if any.
    pub range: Option<(i64, i64)>,
}

impl Delta {
    const BLOCK: usize = 128;
    const MINI: usize = 32;
    /// Room for the header (four varints, two of them up to 10 bytes).
    const HEAD: usize = 24;

    /// No values yet.
    pub fn new() -> Delta {
        Delta {
            blocks: vec![0; Self::HEAD],
            first: 0,
            last: 0,
            count: 0,
            deltas: Box::new([0; Self::BLOCK]),
            filled: 0,
            range: None,
        }
    }
    /// Appends `values`.
    pub fn extend(&mut self, values: &[i64]) {
        let Some(&head) = values.first() else {
            return;
        };
        let (lo, hi) = min_max(values);
        self.range = Some(self.range.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        let mut rest = values;
        if self.count == 0 {
            (self.first, self.last, self.count) = (head, head, 1);
            rest = &values[1..];
        }
        self.count += rest.len();
        while !rest.is_empty() {
            let k = (Self::BLOCK - self.filled).min(rest.len());
            let at = self.filled;
            deltas(&mut self.deltas[at..at + k], self.last, &rest[..k]);
            (self.last, self.filled, rest) = (rest[k - 1], at + k, &rest[k..]);
            if self.filled == Self::BLOCK {
                encode_block(&mut self.blocks, &self.deltas[..]);
                self.filled = 0;
            }
        }
    }
    /// Appends `n` copies of `v`.
    pub fn extend_same(&mut self, v: i64, mut n: usize) {
        let copies = [v; Self::BLOCK];
        while n > 0 {
            let k = n.min(Self::BLOCK);
            self.extend(&copies[..k]);
            n -= k;
        }
    }
    /// Appends `a, a + 1, …, a + n - 1`: deltas of one written straight
    /// into the block (no values read).
    /// (The reference for [`Delta::extend_counting_rows`] in tests.)
    #[cfg(test)]
    pub fn extend_counting(&mut self, a: i64, n: usize) {
        if n == 0 {
            return;
        }
        let hi = a.wrapping_add(n as i64 - 1);
        self.range = Some(self.range.map_or((a, hi), |(x, y)| (x.min(a), y.max(hi))));
        let mut left = n;
        // The delta from the previous value, unless `a` is the first value.
        let mut jump = Some(a.wrapping_sub(self.last));
        if self.count == 0 {
            (self.first, self.count, jump, left) = (a, 1, None, n - 1);
        }
        self.count += left;
        while left > 0 {
            let k = (Self::BLOCK - self.filled).min(left);
            let block = &mut self.deltas[self.filled..self.filled + k];
            block.fill(1);
            if let Some(j) = jump.take() {
                block[0] = j;
            }
            (self.filled, left) = (self.filled + k, left - k);
            if self.filled == Self::BLOCK {
                encode_block(&mut self.blocks, &self.deltas[..]);
                self.filled = 0;
            }
        }
        self.last = hi;
    }
    /// Appends rows of values counting up by one: row `i` holds
    /// `firsts[i], firsts[i] + 1, …` (`offsets[i + 1] - offsets[i]` values).
    /// The same values as [`Delta::extend_counting`] row by row, with the
    /// block's deltas set to one a block at a time and each row writing
    /// only its jump.
    pub fn extend_counting_rows(&mut self, firsts: &[i64], offsets: &[usize]) {
        self.deltas[self.filled..].fill(1);
        for (w, &a) in offsets.windows(2).zip(firsts) {
            let k = w[1] - w[0];
            if k == 0 {
                continue;
            }
            let hi = a.wrapping_add(k as i64 - 1);
            self.range = Some(self.range.map_or((a, hi), |(x, y)| (x.min(a), y.max(hi))));
            let mut ones = k - 1;
            if self.count == 0 {
                (self.first, self.count) = (a, 1);
            } else {
                self.deltas[self.filled] = a.wrapping_sub(self.last);
                self.count += 1;
                self.filled += 1;
                self.block_done();
            }
            self.count += ones;
            while ones > 0 {
                let s = (Self::BLOCK - self.filled).min(ones);
                (self.filled, ones) = (self.filled + s, ones - s);
                self.block_done();
            }
            self.last = hi;
        }
    }
    /// Encodes the block when it is full, its deltas set to one again.
    #[inline]
    fn block_done(&mut self) {
        if self.filled == Self::BLOCK {
            encode_block(&mut self.blocks, &self.deltas[..]);
            self.deltas.fill(1);
            self.filled = 0;
        }
    }
    /// The encoded values: header, then the blocks.
    #[cfg(test)]
    pub fn finish(self) -> Vec<u8> {
        let (out, at) = self.finish_in_place();
        out[at..].to_vec()
    }
    /// The encoded values, from byte `.1` of `.0` on: the header is
    /// written in the room left before the blocks (no copy of them).
    pub fn finish_in_place(mut self) -> (Vec<u8>, usize) {
        if self.filled > 0 {
            encode_block(&mut self.blocks, &self.deltas[..self.filled]);
        }
        let mut head = Vec::with_capacity(Self::HEAD);
        uleb128(&mut head, Self::BLOCK as u64);
        uleb128(&mut head, (Self::BLOCK / Self::MINI) as u64);
        uleb128(&mut head, self.count as u64);
        uleb128(&mut head, zigzag(self.first));
        let at = Self::HEAD - head.len();
        self.blocks[at..Self::HEAD].copy_from_slice(&head);
        (self.blocks, at)
    }
}

/// The smallest and largest of `values` (not empty), with independent
/// accumulators per lane so the comparisons overlap.
fn min_max(values: &[i64]) -> (i64, i64) {
    let (mut lo, mut hi) = ([values[0]; 4], [values[0]; 4]);
    let chunks = values.chunks_exact(4);
    for c in chunks.clone() {
        for j in 0..4 {
            lo[j] = lo[j].min(c[j]);
            hi[j] = hi[j].max(c[j]);
        }
    }
    for &x in chunks.remainder() {
        (lo[0], hi[0]) = (lo[0].min(x), hi[0].max(x));
    }
    let lo = lo.into_iter().min().unwrap_or(values[0]);
    let hi = hi.into_iter().max().unwrap_or(values[0]);
    (lo, hi)
}

/// `out[i] = values[i] - values[i - 1]`, `prev` standing for `values[-1]`.
#[inline]
fn deltas(out: &mut [i64], prev: i64, values: &[i64]) {
    let Some((o0, rest)) = out.split_first_mut() else {
        return;
    };
    *o0 = values[0].wrapping_sub(prev);
    for ((o, &x), &p) in rest.iter_mut().zip(&values[1..]).zip(values) {
        *o = x.wrapping_sub(p);
    }
}

/// One block of at most 128 deltas: their minimum, the widths of its
/// miniblocks (0 for those past the end), and the miniblocks, the last one
/// padded with zeros.
fn encode_block(out: &mut Vec<u8>, d: &[i64]) {
    let (min, _) = min_max(d);
    uleb128(out, zigzag(min));
    let widths = out.len();
    out.extend_from_slice(&[0; Delta::BLOCK / Delta::MINI]);
    for (m, mini) in d.chunks(Delta::MINI).enumerate() {
        let mut off = [0u64; Delta::MINI];
        let mut or = 0;
        for (o, &x) in off.iter_mut().zip(mini) {
            *o = x.wrapping_sub(min) as u64;
            or |= *o;
        }
        // The width of the largest offset is that of their bitwise or.
        let w = bit_width(or);
        out[widths + m] = w;
        pack_mini(out, &off, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A LEB128 varint at the start of `b`, and the rest.
    fn varint(b: &[u8]) -> (u64, &[u8]) {
        let (mut v, mut shift, mut i) = (0u64, 0, 0);
        loop {
            v |= ((b[i] & 0x7f) as u64) << shift;
            shift += 7;
            i += 1;
            if b[i - 1] < 0x80 {
                return (v, &b[i..]);
            }
        }
    }

    /// Bit `width` values at `b`, least significant bit first.
    fn unpack(b: &[u8], width: usize, count: usize) -> Vec<u64> {
        (0..count)
            .map(|i| {
                (0..width).fold(0u64, |v, j| {
                    let at = i * width + j;
                    v | ((((b[at / 8] >> (at % 8)) & 1) as u64) << j)
                })
            })
            .collect()
    }

    /// The hybrid stream decoded by the format's definition, independently
    /// of the encoder's code.
    fn decode_hybrid(mut b: &[u8], width: u8, n: usize) -> Vec<u32> {
        let mut out = Vec::new();
        let bytes = (width as usize).div_ceil(8);
        while out.len() < n {
            let (h, rest) = varint(b);
            b = rest;
            if h & 1 == 0 {
                let mut v = [0u8; 4];
                v[..bytes].copy_from_slice(&b[..bytes]);
                b = &b[bytes..];
                out.extend(std::iter::repeat_n(
                    u32::from_le_bytes(v),
                    (h >> 1) as usize,
                ));
            } else {
                let count = (h >> 1) as usize * 8;
                out.extend(unpack(b, width as usize, count).iter().map(|&v| v as u32));
                b = &b[count * width as usize / 8..];
            }
        }
        assert!(b.is_empty(), "trailing bytes");
        out.truncate(n);
        out
    }

    fn decode_delta(b: &[u8]) -> Vec<i64> {
        let unzig = |v: u64| (v >> 1) as i64 ^ -((v & 1) as i64);
        let (block, b) = varint(b);
        let (minis, b) = varint(b);
        let (count, b) = varint(b);
        let (first, mut b) = varint(b);
        let per = (block / minis) as usize;
        let mut out = vec![unzig(first)];
        while out.len() < count as usize {
            let (min, rest) = varint(b);
            let widths = &rest[..minis as usize];
            b = &rest[minis as usize..];
            for &w in widths {
                if out.len() >= count as usize {
                    break;
                }
                for d in unpack(b, w as usize, per) {
                    let prev = *out.last().unwrap();
                    out.push(prev.wrapping_add(unzig(min)).wrapping_add(d as i64));
                }
                b = &b[per * w as usize / 8..];
            }
        }
        assert!(b.is_empty(), "trailing bytes");
        out.truncate(count as usize);
        out
    }

    #[test]
    fn hybrid_round_trips_runs_of_every_length() {
        for width in [1u8, 2, 3, 5, 8, 13] {
            // Values up to the width's largest (all its bits set).
            let runs: Vec<(u32, usize)> = (0..300)
                .map(|i| {
                    let v = (i * 7 % 5) as u64 * u32::MAX as u64 / 4;
                    (
                        (v >> (32 - width)) as u32,
                        [1, 2, 3, 7, 8, 9, 15, 600][i % 8],
                    )
                })
                .collect();
            let mut h = Hybrid::new(width);
            let mut expect = Vec::new();
            for &(v, n) in &runs {
                h.run(v, n);
                expect.extend(std::iter::repeat_n(v, n));
            }
            let bytes = h.finish();
            assert_eq!(
                decode_hybrid(&bytes, width, expect.len()),
                expect,
                "width {width}"
            );
        }
    }

    #[test]
    fn equal_runs_merge_into_one_header() {
        let mut h = Hybrid::new(1);
        (0..131_072 / 4).for_each(|_| h.run(1, 4));
        // 131,072 << 1 as LEB128 is three bytes, then one byte of value.
        assert_eq!(h.finish(), vec![0x80, 0x80, 0x10, 1]);
        let mut z = Hybrid::new(0);
        z.run(0, 5);
        // Width 0: a bit-packed group of 8 zeros takes no bytes.
        assert_eq!(z.finish(), vec![0x03]);
    }

    #[test]
    fn delta_round_trips() {
        let mut v: Vec<i64> = (0..1000).map(|i| (i * i * 37) % 1001 - 500).collect();
        v.extend([i64::MAX, i64::MIN, 0, 7, 7, 7]);
        v.extend(0..300);
        for cut in [1, 5, 127, 128, 129, 600] {
            let mut d = Delta::new();
            d.extend(&v[..cut.min(v.len())]);
            d.extend(&v[cut.min(v.len())..]);
            assert_eq!(d.range, Some((i64::MIN, i64::MAX)));
            assert_eq!(decode_delta(&d.finish()), v, "cut {cut}");
        }
        let mut one = Delta::new();
        one.extend(&[42]);
        assert_eq!(one.range, Some((42, 42)));
        assert_eq!(decode_delta(&one.finish()), vec![42]);
    }

    #[test]
    fn counting_rows_encode_as_their_values() {
        let rows: Vec<(i64, usize)> = (0..500)
            .map(|i| ((i * 37) % 141 - 20, [0, 1, 3, 16, 130, 7][i as usize % 6]))
            .collect();
        let mut d = Delta::new();
        let mut expect = Vec::new();
        for &(a, n) in &rows {
            d.extend_counting(a, n);
            expect.extend((0..n as i64).map(|k| a + k));
        }
        let lo = *expect.iter().min().unwrap();
        let hi = *expect.iter().max().unwrap();
        assert_eq!(d.range, Some((lo, hi)));
        assert_eq!(decode_delta(&d.finish()), expect);
    }

    #[test]
    fn counting_rows_at_once_encode_as_row_by_row() {
        let firsts: Vec<i64> = (0..700).map(|i| (i * 37) % 141 - 20).collect();
        let mut offsets = vec![0usize];
        for i in 0..700 {
            offsets.push(offsets[i] + [0, 1, 3, 16, 130, 7, 0, 255][i % 8]);
        }
        // Alone, and between other values (deltas of their own in the block).
        for before in [0usize, 1, 5, 127, 128, 300] {
            let head: Vec<i64> = (0..before as i64).map(|i| 1000 - 3 * i).collect();
            let (mut rows, mut one) = (Delta::new(), Delta::new());
            let mut expect = head.clone();
            rows.extend(&head);
            one.extend(&head);
            for (lo, hi) in [(0, 3), (3, 400), (400, 700)] {
                rows.extend_counting_rows(&firsts[lo..hi], &offsets[lo..=hi]);
                for i in lo..hi {
                    let n = offsets[i + 1] - offsets[i];
                    one.extend_counting(firsts[i], n);
                    expect.extend((0..n as i64).map(|k| firsts[i] + k));
                }
                rows.extend(&[5, -9]);
                one.extend(&[5, -9]);
                expect.extend([5, -9]);
            }
            assert_eq!(rows.range, one.range, "after {before}");
            let bytes = rows.finish();
            assert_eq!(bytes, one.finish(), "after {before}");
            assert_eq!(decode_delta(&bytes), expect, "after {before}");
        }
    }

    #[test]
    fn miniblocks_pack_at_every_width() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for width in 0..=64u8 {
            let mask = if width == 64 {
                u64::MAX
            } else {
                (1 << width) - 1
            };
            let values: [u64; 32] = std::array::from_fn(|_| {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                x & mask
            });
            let mut out = vec![7];
            pack_mini(&mut out, &values, width);
            assert_eq!(out.len(), 1 + 4 * width as usize, "width {width}");
            let got = unpack(&out[1..], width as usize, 32);
            assert_eq!(got, values, "width {width}");
        }
    }

    #[test]
    fn a_counter_packs_to_zero_width_miniblocks() {
        let mut d = Delta::new();
        d.extend(&(0..10_001).collect::<Vec<i64>>());
        let b = d.finish();
        // Header (5 bytes), then per block of 128: min delta 1 and 4 widths of 0.
        assert_eq!(b.len(), 2 + 1 + 2 + 1 + 79 * 5);
    }
}
