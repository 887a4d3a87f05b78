//! `nimlab play`: a game against the computer, in a terminal, from a script
//! (standard input line by line), or as a classroom page (`--html FILE`).
//!
//! The game is named like `nimlab solve` (a family and its parameters) or by
//! a spec file and one of its sweeps, whose parameters the command line may
//! override (`nimlab play experiments/report-003.yaml --sweep misere-357-start`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::cli::PlayArgs;
use crate::family;
use crate::params::{self, Node, SWEEP_KEYS};
use crate::play::{First, Level, Options, Stall, html, session::Session};
use crate::{spec, store};

/// The options of `play` itself (the rest are the game's parameters).
const OWN: &[&str] = &[
    "sweep",
    "first",
    "level",
    "mistakes",
    "when-losing",
    "seed",
    "html",
];

/// Runs `nimlab play`.
pub fn play(mut args: PlayArgs) -> Result<ExitCode> {
    take_own_options(&mut args)?;
    let opts = options(&args)?;
    let (fam, value, label) = game_params(&args)?;
    let node = Node::root(&value, &label);
    let mut game = fam.play(&node)?;
    if let Some(path) = &args.html {
        let page = html::page(&*game, &opts)?;
        store::write_atomic(path, page.as_bytes())?;
        let bytes = page.len();
        println!(
            "wrote {} ({:.1} KiB): open it in a browser; it needs no server and no network",
            path.display(),
            bytes as f64 / 1024.0
        );
        return Ok(ExitCode::SUCCESS);
    }
    let tty = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let stdout = std::io::stdout();
    let mut session = Session::new(&mut *game, opts, stdout.lock(), tty);
    let stdin = std::io::stdin();
    match session.run(&mut stdin.lock()) {
        // The reader of the game went away (`| head`): not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        r => {
            r.context("cannot read the moves or write the game")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Options of `play` given after the family name land among the game's
/// parameters (they are free-form); move them to their fields.
fn take_own_options(args: &mut PlayArgs) -> Result<()> {
    let mut i = 0;
    while i < args.params.len() {
        let a = &args.params[i];
        let Some(body) = a.strip_prefix("--") else {
            i += 1;
            continue;
        };
        let (key, inline) = match body.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (body.to_string(), None),
        };
        if !OWN.contains(&key.replace('_', "-").as_str()) {
            i += 1;
            continue;
        }
        let value = match inline {
            Some(v) => {
                args.params.remove(i);
                v
            }
            None => {
                if i + 1 >= args.params.len() {
                    bail!("--{key} needs a value");
                }
                args.params.remove(i);
                args.params.remove(i)
            }
        };
        let parse_err = |what: &str| anyhow::anyhow!("--{key}: expected {what}, got {value:?}");
        match key.replace('_', "-").as_str() {
            "sweep" => args.sweep = Some(value.clone()),
            "first" => args.first = value.clone(),
            "level" => args.level = value.clone(),
            "when-losing" => args.when_losing = value.clone(),
            "html" => args.html = Some(PathBuf::from(&value)),
            "seed" => args.seed = Some(value.parse().map_err(|_| parse_err("a whole number ≥ 0"))?),
            "mistakes" => {
                args.mistakes = value
                    .parse()
                    .map_err(|_| parse_err("a probability between 0 and 1"))?
            }
            _ => unreachable!("every own option is handled"),
        }
    }
    Ok(())
}

fn options(args: &PlayArgs) -> Result<Options> {
    let first = match args.first.as_str() {
        "me" => First::Me,
        "computer" => First::Computer,
        "random" => First::Random,
        other => bail!("--first: expected one of `me`, `computer`, `random`, got {other:?}"),
    };
    let level = match args.level.as_str() {
        "perfect" => Level::Perfect,
        "easy" => Level::Easy,
        other => bail!("--level: expected one of `perfect`, `easy`, got {other:?}"),
    };
    let stall = match args.when_losing.as_str() {
        "long" => Stall::Long,
        "random" => Stall::Random,
        other => bail!("--when-losing: expected one of `long`, `random`, got {other:?}"),
    };
    if !(0.0..=1.0).contains(&args.mistakes) {
        bail!(
            "--mistakes: expected a probability between 0 and 1, got {}",
            args.mistakes
        );
    }
    let seed = args.seed.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        // Short enough to type back in.
        crate::play::rng::mix(t ^ std::process::id() as u64) % 1_000_000
    });
    Ok(Options {
        first,
        level,
        mistakes: args.mistakes,
        stall,
        seed,
    })
}

fn is_spec(game: &str) -> bool {
    let p = Path::new(game);
    p.extension().is_some_and(|e| e == "yaml" || e == "yml") || p.is_file()
}

/// The family, the game's parameters and the name errors give their source.
fn game_params(args: &PlayArgs) -> Result<(&'static dyn family::Family, Value, String)> {
    if !is_spec(&args.game) {
        if args.sweep.is_some() {
            bail!(
                "--sweep names a sweep of a spec file; {:?} is a family",
                args.game
            );
        }
        let fam = family::by_name(&args.game).with_context(|| {
            format!(
                "unknown family {:?}; known families: {} (or give a spec file and --sweep)",
                args.game,
                family::FAMILIES
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })?;
        let overrides = params::cli_to_map(&args.params, fam.cli_args())?;
        return Ok((fam, overrides, params::COMMAND_LINE.to_string()));
    }
    let exp = spec::load(Path::new(&args.game))?;
    let names = || {
        exp.sweeps
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sweep =
        match &args.sweep {
            Some(n) => exp.sweeps.iter().find(|s| &s.name == n).with_context(|| {
                format!("{}: no sweep {n:?}; its sweeps: {}", args.game, names())
            })?,
            None if exp.sweeps.len() == 1 => &exp.sweeps[0],
            None => bail!(
                "{} has {} sweeps: name one with --sweep ({})",
                args.game,
                exp.sweeps.len(),
                names()
            ),
        };
    let overrides = params::cli_to_map(&args.params, sweep.family.cli_args())?;
    let mut map = serde_json::Map::new();
    if let Some(params) = sweep.params.as_object() {
        for (k, v) in params {
            if !SWEEP_KEYS.contains(&k.as_str()) {
                map.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(o) = overrides.as_object() {
        for (k, v) in o {
            map.insert(k.clone(), v.clone());
        }
    }
    let label = format!(
        "{} (sweep {}{})",
        args.game,
        sweep.name,
        if overrides.as_object().is_some_and(|o| !o.is_empty()) {
            ", with the command line's parameters"
        } else {
            ""
        }
    );
    Ok((sweep.family, Value::Object(map), label))
}
