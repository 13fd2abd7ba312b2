//! The UCI protocol loop. (Skeleton.)

use std::process::ExitCode;

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run() -> ExitCode {
    ExitCode::SUCCESS
}
