//! The output layer's dot product: SCReLU of a hidden layer times the output weights.
//! The product `v * w` fits 16 bits, then `* v` widens to 32, the shape of `pmaddwd`. On
//! x86-64 an AVX2 copy written with its 256-bit instructions is chosen at run time when
//! the CPU has it (the compiler, left to itself, used 128-bit ones there); elsewhere the
//! plain loop, which the compiler vectorises.

use super::{HIDDEN, QA};

/// Largest output weight magnitude: `QA * MAX_OUTPUT_WEIGHT` must fit 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

/// `sum(clamp(h, 0, QA)^2 * w)` over the hidden layer, in units of `QA^2 * QB`.
#[inline]
pub fn screlu_dot(hidden: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if crate::simd::avx2() {
        // SAFETY: `simd::avx2` is true only where the CPU has AVX2.
        return unsafe { screlu_dot_avx2(hidden, weights) };
    }
    screlu_dot_body(hidden, weights)
}

/// [`screlu_dot`] in AVX2's 256-bit instructions: sixteen neurons a step, the same sum.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(hidden: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));
    let weights = &weights[..HIDDEN];
    let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for (h, w) in hidden.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
        // SAFETY: each chunk holds 16 i16s, 32 bytes; `loadu` takes any alignment.
        let (h, w) =
            unsafe { (_mm256_loadu_si256(h.as_ptr().cast()), _mm256_loadu_si256(w.as_ptr().cast())) };
        let v = _mm256_min_epi16(_mm256_max_epi16(h, zero), qa);
        // `pmaddwd` adds neighbouring pairs of `(v * w) * v` into 32 bits, exactly.
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v));
    }
    let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    _mm_cvtsi128_si32(_mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter)))
}

#[inline(always)]
fn screlu_dot_body(hidden: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    let weights = &weights[..HIDDEN];
    let mut sum = 0i32;
    for i in 0..HIDDEN {
        let v = hidden[i].clamp(0, QA as i16);
        // |v * w| <= QA * MAX_OUTPUT_WEIGHT fits 16 bits (the net loader checks the weights).
        sum += i32::from(v.wrapping_mul(weights[i])) * i32::from(v);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dot_product_clamps_squares_and_weighs() {
        let mut hidden = [0i16; HIDDEN];
        let mut weights = [0i16; HIDDEN];
        hidden[0] = 300; // clamped to QA
        weights[0] = MAX_OUTPUT_WEIGHT;
        hidden[1] = -40; // below zero: off
        weights[1] = 100;
        hidden[2] = 10;
        weights[2] = -MAX_OUTPUT_WEIGHT;
        let expected = QA * QA * i32::from(MAX_OUTPUT_WEIGHT) - 100 * i32::from(MAX_OUTPUT_WEIGHT);
        assert_eq!(screlu_dot(&hidden, &weights), expected);
        assert_eq!(screlu_dot_body(&hidden, &weights), expected);
    }

    #[test]
    fn the_chosen_copy_sums_as_the_plain_loop_does() {
        let mut rng = crate::rng::Rng::new(5);
        let mut random = |low: i32, high: i32| (low + rng.below((high - low + 1) as usize) as i32) as i16;
        for _ in 0..2_000 {
            // Hidden values past both ends of the clamp; weights up to the largest allowed.
            let hidden: [i16; HIDDEN] = std::array::from_fn(|_| random(-600, 600));
            let weights: Vec<i16> = (0..HIDDEN)
                .map(|_| random(-i32::from(MAX_OUTPUT_WEIGHT), i32::from(MAX_OUTPUT_WEIGHT)))
                .collect();
            assert_eq!(screlu_dot(&hidden, &weights), screlu_dot_body(&hidden, &weights));
        }
        let top = [QA as i16; HIDDEN];
        let weights = [MAX_OUTPUT_WEIGHT; HIDDEN];
        assert_eq!(screlu_dot(&top, &weights), screlu_dot_body(&top, &weights));
        assert_eq!(screlu_dot(&top, &weights.map(|w| -w)), -screlu_dot_body(&top, &weights));
    }
}
