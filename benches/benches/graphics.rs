//! Criterion benches of one frame of each decorative widget's geometry math, natively: the /bench
//! page's frame cases (the same scenes, the icosahedron with the page's seed), which
//! `benches/browser/native-report.mjs` writes beside the page's results as the native rows.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mg_core::graphics::{DoubleHelixScene, HypercubeScene, IcosahedronScene, MoleculeScene};

fn one_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("graphics/step");
    group.bench_function("icosahedron", |b| {
        let mut scene = IcosahedronScene::new(7);
        // Warm up past the first second so the particle pools hold a typical load.
        for _ in 0..120 {
            scene.step();
        }
        b.iter(|| {
            scene.step();
            black_box(scene.particle_vertices());
        })
    });
    group.bench_function("hypercube", |b| {
        let mut scene = HypercubeScene::new();
        for _ in 0..120 {
            scene.step();
        }
        b.iter(|| {
            scene.step();
            black_box(scene.vertices());
        })
    });
    group.bench_function("double_helix", |b| {
        let mut scene = DoubleHelixScene::new();
        b.iter(|| {
            scene.step();
            black_box(scene.vertices());
        })
    });
    group.bench_function("molecule", |b| {
        let mut scene = MoleculeScene::new();
        b.iter(|| {
            scene.step();
            black_box(scene.atom_vertices());
        })
    });
    group.finish();
}

criterion_group!(benches, one_frame);
criterion_main!(benches);
