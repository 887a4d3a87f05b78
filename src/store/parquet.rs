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
use parquet::arrow::{ArrowSchemaConverter, ArrowWriter};
use parquet::basic::{Compression, Encoding, Type as PhysicalType, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};

use crate::data::{
    Column, Dataset, DictVec, Dtype, EnumVec, IntListVec, StrListVec, StrVec, StructListVec, Table,
    Values,
};

use super::atomic::write_atomic_with;

/// Rows per row group.
const ROW_GROUP_ROWS: usize = 1 << 17;

/// Writes one part file: the tables of a chunk's cases (all of `ds`), each
/// given the provenance columns, in the declared column order. Each case's
/// table is encoded as it comes (one record batch each), never concatenated.
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
    write_atomic_with(path, |f| {
        let mut w = ArrowWriter::try_new(f, schema.clone(), Some(properties(&schema)?))
            .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        for t in tables {
            let t = t
                .with_label("experiment", provenance.0)
                .with_label("sweep", provenance.1);
            let batch = to_batch(t, ds, &schema)?;
            w.write(&batch)
                .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        }
        w.close()
            .with_context(|| format!("cannot finish Parquet {}", path.display()))?;
        Ok(())
    })
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
        .set_compression(Compression::ZSTD(ZstdLevel::default()))
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
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(f)
        .and_then(|b| b.with_batch_size(1 << 16).build())
        .with_context(|| format!("cannot read Parquet {}", path.display()))?;
    let mut t = Table::new();
    for batch in reader {
        let batch = batch.with_context(|| format!("cannot read Parquet {}", path.display()))?;
        let part =
            from_batch(&batch, ds).with_context(|| format!("while reading {}", path.display()))?;
        t.append(&part)?;
    }
    Ok(t)
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

/// A table as one record batch, its columns in the declared order.
fn to_batch(t: Table, ds: &Dataset, schema: &Arc<Schema>) -> Result<RecordBatch> {
    let mut cols: Vec<(String, Values)> = t.into_columns();
    let mut arrays = Vec::new();
    for decl in ds.stored_columns() {
        let Some(i) = cols.iter().position(|(n, _)| n == decl.name) else {
            bail!("dataset {}: column {} is missing", ds.name, decl.name);
        };
        let (_, v) = cols.swap_remove(i);
        arrays.push(to_array(v, decl)?);
    }
    if let Some((n, _)) = cols.first() {
        bail!("dataset {}: column {n} is not declared", ds.name);
    }
    Ok(RecordBatch::try_new(schema.clone(), arrays)?)
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
    let (o, fields) = s.parts();
    let arrays: Vec<ArrayRef> = fields
        .iter()
        .map(|f| Arc::new(Int64Array::new(ScalarBuffer::from(f.clone()), None)) as ArrayRef)
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
    let cols: Vec<&[i64]> = fields
        .iter()
        .map(|f| {
            st.column_by_name(f)
                .and_then(|c| c.as_primitive_opt::<Int64Type>())
                .map(|c| c.values().as_ref())
                .with_context(|| format!("no integer field {f}"))
        })
        .collect::<Result<_>>()?;
    let mut out = StructListVec::new(fields, rows.len());
    let mut item = vec![0i64; fields.len()];
    for (s, e) in rows.into_iter().map(|r| r.unwrap_or((0, 0))) {
        for k in s..e {
            for (x, c) in item.iter_mut().zip(&cols) {
                *x = c[k];
            }
            out.push_item(&item);
        }
        out.end_row();
    }
    Ok(out)
}
