//! Criterion benches of the core's state machines (native code; the browser bench compares wasm with JS).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use mg_core::auth_callback::{AuthCallbackMachine, ExchangeOutcome, IdentityUser};
use mg_core::deployment::parse_flags;
use mg_core::health::{Check, HealthMachine};
use mg_core::theme::{Theme, ThemeMachine};
use mg_core::wisdom::{WisdomAnswer, WisdomMachine};

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

fn event_machines(c: &mut Criterion) {
    c.bench_function("flags/parse", |b| {
        b.iter(|| {
            // In the browser the text is read by JSON.parse; natively serde_json stands in.
            parse_flags(
                black_box(Some(
                    r#"{"apotheosis":true,"sanctified":true,"ethereal":false}"#,
                )),
                |text| serde_json::from_str(text).ok(),
            )
        })
    });
    c.bench_function("health/round", |b| {
        let mut machine = HealthMachine::new(false, false, true);
        let mut now = 0u64;
        b.iter(|| {
            now += 30_000;
            if let Some(plan) = machine.poll(now) {
                black_box(machine.check_result(plan.round, Check::Api, Some(200)));
                black_box(machine.check_result(plan.round, Check::Db, Some(503)));
            }
        })
    });
    c.bench_function("wisdom/answer_and_reset", |b| {
        let mut machine = WisdomMachine::default();
        let body = r#"{"wisdom":{"quote":"Know thyself.","orator":"Socrates"}}"#;
        b.iter(|| {
            machine.click();
            let answer: WisdomAnswer = serde_json::from_str(black_box(body)).unwrap_or_default();
            machine.answered(200, &answer, 0);
            black_box(machine.tick(5_000))
        })
    });
    c.bench_function("auth_callback/full_success", |b| {
        let user = IdentityUser {
            name: Some("Ada".into()),
            login_ids: vec!["discord-1".into()],
            ..IdentityUser::default()
        };
        b.iter(|| {
            let mut machine = AuthCallbackMachine::new(false);
            machine.start(Some("code"), None, Some("state"), Some("state"), 0);
            let outcome = ExchangeOutcome {
                ok: true,
                user: Some(user.clone()),
                ..ExchangeOutcome::default()
            };
            machine.exchanged(outcome, 1);
            black_box(machine.user_read(None));
            black_box(machine.profile_updated())
        })
    });
}

criterion_group!(benches, theme_machine, event_machines);
criterion_main!(benches);
