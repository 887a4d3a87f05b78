//! Typed data: the columnar [`Table`] every stage exchanges, and the
//! [`Dataset`] declarations families make once (column types, meanings,
//! roles). A leaf module: it knows tables, not games or files.

pub mod columns;
pub mod grid;
pub mod schema;
pub mod table;

pub use columns::{
    DictVec, EnumVec, FieldItems, IntListVec, StrListVec, StrVec, StructField, StructListVec,
    counting_items,
};
pub use grid::{GRID_DOC, as_declared, grid_column, with_grid};
pub use schema::{
    Column, Dataset, Derivation, Display, Dtype, PROVENANCE, Role, cell_text, nearest_name,
};
pub use table::{Cell, Table, Values};
