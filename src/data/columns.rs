//! Typed column vectors: strings back to back, lists as offsets into one
//! flat vector, closed vocabularies as one-byte codes. Pushing a row never
//! allocates once the buffers have grown, so solvers fill them directly.

/// Strings stored in one buffer with end offsets; optionally nullable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StrVec {
    buf: String,
    ends: Vec<usize>,
    /// `None`: every row is valid.
    valid: Option<Vec<bool>>,
}

impl StrVec {
    /// An empty column with room for `rows` rows and `bytes` bytes of text.
    pub fn with_capacity(rows: usize, bytes: usize) -> Self {
        StrVec {
            buf: String::with_capacity(bytes),
            ends: Vec::with_capacity(rows),
            valid: None,
        }
    }
    /// Appends one string.
    pub fn push(&mut self, s: &str) {
        self.buf.push_str(s);
        self.ends.push(self.buf.len());
        if let Some(v) = &mut self.valid {
            v.push(true);
        }
    }
    /// Appends a null.
    pub fn push_null(&mut self) {
        let n = self.ends.len();
        self.valid.get_or_insert_with(|| vec![true; n]).push(false);
        self.ends.push(self.buf.len());
    }
    /// Appends `Some(s)` or a null.
    pub fn push_opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => self.push(s),
            None => self.push_null(),
        }
    }
    /// Appends one row built by `f` writing into the buffer (no temporary `String`).
    pub fn push_with(&mut self, f: impl FnOnce(&mut String)) {
        f(&mut self.buf);
        self.ends.push(self.buf.len());
        if let Some(v) = &mut self.valid {
            v.push(true);
        }
    }
    /// Row `i` (`""` for a null; see [`StrVec::get_opt`]).
    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }
    /// Row `i`, `None` when null.
    pub fn get_opt(&self, i: usize) -> Option<&str> {
        self.is_valid(i).then(|| self.get(i))
    }
    /// Is row `i` non-null?
    pub fn is_valid(&self, i: usize) -> bool {
        self.valid.as_ref().is_none_or(|v| v[i])
    }
    /// True when some row is null.
    pub fn has_nulls(&self) -> bool {
        self.valid.as_ref().is_some_and(|v| v.iter().any(|x| !x))
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.ends.len()
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
    /// Iterates over the rows (`""` for nulls).
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Iterates over the rows, `None` for nulls.
    pub fn iter_opt(&self) -> impl Iterator<Item = Option<&str>> + '_ {
        (0..self.len()).map(move |i| self.get_opt(i))
    }
    pub(crate) fn extend_from(&mut self, other: &StrVec) {
        let (n, base) = (self.len(), self.buf.len());
        self.buf.push_str(&other.buf);
        self.ends.extend(other.ends.iter().map(|e| e + base));
        extend_validity(&mut self.valid, n, other.valid.as_deref(), other.len());
    }
    pub(crate) fn take_rows(&self, rows: &[usize]) -> StrVec {
        let mut v = StrVec::default();
        for &i in rows {
            v.push_opt(self.get_opt(i));
        }
        v
    }
}

impl<'a> FromIterator<&'a str> for StrVec {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut v = StrVec::default();
        for s in iter {
            v.push(s);
        }
        v
    }
}

/// Repeated labels (a rule, a board's name): the distinct strings once, in
/// order of first appearance, and one code per row.
#[derive(Clone, Debug, Default)]
pub struct DictVec {
    levels: Vec<String>,
    codes: Vec<u32>,
    /// Finds a label's code among many levels (a board's name per row).
    index: LevelIndex,
}

impl PartialEq for DictVec {
    fn eq(&self, other: &Self) -> bool {
        self.levels == other.levels && self.codes == other.codes
    }
}

/// A label → its code, for the levels `0..upto`, built once a dictionary
/// has more than [`LevelIndex::LINEAR`] levels: a linear search per row made
/// a column of distinct labels (every hexagon's name) quadratic. A
/// `hashbrown` table of codes, hashed and compared through the levels (which
/// are not copied).
#[derive(Clone, Debug, Default)]
struct LevelIndex {
    table: hashbrown::HashTable<u32>,
    upto: usize,
}

impl LevelIndex {
    /// Up to this many levels a linear search is as fast.
    const LINEAR: usize = 16;

    fn hash(label: &str) -> u64 {
        use std::hash::BuildHasher;
        rustc_hash::FxBuildHasher.hash_one(label)
    }

    /// The code of `label` among `levels`, if present.
    fn find(&mut self, levels: &[String], label: &str) -> Option<usize> {
        if levels.len() <= Self::LINEAR {
            return levels.iter().rposition(|l| l == label);
        }
        for (i, l) in levels.iter().enumerate().skip(self.upto) {
            self.table.insert_unique(Self::hash(l), i as u32, |&c| {
                Self::hash(&levels[c as usize])
            });
        }
        self.upto = levels.len();
        self.table
            .find(Self::hash(label), |&c| levels[c as usize] == label)
            .map(|&c| c as usize)
    }
}

impl DictVec {
    /// `n` rows of one label.
    pub fn repeat(label: &str, n: usize) -> DictVec {
        DictVec {
            levels: vec![label.to_string()],
            codes: vec![0; n],
            index: LevelIndex::default(),
        }
    }
    /// A column from its dictionary and codes (codes must index `levels`).
    pub fn from_parts(levels: Vec<String>, codes: Vec<u32>) -> DictVec {
        debug_assert!(codes.iter().all(|&c| (c as usize) < levels.len()));
        DictVec {
            levels,
            codes,
            index: LevelIndex::default(),
        }
    }
    /// The code of `label`, added to the dictionary if new.
    fn code(&mut self, label: &str) -> u32 {
        match self.index.find(&self.levels, label) {
            Some(c) => c as u32,
            None => {
                self.levels.push(label.to_string());
                (self.levels.len() - 1) as u32
            }
        }
    }
    /// Appends a label.
    pub fn push(&mut self, label: &str) {
        let code = self.code(label);
        self.codes.push(code);
    }
    /// Row `i`.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.levels.get(self.codes[i] as usize).map(String::as_str)
    }
    /// The distinct labels, in order of first appearance.
    pub fn levels(&self) -> &[String] {
        &self.levels
    }
    /// One code per row.
    pub fn codes(&self) -> &[u32] {
        &self.codes
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.codes.len()
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
    /// Room for `more` rows' codes.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.codes.reserve_exact(more);
    }
    pub(crate) fn extend_from(&mut self, other: &DictVec) {
        let map: Vec<u32> = other.levels.iter().map(|l| self.code(l)).collect();
        self.codes
            .extend(other.codes.iter().map(|&c| map[c as usize]));
    }
    pub(crate) fn take_rows(&self, rows: &[usize]) -> DictVec {
        DictVec {
            levels: self.levels.clone(),
            codes: rows.iter().map(|&i| self.codes[i]).collect(),
            index: LevelIndex::default(),
        }
    }
}

/// Appends `other`'s validity (`m` rows) to `valid` (`n` rows so far);
/// `None` stays `None` while every row is valid.
fn extend_validity(valid: &mut Option<Vec<bool>>, n: usize, other: Option<&[bool]>, m: usize) {
    match (valid.as_mut(), other) {
        (None, None) => {}
        (Some(v), None) => v.extend(std::iter::repeat_n(true, m)),
        (v, Some(o)) => {
            let v = match v {
                Some(v) => v,
                None => valid.insert(vec![true; n]),
            };
            v.extend_from_slice(o);
        }
    }
}

/// A closed vocabulary: one byte per row, an index into `levels`
/// ([`EnumVec::NULL`] for null).
#[derive(Clone, Debug, PartialEq)]
pub struct EnumVec {
    /// The vocabulary, in its declared order.
    pub levels: &'static [&'static str],
    /// One code per row.
    pub codes: Vec<u8>,
}

impl EnumVec {
    /// The code of a null.
    pub const NULL: u8 = u8::MAX;
    /// An empty column over `levels`.
    pub fn new(levels: &'static [&'static str], rows: usize) -> EnumVec {
        debug_assert!(levels.len() < Self::NULL as usize);
        EnumVec {
            levels,
            codes: Vec::with_capacity(rows),
        }
    }
    /// Appends level number `code`.
    #[inline]
    pub fn push(&mut self, code: u8) {
        debug_assert!((code as usize) < self.levels.len());
        self.codes.push(code);
    }
    /// Appends a null.
    pub fn push_null(&mut self) {
        self.codes.push(Self::NULL);
    }
    /// Appends the level named `level`; panics on a word outside the
    /// vocabulary (a programming error in a family, caught by its tests).
    pub fn push_str(&mut self, level: &str) {
        let code = self
            .code_of(level)
            .unwrap_or_else(|| panic!("{level:?} is not one of {:?}", self.levels));
        self.codes.push(code);
    }
    /// The code of a level.
    pub fn code_of(&self, level: &str) -> Option<u8> {
        self.levels
            .iter()
            .position(|l| *l == level)
            .map(|p| p as u8)
    }
    /// Row `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<&'static str> {
        self.levels.get(self.codes[i] as usize).copied()
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.codes.len()
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }
}

impl StrVec {
    /// Bytes the strings hold (text, ends, validity).
    pub fn bytes(&self) -> usize {
        self.buf.len() + self.ends.len() * 8 + self.valid.as_ref().map_or(0, Vec::len)
    }
}

impl DictVec {
    /// Bytes the column holds (its levels' text and a code per row).
    pub fn bytes(&self) -> usize {
        self.levels.iter().map(|l| l.len() + 24).sum::<usize>() + self.codes.len() * 4
    }
}

impl<V: ListItems> ListVec<V> {
    /// Bytes the lists hold (offsets, items, validity).
    pub fn bytes(&self) -> usize {
        self.offsets.len() * 8 + self.values.bytes() + self.valid.as_ref().map_or(0, Vec::len)
    }
}

impl StructListVec {
    /// Bytes the lists hold: offsets and each field as stored (a field
    /// the same for every struct is one value).
    pub fn bytes(&self) -> usize {
        let field = |f: &FieldVec| match f {
            FieldVec::Items(v) | FieldVec::Counting(v, _) => v.len() * 8,
            FieldVec::Same(..) => 8,
        };
        self.offsets.len() * 8 + self.values.iter().map(field).sum::<usize>()
    }
    /// Bytes the lists take read back from a file: every field one value
    /// per struct.
    pub fn expanded_bytes(&self) -> usize {
        let items = self.offsets.last().unwrap_or(&0) - self.offsets[0];
        self.offsets.len() * 8 + items * self.values.len() * 8
    }
}

/// The items of a list column, back to back: integers in a `Vec`, strings
/// in a [`StrVec`].
pub trait ListItems: Default {
    /// Number of items.
    fn count(&self) -> usize;
    /// Appends items `range` of `other`.
    fn extend_range(&mut self, other: &Self, range: std::ops::Range<usize>);
    /// Bytes the items hold.
    fn bytes(&self) -> usize;
}

impl ListItems for Vec<i64> {
    fn count(&self) -> usize {
        self.len()
    }
    fn extend_range(&mut self, other: &Self, range: std::ops::Range<usize>) {
        self.extend_from_slice(&other[range]);
    }
    fn bytes(&self) -> usize {
        self.len() * 8
    }
}

impl ListItems for StrVec {
    fn count(&self) -> usize {
        self.len()
    }
    fn extend_range(&mut self, other: &Self, range: std::ops::Range<usize>) {
        for k in range {
            self.push(other.get(k));
        }
    }
    fn bytes(&self) -> usize {
        StrVec::bytes(self)
    }
}

/// A list column: row `i` is items `offsets[i]..offsets[i + 1]`, optionally
/// nullable. [`IntListVec`] and [`StrListVec`] are its two kinds.
#[derive(Clone, Debug, PartialEq)]
pub struct ListVec<V> {
    offsets: Vec<usize>,
    values: V,
    valid: Option<Vec<bool>>,
}

/// Lists of integers.
pub type IntListVec = ListVec<Vec<i64>>;
/// Lists of strings.
pub type StrListVec = ListVec<StrVec>;

impl<V: ListItems> Default for ListVec<V> {
    fn default() -> Self {
        ListVec {
            offsets: vec![0],
            values: V::default(),
            valid: None,
        }
    }
}

impl<V: ListItems> ListVec<V> {
    /// Appends a null.
    pub fn push_null(&mut self) {
        self.end_row(false);
    }
    /// Ends the row whose items were just appended (`valid`: not null).
    fn end_row(&mut self, valid: bool) {
        let n = self.len();
        self.offsets.push(self.values.count());
        if !valid || self.valid.is_some() {
            self.valid.get_or_insert_with(|| vec![true; n]).push(valid);
        }
    }
    /// Is row `i` non-null?
    pub fn is_valid(&self, i: usize) -> bool {
        self.valid.as_ref().is_none_or(|v| v[i])
    }
    /// True when some row is null.
    pub fn has_nulls(&self) -> bool {
        self.valid.as_ref().is_some_and(|v| v.iter().any(|x| !x))
    }
    /// Number of items in row `i` (none for a null).
    pub fn row_len(&self, i: usize) -> usize {
        self.offsets[i + 1] - self.offsets[i]
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub(crate) fn extend_from(&mut self, other: &Self) {
        let (n, base) = (self.len(), self.values.count());
        self.values
            .extend_range(&other.values, 0..other.values.count());
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
        extend_validity(&mut self.valid, n, other.valid.as_deref(), other.len());
    }
    pub(crate) fn take_rows(&self, rows: &[usize]) -> Self {
        let mut v = Self::default();
        for &i in rows {
            if self.is_valid(i) {
                v.values
                    .extend_range(&self.values, self.offsets[i]..self.offsets[i + 1]);
                v.end_row(true);
            } else {
                v.push_null();
            }
        }
        v
    }
}

impl ListVec<Vec<i64>> {
    /// An empty column with room for `rows` rows and `items` items.
    pub fn with_capacity(rows: usize, items: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        ListVec {
            offsets,
            values: Vec::with_capacity(items),
            valid: None,
        }
    }
    /// Appends one list.
    pub fn push(&mut self, items: &[i64]) {
        self.values.extend_from_slice(items);
        self.end_row(true);
    }
    /// Appends one list from an iterator.
    pub fn push_iter(&mut self, items: impl IntoIterator<Item = i64>) {
        self.values.extend(items);
        self.end_row(true);
    }
    /// Appends `Some(list)` or a null.
    pub fn push_opt(&mut self, items: Option<&[i64]>) {
        match items {
            Some(v) => self.push(v),
            None => self.push_null(),
        }
    }
    /// Row `i` (empty for a null).
    pub fn get(&self, i: usize) -> &[i64] {
        &self.values[self.offsets[i]..self.offsets[i + 1]]
    }
    /// Row `i`, `None` when null.
    pub fn get_opt(&self, i: usize) -> Option<&[i64]> {
        self.is_valid(i).then(|| self.get(i))
    }
    /// Offsets (rows + 1) and the flat values, for writers.
    pub fn parts(&self) -> (&[usize], &[i64]) {
        (&self.offsets, &self.values)
    }
}

impl ListVec<StrVec> {
    /// Appends one list.
    pub fn push<'a>(&mut self, items: impl IntoIterator<Item = &'a str>) {
        for s in items {
            self.values.push(s);
        }
        self.end_row(true);
    }
    /// The items of row `i` (none for a null).
    pub fn get(&self, i: usize) -> impl Iterator<Item = &str> + '_ {
        (self.offsets[i]..self.offsets[i + 1]).map(move |k| self.values.get(k))
    }
}

/// Lists of structs whose fields are integers (a move on several heaps, a
/// run of pieces): one flat vector per field, sharing the offsets; a field
/// whose every struct has the same value (the heap of one-heap moves) may be
/// stored as that value once ([`StructListVec::from_fields`]).
#[derive(Clone, Debug)]
pub struct StructListVec {
    /// Field names, in order.
    pub fields: &'static [&'static str],
    offsets: Vec<usize>,
    values: Vec<FieldVec>,
}

/// A field's values over all the structs of a [`StructListVec`].
#[derive(Clone, Debug)]
enum FieldVec {
    /// One value per struct.
    Items(Vec<i64>),
    /// The same value for every struct; the vector of them only when a
    /// reader asks for a slice.
    Same(i64, std::sync::OnceLock<Vec<i64>>),
    /// Each row's values count up by one from the row's first (one value
    /// per row, any for an empty row); the vector of every value only when
    /// a reader asks for a slice.
    Counting(Vec<i64>, std::sync::OnceLock<Vec<i64>>),
}

/// The values of rows that each count up by one from their first value
/// (`firsts`, one per row; `offsets`, rows + 1 of them): `a, a + 1, …` for
/// each row, all rows in order.
pub fn counting_items(offsets: &[usize], firsts: &[i64]) -> Vec<i64> {
    let mut v = Vec::with_capacity(offsets.last().map_or(0, |&e| e - offsets[0]));
    for (w, &a) in offsets.windows(2).zip(firsts) {
        v.extend((0..(w[1] - w[0]) as i64).map(|k| a + k));
    }
    v
}

/// A field of a [`StructListVec`] as stored: what writers encode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldItems<'a> {
    /// One value per struct.
    Items(&'a [i64]),
    /// The same value for every struct.
    Same(i64),
    /// Each row's values count up by one from the row's first: one value
    /// per row.
    Counting(&'a [i64]),
}

impl StructListVec {
    /// An empty column of structs with these fields.
    pub fn new(fields: &'static [&'static str], rows: usize) -> StructListVec {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        StructListVec {
            fields,
            offsets,
            values: vec![FieldVec::Items(Vec::with_capacity(rows)); fields.len()],
        }
    }
    /// A column from its parts: `offsets` (rows + 1, from 0) into one
    /// vector per field, all of the same length.
    pub fn from_parts(
        fields: &'static [&'static str],
        offsets: Vec<usize>,
        values: Vec<Vec<i64>>,
    ) -> StructListVec {
        let values = values.into_iter().map(StructField::Items).collect();
        StructListVec::from_fields(fields, offsets, values)
    }
    /// [`StructListVec::from_parts`] with fields given as one value per
    /// struct or one value for all.
    pub fn from_fields(
        fields: &'static [&'static str],
        offsets: Vec<usize>,
        values: Vec<StructField>,
    ) -> StructListVec {
        assert_eq!(values.len(), fields.len(), "one vector per field");
        let items = *offsets.last().expect("offsets start at 0");
        debug_assert!(offsets[0] == 0 && offsets.windows(2).all(|w| w[0] <= w[1]));
        let values = values
            .into_iter()
            .map(|v| match v {
                StructField::Items(v) => {
                    assert_eq!(v.len(), items, "fields of equal length");
                    FieldVec::Items(v)
                }
                StructField::Same(x) => FieldVec::Same(x, Default::default()),
                StructField::Counting(firsts) => {
                    assert_eq!(firsts.len() + 1, offsets.len(), "one first value per row");
                    FieldVec::Counting(firsts, Default::default())
                }
            })
            .collect();
        StructListVec {
            fields,
            offsets,
            values,
        }
    }
    /// Number of structs in all rows.
    fn items(&self) -> usize {
        *self.offsets.last().expect("offsets start at 0")
    }
    /// Field `f` as a vector of one value per struct, from now on.
    fn items_mut(&mut self, f: usize) -> &mut Vec<i64> {
        let n = self.items();
        match &self.values[f] {
            FieldVec::Same(x, _) => self.values[f] = FieldVec::Items(vec![*x; n]),
            FieldVec::Counting(firsts, cache) => {
                let cached = cache.get().cloned();
                let items = cached.unwrap_or_else(|| counting_items(&self.offsets, firsts));
                self.values[f] = FieldVec::Items(items);
            }
            FieldVec::Items(_) => {}
        }
        match &mut self.values[f] {
            FieldVec::Items(items) => items,
            _ => unreachable!("made a vector above"),
        }
    }
    /// Appends one struct to the row being built (its fields in order).
    #[inline]
    pub fn push_item(&mut self, item: &[i64]) {
        debug_assert_eq!(item.len(), self.fields.len());
        for (f, &x) in item.iter().enumerate() {
            match &mut self.values[f] {
                FieldVec::Items(v) => v.push(x),
                _ => self.items_mut(f).push(x),
            }
        }
    }
    /// Ends the row being built.
    #[inline]
    pub fn end_row(&mut self) {
        // A push makes every field a vector: with none, nothing was pushed.
        let end = self.values.iter().find_map(|v| match v {
            FieldVec::Items(v) => Some(v.len()),
            _ => None,
        });
        let end = end.unwrap_or_else(|| self.items());
        self.offsets.push(end);
        for v in &mut self.values {
            // An empty row counts from anything.
            if let FieldVec::Counting(firsts, _) = v {
                firsts.push(0);
            }
        }
    }
    /// Number of structs in row `i`.
    pub fn row_len(&self, i: usize) -> usize {
        self.offsets[i + 1] - self.offsets[i]
    }
    /// Every value of field `f`, one per struct (a field stored as one value
    /// is expanded once, on first use).
    fn all(&self, f: usize) -> &[i64] {
        match &self.values[f] {
            FieldVec::Items(v) => v,
            FieldVec::Same(x, cache) => cache.get_or_init(|| vec![*x; self.items()]),
            FieldVec::Counting(firsts, cache) => {
                cache.get_or_init(|| counting_items(&self.offsets, firsts))
            }
        }
    }
    /// Field `f` of the structs of row `i`.
    pub fn field(&self, i: usize, f: usize) -> &[i64] {
        &self.all(f)[self.offsets[i]..self.offsets[i + 1]]
    }
    /// The index of a field.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| *f == name)
    }
    /// Struct `k` of row `i`, its fields in order.
    pub fn item(&self, i: usize, k: usize) -> Vec<i64> {
        let at = self.offsets[i] + k;
        self.values
            .iter()
            .map(|v| match v {
                FieldVec::Items(v) => v[at],
                FieldVec::Same(x, _) => *x,
                FieldVec::Counting(firsts, _) => firsts[i] + k as i64,
            })
            .collect()
    }
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }
    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Offsets (rows + 1, from 0) of each row's structs, for writers.
    pub fn offsets(&self) -> &[usize] {
        &self.offsets
    }
    /// Field `f`'s values as stored, for writers.
    pub fn stored(&self, f: usize) -> FieldItems<'_> {
        match &self.values[f] {
            FieldVec::Items(v) => FieldItems::Items(v),
            FieldVec::Same(x, _) => FieldItems::Same(*x),
            FieldVec::Counting(firsts, _) => FieldItems::Counting(firsts),
        }
    }
    /// Every value of each field, one per struct, for writers that need them.
    pub fn columns(&self) -> Vec<&[i64]> {
        (0..self.values.len()).map(|f| self.all(f)).collect()
    }
    pub(crate) fn extend_from(&mut self, other: &StructListVec) {
        let base = self.items();
        for f in 0..self.values.len() {
            match (&self.values[f], &other.values[f]) {
                // No struct yet (rows of empty lists): the field as the
                // other holds it, one value held once staying so.
                (_, FieldVec::Same(..) | FieldVec::Items(_)) if base == 0 => {
                    self.values[f] = other.values[f].clone();
                    continue;
                }
                (FieldVec::Same(a, _), FieldVec::Same(b, _)) if a == b => {}
                (FieldVec::Counting(..), FieldVec::Counting(b, _)) => {
                    if let FieldVec::Counting(a, _) = &mut self.values[f] {
                        a.extend_from_slice(b);
                    }
                }
                _ => {
                    let more = other.all(f);
                    self.items_mut(f).extend_from_slice(more);
                }
            }
            match &mut self.values[f] {
                FieldVec::Same(_, cache) | FieldVec::Counting(_, cache) => {
                    cache.take();
                }
                FieldVec::Items(_) => {}
            }
        }
        self.offsets
            .extend(other.offsets[1..].iter().map(|o| o + base));
    }
    pub(crate) fn take_rows(&self, rows: &[usize]) -> StructListVec {
        let mut v = StructListVec::new(self.fields, rows.len());
        for &i in rows {
            for k in 0..self.row_len(i) {
                v.push_item(&self.item(i, k));
            }
            v.end_row();
        }
        v
    }
}

/// The values of a field given to [`StructListVec::from_fields`].
#[derive(Clone, Debug, PartialEq)]
pub enum StructField {
    /// One value per struct.
    Items(Vec<i64>),
    /// The same value for every struct.
    Same(i64),
    /// Each row's values count up by one from the row's first: one value
    /// per row (any for an empty row).
    Counting(Vec<i64>),
}

impl PartialEq for StructListVec {
    /// Equal fields, offsets and values, however the values are stored.
    fn eq(&self, other: &StructListVec) -> bool {
        let same = |f: usize| match (&self.values[f], &other.values[f]) {
            (FieldVec::Same(a, _), FieldVec::Same(b, _)) => a == b,
            (FieldVec::Items(a), FieldVec::Items(b)) => a == b,
            (FieldVec::Same(x, _), FieldVec::Items(v))
            | (FieldVec::Items(v), FieldVec::Same(x, _)) => v.iter().all(|y| y == x),
            _ => self.all(f) == other.all(f),
        };
        self.fields == other.fields
            && self.offsets == other.offsets
            && (0..self.values.len()).all(same)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strvec_nulls_and_values() {
        let mut v: StrVec = ["", "a"].into_iter().collect();
        v.push_null();
        v.push("bc");
        assert_eq!(
            v.iter_opt().collect::<Vec<_>>(),
            vec![Some(""), Some("a"), None, Some("bc")]
        );
        assert!(v.has_nulls());
        let t = v.take_rows(&[3, 2]);
        assert_eq!(t.iter_opt().collect::<Vec<_>>(), vec![Some("bc"), None]);
    }

    /// Many distinct labels (past the linear search), repeated and
    /// appended: every row reads back its label, each level once, in order
    /// of first appearance.
    #[test]
    fn dictionaries_with_many_levels() {
        let label = |i: usize| format!("H({},{})", i % 97, i % 89);
        let mut d = DictVec::default();
        for i in 0..20_000 {
            d.push(&label(i));
        }
        assert_eq!(d.levels().len(), 97 * 89);
        assert!((0..20_000).all(|i| d.get(i) == Some(label(i).as_str())));
        let mut e = DictVec::repeat("first", 2);
        e.extend_from(&d);
        e.push("first");
        e.push(&label(5));
        assert_eq!(e.levels().len(), 97 * 89 + 1);
        assert_eq!(e.get(20_002), Some("first"));
        assert_eq!(e.get(20_003), Some(label(5).as_str()));
        assert!((0..20_000).all(|i| e.get(i + 2) == Some(label(i).as_str())));
        assert_eq!(e.codes()[20_003], e.codes()[7]);
    }

    #[test]
    fn int_lists() {
        let mut l = IntListVec::default();
        l.push(&[1, 2]);
        l.push_null();
        l.push(&[]);
        l.push_iter([7]);
        assert_eq!(l.len(), 4);
        assert_eq!(l.get_opt(0), Some(&[1, 2][..]));
        assert_eq!(l.get_opt(1), None);
        assert_eq!(l.get_opt(2), Some(&[][..]));
        assert_eq!(l.get(3), &[7]);
        let mut m = IntListVec::default();
        m.extend_from(&l);
        assert_eq!(m, l);
    }

    #[test]
    fn str_lists_share_the_list_machinery() {
        let mut l = StrListVec::default();
        l.push(["a", "bc"]);
        l.push_null();
        l.push([]);
        l.push(["d"]);
        let rows = |l: &StrListVec| -> Vec<Option<Vec<String>>> {
            (0..l.len())
                .map(|i| {
                    l.is_valid(i)
                        .then(|| l.get(i).map(str::to_string).collect())
                })
                .collect()
        };
        let s = |v: &[&str]| Some(v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(rows(&l), vec![s(&["a", "bc"]), None, s(&[]), s(&["d"])]);
        let t = l.take_rows(&[3, 1, 0]);
        assert_eq!(rows(&t), vec![s(&["d"]), None, s(&["a", "bc"])]);
        let mut m = t.clone();
        m.extend_from(&l);
        assert_eq!(m.len(), 7);
        assert_eq!(rows(&m)[3..], rows(&l)[..]);
        assert_eq!(m.row_len(4), 0);
    }

    #[test]
    fn struct_lists() {
        static F: &[&str] = &["heap", "take"];
        let mut s = StructListVec::new(F, 2);
        s.push_item(&[1, 3]);
        s.push_item(&[2, 4]);
        s.end_row();
        s.end_row();
        assert_eq!(s.len(), 2);
        assert_eq!(s.field(0, 1), &[3, 4]);
        assert_eq!(s.row_len(1), 0);
        assert_eq!(s.item(0, 1), vec![2, 4]);
        assert_eq!(s.take_rows(&[1, 0]).field(1, 0), &[1, 2]);
        let p = StructListVec::from_parts(F, vec![0, 2, 2], vec![vec![1, 2], vec![3, 4]]);
        assert_eq!(p, s);
    }

    /// A field stored as one value reads, compares, grows and appends as
    /// the same values stored one per struct.
    #[test]
    fn struct_fields_stored_once() {
        static F: &[&str] = &["heap", "take"];
        let once = |offsets: Vec<usize>, takes: Vec<i64>| {
            let fields = vec![StructField::Same(1), StructField::Items(takes)];
            StructListVec::from_fields(F, offsets, fields)
        };
        let mut a = once(vec![0, 2, 2, 3], vec![5, 6, 7]);
        let mut b = StructListVec::from_parts(F, vec![0, 2, 2, 3], vec![vec![1; 3], vec![5, 6, 7]]);
        assert_eq!(a, b);
        assert_eq!(a.stored(0), FieldItems::Same(1));
        assert_eq!(b.stored(0), FieldItems::Items(&[1, 1, 1]));
        assert_eq!(a.field(0, 0), &[1, 1]);
        assert_eq!(a.field(1, 0), &[] as &[i64]);
        assert_eq!(a.item(2, 0), vec![1, 7]);
        assert_eq!(a.columns(), vec![&[1, 1, 1][..], &[5, 6, 7][..]]);
        assert_ne!(a, once(vec![0, 2, 2, 3], vec![5, 6, 8]));
        // Appending a column whose field is the same value keeps it once.
        a.extend_from(&once(vec![0, 1], vec![9]));
        assert_eq!(a.stored(0), FieldItems::Same(1));
        assert_eq!(a.field(3, 0), &[1]);
        assert_eq!(a.field(3, 1), &[9]);
        // Appending values stored one per struct, or pushing, stores them so.
        a.extend_from(&once(vec![0, 1], vec![10]).take_rows(&[0]));
        a.push_item(&[2, 11]);
        a.end_row();
        b.extend_from(&once(vec![0, 1], vec![9]));
        b.extend_from(&once(vec![0, 1], vec![10]));
        b.push_item(&[2, 11]);
        b.end_row();
        assert_eq!(a, b);
        assert_eq!(a.stored(0), FieldItems::Items(&[1, 1, 1, 1, 1, 2]));
        let mut c = once(vec![0, 1], vec![4]);
        c.extend_from(&StructListVec::from_parts(
            F,
            vec![0, 1],
            vec![vec![3], vec![4]],
        ));
        assert_eq!(c.field(1, 0), &[3]);
        assert_eq!(c.len(), 2);
        // Rows ended with nothing pushed keep the field stored once.
        c = once(vec![0, 1], vec![4]);
        c.end_row();
        assert_eq!(
            (c.len(), c.row_len(1), c.stored(0)),
            (2, 0, FieldItems::Same(1))
        );
        // Rows of empty lists (a first batch read back without a struct)
        // take the field as the column appended holds it.
        let mut e = StructListVec::new(F, 2);
        e.end_row();
        e.end_row();
        e.extend_from(&once(vec![0, 2], vec![5, 6]));
        assert_eq!(
            (e.stored(0), e.stored(1)),
            (FieldItems::Same(1), FieldItems::Items(&[5, 6]))
        );
        assert_eq!((e.len(), e.row_len(1), e.field(2, 1)), (3, 0, &[5, 6][..]));
    }

    /// A field stored as each row's first value, counting up by one, reads,
    /// compares and appends as the values stored one per struct.
    #[test]
    fn struct_fields_counting_up() {
        static F: &[&str] = &["heap", "take"];
        let counting = |offsets: Vec<usize>, firsts: Vec<i64>| {
            let fields = vec![StructField::Same(1), StructField::Counting(firsts)];
            StructListVec::from_fields(F, offsets, fields)
        };
        // Rows [4, 5, 6], [], [-2].
        let mut a = counting(vec![0, 3, 3, 4], vec![4, 99, -2]);
        let mut b =
            StructListVec::from_parts(F, vec![0, 3, 3, 4], vec![vec![1; 4], vec![4, 5, 6, -2]]);
        assert_eq!(a, b);
        assert_eq!(a.stored(1), FieldItems::Counting(&[4, 99, -2]));
        assert_eq!(a.field(0, 1), &[4, 5, 6]);
        assert_eq!(a.item(2, 0), vec![1, -2]);
        assert_eq!(a.columns()[1], &[4, 5, 6, -2][..]);
        assert_ne!(a, counting(vec![0, 3, 3, 4], vec![4, 99, -1]));
        // Counting rows appended stay counting; an empty row counts too.
        a.extend_from(&counting(vec![0, 2], vec![7]));
        a.end_row();
        assert_eq!(a.stored(1), FieldItems::Counting(&[4, 99, -2, 7, 0]));
        assert_eq!(a.field(3, 1), &[7, 8]);
        b.extend_from(&counting(vec![0, 2], vec![7]));
        b.end_row();
        assert_eq!(a, b);
        // A pushed struct stores the field one value per struct.
        a.push_item(&[1, 3]);
        a.end_row();
        assert_eq!(a.stored(1), FieldItems::Items(&[4, 5, 6, -2, 7, 8, 3]));
        assert_eq!(a.take_rows(&[5, 0]).field(1, 1), &[4, 5, 6]);
    }

    #[test]
    fn enums() {
        static L: &[&str] = &["P", "N"];
        let mut e = EnumVec::new(L, 3);
        e.push(1);
        e.push_null();
        e.push_str("P");
        assert_eq!(
            (0..3).map(|i| e.get(i)).collect::<Vec<_>>(),
            vec![Some("N"), None, Some("P")]
        );
    }
}
