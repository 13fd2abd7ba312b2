//! Ox88, a UCI chess engine on a 0x88 board.
//!
//! The layers, bottom to top (each uses only the ones before it):
//! `types`, `geometry`, `zobrist`, `tapered`, `weights`, `psqt` → `moves`, `position` (with its
//! `fen`, `attacks`, `movegen`, `draws`, `verify` inside), `san`, `perft` → `eval`, `time` →
//! `search::params` (a leaf: the score scale and the search's margins), `tt`, `search` →
//! `strength`, `bench`, `datagen`, `tune` → `uci`, `play`. `.ci/import_circles.py` checks that
//! no two modules import each other.
//! `weights` holds the tuned evaluation numbers as plain data: `psqt` (used by `position` for
//! its incremental material and piece-square score) reads them from there, so nothing below
//! `eval` imports `eval`. Nothing below `uci` reads stdin or prints; the CLI lives in `main.rs`.

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod geometry;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod play;
pub mod position;
pub mod psqt;
pub mod random;
pub mod san;
pub mod search;
pub mod strength;
pub mod tapered;
pub mod time;
pub mod train;
pub mod tt;
pub mod tune;
pub mod types;
pub mod uci;
pub mod weights;
pub mod zobrist;
