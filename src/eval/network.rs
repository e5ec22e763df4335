//! The network's weights and their file format.
//!
//! A net file (little-endian throughout):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `PRNN` |
//! | 2 | format version: 2, or 1 for a net with one output layer for every bucket |
//! | 2 | inputs per side: 768 times the king buckets (1, 2 or 4) |
//! | 2 | hidden neurons per side |
//! | 2 | `scale`: centipawns per unit of output |
//! | 2 | `QA` |
//! | 2 | `QB` |
//! | `2 * I * H` | hidden weights, i16, input by input (each input's `H` weights together) |
//! | `2 * H` | hidden biases, i16 |
//! | `8 * 2 * 2H` | output weights, i16, bucket by bucket: the side to move's `H`, then the other side's |
//! | `8 * 4` | output biases, i32, scaled by `QA * QB`, bucket by bucket |
//! | 4 | FNV-1a hash of every byte before it |
//!
//! Version 1 has a single output layer (`2 * 2H` weights and one bias); it loads as the
//! same layer in every bucket, and a net whose buckets are all the same is written so.
//!
//! A net with fewer hidden neurons than this build's `HIDDEN` loads too: the missing neurons
//! get zero weights, so it evaluates exactly as it did at its own width (and `train --init`
//! widens it from there).

use super::accumulator::Accumulator;
use super::output_layer::{MAX_OUTPUT_WEIGHT, screlu_dot};
use super::{HIDDEN, INPUTS, KING_BUCKETS, OUTPUT_BUCKETS, QA, QB};
use crate::score::TB_WIN_BOUND;
use shakmaty::{Chess, Color};
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The four bytes that open a net file.
pub const MAGIC: [u8; 4] = *b"PRNN";
/// Length of the header before the weights.
pub const HEADER_LEN: usize = 16;
/// The format version of a net with an output layer for each bucket.
const VERSION: u16 = 2;
/// The format of a net with one output layer for every bucket (networks 1-9).
const VERSION_ONE_OUTPUT: u16 = 1;
/// Length of a net file with `kings` king buckets, `hidden` neurons per side and `buckets`
/// output layers: header, weights, biases and hash.
const fn file_len(kings: usize, hidden: usize, buckets: usize) -> usize {
    HEADER_LEN + 2 * (kings * INPUTS * hidden + hidden) + buckets * (2 * 2 * hidden + 4) + 4
}
/// Length of the largest net file this build reads.
const FILE_LEN: usize = file_len(KING_BUCKETS, HIDDEN, OUTPUT_BUCKETS);

/// Why bytes or a file are not a net this build can use.
#[derive(Debug)]
pub enum NetError {
    /// The file does not open with `PRNN`.
    BadMagic,
    /// A format version this build does not read.
    Version(u16),
    /// Another network shape or quantisation (or more hidden neurons than this build has).
    Shape {
        /// Inputs per side in the file.
        inputs: u16,
        /// Hidden neurons per side in the file.
        hidden: u16,
        /// `QA` in the file.
        qa: u16,
        /// `QB` in the file.
        qb: u16,
    },
    /// The right header but the wrong length (truncated, or bytes after the hash).
    Length {
        /// The file's length.
        len: usize,
        /// The length its header's version and shape call for.
        expected: usize,
    },
    /// The hash does not match the bytes before it.
    Checksum,
    /// Output weights beyond what the evaluation's integer sums allow.
    OutputWeights,
    /// A hidden neuron whose bias and 32 largest input weights could overflow its 16-bit sum.
    FeatureWeights(usize),
    /// The file cannot be read.
    Unreadable(std::io::Error),
    /// A directory, a device, a pipe: nothing a net file can be.
    NotAFile,
    /// Longer than any net of this build's shape.
    TooLarge,
}

/// The first hidden neuron whose accumulator could leave 16 bits: its bias and 32 pieces'
/// weights at their largest (a board has at most 32 pieces).
fn overflowing_neuron(feature_weights: &[[i16; HIDDEN]], feature_bias: &[i16; HIDDEN]) -> Option<usize> {
    let mut largest = [0u32; HIDDEN];
    for column in feature_weights {
        largest.iter_mut().zip(column).for_each(|(m, w)| *m = (*m).max(u32::from(w.unsigned_abs())));
    }
    let reach = |j: usize| u32::from(feature_bias[j].unsigned_abs()) + 32 * largest[j];
    (0..HIDDEN).find(|&j| reach(j) > i16::MAX as u32)
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::BadMagic => f.write_str("not a Principia net file (bad magic)"),
            NetError::Version(version) => {
                write!(f, "net format version {version}, this build reads {VERSION_ONE_OUTPUT} and {VERSION}")
            }
            NetError::Shape { inputs, hidden, qa, qb } => write!(
                f,
                "net of shape {inputs}x{hidden} (QA {qa}, QB {qb}); this build reads {INPUTS}, {} or {} inputs x1 to x{HIDDEN} (QA {QA}, QB {QB})",
                2 * INPUTS,
                KING_BUCKETS * INPUTS
            ),
            NetError::Length { len, expected } => {
                let why = if len < expected { "truncated?" } else { "bytes after the net" };
                write!(f, "net file of {len} bytes, {expected} expected ({why})")
            }
            NetError::Checksum => f.write_str("net file checksum mismatch (corrupt)"),
            NetError::OutputWeights => write!(f, "output weights beyond +-{MAX_OUTPUT_WEIGHT}"),
            NetError::FeatureWeights(neuron) => {
                write!(f, "hidden neuron {neuron}'s weights could overflow its 16-bit sum")
            }
            NetError::Unreadable(e) => write!(f, "cannot read the file: {e}"),
            NetError::NotAFile => f.write_str("not a regular file"),
            NetError::TooLarge => write!(f, "larger than the {FILE_LEN} bytes of a net file"),
        }
    }
}

impl std::error::Error for NetError {}

/// A net file that cannot be used: which file, and why.
#[derive(Debug)]
pub struct NetFileError {
    /// The file as given.
    pub path: PathBuf,
    /// What is wrong with it.
    pub error: NetError,
}

impl fmt::Display for NetFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.error)
    }
}

impl std::error::Error for NetFileError {}

/// The network Principia plays with unless `EvalFile` names another.
static DEFAULT_NET: &[u8] = include_bytes!("default.nnue");

/// The hidden weights, one column per input of each king bucket (those of buckets a net
/// lacks are zero), in an array whose length the compiler knows (an input's index then
/// needs no bounds check).
pub type Columns = Box<[[i16; HIDDEN]; KING_BUCKETS * INPUTS]>;

/// A table of zeros on the heap, `M` rows of `N` (the largest would not fit a thread's stack).
pub fn zeroed<const N: usize, const M: usize>() -> Box<[[i16; N]; M]> {
    vec![[0; N]; M].into_boxed_slice().try_into().expect("M rows")
}

/// A network's integer weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Hidden weights, one column of `HIDDEN` per input, king bucket by king bucket.
    pub feature_weights: Columns,
    /// King buckets in use: 1, 2 or 4 (see `king_bucket`).
    pub king_buckets: usize,
    /// Hidden biases.
    pub feature_bias: [i16; HIDDEN],
    /// Output weights of each bucket (see `output_bucket`): the side to move's half, then
    /// the other side's.
    pub output_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    /// Output bias of each bucket, in units of `QA * QB`.
    pub output_bias: [i32; OUTPUT_BUCKETS],
    /// Centipawns per unit of output.
    pub scale: i32,
}

impl Network {
    /// The network built into the binary.
    pub fn embedded() -> Network {
        Network::from_bytes(DEFAULT_NET).expect("the embedded network is valid")
    }

    /// The hidden weights of king bucket `bucket`, one column per input (see `feature_index`).
    #[inline(always)]
    pub fn bucket_columns(&self, bucket: usize) -> &[[i16; HIDDEN]; INPUTS] {
        let first = (bucket % KING_BUCKETS) * INPUTS;
        self.feature_weights[first..first + INPUTS].try_into().expect("a bucket's columns")
    }

    /// The evaluation of the position whose accumulator is `acc`, in centipawns from the
    /// side to move's point of view, through the output layer `bucket` (see `output_bucket`).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color, bucket: usize) -> i32 {
        let weights = &self.output_weights[bucket];
        let sum = i64::from(screlu_dot(acc.side(side_to_move), acc.side(!side_to_move), weights));
        let output = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        // Below the tablebase and mate scores whatever a loaded net's scale.
        let bound = i64::from(TB_WIN_BOUND - 1);
        (output * i64::from(self.scale) / i64::from(QA * QB)).clamp(-bound, bound) as i32
    }

    /// The evaluation of `pos` computed from scratch, or the mop-up score against a bare king (for tools
    /// and tests; the search keeps accumulators).
    pub fn evaluate_position(&self, pos: &Chess) -> i32 {
        let acc = Accumulator::refresh(self, pos);
        super::evaluate(self, pos, || &acc)
    }

    /// Reads a net file, or says why it is not one this build can use. A narrower net's
    /// missing neurons are zero (see the module's note).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_LEN || bytes[..4] != MAGIC {
            return Err(NetError::BadMagic);
        }
        let field = |i: usize| u16::from_le_bytes([bytes[4 + 2 * i], bytes[5 + 2 * i]]);
        let (version, inputs, hidden, scale, qa, qb) =
            (field(0), field(1), field(2), field(3), field(4), field(5));
        let buckets = match version {
            VERSION => OUTPUT_BUCKETS,
            VERSION_ONE_OUTPUT => 1,
            _ => return Err(NetError::Version(version)),
        };
        let width = usize::from(hidden);
        let kings = usize::from(inputs) / INPUTS;
        if usize::from(inputs) != kings * INPUTS
            || !matches!(kings, 1 | 2 | KING_BUCKETS)
            || (i32::from(qa), i32::from(qb)) != (QA, QB)
            || !(1..=HIDDEN).contains(&width)
        {
            return Err(NetError::Shape { inputs, hidden, qa, qb });
        }
        let expected = file_len(kings, width, buckets);
        if bytes.len() != expected {
            return Err(NetError::Length { len: bytes.len(), expected });
        }
        let body = &bytes[..expected - 4];
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        if fnv1a(body) != stored {
            return Err(NetError::Checksum);
        }
        let mut words = bytes[HEADER_LEN..].chunks_exact(2).map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut take =
            |out: &mut [i16]| out.iter_mut().for_each(|v| *v = words.next().expect("length checked"));
        let mut feature_weights: Columns = zeroed();
        feature_weights.iter_mut().take(kings * INPUTS).for_each(|column| take(&mut column[..width]));
        let mut feature_bias = [0; HIDDEN];
        take(&mut feature_bias[..width]);
        let mut output_weights = [[0; 2 * HIDDEN]; OUTPUT_BUCKETS];
        for bucket in &mut output_weights[..buckets] {
            let (ours, theirs) = bucket.split_at_mut(HIDDEN);
            take(&mut ours[..width]);
            take(&mut theirs[..width]);
        }
        if output_weights.iter().flatten().any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT.unsigned_abs()) {
            return Err(NetError::OutputWeights);
        }
        if let Some(neuron) = overflowing_neuron(&feature_weights[..kings * INPUTS], &feature_bias) {
            return Err(NetError::FeatureWeights(neuron));
        }
        let mut output_bias = [0; OUTPUT_BUCKETS];
        let biases = bytes[expected - 4 - 4 * buckets..expected - 4].chunks_exact(4);
        output_bias
            .iter_mut()
            .zip(biases)
            .for_each(|(b, w)| *b = i32::from_le_bytes(w.try_into().expect("4")));
        // A version 1 net's one output layer serves every bucket.
        for bucket in buckets..OUTPUT_BUCKETS {
            output_weights[bucket] = output_weights[0];
            output_bias[bucket] = output_bias[0];
        }
        let scale = i32::from(scale);
        Ok(Network { feature_weights, king_buckets: kings, feature_bias, output_weights, output_bias, scale })
    }

    /// The net file of this network: version 1 (one output layer) when every bucket's layer
    /// is the same, version 2 otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_bytes_of_width(HIDDEN)
    }

    /// The net file of this network's first `width` hidden neurons.
    pub(crate) fn to_bytes_of_width(&self, width: usize) -> Vec<u8> {
        let one = self.output_weights.iter().all(|w| *w == self.output_weights[0])
            && self.output_bias.iter().all(|&b| b == self.output_bias[0]);
        let (version, buckets) = if one { (VERSION_ONE_OUTPUT, 1) } else { (VERSION, OUTPUT_BUCKETS) };
        let mut out = Vec::with_capacity(file_len(self.king_buckets, width, buckets));
        out.extend_from_slice(&MAGIC);
        let scale = u16::try_from(self.scale).expect("scale fits 16 bits");
        let inputs = self.king_buckets * INPUTS;
        for field in [version, inputs as u16, width as u16, scale, QA as u16, QB as u16] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        let columns = self.feature_weights[..inputs].iter().flat_map(|column| &column[..width]);
        let outputs = self.output_weights[..buckets]
            .iter()
            .flat_map(|w| w[..width].iter().chain(&w[HIDDEN..][..width]));
        columns
            .chain(&self.feature_bias[..width])
            .chain(outputs)
            .for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        self.output_bias[..buckets].iter().for_each(|b| out.extend_from_slice(&b.to_le_bytes()));
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Reads the net file at `path`, or says why it cannot be used. Only a regular file is
    /// opened (a pipe would block, a device never end), and no more of it is read than a
    /// net file can hold.
    pub fn load(path: &Path) -> Result<Network, NetFileError> {
        let failed = |error| NetFileError { path: path.to_path_buf(), error };
        let metadata = std::fs::metadata(path).map_err(|e| failed(NetError::Unreadable(e)))?;
        if !metadata.is_file() {
            return Err(failed(NetError::NotAFile));
        }
        let mut bytes = Vec::with_capacity(FILE_LEN + 1);
        std::fs::File::open(path)
            .and_then(|file| file.take(FILE_LEN as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| failed(NetError::Unreadable(e)))?;
        if bytes.len() > FILE_LEN {
            // A net of another shape says so in its header; any other long file is too large.
            return Err(failed(match Network::from_bytes(&bytes) {
                Err(e @ (NetError::BadMagic | NetError::Version(_) | NetError::Shape { .. })) => e,
                _ => NetError::TooLarge,
            }));
        }
        Network::from_bytes(&bytes).map_err(failed)
    }
}

/// The 32-bit FNV-1a hash of `bytes`.
pub(crate) fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}
