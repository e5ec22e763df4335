//! Offline tools beside the engine: `bench`, `perft`, `compare`, `datagen`, `convert`,
//! `genfens`, `train` and `wdl-fit`.
//! The engine's core (search, evaluation, UCI) does not depend on anything here but
//! `bench` and `perft`, which the UCI terminal extras call.

pub mod bench;
pub mod compare;
pub mod convert;
pub mod datagen;
pub mod games;
pub mod genfens;
pub mod perft;
pub mod plot;
pub mod train;
pub mod wdlfit;
