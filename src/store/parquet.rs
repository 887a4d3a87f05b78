//! Typed tables to Parquet and back, through the Apache Arrow Rust
//! implementation (arrow-rs `parquet`).
//!
//! Each column is written with the Parquet type its declaration gives:
//! integers `INT64`, text `BYTE_ARRAY (UTF8)`, labels and vocabularies
//! dictionary-encoded strings, lists as Parquet `LIST`s (of `INT64`, of
//! `UTF8`, or of groups of `INT64` fields). The file's Arrow schema (the
//! `ARROW:schema` key pyarrow and polars read to restore types) carries
//! long-standing Arrow types — `large_string`, `large_list`,
//! `dictionary<int32, large_string>` — that pyarrow 12 and DuckDB 0.9 open.

use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::builder::{LargeStringBuilder, ListBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int32Array, Int64Array,
    LargeListArray, LargeStringArray, RecordBatch, StructArray, new_null_array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::arrow_writer::{ArrowColumnWriter, compute_leaves};
use parquet::arrow::{ArrowSchemaConverter, ArrowWriter, ProjectionMask};
use parquet::basic::{Compression, Encoding, Type as PhysicalType, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnDescPtr;

use crate::data::{
    Column, Dataset, DictVec, Dtype, EnumVec, IntListVec, StrListVec, StrVec, StructField,
    StructListVec, Table, Values,
};

use super::atomic::write_atomic_with;
use super::chunk;
use super::leaves::{self, Segment};

/// Rows per row group.
const ROW_GROUP_ROWS: usize = 1 << 17;

/// The zstd level of every column chunk (the crate's default).
fn zstd_level() -> ZstdLevel {
    ZstdLevel::default()
}

/// Writes one part file: the tables of a chunk's cases (all of `ds`), each
/// given the provenance columns, in the declared column order, in row groups
/// of [`ROW_GROUP_ROWS`] rows. A column whose values come in runs (a case's
/// constants, labels, vocabularies, nulls) and integer columns are encoded by
/// nimlab ([`leaves`]); the others go through the crate's Arrow column writers, each
/// case's values as they come, never concatenated.
pub fn write_part(
    path: &Path,
    ds: &Dataset,
    provenance: (&str, &str),
    tables: Vec<Table>,
) -> Result<()> {
    if tables.is_empty() {
        bail!("no table to write to {}", path.display());
    }
    let schema = schema(ds);
    let mut values: Vec<Vec<Values>> = ds.stored_columns().map(|_| Vec::new()).collect();
    let mut rows = Vec::with_capacity(tables.len());
    for t in tables {
        let t = t
            .with_label("experiment", provenance.0)
            .with_label("sweep", provenance.1);
        rows.push(t.rows());
        for (acc, v) in values.iter_mut().zip(in_declared_order(t, ds)?) {
            acc.push(v);
        }
    }
    let cols: Vec<Col> = ds
        .stored_columns()
        .zip(values)
        .map(|(decl, vs)| Col::new(decl, vs))
        .collect::<Result<_>>()?;
    write_atomic_with(path, |f| {
        let w = ArrowWriter::try_new(f, schema.clone(), Some(properties(&schema)?))
            .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        let (mut fw, factory) = w.into_serialized_writer()?;
        let descrs = fw.schema_descr().columns().to_vec();
        for (g, group) in row_groups(&rows).iter().enumerate() {
            let writers = factory.create_column_writers(g)?;
            write_row_group(&mut fw, writers, &descrs, &schema, &cols, group)
                .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        }
        fw.close()
            .with_context(|| format!("cannot finish Parquet {}", path.display()))?;
        Ok(())
    })
}

/// One column of a part: its values per table, to be written as runs, or
/// as Arrow arrays (one per table).
enum Col {
    Own(Dtype, Vec<Values>),
    Arrow(Vec<ArrayRef>),
}

impl Col {
    fn new(decl: &Column, mut vs: Vec<Values>) -> Result<Col> {
        for v in &mut vs {
            if let Values::Repeat(one, _) = v
                && !leaves::runs(one)
            {
                *v = v.expanded().into_owned();
            }
        }
        if leaves::encodes(decl.dtype, &vs) {
            return Ok(Col::Own(decl.dtype, vs));
        }
        let arrays = vs
            .into_iter()
            .map(|v| to_array(v, decl))
            .collect::<Result<Vec<_>>>()?;
        let want = arrow_type(decl.dtype);
        if let Some(a) = arrays.iter().find(|a| *a.data_type() != want) {
            bail!(
                "column {}: {} where {want} is declared",
                decl.name,
                a.data_type()
            );
        }
        Ok(Col::Arrow(arrays))
    }
}

/// A table's columns in the declared order (every declared column, nothing else).
fn in_declared_order(t: Table, ds: &Dataset) -> Result<Vec<Values>> {
    let rows = t.rows();
    let mut cols: Vec<(String, Values)> = t.into_columns();
    let mut out = Vec::with_capacity(cols.len());
    for decl in ds.stored_columns() {
        let Some(i) = cols.iter().position(|(n, _)| n == decl.name) else {
            bail!("dataset {}: column {} is missing", ds.name, decl.name);
        };
        let (_, v) = cols.swap_remove(i);
        if v.len() != rows {
            bail!(
                "dataset {}: column {} has {} rows, not {rows}",
                ds.name,
                decl.name,
                v.len()
            );
        }
        out.push(v);
    }
    if let Some((n, _)) = cols.first() {
        bail!("dataset {}: column {n} is not declared", ds.name);
    }
    Ok(out)
}

/// The row groups of a part: runs of (table, rows), [`ROW_GROUP_ROWS`] rows each but the last.
fn row_groups(rows: &[usize]) -> Vec<Vec<(usize, Range<usize>)>> {
    let mut groups = Vec::new();
    let (mut group, mut filled) = (Vec::new(), 0);
    for (t, &n) in rows.iter().enumerate() {
        let mut at = 0;
        while at < n {
            let k = (n - at).min(ROW_GROUP_ROWS - filled);
            group.push((t, at..at + k));
            (at, filled) = (at + k, filled + k);
            if filled == ROW_GROUP_ROWS {
                groups.push(std::mem::take(&mut group));
                filled = 0;
            }
        }
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

/// Leaf columns of a Parquet schema under an Arrow type.
fn leaf_count(t: &DataType) -> usize {
    match t {
        DataType::LargeList(f) | DataType::List(f) => leaf_count(f.data_type()),
        DataType::Struct(fs) => fs.iter().map(|f| leaf_count(f.data_type())).sum(),
        _ => 1,
    }
}

/// Writes one row group: each column as runs or through its Arrow writers
/// (`writers`: one per leaf column of the file, in order).
fn write_row_group<W: Write + Send>(
    fw: &mut SerializedFileWriter<W>,
    writers: Vec<ArrowColumnWriter>,
    descrs: &[ColumnDescPtr],
    schema: &Schema,
    cols: &[Col],
    group: &[(usize, Range<usize>)],
) -> Result<()> {
    let mut writers = writers.into_iter();
    let mut descrs = descrs.iter();
    let mut rg = fw.next_row_group()?;
    for (col, field) in cols.iter().zip(schema.fields()) {
        let leaves = leaf_count(field.data_type());
        let mut ws: Vec<ArrowColumnWriter> = writers.by_ref().take(leaves).collect();
        let ds: Vec<&ColumnDescPtr> = descrs.by_ref().take(leaves).collect();
        match col {
            Col::Own(dtype, vs) => {
                let segs: Vec<Segment> = group.iter().map(|(t, r)| (&vs[*t], r.clone())).collect();
                for (d, enc) in ds.iter().zip(leaves::encode_leaves(&ds, *dtype, &segs)) {
                    chunk::write_chunk(&mut rg, (*d).clone(), enc, zstd_level())?;
                }
            }
            Col::Arrow(arrays) => {
                for (t, range) in group {
                    let a = arrays[*t].slice(range.start, range.len());
                    for (w, leaf) in ws.iter_mut().zip(compute_leaves(field, &a)?) {
                        w.write(&leaf)?;
                    }
                }
                for w in ws {
                    w.close()?.append_to_row_group(&mut rg)?;
                }
            }
        }
    }
    rg.close()?;
    Ok(())
}

/// The Arrow schema of a dataset's files: its stored columns, in order.
fn schema(ds: &Dataset) -> Arc<Schema> {
    let fields: Vec<Field> = ds
        .stored_columns()
        .map(|c| Field::new(c.name, arrow_type(c.dtype), true))
        .collect();
    Arc::new(Schema::new(fields))
}

/// Writer settings, per leaf column: integers delta-encoded (runs, counters
/// and small values pack to a few bits; a dictionary of integers only costs
/// time and space here); strings dictionary-encoded without min/max
/// statistics (they are labels and vocabularies, filtered by equality).
fn properties(schema: &Schema) -> Result<WriterProperties> {
    let mut b = WriterProperties::builder()
        .set_compression(Compression::ZSTD(zstd_level()))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_statistics_enabled(EnabledStatistics::Chunk);
    let leaves = ArrowSchemaConverter::new().convert(schema)?;
    for leaf in leaves.columns() {
        let path = leaf.path().clone();
        b = match leaf.physical_type() {
            PhysicalType::INT64 => b
                .set_column_dictionary_enabled(path.clone(), false)
                .set_column_encoding(path, Encoding::DELTA_BINARY_PACKED),
            PhysicalType::BYTE_ARRAY => {
                b.set_column_statistics_enabled(path, EnabledStatistics::None)
            }
            _ => b,
        };
    }
    Ok(b.build())
}

/// Reads one part file of dataset `ds` back into a table (provenance included).
pub fn read_part(path: &Path, ds: &Dataset) -> Result<Table> {
    read_part_columns(path, ds, &|_| true)
}

/// Reads the columns of one part file of dataset `ds` that `keep` accepts
/// (the others are not decoded), in the file's order.
pub fn read_part_columns(path: &Path, ds: &Dataset, keep: &dyn Fn(&str) -> bool) -> Result<Table> {
    read_part_head(path, ds, keep, usize::MAX)
}

/// [`read_part_columns`] of the part's first `rows` rows at most (the
/// rest is not decoded).
pub fn read_part_head(
    path: &Path,
    ds: &Dataset,
    keep: &dyn Fn(&str) -> bool,
    rows: usize,
) -> Result<Table> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut total = 0;
    let reader = ParquetRecordBatchReaderBuilder::try_new(f)
        .and_then(|b| {
            let roots = b
                .schema()
                .fields()
                .iter()
                .enumerate()
                .filter(|(_, f)| keep(f.name()))
                .map(|(i, _)| i);
            total = usize::try_from(b.metadata().file_metadata().num_rows()).unwrap_or(0);
            let mask = ProjectionMask::roots(b.parquet_schema(), roots);
            b.with_projection(mask)
                .with_batch_size(rows.clamp(1, 1 << 16))
                .with_limit(rows)
                .build()
        })
        .with_context(|| format!("cannot read Parquet {}", path.display()))?;
    let mut t = Table::new();
    for batch in reader {
        let batch = batch.with_context(|| format!("cannot read Parquet {}", path.display()))?;
        let part =
            from_batch(&batch, ds).with_context(|| format!("while reading {}", path.display()))?;
        t.append_owned(part)?;
        t.reserve_rows(total.min(rows));
    }
    Ok(t)
}

/// The rows of a part file, from its footer (nothing decoded).
pub fn part_rows(path: &Path) -> Result<usize> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let b = ParquetRecordBatchReaderBuilder::try_new(f)
        .with_context(|| format!("cannot read Parquet {}", path.display()))?;
    Ok(usize::try_from(b.metadata().file_metadata().num_rows()).unwrap_or(0))
}

/// The Arrow type of a declared column.
pub fn arrow_type(d: Dtype) -> DataType {
    let item = |t: DataType| Arc::new(Field::new("item", t, true));
    match d {
        Dtype::Int => DataType::Int64,
        Dtype::Float => DataType::Float64,
        Dtype::Bool => DataType::Boolean,
        Dtype::Str => DataType::LargeUtf8,
        Dtype::Cat | Dtype::Enum(_) => {
            DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::LargeUtf8))
        }
        Dtype::IntList => DataType::LargeList(item(DataType::Int64)),
        Dtype::StrList => DataType::LargeList(item(DataType::LargeUtf8)),
        Dtype::StructList(f) => DataType::LargeList(item(DataType::Struct(struct_fields(f)))),
    }
}

fn struct_fields(f: &[&str]) -> Fields {
    f.iter()
        .map(|x| Field::new(*x, DataType::Int64, true))
        .collect()
}

fn validity(n: usize, valid: impl Fn(usize) -> bool) -> Option<NullBuffer> {
    let v: Vec<bool> = (0..n).map(valid).collect();
    v.iter().any(|x| !x).then(|| NullBuffer::from(v))
}

fn to_array(v: Values, decl: &Column) -> Result<ArrayRef> {
    Ok(match v {
        Values::Int(x) => Arc::new(Int64Array::new(ScalarBuffer::from(x), None)),
        Values::OptInt(x) => Arc::new(Int64Array::from(x)),
        Values::Bool(x) => Arc::new(BooleanArray::from(x)),
        Values::Float(x) => Arc::new(Float64Array::new(ScalarBuffer::from(x), None)),
        Values::OptFloat(x) => Arc::new(Float64Array::from(x)),
        Values::Str(x) => Arc::new(x.iter_opt().collect::<LargeStringArray>()),
        Values::Dict(d) => dictionary(
            d.codes().iter().map(|&c| Some(c as i32)),
            d.levels().iter().map(String::as_str),
        )?,
        Values::Enum(e) => dictionary(
            e.codes
                .iter()
                .map(|&c| (c != EnumVec::NULL).then_some(c as i32)),
            e.levels.iter().copied(),
        )?,
        Values::IntList(l) => int_list(&l)?,
        Values::StrList(l) => str_list(&l),
        Values::StructList(s) => struct_list(&s)?,
        Values::Null(n) => new_null_array(&arrow_type(decl.dtype), n),
        v @ Values::Repeat(..) => return to_array(v.expanded().into_owned(), decl),
    })
}

fn dictionary<'a>(
    codes: impl Iterator<Item = Option<i32>>,
    levels: impl Iterator<Item = &'a str>,
) -> Result<ArrayRef> {
    let keys: Int32Array = codes.collect();
    let values: LargeStringArray = levels.map(Some).collect();
    Ok(Arc::new(DictionaryArray::<Int32Type>::try_new(
        keys,
        Arc::new(values),
    )?))
}

fn offsets(o: &[usize]) -> OffsetBuffer<i64> {
    OffsetBuffer::new(ScalarBuffer::from(
        o.iter().map(|&x| x as i64).collect::<Vec<_>>(),
    ))
}

fn int_list(l: &IntListVec) -> Result<ArrayRef> {
    let (o, values) = l.parts();
    let field = Arc::new(Field::new("item", DataType::Int64, true));
    let values = Int64Array::new(ScalarBuffer::from(values.to_vec()), None);
    let nulls = validity(l.len(), |i| l.is_valid(i));
    Ok(Arc::new(LargeListArray::try_new(
        field,
        offsets(o),
        Arc::new(values),
        nulls,
    )?))
}

fn str_list(l: &StrListVec) -> ArrayRef {
    let mut b = ListBuilder::new(LargeStringBuilder::new());
    for i in 0..l.len() {
        if l.is_valid(i) {
            for s in l.get(i) {
                b.values().append_value(s);
            }
            b.append(true);
        } else {
            b.append(false);
        }
    }
    let list = b.finish();
    // Written as a large list, like every list.
    let (field, offs, values, nulls) = list.into_parts();
    let o: Vec<i64> = offs.iter().map(|&x| x as i64).collect();
    Arc::new(LargeListArray::new(
        field,
        OffsetBuffer::new(ScalarBuffer::from(o)),
        values,
        nulls,
    ))
}

fn struct_list(s: &StructListVec) -> Result<ArrayRef> {
    let o = s.offsets();
    let arrays: Vec<ArrayRef> = s
        .columns()
        .into_iter()
        .map(|f| Arc::new(Int64Array::new(ScalarBuffer::from(f.to_vec()), None)) as ArrayRef)
        .collect();
    let st = StructArray::try_new(struct_fields(s.fields), arrays, None)?;
    let field = Arc::new(Field::new("item", st.data_type().clone(), true));
    Ok(Arc::new(LargeListArray::try_new(
        field,
        offsets(o),
        Arc::new(st),
        None,
    )?))
}

/// A record batch read from a part file, as a table with the declared types.
fn from_batch(b: &RecordBatch, ds: &Dataset) -> Result<Table> {
    let mut t = Table::new();
    for (field, col) in b.schema().fields().iter().zip(b.columns()) {
        let Some(decl) = ds.column(field.name()) else {
            bail!(
                "column {} is not declared in dataset {}",
                field.name(),
                ds.name
            );
        };
        let v = from_array(col.as_ref(), decl.dtype)
            .with_context(|| format!("column {} ({})", decl.name, decl.dtype.doc()))?;
        t.push(decl.name, v);
    }
    Ok(t)
}

fn from_array(a: &dyn Array, d: Dtype) -> Result<Values> {
    Ok(match d {
        Dtype::Int => {
            let x = a
                .as_primitive_opt::<Int64Type>()
                .context("expected integers")?;
            if x.null_count() > 0 {
                Values::OptInt(x.iter().collect())
            } else {
                Values::Int(x.values().to_vec())
            }
        }
        Dtype::Float => {
            let x = a
                .as_primitive_opt::<Float64Type>()
                .context("expected floats")?;
            if x.null_count() > 0 {
                Values::OptFloat(x.iter().collect())
            } else {
                Values::Float(x.values().to_vec())
            }
        }
        Dtype::Bool => Values::Bool(
            a.as_boolean_opt()
                .context("expected booleans")?
                .iter()
                .map(|x| x.unwrap_or(false))
                .collect(),
        ),
        Dtype::Str => Values::Str(strings(a)?),
        Dtype::Cat => read_dict(a)?,
        Dtype::Enum(levels) => Values::Enum(read_enum(a, levels)?),
        Dtype::IntList => Values::IntList(read_int_list(a)?),
        Dtype::StrList => Values::StrList(read_str_list(a)?),
        Dtype::StructList(fields) => Values::StructList(read_struct_list(a, fields)?),
    })
}

/// Text of a string or dictionary array, nulls kept.
fn strings(a: &dyn Array) -> Result<StrVec> {
    let mut v = StrVec::with_capacity(a.len(), 0);
    if let Some(d) = a.as_dictionary_opt::<Int32Type>() {
        let values = strings(d.values().as_ref())?;
        for k in d.keys().iter() {
            v.push_opt(k.and_then(|k| values.get_opt(k as usize)));
        }
    } else if let Some(s) = a.as_string_opt::<i64>() {
        s.iter().for_each(|x| v.push_opt(x));
    } else if let Some(s) = a.as_string_opt::<i32>() {
        s.iter().for_each(|x| v.push_opt(x));
    } else {
        bail!("expected text, found {}", a.data_type());
    }
    Ok(v)
}

/// Labels: a dictionary (its own levels and codes), or text with nulls.
fn read_dict(a: &dyn Array) -> Result<Values> {
    if a.null_count() > 0 {
        return Ok(Values::Str(strings(a)?));
    }
    if let Some(d) = a.as_dictionary_opt::<Int32Type>() {
        let levels = strings(d.values().as_ref())?;
        let levels: Vec<String> = levels.iter().map(str::to_string).collect();
        let codes: Vec<u32> = d.keys().values().iter().map(|&k| k as u32).collect();
        return Ok(Values::Dict(DictVec::from_parts(levels, codes)));
    }
    let mut d = DictVec::default();
    strings(a)?.iter().for_each(|s| d.push(s));
    Ok(Values::Dict(d))
}

fn read_enum(a: &dyn Array, levels: &'static [&'static str]) -> Result<EnumVec> {
    let s = strings(a)?;
    let mut e = EnumVec::new(levels, s.len());
    for x in s.iter_opt() {
        match x {
            Some(l) => e.push(
                e.code_of(l)
                    .with_context(|| format!("{l:?} is not one of {levels:?}"))?,
            ),
            None => e.push_null(),
        }
    }
    Ok(e)
}

/// Each row of a list array: its item range, or `None` for a null list.
type ListRows = Vec<Option<(usize, usize)>>;

/// The rows of a list array and its items, any offset width.
fn list_rows(a: &dyn Array) -> Result<(ListRows, ArrayRef)> {
    let rows = |o: &[i64], l: &dyn Array| -> ListRows {
        (0..l.len())
            .map(|i| l.is_valid(i).then(|| (o[i] as usize, o[i + 1] as usize)))
            .collect()
    };
    if let Some(l) = a.as_list_opt::<i64>() {
        let o: Vec<i64> = l.offsets().iter().copied().collect();
        return Ok((rows(&o, l), l.values().clone()));
    }
    if let Some(l) = a.as_list_opt::<i32>() {
        let o: Vec<i64> = l.offsets().iter().map(|&x| x as i64).collect();
        return Ok((rows(&o, l), l.values().clone()));
    }
    bail!("expected a list, found {}", a.data_type())
}

fn read_int_list(a: &dyn Array) -> Result<IntListVec> {
    let (rows, values) = list_rows(a)?;
    let v = values
        .as_primitive_opt::<Int64Type>()
        .context("expected a list of integers")?
        .values();
    let mut out = IntListVec::with_capacity(rows.len(), v.len());
    for r in rows {
        out.push_opt(r.map(|(s, e)| &v[s..e]));
    }
    Ok(out)
}

fn read_str_list(a: &dyn Array) -> Result<StrListVec> {
    let (rows, values) = list_rows(a)?;
    let v = strings(values.as_ref())?;
    let mut out = StrListVec::default();
    for r in rows {
        match r {
            Some((s, e)) => out.push((s..e).map(|k| v.get(k))),
            None => out.push_null(),
        }
    }
    Ok(out)
}

fn read_struct_list(a: &dyn Array, fields: &'static [&'static str]) -> Result<StructListVec> {
    let (rows, values) = list_rows(a)?;
    let st = values
        .as_struct_opt()
        .context("expected a list of structs")?;
    if st.null_count() > 0 {
        bail!("a list holds a null struct; its fields {fields:?} are integers");
    }
    let cols: Vec<&[i64]> = fields
        .iter()
        .map(|f| {
            let c = st
                .column_by_name(f)
                .and_then(|c| c.as_primitive_opt::<Int64Type>())
                .with_context(|| format!("no integer field {f}"))?;
            if c.null_count() > 0 {
                bail!("field {f} of the structs holds nulls; it is an integer");
            }
            Ok(c.values().as_ref())
        })
        .collect::<Result<_>>()?;
    // Each row's items, a null list read as an empty one.
    let ranges: Vec<(usize, usize)> = rows.into_iter().map(|r| r.unwrap_or((0, 0))).collect();
    let mut offsets = Vec::with_capacity(ranges.len() + 1);
    offsets.push(0);
    for &(s, e) in &ranges {
        offsets.push(offsets[offsets.len() - 1] + (e - s));
    }
    // Each field copied once, at its size; a field of one value throughout
    // (the heap of one-heap moves) is held as that value, as it was written.
    let field = |c: &[i64]| {
        let mut items = ranges.iter().flat_map(|&(s, e)| &c[s..e]);
        match items.next() {
            Some(&x) if items.all(|&y| y == x) => StructField::Same(x),
            _ => {
                let mut v = Vec::with_capacity(offsets[offsets.len() - 1]);
                ranges
                    .iter()
                    .for_each(|&(s, e)| v.extend_from_slice(&c[s..e]));
                StructField::Items(v)
            }
        }
    };
    let values = cols.iter().map(|c| field(c)).collect();
    Ok(StructListVec::from_fields(fields, offsets, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{Cell, FieldItems, Role};

    static VOCAB: &[&str] = &["P", "N"];
    static FIELDS: &[&str] = &["heap", "take"];
    static COLUMNS: &[Column] = &[
        Column::new("k", Dtype::Cat, Role::Label, "label"),
        Column::new("c", Dtype::Int, Role::Param, "constant per table"),
        Column::new("v", Dtype::Int, Role::Position, "varying"),
        Column::new("o", Dtype::Int, Role::Result, "with nulls").nullable(),
        Column::new("b", Dtype::Bool, Role::Param, "constant per table"),
        Column::new("bv", Dtype::Bool, Role::Result, "varying"),
        Column::new("e", Dtype::Enum(VOCAB), Role::Outcome, "vocabulary").nullable(),
        Column::new("l", Dtype::IntList, Role::Result, "lists").nullable(),
        Column::new(
            "s",
            Dtype::StructList(FIELDS),
            Role::Result,
            "lists of structs",
        ),
        Column::new("t", Dtype::Str, Role::Result, "text").nullable(),
        Column::new("f", Dtype::Float, Role::Timing, "floats").nullable(),
        Column::new("zl", Dtype::IntList, Role::Result, "no list").nullable(),
    ];
    static TEST: Dataset = Dataset {
        name: "test",
        doc: "every kind of column",
        groups: &[COLUMNS],
    };

    /// Table `t` of `n` rows: constants, runs, nulls, lists with empty and
    /// null rows, values of every sign and size; in odd tables, a field of
    /// the structs stored as one value.
    fn table(t: i64, n: usize) -> Table {
        let m = n as i64;
        let mut d = DictVec::default();
        let mut e = EnumVec::new(VOCAB, n);
        let mut l = IntListVec::default();
        let mut s = StructListVec::new(FIELDS, n);
        let mut txt = StrVec::default();
        for i in 0..n as i64 {
            d.push(if (i / 7 + t) % 3 == 0 {
                "odd (7)"
            } else {
                "A(2,7)"
            });
            match (i + t) % 5 {
                0 => e.push_null(),
                r => e.push((r % 2) as u8),
            }
            match i % 4 {
                0 => l.push_null(),
                1 => l.push(&[]),
                _ => l.push_iter((0..i % 9).map(|x| x * x - t)),
            }
            for k in 0..(i + t) % 4 {
                s.push_item(&[1, i - k]);
            }
            s.end_row();
            txt.push(&format!("row {i}"));
        }
        if t % 2 == 1 {
            // The heap field stored once (as one-heap moves are); in every
            // other such table, each row's takes counting up by one from
            // a first take (as interval rules' are).
            let takes = match t % 4 {
                3 => StructField::Counting((0..m).map(|i| (i * 37) % 301 - 150).collect()),
                _ => StructField::Items(s.columns()[1].to_vec()),
            };
            let fields = vec![StructField::Same(1), takes];
            s = StructListVec::from_fields(FIELDS, s.offsets().to_vec(), fields);
        }
        Table::new()
            .with("k", Values::Dict(d))
            .with("c", Values::Int(vec![t * 1_000_003 - 5; n]))
            .with(
                "v",
                Values::Int((0..m).map(|i| (i * i * 7919) % 104_729 - i * t).collect()),
            )
            .with(
                "o",
                match t % 2 {
                    0 => Values::OptInt(
                        (0..m)
                            .map(|i| (i % 3 != 0).then_some(i64::MAX - i))
                            .collect(),
                    ),
                    _ => Values::Null(n),
                },
            )
            .with("b", Values::Bool(vec![t % 2 == 1; n]))
            .with(
                "bv",
                Values::Bool((0..m).map(|i| (i / 3 + t) % 2 == 0).collect()),
            )
            .with("e", Values::Enum(e))
            .with("l", Values::IntList(l))
            .with("s", Values::StructList(s))
            .with("t", Values::Str(txt))
            .with("f", Values::Float((0..m).map(|i| i as f64 / 8.0).collect()))
            .with("zl", Values::Null(n))
    }

    /// Every cell of `tables` as text, in order, experiment and sweep first.
    fn cells(tables: &[Table]) -> Vec<Vec<String>> {
        let mut out = Vec::new();
        for t in tables {
            for i in 0..t.rows() {
                let row = TEST.stored_columns().map(|c| match t.cell(c.name, i) {
                    Some(Cell::Null) => "∅".to_string(),
                    Some(x) => x.to_string(),
                    None => "absent".to_string(),
                });
                out.push(row.collect());
            }
        }
        out
    }

    fn expected(tables: &[Table]) -> Vec<Vec<String>> {
        let tables: Vec<Table> = tables
            .iter()
            .map(|t| {
                t.clone()
                    .with_label("experiment", "x")
                    .with_label("sweep", "s")
            })
            .collect();
        cells(&tables)
    }

    /// The crate's own writer (the previous way), as a reference for the
    /// physical files: one record batch per table.
    fn write_with_arrow_writer(path: &Path, tables: &[Table]) {
        let schema = schema(&TEST);
        let f = std::fs::File::create(path).unwrap();
        let mut w =
            ArrowWriter::try_new(f, schema.clone(), Some(properties(&schema).unwrap())).unwrap();
        for t in tables {
            let t = t
                .clone()
                .with_label("experiment", "x")
                .with_label("sweep", "s");
            let cols = in_declared_order(t, &TEST).unwrap();
            let arrays = TEST
                .stored_columns()
                .zip(cols)
                .map(|(decl, v)| to_array(v, decl).unwrap())
                .collect();
            w.write(&RecordBatch::try_new(schema.clone(), arrays).unwrap())
                .unwrap();
        }
        w.close().unwrap();
    }

    #[test]
    fn every_kind_of_column_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        // A table across a row group boundary, small ones around it; then
        // many one-row tables (constants that are not runs).
        let cases: [Vec<Table>; 2] = [
            vec![
                table(0, 5),
                table(1, ROW_GROUP_ROWS + 9_000),
                table(3, 50_000),
                table(2, 3),
            ],
            (0..300).map(|t| table(t, 1 + (t as usize % 2))).collect(),
        ];
        for (k, tables) in cases.iter().enumerate() {
            let ours = dir.path().join(format!("ours-{k}.parquet"));
            let theirs = dir.path().join(format!("theirs-{k}.parquet"));
            write_part(&ours, &TEST, ("x", "s"), tables.clone()).unwrap();
            write_with_arrow_writer(&theirs, tables);
            let a = read_part(&ours, &TEST).unwrap();
            let b = read_part(&theirs, &TEST).unwrap();
            let want = expected(tables);
            for (name, got) in [("ours", cells(&[a])), ("the crate's", cells(&[b]))] {
                assert_eq!(got.len(), want.len());
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    assert_eq!(g, w, "{name}: row {i} of case {k}");
                }
            }
        }
    }

    /// The head of a part is its first rows, as a whole read gives them,
    /// and no more (a part of 70,000 rows read for 4,096; fewer rows than
    /// asked: all of them).
    #[test]
    fn a_parts_head_is_its_first_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        write_part(
            &path,
            &TEST,
            ("x", "s"),
            vec![table(0, 20_000), table(1, 50_000)],
        )
        .unwrap();
        let names: Vec<&str> = TEST.stored_columns().map(|c| c.name).collect();
        let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
        let (v, e) = (at("v"), at("e"));
        let pick = |t: Table| -> Vec<(String, String)> {
            cells(&[t])
                .into_iter()
                .map(|r| (r[v].clone(), r[e].clone()))
                .collect()
        };
        let whole = pick(read_part(&path, &TEST).unwrap());
        for rows in [1, 4096, 20_001, 100_000] {
            let keep = |n: &str| n == "v" || n == "e";
            let head = read_part_head(&path, &TEST, &keep, rows).unwrap();
            assert_eq!(head.rows(), rows.min(70_000));
            assert_eq!(pick(head), whole[..rows.min(70_000)], "{rows} rows");
        }
    }

    /// A field of the structs with one value throughout is read back held
    /// as that value (as the families hold a one-heap move's heap), the
    /// others one value per struct; the reader's copy is the values'
    /// size, whatever the rows.
    #[test]
    fn a_field_of_one_value_is_read_back_held_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        // Table 1: odd, its heap field stored once; rows with 0–3 structs.
        write_part(&path, &TEST, ("x", "s"), vec![table(1, 1000)]).unwrap();
        let t = read_part(&path, &TEST).unwrap();
        let Some(Values::StructList(s)) = t.column("s") else {
            panic!("no struct list read back");
        };
        assert_eq!(s.stored(0), FieldItems::Same(1));
        let FieldItems::Items(takes) = s.stored(1) else {
            panic!("the takes vary: {:?}", s.stored(1));
        };
        // Rows i with (i + 1) % 4 structs: 0 + 1 + 2 + 3 per four rows.
        assert_eq!(takes.len(), 1000 / 4 * 6);
        assert_eq!(s.field(2, 1), &[2, 1, 0]);
    }

    /// `n` rows of row `at` of `t`, each column's value held once
    /// ([`Values::Repeat`]) or one per row.
    fn constant(t: &Table, at: usize, n: usize, once: bool) -> Table {
        if !once {
            return t.take_rows(&vec![at; n]);
        }
        let mut out = Table::new();
        for (name, v) in t.take_rows(&[at]).into_columns() {
            out.push(&name, Values::repeat(v, n));
        }
        out
    }

    /// Columns of one value held once are written as the same bytes as
    /// held one per row, and read back as those values: every kind (the
    /// rows picked give nulls, empty lists, lists of one and of several
    /// items), in tables of many rows, of fewer than 16, and of none.
    #[test]
    fn values_held_once_write_the_same_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let sizes = [(0, 40_000), (1, 3), (2, 0), (3, 20), (4, 150_000)];
        for at in [0, 1, 2, 3, 5] {
            let source: Vec<Table> = (0..5).map(|t| table(t, 8)).collect();
            let tables = |once: bool| -> Vec<Table> {
                let mut ts: Vec<Table> = sizes
                    .iter()
                    .map(|&(t, n)| constant(&source[t], at, n, once))
                    .collect();
                ts.push(table(5, 30));
                ts
            };
            let (held, plain) = (tables(true), tables(false));
            assert!(matches!(held[0].column("c"), Some(Values::Repeat(..))));
            assert_eq!(held, plain);
            let (a, b) = (dir.path().join("a.parquet"), dir.path().join("b.parquet"));
            write_part(&a, &TEST, ("x", "s"), held.clone()).unwrap();
            write_part(&b, &TEST, ("x", "s"), plain.clone()).unwrap();
            assert_eq!(
                std::fs::read(&a).unwrap(),
                std::fs::read(&b).unwrap(),
                "row {at}"
            );
            assert_eq!(cells(&[read_part(&a, &TEST).unwrap()]), expected(&plain));
        }
    }

    #[test]
    fn statistics_and_row_groups_as_the_crate_writes_them() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let dir = tempfile::tempdir().unwrap();
        let tables = vec![table(1, 70_000), table(3, 70_000), table(2, 70_000)];
        let (ours, theirs) = (dir.path().join("a.parquet"), dir.path().join("b.parquet"));
        write_part(&ours, &TEST, ("x", "s"), tables.clone()).unwrap();
        write_with_arrow_writer(&theirs, &tables);
        let meta = |p: &Path| {
            let r = SerializedFileReader::new(std::fs::File::open(p).unwrap()).unwrap();
            r.metadata().clone()
        };
        let (a, b) = (meta(&ours), meta(&theirs));
        assert_eq!(a.num_row_groups(), b.num_row_groups());
        for (ga, gb) in a.row_groups().iter().zip(b.row_groups()) {
            assert_eq!(ga.num_rows(), gb.num_rows());
            for (ca, cb) in ga.columns().iter().zip(gb.columns()) {
                let path = ca.column_path().string();
                let stat = |c: &parquet::file::metadata::ColumnChunkMetaData| {
                    c.statistics().map(|s| {
                        (
                            s.min_bytes_opt().map(<[u8]>::to_vec),
                            s.max_bytes_opt().map(<[u8]>::to_vec),
                            s.null_count_opt(),
                        )
                    })
                };
                assert_eq!(stat(ca), stat(cb), "statistics of {path}");
                assert_eq!(ca.num_values(), cb.num_values(), "levels of {path}");
            }
        }
    }
}
