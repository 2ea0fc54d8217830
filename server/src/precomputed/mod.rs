//! Answers made once and sent many times.

pub mod negotiate;
