//! `engine train`: fits the evaluation network to datagen's positions.
//!
//! Loads every `--data` file through the filters of `data`, shuffles (datagen writes a game's
//! positions one after another, and a net trained on them in that order learns the games, not
//! the positions), holds out a validation set, then runs epochs of AdamW over batches with a
//! cosine learning-rate schedule. Each batch's gradient is computed by `--threads` threads on
//! slices of the batch and summed. After every epoch the trainer writes a checkpoint (float
//! weights and Adam state, to resume with `--resume`) and the quantised net of that epoch
//! into `--out-dir`; the last epoch's net is also written to `--output`.

pub mod data;
pub mod network;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::datagen::format::Record;
use crate::random::Rng;
use data::Filter;
use network::{Adam, Features, FloatNet, Grad, Scratch, target};

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training data: datagen `.bin` record files, or text files (`FEN [result] score`).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the final quantised net.
    #[arg(long)]
    pub output: PathBuf,
    /// Folder for per-epoch checkpoints and nets (default: beside --output).
    #[arg(long)]
    pub out_dir: Option<PathBuf>,
    /// Width of the first layer.
    #[arg(long, default_value_t = crate::nnue::HIDDEN)]
    pub hidden: usize,
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Learning rate at the start (cosine decay to --final-lr-ratio of it).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    #[arg(long, default_value_t = 0.05)]
    pub final_lr_ratio: f32,
    /// Weight of the search score in the target (the rest is the game result).
    #[arg(long, default_value_t = 0.75)]
    pub score_weight: f32,
    /// Fraction of the positions held out for validation.
    #[arg(long, default_value_t = 0.01)]
    pub validation: f64,
    /// Keep positions from this ply of their game on.
    #[arg(long, default_value_t = 8)]
    pub min_ply: usize,
    /// Drop positions whose score is at least this (centipawns, either sign).
    #[arg(long, default_value_t = 3000)]
    pub max_score: i32,
    /// Threads computing each batch's gradient.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Continue from a checkpoint written by an earlier run.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start from the weights of this net file instead of random ones (refining a net on new
    /// data, usually at a lower --lr); its width must be the engine's.
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Centipawns per unit of the net's output in the written nets (0: fit it to the search
    /// scores of the validation set, so a net centipawn is a search centipawn).
    #[arg(long, default_value_t = 0)]
    pub scale: i32,
    /// Use at most this many positions (after filtering and shuffling; 0: all).
    #[arg(long, default_value_t = 0)]
    pub limit: usize,
    /// Show half the positions of each epoch reflected between the a- and h-files (the other
    /// half in the next epoch): twice the examples from the same games.
    #[arg(long)]
    pub mirror: bool,
    /// Train only the output layer (all its buckets); the first layer keeps the weights of the
    /// --init net. Fits the buckets of a net trained without them without touching the
    /// features it learnt from more data than one session makes.
    #[arg(long, requires = "init")]
    pub output_only: bool,
}

/// Whether a training pass shows `record` reflected between the a- and h-files (`--mirror`):
/// half the positions in one epoch, the other half in the next, picked by a hash of the
/// occupancy so the choice needs no state and every position is seen both ways.
fn mirrored(record: &Record, epoch: usize) -> bool {
    let half = (record.occupancy().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63) as usize;
    (half ^ epoch) & 1 == 1
}

/// One pass over `records` split across `threads`: the summed loss and, when `grads` is
/// given, each thread's gradient in its own buffer. With `mirror_epoch` (training with
/// `--mirror`) half the positions are seen reflected (`mirrored`).
fn pass(
    net: &FloatNet,
    records: &[Record],
    score_weight: f32,
    grads: Option<&mut [Grad]>,
    threads: usize,
    mirror_epoch: Option<usize>,
) -> f64 {
    let features = |record: &Record| {
        Features::of_mirrored(
            record,
            mirror_epoch.is_some_and(|epoch| mirrored(record, epoch)),
        )
    };
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        match grads {
            Some(grads) => {
                for (slice, grad) in records.chunks(chunk).zip(grads.iter_mut()) {
                    handles.push(scope.spawn(move || {
                        grad.clear();
                        let mut scratch = Scratch::new(net.hidden);
                        let mut loss = 0.0f64;
                        for record in slice {
                            let t = target(record, score_weight);
                            loss += net.backward(&features(record), t, &mut scratch, grad) as f64;
                        }
                        loss
                    }));
                }
            }
            None => {
                for slice in records.chunks(chunk) {
                    handles.push(scope.spawn(move || {
                        let mut scratch = Scratch::new(net.hidden);
                        slice
                            .iter()
                            .map(|record| {
                                let t = target(record, score_weight);
                                net.loss(&features(record), t, &mut scratch) as f64
                            })
                            .sum::<f64>()
                    }));
                }
            }
        }
        handles
            .into_iter()
            .map(|handle| handle.join().expect("no training thread panics"))
            .sum()
    })
}

/// The training loop's state that a checkpoint keeps.
struct Training {
    net: FloatNet,
    adam: Adam,
    epoch: usize,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"OX88CKPT";

fn write_checkpoint(path: &Path, state: &Training) -> std::io::Result<()> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(CHECKPOINT_MAGIC);
    bytes.extend_from_slice(&(state.net.hidden as u32).to_le_bytes());
    bytes.extend_from_slice(&(state.epoch as u32).to_le_bytes());
    for value in state.net.flat().iter().chain(&state.adam.flat()) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let partial = path.with_extension("partial");
    std::fs::write(&partial, &bytes)?;
    std::fs::rename(&partial, path)
}

fn read_checkpoint(path: &Path) -> Result<Training, String> {
    let bytes =
        std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    let bad = || {
        format!(
            "{} is not a complete Ox88 training checkpoint",
            path.display()
        )
    };
    if bytes.len() < 16 || &bytes[0..8] != CHECKPOINT_MAGIC {
        return Err(bad());
    }
    let hidden = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    let epoch = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    let values: Vec<f32> = bytes[16..]
        .chunks_exact(4)
        .map(|word| f32::from_le_bytes(word.try_into().expect("4 bytes")))
        .collect();
    let net_len = FloatNet::flat_len(hidden);
    if hidden == 0 || hidden > 4096 || values.len() != net_len + Adam::flat_len(hidden) {
        return Err(bad());
    }
    Ok(Training {
        net: FloatNet::from_flat(hidden, &values[..net_len]),
        adam: Adam::from_flat(hidden, &values[net_len..]),
        epoch,
    })
}

/// Positions per validation block: a dozen games or so.
const VALIDATION_BLOCK: usize = 1024;

/// Splits `records` (in file order) into training and validation sets, every
/// `1 / fraction`-th block of `VALIDATION_BLOCK` positions going to validation.
fn split_by_blocks(records: Vec<Record>, fraction: f64) -> (Vec<Record>, Vec<Record>) {
    if fraction <= 0.0 {
        return (records, Vec::new());
    }
    let every = ((1.0 / fraction).round() as usize).max(2);
    let (mut training, mut validation) = (Vec::new(), Vec::new());
    for (index, block) in records.chunks(VALIDATION_BLOCK).enumerate() {
        if index % every == every - 1 {
            validation.extend_from_slice(block);
        } else {
            training.extend_from_slice(block);
        }
    }
    (training, validation)
}

/// `--scale`, or the one fitted on the validation set (or the first training positions
/// when there is none).
fn output_scale(
    args: &TrainArgs,
    net: &FloatNet,
    validation: &[Record],
    training: &[Record],
) -> i32 {
    if args.scale > 0 {
        return args.scale;
    }
    let sample = if validation.is_empty() {
        &training[..training.len().min(100_000)]
    } else {
        validation
    };
    net.fit_scale(sample, 1000)
}

pub fn run(args: &TrainArgs) -> ExitCode {
    match train(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("engine: {message}");
            ExitCode::from(2)
        }
    }
}

fn train(args: &TrainArgs) -> Result<(), String> {
    if args.hidden == 0 || args.hidden > 4096 || args.batch == 0 || args.epochs == 0 {
        return Err(
            "train: --hidden, --batch and --epochs must be positive (hidden ≤ 4096)".into(),
        );
    }
    if !(args.lr.is_finite() && args.lr > 0.0) {
        return Err("train: --lr must be a finite number above 0".into());
    }
    if !(0.0..=1.0).contains(&args.final_lr_ratio) {
        return Err("train: --final-lr-ratio must be in 0..=1".into());
    }
    if args.scale != 0 && !(crate::nnue::MIN_SCALE..=crate::nnue::MAX_SCALE).contains(&args.scale) {
        return Err(format!(
            "train: --scale must be 0 (fit) or {}..={}",
            crate::nnue::MIN_SCALE,
            crate::nnue::MAX_SCALE
        ));
    }
    if !(0.0..=1.0).contains(&args.score_weight) || !(0.0..0.5).contains(&args.validation) {
        return Err("train: --score-weight must be in 0..=1 and --validation in 0..0.5".into());
    }
    let threads = args.threads.clamp(1, 256);
    let out_dir = args.out_dir.clone().unwrap_or_else(|| {
        args.output
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    });
    if !out_dir.as_os_str().is_empty() {
        std::fs::create_dir_all(&out_dir)
            .map_err(|error| format!("cannot create {}: {error}", out_dir.display()))?;
    }

    let filter = Filter {
        min_ply: args.min_ply,
        max_score: args.max_score,
    };
    let started = Instant::now();
    let mut records = Vec::new();
    for path in &args.data {
        let stats = data::load(path, &filter, &mut records)?;
        eprintln!(
            "{}: {} positions read, {} kept ({} in check, {} noisy move, {} early, {} extreme score, {} damaged, {} tail bytes)",
            path.display(),
            stats.read,
            stats.kept,
            stats.in_check,
            stats.noisy,
            stats.early,
            stats.extreme,
            stats.damaged,
            stats.tail_bytes
        );
    }
    // Validation takes whole blocks of consecutive positions (a game's positions are
    // consecutive in the files), so it measures positions of games the net has not seen,
    // not neighbours of positions it trained on.
    let (mut training, validation) = split_by_blocks(records, args.validation);
    let mut random = Rng::new(args.seed);
    random.shuffle(&mut training);
    if args.limit > 0 {
        training.truncate(args.limit);
    }
    if training.is_empty() {
        return Err("train: no positions left after filtering".into());
    }
    eprintln!(
        "{} training positions, {} validation, loaded in {:.1} s",
        training.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );

    let mut state = match &args.resume {
        Some(path) => {
            let state = read_checkpoint(path)?;
            if state.net.hidden != args.hidden {
                return Err(format!(
                    "train: checkpoint has width {}, --hidden is {}",
                    state.net.hidden, args.hidden
                ));
            }
            eprintln!("resuming after epoch {}", state.epoch);
            state
        }
        None => {
            let net = match &args.init {
                Some(path) => {
                    if args.hidden != crate::nnue::HIDDEN {
                        return Err(format!(
                            "train: --init reads nets of width {}, --hidden is {}",
                            crate::nnue::HIDDEN,
                            args.hidden
                        ));
                    }
                    let net = FloatNet::from_network(&crate::nnue::file::load(path)?);
                    if !validation.is_empty() {
                        let loss = pass(&net, &validation, args.score_weight, None, threads, None)
                            / validation.len() as f64;
                        eprintln!(
                            "starting from {}: validation loss {loss:.6}",
                            path.display()
                        );
                    }
                    net
                }
                None => FloatNet::random(args.hidden, &mut random),
            };
            Training {
                net,
                adam: Adam::new(args.hidden),
                epoch: 0,
            }
        }
    };
    state.adam.output_only = args.output_only;
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::zeros(args.hidden)).collect();
    let batches_per_epoch = training.len().div_ceil(args.batch);
    let total_batches = (batches_per_epoch * args.epochs) as f64;
    let train_start = Instant::now();
    let mut trained = 0u64;
    while state.epoch < args.epochs {
        let epoch_start = Instant::now();
        Rng::new(args.seed ^ (state.epoch as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D))
            .shuffle(&mut training);
        let mut epoch_loss = 0.0;
        for (index, batch) in training.chunks(args.batch).enumerate() {
            let progress = (state.epoch * batches_per_epoch + index) as f64 / total_batches;
            let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()) as f32;
            let rate = args.lr * (args.final_lr_ratio + (1.0 - args.final_lr_ratio) * cosine);
            epoch_loss += pass(
                &state.net,
                batch,
                args.score_weight,
                Some(&mut grads),
                threads,
                args.mirror.then_some(state.epoch),
            );
            let (first, rest) = grads.split_first_mut().expect("at least one thread");
            for other in rest.iter() {
                first.add(other);
            }
            first.scale(1.0 / batch.len() as f32);
            state.adam.step(&mut state.net, first, rate);
            trained += batch.len() as u64;
            if index % 50 == 49 {
                eprint!(
                    "\repoch {} batch {}/{} loss {:.6} lr {:.6} {:.0} positions/s   ",
                    state.epoch + 1,
                    index + 1,
                    batches_per_epoch,
                    epoch_loss / ((index + 1) * args.batch) as f64,
                    rate,
                    trained as f64 / train_start.elapsed().as_secs_f64()
                );
            }
        }
        state.epoch += 1;
        let train_loss = epoch_loss / training.len() as f64;
        let validation_loss = if validation.is_empty() {
            f64::NAN
        } else {
            pass(
                &state.net,
                &validation,
                args.score_weight,
                None,
                threads,
                None,
            ) / validation.len() as f64
        };
        eprintln!(
            "\repoch {} train loss {:.6} validation loss {:.6} in {:.1} s ({:.0} positions/s)          ",
            state.epoch,
            train_loss,
            validation_loss,
            epoch_start.elapsed().as_secs_f64(),
            training.len() as f64 / epoch_start.elapsed().as_secs_f64()
        );
        let save = |path: PathBuf, bytes: &[u8]| {
            std::fs::write(&path, bytes)
                .map_err(|error| format!("cannot write {}: {error}", path.display()))
        };
        write_checkpoint(&out_dir.join("checkpoint.bin"), &state)
            .map_err(|error| format!("cannot write the checkpoint: {error}"))?;
        let scale = output_scale(args, &state.net, &validation, &training);
        save(
            out_dir.join(format!("epoch-{}.nnue", state.epoch)),
            &state.net.quantise(scale),
        )?;
    }
    let scale = output_scale(args, &state.net, &validation, &training);
    eprintln!("output scale {scale} centipawns per unit (EVAL_K 400)");
    let bytes = state.net.quantise(scale);
    std::fs::File::create(&args.output)
        .and_then(|mut file| file.write_all(&bytes))
        .map_err(|error| format!("cannot write {}: {error}", args.output.display()))?;
    eprintln!(
        "wrote {} ({} bytes) after {:.1} s of training",
        args.output.display(),
        bytes.len(),
        train_start.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_position_is_mirrored_in_one_epoch_of_two() {
        let mut random = Rng::new(9);
        let mut mirrored_first = 0;
        for _ in 0..1000 {
            let mut bytes = [0u8; crate::datagen::format::RECORD_BYTES];
            bytes[..8].copy_from_slice(&random.next_u64().to_le_bytes());
            let record = Record(bytes);
            assert_ne!(mirrored(&record, 0), mirrored(&record, 1));
            assert_eq!(mirrored(&record, 0), mirrored(&record, 2));
            mirrored_first += mirrored(&record, 0) as usize;
        }
        assert!((400..=600).contains(&mirrored_first), "{mirrored_first}");
    }
}
