//! Flags and counters shared by the engine thread and every thread of a running search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// What the engine and the search threads share while a search runs.
#[derive(Debug)]
pub struct SearchControl {
    started: Instant,
    stop: AtomicBool,
    pondering: AtomicBool,
    ponderhit_ms: AtomicU64,
    finished: AtomicBool,
    nodes: AtomicU64,
    tbhits: AtomicU64,
}

impl SearchControl {
    /// Control for a new search, whose clock starts now (as `go` arrives); `pondering`
    /// holds the clock until `ponderhit`.
    pub fn new(pondering: bool) -> Self {
        SearchControl {
            started: Instant::now(),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit_ms: AtomicU64::new(0),
            finished: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            tbhits: AtomicU64::new(0),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once `stop` has been called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Milliseconds since the search was asked for.
    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    /// Turns a ponder search into a normal one whose clock starts now.
    pub fn ponderhit(&self) {
        self.ponderhit_ms.store(self.elapsed_ms(), Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    /// True while the search ponders (the clock does not run).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// The main thread has its result: helper threads stop.
    pub(super) fn finish(&self) {
        self.finished.store(true, Ordering::Relaxed);
    }

    /// True once the main thread has its result.
    pub(super) fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Relaxed)
    }

    /// Adds a thread's nodes and table hits to the shared counts.
    pub(super) fn add_nodes(&self, nodes: u64, tbhits: u64) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        if tbhits > 0 {
            self.tbhits.fetch_add(tbhits, Ordering::Relaxed);
        }
    }

    /// Nodes every thread has added so far.
    pub(super) fn shared_nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Table hits every thread has added so far.
    pub(super) fn shared_tbhits(&self) -> u64 {
        self.tbhits.load(Ordering::Relaxed)
    }

    /// Milliseconds on our clock: since `go`, or since `ponderhit` after pondering.
    pub(super) fn clock_ms(&self) -> u64 {
        self.elapsed_ms().saturating_sub(self.ponderhit_ms.load(Ordering::Relaxed))
    }
}
