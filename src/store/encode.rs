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

/// Appends `values`, `width` bits each, least significant bit first.
pub(super) fn bit_pack(out: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u8) {
    if width == 0 {
        return;
    }
    let (mut acc, mut bits) = (0u128, 0u32);
    for v in values {
        acc |= (v as u128) << bits;
        bits += width as u32;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
}

/// The RLE/bit-packing hybrid, fed runs: equal runs are merged, a run of 8
/// or more is one RLE header and value, shorter runs become bit-packed
/// groups of 8.
pub(super) struct Hybrid {
    width: u8,
    out: Vec<u8>,
    literals: Vec<u32>,
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
            literals: Vec::new(),
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
    fn emit(&mut self) {
        let (v, mut n) = std::mem::take(&mut self.pending);
        if n == 0 {
            return;
        }
        if !self.literals.len().is_multiple_of(8) {
            // A bit-packed run holds whole groups of 8: complete the group first.
            let k = (8 - self.literals.len() % 8).min(n);
            self.literals.extend(std::iter::repeat_n(v, k));
            n -= k;
        }
        if n >= 8 {
            self.flush_literals();
            uleb128(&mut self.out, (n as u64) << 1);
            let bytes = (self.width as usize).div_ceil(8);
            self.out.extend_from_slice(&v.to_le_bytes()[..bytes]);
        } else {
            self.literals.extend(std::iter::repeat_n(v, n));
        }
    }
    /// The encoded stream (the last group padded with zeros).
    pub fn finish(mut self) -> Vec<u8> {
        self.emit();
        let pad = (8 - self.literals.len() % 8) % 8;
        self.literals.extend(std::iter::repeat_n(0, pad));
        self.flush_literals();
        self.out
    }
    fn flush_literals(&mut self) {
        debug_assert_eq!(self.literals.len() % 8, 0);
        for chunk in self.literals.chunks(8 * Self::MAX_GROUPS) {
            uleb128(&mut self.out, ((chunk.len() / 8) as u64) << 1 | 1);
            bit_pack(&mut self.out, chunk.iter().map(|&v| v as u64), self.width);
        }
        self.literals.clear();
    }
}

/// DELTA_BINARY_PACKED integers, in the `parquet` crate's layout: blocks of
/// 128 values in 4 miniblocks of 32; also their minimum and maximum.
pub(super) struct Delta {
    blocks: Vec<u8>,
    first: i64,
    last: i64,
    count: usize,
    deltas: Vec<i64>,
    /// Smallest and largest value, if any.
    pub range: Option<(i64, i64)>,
}

impl Delta {
    const BLOCK: usize = 128;
    const MINI: usize = 32;

    /// No values yet.
    pub fn new() -> Delta {
        Delta {
            blocks: Vec::new(),
            first: 0,
            last: 0,
            count: 0,
            deltas: Vec::with_capacity(Self::BLOCK),
            range: None,
        }
    }
    /// Appends `values`.
    pub fn extend(&mut self, values: &[i64]) {
        let Some((&head, mut rest)) = values.split_first() else {
            return;
        };
        let (lo, hi) = values
            .iter()
            .fold((head, head), |(a, b), &x| (a.min(x), b.max(x)));
        self.range = Some(self.range.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        if self.count == 0 {
            (self.first, self.last, self.count) = (head, head, 1);
        } else {
            rest = values;
        }
        while !rest.is_empty() {
            let k = (Self::BLOCK - self.deltas.len()).min(rest.len());
            let mut last = self.last;
            self.deltas.extend(rest[..k].iter().map(|&x| {
                let d = x.wrapping_sub(last);
                last = x;
                d
            }));
            (self.last, self.count, rest) = (last, self.count + k, &rest[k..]);
            if self.deltas.len() == Self::BLOCK {
                self.flush_block();
            }
        }
    }
    fn flush_block(&mut self) {
        let min = self.deltas.iter().copied().min().unwrap_or(0);
        uleb128(&mut self.blocks, zigzag(min));
        let minis = self.deltas.len().div_ceil(Self::MINI);
        let width = |m: usize| {
            let mini = &self.deltas[m * Self::MINI..((m + 1) * Self::MINI).min(self.deltas.len())];
            let max = mini.iter().map(|&d| d.wrapping_sub(min) as u64).max();
            bit_width(max.unwrap_or(0))
        };
        let widths: Vec<u8> = (0..Self::BLOCK / Self::MINI)
            .map(|m| if m < minis { width(m) } else { 0 })
            .collect();
        self.blocks.extend_from_slice(&widths);
        for (m, &w) in widths.iter().enumerate().take(minis) {
            let from = m * Self::MINI;
            // The last miniblock is padded to full length (with zeros).
            let padded = (from..from + Self::MINI).map(|i| {
                self.deltas
                    .get(i)
                    .map_or(0, |&d| d.wrapping_sub(min) as u64)
            });
            bit_pack(&mut self.blocks, padded, w);
        }
        self.deltas.clear();
    }
    /// The encoded values: header, then the blocks.
    pub fn finish(mut self) -> Vec<u8> {
        if !self.deltas.is_empty() {
            self.flush_block();
        }
        let mut out = Vec::with_capacity(self.blocks.len() + 24);
        uleb128(&mut out, Self::BLOCK as u64);
        uleb128(&mut out, (Self::BLOCK / Self::MINI) as u64);
        uleb128(&mut out, self.count as u64);
        uleb128(&mut out, zigzag(self.first));
        out.extend_from_slice(&self.blocks);
        out
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
        let runs: Vec<(u32, usize)> = (0..300)
            .map(|i| ((i * 7 % 5) as u32, [1, 2, 3, 7, 8, 9, 15, 600][i % 8]))
            .collect();
        for width in [3u8, 8, 13] {
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
    fn a_counter_packs_to_zero_width_miniblocks() {
        let mut d = Delta::new();
        d.extend(&(0..10_001).collect::<Vec<i64>>());
        let b = d.finish();
        // Header (5 bytes), then per block of 128: min delta 1 and 4 widths of 0.
        assert_eq!(b.len(), 2 + 1 + 2 + 1 + 79 * 5);
    }
}
