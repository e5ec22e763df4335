//! `wdl-fit`: fits the win/draw/loss model of `wdl.rs` on the results of scored games
//! (`datagen` or `convert` files), the way Stockfish's model was first fitted.
//!
//! Every scored ply (no mate or tablebase score, within `max_score`) counts the game's result
//! from White's side at its material and White's score. For each material count the curve's
//! `(a, b)` are fitted by maximum likelihood (Newton's method); then `a` and `b` are each
//! fitted by a cubic in `material / 58`, weighted by the positions at each material. The
//! report gives the fit per material, the cubics as `wdl.rs` takes them, and the mean
//! log-likelihood of a result under each model (higher is better).

use super::games::{self, NO_SCORE};
use crate::score::TB_WIN_BOUND;
use crate::wdl::{self, MATERIAL_UNIT, MAX_MATERIAL, MIN_MATERIAL, cubic};
use shakmaty::{Color, Position};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Material counts the model distinguishes.
const MATERIALS: usize = (MAX_MATERIAL - MIN_MATERIAL + 1) as usize;

/// Positions a material count needs before its fit enters the cubics.
const MIN_POSITIONS: u64 = 200;

/// What `wdl-fit` reads.
pub struct WdlFitConfig {
    /// Game files written by `datagen` or `convert`.
    pub data: Vec<PathBuf>,
    /// Scores beyond this (engine centipawns, either side) are left out: the result is
    /// certain there and says nothing of the curve.
    pub max_score: i32,
}

/// Results by material and White's score: `[White won, drawn, Black won]`.
pub struct Histogram {
    max_score: i32,
    counts: Vec<[u64; 3]>,
}

impl Histogram {
    /// An empty histogram for scores within `max_score`.
    pub fn new(max_score: i32) -> Histogram {
        Histogram { max_score, counts: vec![[0; 3]; MATERIALS * Self::width(max_score)] }
    }

    fn width(max_score: i32) -> usize {
        2 * max_score as usize + 1
    }

    /// Counts one position at `material` with White's `score`; `result` is 0 for a White
    /// win, 1 a draw, 2 a Black win. Returns false (and counts nothing) beyond `max_score`.
    pub fn add(&mut self, material: i32, score: i32, result: usize) -> bool {
        if score.abs() > self.max_score {
            return false;
        }
        let row = (material.clamp(MIN_MATERIAL, MAX_MATERIAL) - MIN_MATERIAL) as usize;
        let at = row * Self::width(self.max_score) + (score + self.max_score) as usize;
        self.counts[at][result] += 1;
        true
    }

    /// `(score, counts)` of every score with positions at material row `row`.
    fn row(&self, row: usize) -> impl Iterator<Item = (f64, [u64; 3])> + '_ {
        let width = Self::width(self.max_score);
        let max = self.max_score;
        self.counts[row * width..(row + 1) * width]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.iter().sum::<u64>() > 0)
            .map(move |(i, &c)| (f64::from(i as i32 - max), c))
    }

    /// Positions at material row `row`.
    fn positions(&self, row: usize) -> u64 {
        self.row(row).map(|(_, c)| c.iter().sum::<u64>()).sum()
    }
}

/// The log-likelihood of the counts of one material row under the curve `(a, b)`.
fn log_likelihood(hist: &Histogram, row: usize, curve: (f64, f64)) -> f64 {
    let floor = 1e-12;
    hist.row(row)
        .map(|(score, [w, d, l])| {
            let win = wdl::win_chance(score, curve);
            let loss = wdl::win_chance(-score, curve);
            let draw = (1.0 - win - loss).max(floor);
            w as f64 * win.max(floor).ln() + d as f64 * draw.ln() + l as f64 * loss.max(floor).ln()
        })
        .sum()
}

/// `(a, b)` of one material row by Newton's method on the log-likelihood, with a numerical
/// Hessian and step halving; starts from `start`.
fn fit_row(hist: &Histogram, row: usize, start: (f64, f64)) -> (f64, f64) {
    let ll = |p: [f64; 2]| log_likelihood(hist, row, (p[0], p[1]));
    let grad = |p: [f64; 2]| {
        let h = 1e-3;
        let da = (ll([p[0] + h, p[1]]) - ll([p[0] - h, p[1]])) / (2.0 * h);
        let db = (ll([p[0], p[1] + h]) - ll([p[0], p[1] - h])) / (2.0 * h);
        [da, db]
    };
    let mut p = [start.0, start.1];
    for _ in 0..100 {
        let g = grad(p);
        let h = 1e-2;
        let ga = grad([p[0] + h, p[1]]);
        let gb = grad([p[0], p[1] + h]);
        let (haa, hab, hbb) =
            ((ga[0] - g[0]) / h, (ga[1] - g[1] + gb[0] - g[0]) / (2.0 * h), (gb[1] - g[1]) / h);
        let det = haa * hbb - hab * hab;
        // Newton's step where the Hessian curves down; otherwise a plain gradient step.
        let mut step = if haa < 0.0 && det > 0.0 {
            [-(hbb * g[0] - hab * g[1]) / det, -(haa * g[1] - hab * g[0]) / det]
        } else {
            let norm = (g[0] * g[0] + g[1] * g[1]).sqrt().max(1e-12);
            [10.0 * g[0] / norm, 10.0 * g[1] / norm]
        };
        let here = ll(p);
        let mut moved = false;
        for _ in 0..40 {
            let next = [p[0] + step[0], (p[1] + step[1]).max(1.0)];
            if ll(next) > here {
                p = next;
                moved = true;
                break;
            }
            step = [step[0] / 2.0, step[1] / 2.0];
        }
        if !moved || step[0].abs() + step[1].abs() < 1e-4 {
            break;
        }
    }
    (p[0], p[1])
}

/// The cubic (highest power first) through `(t, y)` points by least squares with weights;
/// with fewer than four points, the polynomial of the degree they determine.
fn fit_cubic(points: &[(f64, f64, f64)]) -> [f64; 4] {
    // Normal equations over the powers t^3, t^2, t, 1; a power the points cannot
    // determine gets the equation `coefficient = 0`.
    let unused = 4 - points.len().min(4);
    let mut m = [[0.0f64; 5]; 4];
    (0..unused).for_each(|i| m[i][i] = 1.0);
    for &(t, y, weight) in points {
        let powers = [t * t * t, t * t, t, 1.0].map(|p| p * weight.sqrt());
        let powers: [f64; 4] = std::array::from_fn(|i| if i < unused { 0.0 } else { powers[i] });
        let y = y * weight.sqrt();
        for i in 0..4 {
            for j in 0..4 {
                m[i][j] += powers[i] * powers[j];
            }
            m[i][4] += powers[i] * y;
        }
    }
    for col in 0..4 {
        let pivot = (col..4).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs())).unwrap_or(col);
        m.swap(col, pivot);
        let pivot_row = m[col];
        for (row, line) in m.iter_mut().enumerate() {
            if row != col && pivot_row[col] != 0.0 {
                let f = line[col] / pivot_row[col];
                line.iter_mut().zip(pivot_row).for_each(|(x, p)| *x -= f * p);
            }
        }
    }
    std::array::from_fn(|i| if m[i][i] == 0.0 { 0.0 } else { m[i][4] / m[i][i] })
}

/// The fitted model and what it was fitted on.
pub struct WdlFit {
    /// Positions counted.
    pub positions: u64,
    /// Scored plies left out: mate or tablebase scores, or beyond `max_score`.
    pub left_out: u64,
    /// Per material count with enough positions: `(material, positions, a, b)`.
    pub rows: Vec<(i32, u64, f64, f64)>,
    /// The cubic for `a` (highest power first), as `wdl::MIDPOINT` takes it.
    pub midpoint: [f64; 4],
    /// The cubic for `b`, as `wdl::SPREAD` takes it.
    pub spread: [f64; 4],
    /// Mean log-likelihood of a result: per-material fit, cubics, the built-in model.
    pub mean_ll: [f64; 3],
}

/// Fits the model on a histogram.
pub fn fit(hist: &Histogram, left_out: u64) -> WdlFit {
    let mut rows = Vec::new();
    let mut start = (200.0, 80.0);
    for row in 0..MATERIALS {
        let positions = hist.positions(row);
        if positions >= MIN_POSITIONS {
            let (a, b) = fit_row(hist, row, start);
            start = (a, b);
            rows.push((MIN_MATERIAL + row as i32, positions, a, b));
        }
    }
    let t = |m: i32| f64::from(m) / MATERIAL_UNIT;
    let midpoint = fit_cubic(&rows.iter().map(|&(m, n, a, _)| (t(m), a, n as f64)).collect::<Vec<_>>());
    let spread = fit_cubic(&rows.iter().map(|&(m, n, _, b)| (t(m), b, n as f64)).collect::<Vec<_>>());
    let positions: u64 = (0..MATERIALS).map(|row| hist.positions(row)).sum();
    let total = |curve: &dyn Fn(usize) -> (f64, f64)| -> f64 {
        (0..MATERIALS).map(|row| log_likelihood(hist, row, curve(row))).sum::<f64>() / positions.max(1) as f64
    };
    let per_row = |row: usize| {
        let m = MIN_MATERIAL + row as i32;
        rows.iter().find(|r| r.0 == m).map_or((cubic(&midpoint, t(m)), cubic(&spread, t(m))), |r| (r.2, r.3))
    };
    let cubics = |row: usize| {
        let m = MIN_MATERIAL + row as i32;
        (cubic(&midpoint, t(m)).max(1.0), cubic(&spread, t(m)).max(1.0))
    };
    let built_in = |row: usize| wdl::params(MIN_MATERIAL + row as i32);
    let mean_ll = [total(&per_row), total(&cubics), total(&built_in)];
    WdlFit { positions, left_out, rows, midpoint, spread, mean_ll }
}

/// Reads the game files into a histogram: `(histogram, plies left out)`.
pub fn read(config: &WdlFitConfig) -> Result<(Histogram, u64), String> {
    let mut hist = Histogram::new(config.max_score);
    let mut left_out = 0;
    for path in &config.data {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games::for_each_game(&bytes, |game| {
            let result = match game.winner {
                Some(Color::White) => 0,
                None => 1,
                Some(Color::Black) => 2,
            };
            let mut pos = game.start.clone();
            for &(mv, score) in &game.plies {
                if score != NO_SCORE {
                    let score = i32::from(score);
                    let counted =
                        score.abs() < TB_WIN_BOUND && hist.add(wdl::material(pos.board()), score, result);
                    left_out += u64::from(!counted);
                }
                pos.play_unchecked(mv);
            }
        })
        .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok((hist, left_out))
}

/// The report: per material, the cubics as Rust constants, and the likelihoods.
pub fn report(fit: &WdlFit) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "wdl-fit: {} positions ({} scored plies left out)", fit.positions, fit.left_out);
    let _ = writeln!(out, "material  positions        a        b    a (cubic)  b (cubic)");
    for &(m, n, a, b) in &fit.rows {
        let t = f64::from(m) / MATERIAL_UNIT;
        let (ca, cb) = (cubic(&fit.midpoint, t), cubic(&fit.spread, t));
        let _ = writeln!(out, "{m:>8} {n:>10} {a:>8.1} {b:>8.1} {ca:>12.1} {cb:>10.1}");
    }
    let list = |c: &[f64; 4]| c.iter().map(|x| format!("{x:.3}")).collect::<Vec<_>>().join(", ");
    let _ = writeln!(out, "pub const MIDPOINT: [f64; 4] = [{}];", list(&fit.midpoint));
    let _ = writeln!(out, "pub const SPREAD: [f64; 4] = [{}];", list(&fit.spread));
    let [rows, cubics, built_in] = fit.mean_ll;
    let _ = writeln!(
        out,
        "mean log-likelihood: per material {rows:.5}, cubics {cubics:.5}, built-in model {built_in:.5}"
    );
    out
}

/// Runs `wdl-fit`: reads, fits and returns the report.
pub fn run(config: &WdlFitConfig) -> Result<String, String> {
    let (hist, left_out) = read(config)?;
    Ok(report(&fit(&hist, left_out)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Results drawn from a known curve are fitted back close to it.
    #[test]
    fn a_known_curve_is_found_again() {
        let mut rng = Rng::new(7);
        let mut hist = Histogram::new(1500);
        let truth = |m: i32| (120.0 + 2.0 * f64::from(m), 40.0 + 0.5 * f64::from(m));
        for _ in 0..400_000 {
            let m = MIN_MATERIAL + (rng.next_u64() % MATERIALS as u64) as i32;
            let score = (rng.next_u64() % 1201) as i32 - 600;
            let curve = truth(m);
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let (win, loss) =
                (wdl::win_chance(f64::from(score), curve), wdl::win_chance(-f64::from(score), curve));
            let result = if u < win {
                0
            } else if u < win + loss {
                2
            } else {
                1
            };
            assert!(hist.add(m, score, result));
        }
        assert!(!hist.add(40, 1501, 0), "beyond max_score is not counted");
        let fit = fit(&hist, 0);
        assert_eq!(fit.positions, 400_000);
        for m in [20, 40, 60, 78] {
            let (a, b) = truth(m);
            let t = f64::from(m) / MATERIAL_UNIT;
            assert!((cubic(&fit.midpoint, t) - a).abs() < 0.05 * a, "a at {m}: {}", cubic(&fit.midpoint, t));
            assert!((cubic(&fit.spread, t) - b).abs() < 0.1 * b, "b at {m}: {}", cubic(&fit.spread, t));
        }
        assert!(fit.mean_ll[1] > fit.mean_ll[2], "the fit beats a model that is not the truth");
    }

    #[test]
    fn the_cubic_fit_reproduces_a_cubic() {
        let c = [3.0, -2.0, 5.0, 100.0];
        let points: Vec<_> =
            (0..20).map(|i| (0.3 + f64::from(i) * 0.05, cubic(&c, 0.3 + f64::from(i) * 0.05), 1.0)).collect();
        let fitted = fit_cubic(&points);
        for (x, y) in fitted.iter().zip(c) {
            assert!((x - y).abs() < 1e-6, "{fitted:?}");
        }
        assert_eq!(fit_cubic(&[(0.5, 80.0, 10.0)]), [0.0, 0.0, 0.0, 80.0], "one point: a constant");
        let line = fit_cubic(&[(0.5, 80.0, 1.0), (1.0, 60.0, 3.0)]);
        assert!(line[..2] == [0.0, 0.0] && (line[2] + 40.0).abs() < 1e-9 && (line[3] - 100.0).abs() < 1e-9);
    }
}
