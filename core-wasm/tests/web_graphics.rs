//! The graphics package's widgets in a real browser (`--features graphics`): their buffers read the
//! way the renderers read them, typed-array views over wasm memory rebuilt from `memory.buffer` each
//! frame, also after the memory has grown.
#![cfg(all(target_arch = "wasm32", feature = "graphics"))]

use js_sys::{Float32Array, Uint16Array, WebAssembly};
use mg_core::bindings::{
    vertex_stride, wasm_memory, HelixWidget, HypercubeWidget, IcosahedronWidget, MoleculeWidget,
};
use mg_core::graphics::IcosahedronScene;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn memory() -> WebAssembly::Memory {
    wasm_memory().dyn_into().expect("a WebAssembly.Memory")
}

/// A fresh view, as the renderer builds one every frame.
fn floats(ptr: u32, len: u32) -> Vec<f32> {
    Float32Array::new_with_byte_offset_and_length(&memory().buffer(), ptr, len).to_vec()
}

fn indices(ptr: u32, len: u32) -> Vec<u16> {
    Uint16Array::new_with_byte_offset_and_length(&memory().buffer(), ptr, len).to_vec()
}

#[wasm_bindgen_test]
fn the_icosahedron_view_shows_what_the_scene_computed_frame_after_frame() {
    let mut widget = IcosahedronWidget::new(42);
    let mut reference = IcosahedronScene::new(42);
    assert_eq!(vertex_stride(), 4);
    assert_eq!(widget.shell_vertices_len(), 12 * 4);
    assert_eq!(widget.shell_edges_len(), 30 * 2);
    assert_eq!(widget.shell_faces_len(), 20 * 3);
    assert_eq!(widget.particle_vertices_len(), 14 * 4);
    let ptr = widget.shell_vertices_ptr();
    for _ in 0..120 {
        widget.step();
        reference.step();
        assert_eq!(widget.shell_vertices_ptr(), ptr, "the buffer never moves");
        let view = floats(ptr, widget.shell_vertices_len());
        assert_eq!(view, reference.shell_vertices());
        let particles = floats(
            widget.particle_vertices_ptr(),
            widget.particle_vertices_len(),
        );
        assert_eq!(particles, reference.particle_vertices());
    }
    let edges = indices(widget.shell_edges_ptr(), widget.shell_edges_len());
    assert_eq!(edges, reference.shell_edge_indices());
}

#[wasm_bindgen_test]
fn a_view_rebuilt_after_memory_growth_stays_valid_while_a_kept_one_is_detached() {
    let mut widget = HypercubeWidget::new();
    widget.step();
    let (ptr, len) = (widget.vertices_ptr(), widget.vertices_len());
    let kept = Float32Array::new_with_byte_offset_and_length(&memory().buffer(), ptr, len);
    let before = kept.to_vec();
    let pages_before = memory()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length();

    // Force the memory to grow: a block larger than anything allocated so far.
    let big = vec![1u8; 64 << 20];
    let pages_after = memory()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length();
    assert!(pages_after > pages_before, "memory grew");
    assert_eq!(kept.length(), 0, "a view kept across growth is detached");

    widget.step();
    let fresh = floats(ptr, len);
    assert_eq!(fresh.len(), len as usize);
    assert_ne!(fresh, before, "the frame moved on");
    assert!(fresh.iter().all(|v| v.is_finite()));
    assert_eq!(widget.vertices_ptr(), ptr);
    drop(big);
}

#[wasm_bindgen_test]
fn every_widget_exposes_drawable_buffers_that_change_between_frames() {
    let mut helix = HelixWidget::new();
    let first = floats(helix.vertices_ptr(), helix.vertices_len());
    helix.step();
    assert_ne!(floats(helix.vertices_ptr(), helix.vertices_len()), first);
    assert_eq!(helix.strands_len(), 94 * 2);
    assert_eq!(helix.rungs_len(), 16 * 2);

    let mut molecule = MoleculeWidget::new();
    let first = floats(molecule.atoms_ptr(), molecule.atoms_len());
    molecule.step();
    assert_ne!(floats(molecule.atoms_ptr(), molecule.atoms_len()), first);
    let bonds = indices(molecule.bonds_ptr(), molecule.bonds_len());
    assert_eq!(bonds.len(), 16);
    assert!(bonds.iter().all(|&i| i < 9));

    let mut cube = HypercubeWidget::new();
    assert_eq!(cube.edges_len(), 32 * 2);
    assert_eq!(cube.faces_len(), 48 * 3);
    assert_eq!(cube.radar_vertices_len(), 2 * 8 * 4);
    for _ in 0..10 {
        cube.step();
    }
    let radar = floats(cube.radar_vertices_ptr(), cube.radar_vertices_len());
    assert!(
        radar.chunks_exact(4).any(|v| v[3] > 0.0),
        "a radar cube is alive"
    );
    let radar_edges = indices(cube.radar_edges_ptr(), cube.radar_edges_len());
    assert!(radar_edges.iter().all(|&i| i < 16));
}

#[wasm_bindgen_test]
fn dragging_changes_the_next_frame() {
    let mut dragged = MoleculeWidget::new();
    let mut still = MoleculeWidget::new();
    dragged.drag(40.0, -10.0);
    dragged.step();
    still.step();
    assert_ne!(
        floats(dragged.atoms_ptr(), dragged.atoms_len()),
        floats(still.atoms_ptr(), still.atoms_len())
    );
    let mut ico = IcosahedronWidget::new(1);
    ico.drag(10.0, 0.0);
    ico.step();
    assert_eq!(ico.core_triangles_len() % 3, 0);
    assert_eq!(ico.core_vertices_len() % 4, 0);
}
