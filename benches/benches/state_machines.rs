//! Criterion benches of the core's state machines (native code; the browser bench compares wasm with JS).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mg_core::theme::{Theme, ThemeMachine};

fn theme_machine(c: &mut Criterion) {
    c.bench_function("theme/from_stored", |b| {
        b.iter(|| Theme::from_stored(black_box(Some("void"))))
    });
    c.bench_function("theme/toggle_1000", |b| {
        let mut machine = ThemeMachine::new(None);
        b.iter(|| {
            for _ in 0..1000 {
                black_box(machine.toggle());
            }
        })
    });
}

criterion_group!(benches, theme_machine);
criterion_main!(benches);
