//! What every drawing shares: the bundled fonts (with a CJK subset), the
//! figure trait, a chart with its title, PNG encoding and labels.

use anyhow::{Context, Result};
use plotters::prelude::*;

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
/// Noto Sans CJK TC cut down to the characters of the reports and specs
/// (`scripts/make-cjk-font.py`; SIL Open Font License).
static CJK_FONT: &[u8] = include_bytes!("../../assets/NotoSansCJKtc-subset.otf");
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

/// A caption size that fits the title on one line of the figure's width.
/// A chart on `root` with `title` as its caption (in a font that has its
/// glyphs, sized to the width) and the common margin.
pub(super) fn chart_with_title<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: &'b str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(root);
    b.caption(
        title,
        (family(title), caption_size(title, root.dim_in_pixel().0)),
    )
    .margin(12);
    b
}

fn caption_size(title: &str, width: u32) -> u32 {
    let chars = title.chars().count().max(1) as u32;
    (width * 17 / 10 / chars).clamp(9, 17)
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
