//! `engine play`: a game against Ox88 in the terminal. (Skeleton.)

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// white, black or random.
    #[arg(long, default_value = "white")]
    pub color: String,
}

pub fn run(_args: &PlayArgs) -> ExitCode {
    eprintln!("engine: play is not written yet");
    ExitCode::from(2)
}
