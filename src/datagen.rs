//! `engine datagen`: self-play games that label positions with results, for `engine tune`.
//! (Skeleton.)

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// Where to write the labelled positions.
    #[arg(long)]
    pub output: std::path::PathBuf,
}

pub fn run(_args: &DatagenArgs) -> ExitCode {
    eprintln!("engine: datagen is not written yet");
    ExitCode::from(2)
}
