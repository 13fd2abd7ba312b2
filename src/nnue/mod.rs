//! The evaluation network: (768 → HIDDEN) × 2 → 1 of 8, with the first layer kept
//! incrementally.
//!
//! ```text
//!   inputs   768 = 2 colours (own, other) × 6 kinds × 64 squares, seen from one side
//!   layer 1  768 → HIDDEN, one accumulator per perspective (white's view, black's view)
//!   layer 2  [side to move's accumulator, other side's] → SCReLU → 2·HIDDEN → 1, with one
//!            set of output weights per material bucket ((pieces on the board − 2) / 4)
//!   output   centipawns, side to move's point of view
//! ```
//! The output buckets let the last layer weigh the same features differently in an opening
//! and an ending (a passed pawn, a king in the centre) at no cost in speed: the bucket is a
//! piece count the position keeps anyway. A file with one output (version 1) reads as eight
//! equal buckets.
//! A perspective sees the board from its own side: the feature of a piece is (is it the
//! perspective's colour, kind, square mirrored vertically for black). So the evaluation of a
//! colour-flipped position is the same number by construction, and one set of weights serves
//! both sides.
//!
//! The first layer is the costly one and it is linear, so `Position` keeps both accumulators
//! (bias plus the weight rows of every piece on the board) up to date in `put_piece`,
//! `remove_piece` and `move_piece`, one accumulator pair per ply; `evaluate` then only runs the
//! small output layer. Integer arithmetic: accumulators in i16 at scale `QA`, output weights
//! at scale `QB`; the squared clipped ReLU `clamp(x, 0, QA)²` is computed as `(x·w)·x` so the
//! product fits i16 before widening (|w| ≤ 127 is guaranteed by the trainer's clipping).
//!
//! Nets are files (`file`): the default one is embedded in the binary; `EvalFile` loads
//! another. A `Position` holds an `Arc<Network>` so all search threads share one copy.

pub mod file;
mod simd;

use std::sync::{Arc, LazyLock};

use crate::types::{Color, Piece};

pub const INPUTS: usize = 768;
/// Width of the first layer. The trainer may train any width; inference is compiled for this
/// one and refuses other files.
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer (accumulator units per 1.0).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's float output: each net file carries its own, fitted
/// by the trainer so that the net's centipawns are the search's (a pawn about 100), within
/// these bounds.
pub const MIN_SCALE: i32 = 50;
pub const MAX_SCALE: i32 = 2000;
/// Output-layer weight sets, chosen by how many pieces are on the board.
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a board with `pieces` pieces, kings included (2..=32).
#[inline(always)]
pub fn output_bucket(pieces: usize) -> usize {
    (pieces.saturating_sub(2) / 4).min(OUTPUT_BUCKETS - 1)
}

/// The input index of `piece` on dense square `square` (a1 = 0 .. h8 = 63) for `perspective`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, square: usize) -> usize {
    let own = (piece.color() != perspective) as usize;
    let square = match perspective {
        Color::White => square,
        Color::Black => square ^ 56,
    };
    own * 384 + (piece.kind() as usize - 1) * 64 + square
}

/// The quantised network.
pub struct Network {
    /// `input_weights[feature]`: the row added to an accumulator when that feature is on.
    pub(crate) input_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    pub(crate) input_bias: [i16; HIDDEN],
    /// Per output bucket: first `HIDDEN` for the side to move's accumulator, then the other
    /// side's.
    pub(crate) output_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    pub(crate) output_bias: [i32; OUTPUT_BUCKETS],
    /// Centipawns per unit of float output.
    pub(crate) scale: i32,
    /// The file's checksum (what `selftest` and `eval` can show).
    pub checksum: u64,
    kernels: simd::Kernels,
}

/// Both perspectives' first-layer sums (white's view first).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct Accumulator(pub [[i16; HIDDEN]; 2]);

impl Accumulator {
    /// All zero (a placeholder for a slot about to be computed).
    pub const ZERO: Accumulator = Accumulator([[0; HIDDEN]; 2]);
}

/// How one ply's board differs from its parent's, as the first layer sees it: the pieces put
/// on and taken off (dense squares). A move changes at most two of each (castling: king and
/// rook off and on; a capture: the victim and the mover off, the mover on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    added: [(Piece, u8); 2],
    removed: [(Piece, u8); 2],
    added_len: u8,
    removed_len: u8,
}

impl Delta {
    pub const EMPTY: Delta = Delta {
        added: [(Piece::NONE, 0); 2],
        removed: [(Piece::NONE, 0); 2],
        added_len: 0,
        removed_len: 0,
    };

    /// Records `piece` put on dense `square`.
    #[inline(always)]
    pub fn add(&mut self, piece: Piece, square: usize) {
        self.added[self.added_len as usize] = (piece, square as u8);
        self.added_len += 1;
    }

    /// Records `piece` taken off dense `square`.
    #[inline(always)]
    pub fn remove(&mut self, piece: Piece, square: usize) {
        self.removed[self.removed_len as usize] = (piece, square as u8);
        self.removed_len += 1;
    }

    pub fn added(&self) -> &[(Piece, u8)] {
        &self.added[..self.added_len as usize]
    }

    pub fn removed(&self) -> &[(Piece, u8)] {
        &self.removed[..self.removed_len as usize]
    }
}

/// The net built into the binary, with the commands that made it in the README. A build for
/// OpenBench (`make EXE=... EVALFILE=net`) embeds the net it is given instead: the makefile
/// sets `--cfg ox88_evalfile` and `OX88_EVALFILE` to the net's absolute path.
#[cfg(not(ox88_evalfile))]
static DEFAULT_NET_BYTES: &[u8] = include_bytes!("ox88.nnue");
#[cfg(ox88_evalfile)]
static DEFAULT_NET_BYTES: &[u8] = include_bytes!(env!("OX88_EVALFILE"));

static DEFAULT_NETWORK: LazyLock<Arc<Network>> = LazyLock::new(|| {
    Arc::new(file::parse(DEFAULT_NET_BYTES).expect("the embedded net is checked by its tests"))
});

/// The embedded network.
pub fn default_network() -> Arc<Network> {
    DEFAULT_NETWORK.clone()
}

impl Network {
    pub(crate) fn from_parts(
        input_weights: Box<[[i16; HIDDEN]; INPUTS]>,
        input_bias: [i16; HIDDEN],
        output_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
        output_bias: [i32; OUTPUT_BUCKETS],
        scale: i32,
        checksum: u64,
    ) -> Network {
        Network {
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            scale,
            checksum,
            kernels: simd::Kernels::detect(),
        }
    }

    /// The accumulator of an empty board (both perspectives at the bias).
    pub fn empty_accumulator(&self) -> Accumulator {
        Accumulator([self.input_bias; 2])
    }

    /// Turns `piece` on `square` (dense) on in both perspectives.
    #[inline(always)]
    pub fn add(&self, acc: &mut Accumulator, piece: Piece, square: usize) {
        for (perspective, values) in [Color::White, Color::Black].into_iter().zip(&mut acc.0) {
            let row = &self.input_weights[feature(perspective, piece, square)];
            self.kernels.add(values, row);
        }
    }

    /// Turns `piece` on `square` (dense) off in both perspectives.
    #[inline(always)]
    pub fn sub(&self, acc: &mut Accumulator, piece: Piece, square: usize) {
        for (perspective, values) in [Color::White, Color::Black].into_iter().zip(&mut acc.0) {
            let row = &self.input_weights[feature(perspective, piece, square)];
            self.kernels.sub(values, row);
        }
    }

    /// `child` = `parent` with `delta` applied, in one pass over each perspective (no copy
    /// first, no second pass per piece).
    #[inline]
    pub fn apply(&self, parent: &Accumulator, delta: &Delta, child: &mut Accumulator) {
        let rows = |&(piece, square): &(Piece, u8)| {
            [Color::White, Color::Black].map(|perspective| {
                &self.input_weights[feature(perspective, piece, square as usize)]
            })
        };
        let (kernels, parent, child) = (self.kernels, &parent.0, &mut child.0);
        match (delta.added(), delta.removed()) {
            ([a], [r]) => kernels.update::<1, 1>(child, parent, [rows(a)], [rows(r)]),
            ([a], [r, s]) => kernels.update::<1, 2>(child, parent, [rows(a)], [rows(r), rows(s)]),
            ([a, b], [r, s]) => {
                kernels.update::<2, 2>(child, parent, [rows(a), rows(b)], [rows(r), rows(s)])
            }
            (added, removed) => {
                *child = *parent;
                for (values, perspective) in child.iter_mut().zip(0..2) {
                    for a in added {
                        kernels.add(values, rows(a)[perspective]);
                    }
                    for r in removed {
                        kernels.sub(values, rows(r)[perspective]);
                    }
                }
            }
        }
    }

    /// The accumulator of the given pieces, summed from scratch.
    pub fn refresh(&self, pieces: impl Iterator<Item = (Piece, usize)>) -> Accumulator {
        let mut acc = self.empty_accumulator();
        for (piece, square) in pieces {
            self.add(&mut acc, piece, square);
        }
        acc
    }

    /// The network's output in centipawns, `side`'s point of view, for a board of `pieces`
    /// pieces (kings included: it picks the output bucket).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Color, pieces: usize) -> i32 {
        let (us, them) = match side {
            Color::White => (&acc.0[0], &acc.0[1]),
            Color::Black => (&acc.0[1], &acc.0[0]),
        };
        let bucket = output_bucket(pieces);
        let (our_weights, their_weights) = self.output_weights[bucket].split_at(HIDDEN);
        let sum = self
            .kernels
            .screlu_dot(us, our_weights.try_into().expect("HIDDEN"))
            + self
                .kernels
                .screlu_dot(them, their_weights.try_into().expect("HIDDEN"));
        // sum is at scale QA·QA·QB; one QA comes off first so the bias (QA·QB) adds in.
        (sum / QA + self.output_bias[bucket]) * self.scale / (QA * QB)
    }

    /// Centipawns per unit of the network's float output.
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// Which kernels this machine runs ("avx2" or "portable").
    pub fn kernel_name(&self) -> &'static str {
        self.kernels.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn features_mirror_between_perspectives() {
        let white_pawn = Piece::new(Color::White, PieceType::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceType::Pawn);
        // A white pawn on e2 seen by white is a black pawn on e7 seen by black.
        assert_eq!(
            feature(Color::White, white_pawn, 12),
            feature(Color::Black, black_pawn, 52)
        );
        assert_eq!(feature(Color::White, white_pawn, 12), 12);
        assert_eq!(feature(Color::Black, white_pawn, 12), 384 + 52);
        let black_king = Piece::new(Color::Black, PieceType::King);
        assert_eq!(feature(Color::White, black_king, 63), 767);
    }

    #[test]
    fn output_buckets_split_the_piece_counts_in_eight() {
        assert_eq!(output_bucket(2), 0);
        assert_eq!(output_bucket(5), 0);
        assert_eq!(output_bucket(6), 1);
        assert_eq!(output_bucket(17), 3);
        assert_eq!(output_bucket(31), 7);
        assert_eq!(output_bucket(32), 7);
        assert_eq!(output_bucket(0), 0);
        assert_eq!(output_bucket(40), OUTPUT_BUCKETS - 1);
    }

    #[test]
    fn the_embedded_net_loads() {
        let net = default_network();
        assert_eq!(
            net.checksum,
            file::parse(DEFAULT_NET_BYTES).unwrap().checksum
        );
    }
}
