//! Notes: what a user should know about a sweep's expansion (combinations
//! skipped, a memo sized up front). A note has a subject (`board[3]`) and a
//! text that is the same for every subject of its kind, so the printer can
//! collapse a hundred notes of one kind into one line with a count:
//! `136 boards: skipped side combinations that do not close (240 each)`.

use std::fmt;

/// One note of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// What the note is about, e.g. `board[3]`; empty for the whole sweep.
    pub subject: String,
    /// The plural noun for several subjects of one kind, e.g. `boards`.
    pub subjects: &'static str,
    /// The note without its subject or count: notes with equal texts are of
    /// one kind and are printed as one line.
    pub text: String,
    /// The number the note counts (combinations skipped, …), if any.
    pub count: Option<u64>,
}

impl Note {
    /// A note about the whole sweep.
    pub fn new(text: impl Into<String>) -> Note {
        Note {
            subject: String::new(),
            subjects: "",
            text: text.into(),
            count: None,
        }
    }
    /// A note about one subject (`board[3]`), of which a group is `subjects`
    /// (`boards`).
    pub fn about(
        subject: impl Into<String>,
        subjects: &'static str,
        text: impl Into<String>,
    ) -> Note {
        Note {
            subject: subject.into(),
            subjects,
            text: text.into(),
            count: None,
        }
    }
    /// The same note, counting `n`.
    pub fn counting(mut self, n: u64) -> Note {
        self.count = Some(n);
        self
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.subject.is_empty() {
            write!(f, "{}: ", self.subject)?;
        }
        write!(f, "{}", self.text)?;
        if let Some(n) = self.count {
            write!(f, " ({n})")?;
        }
        Ok(())
    }
}

/// The lines to print for `notes`: one per kind (equal texts), in order of
/// first appearance. A kind with one note prints it whole; a kind with
/// several prints how many subjects, the text, and the counts: `(240 each)`
/// when equal, else `(12 to 240 each, 5000 in all)`.
pub fn lines(notes: &[Note]) -> Vec<String> {
    let mut kinds: Vec<Vec<&Note>> = Vec::new();
    for n in notes {
        match kinds.iter_mut().find(|k| k[0].text == n.text) {
            Some(k) => k.push(n),
            None => kinds.push(vec![n]),
        }
    }
    kinds.into_iter().map(|k| kind_line(&k)).collect()
}

fn kind_line(kind: &[&Note]) -> String {
    let first = kind[0];
    if kind.len() == 1 {
        return first.to_string();
    }
    let noun = if first.subjects.is_empty() {
        "notes"
    } else {
        first.subjects
    };
    let mut s = format!("{} {noun}: {}", kind.len(), first.text);
    let counts: Vec<u64> = kind.iter().filter_map(|n| n.count).collect();
    if let (Some(lo), Some(hi)) = (counts.iter().min(), counts.iter().max()) {
        let total = counts.iter().fold(0u64, |a, &b| a.saturating_add(b));
        if lo == hi && counts.len() == kind.len() {
            s += &format!(" ({lo} each)");
        } else {
            s += &format!(" ({lo} to {hi} each, {total} in all)");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(i: usize, n: u64) -> Note {
        Note::about(
            format!("board[{i}]"),
            "boards",
            "skipped side combinations that do not close",
        )
        .counting(n)
    }

    #[test]
    fn one_note_prints_whole() {
        assert_eq!(
            lines(&[board(3, 240)]),
            ["board[3]: skipped side combinations that do not close (240)"]
        );
        assert_eq!(lines(&[Note::new("no strip chart")]), ["no strip chart"]);
    }

    #[test]
    fn notes_of_one_kind_collapse_with_their_counts() {
        let same: Vec<Note> = (0..136).map(|i| board(i, 240)).collect();
        assert_eq!(
            lines(&same),
            ["136 boards: skipped side combinations that do not close (240 each)"]
        );
        let mixed = [
            board(0, 12),
            Note::new("chord memo: 1 MiB"),
            board(1, 240),
            board(2, 30),
        ];
        assert_eq!(
            lines(&mixed),
            [
                "3 boards: skipped side combinations that do not close (12 to 240 each, 282 in all)",
                "chord memo: 1 MiB",
            ]
        );
        let plain = [Note::new("x"), Note::new("x")];
        assert_eq!(lines(&plain), ["2 notes: x"]);
    }
}
