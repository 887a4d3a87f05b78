//! Typed tables to Parquet and back, through polars.
//!
//! Each column is written with the Parquet type its declaration gives:
//! integers `INT64`, text `BYTE_ARRAY (UTF8)`, labels and vocabularies
//! dictionary-encoded, lists as Parquet `LIST`s (of `INT64`, of `UTF8`, or of
//! structs of `INT64` fields). The file's Arrow schema (the `ARROW:schema`
//! key that pyarrow and polars read to restore types) is written by nimlab
//! from the declaration with the long-standing Arrow types — `large_string`,
//! `large_list`, `dictionary<int32, large_string>` — rather than the string
//! views polars uses in memory, which pyarrow before 15 and DuckDB before 1.1
//! cannot open.

use std::io::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail};
use polars::prelude::{
    CategoricalPhysical, Categories, Column as PlColumn, DataFrame, DataType, IntoColumn,
    IntoSeries, KeyValueMetadata, ListBuilderTrait, ListStringChunkedBuilder, NewChunkedArray,
    ParquetCompression, ParquetReader, ParquetWriter, PlSmallStr, SerReader, Series, StringChunked,
    UInt32Chunked,
};
use polars_arrow::array::{Array, ListArray, PrimitiveArray, StructArray};
use polars_arrow::bitmap::Bitmap;
use polars_arrow::datatypes::{ArrowDataType, ArrowSchema, Field as ArrowField, IntegerType};
use polars_arrow::offset::OffsetsBuffer;

use crate::data::{
    Dataset, DictVec, Dtype, EnumVec, IntListVec, StrListVec, StrVec, StructListVec, Table, Values,
};

use super::atomic::write_atomic_with;

/// Rows per row group: below about 2^17 rows the per-group cost dominates.
const ROW_GROUP_ROWS: usize = 1 << 17;

/// Writes one part file: the tables of a chunk's cases (all of `ds`), each
/// given the provenance columns, in the declared column order, as row groups
/// of about [`ROW_GROUP_ROWS`] rows.
pub fn write_part(
    path: &Path,
    ds: &Dataset,
    provenance: (&str, &str),
    tables: Vec<Table>,
) -> Result<()> {
    let order: Vec<&str> = ds.stored_columns().map(|c| c.name).collect();
    let mut all = Table::new();
    for t in tables {
        let t = t
            .with_label("experiment", provenance.0)
            .with_label("sweep", provenance.1)
            .reordered(&order);
        all.append(&t)?;
    }
    if all.columns().is_empty() {
        bail!("no table to write to {}", path.display());
    }
    let mut df = to_dataframe(all, ds)?;
    let meta = KeyValueMetadata::Static(vec![polars_parquet::write::schema_to_metadata_key(
        &arrow_schema(ds),
    )]);
    write_atomic_with(path, |f| {
        let mut buf = std::io::BufWriter::with_capacity(1 << 20, f);
        ParquetWriter::new(&mut buf)
            .with_compression(ParquetCompression::Zstd(None))
            .with_row_group_size(Some(ROW_GROUP_ROWS))
            .with_key_value_metadata(Some(meta))
            .finish(&mut df)
            .with_context(|| format!("cannot write Parquet {}", path.display()))?;
        buf.flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    })
}

/// Reads one part file of dataset `ds` back into a table (provenance included).
pub fn read_part(path: &Path, ds: &Dataset) -> Result<Table> {
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let df = ParquetReader::new(f)
        .finish()
        .with_context(|| format!("cannot read Parquet {}", path.display()))?;
    from_dataframe(&df, ds).with_context(|| format!("while reading {}", path.display()))
}

/// The Arrow schema written into each file (see the module docs).
pub fn arrow_schema(ds: &Dataset) -> ArrowSchema {
    ds.stored_columns()
        .map(|c| {
            let f = ArrowField::new(c.name.into(), arrow_type(c.dtype), true);
            (f.name.clone(), f)
        })
        .collect()
}

fn item(dtype: ArrowDataType) -> ArrowField {
    ArrowField::new("item".into(), dtype, true)
}

fn struct_type(fields: &[&str]) -> ArrowDataType {
    ArrowDataType::Struct(
        fields
            .iter()
            .map(|f| ArrowField::new((*f).into(), ArrowDataType::Int64, true))
            .collect(),
    )
}

fn arrow_type(d: Dtype) -> ArrowDataType {
    match d {
        Dtype::Int => ArrowDataType::Int64,
        Dtype::Float => ArrowDataType::Float64,
        Dtype::Bool => ArrowDataType::Boolean,
        Dtype::Str => ArrowDataType::LargeUtf8,
        Dtype::Cat | Dtype::Enum(_) => ArrowDataType::Dictionary(
            IntegerType::Int32,
            Box::new(ArrowDataType::LargeUtf8),
            false,
        ),
        Dtype::IntList => ArrowDataType::LargeList(Box::new(item(ArrowDataType::Int64))),
        Dtype::StrList => ArrowDataType::LargeList(Box::new(item(ArrowDataType::LargeUtf8))),
        Dtype::StructList(f) => ArrowDataType::LargeList(Box::new(item(struct_type(f)))),
    }
}

/// A table (its columns in the order to write) as a polars `DataFrame`.
fn to_dataframe(t: Table, ds: &Dataset) -> Result<DataFrame> {
    let mut cols = Vec::new();
    for (name, v) in t.into_columns() {
        let Some(decl) = ds.column(&name) else {
            bail!("dataset {}: column {name} is not declared", ds.name);
        };
        cols.push(to_column(&name, v, decl.dtype)?);
    }
    Ok(DataFrame::new_infer_height(cols)?)
}

fn to_column(name: &str, v: Values, dtype: Dtype) -> Result<PlColumn> {
    let pname: PlSmallStr = name.into();
    Ok(match v {
        Values::Int(v) => PlColumn::new(pname, v),
        Values::OptInt(v) => PlColumn::new(pname, v),
        Values::Bool(v) => PlColumn::new(pname, v),
        Values::Float(v) => PlColumn::new(pname, v),
        Values::Str(v) => {
            let ca: StringChunked = v.iter_opt().collect();
            ca.with_name(pname).into_column()
        }
        Values::Dict(d) => {
            let codes = d.codes().iter().map(|&c| Some(c)).collect::<Vec<_>>();
            categorical(pname, d.levels().iter().map(String::as_str), codes)?
        }
        Values::Enum(e) => {
            let codes = e
                .codes
                .iter()
                .map(|&c| (c != EnumVec::NULL).then_some(c as u32))
                .collect();
            categorical(pname, e.levels.iter().copied(), codes)?
        }
        Values::IntList(l) => int_list(pname, &l)?,
        Values::StrList(l) => str_list(pname, &l),
        Values::StructList(s) => struct_list(pname, &s)?,
        Values::Null(n) => Series::full_null(pname, n, &polars_dtype(dtype)?).into_column(),
    })
}

/// A categorical column from its levels and codes. Its categories are
/// private to this column of this file (32-bit codes), so a file's
/// dictionary holds only its own levels.
fn categorical<'a>(
    name: PlSmallStr,
    levels: impl Iterator<Item = &'a str>,
    codes: Vec<Option<u32>>,
) -> Result<PlColumn> {
    let cats = Categories::random(name.clone(), CategoricalPhysical::U32);
    let mapping = cats.mapping();
    let ids: Vec<u32> = levels
        .map(|l| mapping.insert_cat(l))
        .collect::<polars::prelude::PolarsResult<_>>()?;
    let codes = codes.into_iter().map(|c| c.map(|c| ids[c as usize]));
    let codes = UInt32Chunked::from_iter_options(name, codes).into_series();
    let dtype = DataType::from_categories(cats);
    Ok(Series::from_cats_and_dtype(&codes, &dtype, true)?.into_column())
}

/// The polars type a declared column is written with.
fn polars_dtype(d: Dtype) -> Result<DataType> {
    Ok(match d {
        Dtype::Int => DataType::Int64,
        Dtype::Float => DataType::Float64,
        Dtype::Bool => DataType::Boolean,
        Dtype::Str => DataType::String,
        Dtype::Cat | Dtype::Enum(_) => {
            DataType::from_categories(Categories::random("null".into(), CategoricalPhysical::U32))
        }
        Dtype::IntList => DataType::List(Box::new(DataType::Int64)),
        Dtype::StrList => DataType::List(Box::new(DataType::String)),
        Dtype::StructList(f) => DataType::List(Box::new(DataType::Struct(
            f.iter()
                .map(|x| polars::prelude::Field::new((*x).into(), DataType::Int64))
                .collect(),
        ))),
    })
}

fn offsets(o: &[usize]) -> Result<OffsetsBuffer<i64>> {
    let v: Vec<i64> = o.iter().map(|&x| x as i64).collect();
    Ok(OffsetsBuffer::try_from(v)?)
}

fn int_list(name: PlSmallStr, l: &IntListVec) -> Result<PlColumn> {
    let (o, values) = l.parts();
    let validity = l
        .has_nulls()
        .then(|| Bitmap::from_iter((0..l.len()).map(|i| l.is_valid(i))));
    let arr = ListArray::<i64>::try_new(
        ArrowDataType::LargeList(Box::new(item(ArrowDataType::Int64))),
        offsets(o)?,
        PrimitiveArray::from_slice(values).boxed(),
        validity,
    )?;
    Ok(Series::from_arrow(name, arr.boxed())?.into_column())
}

fn str_list(name: PlSmallStr, l: &StrListVec) -> PlColumn {
    let mut b = ListStringChunkedBuilder::new(name, l.len(), l.len() * 2);
    for i in 0..l.len() {
        if l.is_valid(i) {
            b.append_values_iter(l.get(i));
        } else {
            b.append_null();
        }
    }
    b.finish().into_column()
}

fn struct_list(name: PlSmallStr, s: &StructListVec) -> Result<PlColumn> {
    let (o, fields) = s.parts();
    let n = *o.last().unwrap_or(&0);
    let arrays: Vec<Box<dyn Array>> = fields
        .iter()
        .map(|f| PrimitiveArray::from_slice(f).boxed())
        .collect();
    let st = StructArray::try_new(struct_type(s.fields), n, arrays, None)?;
    let arr = ListArray::<i64>::try_new(
        ArrowDataType::LargeList(Box::new(item(struct_type(s.fields)))),
        offsets(o)?,
        st.boxed(),
        None,
    )?;
    Ok(Series::from_arrow(name, arr.boxed())?.into_column())
}

/// A polars `DataFrame` read from a part file, as a table with the
/// declared types.
fn from_dataframe(df: &DataFrame, ds: &Dataset) -> Result<Table> {
    let mut t = Table::new();
    for c in df.columns() {
        let name = c.name().to_string();
        let Some(decl) = ds.column(&name) else {
            bail!("column {name} is not declared in dataset {}", ds.name);
        };
        let s = c.as_materialized_series();
        let v = from_series(s, decl.dtype)
            .with_context(|| format!("column {name} ({})", decl.dtype.doc()))?;
        t.push(&name, v);
    }
    Ok(t)
}

fn from_series(s: &Series, d: Dtype) -> Result<Values> {
    Ok(match d {
        Dtype::Int => {
            let s = s.cast(&DataType::Int64)?;
            let ca = s.i64()?;
            if ca.null_count() > 0 {
                Values::OptInt(ca.iter().collect())
            } else {
                Values::Int(ca.into_no_null_iter().collect())
            }
        }
        Dtype::Float => Values::Float(
            s.cast(&DataType::Float64)?
                .f64()?
                .iter()
                .map(|x| x.unwrap_or(f64::NAN))
                .collect(),
        ),
        Dtype::Bool => Values::Bool(s.bool()?.iter().map(|b| b.unwrap_or(false)).collect()),
        Dtype::Str => {
            let s = s.cast(&DataType::String)?;
            let mut v = StrVec::with_capacity(s.len(), 0);
            for x in s.str()?.iter() {
                v.push_opt(x);
            }
            Values::Str(v)
        }
        Dtype::Cat if s.null_count() > 0 => from_series(s, Dtype::Str)?,
        Dtype::Cat => Values::Dict(read_dict(s)?),
        Dtype::Enum(levels) => {
            let s = s.cast(&DataType::String)?;
            let mut e = EnumVec::new(levels, s.len());
            for x in s.str()?.iter() {
                match x {
                    Some(l) => e.push(
                        e.code_of(l)
                            .with_context(|| format!("{l:?} is not one of {levels:?}"))?,
                    ),
                    None => e.push_null(),
                }
            }
            Values::Enum(e)
        }
        Dtype::IntList => Values::IntList(read_int_list(s)?),
        Dtype::StrList => Values::StrList(read_str_list(s)?),
        Dtype::StructList(fields) => Values::StructList(read_struct_list(s, fields)?),
    })
}

/// Labels read back as a dictionary: distinct strings once, codes per row.
fn read_dict(s: &Series) -> Result<DictVec> {
    let s = s.cast(&DataType::String)?;
    let mut levels: Vec<String> = Vec::new();
    let mut index: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
    let mut codes = Vec::with_capacity(s.len());
    let ca = s.str()?;
    for x in ca.iter() {
        let Some(x) = x else {
            bail!("a label is null");
        };
        let code = *index.entry(x).or_insert_with(|| {
            levels.push(x.to_string());
            (levels.len() - 1) as u32
        });
        codes.push(code);
    }
    Ok(DictVec::from_parts(levels, codes))
}

/// The integers of an arrow array (any integer width), by row.
fn ints_of(arr: &dyn Array) -> Result<Vec<i64>> {
    let s = Series::from_arrow("v".into(), arr.to_boxed())?.cast(&DataType::Int64)?;
    Ok(s.i64()?.iter().map(|x| x.unwrap_or(0)).collect())
}

/// Lists of integers read from the list arrays themselves (offsets and
/// values), not row by row.
fn read_int_list(s: &Series) -> Result<IntListVec> {
    let mut out = IntListVec::with_capacity(s.len(), 0);
    for arr in s.list()?.downcast_iter() {
        let values = ints_of(arr.values().as_ref())?;
        let offsets = arr.offsets().as_slice();
        for i in 0..arr.len() {
            if arr.is_valid(i) {
                out.push(&values[offsets[i] as usize..offsets[i + 1] as usize]);
            } else {
                out.push_null();
            }
        }
    }
    Ok(out)
}

fn read_str_list(s: &Series) -> Result<StrListVec> {
    let ca = s.list()?;
    let mut out = StrListVec::default();
    for row in ca.amortized_iter() {
        match row {
            Some(r) => {
                let r = r.as_ref().cast(&DataType::String)?;
                out.push(r.str()?.iter().map(|x| x.unwrap_or("")));
            }
            None => out.push_null(),
        }
    }
    Ok(out)
}

fn read_struct_list(s: &Series, fields: &'static [&'static str]) -> Result<StructListVec> {
    let mut out = StructListVec::new(fields, s.len());
    let mut item = vec![0i64; fields.len()];
    for arr in s.list()?.downcast_iter() {
        let st = arr
            .values()
            .as_any()
            .downcast_ref::<StructArray>()
            .context("expected a list of structs")?;
        let cols: Vec<Vec<i64>> = fields
            .iter()
            .map(|f| {
                let k = st
                    .fields()
                    .iter()
                    .position(|x| x.name.as_str() == *f)
                    .with_context(|| format!("no field {f}"))?;
                ints_of(st.values()[k].as_ref())
            })
            .collect::<Result<_>>()?;
        let offsets = arr.offsets().as_slice();
        for i in 0..arr.len() {
            for k in offsets[i] as usize..offsets[i + 1] as usize {
                for (x, c) in item.iter_mut().zip(&cols) {
                    *x = c[k];
                }
                out.push_item(&item);
            }
            out.end_row();
        }
    }
    Ok(out)
}
