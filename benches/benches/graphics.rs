//! Criterion benches of one frame of each decorative widget's geometry math, natively: the /bench
//! page's frame cases (the same scenes, the icosahedron with the page's seed), which
//! `benches/browser/native-report.mjs` writes beside the page's results as the native rows.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mg_core::graphics::{DoubleHelixScene, HypercubeScene, IcosahedronScene, MoleculeScene};

/// One bench a scene, `name => the scene, the buffer a frame writes` and, where a scene carries
/// something from frame to frame (the icosahedron's particle pools), `warm` frames first, so that
/// it holds a typical load (past the first second); then each iteration steps the scene and reads
/// that buffer.
macro_rules! frames {
    ($group:expr; $($name:literal => $new:expr, $read:ident $(, warm $warm_up:literal)?;)+) => {$(
        $group.bench_function($name, |b| {
            let mut scene = $new;
            $(for _ in 0..$warm_up {
                scene.step();
            })?
            b.iter(|| {
                scene.step();
                black_box(scene.$read());
            })
        });
    )+};
}

fn one_frame(c: &mut Criterion) {
    let mut group = c.benchmark_group("graphics/step");
    frames!(group;
        "icosahedron" => IcosahedronScene::new(7), particle_vertices, warm 120;
        "hypercube" => HypercubeScene::new(), vertices, warm 120;
        "double_helix" => DoubleHelixScene::new(), vertices;
        "molecule" => MoleculeScene::new(), atom_vertices;
    );
    group.finish();
}

criterion_group!(benches, one_frame);
criterion_main!(benches);
