//! Tapered scores: the type `S`, a middle-game and an end-game value packed in one `i32`.
//!
//! `S` keeps its one-letter name because it is written hundreds of times as a terse
//! constructor (`S::new(mg, eg)`) in the weight tables of `weights`. It is not the search's
//! reported score: that is `search::Score`.
//!
//! ```text
//!   S = (eg << 16) + mg      mg, eg: signed 16-bit values
//! ```
//! Adding and subtracting packed scores adds both halves at once (the carry from a negative
//! `mg` is undone when `eg` is read back with rounding), which keeps the incremental
//! piece-square accumulator in `Position` to a single add per piece move.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// S: a tapered (middlegame, endgame) score pair, packed as `(eg << 16) + mg`.
#[derive(Copy, Clone, PartialEq, Eq, Default)]
pub struct S(pub i32);

impl S {
    pub const ZERO: S = S(0);

    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> S {
        S((eg << 16).wrapping_add(mg))
    }

    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0.wrapping_add(0x8000)) >> 16) as i16 as i32
    }
}

impl std::fmt::Debug for S {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "S({}, {})", self.mg(), self.eg())
    }
}

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, other: S) -> S {
        S(self.0.wrapping_add(other.0))
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, other: S) -> S {
        S(self.0.wrapping_sub(other.0))
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, other: S) {
        self.0 = self.0.wrapping_add(other.0);
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, other: S) {
        self.0 = self.0.wrapping_sub(other.0);
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, factor: i32) -> S {
        S(self.0.wrapping_mul(factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_survives_arithmetic() {
        let a = S::new(-35, 120);
        let b = S::new(50, -300);
        assert_eq!((a + b).mg(), 15);
        assert_eq!((a + b).eg(), -180);
        assert_eq!((a - b).mg(), -85);
        assert_eq!((a - b).eg(), 420);
        assert_eq!((-a).mg(), 35);
        assert_eq!((a * 3).eg(), 360);
        assert_eq!(S::new(-1, -1).eg(), -1);
    }
}
