//! The network's weights and their file format.
//!
//! A net file (little-endian throughout):
//!
//! | bytes | field |
//! |---|---|
//! | 4 | magic `PRNN` |
//! | 2 | format version, 1 |
//! | 2 | inputs per side (768) |
//! | 2 | hidden neurons per side |
//! | 2 | `scale`: centipawns per unit of output |
//! | 2 | `QA` |
//! | 2 | `QB` |
//! | `2 * 768 * H` | hidden weights, i16, input by input (each input's `H` weights together) |
//! | `2 * H` | hidden biases, i16 |
//! | `2 * 2H` | output weights, i16: the side to move's `H`, then the other side's |
//! | 4 | output bias, i32, scaled by `QA * QB` |
//! | 4 | FNV-1a hash of every byte before it |

use super::accumulator::Accumulator;
use super::output::{MAX_OUTPUT_WEIGHT, screlu_dot};
use super::{HIDDEN, INPUTS, QA, QB};
use shakmaty::{Chess, Color, Position};

/// The four bytes that open a net file.
pub const MAGIC: [u8; 4] = *b"PRNN";
/// Length of the header before the weights.
pub const HEADER_LEN: usize = 16;
/// The format version this build reads and writes.
const VERSION: u16 = 1;

/// The network Principia plays with unless `EvalFile` names another.
static DEFAULT_NET: &[u8] = include_bytes!("default.nnue");

/// A network's integer weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// Hidden weights, one column of `HIDDEN` per input.
    pub feature_weights: Vec<[i16; HIDDEN]>,
    /// Hidden biases.
    pub feature_bias: [i16; HIDDEN],
    /// Output weights: the side to move's half, then the other side's.
    pub output_weights: [i16; 2 * HIDDEN],
    /// Output bias, in units of `QA * QB`.
    pub output_bias: i32,
    /// Centipawns per unit of output.
    pub scale: i32,
}

impl Network {
    /// The network built into the binary.
    pub fn embedded() -> Network {
        Network::from_bytes(DEFAULT_NET).expect("the embedded network is valid")
    }

    /// The evaluation of the position whose accumulator is `acc`, in centipawns from the
    /// side to move's point of view.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side_to_move: Color) -> i32 {
        let (ours, theirs) = self.output_weights.split_at(HIDDEN);
        let sum = i64::from(screlu_dot(acc.side(side_to_move), ours))
            + i64::from(screlu_dot(acc.side(!side_to_move), theirs));
        let output = sum / i64::from(QA) + i64::from(self.output_bias);
        (output * i64::from(self.scale) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `pos` computed from scratch, or the mop-up score against a bare king (for tools
    /// and tests; the search keeps accumulators).
    pub fn evaluate_position(&self, pos: &Chess) -> i32 {
        super::mop_up_score(pos)
            .unwrap_or_else(|| self.evaluate(&Accumulator::refresh(self, pos), pos.turn()))
    }

    /// Reads a net file, or says why it is not one this build can use.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        let expected = HEADER_LEN + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 8;
        if bytes.len() < HEADER_LEN || bytes[..4] != MAGIC {
            return Err("not a Principia net file (bad magic)".into());
        }
        let field = |i: usize| u16::from_le_bytes([bytes[4 + 2 * i], bytes[5 + 2 * i]]);
        let (version, inputs, hidden, scale, qa, qb) =
            (field(0), field(1), field(2), field(3), field(4), field(5));
        if version != VERSION {
            return Err(format!("net format version {version}, this build reads {VERSION}"));
        }
        if (usize::from(inputs), usize::from(hidden), i32::from(qa), i32::from(qb))
            != (INPUTS, HIDDEN, QA, QB)
        {
            return Err(format!(
                "net of shape {inputs}x{hidden} (QA {qa}, QB {qb}); this build uses {INPUTS}x{HIDDEN} (QA {QA}, QB {QB})"
            ));
        }
        if bytes.len() != expected {
            return Err(format!("net file of {} bytes, {expected} expected (truncated?)", bytes.len()));
        }
        let body = &bytes[..expected - 4];
        let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
        if fnv1a(body) != stored {
            return Err("net file checksum mismatch (corrupt)".into());
        }
        let mut words = bytes[HEADER_LEN..].chunks_exact(2).map(|w| i16::from_le_bytes([w[0], w[1]]));
        let mut take =
            |out: &mut [i16]| out.iter_mut().for_each(|v| *v = words.next().expect("length checked"));
        let mut feature_weights = vec![[0; HIDDEN]; INPUTS];
        feature_weights.iter_mut().for_each(|column| take(column));
        let mut feature_bias = [0; HIDDEN];
        take(&mut feature_bias);
        let mut output_weights = [0; 2 * HIDDEN];
        take(&mut output_weights);
        if output_weights.iter().any(|w| w.abs() > MAX_OUTPUT_WEIGHT) {
            return Err(format!("output weights beyond +-{MAX_OUTPUT_WEIGHT}"));
        }
        let at = expected - 8;
        let output_bias = i32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        Ok(Network { feature_weights, feature_bias, output_weights, output_bias, scale: i32::from(scale) })
    }

    /// The net file of this network.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + 2 * (INPUTS + 3) * HIDDEN + 8);
        out.extend_from_slice(&MAGIC);
        let scale = u16::try_from(self.scale).expect("scale fits 16 bits");
        for field in [VERSION, INPUTS as u16, HIDDEN as u16, scale, QA as u16, QB as u16] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        let words =
            self.feature_weights.iter().flatten().chain(&self.feature_bias).chain(&self.output_weights);
        words.for_each(|w| out.extend_from_slice(&w.to_le_bytes()));
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        let hash = fnv1a(&out);
        out.extend_from_slice(&hash.to_le_bytes());
        out
    }

    /// Reads the net file at `path`, or says why it cannot be used.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The 32-bit FNV-1a hash of `bytes`.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}
