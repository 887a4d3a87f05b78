//! What the heap games (`takeaway`, `octal`) share: the winning-move column
//! of their datasets and how tables show it, and the page script that draws
//! heaps (`heaps.js`, included before each family's `play.js`). The names
//! and docs of the columns stay each family's own.

use crate::data::{Cell, Column, Display, Dtype, Role, Table};

/// The winning moves of a position, as a list of structs whose first field
/// is the heap (1 = A = N1), shown by `display`.
pub const fn winning_column(
    name: &'static str,
    fields: &'static [&'static str],
    doc: &'static str,
    display: Display,
) -> Column {
    Column::new(name, Dtype::StructList(fields), Role::Result, doc).display(display)
}

/// Writes the moves of `row` in the struct-list `column` as tables show
/// them: separated by commas, each with its heap's letter (`A`, `B`…) when
/// `several`, then what `rest` writes from the move's fields (the heap
/// first).
pub fn write_moves(
    t: &Table,
    row: usize,
    column: &str,
    several: bool,
    out: &mut String,
    rest: impl Fn(&[i64], &mut String),
) {
    if let Some(Cell::StructList(l, i)) = t.cell(column, row) {
        for k in 0..l.row_len(i) {
            let m = l.item(i, k);
            if k > 0 {
                out.push(',');
            }
            if several {
                out.push((b'A' + (m[0] as u8).saturating_sub(1)) as char);
            }
            rest(&m, out);
        }
    }
}
