//! Column chunks encoded by nimlab rather than by the `parquet` crate's
//! column writers: levels and values are fed as runs and slices, so a value
//! repeated over a case's rows costs one run, not one call per row.
//!
//! Why an encoder of our own: the crate's column writers take values one at
//! a time (every string hashed and interned on every row, every integer
//! through a generic per-value encoder and statistics), which made writing
//! the per-position dataset 17 times as costly as solving it (issue 24);
//! the crate's level and RLE encoders are outside its stable API and also
//! per value. What is written here is small and fully specified by the
//! Parquet format (data pages v1, their level sections, dictionary pages;
//! the encodings in [`super::encode`]); page headers, the chunk's metadata,
//! its offset index and its place in the file go through the crate's own
//! [`SerializedPageWriter`] and [`SerializedRowGroupWriter::append_column`].

use std::io::Write;

use anyhow::Result;
use bytes::Bytes;
use parquet::basic::{Compression, Encoding, EncodingMask, ZstdLevel};
use parquet::column::page::{CompressedPage, Page, PageWriteSpec, PageWriter};
use parquet::column::writer::ColumnCloseResult;
use parquet::file::metadata::{ColumnChunkMetaData, OffsetIndexBuilder};
use parquet::file::statistics::Statistics;
use parquet::file::writer::{SerializedPageWriter, SerializedRowGroupWriter, TrackedWrite};
use parquet::schema::types::ColumnDescPtr;
use rustc_hash::FxHashMap;

use super::encode::{Delta, Hybrid, bit_width};

/// The repetition and definition levels of a leaf column chunk.
#[derive(Clone)]
pub(super) struct Levels {
    max_def: u32,
    rep: Option<Hybrid>,
    def: Option<Hybrid>,
    levels: usize,
    rows: usize,
    nulls: usize,
}

impl Levels {
    /// No levels yet, for leaf `descr`.
    pub fn new(descr: &ColumnDescPtr) -> Levels {
        let hybrid = |max: i16| (max > 0).then(|| Hybrid::new(bit_width(max as u64)));
        Levels {
            max_def: descr.max_def_level() as u32,
            rep: hybrid(descr.max_rep_level()),
            def: hybrid(descr.max_def_level()),
            levels: 0,
            rows: 0,
            nulls: 0,
        }
    }
    /// `n` rows of one record each: values, or nulls at definition level 0.
    pub fn rows(&mut self, present: bool, n: usize) {
        if let Some(r) = &mut self.rep {
            r.run(0, n);
        }
        if let Some(d) = &mut self.def {
            d.run(if present { self.max_def } else { 0 }, n);
        }
        self.levels += n;
        self.rows += n;
        if !present {
            self.nulls += n;
        }
    }
    /// One row of a list of `k` present items (a nullable list of nullable
    /// items: definition level 1 for an empty list).
    pub fn list(&mut self, k: usize) {
        self.lists(&[0, k]);
    }
    /// Rows of lists, one per window of `offsets` (its items' range): as
    /// [`Levels::list`] row by row, the two level streams borrowed once.
    pub fn lists(&mut self, offsets: &[usize]) {
        let (Some(rep), Some(def)) = (self.rep.as_mut(), self.def.as_mut()) else {
            unreachable!("a list leaf has both levels");
        };
        for w in offsets.windows(2) {
            let k = w[1] - w[0];
            rep.run(0, 1);
            if k == 0 {
                def.run(1, 1);
                self.nulls += 1;
            } else {
                rep.run(1, k - 1);
                def.run(self.max_def, k);
            }
            self.levels += k.max(1);
        }
        self.rows += offsets.len().saturating_sub(1);
    }
    /// `n` rows of a list of `k` present items each: as [`Levels::lists`]
    /// over `n` windows of `k` (the same bytes), empty lists as one run.
    pub fn same_lists(&mut self, k: usize, n: usize) {
        if k > 0 {
            for _ in 0..n {
                self.lists(&[0, k]);
            }
            return;
        }
        let (Some(rep), Some(def)) = (self.rep.as_mut(), self.def.as_mut()) else {
            unreachable!("a list leaf has both levels");
        };
        rep.run(0, n);
        def.run(1, n);
        self.nulls += n;
        self.levels += n;
        self.rows += n;
    }
    /// Number of present values.
    pub fn present(&self) -> usize {
        self.levels - self.nulls
    }
}

/// The values a dictionary's keys stand for.
#[derive(Debug, PartialEq)]
pub(super) enum Dict<'a> {
    /// Integers (Parquet `INT64`).
    Int(Vec<i64>),
    /// Strings (Parquet `BYTE_ARRAY`).
    Text(Vec<&'a str>),
}

/// Dictionary-encoded values fed as runs of keys, the values in order of
/// first appearance (as the crate's own dictionaries).
pub(super) struct Keys<'a> {
    dict: Dict<'a>,
    ints: FxHashMap<i64, u32>,
    texts: FxHashMap<&'a str, u32>,
    runs: Vec<(u32, usize)>,
}

impl<'a> Keys<'a> {
    /// No keys yet, over integers or strings.
    pub fn new(text: bool) -> Keys<'a> {
        Keys {
            dict: if text {
                Dict::Text(Vec::new())
            } else {
                Dict::Int(Vec::new())
            },
            ints: FxHashMap::default(),
            texts: FxHashMap::default(),
            runs: Vec::new(),
        }
    }
    /// Appends `n` values of key `key`.
    #[inline]
    pub fn push(&mut self, key: u32, n: usize) {
        match self.runs.last_mut() {
            Some((k, m)) if *k == key => *m += n,
            _ if n > 0 => self.runs.push((key, n)),
            _ => {}
        }
    }
    /// The key of integer `v`.
    pub fn int_key(&mut self, v: i64) -> u32 {
        let Dict::Int(values) = &mut self.dict else {
            unreachable!("an integer in a dictionary of strings");
        };
        *self.ints.entry(v).or_insert_with(|| {
            values.push(v);
            values.len() as u32 - 1
        })
    }
    /// The key of string `s`.
    pub fn text_key(&mut self, s: &'a str) -> u32 {
        let Dict::Text(values) = &mut self.dict else {
            unreachable!("a string in a dictionary of integers");
        };
        *self.texts.entry(s).or_insert_with(|| {
            values.push(s);
            values.len() as u32 - 1
        })
    }
}

/// The values of a leaf column chunk, as they are being encoded.
pub(super) enum ValueEnc<'a> {
    /// Dictionary keys.
    Keys(Keys<'a>),
    /// DELTA_BINARY_PACKED integers.
    Delta(Delta),
    /// Booleans (PLAIN, one bit each), as runs.
    Bools(Vec<(bool, usize)>),
}

/// A leaf column chunk, encoded: its pages' bodies (uncompressed) and what
/// its metadata says.
pub(super) struct Encoded {
    levels: Levels,
    /// The values' bytes: `values[values_at..]`.
    values: Vec<u8>,
    values_at: usize,
    encoding: Encoding,
    dict: Option<(Vec<u8>, usize)>,
    stats: Option<Statistics>,
}

impl Encoded {
    /// Finishes the values; `None` values when no value is present.
    pub fn new(levels: Levels, values: ValueEnc) -> Encoded {
        let nulls = Some(levels.nulls as u64);
        let mut body = Vec::new();
        if levels.present() == 0 {
            let stats = match values {
                ValueEnc::Keys(Keys {
                    dict: Dict::Text(_),
                    ..
                }) => None,
                ValueEnc::Bools(_) => Some(Statistics::boolean(None, None, None, nulls, false)),
                _ => Some(Statistics::int64(None, None, None, nulls, false)),
            };
            return Encoded::plain(levels, body, None, stats);
        }
        match values {
            ValueEnc::Keys(k) => {
                let stats = match &k.dict {
                    Dict::Int(v) => {
                        let (lo, hi) = (v.iter().min().copied(), v.iter().max().copied());
                        Some(Statistics::int64(lo, hi, None, nulls, false))
                    }
                    Dict::Text(_) => None,
                };
                let (dict, n) = dictionary_page(&k.dict);
                let width = bit_width(n.saturating_sub(1) as u64);
                body.push(width);
                let mut h = Hybrid::new(width);
                k.runs.iter().for_each(|&(key, n)| h.run(key, n));
                body.extend_from_slice(&h.finish());
                Encoded {
                    levels,
                    values: body,
                    values_at: 0,
                    encoding: Encoding::RLE_DICTIONARY,
                    dict: Some((dict, n)),
                    stats,
                }
            }
            ValueEnc::Delta(d) => {
                let (lo, hi) = d.range.unzip();
                let stats = Some(Statistics::int64(lo, hi, None, nulls, false));
                let (values, at) = d.finish_in_place();
                let mut e = Encoded::plain(levels, values, None, stats);
                (e.encoding, e.values_at) = (Encoding::DELTA_BINARY_PACKED, at);
                e
            }
            ValueEnc::Bools(runs) => {
                let present = || runs.iter().filter(|r| r.1 > 0).map(|r| r.0);
                let (lo, hi) = (present().min(), present().max());
                pack_bools(&mut body, &runs);
                let stats = Some(Statistics::boolean(lo, hi, None, nulls, false));
                Encoded::plain(levels, body, None, stats)
            }
        }
    }
    fn plain(
        levels: Levels,
        values: Vec<u8>,
        dict: Option<(Vec<u8>, usize)>,
        stats: Option<Statistics>,
    ) -> Encoded {
        Encoded {
            levels,
            values,
            values_at: 0,
            encoding: Encoding::PLAIN,
            dict,
            stats,
        }
    }
    /// The data page's body: levels (each prefixed by its length), then values.
    fn data_page(&mut self) -> Vec<u8> {
        let levels = [self.levels.rep.take(), self.levels.def.take()];
        let levels: Vec<Vec<u8>> = levels.into_iter().flatten().map(Hybrid::finish).collect();
        let values = &self.values[self.values_at..];
        let size = levels.iter().map(|l| 4 + l.len()).sum::<usize>() + values.len();
        let mut body = Vec::with_capacity(size);
        for bytes in levels {
            body.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            body.extend_from_slice(&bytes);
        }
        body.extend_from_slice(values);
        body
    }
}

/// Appends runs of booleans, one bit each, least significant first: whole
/// bytes at a time once aligned.
fn pack_bools(out: &mut Vec<u8>, runs: &[(bool, usize)]) {
    let (mut acc, mut bits) = (0u8, 0u32);
    for &(b, mut n) in runs {
        while n > 0 && bits > 0 {
            acc |= (b as u8) << bits;
            bits = (bits + 1) % 8;
            n -= 1;
            if bits == 0 {
                out.push(acc);
                acc = 0;
            }
        }
        out.extend(std::iter::repeat_n(if b { 0xff } else { 0 }, n / 8));
        for _ in 0..n % 8 {
            acc |= (b as u8) << bits;
            bits += 1;
        }
    }
    if bits > 0 {
        out.push(acc);
    }
}

/// The dictionary page's body (PLAIN values) and its number of values.
fn dictionary_page(dict: &Dict) -> (Vec<u8>, usize) {
    let mut body = Vec::new();
    match dict {
        Dict::Int(v) => {
            v.iter()
                .for_each(|x| body.extend_from_slice(&x.to_le_bytes()));
            (body, v.len())
        }
        Dict::Text(v) => {
            v.iter().for_each(|s| {
                body.extend_from_slice(&(s.len() as u32).to_le_bytes());
                body.extend_from_slice(s.as_bytes());
            });
            (body, v.len())
        }
    }
}

/// Writes one leaf column chunk of `rg`: its dictionary page, if any, and
/// one data page, compressed with zstd at `level`.
pub(super) fn write_chunk<W: Write + Send>(
    rg: &mut SerializedRowGroupWriter<'_, W>,
    descr: ColumnDescPtr,
    mut enc: Encoded,
    level: ZstdLevel,
) -> Result<()> {
    let mut sink = TrackedWrite::new(Vec::new());
    let mut pages = SerializedPageWriter::new(&mut sink);
    let zstd = |body: &[u8]| -> Result<Bytes> {
        Ok(Bytes::from(zstd::bulk::compress(
            body,
            level.compression_level(),
        )?))
    };
    let mut dict_spec: Option<PageWriteSpec> = None;
    if let Some((body, n)) = &enc.dict {
        let page = Page::DictionaryPage {
            buf: zstd(body)?,
            num_values: *n as u32,
            encoding: Encoding::PLAIN,
            is_sorted: false,
        };
        dict_spec = Some(pages.write_page(CompressedPage::new(page, body.len()))?);
    }
    let body = enc.data_page();
    let page = Page::DataPage {
        buf: zstd(&body)?,
        num_values: enc.levels.levels as u32,
        encoding: enc.encoding,
        def_level_encoding: Encoding::RLE,
        rep_level_encoding: Encoding::RLE,
        statistics: None,
    };
    let data_spec = pages.write_page(CompressedPage::new(page, body.len()))?;
    pages.close()?;
    let close = close_result(descr, &enc, level, dict_spec.as_ref(), &data_spec)?;
    rg.append_column(&Bytes::from(sink.into_inner()?), close)?;
    Ok(())
}

/// The chunk's metadata and offset index, offsets relative to its buffer.
fn close_result(
    descr: ColumnDescPtr,
    enc: &Encoded,
    level: ZstdLevel,
    dict: Option<&PageWriteSpec>,
    data: &PageWriteSpec,
) -> Result<ColumnCloseResult> {
    let pages = dict.into_iter().chain([data]);
    let compressed: u64 = pages.clone().map(|p| p.compressed_size as u64).sum();
    let uncompressed: u64 = pages.map(|p| p.uncompressed_size as u64).sum();
    let mut encodings = vec![Encoding::RLE, enc.encoding];
    if dict.is_some() {
        encodings.push(Encoding::PLAIN);
    }
    let mut meta = ColumnChunkMetaData::builder(descr)
        .set_compression(Compression::ZSTD(level))
        .set_encodings_mask(EncodingMask::new_from_encodings(encodings.iter()))
        .set_num_values(enc.levels.levels as i64)
        .set_total_compressed_size(compressed as i64)
        .set_total_uncompressed_size(uncompressed as i64)
        .set_data_page_offset(data.offset as i64)
        .set_dictionary_page_offset(dict.map(|d| d.offset as i64));
    if let Some(s) = &enc.stats {
        meta = meta.set_statistics(s.clone());
    }
    let mut index = OffsetIndexBuilder::new();
    index.append_row_count(enc.levels.rows as i64);
    index.append_offset_and_size(data.offset as i64, data.compressed_size as i32);
    Ok(ColumnCloseResult {
        bytes_written: compressed,
        rows_written: enc.levels.rows as u64,
        metadata: meta.build()?,
        bloom_filter: None,
        column_index: None,
        offset_index: Some(index.build()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_order_of_first_appearance() {
        let mut k = Keys::new(true);
        let (b, a) = (k.text_key("b"), k.text_key("a"));
        k.push(b, 2);
        k.push(b, 3);
        k.push(a, 0);
        let b2 = k.text_key("b");
        k.push(b2, 1);
        k.push(a, 1);
        assert_eq!(k.dict, Dict::Text(vec!["b", "a"]));
        assert_eq!(k.runs, vec![(0, 6), (1, 1)]);
    }

    #[test]
    fn booleans_pack_across_runs() {
        let mut out = Vec::new();
        pack_bools(&mut out, &[(true, 3), (false, 2), (true, 12), (false, 1)]);
        // 111 00 111 | 11111111 | 1 0 → bits LSB first.
        assert_eq!(out, vec![0b1110_0111, 0b1111_1111, 0b0000_0001]);
    }
}
