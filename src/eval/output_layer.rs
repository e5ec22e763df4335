//! The output layer's dot product: SCReLU of both sides' hidden layers times the output weights.
//! The product `v * w` fits 16 bits, then `* v` widens to 32, the shape of `pmaddwd`. On
//! x86-64 an AVX2 copy written with its 256-bit instructions is chosen at run time when
//! the CPU has it (the compiler, left to itself, used 128-bit ones there); elsewhere the
//! plain loop, which the compiler vectorises.

use super::{HIDDEN, QA};

/// Largest output weight magnitude: `QA * MAX_OUTPUT_WEIGHT` must fit 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

/// `sum(clamp(h, 0, QA)^2 * w)` over both sides' hidden layers, `ours` by the first half
/// of `weights` and `theirs` by the second, in units of `QA^2 * QB`. Exact in 32 bits: each
/// side's sum is at most `HIDDEN * QA^2 * MAX_OUTPUT_WEIGHT` (about 1.07e9) in magnitude.
#[inline]
pub fn screlu_dot(ours: &[i16; HIDDEN], theirs: &[i16; HIDDEN], weights: &[i16; 2 * HIDDEN]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2() {
        // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
        return unsafe { screlu_dot_avx2(ours, theirs, weights) };
    }
    screlu_dot_body(ours, theirs, weights)
}

/// [`screlu_dot`] in AVX2's 256-bit instructions: sixteen neurons a step, the same sum.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(ours: &[i16; HIDDEN], theirs: &[i16; HIDDEN], weights: &[i16; 2 * HIDDEN]) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    let (our_weights, their_weights) = weights.split_at(HIDDEN);
    for (hidden, weights) in [(ours, our_weights), (theirs, their_weights)] {
        for (h, w) in hidden.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
            // SAFETY: each chunk holds 16 i16s, 32 bytes; `loadu` takes any alignment.
            let (h, w) =
                unsafe { (_mm256_loadu_si256(h.as_ptr().cast()), _mm256_loadu_si256(w.as_ptr().cast())) };
            let v = _mm256_min_epi16(_mm256_max_epi16(h, zero), qa);
            // `pmaddwd` adds neighbouring pairs of `(v * w) * v` into 32 bits, exactly.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
        }
    }
    let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter)))
}

#[inline(always)]
fn screlu_dot_body(ours: &[i16; HIDDEN], theirs: &[i16; HIDDEN], weights: &[i16; 2 * HIDDEN]) -> i32 {
    let mut sum = 0i32;
    let (our_weights, their_weights) = weights.split_at(HIDDEN);
    for (hidden, weights) in [(ours, our_weights), (theirs, their_weights)] {
        for (&h, &w) in hidden.iter().zip(weights) {
            let v = h.clamp(0, QA as i16);
            // |v * w| <= QA * MAX_OUTPUT_WEIGHT fits 16 bits (the net loader checks the weights).
            sum += i32::from(v.wrapping_mul(w)) * i32::from(v);
        }
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dot_product_clamps_squares_and_weighs() {
        let (mut ours, theirs) = ([0i16; HIDDEN], [-5i16; HIDDEN]);
        let mut weights = [0i16; 2 * HIDDEN];
        ours[0] = 300; // clamped to QA
        weights[0] = MAX_OUTPUT_WEIGHT;
        ours[1] = -40; // below zero: off
        weights[1] = 100;
        ours[2] = 10;
        weights[2] = -MAX_OUTPUT_WEIGHT;
        weights[HIDDEN] = 100; // their first neuron is below zero: off
        let expected = QA * QA * i32::from(MAX_OUTPUT_WEIGHT) - 100 * i32::from(MAX_OUTPUT_WEIGHT);
        assert_eq!(screlu_dot(&ours, &theirs, &weights), expected);
        assert_eq!(screlu_dot_body(&ours, &theirs, &weights), expected);
        let mut theirs = [0i16; HIDDEN];
        theirs[3] = 2;
        weights[HIDDEN + 3] = -7;
        assert_eq!(screlu_dot(&ours, &theirs, &weights), expected - 28);
    }

    #[test]
    fn the_chosen_copy_sums_as_the_plain_loop_does() {
        let mut rng = crate::rng::Rng::new(5);
        let mut random = |low: i32, high: i32| (low + rng.below((high - low + 1) as usize) as i32) as i16;
        for _ in 0..2_000 {
            // Hidden values past both ends of the clamp; weights up to the largest allowed.
            let ours: [i16; HIDDEN] = std::array::from_fn(|_| random(-600, 600));
            let theirs: [i16; HIDDEN] = std::array::from_fn(|_| random(-600, 600));
            let max = i32::from(MAX_OUTPUT_WEIGHT);
            let weights: [i16; 2 * HIDDEN] = std::array::from_fn(|_| random(-max, max));
            assert_eq!(screlu_dot(&ours, &theirs, &weights), screlu_dot_body(&ours, &theirs, &weights));
        }
        // Both sides at the clamp, every weight at the bound: the largest sum still fits.
        let top = [QA as i16; HIDDEN];
        let weights = [MAX_OUTPUT_WEIGHT; 2 * HIDDEN];
        let largest = 2 * HIDDEN as i64 * i64::from(QA * QA) * i64::from(MAX_OUTPUT_WEIGHT);
        assert_eq!(i64::from(screlu_dot(&top, &top, &weights)), largest);
        assert_eq!(screlu_dot(&top, &top, &weights), screlu_dot_body(&top, &top, &weights));
        assert_eq!(screlu_dot(&top, &top, &weights.map(|w| -w)), -screlu_dot_body(&top, &top, &weights));
    }
}
