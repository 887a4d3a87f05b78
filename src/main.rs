use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = nimlab::cli::Cli::parse();
    match nimlab::run(cli) {
        Ok(code) => code,
        Err(e) => {
            if e.downcast_ref::<nimlab::sweep::Interrupted>().is_some() {
                eprintln!("nimlab: {e:#}");
                return ExitCode::from(130);
            }
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
