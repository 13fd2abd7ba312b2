//! Static evaluation.

pub mod weights;
