//! Terminal output: plain ANSI escape sequences (clear and home, bold,
//! colours), so no terminal crate is needed: input is read line by line in
//! the terminal's own cooked mode, and the screen is redrawn whole before
//! each prompt.

/// Clears the screen and puts the cursor at the top left.
pub const CLEAR: &str = "\x1b[H\x1b[2J\x1b[3J";

/// A colour for [`paint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// Titles.
    Bold,
    /// Dimmed (empty places).
    Dim,
    /// The last move.
    Red,
    /// Labels.
    Cyan,
}

/// `text` wrapped in the escape sequence of `p` when `color` is on.
pub fn paint(text: &str, p: Paint, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let code = match p {
        Paint::Bold => "1",
        Paint::Dim => "2",
        Paint::Red => "1;31",
        Paint::Cyan => "36",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// The number of characters a line takes on screen (escape sequences left out).
pub fn width(s: &str) -> usize {
    let mut n = 0;
    let mut esc = false;
    for c in s.chars() {
        if esc {
            esc = c != 'm';
        } else if c == '\x1b' {
            esc = true;
        } else {
            n += 1;
        }
    }
    n
}

/// Pads `s` with spaces to `w` screen characters.
pub fn pad(s: &str, w: usize) -> String {
    let n = width(s);
    if n >= w {
        s.to_string()
    } else {
        format!("{s}{}", " ".repeat(w - n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_ignores_escapes() {
        let s = paint("a1", Paint::Red, true);
        assert_eq!(s, "\x1b[1;31ma1\x1b[0m");
        assert_eq!(width(&s), 2);
        assert_eq!(width("●●●"), 3);
        assert_eq!(pad(&s, 4), format!("{s}  "));
        assert_eq!(paint("x", Paint::Bold, false), "x");
    }
}
