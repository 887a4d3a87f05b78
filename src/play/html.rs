//! The classroom page (`nimlab play … --html FILE`): one self-contained HTML
//! file, no server and no network, that plays the same game in a browser.
//!
//! The page is `page.html` with its CSS and the core script `page.js`
//! (turns, the computer's choice — the same rules as [`super::session`] —,
//! hint, why, undo, new game, level and first player), plus what the family
//! hands over in a [`super::HtmlGame`]: a script defining
//! `nimlabGame(data)` and the data it reads the replies from, embedded as
//! JSON. The interface the family script implements is documented at the
//! top of `page.js`.

use anyhow::Result;

use super::session::{First, Level, Options, Stall};
use super::{HtmlGame, PlayGame};

const PAGE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const CORE_JS: &str = include_str!("page.js");

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// JSON safe inside a `<script>` element (no `</script>`, no `<!--`).
fn script_json(v: &serde_json::Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

/// The page's starting settings (the command line's `--first`, `--level`…).
fn settings(opts: &Options) -> serde_json::Value {
    serde_json::json!({
        "first": match opts.first {
            First::Me => "me",
            First::Computer => "computer",
            First::Random => "random",
        },
        "level": match opts.level {
            Level::Perfect => "perfect",
            Level::Easy => "easy",
        },
        "mistakes": opts.mistakes,
        "stall": match opts.stall {
            Stall::Long => "long",
            Stall::Random => "random",
        },
        "seed": opts.seed,
    })
}

/// The whole page for a game.
pub fn page(game: &dyn PlayGame, opts: &Options) -> Result<String> {
    let HtmlGame { script, data } = game.html()?;
    let title = game.title();
    // Placeholders are replaced in one pass, so nothing inserted is ever
    // scanned for another placeholder.
    let mut out = String::with_capacity(PAGE.len() + data.to_string().len() + 65_536);
    let mut rest = PAGE;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let j = rest[i..]
            .find("}}")
            .map(|j| i + j)
            .expect("page.html placeholders are closed");
        match &rest[i + 2..j] {
            "TITLE" => out.push_str(&escape(&title)),
            "RULES" => out.push_str(&escape(&game.rules())),
            "CSS" => out.push_str(CSS),
            "DATA" => out.push_str(&script_json(&data)),
            "SETTINGS" => out.push_str(&script_json(&settings(opts))),
            "FAMILY_JS" => out.push_str(script),
            "CORE_JS" => out.push_str(CORE_JS),
            other => panic!("unknown placeholder {other} in page.html"),
        }
        rest = &rest[j + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Does a page text reach for the network? (The SVG namespace is a name,
/// not an address.)
#[cfg(test)]
pub fn offline_breaker(text: &str) -> bool {
    let t = text.replace("http://www.w3.org/2000/svg", "");
    t.contains("http://")
        || t.contains("https://")
        || t.contains("fetch(")
        || t.contains("XMLHttpRequest")
        || t.contains("//cdn")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_the_script() {
        let v = serde_json::json!({"a": "</script><!-- &"});
        let s = script_json(&v);
        assert!(!s.contains("</"));
        assert!(!s.contains("<!--"));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn page_has_no_placeholder_left_and_no_network() {
        for name in [
            "TITLE",
            "RULES",
            "CSS",
            "DATA",
            "SETTINGS",
            "FAMILY_JS",
            "CORE_JS",
        ] {
            assert!(PAGE.contains(&format!("{{{{{name}}}}}")), "{name}");
        }
        for text in [PAGE, CSS, CORE_JS] {
            assert!(!offline_breaker(text), "{text}");
        }
    }
}
