use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = nimlab::cli::Cli::parse();
    match nimlab::run(cli) {
        Ok(code) => code,
        Err(e) => {
            if let Some(i) = e.downcast_ref::<nimlab::sweep::InterruptedRun>() {
                eprintln!("nimlab: {i}");
                return ExitCode::from(130);
            }
            if nimlab::cmd::is_broken_pipe(&e) {
                // The reader went away (`| head`): nothing left to say.
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
