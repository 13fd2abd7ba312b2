//! The network's inner loops: add/subtract weight rows to an accumulator, and the output
//! layer's squared-clipped-ReLU dot product. A portable version always exists; on x86-64 an
//! AVX2 version is chosen at run time (`is_x86_feature_detected!`), because the crate is built
//! for the baseline CPU (no `target-cpu=native`).
//!
//! The AVX2 functions are `unsafe` only because their caller must prove the CPU has AVX2 and
//! because 256-bit loads take raw pointers; both are argued at each use.

use super::{HIDDEN, QA};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kernels {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernels {
    pub(super) fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") && std::env::var_os("OX88_NO_AVX2").is_none() {
            return Kernels::Avx2;
        }
        Kernels::Portable
    }

    pub(super) fn name(self) -> &'static str {
        match self {
            Kernels::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => "avx2",
        }
    }

    #[inline(always)]
    pub(super) fn add(self, values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
        for (value, weight) in values.iter_mut().zip(row) {
            *value = value.wrapping_add(*weight);
        }
    }

    #[inline(always)]
    pub(super) fn sub(self, values: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
        for (value, weight) in values.iter_mut().zip(row) {
            *value = value.wrapping_sub(*weight);
        }
    }

    /// Both perspectives: `output[p]` = `input[p]` + the `added` rows − the `removed` rows
    /// (each row given for both perspectives, white's first).
    #[inline(always)]
    pub(super) fn update<const A: usize, const R: usize>(
        self,
        output: &mut [[i16; HIDDEN]; 2],
        input: &[[i16; HIDDEN]; 2],
        added: [[&[i16; HIDDEN]; 2]; A],
        removed: [[&[i16; HIDDEN]; 2]; R],
    ) {
        match self {
            Kernels::Portable => update_portable(output, input, added, removed),
            // SAFETY: `Avx2` is only chosen by `detect` after `is_x86_feature_detected!("avx2")`.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::update(output, input, added, removed) },
        }
    }

    /// Σ clamp(values[i], 0, QA)² · weights[i], at scale QA²·QB.
    #[inline(always)]
    pub(super) fn screlu_dot(self, values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
        match self {
            Kernels::Portable => screlu_dot_portable(values, weights),
            // SAFETY: `Avx2` is only chosen by `detect` after `is_x86_feature_detected!("avx2")`.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::screlu_dot(values, weights) },
        }
    }
}

/// Plain loops over fixed-size arrays: the compiler vectorises them for whatever features the
/// function is compiled with (the baseline here, AVX2 inside `avx2::update`).
#[inline(always)]
fn update_portable<const A: usize, const R: usize>(
    output: &mut [[i16; HIDDEN]; 2],
    input: &[[i16; HIDDEN]; 2],
    added: [[&[i16; HIDDEN]; 2]; A],
    removed: [[&[i16; HIDDEN]; 2]; R],
) {
    for perspective in 0..2 {
        let (output, input) = (&mut output[perspective], &input[perspective]);
        for i in 0..HIDDEN {
            let mut value = input[i];
            for rows in &added {
                value = value.wrapping_add(rows[perspective][i]);
            }
            for rows in &removed {
                value = value.wrapping_sub(rows[perspective][i]);
            }
            output[i] = value;
        }
    }
}

fn screlu_dot_portable(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
    let mut sum = 0i32;
    for (&value, &weight) in values.iter().zip(weights) {
        let clipped = value.clamp(0, QA as i16);
        // clipped ≤ 255 and |weight| ≤ 127, so the product fits i16 (as in the AVX2 path).
        sum += clipped.wrapping_mul(weight) as i32 * clipped as i32;
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{HIDDEN, QA};
    use std::arch::x86_64::*;

    /// The portable loop compiled with AVX2 enabled (the compiler then uses 256-bit lanes).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update<const A: usize, const R: usize>(
        output: &mut [[i16; HIDDEN]; 2],
        input: &[[i16; HIDDEN]; 2],
        added: [[&[i16; HIDDEN]; 2]; A],
        removed: [[&[i16; HIDDEN]; 2]; R],
    ) {
        super::update_portable(output, input, added, removed);
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn screlu_dot(values: &[i16; HIDDEN], weights: &[i16; HIDDEN]) -> i32 {
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for chunk in 0..HIDDEN / 16 {
            // SAFETY: chunk * 16 + 16 ≤ HIDDEN, so both 32-byte loads stay inside the arrays;
            // `loadu` has no alignment requirement.
            let (value, weight) = unsafe {
                (
                    _mm256_loadu_si256(values.as_ptr().add(chunk * 16).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(chunk * 16).cast()),
                )
            };
            let clipped = _mm256_min_epi16(_mm256_max_epi16(value, zero), ceiling);
            let product = _mm256_mullo_epi16(clipped, weight);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(product, clipped));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256(sum, 1),
        );
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let total = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
        _mm_cvtsi128_si32(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_computes_the_same_dot_product() {
        let mut values = [0i16; HIDDEN];
        let mut weights = [0i16; HIDDEN];
        for i in 0..HIDDEN {
            values[i] = (i as i16 * 37) % 600 - 200;
            weights[i] = (i as i16 * 53) % 255 - 127;
        }
        let expected: i32 = values
            .iter()
            .zip(&weights)
            .map(|(&v, &w)| (v.clamp(0, 255) as i32).pow(2) * w as i32)
            .sum();
        assert_eq!(screlu_dot_portable(&values, &weights), expected);
        // The fused update: input + one row − two rows, on every kernel.
        let mut plus = [0i16; HIDDEN];
        for (i, value) in plus.iter_mut().enumerate() {
            *value = (i as i16 * 11) % 90 - 45;
        }
        let mut update_expected = [0i16; HIDDEN];
        for i in 0..HIDDEN {
            update_expected[i] = values[i] + plus[i] - weights[i] - plus[i] / 2;
        }
        let half = plus.map(|value| value / 2);
        for kernels in [Kernels::Portable, Kernels::detect()] {
            // The same rows in both perspectives, the inputs swapped in the second.
            let mut output = [[0i16; HIDDEN]; 2];
            let input = [values, update_expected];
            let rows = |row| [row, row];
            kernels.update::<1, 2>(
                &mut output,
                &input,
                [rows(&plus)],
                [rows(&weights), rows(&half)],
            );
            assert_eq!(output[0], update_expected, "{}", kernels.name());
            let mut twice = [0i16; HIDDEN];
            for i in 0..HIDDEN {
                twice[i] = update_expected[i] + plus[i] - weights[i] - plus[i] / 2;
            }
            assert_eq!(output[1], twice, "{}", kernels.name());
        }
        let detected = Kernels::detect();
        assert_eq!(
            detected.screlu_dot(&values, &weights),
            expected,
            "{}",
            detected.name()
        );
    }
}
