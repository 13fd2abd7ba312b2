//! Ox88, a UCI chess engine on a 0x88 board.
//!
//! The layers, bottom to top (each uses only the ones before it):
//! `types`, `geometry`, `zobrist`, `score`, `eval::weights`, `psqt` → `moves`, `position`,
//! `fen`, `movegen`, `san`, `perft` → `eval`, `tt`, `search`, `time` → `uci`, `play`.
//! Nothing below `uci` reads stdin or prints; the CLI lives in `main.rs`.

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod fen;
pub mod geometry;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod play;
pub mod position;
pub mod psqt;
pub mod san;
pub mod score;
pub mod search;
pub mod strength;
pub mod time;
pub mod tt;
pub mod tune;
pub mod types;
pub mod uci;
pub mod zobrist;
