//! `board lines status`: waves, slices complete, disk used.

use std::path::Path;

use anyhow::Result;
use serde_json::json;

use super::plan::load_plan;
use crate::family::lines::exhaustive::slices::store::Store;
use crate::mem::fmt_bytes;

pub(super) fn status(dir: &Path, json: bool, lines: bool) -> Result<()> {
    let (p, plan) = load_plan(dir)?;
    let store = Store::new(dir, plan.t, plan.slice_bytes())?;
    let mut waves = Vec::new();
    let mut complete = true;
    for k in 0..=plan.t {
        let reps = plan.wave(k);
        let done = reps
            .iter()
            .filter(|&&s| store.record_path(s).is_file())
            .count();
        complete &= done == reps.len();
        waves.push(json!({"wave": k, "stored": reps.len(), "complete": done}));
    }
    let result = dir.join("result.txt").is_file();
    if lines {
        for w in &waves {
            println!("{} {} {}", w["wave"], w["stored"], w["complete"]);
        }
    } else if json {
        let v = json!({
            "shape": p.shape.text(), "take": p.take.text(), "play": p.play.as_str(),
            "waves": waves, "disk_bytes": store.disk_bytes(), "complete": complete, "result": result,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!(
            "board {} take {} {} play: {} slice pieces, {} slices of {}",
            p.shape.text(),
            p.take.text(),
            p.play.as_str(),
            plan.t,
            plan.slices(),
            fmt_bytes(plan.slice_bytes())
        );
        for w in &waves {
            println!(
                "wave {:2}: {:6} of {:6} complete",
                w["wave"], w["complete"], w["stored"]
            );
        }
        println!(
            "disk: {}; {}",
            fmt_bytes(store.disk_bytes()),
            if result {
                "result in result.txt"
            } else if complete {
                "all slices complete: run `nimlab board lines finish`"
            } else {
                "not complete"
            }
        );
    }
    Ok(())
}
