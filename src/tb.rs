//! `engine tb`: probe Syzygy tables from the command line, one position (`--fen`) or a
//! stream of them (`--batch`, one FEN a line on stdin, one answer a line on stdout).
//!
//! A batch line is `wdl W dtz D best MOVE` (`dtz none` without a DTZ table, `best (none)`
//! without a legal move; `wdl W` alone with `--wdl-only`), or `error MESSAGE` for a line that
//! cannot be probed; the batch goes on with the next line, so a client can pair answers with
//! questions by count.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use crate::position::Position;
use crate::syzygy::{RootMove, Tablebases};

#[derive(clap::Args, Debug)]
pub struct TbArgs {
    /// Directories holding .rtbw/.rtbz files, separated by ':' (';' on Windows).
    #[arg(long)]
    pub path: String,
    /// The position to probe.
    #[arg(long, conflicts_with = "batch", required_unless_present = "batch")]
    pub fen: Option<String>,
    /// Read FENs from stdin, one a line, and print one answer a line.
    #[arg(long)]
    pub batch: bool,
    /// With --fen: also list every legal move with its result.
    #[arg(long)]
    pub moves: bool,
    /// With --batch: probe only WDL and print `wdl W` (the search's probe, for timing it).
    #[arg(long, requires = "batch")]
    pub wdl_only: bool,
}

/// What the tables say about one position.
struct Answer {
    wdl: i32,
    dtz: Option<i32>,
    best: Option<RootMove>,
}

fn probe(tablebases: &Tablebases, pos: &mut Position) -> Result<Answer, String> {
    if pos.castling_rights() != 0 {
        return Err("the position has castling rights; the tables hold none".to_string());
    }
    let pieces = pos.piece_total();
    if pieces > tablebases.max_pieces() {
        return Err(format!(
            "{pieces} pieces, the tables found hold at most {}",
            tablebases.max_pieces()
        ));
    }
    let Some(wdl) = tablebases.probe_wdl(pos) else {
        return Err("missing or damaged table".to_string());
    };
    let dtz = tablebases.probe_dtz(pos);
    let best = tablebases.best_move(pos, true);
    Ok(Answer {
        wdl: wdl.value(),
        dtz,
        best,
    })
}

fn batch_line(tablebases: &Tablebases, fen: &str, wdl_only: bool) -> String {
    let mut pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(error) => return format!("error bad FEN: {error}"),
    };
    if wdl_only {
        return match tablebases.probe_wdl(&mut pos) {
            Some(wdl) => format!("wdl {}", wdl.value()),
            None => "error cannot probe (castling, too many pieces, missing or damaged table)"
                .to_string(),
        };
    }
    match probe(tablebases, &mut pos) {
        Ok(answer) => {
            let dtz = answer.dtz.map_or("none".to_string(), |dtz| dtz.to_string());
            let best = answer.best.map_or("(none)".to_string(), |root| {
                root.mv.to_uci(pos.is_chess960())
            });
            format!("wdl {} dtz {dtz} best {best}", answer.wdl)
        }
        Err(message) => format!("error {message}"),
    }
}

pub fn run(args: &TbArgs) -> ExitCode {
    let tablebases = match Tablebases::open(&args.path) {
        Ok(tablebases) => tablebases,
        Err(error) => {
            eprintln!("engine: {error}");
            return ExitCode::from(2);
        }
    };
    for skipped in tablebases.skipped() {
        eprintln!("engine: skipped {skipped}");
    }
    if tablebases.max_pieces() == 0 {
        eprintln!("engine: no Syzygy tables in {}", args.path);
        return ExitCode::from(2);
    }

    if args.batch {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        for line in stdin.lock().lines() {
            let Ok(line) = line else { break };
            let fen = line.trim();
            if fen.is_empty() {
                continue;
            }
            if writeln!(out, "{}", batch_line(&tablebases, fen, args.wdl_only)).is_err() {
                break;
            }
        }
        let _ = out.flush();
        return ExitCode::SUCCESS;
    }

    let fen = args.fen.as_deref().unwrap_or_default();
    let mut pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(error) => {
            eprintln!("engine: bad FEN: {error}");
            return ExitCode::from(2);
        }
    };
    let answer = match probe(&tablebases, &mut pos) {
        Ok(answer) => answer,
        Err(message) => {
            eprintln!("engine: {message}");
            for failure in tablebases.failures() {
                eprintln!("engine: {failure}");
            }
            return ExitCode::from(2);
        }
    };
    let wdl_name = crate::syzygy::Wdl::from_value(answer.wdl).map_or("?", |wdl| wdl.name());
    let mut text = format!("tables {}\n", tablebases.summary());
    text += &format!("wdl {} ({wdl_name})\n", answer.wdl);
    text += &match answer.dtz {
        Some(dtz) => format!("dtz {dtz}\n"),
        None => "dtz none (no DTZ table)\n".to_string(),
    };
    text += &match answer.best {
        Some(root) => {
            let san = pos.san(root.mv);
            format!("best {} {san}\n", root.mv.to_uci(pos.is_chess960()))
        }
        None => "best (none)\n".to_string(),
    };
    if args.moves
        && let Some(moves) = tablebases.root_moves(&mut pos)
    {
        for root in moves {
            let san = pos.san(root.mv);
            text += &format!(
                "move {} {san} wdl {} dtz {}\n",
                root.mv.to_uci(pos.is_chess960()),
                root.wdl.value(),
                root.dtz
            );
        }
    }
    // A closed pipe (`| head`) is not an error worth a message.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}
