//! `engine tune`: Texel tuning of the evaluation weights. (Skeleton.)

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// EPD file of positions labelled with game results.
    pub data: std::path::PathBuf,
}

pub fn run(_args: &TuneArgs) -> ExitCode {
    eprintln!("engine: tune is not written yet");
    ExitCode::from(2)
}
