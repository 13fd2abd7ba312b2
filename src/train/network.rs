//! The float network the trainer optimises, its gradient, AdamW, and quantisation into a net
//! file (`nnue::file`). Shape and feature indices are `nnue`'s; the width is free here.
//!
//! For one position with the side to move's features `s` and the other side's `o`:
//!
//! ```text
//!   a_s = b1 + Σ_{f∈s} W1[f],   a_o = b1 + Σ_{f∈o} W1[f]           (HIDDEN each)
//!   out = W2[k][..H]·screlu(a_s) + W2[k][H..]·screlu(a_o) + b2[k],  screlu(x) = clamp(x, 0, 1)²
//!         (k = the output bucket of the position's piece count, `nnue::output_bucket`)
//!   p   = σ(out),  loss = (p − t)²,  t = λ·σ(score / EVAL_K) + (1 − λ)·result
//! ```
//! So `out · EVAL_K` is the net's opinion on the scale of the search scores it learns from;
//! the game results pull it further out (results are more decided than σ(score / 400)
//! says), and `fit_scale` measures by how much, so the quantised net can be written with the
//! scale that makes its centipawns the search's again.
//!
//! ```text
//! ```
//! The backward pass follows the same lines in reverse; only the rows of W1 of the features
//! present get a gradient, but the Adam moments are dense (98k weights at width 128: an
//! update costs less than one position of a 16k batch).

use crate::datagen::format::Record;
use crate::nnue::{INPUTS, OUTPUT_BUCKETS, QA, QB, feature, file, output_bucket};
use crate::types::Color;

/// Centipawns that make one unit of the sigmoid's argument (win probability ≈ σ(cp / 400)).
pub const EVAL_K: f32 = 400.0;
/// Weights are kept inside ±CLIP so the quantised values fit their integer types.
pub const CLIP: f32 = 1.98;

#[derive(Clone)]
pub struct FloatNet {
    pub hidden: usize,
    /// [INPUTS × hidden], row-major by feature.
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    /// [OUTPUT_BUCKETS × 2 × hidden]: per bucket, side to move's half first.
    pub w2: Vec<f32>,
    /// [OUTPUT_BUCKETS].
    pub b2: Vec<f32>,
}

/// A gradient (or an Adam moment) with the network's layout.
#[derive(Clone)]
pub struct Grad {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
}

impl Grad {
    pub fn zeros(hidden: usize) -> Grad {
        Grad {
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            w2: vec![0.0; OUTPUT_BUCKETS * 2 * hidden],
            b2: vec![0.0; OUTPUT_BUCKETS],
        }
    }

    pub fn clear(&mut self) {
        self.w1.fill(0.0);
        self.b1.fill(0.0);
        self.w2.fill(0.0);
        self.b2.fill(0.0);
    }

    pub fn scale(&mut self, factor: f32) {
        for value in self
            .w1
            .iter_mut()
            .chain(&mut self.b1)
            .chain(&mut self.w2)
            .chain(&mut self.b2)
        {
            *value *= factor;
        }
    }

    fn flat(&self) -> Vec<f32> {
        let mut values = Vec::with_capacity(flat_len(self.b1.len()));
        values.extend_from_slice(&self.w1);
        values.extend_from_slice(&self.b1);
        values.extend_from_slice(&self.w2);
        values.extend_from_slice(&self.b2);
        values
    }

    fn from_flat(hidden: usize, values: &[f32]) -> Grad {
        let (w1, rest) = values.split_at(INPUTS * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(OUTPUT_BUCKETS * 2 * hidden);
        Grad {
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2.to_vec(),
        }
    }

    pub fn add(&mut self, other: &Grad) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += b;
        }
        for (a, b) in self.b2.iter_mut().zip(&other.b2) {
            *a += b;
        }
    }
}

/// Number of values in a network (or gradient) of this width.
fn flat_len(hidden: usize) -> usize {
    INPUTS * hidden + hidden + OUTPUT_BUCKETS * (2 * hidden + 1)
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A record's features for both perspectives (side to move's first), at most 32 each, and
/// its output bucket.
pub struct Features {
    pub ours: [u16; 32],
    pub theirs: [u16; 32],
    pub count: usize,
    pub bucket: usize,
}

impl Features {
    pub fn of(record: &Record) -> Features {
        Features::of_mirrored(record, false)
    }

    /// The features of `record`, or with `mirror` those of the position reflected between
    /// the a- and h-files. The net sees only pieces on squares, never castling rights, so the
    /// reflection is a position it must judge the same: a second training example for free.
    pub fn of_mirrored(record: &Record, mirror: bool) -> Features {
        let flip_files = if mirror { 7 } else { 0 };
        let us = record.side_to_move();
        let mut features = Features {
            ours: [0; 32],
            theirs: [0; 32],
            count: 0,
            bucket: 0,
        };
        for (square, piece) in record.pieces() {
            if features.count == 32 {
                break;
            }
            let square = square ^ flip_files;
            features.ours[features.count] = feature(us, piece, square) as u16;
            features.theirs[features.count] = feature(us.flip(), piece, square) as u16;
            features.count += 1;
        }
        features.bucket = output_bucket(features.count);
        features
    }
}

/// The training target for `record`, side to move's point of view, in [0, 1].
pub fn target(record: &Record, score_weight: f32) -> f32 {
    let white = record.side_to_move() == Color::White;
    let score = if white {
        record.score()
    } else {
        -record.score()
    } as f32;
    let result = record.result() as f32 / 2.0;
    let result = if white { result } else { 1.0 - result };
    score_weight * sigmoid(score / EVAL_K) + (1.0 - score_weight) * result
}

/// Scratch space of one forward/backward pass.
pub struct Scratch {
    ours: Vec<f32>,
    theirs: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            ours: vec![0.0; hidden],
            theirs: vec![0.0; hidden],
        }
    }
}

impl FloatNet {
    /// Small random weights (uniform, scaled by fan-in), zero biases.
    pub fn random(hidden: usize, random: &mut crate::random::Rng) -> FloatNet {
        let w1_bound = 1.0 / (32.0f32).sqrt() * 0.5;
        let w2_bound = 1.0 / (2.0 * hidden as f32).sqrt();
        FloatNet {
            hidden,
            w1: (0..INPUTS * hidden)
                .map(|_| random.symmetric(w1_bound))
                .collect(),
            b1: vec![0.0; hidden],
            w2: (0..OUTPUT_BUCKETS * 2 * hidden)
                .map(|_| random.symmetric(w2_bound))
                .collect(),
            b2: vec![0.0; OUTPUT_BUCKETS],
        }
    }

    pub fn flat_len(hidden: usize) -> usize {
        flat_len(hidden)
    }

    /// Every weight in file order (W1, b1, W2, b2), for checkpoints.
    pub fn flat(&self) -> Vec<f32> {
        Grad {
            w1: self.w1.clone(),
            b1: self.b1.clone(),
            w2: self.w2.clone(),
            b2: self.b2.clone(),
        }
        .flat()
    }

    pub fn from_flat(hidden: usize, values: &[f32]) -> FloatNet {
        let grad = Grad::from_flat(hidden, values);
        FloatNet {
            hidden,
            w1: grad.w1,
            b1: grad.b1,
            w2: grad.w2,
            b2: grad.b2,
        }
    }

    /// The float network a net file stands for (each weight divided by its integer scale):
    /// the start of a training run that refines an existing net (`train --init`).
    pub fn from_network(network: &crate::nnue::Network) -> FloatNet {
        let hidden = crate::nnue::HIDDEN;
        let w1 = network
            .input_weights
            .iter()
            .flat_map(|row| row.iter().map(|&w| f32::from(w) / QA as f32))
            .collect();
        FloatNet {
            hidden,
            w1,
            b1: network
                .input_bias
                .iter()
                .map(|&w| f32::from(w) / QA as f32)
                .collect(),
            w2: network
                .output_weights
                .iter()
                .flatten()
                .map(|&w| f32::from(w) / QB as f32)
                .collect(),
            b2: network
                .output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    fn accumulate(&self, features: &[u16], out: &mut [f32]) {
        let h = self.hidden;
        out.copy_from_slice(&self.b1);
        for &f in features {
            let row = &self.w1[f as usize * h..(f as usize + 1) * h];
            for (value, weight) in out.iter_mut().zip(row) {
                *value += weight;
            }
        }
    }

    /// The network's float output for these features.
    pub fn forward(&self, features: &Features, scratch: &mut Scratch) -> f32 {
        let n = features.count;
        self.accumulate(&features.ours[..n], &mut scratch.ours);
        self.accumulate(&features.theirs[..n], &mut scratch.theirs);
        let h = self.hidden;
        let w2 = &self.w2[features.bucket * 2 * h..(features.bucket + 1) * 2 * h];
        let mut out = self.b2[features.bucket];
        for j in 0..h {
            let a = scratch.ours[j].clamp(0.0, 1.0);
            let b = scratch.theirs[j].clamp(0.0, 1.0);
            out += w2[j] * a * a + w2[h + j] * b * b;
        }
        out
    }

    /// The network's evaluation in centipawns at `scale` (side to move's view), before
    /// quantisation.
    pub fn eval_cp(&self, record: &Record, scale: i32) -> f32 {
        self.forward(&Features::of(record), &mut Scratch::new(self.hidden)) * scale as f32
    }

    /// The scale (centipawns per unit of output) at which the net's evaluations best match
    /// the search scores of `records` (least squares through the origin, side to move's
    /// view, positions within ±`limit` cp): EVAL_K divided by how much the net overstates.
    pub fn fit_scale(&self, records: &[Record], limit: i32) -> i32 {
        let mut scratch = Scratch::new(self.hidden);
        let (mut cross, mut square) = (0.0f64, 0.0f64);
        for record in records {
            let white = record.side_to_move() == Color::White;
            let score = if white {
                record.score()
            } else {
                -record.score()
            };
            if score.abs() > limit {
                continue;
            }
            let net = self.forward(&Features::of(record), &mut scratch) as f64 * EVAL_K as f64;
            cross += score as f64 * net;
            square += score as f64 * score as f64;
        }
        if square == 0.0 || cross <= 0.0 {
            return EVAL_K as i32;
        }
        let overstatement = cross / square;
        ((EVAL_K as f64 / overstatement).round() as i32)
            .clamp(crate::nnue::MIN_SCALE, crate::nnue::MAX_SCALE)
    }

    /// Adds this position's loss gradient to `grad`; returns the loss.
    pub fn backward(
        &self,
        features: &Features,
        target: f32,
        scratch: &mut Scratch,
        grad: &mut Grad,
    ) -> f32 {
        let out = self.forward(features, scratch);
        let p = sigmoid(out);
        let error = p - target;
        let g = 2.0 * error * p * (1.0 - p);
        let h = self.hidden;
        let bucket = features.bucket;
        grad.b2[bucket] += g;
        let w2 = &self.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        let grad_w2 = &mut grad.w2[bucket * 2 * h..(bucket + 1) * 2 * h];
        // Reuse the scratch vectors as the gradients at the accumulators.
        for j in 0..h {
            let a = scratch.ours[j];
            let b = scratch.theirs[j];
            let (ca, cb) = (a.clamp(0.0, 1.0), b.clamp(0.0, 1.0));
            grad_w2[j] += g * ca * ca;
            grad_w2[h + j] += g * cb * cb;
            scratch.ours[j] = if a > 0.0 && a < 1.0 {
                g * w2[j] * 2.0 * a
            } else {
                0.0
            };
            scratch.theirs[j] = if b > 0.0 && b < 1.0 {
                g * w2[h + j] * 2.0 * b
            } else {
                0.0
            };
            grad.b1[j] += scratch.ours[j] + scratch.theirs[j];
        }
        let n = features.count;
        for (list, delta) in [
            (&features.ours[..n], &scratch.ours),
            (&features.theirs[..n], &scratch.theirs),
        ] {
            for &f in list {
                let row = &mut grad.w1[f as usize * h..(f as usize + 1) * h];
                for (value, d) in row.iter_mut().zip(delta.iter()) {
                    *value += d;
                }
            }
        }
        error * error
    }

    /// The loss of one position, without a gradient.
    pub fn loss(&self, features: &Features, target: f32, scratch: &mut Scratch) -> f32 {
        let out = self.forward(features, scratch);
        let error = sigmoid(out) - target;
        error * error
    }

    /// The net file of this network, rounded to `nnue`'s integer scales, its output read as
    /// `scale` centipawns per unit.
    pub fn quantise(&self, scale: i32) -> Vec<u8> {
        let q = |value: f32, scale: i32| (value * scale as f32).round() as i16;
        let w1: Vec<i16> = self.w1.iter().map(|&w| q(w, QA)).collect();
        let b1: Vec<i16> = self.b1.iter().map(|&w| q(w, QA)).collect();
        let w2: Vec<i16> = self.w2.iter().map(|&w| q(w, QB).clamp(-127, 127)).collect();
        let b2: Vec<i32> = self
            .b2
            .iter()
            .map(|&b| (b * (QA * QB) as f32).round() as i32)
            .collect();
        file::serialize(&w1, &b1, &w2, &b2, scale)
    }
}

/// AdamW over the whole network.
pub struct Adam {
    first: Grad,
    second: Grad,
    steps: u32,
    pub beta1: f32,
    pub beta2: f32,
    pub weight_decay: f32,
    /// Leave the first layer (W1, b1) as it is: only the output layer learns.
    pub output_only: bool,
}

impl Adam {
    pub fn new(hidden: usize) -> Adam {
        Adam {
            first: Grad::zeros(hidden),
            second: Grad::zeros(hidden),
            steps: 0,
            beta1: 0.9,
            beta2: 0.999,
            weight_decay: 0.01,
            output_only: false,
        }
    }

    /// Both moments and the step count, for checkpoints.
    pub fn flat(&self) -> Vec<f32> {
        let mut values = self.first.flat();
        values.extend(self.second.flat());
        values.push(self.steps as f32);
        values
    }

    pub fn flat_len(hidden: usize) -> usize {
        2 * flat_len(hidden) + 1
    }

    pub fn from_flat(hidden: usize, values: &[f32]) -> Adam {
        let n = flat_len(hidden);
        let mut adam = Adam::new(hidden);
        adam.first = Grad::from_flat(hidden, &values[..n]);
        adam.second = Grad::from_flat(hidden, &values[n..2 * n]);
        adam.steps = values[2 * n] as u32;
        adam
    }

    /// One step with the mean gradient `grad` (already divided by the batch size).
    pub fn step(&mut self, net: &mut FloatNet, grad: &Grad, rate: f32) {
        self.steps += 1;
        let (b1, b2) = (self.beta1, self.beta2);
        let correction1 = 1.0 - b1.powi(self.steps as i32);
        let correction2 = 1.0 - b2.powi(self.steps as i32);
        let decay = 1.0 - rate * self.weight_decay;
        let update =
            |weights: &mut [f32], grads: &[f32], m: &mut [f32], v: &mut [f32], decay: f32| {
                for (((w, &g), m), v) in weights
                    .iter_mut()
                    .zip(grads)
                    .zip(m.iter_mut())
                    .zip(v.iter_mut())
                {
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    let step = rate * (*m / correction1) / ((*v / correction2).sqrt() + 1e-8);
                    *w = (*w * decay - step).clamp(-CLIP, CLIP);
                }
            };
        if !self.output_only {
            update(
                &mut net.w1,
                &grad.w1,
                &mut self.first.w1,
                &mut self.second.w1,
                decay,
            );
            // Biases (b1 here, b2 below) are not decayed.
            update(
                &mut net.b1,
                &grad.b1,
                &mut self.first.b1,
                &mut self.second.b1,
                1.0,
            );
        }
        update(
            &mut net.w2,
            &grad.w2,
            &mut self.first.w2,
            &mut self.second.w2,
            decay,
        );
        update(
            &mut net.b2,
            &grad.b2,
            &mut self.first.b2,
            &mut self.second.b2,
            1.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::nnue::file;
    use crate::position::Position;
    use crate::random::Rng;

    /// Positions of random playouts from the start, labelled by material (white's view), so
    /// a net has something learnable.
    fn sample(count: usize) -> Vec<Record> {
        let mut random = Rng::new(7);
        let mut records = Vec::new();
        while records.len() < count {
            let mut pos = Position::startpos();
            for ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[(random.next_u64() % moves.len() as u64) as usize];
                let material: i32 = pos
                    .pieces_dense()
                    .map(|(piece, _)| {
                        let value = [0, 100, 300, 300, 500, 900, 0][piece.kind() as usize];
                        if piece.color() == Color::White {
                            value
                        } else {
                            -value
                        }
                    })
                    .sum();
                let result = match material {
                    m if m > 150 => 2,
                    m if m < -150 => 0,
                    _ => 1,
                };
                records.push(Record::pack(&pos, material, mv, result, ply));
                pos.make_move(mv);
            }
        }
        records.truncate(count);
        records
    }

    #[test]
    fn a_short_training_run_lowers_the_loss() {
        let records = sample(2000);
        let mut net = FloatNet::random(16, &mut Rng::new(3));
        let mut adam = Adam::new(16);
        let mut grad = Grad::zeros(16);
        let mut scratch = Scratch::new(16);
        let mean_loss = |net: &FloatNet, scratch: &mut Scratch| {
            records
                .iter()
                .map(|r| net.loss(&Features::of(r), target(r, 1.0), scratch))
                .sum::<f32>()
                / records.len() as f32
        };
        let before = mean_loss(&net, &mut scratch);
        for _ in 0..20 {
            for batch in records.chunks(256) {
                grad.clear();
                for record in batch {
                    net.backward(
                        &Features::of(record),
                        target(record, 1.0),
                        &mut scratch,
                        &mut grad,
                    );
                }
                grad.scale(1.0 / batch.len() as f32);
                adam.step(&mut net, &grad, 0.01);
            }
        }
        let after = mean_loss(&net, &mut scratch);
        assert!(after < before * 0.5, "loss {before} -> {after}");
    }

    /// `fen` reflected between the a- and h-files (no castling, no en passant: neither has a
    /// reflection, and the net sees neither).
    fn mirrored_fen(fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = fields[0]
            .split('/')
            .map(|rank| rank.chars().rev().collect())
            .collect();
        format!(
            "{} {} - - {} {}",
            board.join("/"),
            fields[1],
            fields[4],
            fields[5]
        )
    }

    fn sorted(features: &Features) -> (Vec<u16>, Vec<u16>) {
        let mut ours = features.ours[..features.count].to_vec();
        let mut theirs = features.theirs[..features.count].to_vec();
        ours.sort_unstable();
        theirs.sort_unstable();
        (ours, theirs)
    }

    #[test]
    fn a_net_file_read_back_is_the_float_net_it_was_written_from() {
        let mut net = FloatNet::random(crate::nnue::HIDDEN, &mut Rng::new(21));
        for (bucket, b2) in net.b2.iter_mut().enumerate() {
            *b2 = 0.1 - 0.02 * bucket as f32;
        }
        let bytes = net.quantise(400);
        let back = FloatNet::from_network(&file::parse(&bytes).unwrap());
        assert_eq!(
            back.quantise(400),
            bytes,
            "the round trip is exact on the integer grid"
        );
        let worst = net
            .w1
            .iter()
            .zip(&back.w1)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0f32, f32::max);
        assert!(worst <= 0.5 / QA as f32 + 1e-6, "w1 moved by {worst}");
        for record in sample(50) {
            let (a, b) = (net.eval_cp(&record, 400), back.eval_cp(&record, 400));
            assert!((a - b).abs() < 15.0, "{a} against {b}");
        }
    }

    #[test]
    fn mirrored_features_are_those_of_the_mirrored_position() {
        let mut changed = 0;
        for record in sample(300) {
            let pos = record.position().unwrap();
            let reflected = Position::from_fen(&mirrored_fen(&pos.to_fen())).unwrap();
            let packed = Record::pack(&reflected, 0, Move::NULL, 1, 0);
            let expected = sorted(&Features::of(&packed));
            let mirrored = sorted(&Features::of_mirrored(&record, true));
            assert_eq!(mirrored, expected, "{}", pos.to_fen());
            assert_eq!(
                sorted(&Features::of_mirrored(&record, false)),
                sorted(&Features::of(&record))
            );
            changed += (mirrored != sorted(&Features::of(&record))) as usize;
        }
        assert!(
            changed > 250,
            "only {changed} positions changed by the reflection"
        );
    }

    #[test]
    fn output_only_training_leaves_the_first_layer_alone() {
        let records = sample(500);
        let mut net = FloatNet::random(8, &mut Rng::new(4));
        let before = net.clone();
        let mut adam = Adam::new(8);
        adam.output_only = true;
        let (mut grad, mut scratch) = (Grad::zeros(8), Scratch::new(8));
        for record in &records {
            net.backward(
                &Features::of(record),
                target(record, 1.0),
                &mut scratch,
                &mut grad,
            );
        }
        grad.scale(1.0 / records.len() as f32);
        adam.step(&mut net, &grad, 0.01);
        assert_eq!(net.w1, before.w1);
        assert_eq!(net.b1, before.b1);
        assert_ne!(net.w2, before.w2);
        assert_ne!(net.b2, before.b2);
        // A bucket no position falls in has no gradient and keeps its weights (no decay
        // moves them by more than the rate times the decay).
        let buckets: Vec<usize> = records.iter().map(|r| Features::of(r).bucket).collect();
        assert!(
            !buckets.contains(&0),
            "random playouts of 60 plies keep most pieces"
        );
        assert_eq!(net.b2[0], before.b2[0]);
    }

    #[test]
    fn the_gradient_matches_a_finite_difference() {
        let records = sample(40);
        let mut net = FloatNet::random(8, &mut Rng::new(5));
        for b in &mut net.b1 {
            *b = 0.3;
        }
        let mut scratch = Scratch::new(8);
        let loss = |net: &FloatNet, scratch: &mut Scratch| -> f64 {
            records
                .iter()
                .map(|r| net.loss(&Features::of(r), target(r, 0.5), scratch) as f64)
                .sum()
        };
        let mut grad = Grad::zeros(8);
        for record in &records {
            net.backward(
                &Features::of(record),
                target(record, 0.5),
                &mut scratch,
                &mut grad,
            );
        }
        let first = Features::of(&records[0]);
        let feature = first.ours[3] as usize;
        // An output weight and bias of the first record's bucket (a bucket no record falls
        // in has no gradient to check).
        let w2_index = first.bucket * 16 + 9;
        let checks: [(&str, usize, f32); 4] = [
            ("w1", feature * 8 + 2, grad.w1[feature * 8 + 2]),
            ("b1", 5, grad.b1[5]),
            ("w2", w2_index, grad.w2[w2_index]),
            ("b2", first.bucket, grad.b2[first.bucket]),
        ];
        for (name, index, analytic) in checks {
            let epsilon = 1e-3;
            let mut plus = net.clone();
            let mut minus = net.clone();
            let (p, m) = match name {
                "w1" => (&mut plus.w1[index], &mut minus.w1[index]),
                "b1" => (&mut plus.b1[index], &mut minus.b1[index]),
                "b2" => (&mut plus.b2[index], &mut minus.b2[index]),
                _ => (&mut plus.w2[index], &mut minus.w2[index]),
            };
            *p += epsilon;
            *m -= epsilon;
            let numeric =
                (loss(&plus, &mut scratch) - loss(&minus, &mut scratch)) / (2.0 * epsilon as f64);
            assert!(
                (numeric - analytic as f64).abs() <= 1e-3 + 0.05 * numeric.abs(),
                "{name}[{index}]: analytic {analytic}, numeric {numeric}"
            );
        }
    }

    #[test]
    fn the_quantised_net_agrees_with_the_float_net() {
        let mut net = FloatNet::random(crate::nnue::HIDDEN, &mut Rng::new(11));
        for (j, b) in net.b1.iter_mut().enumerate() {
            *b = 0.2 + 0.4 * (j % 3) as f32 / 3.0;
        }
        // Output weights as large as a trained net's (random init ones are smaller, and
        // their rounding to 1/64 would be a larger share of them). One set for every bucket:
        // a set's rounding errors shift all its positions alike (about ±9 cp), which would
        // hide the truncation bias measured below; the buckets' biases differ by 40 cp, so a
        // position evaluated in another bucket than the float net's still shows.
        let mut random = Rng::new(12);
        let set: Vec<f32> = (0..2 * crate::nnue::HIDDEN)
            .map(|_| random.symmetric(0.6))
            .collect();
        for bucket_weights in net.w2.chunks_exact_mut(2 * crate::nnue::HIDDEN) {
            bucket_weights.copy_from_slice(&set);
        }
        for (bucket, b2) in net.b2.iter_mut().enumerate() {
            *b2 = 0.35 - 0.1 * bucket as f32;
        }
        let quantised = std::sync::Arc::new(file::parse(&net.quantise(400)).unwrap());
        let mut worst = 0.0f32;
        let (mut signed, mut absolute, mut count) = (0.0f64, 0.0f64, 0.0f64);
        for record in sample(500) {
            let mut pos = record.position().unwrap();
            pos.set_network(quantised.clone());
            let float = net.eval_cp(&record, 400);
            let integer = pos.network_eval() as f32;
            let difference = (float - integer).abs();
            worst = worst.max(difference);
            signed += (integer - float) as f64;
            absolute += difference as f64;
            count += 1.0;
        }
        // Rounding every weight to 1/255 or 1/64 moves a net of trained-like size by about
        // 9 cp on average (each accumulator sums 32 rounded rows; 256 of them feed the
        // output), with no bias beyond the integer divisions' truncation.
        let (mean, mean_absolute) = (signed / count, absolute / count);
        assert!(mean.abs() <= 4.0, "bias {mean} cp");
        assert!(mean_absolute <= 12.0, "mean difference {mean_absolute} cp");
        assert!(worst <= 50.0, "worst difference {worst} cp");
        assert!(worst > 0.0, "quantisation cannot be exact everywhere");
    }
}
