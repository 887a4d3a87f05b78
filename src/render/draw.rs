//! What every drawing shares: the bundled fonts (with a CJK subset), the
//! figure trait, a chart with its title, PNG encoding and labels.

use anyhow::{Context, Result};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
/// Noto Sans CJK TC cut down to the characters of the reports and specs
/// (`scripts/make-cjk-font.py`; SIL Open Font License).
pub(super) static CJK_FONT: &[u8] = include_bytes!("../../assets/NotoSansCJKtc-subset.otf");
/// The CJK subset's licence, shipped beside any copy of the font.
pub(super) static CJK_FONT_LICENSE: &str = include_str!("../../assets/NotoSansCJKtc-LICENSE.txt");
/// The family name text with CJK characters is drawn in: the bundled font is
/// registered under it, and an SVG names it, so a viewer falls back to the
/// CJK fonts it has.
pub(super) const CJK: &str = "Noto Sans CJK TC, Source Han Sans TC, Microsoft JhengHei, PingFang TC, Noto Sans CJK SC, sans-serif";

/// Registers the bundled fonts once (plotters draws text with them).
pub(super) fn ensure_font() {
    use std::sync::Once;
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled fonts are valid; failing to register one would only lose text.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
        let _ = plotters::style::register_font(CJK, FontStyle::Normal, CJK_FONT);
    });
}

/// The family to draw `text` in: the CJK font when it holds a CJK character
/// (the CJK font has Latin letters too), the default one otherwise.
pub(super) fn family(text: &str) -> &'static str {
    let cjk = |c: char| matches!(c as u32, 0x2E80..=0x2FDF | 0x3000..=0x9FFF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF | 0x20000..=0x2FA1F);
    if text.chars().any(cjk) {
        CJK
    } else {
        "sans-serif"
    }
}

/// An RGB picture encoded as PNG (the encoder and settings plotters uses
/// when it saves a file itself).
pub(super) fn png_bytes(rgb: &[u8], (w, h): (u32, u32)) -> Result<Vec<u8>> {
    use image::ImageEncoder as _;
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(rgb, w, h, image::ColorType::Rgb8)
        .context("cannot encode PNG")?;
    Ok(bytes)
}

/// A figure drawable on any plotters backend.
pub(super) trait Figure {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> Result<()>
    where
        DB::ErrorType: 'static;
}

/// A chart on `root` with `title` above it (in a font that has its glyphs,
/// at [`TITLE_PX`], wrapped over as many lines as the figure's width needs:
/// never shrunk below a readable size nor cut) and the common margin.
pub(super) fn chart_with_title<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: &'b str,
) -> ChartBuilder<'a, 'b, DB> {
    let width = root.dim_in_pixel().0;
    let lines = wrap(title, width.saturating_sub(24));
    let style = TextStyle::from((family(title), TITLE_PX).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top));
    for (i, line) in lines.iter().enumerate() {
        // A title that cannot be drawn only loses its text.
        let _ = root.draw(&Text::new(
            line.clone(),
            ((width / 2) as i32, 8 + (TITLE_PX as i32 + 6) * i as i32),
            style.clone(),
        ));
    }
    let mut b = ChartBuilder::on(root);
    b.margin(12)
        .margin_top(12 + (TITLE_PX + 6) * lines.len() as u32);
    b
}

/// The size of a figure's title.
pub(super) const TITLE_PX: u32 = 20;

/// `title` in lines of at most `width` pixels at [`TITLE_PX`] (an average
/// glyph taken as 0.55 of the size), broken at spaces.
fn wrap(title: &str, width: u32) -> Vec<String> {
    let per_line = ((width as f64) / (0.55 * TITLE_PX as f64)).max(10.0) as usize;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in title.split(' ') {
        let len = line.chars().count() + word.chars().count() + 1;
        if !line.is_empty() && len > per_line {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The size of every label, axis description and legend on a figure, in
/// the figure's pixels: shown at least at 11 px as long as the page shrinks
/// the figure to no less than 11/18 of its width (the report's browser test
/// checks this).
pub(super) const LABEL_PX: u32 = 18;

/// The text style of labels and legends.
pub(super) fn label_font() -> (&'static str, u32) {
    ("sans-serif", LABEL_PX)
}

/// A legend beside the plot, on `area` (the strip right of the chart):
/// one coloured square and its text per item, top to bottom.
pub(super) fn side_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    items: &[(String, RGBColor)],
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let line = LABEL_PX as i32 + 10;
    let px = LABEL_PX as i32;
    for (i, (text, color)) in items.iter().enumerate() {
        let y = 60 + line * i as i32;
        area.draw(&Rectangle::new([(8, y), (8 + px, y + px)], color.filled()))
            .map_err(perr)?;
        area.draw(&Text::new(
            text.clone(),
            (16 + px, y),
            (family(text), LABEL_PX).into_font(),
        ))
        .map_err(perr)?;
    }
    Ok(())
}

/// Width of a side legend for `items` (text at [`LABEL_PX`]).
pub(super) fn legend_width(items: &[String]) -> u32 {
    let chars = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) as u32;
    (40 + chars * LABEL_PX * 6 / 10).clamp(120, 420)
}

pub(super) fn perr<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing failed: {e}")
}

pub(super) fn int_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod cjk_tests {
    use super::*;

    /// `text` drawn in `family` at 40 px on a white 64 × 64 bitmap (RGB).
    fn draw(text: &str, family: &str) -> Vec<u8> {
        ensure_font();
        let mut buf = vec![0u8; 64 * 64 * 3];
        {
            let area = BitMapBackend::with_buffer(&mut buf, (64, 64)).into_drawing_area();
            area.fill(&WHITE).unwrap();
            area.draw_text(text, &(family, 40).into_font().color(&BLACK), (4, 4))
                .unwrap();
            area.present().unwrap();
        }
        buf
    }

    fn ink(img: &[u8]) -> usize {
        img.iter().filter(|&&b| b < 128).count()
    }

    #[test]
    fn chinese_titles_are_drawn_with_real_glyphs() {
        // The missing-glyph box: a character the fonts lack, and the default
        // font's rendering of a Chinese character (DejaVu has none).
        let notdef_cjk = draw("龘", CJK);
        let notdef_default = draw("勝", "sans-serif");
        assert!(ink(&notdef_cjk) > 20 && ink(&notdef_default) > 20);
        let mut seen: Vec<Vec<u8>> = Vec::new();
        for c in ["致", "勝", "密", "碼", "取", "石", "子"] {
            assert_eq!(family(c), CJK, "{c}");
            let img = draw(c, family(c));
            assert!(ink(&img) > 20, "{c} drew nothing");
            assert_ne!(img, notdef_cjk, "{c} drawn as the missing-glyph box");
            assert_ne!(img, notdef_default, "{c} drawn as the missing-glyph box");
            assert!(!seen.contains(&img), "{c} looks like another character");
            seen.push(img);
        }
        // Latin text keeps the default font.
        assert_eq!(family("Cond(2,3): n = 5"), "sans-serif");
        assert_eq!(family("報告 004 (Cond 2)"), CJK);
    }

    #[test]
    fn svg_names_a_cjk_fallback() {
        ensure_font();
        let mut s = String::new();
        {
            let area = SVGBackend::with_string(&mut s, (200, 50)).into_drawing_area();
            area.draw_text(
                "致勝密碼",
                &(family("致勝密碼"), 20).into_font().color(&BLACK),
                (0, 0),
            )
            .unwrap();
            area.present().unwrap();
        }
        assert!(
            s.contains("致勝密碼") && s.contains("Noto Sans CJK TC"),
            "{s}"
        );
    }
}
