//! `engine bench`: fixed positions, fixed depth, one thread; the node count is the signature.
//! (Skeleton: filled in with the search.)

use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    #[arg(long, default_value_t = 8)]
    pub depth: i32,
}

pub fn run(_args: &BenchArgs) -> ExitCode {
    eprintln!("engine: bench is not written yet");
    ExitCode::from(2)
}
