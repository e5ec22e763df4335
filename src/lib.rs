//! Principia: a UCI chess engine built on the classic search.

#![warn(missing_docs)]

pub mod engine;
pub mod eval;
pub mod game;
pub mod rng;
pub mod score;
pub mod search;
pub mod simd;
pub mod stdio;
pub mod syzygy;
pub mod tools;
pub mod tt;
pub mod uci;
pub mod wdl;
