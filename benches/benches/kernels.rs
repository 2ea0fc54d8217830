//! Criterion benches of the /bench page's three batched kernels, natively, on the page's own inputs
//! (`app/src/features/bench/kernels.ts`: 1,000 matrix pairs, 10,000 points, the same seeded values),
//! and the machine's peak rate of four-lane and one-lane multiply-adds: what "% of native" and
//! "% of the arithmetic floor" in `make bench-browser` are measured against.
//!
//! `make bench` turns criterion's results into `target/bench-browser/native.json`
//! (`benches/browser/native-report.mjs`). The ids here are the ones that script maps to the page's
//! cases (`app/src/features/bench/native.ts`): change both together.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mg_core::graphics::kernels::{mat4_mul_batch, mat4_mul_vec4_batch, quat_rotate_batch};

/// Points in the point batches and matrix pairs in the matrix batch: the page's full run.
const POINTS: usize = 10_000;
const MATRICES: usize = 1_000;

/// `n` values in [-1, 1): the page's seeded LCG (`random` in kernels.ts), value for value.
fn random(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((f64::from(s) / 4_294_967_296.0) * 2.0 - 1.0) as f32
        })
        .collect()
}

fn kernels(c: &mut Criterion) {
    let a = random(MATRICES * 16, 1);
    let b = random(MATRICES * 16, 2);
    let p = random(POINTS * 4, 3);
    let m = a[..16].to_vec();
    // quat.normalize(0.3, -0.5, 0.2, 0.8), as the page builds it.
    let q = {
        let v = [0.3f32, -0.5, 0.2, 0.8];
        let recip = 1.0 / v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.map(|x| x * recip)
    };
    let mut out_m = vec![0.0; MATRICES * 16];
    let mut out_p = vec![0.0; POINTS * 4];

    let mut group = c.benchmark_group("graphics/kernels");
    group.throughput(Throughput::Elements(MATRICES as u64));
    group.bench_function("mat4_mul", |bench| {
        bench.iter(|| mat4_mul_batch(black_box(&a), black_box(&b), black_box(&mut out_m)))
    });
    group.throughput(Throughput::Elements(POINTS as u64));
    group.bench_function("mat4_mul_vec4", |bench| {
        bench.iter(|| mat4_mul_vec4_batch(black_box(&m), black_box(&p), black_box(&mut out_p)))
    });
    group.bench_function("quat_rotate", |bench| {
        bench.iter(|| quat_rotate_batch(black_box(&q), black_box(&p), black_box(&mut out_p)))
    });
    group.finish();
}

/// Independent multiply-add chains per loop: enough to keep every multiplier and adder busy while
/// each chain waits for its last result (12 chains cover 2 pipes of each × 6 cycles of latency).
const CHAINS: usize = 12;
/// Loop trips per call.
const TRIPS: u64 = 10_000;

/// `acc = acc × m + c` on `CHAINS` accumulators, `TRIPS` times, with one-lane (`scalar`) or
/// four-lane (`simd`) SSE instructions written out, so the compiler can neither widen the scalar
/// chains into vectors nor fuse the pair into an FMA (wasm has neither: a wasm multiply-add is these
/// two instructions). Returns the accumulators' sum.
#[cfg(target_arch = "x86_64")]
// The instructions have to be written out (asm), which is unsafe; this bench is the only place.
#[allow(unsafe_code)]
fn mul_add_chains(simd: bool) -> f32 {
    use std::arch::asm;
    use std::arch::x86_64::{
        __m128, _mm_add_ps, _mm_cvtss_f32, _mm_set1_ps, _mm_setzero_ps, _mm_shuffle_ps,
    };
    // SAFETY: SSE is part of x86_64; the asm reads and writes only the registers it names.
    unsafe {
        let m = _mm_set1_ps(black_box(0.999_9));
        let c = _mm_set1_ps(black_box(1e-4));
        let mut acc: [__m128; CHAINS] = [_mm_setzero_ps(); CHAINS];
        // One trip: every chain's multiply, then every chain's add (chain `aN` is `acc[N]`).
        macro_rules! trip {
            ($mul:literal, $add:literal) => {
                trip!($mul, $add; a0: 0, a1: 1, a2: 2, a3: 3, a4: 4, a5: 5,
                    a6: 6, a7: 7, a8: 8, a9: 9, a10: 10, a11: 11)
            };
            ($mul:literal, $add:literal; $($a:ident: $i:literal),+) => {
                for _ in 0..TRIPS {
                    asm!(
                        $(concat!($mul, " {", stringify!($a), "}, {m}"),)+
                        $(concat!($add, " {", stringify!($a), "}, {c}"),)+
                        $($a = inout(xmm_reg) acc[$i],)+
                        m = in(xmm_reg) m, c = in(xmm_reg) c,
                        options(pure, nomem, nostack),
                    );
                }
            };
        }
        if simd {
            trip!("mulps", "addps");
        } else {
            trip!("mulss", "addss");
        }
        let mut sum = _mm_setzero_ps();
        for a in acc {
            sum = _mm_add_ps(sum, a);
        }
        let high = _mm_shuffle_ps(sum, sum, 0b11_10_11_10);
        let sum = _mm_add_ps(sum, high);
        _mm_cvtss_f32(_mm_add_ps(sum, _mm_shuffle_ps(sum, sum, 0b01)))
    }
}

/// Elsewhere: the same chains in plain code (the compiler decides how wide they run).
#[cfg(not(target_arch = "x86_64"))]
fn mul_add_chains(simd: bool) -> f32 {
    let lanes = if simd { 4 } else { 1 };
    let (m, c) = (black_box(0.999_9f32), black_box(1e-4f32));
    let mut acc = [[0.0f32; 4]; CHAINS];
    for _ in 0..TRIPS {
        for chain in &mut acc {
            for lane in &mut chain[..lanes] {
                *lane = *lane * m + c;
            }
        }
    }
    acc.iter().flatten().sum()
}

fn peak(c: &mut Criterion) {
    let mut group = c.benchmark_group("graphics/peak");
    // Throughput in floating-point operations: a multiply and an add per lane per chain per trip.
    for (id, lanes, simd) in [("scalar_mul_add", 1, false), ("simd_mul_add", 4, true)] {
        group.throughput(Throughput::Elements(TRIPS * CHAINS as u64 * 2 * lanes));
        group.bench_function(id, |bench| bench.iter(|| black_box(mul_add_chains(simd))));
    }
    group.finish();
}

criterion_group!(benches, kernels, peak);
criterion_main!(benches);
