//! The Syzygy prober on known positions.
//!
//! The 3-piece tables are copied in `tests/data/syzygy`, so these tests run on any clone.
//! The 4-piece tests use `../shared/data/syzygy` (all 3- and 4-piece tables) when it exists
//! and say that they were skipped otherwise. Every expected value was checked by hand for
//! sense (who wins, a mate is -1, a promotion is 1) and equals python-chess 1.11.2's
//! `probe_wdl` / `probe_dtz` on the same files.

use std::path::{Path, PathBuf};

use ox88::position::Position;
use ox88::syzygy::{Tablebases, Wdl};

fn local_tables() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/syzygy")
        .display()
        .to_string()
}

fn shared_tables() -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/syzygy");
    if path.is_dir() {
        Some(path.display().to_string())
    } else {
        eprintln!("skipped: no 4-piece tables at {}", path.display());
        None
    }
}

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FENs are valid")
}

fn check(tablebases: &Tablebases, fen: &str, wdl: i32, dtz: i32) {
    let mut pos = position(fen);
    let before = pos.to_fen();
    let got_wdl = tablebases.probe_wdl(&mut pos).map(Wdl::value);
    let got_dtz = tablebases.probe_dtz(&mut pos);
    assert_eq!((got_wdl, got_dtz), (Some(wdl), Some(dtz)), "{fen}");
    assert_eq!(
        pos.to_fen(),
        before,
        "a probe leaves the position as it was: {fen}"
    );
}

/// A directory in the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("ox88-syzygy-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temporary directory");
        TempDir(path)
    }

    fn write(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.0.join(name), bytes).expect("write a test table");
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn table_bytes(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(&local_tables()).join(name)).expect("the copied 3-piece tables")
}

#[test]
fn lists_the_copied_three_piece_tables() {
    let tablebases = Tablebases::open(&local_tables()).expect("the copied tables");
    assert_eq!(tablebases.max_pieces(), 3);
    assert_eq!(tablebases.wdl_tables(3), 5);
    assert_eq!(tablebases.dtz_tables(3), 5);
    assert!(tablebases.skipped().is_empty());
    assert_eq!(
        tablebases.summary(),
        "5 WDL and 5 DTZ tables: 5 with 3 pieces"
    );
}

#[test]
fn three_piece_positions() {
    let tablebases = Tablebases::open(&local_tables()).expect("the copied tables");
    let cases = [
        // KQvK: a win in 7 plies to the capture-free mate; with black to move, stalemate.
        ("8/8/8/8/8/8/4KQ2/7k w - - 0 1", 2, 7),
        ("8/8/8/8/8/8/4KQ2/7k b - - 0 1", 0, 0),
        // The same with colours swapped: black is the stronger side.
        ("8/8/8/8/8/8/4kq2/7K b - - 0 1", 2, 7),
        ("8/8/8/8/8/8/4kq2/7K w - - 0 1", 0, 0),
        // Checkmated: lost, -1.
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", -2, -1),
        // KRvK, both sides to move.
        ("8/8/8/8/3k4/8/8/R3K3 w - - 0 1", 2, 27),
        ("8/8/8/1k6/8/8/8/K1R5 b - - 0 1", -2, -18),
        // A lone minor piece draws.
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", 0, 0),
        ("8/8/8/8/3k4/8/8/1N2K3 b - - 0 1", 0, 0),
        // KPvK: the opposition decides; a blocked pawn draws; promotion zeroes at once.
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 2, 9),
        ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 0, 0),
        ("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", 0, 0),
        ("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", 2, 1),
        ("8/8/8/8/8/k7/4p3/4K3 b - - 0 1", 0, 0),
        ("8/8/8/8/8/2k5/4p3/4K3 w - - 0 1", 0, 0),
        // Bare kings need no table.
        ("8/8/8/8/8/8/8/K1k5 w - - 0 1", 0, 0),
        // The probe assumes a fresh 50-move count, whatever the FEN says.
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80", 2, 9),
    ];
    for (fen, wdl, dtz) in cases {
        check(&tablebases, fen, wdl, dtz);
    }
}

#[test]
fn best_moves_keep_the_result() {
    let tablebases = Tablebases::open(&local_tables()).expect("the copied tables");

    // Promotion wins at once.
    let mut pos = position("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    let best = tablebases.best_move(&mut pos, true).expect("a move");
    assert!(best.mv.is_promotion());
    assert_eq!((best.wdl, best.dtz), (Wdl::Win, 1));

    // A mate in one is taken (a mating move counts 1).
    let mut pos = position("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    let best = tablebases.best_move(&mut pos, true).expect("a move");
    pos.make_move(best.mv);
    assert!(pos.is_checkmate(), "best move {:?}", best.mv.to_uci(false));
    pos.unmake_move();

    // KQvK: most queen moves win, some hang the queen; the best one wins in DTZ order.
    let mut pos = position("8/8/8/8/8/8/4KQ2/7k w - - 0 1");
    let moves = tablebases.root_moves(&mut pos).expect("root moves");
    assert_eq!(moves.len(), pos.legal_moves().len());
    assert!(moves.iter().any(|root| root.wdl == Wdl::Draw));
    let best = tablebases.best_move(&mut pos, true).expect("a move");
    assert_eq!((best.wdl, best.dtz), (Wdl::Win, 7));
    let fastest = moves
        .iter()
        .filter(|root| root.wdl == Wdl::Win)
        .map(|root| root.dtz)
        .min();
    assert_eq!(fastest, Some(7));

    // The defender plays the longest loss.
    let mut pos = position("8/8/8/1k6/8/8/8/K1R5 b - - 0 1");
    let best = tablebases.best_move(&mut pos, true).expect("a move");
    assert_eq!((best.wdl, best.dtz), (Wdl::Loss, -18));

    // No legal move: no best move.
    let mut pos = position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    assert!(tablebases.best_move(&mut pos, true).is_none());
}

#[test]
fn what_the_tables_cannot_answer_is_none() {
    let tablebases = Tablebases::open(&local_tables()).expect("the copied tables");
    // Castling rights: the tables hold none.
    let mut pos = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(tablebases.probe_wdl(&mut pos), None);
    assert_eq!(tablebases.probe_dtz(&mut pos), None);
    // More pieces than any table.
    let mut pos = position("4k3/8/8/8/8/8/8/RR2K3 w - - 0 1");
    assert_eq!(tablebases.probe_wdl(&mut pos), None);
    let mut pos = position(ox88::position::fen::START_FEN);
    assert_eq!(tablebases.probe_wdl(&mut pos), None);
    assert!(tablebases.root_moves(&mut pos).is_none());
}

#[test]
fn a_missing_directory_is_an_error_and_an_empty_path_no_tables() {
    let error = match Tablebases::open("/no/such/ox88/directory") {
        Ok(_) => panic!("a missing directory must be an error"),
        Err(error) => error,
    };
    assert!(error.contains("/no/such/ox88/directory"), "{error}");
    let empty = Tablebases::open("").expect("no directories, no tables");
    assert_eq!(empty.max_pieces(), 0);
    let mut pos = position("8/8/8/8/8/8/4KQ2/7k w - - 0 1");
    assert_eq!(empty.probe_wdl(&mut pos), None);
}

#[test]
fn several_directories_are_joined() {
    let Some(shared) = shared_tables() else {
        return;
    };
    let both = format!("{}{}{shared}", local_tables(), ox88::syzygy::PATH_SEPARATOR);
    let tablebases = Tablebases::open(&both).expect("both directories");
    assert_eq!(tablebases.max_pieces(), 4);
    assert_eq!(
        tablebases.wdl_tables(3),
        5,
        "a table in two directories counts once"
    );
    assert_eq!(tablebases.wdl_tables(4), 30);
}

#[test]
fn a_truncated_table_is_skipped_with_a_message() {
    let dir = TempDir::new("truncated");
    let bytes = table_bytes("KQvK.rtbw");
    dir.write("KQvK.rtbw", &bytes[..bytes.len() - 40]);
    let tablebases = Tablebases::open(&dir.path()).expect("the directory itself is fine");
    assert_eq!(tablebases.skipped().len(), 1);
    assert!(
        tablebases.skipped()[0].contains("KQvK.rtbw"),
        "{:?}",
        tablebases.skipped()
    );
    let mut pos = position("8/8/8/8/8/8/4KQ2/7k w - - 0 1");
    assert_eq!(tablebases.probe_wdl(&mut pos), None);
}

#[test]
fn a_damaged_header_fails_its_probes_with_a_message() {
    let dir = TempDir::new("magic");
    let mut bytes = table_bytes("KRvK.rtbz");
    bytes[0] ^= 0xFF;
    dir.write("KRvK.rtbz", &bytes);
    dir.write("KRvK.rtbw", &table_bytes("KRvK.rtbw"));
    let tablebases = Tablebases::open(&dir.path()).expect("the directory itself is fine");
    let mut pos = position("8/8/8/8/3k4/8/8/R3K3 w - - 0 1");
    assert_eq!(
        tablebases.probe_wdl(&mut pos),
        Some(Wdl::Win),
        "the WDL file is intact"
    );
    assert_eq!(tablebases.probe_dtz(&mut pos), None);
    let failures = tablebases.failures();
    assert_eq!(failures.len(), 1);
    assert!(
        failures[0].contains("KRvK.rtbz") && failures[0].contains("magic"),
        "{failures:?}"
    );
}

#[test]
fn corrupted_tables_never_panic() {
    let fens = [
        "8/8/8/8/8/8/4KQ2/7k w - - 0 1",
        "8/8/8/8/3k4/8/8/R3K3 w - - 0 1",
        "8/8/8/1k6/8/8/8/K1R5 b - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "8/8/8/8/8/k7/4p3/4K3 b - - 0 1",
        "8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
    ];
    let names = [
        "KQvK.rtbw",
        "KQvK.rtbz",
        "KRvK.rtbw",
        "KRvK.rtbz",
        "KPvK.rtbw",
        "KPvK.rtbz",
    ];
    let originals: Vec<Vec<u8>> = names.iter().map(|name| table_bytes(name)).collect();
    let dir = TempDir::new("corrupted");
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    // OX88_SYZYGY_FUZZ_ROUNDS=N for a longer run.
    let rounds = std::env::var("OX88_SYZYGY_FUZZ_ROUNDS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(150);
    for round in 0..rounds {
        for (name, original) in names.iter().zip(&originals) {
            let mut bytes = original.clone();
            // Mostly the header (where offsets live), sometimes anywhere.
            let reach = if round % 3 == 0 {
                bytes.len()
            } else {
                bytes.len().min(96)
            };
            for _ in 0..1 + next() % 4 {
                let at = (next() % reach as u64) as usize;
                bytes[at] = next() as u8;
            }
            dir.write(name, &bytes);
        }
        let tablebases = Tablebases::open(&dir.path()).expect("the directory itself is fine");
        for fen in fens {
            let mut pos = position(fen);
            let _ = tablebases.probe_wdl(&mut pos);
            let _ = tablebases.probe_dtz(&mut pos);
            let _ = tablebases.best_move(&mut pos, true);
            assert_eq!(pos.to_fen(), position(fen).to_fen());
        }
    }
}

#[test]
fn tables_are_shared_between_threads() {
    fn assert_sync<T: Send + Sync>() {}
    assert_sync::<Tablebases>();
    let tablebases = Tablebases::open(&local_tables()).expect("the copied tables");
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for _ in 0..50 {
                    check(&tablebases, "8/8/8/8/3k4/8/8/R3K3 w - - 0 1", 2, 27);
                    check(&tablebases, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 2, 9);
                }
            });
        }
    });
}

#[test]
fn four_piece_positions() {
    let Some(shared) = shared_tables() else {
        return;
    };
    let tablebases = Tablebases::open(&shared).expect("the shared tables");
    assert_eq!(tablebases.max_pieces(), 4);
    let cases = [
        // KBNvK: the long mate, 58 plies to the mate (no zeroing move on the way).
        ("8/8/8/8/8/4k3/8/KBN5 w - - 0 1", 2, 58),
        // KQvKR with the rook hanging: the capture wins at once.
        ("4k3/8/8/8/8/8/3r4/4KQ2 w - - 0 1", 2, 1),
        // KBvKR is a draw.
        ("8/8/3k4/8/8/2B5/8/3K1r2 w - - 0 1", 0, 0),
        // En passant decides: capturing c6 reaches a won KPvK; without the right, a draw.
        ("8/5K2/8/1Pp5/8/8/8/4k3 w - c6 0 2", 2, 1),
        ("8/5K2/8/1Pp5/8/8/8/4k3 w - - 0 2", 0, 0),
        // The same with colours swapped and black to move.
        ("4K3/8/8/8/1pP5/8/5k2/8 b - c3 0 2", 2, 1),
        ("4K3/8/8/8/1pP5/8/5k2/8 b - - 0 2", 0, 0),
        // Here the capture saves a lost position.
        ("7k/8/K7/5pP1/8/8/8/8 w - f6 0 2", 0, 0),
        ("7k/8/K7/5pP1/8/8/8/8 w - - 0 2", -2, -5),
        ("8/8/k7/Pp6/5K2/8/8/8 w - b6 0 2", 0, 0),
        ("8/8/k7/Pp6/5K2/8/8/8 w - - 0 2", -2, -1),
    ];
    for (fen, wdl, dtz) in cases {
        check(&tablebases, fen, wdl, dtz);
    }
    // A 4-piece position is not in the 3-piece copies.
    let local = Tablebases::open(&local_tables()).expect("the copied tables");
    let mut pos = position("8/8/8/8/8/4k3/8/KBN5 w - - 0 1");
    assert_eq!(local.probe_wdl(&mut pos), None);
}
