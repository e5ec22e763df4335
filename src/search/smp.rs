//! Lazy SMP: helper threads search the same position on the shared hash table, so
//! the main thread finds more of its tree already searched. Only the main thread
//! reports, decides when to stop and gives the move; helpers stop when it is done.

use super::{Limits, STACK_SIZE, SearchControl, SearchInfo, SearchResult, Searcher};
use crate::game::Game;
use std::sync::Arc;

/// Most search threads the `Threads` option allows.
pub const MAX_THREADS: usize = 256;

/// Searches `game` with `main` and, beside it on their own threads, every searcher in
/// `helpers`. The main thread's result goes to `answer` as soon as it has it, before the
/// helpers are joined (a helper stalled by the machine cannot hold up `bestmove`); the
/// result is returned once every thread has stopped, with the nodes of all of them.
pub fn search_threads(
    main: &mut Searcher,
    helpers: &mut [Searcher],
    game: &Game,
    limits: Limits,
    control: Arc<SearchControl>,
    report: &mut dyn FnMut(&SearchInfo),
    answer: impl FnOnce(&SearchResult),
) -> SearchResult {
    if helpers.is_empty() {
        let result = main.search(game, limits, control, report);
        answer(&result);
        return result;
    }
    // Helpers have no clock: the main thread's end releases them.
    let helper_limits = Limits { time: None, ..limits.clone() };
    let mut result = std::thread::scope(|scope| {
        for (i, helper) in helpers.iter_mut().enumerate() {
            // A helper leaves the table's age alone and stops with the main thread.
            helper.helper = true;
            let (limits, control) = (helper_limits.clone(), Arc::clone(&control));
            let spawned = std::thread::Builder::new()
                .name(format!("helper {}", i + 1))
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || {
                    helper.search(game, limits, control, &mut |_| {});
                });
            if let Err(e) = spawned {
                // Fewer threads still search correctly.
                log::warn!("could not start helper thread {}: {e}", i + 1);
                break;
            }
        }
        let result = main.search(game, limits, Arc::clone(&control), report);
        control.finish();
        answer(&result);
        result
    });
    // Every thread has stopped and added its nodes: the result counts them all.
    if let Some(info) = result.info.as_mut() {
        info.counters.nodes = control.shared_nodes();
        info.counters.tbhits = info.counters.tbhits.map(|_| control.shared_tbhits());
    }
    result
}
