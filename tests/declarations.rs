//! The datasets and views every family declares: consistent with each other,
//! with every spec under `experiments/`, and with the generated data docs.

use std::collections::BTreeMap;
use std::path::Path;

use nimlab::data::Dtype;
use nimlab::family::FAMILIES;

#[test]
fn the_data_docs_are_the_declarations() {
    let want = nimlab::cmd::datasets::reference(FAMILIES);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/datasets.md");
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/datasets.md is out of date: regenerate it with `nimlab datasets > docs/datasets.md`"
    );
}

#[test]
fn a_column_name_has_one_type_across_families() {
    let mut seen: BTreeMap<&str, (Dtype, String)> = BTreeMap::new();
    for f in FAMILIES {
        for d in f.datasets() {
            for c in d.stored_columns() {
                let here = format!("{}/{}", f.name(), d.name);
                match seen.get(c.name) {
                    Some((t, at)) => assert_eq!(
                        *t, c.dtype,
                        "column {} is {:?} in {at} but {:?} in {here}",
                        c.name, t, c.dtype
                    ),
                    None => {
                        seen.insert(c.name, (c.dtype, here));
                    }
                }
            }
        }
    }
    assert!(seen.len() > 50, "{seen:?}");
}

#[test]
fn names_are_unique_and_views_read_declared_columns() {
    for f in FAMILIES {
        let mut names: Vec<&str> = f.datasets().iter().map(|d| d.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(
            names.len(),
            f.datasets().len(),
            "{}: dataset names",
            f.name()
        );
        for d in f.datasets() {
            let mut cols: Vec<&str> = d.stored_columns().map(|c| c.name).collect();
            cols.sort();
            cols.dedup();
            assert_eq!(
                cols.len(),
                d.stored_columns().count(),
                "{}/{}",
                f.name(),
                d.name
            );
        }
        let mut views: Vec<&str> = f.view_names();
        views.sort();
        views.dedup();
        assert_eq!(views.len(), f.views().len(), "{}: view names", f.name());
        for v in f.views() {
            let d = f
                .datasets()
                .iter()
                .find(|d| d.name == v.dataset)
                .unwrap_or_else(|| {
                    panic!("{}: view {} reads an undeclared dataset", f.name(), v.name)
                });
            for c in v.kind.columns() {
                assert!(
                    d.column(c).is_some(),
                    "{}: view {} reads {c}, not in {}",
                    f.name(),
                    v.name,
                    d.name
                );
            }
        }
    }
}

/// Every spec nimlab ships (the default ones and the overnight ones) plans
/// into declared views and datasets (a dry run: nothing is solved).
#[test]
fn every_shipped_spec_plans_into_declared_views() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["experiments", "experiments/overnight", "benches/specs"] {
        let exps = nimlab::spec::load_specs(&[root.join(dir)]).unwrap();
        for e in exps {
            for s in &e.sweeps {
                let plan = s.plan().unwrap();
                assert!(!plan.cases.is_empty(), "{}/{}", e.name, s.name);
                for v in &plan.views {
                    assert!(
                        s.family.views().iter().any(|d| std::ptr::eq(*d, *v)),
                        "{}/{}: view {} is not declared",
                        e.name,
                        s.name,
                        v.name
                    );
                }
                for d in s.datasets.iter().flatten() {
                    assert!(s.family.datasets().iter().any(|x| x.name == d), "{d}");
                }
            }
        }
    }
}

/// A derived column names sources of its own dataset, none of them itself,
/// and is a result (the checker reads a derivation to tell a claim true by
/// construction; a source that does not exist would hide one).
#[test]
fn derivations_name_columns_of_their_dataset() {
    let mut derived = 0;
    for f in FAMILIES {
        for d in f.datasets() {
            for c in d.stored_columns() {
                let Some(der) = c.derived else { continue };
                derived += 1;
                assert!(
                    !der.sources.is_empty(),
                    "{}/{}: {}",
                    f.name(),
                    d.name,
                    c.name
                );
                for s in der.sources {
                    assert!(
                        *s != c.name && d.column(s).is_some(),
                        "{}/{}: {} is computed from {s}, not a column of the dataset",
                        f.name(),
                        d.name,
                        c.name
                    );
                }
                assert!(
                    matches!(
                        c.role,
                        nimlab::data::Role::Result | nimlab::data::Role::Outcome
                    ),
                    "{}/{}: {}",
                    f.name(),
                    d.name,
                    c.name
                );
            }
        }
    }
    assert!(derived >= 10, "{derived} derived columns");
}
