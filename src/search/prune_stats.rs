//! Pruning statistics, built only with the `stats` feature: how often each pruning step
//! of `negamax` fires, by depth, and, on a sample of the whole-node cutoffs, whether a
//! search of the same node without that step agrees (`bench --verify-every N`).
//!
//! Counting changes nothing the search does (the bench signature stays); verification
//! searches add nodes and fill the hash table, so they are off unless asked for.

use super::Searcher;
use super::negamax::Node;
use shakmaty::Chess;

/// Depths counted apart; deeper nodes share the last row.
pub const STAT_DEPTHS: usize = 16;

/// Something `negamax` does at a node, counted by the node's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A node that reached the pruning steps (negamax step 9).
    Node,
    /// Reverse futility returned the evaluation.
    RfpCut,
    /// ...at a node where null move would have been tried next.
    RfpNullReady,
    /// Razoring searched quiescence.
    RazorTry,
    /// ...and it failed low.
    RazorCut,
    /// A null-move search was made.
    NullTry,
    /// ...and it failed high.
    NullCut,
    /// Late move pruning skipped a quiet move.
    LmpSkip,
    /// Futility pruning skipped a quiet move.
    FutilitySkip,
    /// SEE pruning skipped a quiet move.
    SeeQuietSkip,
    /// SEE pruning skipped a capture.
    SeeCaptureSkip,
}

const EVENTS: usize = 11;

/// A whole-node cutoff whose verdict a verification search can check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Reverse futility (a fail high).
    Rfp,
    /// Razoring (a fail low).
    Razor,
    /// Null move (a fail high).
    Null,
}

const CUTS: usize = 3;

/// Upper ends of the bands of `eval - beta` that null-move tries are counted in (cp).
const MARGINS: [i32; 8] = [1, 10, 25, 50, 100, 200, 400, i32::MAX];

/// The counters of one search (or, summed, of many).
#[derive(Clone, Debug, Default)]
pub struct PruneStats {
    counts: [[u64; EVENTS]; STAT_DEPTHS],
    checked: [[u64; CUTS]; STAT_DEPTHS],
    wrong: [[u64; CUTS]; STAT_DEPTHS],
    /// Null-move searches and their fail highs by the band of `eval - beta`.
    null_by_margin: [[u64; 2]; MARGINS.len()],
    /// Cutoffs seen of each kind, for sampling.
    seen: [u64; CUTS],
    /// The ply of the node being verified, until it has read this (no pruning there).
    verify_ply: Option<usize>,
    /// True inside a verification search: no nested ones.
    verifying: bool,
}

fn row(depth: i32) -> usize {
    (depth.max(0) as usize).min(STAT_DEPTHS - 1)
}

impl PruneStats {
    /// Counts `event` at a node of `depth`.
    pub fn count(&mut self, event: Event, depth: i32) {
        self.counts[row(depth)][event as usize] += 1;
    }

    /// Counts a null-move search made `margin` cp above beta, and whether it failed high.
    pub fn null_margin(&mut self, margin: i32, cut: bool) {
        let band = MARGINS.iter().position(|&m| margin < m).unwrap_or(MARGINS.len() - 1);
        self.null_by_margin[band][usize::from(cut)] += 1;
    }

    /// Adds another search's counters to these.
    pub fn add(&mut self, other: &PruneStats) {
        for (band, theirs) in self.null_by_margin.iter_mut().zip(other.null_by_margin) {
            band[0] += theirs[0];
            band[1] += theirs[1];
        }
        for d in 0..STAT_DEPTHS {
            (0..EVENTS).for_each(|e| self.counts[d][e] += other.counts[d][e]);
            (0..CUTS).for_each(|c| self.checked[d][c] += other.checked[d][c]);
            (0..CUTS).for_each(|c| self.wrong[d][c] += other.wrong[d][c]);
        }
    }

    /// The times `event` was counted at `depth` (the last row: that depth and deeper).
    pub fn get(&self, event: Event, depth: i32) -> u64 {
        self.counts[row(depth)][event as usize]
    }

    /// Verified cutoffs of kind `cut` at `depth`, and how many of them were wrong.
    pub fn verdicts(&self, cut: Cut, depth: i32) -> (u64, u64) {
        (self.checked[row(depth)][cut as usize], self.wrong[row(depth)][cut as usize])
    }

    /// The table `bench` prints: one line per depth that saw a node.
    pub fn report(&self) -> Vec<String> {
        let pct = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
        let verdict = |cut: Cut, d: i32| {
            let (checked, wrong) = self.verdicts(cut, d);
            if checked == 0 { "      -".to_string() } else { format!("{:>6.1}%", pct(wrong, checked)) }
        };
        let mut lines = vec![
            "depth      nodes   rfp%  (null-ready%)  razor%/cut%   null%/cut%   lmp  fut  seeq  seec  \
             wrong: rfp   razor    null"
                .to_string(),
        ];
        for d in 1..STAT_DEPTHS as i32 {
            let n = self.get(Event::Node, d);
            if n == 0 {
                continue;
            }
            let g = |e| self.get(e, d);
            lines.push(format!(
                "{d:>5}{n:>11} {:>6.1} {:>8.1}      {:>6.1}/{:>5.1}  {:>6.1}/{:>5.1} {:>5} {:>4} {:>5} {:>5}  {} {} {}",
                pct(g(Event::RfpCut), n),
                pct(g(Event::RfpNullReady), g(Event::RfpCut)),
                pct(g(Event::RazorTry), n),
                pct(g(Event::RazorCut), g(Event::RazorTry)),
                pct(g(Event::NullTry), n),
                pct(g(Event::NullCut), g(Event::NullTry)),
                per_node(g(Event::LmpSkip), n),
                per_node(g(Event::FutilitySkip), n),
                per_node(g(Event::SeeQuietSkip), n),
                per_node(g(Event::SeeCaptureSkip), n),
                verdict(Cut::Rfp, d),
                verdict(Cut::Razor, d),
                verdict(Cut::Null, d),
            ));
        }
        let mut low = 0;
        for (&high, [failed, cut]) in MARGINS.iter().zip(self.null_by_margin) {
            let band = if high == i32::MAX { format!("{low}+") } else { format!("{low}-{high}") };
            let tries = failed + cut;
            lines.push(format!(
                "null move at eval - beta {band:>7} cp: {tries:>9} tries, {:.1}% cut",
                pct(cut, tries)
            ));
            low = high;
        }
        lines
    }
}

/// Skipped moves per node, to two decimals.
fn per_node(count: u64, nodes: u64) -> String {
    format!("{:.2}", count as f64 / nodes.max(1) as f64)
}

impl Searcher {
    /// True at the node being verified (its whole-node pruning is off), once.
    pub(super) fn verifying_at(&mut self, ply: usize) -> bool {
        self.stats.prune.verify_ply.take_if(|p| *p == ply).is_some()
    }

    /// On a sample of the cutoffs of kind `cut`, searches `node` again without its
    /// whole-node pruning and records whether that search agrees.
    pub(super) fn verify_cut(&mut self, cut: Cut, pos: &Chess, node: Node) {
        let Node { depth, ply, alpha, beta, on_pv } = node;
        let every = self.config.verify_every;
        let prune = &mut self.stats.prune;
        if every == 0 || prune.verifying {
            return;
        }
        prune.seen[cut as usize] += 1;
        if !prune.seen[cut as usize].is_multiple_of(every) {
            return;
        }
        prune.verifying = true;
        prune.verify_ply = Some(ply);
        let score = self.negamax(pos, depth, ply, alpha, beta, on_pv);
        let prune = &mut self.stats.prune;
        prune.verifying = false;
        prune.verify_ply = None;
        if self.stopped {
            return;
        }
        let wrong = match cut {
            Cut::Rfp | Cut::Null => score < beta,
            Cut::Razor => score > alpha,
        };
        prune.checked[row(depth)][cut as usize] += 1;
        prune.wrong[row(depth)][cut as usize] += u64::from(wrong);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_nodes_share_the_last_row_and_sums_add_up() {
        let mut a = PruneStats::default();
        a.count(Event::Node, 3);
        a.count(Event::Node, 40);
        a.count(Event::NullCut, STAT_DEPTHS as i32 - 1);
        let mut total = PruneStats::default();
        total.add(&a);
        total.add(&a);
        assert_eq!(total.get(Event::Node, 3), 2);
        assert_eq!(total.get(Event::Node, STAT_DEPTHS as i32 + 5), 2);
        assert_eq!(total.get(Event::NullCut, 99), 2);
        let depth_rows = total.report().iter().filter(|line| line.starts_with(' ')).count();
        assert_eq!(depth_rows, 2, "one row for depth 3, one for the deepest");
    }
}
