//! Ox88, a UCI chess engine on a 0x88 board.
//!
//! The layers, bottom to top (each uses only the ones before it):
//! `types`, `geometry`, `zobrist`, `random`, `json` (a small writer), `nnue` (the evaluation
//! network: weights, net files, accumulator arithmetic) → `moves`, `position` (with its
//! `fen`, `attacks`, `movegen`, `draws`, `verify` inside; it keeps the network's
//! accumulators), `san`, `perft`, `board_view` (the board as text) → `eval`, `time`, `syzygy`
//! (the endgame tables' prober) → `search::params` (a leaf: the score scale and the search's
//! margins), `tt`, `search` → `strength`, `bench`, `tb` (the tables on the command line),
//! `datagen` (with its record `format`), `train`, `random_position`, `analysis`, `selftest`
//! → `uci`, `play` → `replay` (it reads the UCI layer's debug log), `serve` (the browser board;
//! it uses `play`'s games and levels).
//! `.ci/import_circles.py` checks that no two modules import each other.
//! Nothing below `uci` reads stdin or prints; the CLI lives in `main.rs`.

pub mod analysis;
pub mod bench;
pub mod board_view;
pub mod datagen;
pub mod eval;
pub mod geometry;
pub mod json;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod play;
pub mod position;
pub mod random;
pub mod random_position;
pub mod replay;
pub mod san;
pub mod search;
pub mod selftest;
pub mod serve;
pub mod strength;
pub mod syzygy;
pub mod tb;
pub mod time;
pub mod train;
pub mod tt;
pub mod types;
pub mod uci;
pub mod zobrist;
