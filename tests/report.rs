//! `nimlab run` ends with OUT/REPORT.md (the first page), one page per
//! experiment and OUT/REPORT.html; `nimlab report` rebuilds them from stored
//! results.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn nimlab(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nimlab"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cannot start nimlab")
}

/// `nimlab run SPEC --out DIR/out -q` in `dir`: what it did, and its
/// output directory.
fn run_quietly(spec: &Path, dir: &Path) -> (Output, PathBuf) {
    let out = dir.join("out");
    let o = nimlab(
        &[
            "run",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ],
        dir,
    );
    (o, out)
}

fn fixture(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(p)
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn run_writes_the_report_and_report_rebuilds_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = out.to_str().unwrap();
    let small = fixture("valid/small.yaml");
    let claims = fixture("report/claims.yaml");
    ok(&nimlab(
        &[
            "run",
            small.to_str().unwrap(),
            claims.to_str().unwrap(),
            "--out",
            o,
            "-q",
        ],
        dir.path(),
    ));
    let md = std::fs::read_to_string(out.join("REPORT.md")).unwrap();
    let html = std::fs::read_to_string(out.join("REPORT.html")).unwrap();
    let page = |e: &str| std::fs::read_to_string(out.join(format!("REPORT-{e}.md"))).unwrap();
    let (claims_md, small_md) = (page("claims"), page("small"));

    assert_first_page(&md);
    assert_pages(&out, &claims_md, &small_md);
    assert_html(&out, &html, &claims_md, &small_md);

    // `nimlab report` without specs finds both experiments through their
    // manifests and writes the same report, without solving.
    std::fs::remove_file(out.join("REPORT.md")).unwrap();
    let r = nimlab(&["report", "--out", o], dir.path());
    ok(&r);
    assert!(String::from_utf8_lossy(&r.stderr).contains("1 holds, 1 fails, 1 vacuous"));
    assert_eq!(std::fs::read_to_string(out.join("REPORT.md")).unwrap(), md);

    // An empty output directory is an error that says what to do.
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let e = nimlab(&["report", "--out", empty.to_str().unwrap()], dir.path());
    assert!(!e.status.success());
    assert!(String::from_utf8_lossy(&e.stderr).contains("nimlab run"));
}

/// The first page: verdict counts over all claims, then per experiment its
/// claims one line each (verdict, link to the evidence, one sentence of
/// evidence) and its sweeps; an experiment without conjectures shows no verdicts.
fn assert_first_page(md: &str) {
    assert!(
        md.contains("2 experiments, 3 claims: 1 holds, 1 fails, 1 vacuous."),
        "{md}"
    );
    assert!(
        md.contains(
            "**FAILS** [wrong-modulus-fails](REPORT-claims.md#claim-claims-wrong-modulus-fails)"
        ),
        "{md}"
    );
    // Take 1..2: the P-positions are the multiples of 3, not of 4.
    assert!(
        md.contains("— Fails for max:2, N = 3, 4, 6, 8, 9 … (16 of 42 positions)"),
        "{md}"
    );
    let small_first = &md[md.find("## small — ").expect("small on the first page")..];
    assert!(!small_first.contains("claims:"), "{small_first}");
    assert!(small_first.contains("[one-heap](REPORT-small.md#sweep-small-one-heap)"));
}

/// Per experiment and sweep: sections, data links, tables, formulas, verdicts.
fn assert_pages(out: &Path, claims_md: &str, small_md: &str) {
    for (text, s) in [
        (claims_md, "## claims — Report fixture: three conjectures"),
        (claims_md, "A holding, a failing and a vacuous claim."),
        (small_md, "## small — "),
        (small_md, "### small / one-heap"),
        (small_md, "### small / two-heaps"),
        (
            small_md,
            "[positions](small/data/takeaway/positions/one-heap/)",
        ),
        (small_md, "**Proposed formulas**"),
        (small_md, "N ≥ 0 and N mod 3 ∈ {0}"),
        (
            small_md,
            "**Proposed formulas for the loss sets over (N1, N2)**",
        ),
        (
            small_md,
            "`min:2,max:3`: ⌊(N1 mod q)/m⌋ = ⌊(N2 mod q)/m⌋ (q = 5, m = 2",
        ),
        (claims_md, "### claims: conjectures"),
        (claims_md, "3 claims: 1 holds, 1 fails, 1 vacuous."),
        (claims_md, "| holds |"),
        (claims_md, "| **FAILS** |"),
        (claims_md, "| *vacuous* |"),
        (claims_md, "rule=max:2, N=3"),
        (claims_md, "vacuous: no row of 169 matched the filter"),
        (
            claims_md,
            "[one-heap / positions](claims/data/takeaway/positions/one-heap/)",
        ),
    ] {
        assert!(text.contains(s), "the report lacks {s:?}");
    }
    assert!(!small_md.contains("conjectures"), "{small_md}");
    assert!(out.join("small/tables/two-heaps/forms.md").is_file());
}

/// Every inlined picture exists, relative to the report; one page: no
/// external asset, sweeps collapsible, a table of contents.
fn assert_html(out: &Path, html: &str, claims_md: &str, small_md: &str) {
    let imgs: Vec<&str> = html
        .split("<img src=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert!(!imgs.is_empty());
    for i in &imgs {
        assert!(out.join(i).is_file(), "missing picture {i}");
        assert!(
            small_md.contains(&format!("]({i})")) || claims_md.contains(&format!("]({i})")),
            "{i} not in the Markdown pages"
        );
    }
    // One page: no external asset; sweeps collapsible, a table of contents.
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("http://") && !html.contains("https://"));
    assert!(html.contains("<strong>FAILS</strong>"));
    assert!(
        html.contains("<nav id=\"toc\">") && html.contains("<details id=\"sweep-small-one-heap\">")
    );
}

/// Runs fixture `report/NAME.yaml` (experiment NAME) and returns its
/// conjectures.md and the report page.
fn run_fixture(name: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (o, out) = run_quietly(&fixture(&format!("report/{name}.yaml")), dir.path());
    ok(&o);
    let md = std::fs::read_to_string(out.join(name).join("conjectures.md")).unwrap();
    let html = std::fs::read_to_string(out.join("REPORT.html")).unwrap();
    (md, html)
}

/// `s` is in conjectures.md and on the page.
fn assert_both(md: &str, html: &str, s: &str) {
    assert!(md.contains(s), "conjectures.md lacks {s:?}:\n{md}");
    assert!(html.contains(s), "REPORT.html lacks {s:?}");
}

/// Octal counterexamples in moves, in conjectures.md and on the page.
/// Kayles (0.77) is 0, 1, 2, 3 for N = 0..3 (OEIS A002186): N mod 3 first
/// fails at 3, whose moves leave 2 (Grundy 2), 1 + 1 (1 ⊕ 1 = 0) and 1
/// (Grundy 1), mex 3. Misère 0.07 from 2: the only move takes the last two
/// tokens and loses, so 2 is a loss for the player to move.
#[test]
fn octal_counterexamples_name_their_moves() {
    let (md, html) = run_fixture("octal-moves");
    for s in [
        "a heap of 3 (0.77, normal play) has 3 moves",
        "1 move reaches Grundy 0, a loss for the opponent (P): taking 1 leaves 1 + 1 (Grundy 1 ⊕ 1 = 0)",
        "1 move reaches Grundy 1: taking 2 leaves 1",
        "the mex) is 3",
        "a heap of 2 (0.07, misere play) has 1 move",
        "taking 2 leaves nothing",
        "is a loss for the player to move (P)",
    ] {
        assert_both(&md, &html, s);
    }
}

/// Counterexamples in moves for lines, rules and takeaway, in
/// conjectures.md and on the page, each checked by hand. A line of three
/// pieces, takes of 1 to 3 in a row: in misère play one piece left is a loss
/// for its mover, so taking two pieces wins; in normal play the moves
/// reach 0 (all three; the middle piece: 1 ⊕ 1), 1 (two pieces) and 2 (an
/// end piece leaves two in a row, mex{1, 0}), so its value is 3. Take a
/// square from 2: taking 1 leaves 1 (Grundy 1), so 2 is a loss. Fibonacci
/// nim from 3: taking 1 or 2 lets the opponent take the rest. Take 1 or 2
/// from 3: both moves leave the opponent a win.
#[test]
fn counterexamples_name_their_moves_in_every_family() {
    let (md, html) = run_fixture("moves");
    for s in [
        // lines, misère
        "mask OOO has 6 moves. 2 moves reach a P-position (a loss for the opponent): taking the line (0,0)..(1,0) leaves 1 piece",
        "so mask OOO is an N-position: a win for the player to move (misere play)",
        // lines, normal play
        "2 moves reach Grundy 0 (a P-position, a loss for the opponent): taking the line (0,0)..(2,0) leaves nothing (the last piece taken); taking (1,0) leaves 2 pieces",
        "2 moves reach Grundy 2: taking (0,0) leaves 2 pieces",
        "but not 3: mask OOO has Grundy value 3",
        // rules, no history and with one
        "a heap of 2 (normal play) has 1 move. 1 move reaches a win for the opponent (N): taking 1 leaves 1 (Grundy 1)",
        "a heap of 3 (normal play) has 2 moves. 2 moves reach a win for the opponent (N) (the take remembered for the next move): taking 1 leaves 2; taking 2 leaves 1",
        // takeaway
        "a heap of 3 has 2 moves. 2 moves reach a win for the opponent (N): taking 1 leaves 2 (Grundy 2); taking 2 leaves 1 (Grundy 1)",
        "a heap of 3 is a loss for the player to move (P)",
    ] {
        assert_both(&md, &html, s);
    }
    // A part marked in the spec's reading as unable to fail is said on the
    // page beside the verdict.
    assert!(
        html.contains("<strong>Marked (cannot fail)</strong>: a fixture's mark"),
        "REPORT.html lacks the mark"
    );
}

/// A spec's marks (`marked:`) are shown beside the verdict and counted in
/// conjectures.md, on the report's pages and in the claims doc. The
/// fixture: take 1 or 2, so the losses are the multiples of 3 (the first
/// claim holds), and 3 is a loss (the second fails at 3); each is marked.
#[test]
fn marks_are_shown_beside_the_verdict_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let spec = fixture("report/marks.yaml");
    let doc = dir.path().join("claims.md");
    let (o, out) = run_quietly(&spec, dir.path());
    ok(&o);
    // `check` exits 1: a claim fails.
    let checked = nimlab(
        &[
            "check",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--claims-doc",
            doc.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert_eq!(checked.status.code(), Some(1), "{checked:?}");
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap();
    let md = read(out.join("marks/conjectures.md"));
    let (first, page, html, doc) = (
        read(out.join("REPORT.md")),
        read(out.join("REPORT-marks.md")),
        read(out.join("REPORT.html")),
        read(doc),
    );
    // Counted in each header.
    assert!(
        md.contains("2 conjectures: 1 holds, 1 fails; 2 marked"),
        "{md}"
    );
    assert!(
        first.contains("2 claims: 1 holds, 1 fails; 2 marked"),
        "{first}"
    );
    assert!(
        page.contains("2 claims: 1 holds, 1 fails; 2 marked"),
        "{page}"
    );
    assert!(html.contains("2 claims: 1 holds, 1 fails; 2 marked"));
    assert!(
        doc.contains("2 claims: 1 holds, 1 fails; 2 marked"),
        "{doc}"
    );
    // Beside the verdict, with the part and the reason.
    assert!(md.contains("**FAILS**<br>marked (cannot fail)"), "{md}");
    assert!(md.contains("holds<br>marked (restates the solver)"), "{md}");
    assert!(
        md.contains(
            "**Marked (restates the solver), the part “multiples of 3”**: a fixture's part mark."
        ),
        "{md}"
    );
    assert!(
        page.contains("every-heap-wins — **FAILS**, marked (cannot fail)"),
        "{page}"
    );
    assert!(html.contains("<strong>Marked (cannot fail)</strong>: a fixture's whole-claim mark."));
    assert!(doc.contains("| fails; marked (cannot fail) |"), "{doc}");
    assert!(
        doc.contains("Marked (cannot fail): a fixture's whole-claim mark."),
        "{doc}"
    );
}

/// A bad mark is refused when the spec is read: exit 2, naming the file and
/// the field, nothing written. A part of `by:` is named by a value, so one
/// that names none is refused when the claim is checked.
#[test]
fn a_bad_mark_is_refused() {
    let head = "sweeps:\n  - {name: a, family: takeaway, take: {max: 2}, N: 0..10}\nconjectures:\n  - name: c\n    sweep: a\n    claim: 'N >= 0'\n";
    let cases: &[(&str, &[&str])] = &[
        (
            "    marked: {reason: cannot fail, why: x, parts: y}\n",
            &[
                "conjectures[0].marked",
                "unknown field `parts` (did you mean `part`?)",
            ],
        ),
        (
            "    marked: {reason: obvious, why: x}\n",
            &[
                "conjectures[0].marked.reason",
                "`cannot fail`, `restates the solver`",
            ],
        ),
        (
            "    marked: {reason: cannot fail}\n",
            &["conjectures[0].marked", "missing field `why`"],
        ),
        (
            "    marked: {reason: cannot fail, why: x, part: odd}\n",
            &["conjectures[0].marked.part", "this claim has no parts"],
        ),
        (
            "    parts: [{name: small, where: 'N < 5'}]\n    marked: {reason: cannot fail, why: x, part: smal}\n",
            &[
                "conjectures[0].marked.part",
                "no part named \"smal\" (did you mean `small`?)",
            ],
        ),
        (
            "    marked: cannot fail\n",
            &["conjectures[0].marked", "expected a map"],
        ),
    ];
    for (extra, needles) in cases {
        let dir = tempfile::tempdir().unwrap();
        let spec = dir.path().join("bad-mark.yaml");
        std::fs::write(&spec, format!("{head}{extra}")).unwrap();
        let (o, out) = run_quietly(&spec, dir.path());
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra}: {err}");
        assert!(err.contains("bad-mark.yaml"), "{extra}: {err}");
        for n in *needles {
            assert!(err.contains(n), "{extra}: expected {n:?} in {err}");
        }
        assert!(!out.exists(), "{extra}: nothing is written");
    }
    // `by:` parts: checked when the claim is.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad-by-mark.yaml");
    std::fs::write(
        &spec,
        format!("{head}    by: 'N % 2 == 0 ? \"even\" : \"odd\"'\n    marked: {{reason: cannot fail, why: x, part: evens}}\n"),
    )
    .unwrap();
    let (o, _) = run_quietly(&spec, dir.path());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("conjectures[0].marked.part")
            && err.contains("no part named \"evens\"; the claim's parts: even, odd"),
        "{err}"
    );
}

/// Parity counterexamples in moves, in conjectures.md and on the page,
/// checked by hand. Take 1 or 2 into your own hand, Odd against Even, Odd to
/// move at (0,0,2) (Odd's hand, Even's hand, the pile): taking 1 leaves
/// (1,0,1), where Even must take the last stone, and both hands are odd:
/// Odd wins; taking 2 leaves (0,0,0), both hands even: Even wins. So Odd
/// wins by taking 1, and "Even wins" fails there.
#[test]
fn parity_counterexamples_name_their_moves() {
    let (md, html) = run_fixture("parity-moves");
    for s in [
        "Odd to move at (0,0,2) has 2 moves",
        "1 move reaches a state the opponent loses: taking 1 leaves (1,0,1), Even to move",
        "1 move reaches a state the opponent wins: taking 2 leaves (0,0,0), Even to move",
        "Odd to move at (0,0,2) wins: taking 1 leaves (1,0,1), Even to move, which the opponent loses",
    ] {
        assert_both(&md, &html, s);
    }
}
