//! `engine replay <log>`: plays the GUI's side of a `Debug Log File` back into a fresh engine
//! at the logged pace and shows where the engine's answers now differ from the logged ones.
//!
//! A bug report from a GUI then becomes a command anyone can run. The input lines (`>>`) are
//! written to the new engine no earlier than the times the log gives (measured from the
//! replay's start) and, like a GUI, no earlier than the answers they followed in the log: an
//! input logged after the n-th answer (`uciok`, `readyok`, `bestmove`) waits for the
//! replayed n-th answer. The output (`<<`) is collected and compared with the log's. Searches bounded by depth or
//! nodes on one thread repeat exactly, so their `bestmove` lines must agree; clock-bound ones
//! may not. Timing fields (`time`, `nps`, `hashfull`) are left out of the comparison, and a
//! `setoption name Debug Log File` in the log is not replayed (it would overwrite the log).
//!
//! Exit status: 0 when every `bestmove` agrees, 1 when one differs, 2 when the log cannot be
//! read or the engine cannot be started.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// How long the replay waits for more output after the last input before it ends the engine.
const QUIET_AFTER_INPUT: Duration = Duration::from_secs(5);
/// How long an input waits for the answer it followed in the log before it is sent anyway.
const ANSWER_PATIENCE: Duration = Duration::from_secs(30);
/// How many differing lines are shown.
const SHOWN_DIFFERENCES: usize = 10;

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// A log written with `setoption name Debug Log File value <path>`.
    pub log: PathBuf,
    /// The engine to replay into (default: this program).
    #[arg(long)]
    pub engine: Option<PathBuf>,
}

/// One logged line: when, which way, what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub millis: u64,
    pub input: bool,
    pub text: String,
}

/// Reads a log's lines; `#` lines and blank lines are skipped; anything else that is not
/// `<millis> >>|<< <text>` is an error naming the line.
pub fn parse_log(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "line {} is not '<milliseconds> >>|<< <text>': '{}'",
                number + 1,
                crate::uci::command::quote(line)
            )
        };
        let (millis, rest) = trimmed.split_once(' ').ok_or_else(bad)?;
        let millis: u64 = millis.parse().map_err(|_| bad())?;
        let rest = rest.trim_start();
        let (input, text) = if let Some(text) = rest.strip_prefix(">>") {
            (true, text)
        } else if let Some(text) = rest.strip_prefix("<<") {
            (false, text)
        } else {
            return Err(bad());
        };
        entries.push(Entry {
            millis,
            input,
            text: text.strip_prefix(' ').unwrap_or(text).to_string(),
        });
    }
    Ok(entries)
}

/// An output line without the fields that depend on the clock.
pub fn normalize(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
        return words.join(" ");
    }
    let mut kept = Vec::with_capacity(words.len());
    let mut index = 0;
    while index < words.len() {
        if matches!(words[index], "time" | "nps" | "hashfull") && index + 1 < words.len() {
            index += 2;
            continue;
        }
        kept.push(words[index]);
        index += 1;
    }
    kept.join(" ")
}

/// The lines a GUI waits for before it sends more.
fn is_answer(line: &str) -> bool {
    let first = line.split_whitespace().next();
    matches!(first, Some("uciok" | "readyok" | "bestmove"))
}

fn is_log_option(line: &str) -> bool {
    let words: Vec<String> = line
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    words.len() >= 5 && words[0] == "setoption" && words[2..5] == ["debug", "log", "file"]
}

/// Runs the input side of `entries` through `engine` at the logged pace; returns the output.
fn run_engine(engine: &PathBuf, entries: &[Entry]) -> Result<Vec<String>, String> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|error| format!("cannot start {}: {error}", engine.display()))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return Err("no pipes to the engine".to_string());
    };
    let (sender, receiver) = crossbeam_channel::unbounded::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let mut output: Vec<String> = Vec::new();
    let mut answers = 0;
    let mut logged_answers = 0;
    let mut quit_sent = false;
    for entry in entries {
        if !entry.input {
            logged_answers += usize::from(is_answer(&entry.text));
            continue;
        }
        let due = start + Duration::from_millis(entry.millis);
        let give_up = Instant::now().max(due) + ANSWER_PATIENCE;
        // Collect what arrives while waiting, so a long log does not fill the pipe.
        loop {
            let now = Instant::now();
            let wait = if now < due {
                due - now
            } else if answers < logged_answers && now < give_up {
                give_up - now
            } else {
                break;
            };
            if let Ok(line) = receiver.recv_timeout(wait) {
                answers += usize::from(is_answer(&line));
                output.push(line);
            }
        }
        if is_log_option(&entry.text) {
            continue;
        }
        if writeln!(stdin, "{}", entry.text).is_err() {
            break;
        }
        let _ = stdin.flush();
        if entry.text.split_whitespace().next() == Some("quit") {
            quit_sent = true;
            break;
        }
    }
    let logged_bestmoves = entries
        .iter()
        .filter(|entry| !entry.input && entry.text.starts_with("bestmove"))
        .count();
    if !quit_sent {
        // Wait for the searches still running, then end the engine by closing its input.
        loop {
            let bestmoves = output
                .iter()
                .filter(|line| line.starts_with("bestmove"))
                .count();
            if bestmoves >= logged_bestmoves {
                break;
            }
            match receiver.recv_timeout(QUIET_AFTER_INPUT) {
                Ok(line) => output.push(line),
                Err(_) => break,
            }
        }
    }
    drop(stdin);
    let deadline = Instant::now() + QUIET_AFTER_INPUT;
    while Instant::now() < deadline {
        match receiver.recv_timeout(deadline - Instant::now()) {
            Ok(line) => output.push(line),
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => break,
        }
    }
    if child.try_wait().ok().flatten().is_none() {
        let _ = child.kill();
    }
    let _ = child.wait();
    let _ = reader.join();
    while let Ok(line) = receiver.try_recv() {
        output.push(line);
    }
    Ok(output)
}

pub fn run(args: &ReplayArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("engine: {message}");
        ExitCode::from(2)
    };
    let text = match std::fs::read(&args.log) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => return fail(format!("cannot read {}: {error}", args.log.display())),
    };
    let entries = match parse_log(&text) {
        Ok(entries) => entries,
        Err(error) => return fail(format!("{}: {error}", args.log.display())),
    };
    if !entries.iter().any(|entry| entry.input) {
        return fail(format!(
            "{} has no input lines to replay",
            args.log.display()
        ));
    }
    let engine = match &args.engine {
        Some(path) => path.clone(),
        None => match std::env::current_exe() {
            Ok(path) => path,
            Err(error) => return fail(format!("cannot find this program: {error}")),
        },
    };
    let inputs = entries.iter().filter(|entry| entry.input).count();
    let span = entries.last().map_or(0, |entry| entry.millis);
    println!(
        "replaying {inputs} input lines over {:.1} s into {}",
        span as f64 / 1000.0,
        engine.display()
    );
    let replayed = match run_engine(&engine, &entries) {
        Ok(lines) => lines,
        Err(error) => return fail(error),
    };
    let logged: Vec<&str> = entries
        .iter()
        .filter(|entry| !entry.input && !entry.text.starts_with("info string Debug Log File"))
        .map(|entry| entry.text.as_str())
        .collect();
    let replayed: Vec<&str> = replayed
        .iter()
        .map(String::as_str)
        .filter(|line| !line.starts_with("info string Debug Log File"))
        .collect();
    let report = compare(&logged, &replayed);
    print!("{}", report.text);
    if report.bestmoves_agree {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The comparison of logged and replayed output, as text, and its verdict.
pub struct Report {
    pub text: String,
    pub bestmoves_agree: bool,
}

pub fn compare(logged: &[&str], replayed: &[&str]) -> Report {
    let mut text = String::new();
    let bestmoves = |lines: &[&str]| -> Vec<String> {
        lines
            .iter()
            .filter(|line| line.starts_with("bestmove"))
            .map(|line| normalize(line))
            .collect()
    };
    let (old, new) = (bestmoves(logged), bestmoves(replayed));
    let mut agree = old.len() == new.len();
    for index in 0..old.len().max(new.len()) {
        let (a, b) = (old.get(index), new.get(index));
        if a != b {
            agree = false;
            text.push_str(&format!(
                "bestmove {}: logged '{}', replayed '{}'\n",
                index + 1,
                a.map_or("(none)", String::as_str),
                b.map_or("(none)", String::as_str)
            ));
        }
    }
    let equal = old.iter().zip(&new).filter(|(a, b)| a == b).count();
    text.push_str(&format!(
        "bestmove lines: {equal} of {} equal{}\n",
        old.len(),
        if new.len() == old.len() {
            String::new()
        } else {
            format!(" ({} replayed)", new.len())
        }
    ));
    let old_lines: Vec<String> = logged.iter().map(|line| normalize(line)).collect();
    let new_lines: Vec<String> = replayed.iter().map(|line| normalize(line)).collect();
    let mut shown = 0;
    let mut differing = 0;
    for index in 0..old_lines.len().max(new_lines.len()) {
        let (a, b) = (old_lines.get(index), new_lines.get(index));
        if a == b {
            continue;
        }
        differing += 1;
        if shown < SHOWN_DIFFERENCES {
            shown += 1;
            text.push_str(&format!(
                "output line {}:\n  logged   {}\n  replayed {}\n",
                index + 1,
                a.map_or("(none)", String::as_str),
                b.map_or("(none)", String::as_str)
            ));
        }
    }
    text.push_str(&format!(
        "output lines: {} logged, {} replayed, {differing} differ (time, nps and hashfull ignored)\n",
        old_lines.len(),
        new_lines.len()
    ));
    Report {
        text,
        bestmoves_agree: agree,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_log_lines() {
        let log = "# header\n         0 >> uci\n        12 << id name Ox88 0.1.0\n\n      1500 >> go depth 3\n";
        let entries = parse_log(log).expect("valid");
        assert_eq!(entries.len(), 3);
        assert_eq!(
            entries[2],
            Entry {
                millis: 1500,
                input: true,
                text: "go depth 3".to_string()
            }
        );
        assert!(parse_log("12 -> uci").is_err());
        assert!(parse_log("soon >> uci").is_err());
    }

    #[test]
    fn timing_fields_are_ignored() {
        assert_eq!(
            normalize("info depth 5 score cp 20 nodes 900 nps 450000 hashfull 3 time 2 pv e2e4"),
            "info depth 5 score cp 20 nodes 900 pv e2e4"
        );
        assert_eq!(normalize("info string time 5"), "info string time 5");
        assert!(is_log_option(
            "setoption name Debug Log File value /tmp/x.log"
        ));
        assert!(!is_log_option("setoption name Hash value 16"));
    }

    #[test]
    fn differing_bestmoves_are_shown() {
        let same = compare(&["readyok", "bestmove e2e4"], &["readyok", "bestmove e2e4"]);
        assert!(same.bestmoves_agree);
        assert!(same.text.contains("bestmove lines: 1 of 1 equal"));
        let changed = compare(&["bestmove e2e4"], &["bestmove d2d4"]);
        assert!(!changed.bestmoves_agree);
        assert!(
            changed
                .text
                .contains("logged 'bestmove e2e4', replayed 'bestmove d2d4'")
        );
        assert!(!compare(&["bestmove e2e4"], &[]).bestmoves_agree);
    }
}
