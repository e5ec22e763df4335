//! `tune`: Texel tuning of the evaluation weights on `datagen` positions.
//!
//! The evaluation is linear in its weights (see `eval::params`), so each position is stored
//! once as its term counts, phase and scale; every epoch is one full-batch gradient step
//! (Adam) on the mean squared error between the game result and `sigmoid(K · eval)`.
//! K is fitted first, with the starting weights, and then kept.

use super::{datagen, games};
use crate::eval::{self, WEIGHTS, endgame::PHASE_MAX, endgame::SCALE_NORMAL, params};
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position, fen::Fen};
use std::fmt::Write as _;
use std::path::Path;

/// One position as the tuner sees it.
struct Entry {
    /// Range of its non-zero term counts in `Tuner::terms`.
    start: usize,
    end: usize,
    /// Phase as a fraction of the full board (1 = middlegame).
    phase: f64,
    /// Scale as a fraction (1 = normal).
    scale: f64,
    /// Game result from White's side: 1, 0.5 or 0.
    result: f64,
}

/// The data set and the weights being tuned.
pub struct Tuner {
    entries: Vec<Entry>,
    /// Positions of every tenth game, held out to decide when to stop.
    validation: Vec<Entry>,
    terms: Vec<(u16, i16)>,
    /// Middlegame and endgame weights, in `params` order.
    weights: Vec<[f64; 2]>,
    /// Scaling of the evaluation inside the sigmoid.
    pub k: f64,
    adam_m: Vec<[f64; 2]>,
    adam_v: Vec<[f64; 2]>,
    step: i32,
    /// The starting weights, which the L2 penalty pulls toward.
    prior: Vec<[f64; 2]>,
    /// Strength of the L2 penalty: loss added per (100 cp)² of distance from the prior.
    pub l2: f64,
    /// Lines skipped because they could not be read, or because an untuned rule decides them.
    pub skipped: usize,
}

fn parse_line(line: &str) -> Option<(Chess, f64)> {
    let (fen, result) = line.split_once('|')?;
    let result: f64 = result.trim().parse().ok()?;
    let pos = fen.trim().parse::<Fen>().ok()?.into_position(CastlingMode::Standard).ok()?;
    Some((pos, result))
}

impl Tuner {
    /// A tuner over the `FEN | result` lines of `text`, starting from the current weights.
    pub fn from_text(text: &str) -> Self {
        let mut tuner = Tuner {
            entries: Vec::new(),
            validation: Vec::new(),
            terms: Vec::new(),
            weights: WEIGHTS.iter().map(|w| [f64::from(w.mg), f64::from(w.eg)]).collect(),
            k: 1.0,
            adam_m: vec![[0.0; 2]; params::COUNT],
            adam_v: vec![[0.0; 2]; params::COUNT],
            step: 0,
            prior: WEIGHTS.iter().map(|w| [f64::from(w.mg), f64::from(w.eg)]).collect(),
            l2: 0.0,
            skipped: 0,
        };
        let mut game = 0;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if line.starts_with('#') {
                game += 1;
                continue;
            }
            match parse_line(line) {
                Some((pos, result)) => tuner.add(&pos, result, game % 10 == 9),
                None => tuner.skipped += 1,
            }
        }
        tuner
    }

    fn add(&mut self, pos: &Chess, result: f64, held_out: bool) {
        let trace = eval::trace(pos);
        if trace.mop_up {
            self.skipped += 1;
            return;
        }
        let start = self.terms.len();
        for (i, &c) in trace.counts.iter().enumerate().filter(|(_, c)| **c != 0) {
            self.terms.push((i as u16, c as i16));
        }
        let entry = Entry {
            start,
            end: self.terms.len(),
            phase: f64::from(trace.phase) / f64::from(PHASE_MAX),
            scale: f64::from(trace.scale) / f64::from(SCALE_NORMAL),
            result,
        };
        if held_out { self.validation.push(entry) } else { self.entries.push(entry) }
    }

    /// Number of positions tuned on (the held-out ones not counted).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Number of held-out positions.
    pub fn held_out(&self) -> usize {
        self.validation.len()
    }

    /// Whether the data set is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn eval(&self, e: &Entry) -> f64 {
        let mut sum = 0.0;
        for &(i, c) in &self.terms[e.start..e.end] {
            let w = self.weights[i as usize];
            sum += f64::from(c) * (w[0] * e.phase + w[1] * (1.0 - e.phase));
        }
        sum * e.scale
    }

    fn sigmoid(&self, eval: f64) -> f64 {
        1.0 / (1.0 + (-self.k * eval / 400.0).exp())
    }

    fn mean_error(&self, entries: &[Entry]) -> f64 {
        let total: f64 = entries.iter().map(|e| (e.result - self.sigmoid(self.eval(e))).powi(2)).sum();
        total / entries.len().max(1) as f64
    }

    /// Mean squared error of the predicted results on the positions tuned on.
    pub fn loss(&self) -> f64 {
        self.mean_error(&self.entries)
    }

    /// The same error on the held-out games' positions.
    pub fn validation_loss(&self) -> f64 {
        self.mean_error(&self.validation)
    }

    /// Chooses K to minimise the loss with the current weights (golden-section search).
    pub fn fit_k(&mut self) -> f64 {
        let (mut lo, mut hi) = (0.1f64, 10.0f64);
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..40 {
            let a = hi - ratio * (hi - lo);
            let b = lo + ratio * (hi - lo);
            self.k = a;
            let la = self.loss();
            self.k = b;
            let lb = self.loss();
            if la < lb { hi = b } else { lo = a }
        }
        self.k = (lo + hi) / 2.0;
        self.k
    }

    /// Gradient of the summed squared error over `entries`, and that sum.
    fn gradient(&self, entries: &[Entry]) -> (Vec<[f64; 2]>, f64) {
        let mut grad = vec![[0.0f64; 2]; params::COUNT];
        let mut loss = 0.0;
        for e in entries {
            let s = self.sigmoid(self.eval(e));
            loss += (e.result - s).powi(2);
            let g = 2.0 * (s - e.result) * s * (1.0 - s) * self.k / 400.0 * e.scale;
            for &(i, c) in &self.terms[e.start..e.end] {
                let gc = g * f64::from(c);
                grad[i as usize][0] += gc * e.phase;
                grad[i as usize][1] += gc * (1.0 - e.phase);
            }
        }
        (grad, loss)
    }

    /// One full-batch Adam step with learning rate `lr`, the gradient computed on `threads`
    /// threads; returns the loss before the step.
    pub fn epoch(&mut self, lr: f64, threads: usize) -> f64 {
        let chunk = self.entries.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<_> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                self.entries.chunks(chunk).map(|part| scope.spawn(|| self.gradient(part))).collect();
            handles.into_iter().map(|h| h.join().expect("gradient thread")).collect()
        });
        let mut grad = vec![[0.0f64; 2]; params::COUNT];
        let mut loss = 0.0;
        for (g, l) in parts {
            loss += l;
            for (total, part) in grad.iter_mut().zip(g) {
                total[0] += part[0];
                total[1] += part[1];
            }
        }
        let n = self.entries.len().max(1) as f64;
        self.step += 1;
        let (b1, b2) = (0.9f64, 0.999f64);
        let (c1, c2) = (1.0 - b1.powi(self.step), 1.0 - b2.powi(self.step));
        let moments = self.adam_m.iter_mut().zip(self.adam_v.iter_mut());
        for (((w, prior), (m, v)), g) in self.weights.iter_mut().zip(&self.prior).zip(moments).zip(&grad) {
            for h in [0, 1] {
                let g = g[h] / n + 2.0 * self.l2 * (w[h] - prior[h]) / 1e4;
                m[h] = b1 * m[h] + (1.0 - b1) * g;
                v[h] = b2 * v[h] + (1.0 - b2) * g * g;
                w[h] -= lr * (m[h] / c1) / ((v[h] / c2).sqrt() + 1e-8);
            }
        }
        loss / n
    }

    /// The weights as Rust source for `src/eval/weights.rs`, with `provenance` in its header.
    pub fn weights_source(&self, provenance: &str) -> String {
        let mut out = String::from(
            "//! Evaluation weights in the `params` layout, written by `principia tune`; do not edit by hand.\n//!\n",
        );
        for line in provenance.lines() {
            let _ = writeln!(out, "//! {line}");
        }
        out.push_str("\nuse super::Score as S;\nuse super::params::COUNT;\n\n");
        out.push_str("/// Middlegame/endgame value of every evaluation term.\n#[rustfmt::skip]\n");
        out.push_str("pub static WEIGHTS: [S; COUNT] = [\n");
        for group in params::GROUPS {
            let _ = writeln!(out, "    // {}", group.name);
            let per_line = if group.name == "pst" { 4 } else { 8 };
            let values: Vec<_> = self.weights[group.start..group.start + group.len]
                .iter()
                .map(|w| format!("S::new({}, {}),", w[0].round() as i32, w[1].round() as i32))
                .collect();
            for chunk in values.chunks(per_line) {
                let _ = writeln!(out, "    {}", chunk.join(" "));
            }
        }
        out.push_str("];\n");
        out
    }
}

/// What a `tune` run does.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Data files written by `datagen`.
    pub data: Vec<std::path::PathBuf>,
    /// Full-batch steps.
    pub epochs: usize,
    /// Adam learning rate, in centipawns per step.
    pub lr: f64,
    /// Where the weights source is written.
    pub out: std::path::PathBuf,
    /// Threads computing the gradient.
    pub threads: usize,
    /// L2 penalty toward the starting weights (loss per (100 cp)² of distance).
    pub l2: f64,
}

/// Loads the data, fits K, tunes and writes the weights, reporting the loss of every epoch on stderr.
pub fn run(config: &TuneConfig) -> Result<(), String> {
    let mut text = String::new();
    for path in &config.data {
        text.push_str(&read(path)?);
        text.push('\n');
    }
    let games = text.lines().filter(|l| l.starts_with("# game")).count();
    let mut tuner = Tuner::from_text(&text);
    drop(text);
    if tuner.is_empty() {
        return Err("no positions in the data".into());
    }
    eprintln!(
        "{} positions to tune on, {} held out (every tenth game), from {games} games ({} lines skipped)",
        tuner.len(),
        tuner.held_out(),
        tuner.skipped
    );
    tuner.l2 = config.l2;
    let k = tuner.fit_k();
    let (start_loss, start_held) = (tuner.loss(), tuner.validation_loss());
    eprintln!("K = {k:.4}, loss {start_loss:.6}, held-out loss {start_held:.6}");
    let mut best = (start_held, 0, tuner.weights.clone(), start_loss);
    for epoch in 1..=config.epochs {
        let loss = tuner.epoch(config.lr, config.threads);
        let held = tuner.validation_loss();
        eprintln!("epoch {epoch}: loss {loss:.6}, held-out loss {held:.6}");
        if held < best.0 {
            best = (held, epoch, tuner.weights.clone(), loss);
        }
    }
    let (held, epoch, weights, loss) = best;
    tuner.weights = weights;
    let provenance = format!(
        "Tuned on {} positions from {games} self-play games ({}), Adam (learning rate {}, L2 {}),\n\
         K = {k:.4}; the weights of epoch {epoch} of {}, where the loss on every tenth game's {} positions\n\
         (held out) was lowest: loss {start_loss:.6} -> {loss:.6}, held-out loss {start_held:.6} -> {held:.6}.",
        tuner.len(),
        config
            .data
            .iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy())
            .collect::<Vec<_>>()
            .join(", "),
        config.lr,
        config.l2,
        config.epochs,
        tuner.held_out(),
    );
    std::fs::write(&config.out, tuner.weights_source(&provenance))
        .map_err(|e| format!("{}: {e}", config.out.display()))?;
    eprintln!("weights written to {}", config.out.display());
    Ok(())
}

/// The `FEN | result` lines of a text file, or of the training positions of a game file.
fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !bytes.starts_with(&games::MAGIC) {
        return String::from_utf8(bytes).map_err(|e| format!("{}: {e}", path.display()));
    }
    let mut text = String::new();
    let mut number = 0;
    games::for_each_game(&bytes, |game| {
        let result = game.white_result();
        let mut pos = game.start.clone();
        for &(mv, score) in &game.plies {
            if datagen::trains(&pos, mv, score) {
                let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                let _ = writeln!(text, "{fen} | {result:.1}");
            }
            pos.play_unchecked(mv);
        }
        let _ = writeln!(text, "# game {number}");
        number += 1;
    })
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = include_str!("../../tests/data/tune_fixture.txt");

    #[test]
    fn tuning_reduces_the_loss_on_the_fixture() {
        let mut tuner = Tuner::from_text(FIXTURE);
        assert!(tuner.len() >= 500, "{} positions", tuner.len());
        tuner.fit_k();
        let before = tuner.loss();
        for _ in 0..30 {
            tuner.epoch(2.0, 2);
        }
        let after = tuner.loss();
        assert!(after < before, "loss {before} -> {after}");
    }

    #[test]
    fn tuner_evaluation_matches_the_engine() {
        for line in FIXTURE.lines().filter(|l| !l.starts_with('#')).take(200) {
            let tuner = Tuner::from_text(line);
            let (pos, _) = parse_line(line).unwrap();
            let engine = eval::breakdown(&pos).white;
            let ours = tuner.eval(&tuner.entries[0]);
            assert!((ours - f64::from(engine)).abs() <= 2.0, "{line}: {ours} vs {engine}");
        }
    }

    #[test]
    fn weights_source_lists_every_weight() {
        let tuner = Tuner::from_text("");
        let source = tuner.weights_source("test");
        assert_eq!(source.matches("S::new(").count(), params::COUNT);
    }
}
