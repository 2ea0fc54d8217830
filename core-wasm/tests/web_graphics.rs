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

/// The bench page's three call shapes of a kernel give the same numbers: per operation (copies in
/// and out), per batch (copies the arrays), and zero-copy (views on a `KernelBuffers`' memory). Run
/// on the scalar build and on the `simd128` one (scripts/test-all.sh), where glam takes its SIMD path.
#[wasm_bindgen_test]
fn the_kernel_call_shapes_agree() {
    use mg_core::bindings::{
        mat4_mul, mat4_mul_batch_copy, mat4_mul_vec4, mat4_mul_vec4_batch_copy, quat_rotate,
        quat_rotate_batch_copy, KernelBuffers,
    };
    const N: usize = 5;
    let a: Vec<f32> = (0..16 * N)
        .map(|i| ((i * 7) % 11) as f32 * 0.5 - 2.0)
        .collect();
    let b: Vec<f32> = (0..16 * N)
        .map(|i| ((i * 5) % 13) as f32 * 0.25 - 1.0)
        .collect();
    let q = glam::Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7).to_array();
    let close = |x: &[f32], y: &[f32]| {
        assert_eq!(x.len(), y.len());
        for (x, y) in x.iter().zip(y) {
            assert!((x - y).abs() <= 1e-4 * (1.0 + x.abs()), "{x} vs {y}");
        }
    };

    let mut buffers = KernelBuffers::new(N as u32);
    assert_eq!(buffers.len() as usize, 16 * N);
    let view = |ptr: u32| {
        Float32Array::new_with_byte_offset_and_length(&memory().buffer(), ptr, (16 * N) as u32)
    };
    view(buffers.a_ptr()).copy_from(&a);
    view(buffers.b_ptr()).copy_from(&b);

    // mat4 x mat4
    let per_op: Vec<f32> = (0..N)
        .flat_map(|i| mat4_mul(&a[i * 16..][..16], &b[i * 16..][..16]))
        .collect();
    let mut per_batch = vec![0.0; 16 * N];
    mat4_mul_batch_copy(&a, &b, &mut per_batch);
    buffers.mat4_mul(N as u32);
    close(&per_op, &per_batch);
    close(&per_op, &view(buffers.out_ptr()).to_vec());

    // mat4 x vec4 over 4N points, with the first matrix of `a`
    let per_op: Vec<f32> = (0..4 * N)
        .flat_map(|i| mat4_mul_vec4(&a[..16], &b[i * 4..][..4]))
        .collect();
    mat4_mul_vec4_batch_copy(&a[..16], &b, &mut per_batch);
    buffers.mat4_mul_vec4(4 * N as u32);
    close(&per_op, &per_batch);
    close(&per_op, &view(buffers.out_ptr()).to_vec());

    // quaternion rotation of 4N points
    view(buffers.a_ptr()).subarray(0, 4).copy_from(&q);
    let per_op: Vec<f32> = (0..4 * N)
        .flat_map(|i| quat_rotate(&q, &b[i * 4..][..4]))
        .collect();
    quat_rotate_batch_copy(&q, &b, &mut per_batch);
    buffers.quat_rotate(4 * N as u32);
    close(&per_op, &per_batch);
    close(&per_op, &view(buffers.out_ptr()).to_vec());
    // A rotation keeps lengths.
    let p = glam::Vec3::from_slice(&b[..3]);
    let r = glam::Vec3::from_slice(&per_op[..3]);
    assert!((p.length() - r.length()).abs() < 1e-4);
}

/// The four-lane math (glam `Vec4`: wasm SIMD in the simd128 build, four scalar lanes otherwise)
/// keeps each scene's geometry, checked against plain scalar formulas in whichever build runs this.
#[wasm_bindgen_test]
fn the_four_lane_math_keeps_every_scene_s_geometry() {
    use mg_core::graphics::{
        helix, hypercube, kernels::quat_rotate_batch, molecule, read_position, DoubleHelixScene,
        HypercubeScene, MoleculeScene,
    };
    let mut helix = DoubleHelixScene::new();
    let mut cube = HypercubeScene::new();
    let mut molecule = MoleculeScene::new();
    molecule.drag(40.0, -25.0);
    for _ in 0..300 {
        helix.step();
        cube.step();
        molecule.step();
    }
    for i in 0..helix::VERTEX_COUNT {
        let p = read_position(helix.vertices(), i);
        assert!(
            (p.x.hypot(p.z) - helix::RADIUS).abs() < 1e-5,
            "helix point {i}"
        );
    }
    let rotated = cube.rotated_4d();
    for pair in cube.edge_indices().chunks_exact(2) {
        let length = rotated[pair[0] as usize].distance(rotated[pair[1] as usize]);
        assert!(
            (length - 2.0 * hypercube::HALF_SIZE).abs() < 1e-5,
            "{length}"
        );
    }
    for (k, bond) in molecule.bond_indices().chunks_exact(2).enumerate() {
        let atoms = molecule.atom_vertices();
        let length =
            read_position(atoms, bond[0] as usize).distance(read_position(atoms, bond[1] as usize));
        let rest = if k % 2 == 0 {
            molecule::INNER_BOND
        } else {
            molecule::OUTER_BOND
        };
        assert!(
            (length / rest - 1.0).abs() <= molecule::VIBRATION_AMPLITUDE + 1e-5,
            "bond {k}"
        );
    }
    let q = glam::Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 0.7);
    let points: Vec<f32> = (0..64).map(|i| (i as f32 * 0.61).sin() * 2.0).collect();
    let mut out = [0.0; 64];
    quat_rotate_batch(&q.to_array(), &points, &mut out);
    for (p, o) in points.chunks_exact(4).zip(out.chunks_exact(4)) {
        let want = q * glam::Vec3::from_slice(p);
        assert!(glam::Vec3::from_slice(o).abs_diff_eq(want, 1e-5) && o[3] == p[3]);
    }
}
