//! The one place that picks the SIMD path. The CPU's features are detected once, at the
//! first call, and every kernel that has an AVX2 copy (the accumulator, the output layer,
//! the picker's best score, the history's halving, the trainer's gradient) asks here
//! before calling it. Elsewhere than on x86-64, or where the CPU lacks AVX2, each kernel
//! runs its portable body, which the compiler vectorises for the baseline; both paths give
//! the same results bit for bit (each kernel's tests hold them equal).
//!
//! `PRINCIPIA_SIMD=portable` in the environment forces the portable path, to compare the
//! two on one machine (`tests/tools.rs` checks that `bench` counts the same nodes).

use std::sync::atomic::{AtomicU8, Ordering};

/// The instruction sets the kernels may use on this CPU, from least to most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Simd {
    /// The baseline: SSE2 on x86-64, whatever the target guarantees elsewhere.
    Portable = 1,
    /// AVX2 (256-bit integer vectors).
    Avx2 = 2,
    /// AVX2 with fused multiply-add (the trainer's floating-point kernel).
    Avx2Fma = 3,
}

/// The detected path; 0 until the first call.
static PATH: AtomicU8 = AtomicU8::new(0);

/// The path this CPU runs, detected at the first call.
#[inline(always)]
pub fn path() -> Simd {
    match PATH.load(Ordering::Relaxed) {
        1 => Simd::Portable,
        2 => Simd::Avx2,
        3 => Simd::Avx2Fma,
        _ => detect(),
    }
}

/// True when the kernels may use AVX2.
#[inline(always)]
pub fn avx2() -> bool {
    path() >= Simd::Avx2
}

/// True when the kernels may use AVX2 and FMA.
#[inline(always)]
pub fn avx2_fma() -> bool {
    path() >= Simd::Avx2Fma
}

#[cold]
fn detect() -> Simd {
    let forced = std::env::var("PRINCIPIA_SIMD").is_ok_and(|v| v.eq_ignore_ascii_case("portable"));
    let path = if forced { Simd::Portable } else { cpu() };
    PATH.store(path as u8, Ordering::Relaxed);
    path
}

/// The best path the CPU itself offers.
fn cpu() -> Simd {
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = std::arch::is_x86_feature_detected!("avx2");
        let fma = std::arch::is_x86_feature_detected!("fma");
        match (avx2, fma) {
            (true, true) => Simd::Avx2Fma,
            (true, false) => Simd::Avx2,
            _ => Simd::Portable,
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    Simd::Portable
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_is_detected_once_and_never_claims_what_the_cpu_lacks() {
        let first = path();
        assert_eq!(path(), first);
        assert!(first <= cpu());
        assert_eq!(avx2(), first >= Simd::Avx2);
        assert_eq!(avx2_fma(), first == Simd::Avx2Fma);
    }
}
