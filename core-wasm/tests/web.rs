//! The wasm facade exercised through the JavaScript boundary in a real browser.
#![cfg(target_arch = "wasm32")]

use mg_core::bindings::ThemeMachine;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn theme_machine_starts_from_storage_and_toggles() {
    let mut machine = ThemeMachine::new(Some("void".into()));
    assert_eq!(machine.theme(), "void");
    assert_eq!(machine.toggle(), "cosmic");
    assert_eq!(machine.toggle(), "void");
}

#[wasm_bindgen_test]
fn theme_machine_reads_unknown_values_as_cosmic() {
    let machine = ThemeMachine::new(Some("neon".into()));
    assert_eq!(machine.theme(), "cosmic");
    assert_eq!(ThemeMachine::new(None).theme(), "cosmic");
    assert_eq!(ThemeMachine::storage_key(), "theme");
}

#[wasm_bindgen_test]
fn theme_machine_round_trips_through_local_storage() {
    let storage = web_sys_storage();
    storage.set_item("theme", "void").expect("write storage");
    let stored = storage.get_item("theme").expect("read storage");
    let mut machine = ThemeMachine::new(stored);
    let next = machine.toggle();
    storage.set_item("theme", &next).expect("write storage");
    assert_eq!(
        storage.get_item("theme").expect("read").as_deref(),
        Some("cosmic")
    );
}

fn web_sys_storage() -> web_sys::Storage {
    web_sys::window()
        .expect("window")
        .local_storage()
        .expect("storage access")
        .expect("storage present")
}
