//! The formulas a sweep's data propose, found by the declared roles: every
//! closed-form column of its datasets, and the simple forms fitted to its
//! two-coordinate loss sets ([`crate::fit`]).

use std::path::Path;

use anyhow::Result;

use super::blocks::{Block, MAX_TABLE_ROWS, cell, code, href, rel};
use crate::data::{Dataset, Dtype, Role, Table, cell_text};
use crate::fit;
use crate::store::{SweepDir, write_atomic};

/// A row's name: its labels, then its categorical parameters (`max:5 ·
/// grundy`, `A(2,y) · outcome · maximal · normal`, `sides · max:3`).
fn row_label(t: &Table, ds: &Dataset, row: usize) -> String {
    let naming = |c: &&crate::data::Column| {
        c.role == Role::Label
            || (c.role == Role::Param && matches!(c.dtype, Dtype::Cat | Dtype::Enum(_)))
    };
    let mut parts = Vec::new();
    for c in ds.columns().filter(naming) {
        let mut s = String::new();
        cell_text(t, c.name, row, Some(c), &mut s);
        if !s.is_empty() && !parts.contains(&s) {
            parts.push(s);
        }
    }
    parts.join(" · ")
}

/// Closed forms of every dataset that declares one: a table of the first rows.
pub fn closed_forms(dir: &SweepDir, out: &Path, blocks: &mut Vec<Block>) -> Result<()> {
    for ds in dir.present() {
        let forms = ds.with_role(Role::ClosedForm);
        let Some(form) = forms.first() else { continue };
        let Some(t) = dir.read_lists_named(ds.name, &|n| n == form.name)? else {
            continue;
        };
        let status = ds.column(crate::period::STATUS);
        let link = href(&rel(&dir.dataset_dir(ds.name), out));
        let mut rows = Vec::new();
        for i in 0..t.rows() {
            let text = |c: &crate::data::Column| {
                let mut s = String::new();
                cell_text(&t, c.name, i, Some(c), &mut s);
                s
            };
            let f = text(form);
            rows.push(vec![
                cell(&row_label(&t, ds, i)),
                cell(&status.map(text).unwrap_or_default()),
                cell(if f.is_empty() { "no period found" } else { &f }),
            ]);
        }
        let head = ["sequence", "status", "closed form"];
        let csv_path = dir.tables_dir().join(format!("forms-{}.csv", ds.name));
        write_csv(&csv_path, &head, &rows)?;
        rows.truncate(MAX_TABLE_ROWS);
        blocks.push(Block::Para(format!(
            "**Proposed formulas** ({}: proven = a theorem covers the repeat, observed = seen on the range given). Data: [{}]({link}/) · [CSV]({})",
            ds.doc.trim_end_matches('.'),
            ds.name,
            href(&rel(&csv_path, out))
        )));
        blocks.push(Block::Table(
            head.iter().map(|h| h.to_string()).collect(),
            rows,
        ));
        if t.rows() > MAX_TABLE_ROWS {
            blocks.push(Block::Para(format!(
                "… {} more rows in [{}]({link}/).",
                t.rows() - MAX_TABLE_ROWS,
                ds.name
            )));
        }
    }
    Ok(())
}

/// Rows read to tell whether a dataset may be a plane ([`plane_forms`]).
const HEAD_ROWS: usize = 4096;

/// Two-coordinate loss sets: the simple forms, written to `forms.md` beside
/// the sweep's tables and listed inline.
pub fn plane_forms(dir: &SweepDir, title: &str, out: &Path, blocks: &mut Vec<Block>) -> Result<()> {
    for ds in dir.present() {
        if ds.with_role(Role::Outcome).is_empty() || ds.with_role(Role::Position).len() < 2 {
            continue;
        }
        // The first rows' position columns decide (a large dataset is read
        // whole only when it is a plane: a million rows of one heap took
        // 100 MB to find that they are not).
        let positions = ds.with_role(Role::Position);
        let is_position = |n: &str| positions.iter().any(|c| c.name == n);
        let Some(head) = dir.read_first(ds.name, &is_position, HEAD_ROWS)? else {
            continue;
        };
        if !ds.may_be_plane(&head) {
            continue;
        }
        // The fit reads the plane's coordinates, outcomes and labels:
        // no column of lists (a position's winning moves).
        let Some(t) = dir.read_lists_named(ds.name, &|_| false)? else {
            continue;
        };
        let Some((x, y, outcome)) = ds.plane(&t) else {
            continue;
        };
        // A label that leaves out a parameter (a rule's `play`) is a set
        // per value of it.
        let parameters: Vec<&str> = ds.with_role(Role::Param).iter().map(|c| c.name).collect();
        let others: Vec<&str> = ds
            .with_role(Role::Position)
            .iter()
            .map(|c| c.name)
            .filter(|&c| c != x && c != y)
            .collect();
        let sp = fit::FitSpec {
            x,
            y,
            outcome,
            member: "P",
            group: ds.with_role(Role::Label).first().map(|c| c.name),
            split: &parameters,
            others: &others,
        };
        let fits = fit::fit_forms(&t, &sp)?;
        let md = fit::render_markdown(&format!("Simple forms of the loss sets — {title}"), &fits);
        let path = dir.tables_dir().join("forms.md");
        write_atomic(&path, md.as_bytes())?;
        let csv_path = dir.tables_dir().join("forms.csv");
        let rows: Vec<Vec<String>> = fits
            .iter()
            .map(|f| {
                vec![
                    f.group.clone(),
                    f.form.clone(),
                    f.parameters.clone(),
                    f.fits.to_string(),
                    f.rows.to_string(),
                    f.counterexample.clone(),
                ]
            })
            .collect();
        let head = [
            "group",
            "form",
            "parameters",
            "fits",
            "rows",
            "counterexample",
        ];
        write_csv(&csv_path, &head, &rows)?;
        forms_list(
            &fits,
            &rel(&path, out),
            &rel(&csv_path, out),
            (x, y),
            blocks,
        );
    }
    Ok(())
}

/// A table as CSV (the csv crate), written atomically: what a student opens
/// in a spreadsheet beside the table shown. Cells as shown, Markdown
/// escapes (`\|`) undone.
fn write_csv(path: &Path, head: &[&str], rows: &[Vec<String>]) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(head)?;
    for r in rows {
        w.write_record(r.iter().map(|c| c.replace("\\|", "|")))?;
    }
    write_atomic(path, &w.into_inner()?)?;
    Ok(())
}

fn forms_list(
    fits: &[fit::FormFit],
    link: &str,
    csv: &str,
    (x, y): (&str, &str),
    blocks: &mut Vec<Block>,
) {
    let mut groups: Vec<&str> = Vec::new();
    for f in fits {
        if !groups.contains(&f.group.as_str()) {
            groups.push(&f.group);
        }
    }
    let mut items: Vec<String> = groups
        .iter()
        .take(MAX_TABLE_ROWS)
        .map(|g| {
            let ok: Vec<String> = fits
                .iter()
                .filter(|f| f.group == *g && f.fits)
                .map(|f| format!("{} ({})", f.form, f.parameters))
                .collect();
            let text = if ok.is_empty() {
                "none of the simple forms fits".to_string()
            } else {
                ok.join("; ")
            };
            format!("{}: {text}", code(g))
        })
        .collect();
    if groups.len() > MAX_TABLE_ROWS {
        items.push(format!(
            "… {} more in [forms.md]({})",
            groups.len() - MAX_TABLE_ROWS,
            href(link)
        ));
    }
    blocks.push(Block::Para(format!(
        "**Proposed formulas for the loss sets over ({x}, {y})** (fitted to the data: {x} ≡ {y} (mod q); ⌊({x} mod q)/m⌋ = ⌊({y} mod q)/m⌋; {x} ≡ {y} ≡ 0 (mod q); lattice shifts — [all forms with counterexamples]({}) · [CSV]({})):",
        href(link),
        href(csv)
    )));
    blocks.push(Block::List(items));
}
