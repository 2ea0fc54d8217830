//! The batched kernels under criterion in a real browser (`#[wasm_bindgen_bench]`, wasm-bindgen-test's
//! in-browser criterion): the regression gate for the numbers the /bench page shows. Run by
//! `make bench-wasm`, once per build (scalar and `simd128`); wasm-bindgen-test-runner keeps the last
//! run as a baseline (`WASM_BINDGEN_BENCH_RESULT`) and reports the change against it. Natively,
//! `make bench` runs the criterion benches in `benches/` at the repository root.
#![cfg(all(target_arch = "wasm32", feature = "graphics"))]

use std::{hint::black_box, time::Duration};

use mg_core::graphics::kernels::{mat4_mul_batch, mat4_mul_vec4_batch, quat_rotate_batch};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const POINTS: usize = 10_000;
const MATRICES: usize = 1_000;

/// Shorter than criterion's defaults (3 s warm-up, 5 s measurement): a bench runs on the page's main
/// thread, and the test runner's WebDriver polls of the page time out after 20 s without an answer.
fn quick(c: &mut Criterion) {
    *c = std::mem::take(c)
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
}

fn data(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s as f32 / u32::MAX as f32) * 2.0 - 1.0
        })
        .collect()
}

/// Times `kernel` over the inputs `a` and `b` into `outputs` floats, as [`quick`] shortens it.
fn bench_kernel(
    c: &mut Criterion,
    name: &str,
    kernel: impl Fn(&[f32], &[f32], &mut [f32]),
    (a, b): (&[f32], &[f32]),
    outputs: usize,
) {
    quick(c);
    let mut out = vec![0.0; outputs];
    c.bench_function(name, |bench| {
        bench.iter(|| kernel(black_box(a), black_box(b), &mut out))
    });
}

#[wasm_bindgen_bench]
fn mat4_mul_vec4_10k_points(c: &mut Criterion) {
    let (m, points) = (data(16, 1), data(POINTS * 4, 2));
    let name = "mat4 x vec4, 10,000 points";
    bench_kernel(c, name, mat4_mul_vec4_batch, (&m, &points), POINTS * 4);
}

#[wasm_bindgen_bench]
fn mat4_mul_1k_pairs(c: &mut Criterion) {
    let (a, b) = (data(MATRICES * 16, 3), data(MATRICES * 16, 4));
    let name = "mat4 x mat4, 1,000 pairs";
    bench_kernel(c, name, mat4_mul_batch, (&a, &b), MATRICES * 16);
}

#[wasm_bindgen_bench]
fn quat_rotate_10k_points(c: &mut Criterion) {
    let q = glam::Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7).to_array();
    let points = data(POINTS * 4, 5);
    let name = "quat rotate, 10,000 points";
    bench_kernel(c, name, quat_rotate_batch, (&q, &points), POINTS * 4);
}
