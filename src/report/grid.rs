//! Small-multiples grids: a sweep's figures that differ in one number only
//! (report 004's Cond(2,3) loss sets with n fixed and m varying) drawn
//! side by side in one image, as the report's authors laid them out (one
//! group per fixed n, m increasing), besides the single files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use image::{ImageEncoder, RgbImage, imageops};
use rayon::prelude::*;

use super::blocks::{files_in, natural_key};
use crate::store::write_atomic;

/// Width of a panel in pixels: a figure's own width, or less for a wider one.
const PANEL: u32 = 1000;
/// A group needs at least this many figures to become a grid.
const MIN_GROUP: usize = 3;
/// Panels a row at most.
const MAX_COLUMNS: u32 = 3;
/// A grid's width at most, in pixels (fewer panels a row for wider ones:
/// two of the usual 900–1000 px figures, so that the page, which shows the
/// grid at its column's width, shrinks labels by half at most).
const MAX_WIDTH: u32 = 2400;

/// The group of a figure: its name with the first number replaced by
/// `each` (`loss_scatter-min_each_max_5_no_repeat`), and that number.
fn group_of(stem: &str) -> Option<(String, u128)> {
    let start = stem.find(|c: char| c.is_ascii_digit())?;
    let len = stem[start..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(stem.len() - start);
    let n = stem[start..start + len].parse().ok()?;
    Some((format!("{}each{}", &stem[..start], &stem[start + len..]), n))
}

/// The caption of a grid in `dir` (`min = 2, 3, 4, left to right, top to
/// bottom`), from its file name and the figures of its group.
pub fn caption(grid: &Path, dir: &Path) -> String {
    let stem = grid.file_stem().unwrap_or_default().to_string_lossy();
    let g = stem.trim_start_matches("grid-");
    let before = g
        .split("each")
        .next()
        .unwrap_or("")
        .trim_end_matches(['_', '-', '=', ':']);
    let param = before.rsplit(['_', '-']).next().unwrap_or("");
    let mut ns: Vec<u128> = files_in(dir, "png")
        .iter()
        .filter_map(|f| group_of(&f.file_stem()?.to_string_lossy()))
        .filter(|(k, _)| k == g)
        .map(|(_, n)| n)
        .collect();
    ns.sort();
    let list: Vec<String> = ns.iter().map(u128::to_string).collect();
    format!(
        "{param} = {}, left to right, top to bottom",
        list.join(", ")
    )
}

/// Writes `grid-<group>.png` in `dir` for every group of at least
/// [`MIN_GROUP`] PNG figures; returns the grids written, in natural order.
pub fn write_grids(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut groups: BTreeMap<String, Vec<(u128, PathBuf)>> = BTreeMap::new();
    for f in files_in(dir, "png") {
        let stem = f
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if stem.starts_with("grid-") {
            continue;
        }
        if let Some((g, n)) = group_of(&stem) {
            groups.entry(g).or_default().push((n, f));
        }
    }
    let mut written: Vec<PathBuf> = groups
        .into_par_iter()
        .filter(|(_, v)| v.len() >= MIN_GROUP)
        .map(|(g, mut v)| {
            v.sort_by_key(|a| a.0);
            let path = dir.join(format!("grid-{g}.png"));
            let files: Vec<PathBuf> = v.into_iter().map(|(_, f)| f).collect();
            draw(&files, &path).with_context(|| format!("drawing {}", path.display()))?;
            Ok(path)
        })
        .collect::<Result<Vec<_>>>()?;
    written.sort_by_cached_key(|p| natural_key(&p.to_string_lossy()));
    Ok(written)
}

/// Lays the figures out in a grid, a wider one than [`PANEL`] scaled down
/// to it. The cells are sized from the files' headers, then each figure is
/// read and laid in its cell in turn: one figure decoded at a time beside
/// the grid (30 figures of 1000 × 900 held at once took 70 MB, as much as
/// their grid).
fn draw(files: &[PathBuf], path: &Path) -> Result<()> {
    let sizes: Vec<(u32, u32)> = files.iter().map(|f| panel_size(f)).collect::<Result<_>>()?;
    let cell_h = sizes.iter().map(|s| s.1).max().unwrap_or(1);
    let cell_w = sizes.iter().map(|s| s.0).max().unwrap_or(1);
    // Side by side, as many a row as fit in MAX_WIDTH (at most
    // MAX_COLUMNS), left to right then top to bottom, each at its own size.
    let n = files.len() as u32;
    let cols = (MAX_WIDTH / cell_w).clamp(1, MAX_COLUMNS).min(n.max(1));
    let rows = n.div_ceil(cols);
    let mut grid = RgbImage::from_pixel(cols * cell_w, rows * cell_h, image::Rgb([255, 255, 255]));
    for (i, f) in files.iter().enumerate() {
        let p = panel(f)?;
        let (r, c) = (i as u32 / cols, i as u32 % cols);
        imageops::overlay(&mut grid, &p, i64::from(c * cell_w), i64::from(r * cell_h));
    }
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes).write_image(
        grid.as_raw(),
        grid.width(),
        grid.height(),
        image::ColorType::Rgb8,
    )?;
    write_atomic(path, &bytes)
}

/// A figure's size in the grid, from its file's header: [`PANEL`] wide at
/// most, its height scaled with it.
fn panel_size(f: &Path) -> Result<(u32, u32)> {
    let (w, h) = image::image_dimensions(f).with_context(|| format!("reading {}", f.display()))?;
    Ok(scaled_to_panel(w, h))
}

/// A figure `w` × `h` as laid in the grid.
fn scaled_to_panel(w: u32, h: u32) -> (u32, u32) {
    if w <= PANEL {
        return (w, h);
    }
    (
        PANEL,
        (h as u64 * PANEL as u64 / w.max(1) as u64).max(1) as u32,
    )
}

/// A figure read and scaled to its size in the grid ([`scaled_to_panel`]).
fn panel(f: &Path) -> Result<RgbImage> {
    let img = image::open(f).with_context(|| format!("reading {}", f.display()))?;
    let (w, h) = scaled_to_panel(img.width(), img.height());
    if w == img.width() {
        return Ok(img.to_rgb8());
    }
    Ok(imageops::resize(
        &img.to_rgb8(),
        w,
        h,
        imageops::FilterType::Triangle,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_differing_in_one_number_are_grouped() {
        assert_eq!(
            group_of("loss_scatter-min_12_max_13_no_repeat"),
            Some(("loss_scatter-min_each_max_13_no_repeat".into(), 12))
        );
        assert_eq!(group_of("figure"), None);
        let dir = tempfile::tempdir().unwrap();
        // Five figures for n = 13 (m = 2, 3, 10, 11, 12) and one for n = 5.
        for (m, n, shade) in [
            (2, 13, 0u8),
            (3, 13, 40),
            (10, 13, 80),
            (11, 13, 120),
            (12, 13, 160),
            (2, 5, 200),
        ] {
            let img = RgbImage::from_pixel(60, 30, image::Rgb([shade, 0, 0]));
            img.save(dir.path().join(format!("s-min_{m}_max_{n}.png")))
                .unwrap();
        }
        let grids = write_grids(dir.path()).unwrap();
        assert_eq!(grids, vec![dir.path().join("grid-s-min_each_max_13.png")]);
        let g = image::open(&grids[0]).unwrap().to_rgb8();
        // Three panels a row at their own size (60 × 30: no scaling), m
        // increasing left to right, then top to bottom (natural order: 10
        // after 3): 2, 3, 10 on the first row, 11, 12 on the second.
        assert_eq!((g.width(), g.height()), (3 * 60, 2 * 30));
        let red = |x: u32, y: u32| g.get_pixel(x, y)[0];
        assert_eq!(
            [
                red(30, 15),
                red(90, 15),
                red(150, 15),
                red(30, 45),
                red(90, 45)
            ],
            [0, 40, 80, 120, 160]
        );
        // The empty sixth cell stays white.
        assert_eq!(g.get_pixel(150, 45).0, [255, 255, 255]);
        assert_eq!(
            caption(&grids[0], dir.path()),
            "min = 2, 3, 10, 11, 12, left to right, top to bottom"
        );
    }
}
