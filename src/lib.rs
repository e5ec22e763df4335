//! Principia: a UCI chess engine built on the classic search.

pub mod bench;
pub mod compare;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod game;
pub mod output;
pub mod perft;
pub mod search;
pub mod syzygy;
pub mod tt;
pub mod tune;
pub mod uci;
