//! The JSON schema of `nimlab solve FAMILY … --json`, assembled from the
//! families: the shape every answer shares (`solve.schema.json` beside this
//! file) and each family's own part ([`Family::solve_schema`]: its `$defs`
//! and what its answers add, applied where `family` is its name).
//! `nimlab families --solve-schema` prints it; `docs/solve.schema.json` is
//! that output.

use serde_json::{Map, Value, json};

use super::Family;

/// The part every family's answer shares.
const BASE: &str = include_str!("solve.schema.json");

/// The whole schema for `families`, in their order.
pub fn solve_schema(families: &[&dyn Family]) -> anyhow::Result<Value> {
    let mut schema: Value = serde_json::from_str(BASE)?;
    let names: Vec<Value> = families.iter().map(|f| json!(f.name())).collect();
    schema["properties"]["family"]["enum"] = Value::Array(names);
    for f in families {
        let part: Value = serde_json::from_str(f.solve_schema())
            .map_err(|e| anyhow::anyhow!("the solve schema of the family `{}`: {e}", f.name()))?;
        add_defs(&mut schema, f.name(), &part)?;
        let rule = json!({
            "if": {"properties": {"family": {"const": f.name()}}},
            "then": part.get("then").cloned().unwrap_or_else(|| json!({})),
        });
        schema["allOf"]
            .as_array_mut()
            .ok_or_else(|| anyhow::anyhow!("solve.schema.json: `allOf` is not a list"))?
            .push(rule);
    }
    Ok(schema)
}

/// Adds a family's `$defs` to the schema's, refusing a name already taken
/// (two families may not define the same thing differently).
fn add_defs(schema: &mut Value, family: &str, part: &Value) -> anyhow::Result<()> {
    let Some(defs) = part.get("$defs").and_then(Value::as_object) else {
        return Ok(());
    };
    let all: &mut Map<String, Value> = schema["$defs"]
        .as_object_mut()
        .ok_or_else(|| anyhow::anyhow!("solve.schema.json: `$defs` is not a map"))?;
    for (name, def) in defs {
        if all.insert(name.clone(), def.clone()).is_some() {
            anyhow::bail!("the family `{family}` defines `$defs/{name}`, already defined");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::FAMILIES;

    /// Every family's part is JSON with at most `$defs` and `then`, and the
    /// references in it name a definition of the whole schema.
    #[test]
    fn every_part_is_read_and_every_reference_resolves() {
        let schema = solve_schema(FAMILIES).unwrap();
        for f in FAMILIES {
            let part: Value = serde_json::from_str(f.solve_schema()).unwrap();
            for k in part.as_object().unwrap().keys() {
                assert!(k == "$defs" || k == "then", "{}: {k}", f.name());
            }
        }
        let mut refs = Vec::new();
        collect_refs(&schema, &mut refs);
        assert!(refs.len() > 10);
        for r in refs {
            let name = r.strip_prefix("#/$defs/").unwrap_or_else(|| panic!("{r}"));
            assert!(schema["$defs"].get(name).is_some(), "{r} is not defined");
        }
    }

    fn collect_refs(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    match (k.as_str(), x) {
                        ("$ref", Value::String(s)) => out.push(s.clone()),
                        _ => collect_refs(x, out),
                    }
                }
            }
            Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
            _ => {}
        }
    }

    /// Two families defining the same name is refused, naming both.
    #[test]
    fn a_definition_given_twice_is_refused() {
        let mut schema: Value = serde_json::from_str(BASE).unwrap();
        let part = json!({"$defs": {"int": {}}});
        let e = add_defs(&mut schema, "x", &part).unwrap_err();
        assert!(
            e.to_string().contains("`$defs/int`, already defined"),
            "{e}"
        );
    }
}
