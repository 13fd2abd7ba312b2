//! Randomized malformed input for every text parser, in-process: FENs, UCI `position`, `go`,
//! `setoption` and other lines, SAN moves, PGN movetext, `play` commands, `--time` and
//! `--level` values, perft EPD lines, training data lines and records. Nothing may panic.
//!
//! Cases are valid inputs (the perft suites' FENs, real game scores, typical command lines)
//! mutated at the byte, token and field level: flipped, inserted, deleted and duplicated
//! characters, huge and negative numbers, non-ASCII, empty fields, fields of one FEN in
//! another, pieces dropped on random squares. Whatever parses is then used the way the engine
//! uses it (legal moves, make/unmake, SAN, the network's evaluation, the `d` display, replaying `position …
//! moves`), since a parser that accepts what the rest of the engine cannot handle is the more
//! likely failure.
//!
//! The generator is a seeded SplitMix64, so each case is reproducible from its index: a
//! failure prints the case number and input, and `case_input(seed, index)` rebuilds it.
//! `cargo test --release` runs 3,000 cases; `cargo test --release -- --ignored
//! fuzz_inputs_million` runs 1,000,000 (392 s on one busy core; `FUZZ_CASES` and
//! `FUZZ_SEED` change count and seed).

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex};

use ox88::datagen::format::{RECORD_BYTES, Record};
use ox88::eval::describe_network;
use ox88::perft::parse_epd_line;
use ox88::play::clock::TimeControl;
use ox88::play::commands::PlayCommand;
use ox88::play::explain;
use ox88::play::game::PlayGame;
use ox88::position::Position;
use ox88::strength::Strength;
use ox88::train::data::text_record;
use ox88::types::{Color, parse_square};
use ox88::uci::command::UciCommand;
use ox88::uci::options::Options;
use ox88::uci::setup::{display, setup};

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound.max(1) as u64) as usize
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.next().is_multiple_of(one_in)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn suite_fens() -> Vec<String> {
    [
        include_str!("../perft/perftsuite.epd"),
        include_str!("../perft/perft_cpw_extra.epd"),
        include_str!("../perft/chess960_fischer.epd"),
    ]
    .iter()
    .flat_map(|text| text.lines())
    .filter_map(|line| line.split(';').next())
    .map(|fen| fen.trim().to_string())
    .filter(|fen| !fen.is_empty())
    .collect()
}

/// Real game scores, with the decorations PGN allows (comments, NAGs, variations, results).
const PGNS: &[&str] = &[
    // Morphy - Duke of Brunswick and Count Isouard, Paris 1858.
    "[Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n[Result \"1-0\"]\n\n\
     1. e4 e5 2. Nf3 d6 3. d4 Bg4 {This is a weak move already.} 4. dxe5 Bxf3 5. Qxf3 dxe5 \
     6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 \
     13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0",
    // Anderssen - Kieseritzky, London 1851 (the Immortal Game).
    "1.e4 e5 2.f4 exf4 3.Bc4 Qh4+ 4.Kf1 b5 5.Bxb5 Nf6 6.Nf3 Qh6 7.d3 Nh5 8.Nh4 Qg5 \
     9.Nf5 c6 10.g4 Nf6 11.Rg1 cxb5 12.h4 Qg6 13.h5 Qg5 14.Qf3 Ng8 15.Bxf4 Qf6 \
     16.Nc3 Bc5 17.Nd5 Qxb2 18.Bd6 Bxg1 19.e5 Qxa1+ 20.Ke2 Na6 21.Nxg7+ Kd8 \
     22.Qf6+ Nxf6 23.Be7# 1-0",
    // Byrne - Fischer, New York 1956, with NAGs and a variation.
    "1. Nf3 Nf6 2. c4 g6 3. Nc3 Bg7 4. d4 O-O 5. Bf4 d5 6. Qb3 dxc4 7. Qxc4 c6 8. e4 Nbd7 \
     9. Rd1 Nb6 10. Qc5 Bg4 11. Bg5 $2 Na4 $3 12. Qa3 (12. Nxa4 Nxe4 13. Qxe7 Qa5+) 12... Nxc3 \
     13. bxc3 Nxe4 14. Bxe7 Qb6 15. Bc4 Nxc3 16. Bc5 Rfe8+ 17. Kf1 Be6 !! 18. Bxb6 Bxc4+ \
     19. Kg1 Ne2+ 20. Kf1 Nxd4+ 21. Kg1 Ne2+ 22. Kf1 Nc3+ 23. Kg1 axb6 24. Qb4 Ra4 0-1",
    // Promotions, en passant, underpromotion and both castlings.
    "1. e4 d5 2. e5 f5 3. exf6 e.p. Nc6 4. fxg7 Bd7 5. gxh8=Q Qc8 6. Qxg8 O-O-O 7. Qxf8 d4 \
     8. c4 dxc3 9. Nf3 cxb2 10. Be2 bxa1=N 11. O-O e5 12. d3 h5 13. Bg5 h4 14. g4 hxg3 \
     15. hxg3 Nxc2 16. Qxc2 1/2-1/2",
    "1. d4 e5 2. dxe5 f6 3. exf6 Kf7 4. fxg7 Kg6 5. gxf8=N+ Kh6 6. Nxh7 Qe7 7. Nxg5 *",
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 \
     9. Qd2 O-O 10. O-O-O Nbd7 11. g4 b5 12. g5 b4 13. Ne2 Ne8 14. f4 a5 15. f5 a4 \
     16. Nbd4 exd4 17. Nxd4 b3 18. Kb1 bxc2+ 19. Nxc2 Bb3 20. axb3 axb3 21. Na3 Ra2 0-1",
    "1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.e3 0-0 5.Bd3 d5 6.Nf3 c5 7.0-0 Nc6 8.a3 Bxc3 9.bxc3 dxc4 \
     10.Bxc4 Qc7 11.Bd3 e5 12.Qc2 Re8 13.Nxe5 Nxe5 14.dxe5 Qxe5 15.f3 Bd7 16.e4 c4 \
     17.Bxc4 Qc5+ 18.Kh1 Qxc4 19.Qxc4 Rac8 0-1",
];

/// Command lines as a GUI sends them (the FEN ones get suite FENs spliced in too).
const COMMAND_LINES: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves d2d4 d7d5",
    "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1 e8c8",
    "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 moves e2e4 f4e3",
    "position fen rnbqkb1r/pp1p1pPp/8/2p1pP2/1P1P4/3P3P/P1P1P3/RNBQKBNR w KQkq e6 0 1 moves f5e6 g7h8q",
    "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1",
    "go",
    "go infinite",
    "go depth 10",
    "go nodes 100000",
    "go movetime 1000",
    "go mate 3",
    "go perft 3",
    "go wtime 300000 btime 300000 winc 2000 binc 2000 movestogo 40",
    "go ponder wtime 1000 btime 1000",
    "go searchmoves e2e4 d2d4 depth 5",
    "go depth 4 nodes 5000 movetime 100 infinite",
    "stop",
    "ponderhit",
    "setoption name Hash value 64",
    "setoption name Threads value 4",
    "setoption name MultiPV value 3",
    "setoption name Move Overhead value 100",
    "setoption name Clear Hash",
    "setoption name Ponder value true",
    "setoption name UCI_Chess960 value true",
    "setoption name UCI_ShowWDL value false",
    "setoption name UCI_LimitStrength value true",
    "setoption name UCI_Elo value 1500",
    "setoption name Skill Level value 10",
    "debug on",
    "debug off",
    "d",
    "eval",
    "bench 5",
    "quit",
];

/// Lines typed at `engine play`.
const PLAY_LINES: &[&str] = &[
    "help",
    "moves",
    "moves e2",
    "hint",
    "undo",
    "flip",
    "level hard",
    "level 1500",
    "fen",
    "pgn",
    "draw",
    "resign",
    "new",
    "quit",
    "e4",
    "Nf3",
    "O-O",
    "e7e8q",
    "exd6 e.p.",
];

/// Words dropped into token positions.
const TOKENS: &[&str] = &[
    "",
    "0",
    "1",
    "-1",
    "-0",
    "+5",
    "64",
    "65",
    "255",
    "256",
    "65535",
    "65536",
    "65537",
    "2147483647",
    "2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "1e9",
    "0x10",
    "NaN",
    "inf",
    "-inf",
    "0.5",
    "1.5e308",
    "moves",
    "fen",
    "startpos",
    "position",
    "go",
    "name",
    "value",
    "setoption",
    "searchmoves",
    "infinite",
    "ponder",
    "depth",
    "nodes",
    "perft",
    "wtime",
    "movestogo",
    "mate",
    "e2e4",
    "e1g1",
    "e1h1",
    "e1c1",
    "e1a1",
    "a7a8q",
    "a7a8",
    "a2a1n",
    "h7h8k",
    "0000",
    "a9a1",
    "i1i2",
    "O-O",
    "O-O-O",
    "0-0",
    "Qxh7#",
    "exd6e.p.",
    "=Q",
    "KQkq",
    "HAha",
    "-",
    "w",
    "b",
    "8/8/8/8/8/8/8/8",
    "é",
    "♞",
    "日本",
    "\u{0}",
    "\u{feff}",
    "\u{301}",
    "\t",
    "\r",
    "\u{a0}",
    "\u{2028}",
    "true",
    "false",
    "Hash",
    "Threads",
];

/// Characters inserted or written over others.
const CHARS: &[char] = &[
    'p',
    'n',
    'b',
    'r',
    'q',
    'k',
    'P',
    'N',
    'B',
    'R',
    'Q',
    'K',
    '1',
    '2',
    '3',
    '7',
    '8',
    '9',
    '0',
    '/',
    '-',
    ' ',
    'w',
    'a',
    'h',
    'H',
    'A',
    'x',
    '+',
    '#',
    '=',
    '.',
    ';',
    '[',
    ']',
    '{',
    '}',
    '(',
    ')',
    '"',
    '$',
    '!',
    '?',
    'O',
    'o',
    'e',
    '\t',
    '\n',
    '\r',
    '\0',
    'é',
    'ß',
    '♚',
    '\u{301}',
    '\u{feff}',
    '\u{a0}',
    '\u{1F600}',
    'İ',
    'K',
    'Ω',
];

fn random_token(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => rng.next().to_string(),
        1 => format!("-{}", rng.next() >> rng.below(64)),
        2 => "9".repeat(1 + rng.below(60)),
        _ => rng.pick(TOKENS).to_string(),
    }
}

/// One character-level change.
fn mutate_chars(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let at = rng.below(chars.len() + 1);
    match rng.below(7) {
        0 if !chars.is_empty() => {
            chars.remove(at.min(chars.len() - 1));
        }
        1 if !chars.is_empty() => {
            let index = at.min(chars.len() - 1);
            chars[index] = *rng.pick(CHARS);
        }
        2 => chars.insert(at, *rng.pick(CHARS)),
        3 if !chars.is_empty() => {
            // Duplicate a run.
            let start = at.min(chars.len() - 1);
            let end = (start + 1 + rng.below(12)).min(chars.len());
            let run: Vec<char> = chars[start..end].to_vec();
            let into = rng.below(chars.len() + 1);
            chars.splice(into..into, run);
        }
        4 => chars.truncate(at),
        5 if !chars.is_empty() => {
            // Flip an ASCII bit, keeping the text valid UTF-8.
            let index = at.min(chars.len() - 1);
            if chars[index].is_ascii() {
                chars[index] = ((chars[index] as u8) ^ (1 << rng.below(7))) as char;
            }
        }
        _ => {
            for letter in random_token(rng).chars() {
                chars.insert(at.min(chars.len()), letter);
            }
        }
    }
    chars.into_iter().collect()
}

/// One token-level change (tokens split on spaces, joined with a random separator).
fn mutate_tokens(rng: &mut Rng, text: &str) -> String {
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    let at = rng.below(tokens.len());
    match rng.below(6) {
        0 => tokens[at] = random_token(rng),
        1 => tokens.insert(rng.below(tokens.len() + 1), random_token(rng)),
        2 if tokens.len() > 1 => {
            tokens.remove(at);
        }
        3 => {
            let other = rng.below(tokens.len());
            tokens.swap(at, other);
        }
        4 => {
            let copy = tokens[at].clone();
            tokens.insert(at, copy);
        }
        _ => tokens.truncate(at + 1),
    }
    let separator = *rng.pick(&[" ", " ", " ", "  ", "\t", " \r", "\u{a0}"]);
    tokens.join(separator)
}

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut text = text.to_string();
    for _ in 0..1 + rng.below(4) {
        text = if rng.chance(2) {
            mutate_chars(rng, &text)
        } else {
            mutate_tokens(rng, &text)
        };
    }
    text
}

/// The FEN board as 64 characters, rank 8 first ('.' for empty); `None` when unreadable.
fn expand_board(board: &str) -> Option<Vec<char>> {
    let mut squares = Vec::with_capacity(64);
    for letter in board.chars() {
        match letter {
            '1'..='8' => squares.extend(std::iter::repeat_n('.', letter as usize - '0' as usize)),
            '/' => {}
            _ => squares.push(letter),
        }
    }
    (squares.len() == 64).then_some(squares)
}

fn compress_board(squares: &[char]) -> String {
    let mut text = String::new();
    for (rank, row) in squares.chunks(8).enumerate() {
        if rank > 0 {
            text.push('/');
        }
        let mut empty = 0;
        for &square in row {
            if square == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(square);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
    }
    text
}

/// A FEN changed in a way that often stays valid: pieces moved, added or removed on the board,
/// fields exchanged with another FEN, rights and en passant squares made up.
fn mutate_fen(rng: &mut Rng, fens: &[String]) -> String {
    let base = rng.pick(fens).clone();
    let mut fields: Vec<String> = base.split(' ').map(str::to_string).collect();
    for _ in 0..1 + rng.below(3) {
        match rng.below(8) {
            0..=2 => {
                if let Some(mut squares) = expand_board(&fields[0]) {
                    for _ in 0..1 + rng.below(4) {
                        let square = rng.below(64);
                        squares[square] = *rng.pick(&[
                            '.', '.', '.', 'p', 'P', 'n', 'N', 'b', 'B', 'r', 'R', 'q', 'Q', 'k',
                            'K',
                        ]);
                        if rng.chance(3) {
                            // Move a piece rather than conjure one.
                            let other = rng.below(64);
                            squares.swap(square, other);
                        }
                    }
                    fields[0] = compress_board(&squares);
                }
            }
            3 => {
                let other: Vec<String> = rng.pick(fens).split(' ').map(str::to_string).collect();
                let field = rng.below(fields.len().min(other.len()));
                fields[field] = other[field].clone();
            }
            4 if fields.len() > 2 => {
                fields[2] = rng
                    .pick(&[
                        "-", "K", "Q", "k", "q", "KQkq", "KQ", "kq", "Kk", "AHah", "HAha", "Bb",
                        "GE", "KQkqKQ", "Aa", "Hh", "KH", "kk", "QK", "Cc", "Dd", "Ee", "Ff",
                    ])
                    .to_string();
            }
            5 if fields.len() > 3 => {
                let file = (b'a' + rng.below(9) as u8) as char;
                let rank = (b'0' + rng.below(10) as u8) as char;
                fields[3] = format!("{file}{rank}");
            }
            6 => {
                let field = rng.below(fields.len());
                fields[field] = random_token(rng);
            }
            _ => {
                if fields.len() > 4 && rng.chance(2) {
                    fields.truncate(4 + rng.below(2));
                } else {
                    fields.push(random_token(rng));
                }
            }
        }
    }
    fields.join(" ")
}

/// A UCI line: a typical command, mutated, sometimes with a mutated FEN spliced in.
fn command_line(rng: &mut Rng, fens: &[String]) -> String {
    let base = if rng.chance(3) {
        let fen = if rng.chance(2) {
            mutate_fen(rng, fens)
        } else {
            rng.pick(fens).clone()
        };
        let mut line = format!("position fen {fen}");
        if rng.chance(2) {
            line.push_str(" moves");
            for _ in 0..rng.below(6) {
                let from = parse_token_square(rng);
                let to = parse_token_square(rng);
                line.push_str(&format!(" {from}{to}"));
                if rng.chance(8) {
                    line.push(*rng.pick(&['q', 'r', 'b', 'n', 'k', 'Q']));
                }
            }
        }
        line
    } else {
        rng.pick(COMMAND_LINES).to_string()
    };
    if rng.chance(5) {
        base
    } else {
        mutate(rng, &base)
    }
}

fn parse_token_square(rng: &mut Rng) -> String {
    let file = (b'a' + rng.below(8) as u8) as char;
    let rank = (b'1' + rng.below(8) as u8) as char;
    format!("{file}{rank}")
}

/// What the case feeds, rebuilt from the seed and index alone.
#[derive(Debug)]
enum Case {
    Fen(String),
    Uci(String),
    San { fen: String, text: String },
    Pgn(String),
    Play(String),
    Other(String),
}

fn case_input(seed: u64, index: u64, fens: &[String]) -> Case {
    let mut rng = Rng(seed ^ index.wrapping_mul(0xD134_2543_DE82_EF95));
    match rng.below(16) {
        0..=3 => Case::Fen(if rng.chance(3) {
            let fen = rng.pick(fens).clone();
            mutate(&mut rng, &fen)
        } else {
            mutate_fen(&mut rng, fens)
        }),
        4..=7 => Case::Uci(command_line(&mut rng, fens)),
        8..=10 => {
            let fen = if rng.chance(4) {
                mutate_fen(&mut rng, fens)
            } else {
                rng.pick(fens).clone()
            };
            // A move of that position in some spelling, or a PGN word, then mutated.
            let text = match Position::from_fen(&fen) {
                Ok(mut pos) if rng.chance(2) && !pos.legal_moves().is_empty() => {
                    let moves = pos.legal_moves();
                    let mv = moves[rng.below(moves.len())];
                    if rng.chance(2) {
                        pos.san(mv)
                    } else {
                        mv.to_uci(rng.chance(2))
                    }
                }
                _ => {
                    let pgn = rng.pick(PGNS);
                    let words: Vec<&str> = pgn.split_whitespace().collect();
                    rng.pick(&words).to_string()
                }
            };
            let text = if rng.chance(4) {
                text
            } else {
                mutate_chars(&mut rng, &text)
            };
            Case::San { fen, text }
        }
        11..=12 => {
            let pgn = rng.pick(PGNS).to_string();
            Case::Pgn(mutate(&mut rng, &pgn))
        }
        13 => {
            let line = *rng.pick(PLAY_LINES);
            Case::Play(mutate(&mut rng, line))
        }
        _ => {
            let base = match rng.below(4) {
                0 => rng
                    .pick(&["5+3", "10", "0.5+1", "90+30", "1+0"])
                    .to_string(),
                1 => rng
                    .pick(&["easy", "normal", "hard", "extra", "master", "1500", "600"])
                    .to_string(),
                2 => format!("{} ;D1 20 ;D2 400", rng.pick(fens)),
                _ => format!("{} [0.5] 37", rng.pick(fens)),
            };
            Case::Other(mutate(&mut rng, &base))
        }
    }
}

/// Uses a parsed position the way the engine would: every legal move made, written as SAN
/// and UCI, read back and taken back; evaluation, display, draw rules.
fn exercise(pos: &mut Position, deep: bool) {
    pos.verify()
        .unwrap_or_else(|error| panic!("parsed position inconsistent: {error}"));
    let fen = pos.to_fen();
    let mut again = Position::from_fen(&fen)
        .unwrap_or_else(|error| panic!("to_fen wrote '{fen}', which does not parse: {error}"));
    // The castling spelling follows the mode, which the FEN alone may not carry.
    again.set_chess960(pos.is_chess960());
    assert_eq!(again.to_fen(), fen, "FEN round trip");
    // (Not `==`: that also compares the rook squares of rights already lost.)
    assert_eq!(again.key(), pos.key(), "FEN round trip: another key");
    assert_eq!(
        again.accumulator(),
        pos.accumulator(),
        "FEN round trip: another network accumulator"
    );
    let before = pos.clone();
    let _ = pos.network_eval();
    let _ = display(pos);
    let _ = pos.checkers();
    let _ = pos.is_checkmate() || pos.is_stalemate() || pos.is_insufficient_material();
    let moves = pos.legal_moves();
    if deep {
        let _ = describe_network(pos);
        let _ = explain::all_moves(pos);
    }
    for &mv in &moves {
        let san = pos.san(mv);
        assert_eq!(
            pos.parse_move_text(&san).ok(),
            Some(mv),
            "SAN '{san}' does not read back"
        );
        let uci = mv.to_uci(pos.is_chess960());
        assert_eq!(
            pos.parse_move_text(&uci).ok(),
            Some(mv),
            "UCI '{uci}' does not read back"
        );
        let _ = pos.gives_check(mv);
        let _ = pos.key_after(mv);
        pos.make_move(mv);
        if deep {
            let _ = pos.legal_moves();
            let _ = pos.network_eval();
        }
        pos.unmake_move();
    }
    if !pos.in_check() {
        pos.make_null_move();
        let _ = pos.legal_moves();
        pos.unmake_null_move();
    }
    assert_eq!(*pos, before, "make/unmake changed the position");
}

fn run_case(case: &Case, deep: bool) {
    match case {
        Case::Fen(fen) => {
            if let Ok(mut pos) = Position::from_fen(fen) {
                exercise(&mut pos, deep);
            }
            // The UCI `position` path: what it accepts (dropping impossible rights) must be a
            // position every other part can work on.
            if let Ok((mut pos, _dropped)) = Position::from_fen_lenient(fen) {
                exercise(&mut pos, deep);
            }
        }
        Case::Uci(line) => match line.parse::<UciCommand>() {
            Ok(command) => run_command(command, deep),
            Err(error) => {
                let _ = error.to_string();
            }
        },
        Case::San { fen, text } => {
            if let Ok(mut pos) = Position::from_fen(fen) {
                match pos.parse_move_text(text) {
                    Ok(mv) => {
                        assert!(pos.legal_moves().contains(&mv), "'{text}' read as illegal");
                        pos.make_move(mv);
                        pos.unmake_move();
                    }
                    Err(error) => {
                        let _ = explain::rejection(&mut pos, text, &error);
                        let _ = explain::coordinate_promotions(&pos, text);
                    }
                }
            }
        }
        Case::Pgn(text) => replay_pgn(text),
        Case::Play(line) => {
            if let Ok(PlayCommand::Move(text)) = PlayCommand::parse(line) {
                let mut pos = Position::startpos();
                match pos.parse_move_text(&text) {
                    Ok(mv) => pos.make_move(mv),
                    Err(error) => {
                        let _ = explain::rejection(&mut pos, &text, &error);
                    }
                }
            }
            if let Some(square) = line.get(..2).and_then(parse_square) {
                let _ = explain::moves_from(&mut Position::startpos(), square);
            }
        }
        Case::Other(text) => {
            if let Ok(control) = TimeControl::parse(text) {
                let _ = control.pgn_tag();
            }
            let _ = Strength::from_level_name(text);
            if let Ok(Some(perft_case)) = parse_epd_line(text)
                && let Ok(mut pos) = Position::from_fen(&perft_case.fen)
            {
                exercise(&mut pos, false);
            }
            if let Some(record) = text_record(text)
                && let Some(mut pos) = record.position()
            {
                exercise(&mut pos, false);
            }
            // The same bytes as a damaged training record: decoded or refused, never a panic.
            let mut bytes = [0u8; RECORD_BYTES];
            for (slot, byte) in bytes.iter_mut().zip(text.bytes().cycle()) {
                *slot = byte;
            }
            if let Some(mut pos) = Record(bytes).position() {
                exercise(&mut pos, false);
            }
        }
    }
}

fn run_command(command: UciCommand, deep: bool) {
    match command {
        UciCommand::Position { fen, moves } => {
            for chess960 in [false, true] {
                if let Ok(mut result) = setup(fen.as_deref(), &moves, chess960) {
                    let _ = result.problems.len();
                    exercise(&mut result.position, deep);
                }
            }
        }
        UciCommand::SetOption { name, value } => {
            let mut options = Options::default();
            let before = options.clone();
            if options.set(&name, value.as_deref()).is_err() {
                assert_eq!(options, before, "a refused option changed the options");
            }
        }
        UciCommand::Skipped { command, .. } => run_command(*command, deep),
        UciCommand::Go(go) => {
            let _ = format!("{go:?}");
        }
        _ => {}
    }
}

/// Plays a PGN's movetext from the start: every word that reads as a legal move is played
/// (move numbers, results, comments and NAGs are read as moves too and must fail cleanly), then
/// the game is written back as PGN.
fn replay_pgn(text: &str) {
    let start = Position::startpos();
    let mut game = PlayGame::new(&start, None, Color::White, None, 1);
    for line in text.lines() {
        let _ = PlayCommand::parse(line);
    }
    for word in text.split_whitespace() {
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        match game.pos.parse_move_text(word) {
            Ok(mv) => {
                let _ = game.play(mv);
                if game.board_outcome().is_some() {
                    break;
                }
            }
            Err(error) => {
                let mut pos = game.pos.clone();
                let _ = explain::rejection(&mut pos, word, &error);
            }
        }
    }
    let _ = game.move_lines();
    let _ = game.pgn("Ox88", None);
}

/// Runs `count` cases from `seed`; panics listing the first failing inputs (all cases run).
fn fuzz(seed: u64, count: u64) {
    let fens = suite_fens();
    assert!(fens.len() > 1000, "the perft suites are missing");
    let message: Arc<Mutex<String>> = Arc::new(Mutex::new(String::new()));
    let hook_message = Arc::clone(&message);
    let previous_hook = panic::take_hook();
    panic::set_hook(Box::new(move |info| {
        *hook_message.lock().expect("hook lock") = info.to_string();
    }));
    let mut failures = Vec::new();
    let mut failed = 0u64;
    for index in 0..count {
        let case = case_input(seed, index, &fens);
        let deep = index % 16 == 0;
        if panic::catch_unwind(AssertUnwindSafe(|| run_case(&case, deep))).is_err() {
            failed += 1;
            if failures.len() < 20 {
                let text = message.lock().expect("hook lock").clone();
                failures.push(format!(
                    "case {index}: {case:?}\n    {}",
                    text.replace('\n', " ")
                ));
            }
        }
    }
    panic::set_hook(previous_hook);
    assert!(
        failures.is_empty(),
        "{failed} of {count} cases panicked (seed {seed:#x}); the first ones:\n{}",
        failures.join("\n")
    );
}

#[test]
fn fuzz_inputs_quick() {
    fuzz(0x0A88_F022, 3_000);
}

#[test]
#[ignore = "1,000,000 cases: about 7 minutes; run with --ignored"]
fn fuzz_inputs_million() {
    // FUZZ_SEED and FUZZ_CASES override the defaults, e.g. for a shorter debug-build run.
    let read = |name: &str| std::env::var(name).ok().and_then(|text| text.parse().ok());
    fuzz(
        read("FUZZ_SEED").unwrap_or(0x5EED_0001),
        read("FUZZ_CASES").unwrap_or(1_000_000),
    );
}

/// The generator really produces the kinds of input it claims to.
#[test]
fn the_generator_covers_every_kind_of_case() {
    let fens = suite_fens();
    let mut kinds = [0u32; 6];
    let mut accepted_fens = 0;
    for index in 0..2000 {
        let case = case_input(7, index, &fens);
        let kind = match &case {
            Case::Fen(fen) => {
                accepted_fens += Position::from_fen(fen).is_ok() as u32;
                0
            }
            Case::Uci(_) => 1,
            Case::San { .. } => 2,
            Case::Pgn(_) => 3,
            Case::Play(_) => 4,
            Case::Other(_) => 5,
        };
        kinds[kind] += 1;
    }
    assert!(kinds.iter().all(|&count| count > 50), "{kinds:?}");
    // Mutated FENs are a mix: some still parse, most do not.
    assert!(
        (20..kinds[0] - 20).contains(&accepted_fens),
        "{accepted_fens} of {} FENs parse",
        kinds[0]
    );
}
