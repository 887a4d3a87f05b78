//! Adding a family is its folder and one line in `FAMILIES`: the documents
//! that list the families are held equal to the registry here, so a new
//! family that forgets them fails a test rather than going unnoticed.

use std::path::Path;

use nimlab::family::FAMILIES;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn registered() -> Vec<String> {
    FAMILIES.iter().map(|f| f.name().to_string()).collect()
}

/// `docs/solve.schema.json` is the schema the families assemble (`nimlab
/// families --solve-schema`), every registered family in it, in order.
#[test]
fn the_solve_schema_document_is_the_families_schema() {
    let doc: serde_json::Value = serde_json::from_str(&read("docs/solve.schema.json")).unwrap();
    let made = nimlab::family::schema::solve_schema(FAMILIES).unwrap();
    assert!(
        doc == made,
        "docs/solve.schema.json is not the families' schema: regenerate it with `nimlab families --solve-schema > docs/solve.schema.json`"
    );
    let listed: Vec<String> = doc["properties"]["family"]["enum"]
        .as_array()
        .expect("docs/solve.schema.json: properties.family.enum")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, registered());
    for f in FAMILIES {
        let applies = doc["allOf"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["if"]["properties"]["family"]["const"] == f.name());
        assert!(applies, "no part of the schema for `{}`", f.name());
    }
}

/// The first cell (`` `name` ``) of each row of the README's families table.
fn readme_families(readme: &str) -> Vec<String> {
    let start = readme.find("\n## Families\n").expect("README: ## Families");
    readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| family |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cell = l.split('|').nth(1).unwrap_or("").trim();
            cell.trim_matches('`').to_string()
        })
        .collect()
}

#[test]
fn the_readme_table_has_one_row_per_registered_family() {
    assert_eq!(
        readme_families(&read("README.md")),
        registered(),
        "README.md's Families table must have one row per family of FAMILIES, in order"
    );
}

#[test]
fn the_readme_reader_sees_a_missing_row() {
    let table =
        "x\n## Families\n\n| family | game |\n|---|---|\n| `a` | A |\n| `b` | B |\n\nmore\n";
    assert_eq!(readme_families(table), ["a", "b"]);
    assert_ne!(readme_families(table), ["a", "b", "c"]);
}
