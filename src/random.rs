//! The one pseudo-random generator: move choice at lower levels, datagen openings, the
//! trainer's initial weights and shuffles. A leaf: it imports nothing.

/// A small deterministic pseudo-random generator (xorshift64*), seeded by the caller: from
/// the clock for play, a `--seed` for datagen and training, fixed in tests. Not for anything
/// that needs real randomness.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is the one state xorshift never leaves; mix the seed so small seeds differ well.
        let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
        Rng {
            state: if mixed == 0 { 1 } else { mixed },
        }
    }

    /// Seeded from the system clock and the process id.
    pub fn from_time() -> Rng {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as u64);
        Rng::new(nanos ^ (u64::from(std::process::id()) << 32))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state ^= self.state >> 12;
        self.state ^= self.state << 25;
        self.state ^= self.state >> 27;
        self.state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// An index into a slice of `len` (> 0) items.
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Uniform in `[-bound, bound]`.
    pub fn symmetric(&mut self, bound: f32) -> f32 {
        (self.unit() * 2.0 - 1.0) as f32 * bound
    }

    /// Fisher–Yates.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.index(i + 1));
        }
    }
}
