//! The output layer's dot product: SCReLU of a hidden layer times the output weights.
//! Written so the compiler vectorises it (the product `v * w` fits 16 bits, then `* v`
//! widens to 32, the shape of `pmaddwd`); on x86-64 a copy compiled for AVX2 is chosen
//! at run time when the CPU has it.

use super::{HIDDEN, QA};

/// Largest output weight magnitude: `QA * MAX_OUTPUT_WEIGHT` must fit 16 bits.
pub const MAX_OUTPUT_WEIGHT: i16 = (i16::MAX as i32 / QA) as i16;

/// `sum(clamp(h, 0, QA)^2 * w)` over the hidden layer, in units of `QA^2 * QB`.
#[inline]
pub fn screlu_dot(hidden: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { screlu_dot_avx2(hidden, weights) };
    }
    screlu_dot_body(hidden, weights)
}

/// [`screlu_dot`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn screlu_dot_avx2(hidden: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    screlu_dot_body(hidden, weights)
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
}
