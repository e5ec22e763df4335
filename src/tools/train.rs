//! `train`: fits the network to self-play games on the CPU and exports it quantised.
//!
//! Every position `datagen` (or `convert`, from PGN files) recorded that suits training (a
//! score, not in check, a quiet move, no mate score) becomes a 32-byte sample held in
//! memory. One game in twenty is held out, chosen by a hash of the game itself, so the same
//! games are held out whatever files come with it and in whatever order; a game met again
//! (a file given twice, a PGN converted twice) is read once. A training position no side
//! can castle in is also learnt with its files mirrored.
//! The target is a blend of the game's result and `sigmoid(score / scale)`, where `scale`
//! (centipawns per unit of the network's output) is fitted so the search's scores predict
//! the results best; the loss is the squared error of `sigmoid(output)`. AdamW with a
//! cosine learning-rate schedule (batch by batch, from the peak to a hundredth of it at the
//! run's last batch) runs over shuffled mini-batches, each batch's gradient
//! summed over `--threads` threads in a fixed order, so a run is deterministic for a seed
//! and a thread count, resumed or not (a resumed run replays the shuffles of the epochs it
//! skips). Each epoch writes a checkpoint to resume from and the quantised net;
//! `best.nnue` is the net of the lowest held-out loss (kept in `best.loss`, so a resumed run
//! replaces it only with a better one).

use super::datagen::trains;
use super::games;
use crate::eval::{
    Columns, HIDDEN, INPUTS, KING_BUCKETS, Network, OUTPUT_BUCKETS, QA, QB, feature_index, king_bucket,
    output_bucket, zeroed,
};
use crate::rng::Rng;
use shakmaty::{Bitboard, Chess, Color, Piece, Position, Role, Square};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a `train` run does (the `train` command's options).
#[derive(Clone, Debug, clap::Args)]
pub struct TrainConfig {
    /// Game files written by datagen or convert.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Directory for the checkpoint and the nets (epoch-N.nnue, best.nnue).
    #[arg(long)]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Peak learning rate (cosine schedule down to a hundredth).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Weight of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 0.25)]
    pub wdl: f32,
    /// Threads computing the gradient.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the first weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Continue from OUT/checkpoint.bin.
    #[arg(long)]
    pub resume: bool,
    /// Centipawns per unit of output (default: fitted to the data).
    #[arg(long)]
    pub scale: Option<f32>,
    /// Start from this net's weights (and its scale) instead of random ones.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// One output layer for every piece count (a version 1 net, as networks 1-9), not one per bucket.
    #[arg(long)]
    pub one_output: bool,
    /// King buckets of the inputs: 1, 2 or 4 (see `eval::king_bucket`). A net given by
    /// `--init` with fewer grows to them, each new bucket a copy of the one it lies within,
    /// so it starts out evaluating as before (default: the `--init` net's, else 1).
    #[arg(long)]
    pub king_buckets: Option<usize>,
    /// Gradient steps over which the learning rate ramps up from zero (0: none).
    ///
    /// A net given by `--init` is then not shaken by AdamW's first, full-size steps.
    #[arg(long, default_value_t = 0)]
    pub warmup: u64,
    /// Learn on the weights rounded as the engine's integers are (quantisation-aware).
    ///
    /// Each batch's gradient is taken on the rounded weights and applied to the float ones;
    /// the held-out loss printed is the rounded net's.
    #[arg(long)]
    pub qat: bool,
}

/// Weights are kept within this bound, so the quantised hidden layer fits 16 bits
/// (32 pieces at most, times `QA`) and the output weights fit `MAX_OUTPUT_WEIGHT`.
const WEIGHT_CLIP: f32 = 1.98;
/// AdamW's moment decays and its weight decay.
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;
const WEIGHT_DECAY: f32 = 0.01;
/// One game in this many is held out (by the game's hash).
const HOLD_OUT_EVERY: u64 = 20;

/// One training position: the board packed, the score and the result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Sample {
    /// Occupied squares.
    occupied: u64,
    /// One nibble per occupied square, in square order: colour << 3 | role.
    pieces: [u8; 16],
    /// The search score, White's side, centipawns.
    score: i16,
    /// The result, White's side: 0 loss, 1 draw, 2 win.
    result: u8,
    /// 0 White to move, 1 Black.
    black_to_move: u8,
    _pad: [u8; 4],
}

impl Sample {
    /// Packs `pos` with its White-side `score` and `white_result` (0, 0.5 or 1).
    pub fn new(pos: &Chess, score: i16, white_result: f32) -> Sample {
        let (occupied, pieces) = pack(pos.board().iter().map(|(square, piece)| (piece, square)));
        Sample {
            occupied,
            pieces,
            score,
            result: (white_result * 2.0).round() as u8,
            black_to_move: u8::from(pos.turn() == Color::Black),
            _pad: [0; 4],
        }
    }

    /// The same position with the files mirrored (a with h): as good a sample as this one
    /// when no side can castle, since nothing else in chess tells the wings apart.
    fn mirrored(&self) -> Sample {
        let (occupied, pieces) = pack(self.pieces().map(|(piece, square)| (piece, square.flip_horizontal())));
        Sample { occupied, pieces, ..*self }
    }

    /// The pieces on their squares.
    fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        Bitboard(self.occupied).into_iter().enumerate().map(|(i, square)| {
            let nibble = self.pieces[i / 2] >> (4 * (i % 2)) & 15;
            let color = Color::from_white(nibble >> 3 == 1);
            let role = Role::try_from(nibble & 7).expect("a role");
            (Piece { color, role }, square)
        })
    }

    /// The side to move.
    fn turn(&self) -> Color {
        if self.black_to_move == 1 { Color::Black } else { Color::White }
    }

    /// The inputs of the side to move and of the other side, in each one's king bucket of
    /// a net of `king_buckets`; returns how many pieces.
    fn features(&self, king_buckets: usize, ours: &mut [u16; 32], theirs: &mut [u16; 32]) -> usize {
        let us = self.turn();
        let [white, black] = self.king_buckets(king_buckets);
        let (mine, other) = if us == Color::White { (white, black) } else { (black, white) };
        let mut n = 0;
        for (piece, square) in self.pieces().take(32) {
            ours[n] = (mine * INPUTS + feature_index(us, piece, square)) as u16;
            theirs[n] = (other * INPUTS + feature_index(!us, piece, square)) as u16;
            n += 1;
        }
        n
    }

    /// Each side's king bucket in a net of `buckets`, White's then Black's.
    fn king_buckets(&self, buckets: usize) -> [usize; 2] {
        let mut found = [0, 0];
        if buckets > 1 {
            for (piece, square) in self.pieces().filter(|(piece, _)| piece.role == Role::King) {
                let (side, seen) = match piece.color {
                    Color::White => (0, square),
                    Color::Black => (1, square.flip_vertical()),
                };
                found[side] = king_bucket(buckets, seen);
            }
        }
        found
    }

    /// The training target from the side to move's view: `wdl` of the result, the rest the
    /// score's expected result.
    fn target(&self, scale: f32, wdl: f32) -> f32 {
        let white = 1.0 - self.black_to_move as f32 * 2.0;
        let score = sigmoid(white * f32::from(self.score) / scale);
        let result = f32::from(self.result) / 2.0;
        let result = if self.black_to_move == 1 { 1.0 - result } else { result };
        wdl * result + (1.0 - wdl) * score
    }
}

/// The occupied squares and one nibble per piece in square order (colour << 3 | role).
fn pack(pieces: impl Iterator<Item = (Piece, Square)>) -> (u64, [u8; 16]) {
    let mut board = [0u8; 64];
    let mut occupied = Bitboard::EMPTY;
    for (piece, square) in pieces {
        board[square as usize] = (piece.color as u8) << 3 | piece.role as u8;
        occupied.add(square);
    }
    let mut packed = [0u8; 16];
    for (i, square) in occupied.into_iter().take(32).enumerate() {
        packed[i / 2] |= board[square as usize] << (4 * (i % 2));
    }
    (occupied.0, packed)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training positions of game files, and every twentieth game's apart.
pub struct DataSet {
    /// Positions to fit.
    pub train: Vec<Sample>,
    /// Positions held out to measure the fit.
    pub held_out: Vec<Sample>,
    /// Games read (repeats left out).
    pub games: u64,
    /// Games left out because the same record came earlier (a file given twice, a PGN
    /// converted twice).
    pub repeats: u64,
}

/// Reads every game in `paths` once, keeping the positions that suit training.
pub fn load(paths: &[PathBuf]) -> Result<DataSet, String> {
    let mut set = DataSet { train: Vec::new(), held_out: Vec::new(), games: 0, repeats: 0 };
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games::for_each_game(&bytes, |game| {
            let record = game.encode();
            if !seen.insert(record_hash(&record)) {
                set.repeats += 1;
                return;
            }
            let result = game.white_result();
            let held_out = held_out_record(&record);
            let mut pos = game.start.clone();
            for &(mv, score) in &game.plies {
                if trains(&pos, mv, score) {
                    let sample = Sample::new(&pos, score, result);
                    if held_out {
                        set.held_out.push(sample);
                    } else {
                        set.train.push(sample);
                        if pos.castles().is_empty() {
                            set.train.push(sample.mirrored());
                        }
                    }
                }
                pos.play_unchecked(mv);
            }
            set.games += 1;
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(set)
}

/// True for the games held out: one in `HOLD_OUT_EVERY`, by a hash of the game's record, so
/// a game is held out or not whatever file holds it and whatever comes before it.
pub fn held_out(game: &games::GameRecord) -> bool {
    held_out_record(&game.encode())
}

/// [`held_out`] for a game's encoded record.
fn held_out_record(record: &[u8]) -> bool {
    u64::from(crate::eval::fnv1a(record)) % HOLD_OUT_EVERY == 0
}

/// A 64-bit hash of a game's encoded record (FNV-1a), to find repeated games: with a
/// million games a false repeat has a chance of about one in 40 million.
fn record_hash(record: &[u8]) -> u64 {
    record.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The scale (centipawns per unit of output) at which `sigmoid(score / scale)` predicts the
/// results with the least squared error: a golden-section search.
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let error = |scale: f64| -> f64 {
        samples
            .iter()
            .map(|s| {
                let predicted = 1.0 / (1.0 + (-f64::from(s.score) / scale).exp());
                (predicted - f64::from(s.result) / 2.0).powi(2)
            })
            .sum()
    };
    let (mut lo, mut hi) = (30.0f64, 1500.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (a, b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if error(a) < error(b) { hi = b } else { lo = a }
    }
    ((lo + hi) / 2.0) as f32
}

/// A random number in `-bound..bound`.
fn uniform(rng: &mut Rng, bound: f32) -> f32 {
    (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * bound - bound
}

/// The network in floating point, as trained.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    /// Hidden weights, input-major: input `i`'s weights at `i * HIDDEN ..`, king bucket
    /// by king bucket.
    pub w1: Vec<f32>,
    /// King buckets of the inputs (1, 2 or 4).
    pub king_buckets: usize,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Output weights, bucket by bucket, the side to move's half first in each.
    pub w2: Vec<f32>,
    /// Output bias of each bucket.
    pub b2: Vec<f32>,
    /// Every position goes through the first output layer (a version 1 net), not its bucket's.
    pub one_output: bool,
}

impl FloatNet {
    /// Small random weights.
    pub fn random(seed: u64) -> FloatNet {
        let mut rng = Rng::new(seed);
        let mut uniform = |bound: f32| uniform(&mut rng, bound);
        FloatNet {
            w1: (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect(),
            king_buckets: 1,
            b1: (0..HIDDEN).map(|_| uniform(0.1)).collect(),
            w2: (0..OUTPUT_BUCKETS * 2 * HIDDEN)
                .map(|_| uniform(1.0 / (2.0 * HIDDEN as f32).sqrt()))
                .collect(),
            b2: vec![0.0; OUTPUT_BUCKETS],
            one_output: false,
        }
    }

    /// The float weights an integer network stands for (its quantisation undone).
    pub fn from_network(net: &Network) -> FloatNet {
        let unq = |w: i16, by: i32| f32::from(w) / by as f32;
        FloatNet {
            w1: net.feature_weights[..net.king_buckets * INPUTS]
                .iter()
                .flatten()
                .map(|&w| unq(w, QA))
                .collect(),
            king_buckets: net.king_buckets,
            b1: net.feature_bias.iter().map(|&w| unq(w, QA)).collect(),
            w2: net.output_weights.iter().flatten().map(|&w| unq(w, QB)).collect(),
            b2: net.output_bias.iter().map(|&b| b as f32 / (QA * QB) as f32).collect(),
            one_output: false,
        }
    }

    /// Gives each hidden neuron that has no weights at all (those a narrower net's file lacked,
    /// see `Network::from_bytes`) small random input weights and a bias, its output weights
    /// still zero: the output is unchanged and training can grow them. Returns how many.
    pub fn widen(&mut self, seed: u64) -> usize {
        let mut rng = Rng::new(seed);
        let mut widened = 0;
        for n in 0..HIDDEN {
            let outputs = (0..2 * OUTPUT_BUCKETS).map(|half| self.w2[half * HIDDEN + n]);
            let all = self.king_buckets * INPUTS;
            let inputs = (0..all).map(|i| self.w1[i * HIDDEN + n]);
            if self.b1[n] != 0.0 || outputs.chain(inputs).any(|w| w != 0.0) {
                continue;
            }
            (0..all).for_each(|i| self.w1[i * HIDDEN + n] = uniform(&mut rng, 0.1));
            self.b1[n] = uniform(&mut rng, 0.1);
            widened += 1;
        }
        widened
    }

    /// Reads the inputs in `buckets` king buckets (1, 2 or 4, at least as many as now),
    /// each starting as a copy of the bucket it lies within (see `eval::king_bucket`): the
    /// net evaluates every position as before, and training then tells the buckets apart.
    pub fn grow_king_buckets(&mut self, buckets: usize) -> Result<(), String> {
        let old = self.king_buckets;
        if !matches!(buckets, 1 | 2 | KING_BUCKETS) || buckets < old {
            return Err(format!(
                "a net of {old} king buckets cannot have {buckets} (1, 2 or {KING_BUCKETS}, no fewer)"
            ));
        }
        let bucket = INPUTS * HIDDEN;
        let grown = (0..buckets).flat_map(|b| &self.w1[(b % old) * bucket..][..bucket]).copied().collect();
        (self.w1, self.king_buckets) = (grown, buckets);
        Ok(())
    }

    /// Zeros in the shape of a net of `king_buckets`.
    fn zeros(king_buckets: usize) -> FloatNet {
        FloatNet {
            w1: vec![0.0; king_buckets * INPUTS * HIDDEN],
            king_buckets,
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; OUTPUT_BUCKETS * 2 * HIDDEN],
            b2: vec![0.0; OUTPUT_BUCKETS],
            one_output: false,
        }
    }

    /// Every parameter, in a fixed order.
    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1.iter_mut().chain(self.b1.iter_mut()).chain(self.w2.iter_mut()).chain(self.b2.iter_mut())
    }

    fn params(&self) -> impl Iterator<Item = &f32> {
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2)
    }

    /// The output (before the sigmoid) for a sample.
    pub fn output(&self, sample: &Sample) -> f32 {
        let mut scratch = Scratch::default();
        forward(self, sample, &mut scratch)
    }

    /// The weights the quantised net stands for: each rounded to its layer's integer grid
    /// (1/QA for the hidden layer, 1/QB for the output weights, 1/(QA*QB) for the output bias).
    pub fn rounded(&self) -> FloatNet {
        let grid = |by: i32| move |w: &f32| (w * by as f32).round() / by as f32;
        FloatNet {
            w1: self.w1.iter().map(grid(QA)).collect(),
            king_buckets: self.king_buckets,
            b1: self.b1.iter().map(grid(QA)).collect(),
            w2: self.w2.iter().map(grid(QB)).collect(),
            b2: self.b2.iter().map(grid(QA * QB)).collect(),
            one_output: self.one_output,
        }
    }

    /// The weights a loss is taken on: the rounded ones under `--qat` (`qat`), else these.
    pub fn for_loss(&self, qat: bool) -> Cow<'_, FloatNet> {
        if qat { Cow::Owned(self.rounded()) } else { Cow::Borrowed(self) }
    }

    /// The integer network: weights rounded to the engine's scales (the first output layer
    /// in every bucket when there is one).
    pub fn quantise(&self, scale: f32) -> Network {
        let q = |w: f32, by: i32| (w * by as f32).round() as i16;
        let mut feature_weights: Columns = zeroed();
        for (column, weights) in feature_weights.iter_mut().zip(self.w1.chunks_exact(HIDDEN)) {
            column.iter_mut().zip(weights).for_each(|(c, &w)| *c = q(w, QA));
        }
        let mut feature_bias = [0i16; HIDDEN];
        feature_bias.iter_mut().zip(&self.b1).for_each(|(c, &w)| *c = q(w, QA));
        let mut output_weights = [[0i16; 2 * HIDDEN]; OUTPUT_BUCKETS];
        output_weights.iter_mut().flatten().zip(&self.w2).for_each(|(c, &w)| *c = q(w, QB));
        let mut output_bias = [0i32; OUTPUT_BUCKETS];
        output_bias.iter_mut().zip(&self.b2).for_each(|(c, &b)| *c = (b * (QA * QB) as f32).round() as i32);
        if self.one_output {
            output_weights = [output_weights[0]; OUTPUT_BUCKETS];
            output_bias = [output_bias[0]; OUTPUT_BUCKETS];
        }
        let (king_buckets, scale) = (self.king_buckets, scale.round() as i32);
        Network { feature_weights, king_buckets, feature_bias, output_weights, output_bias, scale }
    }
}

/// Per-sample work space of the forward and backward passes.
struct Scratch {
    ours: [u16; 32],
    theirs: [u16; 32],
    count: usize,
    /// The output bucket of the sample's piece count.
    bucket: usize,
    hidden: [[f32; HIDDEN]; 2],
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch { ours: [0; 32], theirs: [0; 32], count: 0, bucket: 0, hidden: [[0.0; HIDDEN]; 2] }
    }
}

/// The output for `sample`, leaving its inputs and hidden layers (before activation) in `s`.
#[inline(always)]
fn forward(net: &FloatNet, sample: &Sample, s: &mut Scratch) -> f32 {
    s.count = sample.features(net.king_buckets, &mut s.ours, &mut s.theirs);
    s.bucket = if net.one_output { 0 } else { output_bucket(s.count) };
    let mut out = net.b2[s.bucket];
    for (side, inputs) in [&s.ours, &s.theirs].into_iter().enumerate() {
        let hidden = &mut s.hidden[side];
        hidden.copy_from_slice(&net.b1);
        for &input in &inputs[..s.count] {
            let column = &net.w1[usize::from(input) * HIDDEN..][..HIDDEN];
            hidden.iter_mut().zip(column).for_each(|(h, w)| *h += w);
        }
        let weights = &net.w2[(2 * s.bucket + side) * HIDDEN..][..HIDDEN];
        out += hidden.iter().zip(weights).map(|(&h, &w)| h.clamp(0.0, 1.0).powi(2) * w).sum::<f32>();
    }
    out
}

/// Adds the loss gradient of one sample to `grad`; returns the sample's loss.
#[inline(always)]
fn backward(net: &FloatNet, sample: &Sample, target: f32, s: &mut Scratch, grad: &mut FloatNet) -> f32 {
    let predicted = sigmoid(forward(net, sample, s));
    let error = predicted - target;
    let d_out = 2.0 * error * predicted * (1.0 - predicted);
    grad.b2[s.bucket] += d_out;
    for (side, inputs) in [&s.ours, &s.theirs].into_iter().enumerate() {
        let hidden = &s.hidden[side];
        let at = (2 * s.bucket + side) * HIDDEN;
        let weights = &net.w2[at..][..HIDDEN];
        let mut d_hidden = [0f32; HIDDEN];
        let g_w2 = &mut grad.w2[at..][..HIDDEN];
        for i in 0..HIDDEN {
            let clamped = hidden[i].clamp(0.0, 1.0);
            g_w2[i] += d_out * clamped * clamped;
            d_hidden[i] =
                if hidden[i] > 0.0 && hidden[i] < 1.0 { d_out * weights[i] * 2.0 * hidden[i] } else { 0.0 };
        }
        grad.b1.iter_mut().zip(&d_hidden).for_each(|(g, d)| *g += d);
        for &input in &inputs[..s.count] {
            let column = &mut grad.w1[usize::from(input) * HIDDEN..][..HIDDEN];
            column.iter_mut().zip(&d_hidden).for_each(|(g, d)| *g += d);
        }
    }
    error * error
}

/// The gradient and loss sum of `samples` (one thread's share of a batch).
fn batch_gradient(net: &FloatNet, samples: &[Sample], scale: f32, wdl: f32, grad: &mut FloatNet) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2_fma() {
        // SAFETY: `simd::avx2_fma` is true only where the CPU has AVX2 and FMA.
        return unsafe { batch_gradient_avx2(net, samples, scale, wdl, grad) };
    }
    batch_gradient_body(net, samples, scale, wdl, grad)
}

/// [`batch_gradient`] compiled for AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn batch_gradient_avx2(
    net: &FloatNet,
    samples: &[Sample],
    scale: f32,
    wdl: f32,
    grad: &mut FloatNet,
) -> f64 {
    batch_gradient_body(net, samples, scale, wdl, grad)
}

#[inline(always)]
fn batch_gradient_body(net: &FloatNet, samples: &[Sample], scale: f32, wdl: f32, grad: &mut FloatNet) -> f64 {
    let mut scratch = Scratch::default();
    samples.iter().map(|s| f64::from(backward(net, s, s.target(scale, wdl), &mut scratch, grad))).sum()
}

/// Mean loss of `samples`, computed on `threads` threads.
pub fn mean_loss(net: &FloatNet, samples: &[Sample], scale: f32, wdl: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut scratch = Scratch::default();
                    part.iter()
                        .map(|s| {
                            let error = sigmoid(forward(net, s, &mut scratch)) - s.target(scale, wdl);
                            f64::from(error * error)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("loss thread")).sum()
    });
    total / samples.len() as f64
}

/// The optimiser's state: the weights, AdamW's moments and how far training has come.
#[derive(Clone, Debug, PartialEq)]
pub struct Trainer {
    /// The weights.
    pub net: FloatNet,
    m: FloatNet,
    v: FloatNet,
    step: u64,
    /// Epochs completed.
    pub epoch: usize,
    /// Centipawns per unit of output.
    pub scale: f32,
}

impl Trainer {
    /// A trainer starting from random weights.
    pub fn new(seed: u64, scale: f32) -> Trainer {
        Trainer::from_net(FloatNet::random(seed), scale)
    }

    /// A trainer starting from `net`, with fresh optimiser moments.
    pub fn from_net(net: FloatNet, scale: f32) -> Trainer {
        let (m, v) = (FloatNet::zeros(net.king_buckets), FloatNet::zeros(net.king_buckets));
        Trainer { net, m, v, step: 0, epoch: 0, scale }
    }

    /// One pass over `samples` in an order drawn from `seed`, each batch at the learning
    /// rate `lr` gives for how far through the pass it starts (0 to 1); returns the mean
    /// training loss.
    pub fn epoch(&mut self, samples: &mut [Sample], config: &TrainConfig, lr: impl Fn(f32) -> f32) -> f64 {
        shuffle(samples, config.seed, self.epoch);
        let threads = config.threads.max(1);
        let mut grads: Vec<FloatNet> = (0..threads).map(|_| FloatNet::zeros(self.net.king_buckets)).collect();
        let mut total = 0.0;
        let batches = samples.len().div_ceil(config.batch.max(1)).max(1);
        for (index, batch) in samples.chunks(config.batch.max(1)).enumerate() {
            let share = batch.len().div_ceil(threads);
            let net = self.net.for_loss(config.qat);
            let (net, scale, wdl) = (net.as_ref(), self.scale, config.wdl);
            total += std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(share))
                    .map(|(grad, part)| {
                        scope.spawn(move || {
                            grad.params_mut().for_each(|g| *g = 0.0);
                            batch_gradient(net, part, scale, wdl, grad)
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().expect("gradient thread")).sum::<f64>()
            });
            let used = batch.len().div_ceil(share);
            let lr = lr(index as f32 / batches as f32) * warmup_factor(self.step + 1, config.warmup);
            self.apply(&mut grads[..used], batch.len(), lr);
        }
        self.epoch += 1;
        total / samples.len().max(1) as f64
    }

    /// Puts `samples`, as loaded, in the order the epochs done so far left them (each
    /// shuffles the order the one before left), so a resumed run goes on as an unbroken one.
    pub fn replay_shuffles(&self, samples: &mut [Sample], config: &TrainConfig) {
        (0..self.epoch).for_each(|epoch| shuffle(samples, config.seed, epoch));
    }

    /// One AdamW step with the mean of the summed gradients in `grads`.
    fn apply(&mut self, grads: &mut [FloatNet], count: usize, lr: f32) {
        let (first, rest) = grads.split_first_mut().expect("a gradient");
        for other in rest.iter() {
            first.params_mut().zip(other.params()).for_each(|(g, o)| *g += o);
        }
        self.step += 1;
        let correction1 = 1.0 - BETA1.powi(self.step.min(1 << 20) as i32);
        let correction2 = 1.0 - BETA2.powi(self.step.min(1 << 20) as i32);
        let scale = 1.0 / count as f32;
        let params = self.net.params_mut().zip(self.m.params_mut()).zip(self.v.params_mut());
        for ((w, (m, v)), g) in params.map(|((w, m), v)| (w, (m, v))).zip(first.params()) {
            let g = g * scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / correction1) / ((*v / correction2).sqrt() + EPSILON);
            *w = (*w - lr * (update + WEIGHT_DECAY * *w)).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The checkpoint's bytes: scale, epoch, step, then weights and both moments as f32.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(b"PRCK");
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        for net in [&self.net, &self.m, &self.v] {
            net.params().for_each(|p| out.extend_from_slice(&p.to_le_bytes()));
        }
        out
    }

    /// A trainer from checkpoint bytes (their length says the king buckets).
    pub fn from_bytes(bytes: &[u8]) -> Result<Trainer, String> {
        let params = |kings: usize| kings * INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * (2 * HIDDEN + 1);
        let kings = [1, 2, KING_BUCKETS].into_iter().find(|&k| bytes.len() == 24 + 3 * 4 * params(k));
        let Some(kings) = kings.filter(|_| &bytes[..4] == b"PRCK") else {
            return Err("not a checkpoint of this network's shape".into());
        };
        let scale = f32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
        let epoch = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")) as usize;
        let step = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
        let mut floats =
            bytes[24..].chunks_exact(4).map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")));
        let mut read = || {
            let mut net = FloatNet::zeros(kings);
            net.params_mut().for_each(|p| *p = floats.next().expect("length checked"));
            net
        };
        let (net, m, v) = (read(), read(), read());
        Ok(Trainer { net, m, v, step, epoch, scale })
    }
}

/// The learning rate `progress` of the way through a run (0 at its first batch, 1 at its
/// end): cosine from `lr` down to `lr / 100`.
pub fn learning_rate(lr: f32, progress: f32) -> f32 {
    let progress = progress.clamp(0.0, 1.0);
    let floor = lr / 100.0;
    floor + (lr - floor) * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos())
}

/// The share of the scheduled learning rate that gradient step `step` (counted from 1) takes
/// during a warm-up of `warmup` steps.
pub fn warmup_factor(step: u64, warmup: u64) -> f32 {
    if warmup == 0 { 1.0 } else { (step as f32 / warmup as f32).min(1.0) }
}

/// Shuffles `samples` for epoch `epoch` (counted from 0) of a run seeded with `seed`.
fn shuffle(samples: &mut [Sample], seed: u64, epoch: usize) {
    let mut rng = Rng::new(seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9));
    for i in (1..samples.len()).rev() {
        samples.swap(i, rng.below(i + 1));
    }
}

/// Loads the data, trains and writes a checkpoint and the quantised net every epoch,
/// reporting the losses and the speed on stderr.
pub fn run(config: &TrainConfig) -> Result<(), String> {
    std::fs::create_dir_all(&config.out).map_err(|e| format!("{}: {e}", config.out.display()))?;
    let started = Instant::now();
    let DataSet { mut train, held_out, games, repeats } = load(&config.data)?;
    if train.is_empty() {
        return Err("no training positions in the data".into());
    }
    eprintln!(
        "{} positions to train on, {} held out, from {games} games ({repeats} repeated games left out; {:.1} s)",
        train.len(),
        held_out.len(),
        started.elapsed().as_secs_f64()
    );
    let checkpoint = config.out.join("checkpoint.bin");
    let mut trainer = if config.resume {
        let bytes = std::fs::read(&checkpoint).map_err(|e| format!("{}: {e}", checkpoint.display()))?;
        let trainer = Trainer::from_bytes(&bytes)?;
        eprintln!("resuming after epoch {} (scale {:.1})", trainer.epoch, trainer.scale);
        trainer.replay_shuffles(&mut train, config);
        trainer
    } else if let Some(path) = &config.init {
        let net = Network::load(path).map_err(|e| e.to_string())?;
        let scale = config.scale.unwrap_or(net.scale as f32);
        let mut floats = FloatNet { one_output: config.one_output, ..FloatNet::from_network(&net) };
        floats.grow_king_buckets(config.king_buckets.unwrap_or(floats.king_buckets))?;
        let widened = floats.widen(config.seed);
        let trainer = Trainer::from_net(floats, scale);
        let held = mean_loss(&trainer.net, &held_out, scale, config.wdl, config.threads);
        eprintln!(
            "starting from {} (scale {scale:.1}, {widened} new hidden neurons, {} king buckets): held-out loss {held:.6}",
            path.display(),
            trainer.net.king_buckets
        );
        trainer
    } else {
        let scale = config.scale.unwrap_or_else(|| fit_scale(&train));
        eprintln!("scale {scale:.1} cp per output unit (sigmoid(score / scale) fits the results)");
        let mut net = FloatNet::random(config.seed);
        net.grow_king_buckets(config.king_buckets.unwrap_or(1))?;
        Trainer::from_net(net, scale)
    };
    trainer.net.one_output = config.one_output;
    // A resumed run keeps the best net so far unless it does better.
    let best_loss = config.out.join("best.loss");
    let recorded = || std::fs::read_to_string(&best_loss).ok()?.trim().parse::<f64>().ok();
    let mut best = if config.resume { recorded().unwrap_or(f64::INFINITY) } else { f64::INFINITY };
    while trainer.epoch < config.epochs {
        let (done, epochs) = (trainer.epoch as f32, config.epochs.max(1) as f32);
        let schedule = |within: f32| learning_rate(config.lr, (done + within) / epochs);
        let lr = (schedule(0.0), schedule(1.0));
        let start = Instant::now();
        let loss = trainer.epoch(&mut train, config, schedule);
        let rate = train.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
        let held = mean_loss(
            &trainer.net.for_loss(config.qat),
            &held_out,
            trainer.scale,
            config.wdl,
            config.threads,
        );
        eprintln!(
            "epoch {}: loss {loss:.6}, held-out loss {held:.6}, lr {:.6} to {:.6}, {rate:.0} positions/s",
            trainer.epoch, lr.0, lr.1
        );
        write(&checkpoint, &trainer.to_bytes())?;
        let net = trainer.net.quantise(trainer.scale).to_bytes();
        write(&config.out.join(format!("epoch-{}.nnue", trainer.epoch)), &net)?;
        if held < best {
            best = held;
            write(&config.out.join("best.nnue"), &net)?;
            write(&best_loss, format!("{held}\n").as_bytes())?;
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file, so an interrupt never leaves half a file.
fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let temporary = path.with_extension("part");
    std::fs::write(&temporary, bytes)
        .and_then(|_| std::fs::rename(&temporary, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games_fixture.bin")
    }

    fn position(fen: &str) -> Chess {
        let fen: shakmaty::fen::Fen = fen.parse().unwrap();
        fen.into_position(shakmaty::CastlingMode::Standard).unwrap()
    }

    fn config(threads: usize) -> TrainConfig {
        TrainConfig {
            data: vec![fixture()],
            out: PathBuf::new(),
            epochs: 4,
            lr: 0.003,
            batch: 256,
            wdl: 0.25,
            threads,
            seed: 3,
            resume: false,
            scale: None,
            init: None,
            one_output: false,
            king_buckets: None,
            warmup: 0,
            qat: false,
        }
    }

    #[test]
    fn the_avx2_gradient_equals_the_portable_one_to_rounding() {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::avx2_fma() {
            let fens = [
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
                "4k3/pp6/8/3n4/8/8/1P3Q2/4K2R b - - 3 40",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            ];
            let samples: Vec<Sample> = fens
                .iter()
                .zip([-150, 75, 30])
                .map(|(f, score)| Sample::new(&position(f), score, 0.5))
                .collect();
            let net = FloatNet::random(9);
            let (mut simd, mut portable) = (FloatNet::zeros(1), FloatNet::zeros(1));
            // SAFETY: `simd::avx2_fma` is true only where the CPU has AVX2 and FMA.
            let simd_loss = unsafe { batch_gradient_avx2(&net, &samples, 117.0, 0.25, &mut simd) };
            let portable_loss = batch_gradient_body(&net, &samples, 117.0, 0.25, &mut portable);
            // Fused multiply-adds round once where the portable path rounds twice.
            assert!((simd_loss - portable_loss).abs() <= 1e-6 * portable_loss.abs().max(1e-3));
            let close = |a: &[f32], b: &[f32]| {
                a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-4 * x.abs().max(1e-3))
            };
            assert!(close(&simd.w1, &portable.w1) && close(&simd.b1, &portable.b1));
            assert!(close(&simd.w2, &portable.w2) && close(&simd.b2, &portable.b2));
        }
    }

    #[test]
    fn samples_keep_the_board_the_side_and_the_target() {
        let pos = position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
        let sample = Sample::new(&pos, -150, 1.0);
        let pieces: Vec<(Piece, Square)> = sample.pieces().collect();
        let board: Vec<(Piece, Square)> = pos.board().iter().map(|(sq, p)| (p, sq)).collect();
        assert_eq!(pieces, board);
        assert_eq!(sample.turn(), Color::Black);
        // Black to move, White won, White's score -150: the target is Black's view.
        let target = sample.target(150.0, 0.5);
        assert!((target - (0.5 * 0.0 + 0.5 * sigmoid(1.0))).abs() < 1e-6, "{target}");
    }

    #[test]
    fn a_mirrored_sample_is_the_position_with_its_files_swapped() {
        let pos = position("4k3/pp6/8/3n4/8/8/1P3Q2/4K2R b - - 3 40");
        let mirror = position("3k4/6pp/8/4n3/8/8/2Q3P1/R2K4 b - - 3 40");
        let sample = Sample::new(&pos, 75, 0.5);
        assert_eq!(sample.mirrored(), Sample::new(&mirror, 75, 0.5));
        assert_eq!(sample.mirrored().mirrored(), sample);
    }

    #[test]
    fn training_lowers_the_loss_and_the_quantised_net_agrees_with_the_float_one() {
        let config = config(2);
        let DataSet { mut train, held_out, games, repeats } = load(&config.data).unwrap();
        assert_eq!((games, repeats), (40, 0));
        assert!(train.len() > 1000 && !held_out.is_empty());
        let scale = fit_scale(&train);
        assert!((50.0..600.0).contains(&scale), "{scale}");
        let mut trainer = Trainer::new(config.seed, scale);
        let before = mean_loss(&trainer.net, &train, scale, config.wdl, 2);
        let mut losses = Vec::new();
        for _ in 0..config.epochs {
            losses.push(trainer.epoch(&mut train, &config, |_| config.lr));
        }
        let after = mean_loss(&trainer.net, &train, scale, config.wdl, 2);
        assert!(after < before * 0.7, "{before} -> {after} ({losses:?})");
        assert!(losses.windows(2).all(|w| w[1] < w[0]), "{losses:?}");
        // The integer network follows the float one within a few centipawns.
        let net = trainer.net.quantise(scale);
        let bytes = std::fs::read(fixture()).unwrap();
        let mut errors = Vec::new();
        games::for_each_game(&bytes, |game| {
            let mut pos = game.start.clone();
            for &(mv, score) in &game.plies {
                let float = trainer.net.output(&Sample::new(&pos, score, 0.5)) * scale;
                let bucket = output_bucket(pos.board().occupied().count());
                let quantised =
                    net.evaluate(&crate::eval::Accumulator::refresh(&net, &pos), pos.turn(), bucket);
                errors.push((float - quantised as f32).abs());
                pos.play_unchecked(mv);
            }
        })
        .unwrap();
        let mean = errors.iter().sum::<f32>() / errors.len() as f32;
        let worst = errors.iter().copied().fold(0.0, f32::max);
        // (Rounding the output weights to 64ths moves a young net's small outputs by a few cp,
        // and a rare one by about ten.)
        assert!(mean < 2.5 && worst < 15.0, "mean {mean} cp, worst {worst} cp");
    }

    #[test]
    fn one_output_trains_a_layer_for_every_piece_count_and_writes_a_version_one_net() {
        let config = TrainConfig { one_output: true, ..config(2) };
        let DataSet { mut train, .. } = load(&config.data).unwrap();
        let mut trainer = Trainer::new(config.seed, 150.0);
        trainer.net.one_output = true;
        let before = mean_loss(&trainer.net, &train, 150.0, config.wdl, 2);
        trainer.epoch(&mut train, &config, |_| config.lr);
        assert!(mean_loss(&trainer.net, &train, 150.0, config.wdl, 2) < before);
        let net = trainer.net.quantise(150.0);
        assert!(net.output_weights.iter().all(|w| *w == net.output_weights[0]));
        assert!(net.output_bias.iter().all(|&b| b == net.output_bias[0]));
        let bytes = net.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 1, "format version 1");
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        // The float net's output goes through the first layer whatever the piece count.
        let sample = train[0];
        let first_only = FloatNet {
            one_output: false,
            b2: vec![trainer.net.b2[0]; OUTPUT_BUCKETS],
            ..trainer.net.clone()
        };
        let w2 = first_only.w2[..2 * HIDDEN].repeat(OUTPUT_BUCKETS);
        let first_only = FloatNet { w2, ..first_only };
        assert_eq!(trainer.net.output(&sample), first_only.output(&sample));
    }

    #[test]
    fn a_run_is_the_same_for_a_seed_and_a_checkpoint_resumes_it() {
        let config = config(2);
        let DataSet { train, .. } = load(&config.data).unwrap();
        let run = |epochs: usize| {
            let mut trainer = Trainer::new(7, 150.0);
            let mut samples = train.clone();
            for _ in 0..epochs {
                trainer.epoch(&mut samples, &config, |_| 0.001);
            }
            (trainer, samples)
        };
        let (two, _) = run(2);
        assert_eq!(two, run(2).0, "deterministic");
        let (one, _) = run(1);
        let mut resumed = Trainer::from_bytes(&one.to_bytes()).unwrap();
        assert_eq!(resumed, one);
        // A resumed run reloads the samples in file order and replays the shuffles done.
        let mut samples = train.clone();
        resumed.replay_shuffles(&mut samples, &config);
        resumed.epoch(&mut samples, &config, |_| 0.001);
        assert_eq!(resumed, two, "a checkpoint resumes where it stopped");
        assert!(Trainer::from_bytes(&one.to_bytes()[..100]).is_err());
    }

    #[test]
    fn a_resumed_run_replaces_the_best_net_only_with_a_better_one() {
        let out = std::env::temp_dir().join(format!("principia-train-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let config = TrainConfig { out: out.clone(), epochs: 1, threads: 1, ..config(1) };
        run(&config).unwrap();
        let first = std::fs::read(out.join("best.nnue")).unwrap();
        let loss: f64 = std::fs::read_to_string(out.join("best.loss")).unwrap().trim().parse().unwrap();
        assert!(loss > 0.0 && loss.is_finite(), "{loss}");
        // A recorded loss no epoch can beat keeps the first net as the best.
        std::fs::write(out.join("best.loss"), "0\n").unwrap();
        run(&TrainConfig { epochs: 2, resume: true, ..config.clone() }).unwrap();
        assert!(out.join("epoch-2.nnue").exists());
        assert_eq!(std::fs::read(out.join("best.nnue")).unwrap(), first);
        // Without a recorded loss, the resumed run's epoch is the best it knows.
        std::fs::remove_file(out.join("best.loss")).unwrap();
        run(&TrainConfig { epochs: 3, resume: true, ..config }).unwrap();
        assert_eq!(
            std::fs::read(out.join("best.nnue")).unwrap(),
            std::fs::read(out.join("epoch-3.nnue")).unwrap()
        );
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_game_given_twice_is_learnt_once() {
        let once = load(&[fixture()]).unwrap();
        let twice = load(&[fixture(), fixture()]).unwrap();
        assert_eq!((twice.games, twice.repeats), (40, 40));
        assert_eq!((twice.train, twice.held_out), (once.train, once.held_out));
    }

    #[test]
    fn a_net_read_back_as_floats_quantises_to_itself() {
        let net = Network::embedded();
        let floats = FloatNet::from_network(&net);
        assert_eq!(floats.quantise(net.scale as f32), net);
        // The float net scores a position as the integer one does, within rounding.
        let pos = position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let float = floats.output(&Sample::new(&pos, 0, 0.5)) * net.scale as f32;
        let integer = net.evaluate_position(&pos) as f32;
        assert!((float - integer).abs() < 2.0, "float {float} cp, integer {integer} cp");
    }

    #[test]
    fn widening_a_narrower_net_keeps_its_evaluation() {
        let width = HIDDEN / 2;
        let narrow = Network::from_bytes(&Network::embedded().to_bytes_of_width(width)).unwrap();
        let mut floats = FloatNet::from_network(&narrow);
        let before = floats.clone();
        assert_eq!(floats.widen(7), HIDDEN - width, "every missing neuron, no other");
        assert_ne!(floats.w1, before.w1);
        assert_eq!(floats.widen(8), 0, "a widened net has no empty neuron left");
        let wide = floats.quantise(narrow.scale as f32);
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 b - - 0 41",
        ] {
            let pos = position(fen);
            let sample = Sample::new(&pos, 0, 0.5);
            assert_eq!(floats.output(&sample), before.output(&sample), "{fen}");
            assert_eq!(wide.evaluate_position(&pos), narrow.evaluate_position(&pos), "{fen}");
        }
    }

    /// Positions along a few random games from the start.
    fn random_positions(seed: u64) -> Vec<Chess> {
        let mut rng = Rng::new(seed);
        let mut positions = Vec::new();
        for _ in 0..8 {
            let mut pos = Chess::default();
            for _ in 0..100 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
                positions.push(pos.clone());
            }
        }
        positions
    }

    #[test]
    fn a_net_grown_to_king_buckets_evaluates_as_before_and_training_tells_them_apart() {
        let net = Network::embedded();
        let positions = random_positions(21);
        for buckets in [2, KING_BUCKETS] {
            let mut floats = FloatNet::from_network(&net);
            let before = floats.clone();
            floats.grow_king_buckets(buckets).unwrap();
            let grown = floats.quantise(net.scale as f32);
            assert_eq!(grown.king_buckets, buckets);
            assert_eq!(Network::from_bytes(&grown.to_bytes()).unwrap(), grown, "its file round-trips");
            for pos in &positions {
                let sample = Sample::new(pos, 0, 0.5);
                assert_eq!(floats.output(&sample), before.output(&sample));
                assert_eq!(grown.evaluate_position(pos), net.evaluate_position(pos));
            }
            // Trained, the buckets part ways; the checkpoint keeps them.
            let config = config(1);
            let mut train = load(&config.data).unwrap().train;
            let mut trainer = Trainer::from_net(floats, 117.0);
            trainer.epoch(&mut train, &config, |_| config.lr);
            let bucket = INPUTS * HIDDEN;
            assert_ne!(trainer.net.w1[..bucket], trainer.net.w1[bucket..2 * bucket]);
            assert_eq!(Trainer::from_bytes(&trainer.to_bytes()).unwrap(), trainer);
        }
        let mut four = FloatNet::from_network(&net);
        four.grow_king_buckets(KING_BUCKETS).unwrap();
        assert!(four.clone().grow_king_buckets(2).is_err(), "no fewer buckets");
        assert!(FloatNet::from_network(&net).grow_king_buckets(3).is_err(), "1, 2 or 4 only");
    }

    #[test]
    fn each_batch_learns_at_its_own_place_in_the_schedule() {
        let config = config(1);
        let mut train = load(&config.data).unwrap().train;
        let places = std::cell::RefCell::new(Vec::new());
        Trainer::new(config.seed, 117.0).epoch(&mut train, &config, |within| {
            places.borrow_mut().push(within);
            config.lr
        });
        let places = places.into_inner();
        let batches = train.len().div_ceil(config.batch);
        assert_eq!(places.len(), batches);
        assert_eq!(places[0], 0.0);
        assert!(places.windows(2).all(|w| w[0] < w[1]), "{places:?}");
        assert!((places[batches - 1] - (batches - 1) as f32 / batches as f32).abs() < 1e-6);
    }

    #[test]
    fn the_held_out_games_do_not_depend_on_the_files_before_them() {
        // A file of one game in front shifts every game's place, not its being held out.
        let bytes = std::fs::read(fixture()).unwrap();
        let mut first = None;
        games::for_each_game(&bytes, |game| {
            first.get_or_insert(game);
        })
        .unwrap();
        let dir = std::env::temp_dir().join(format!("principia-held-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let prefix = dir.join("one-game.bin");
        std::fs::write(&prefix, first.unwrap().encode()).unwrap();
        let alone = load(&[fixture()]).unwrap();
        let both = load(&[prefix, fixture()]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(!alone.held_out.is_empty() && alone.held_out.len() * 8 < alone.train.len());
        assert!(both.held_out.ends_with(&alone.held_out));
        assert!(both.train.ends_with(&alone.train));
    }

    #[test]
    fn rounded_weights_are_those_the_quantised_net_stands_for_and_training_on_them_lowers_its_loss() {
        let config = TrainConfig { qat: true, ..config(2) };
        let DataSet { mut train, .. } = load(&config.data).unwrap();
        let mut trainer = Trainer::new(config.seed, 150.0);
        let rounded = trainer.net.rounded();
        assert_eq!(FloatNet::from_network(&trainer.net.quantise(150.0)), rounded);
        assert_eq!(rounded.rounded(), rounded);
        let before = mean_loss(&rounded, &train, 150.0, config.wdl, 2);
        trainer.epoch(&mut train, &config, |_| config.lr);
        assert!(mean_loss(&trainer.net.rounded(), &train, 150.0, config.wdl, 2) < before);
    }

    #[test]
    fn a_warm_up_ramps_the_rate_over_its_steps_and_then_leaves_it() {
        assert_eq!(warmup_factor(1, 0), 1.0);
        assert_eq!(warmup_factor(1, 4), 0.25);
        assert_eq!(warmup_factor(4, 4), 1.0);
        assert_eq!(warmup_factor(9, 4), 1.0);
        // The first steps of a warmed-up run move the net less than an unwarmed run's do.
        let train = load(&[fixture()]).unwrap().train;
        let start = Trainer::new(5, 117.0);
        let moved = |warmup| {
            let mut trainer = start.clone();
            let config = TrainConfig { warmup, ..config(1) };
            trainer.epoch(&mut train.clone(), &config, |_| config.lr);
            trainer.net.params().zip(start.net.params()).map(|(a, b)| (a - b).abs()).sum::<f32>()
        };
        assert!(moved(1_000_000) < moved(0) / 10.0);
    }

    #[test]
    fn the_learning_rate_anneals_from_the_peak_to_a_hundredth() {
        assert_eq!(learning_rate(0.01, 0.0), 0.01);
        assert!((learning_rate(0.01, 1.0) - 0.0001).abs() < 1e-9);
        assert!(learning_rate(0.01, 0.3) > learning_rate(0.01, 0.4));
        assert!((learning_rate(0.01, 0.5) - 0.00505).abs() < 1e-7, "halfway: half of peak and floor");
    }
}
