//! Host tests of the widget geometry (spec 2.9, 4 and 9): counts, radii, particle and radar rules, drag.
// One test binary for all the widget geometry (hence its length): each extra binary costs a link on
// the shared two-core machines.

use mg_core::graphics::hypercube::{
    self, HALF_SIZE, MAX_RADAR_CUBES, RADAR_MAX_SCALE, RADAR_STEP, ROTATION_STEP, SECONDARY_RATIO,
    TILT_AMPLITUDE, TILT_PERIOD_FRAMES, W_CAMERA_DISTANCE,
};
use mg_core::graphics::icosahedron::{
    self, SignalDirection, CORE_RADIUS, INWARD_SPAWN_CHANCE, MAX_INWARD, MAX_OUTWARD,
    OUTWARD_SPAWN_CHANCE, PARTICLE_LIFETIME_FRAMES, SHELL_RADIUS,
};
use mg_core::graphics::{read_position, HypercubeScene, IcosahedronScene, VERTEX_STRIDE};
use std::collections::HashSet;

const SEED: u64 = 20_261_122;

fn vertex_count(buffer: &[f32]) -> usize {
    assert_eq!(
        buffer.len() % VERTEX_STRIDE,
        0,
        "a partial vertex in the buffer"
    );
    buffer.len() / VERTEX_STRIDE
}

fn alpha(buffer: &[f32], i: usize) -> f32 {
    buffer[i * VERTEX_STRIDE + 3]
}

/// Unordered, de-duplicated vertex pairs of a `gl.LINES` index buffer.
fn edge_set(indices: &[u16]) -> HashSet<(u16, u16)> {
    indices
        .chunks_exact(2)
        .map(|pair| (pair[0].min(pair[1]), pair[0].max(pair[1])))
        .collect()
}

fn degrees(edges: &HashSet<(u16, u16)>, vertices: usize) -> Vec<usize> {
    let mut degree = vec![0; vertices];
    for &(a, b) in edges {
        degree[a as usize] += 1;
        degree[b as usize] += 1;
    }
    degree
}

#[test]
fn the_icosahedron_has_12_vertices_30_distinct_edges_and_20_faces() {
    let scene = IcosahedronScene::new(SEED);
    assert_eq!(vertex_count(scene.shell_vertices()), 12);
    let edges = edge_set(scene.shell_edge_indices());
    assert_eq!(scene.shell_edge_indices().len(), 30 * 2);
    assert_eq!(edges.len(), 30, "an edge is listed twice");
    assert!(
        degrees(&edges, 12).iter().all(|&d| d == 5),
        "every vertex meets 5 edges"
    );
    assert_eq!(scene.shell_face_indices().len(), 20 * 3);
    for face in scene.shell_face_indices().chunks_exact(3) {
        for (a, b) in [(face[0], face[1]), (face[1], face[2]), (face[0], face[2])] {
            assert!(
                edges.contains(&(a.min(b), a.max(b))),
                "face side {a}-{b} is not an edge"
            );
        }
    }
}

#[test]
fn every_shell_vertex_is_at_radius_1_5_and_every_core_vertex_at_0_5_while_it_turns() {
    let mut scene = IcosahedronScene::new(SEED);
    for frame in 0..1000 {
        if frame == 500 {
            scene.drag(137.0, -59.0);
        }
        let shell = scene.shell_vertices();
        for i in 0..vertex_count(shell) {
            let r = read_position(shell, i).length();
            assert!((r - SHELL_RADIUS).abs() < 1e-5, "shell vertex {i} at {r}");
        }
        let core = scene.core_vertices();
        assert_eq!(vertex_count(core), icosahedron::CORE_VERTEX_COUNT);
        for i in 0..vertex_count(core) {
            let r = read_position(core, i).length();
            assert!((r - CORE_RADIUS).abs() < 1e-5, "core vertex {i} at {r}");
        }
        scene.step();
    }
    assert_eq!(SHELL_RADIUS, 1.5);
    assert_eq!(CORE_RADIUS, 0.5);
}

#[test]
fn the_core_sphere_triangles_cover_a_closed_surface() {
    let scene = IcosahedronScene::new(SEED);
    let triangles = scene.core_triangle_indices();
    assert_eq!(triangles.len(), icosahedron::CORE_TRIANGLE_COUNT * 3);
    // A closed mesh uses every edge in exactly two triangles (Euler: V - E + F = 2).
    let mut uses = std::collections::HashMap::new();
    for t in triangles.chunks_exact(3) {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            *uses.entry((a.min(b), a.max(b))).or_insert(0) += 1;
        }
    }
    assert!(uses.values().all(|&n| n == 2));
    let (v, e, f) = (
        icosahedron::CORE_VERTEX_COUNT,
        uses.len(),
        triangles.len() / 3,
    );
    assert_eq!(v + f, e + 2);
}

#[test]
fn particle_limits_hold_over_10_000_frames_and_are_reached() {
    let mut scene = IcosahedronScene::new(SEED);
    let (mut most_out, mut most_in) = (0, 0);
    for _ in 0..10_000 {
        scene.step();
        let out = scene.alive_count(SignalDirection::Outward);
        let inward = scene.alive_count(SignalDirection::Inward);
        assert!(
            out <= MAX_OUTWARD && inward <= MAX_INWARD,
            "{out} out, {inward} in"
        );
        let buffer = scene.particle_vertices();
        let visible = (0..vertex_count(buffer))
            .filter(|&i| alpha(buffer, i) > 0.0)
            .count();
        assert_eq!(
            visible,
            out + inward,
            "every live particle and only those is drawn"
        );
        most_out = most_out.max(out);
        most_in = most_in.max(inward);
    }
    assert_eq!((MAX_OUTWARD, MAX_INWARD), (8, 6));
    assert_eq!(most_out, MAX_OUTWARD, "the outward cap was never exercised");
    assert!(most_in >= 4, "too few inward particles ever: {most_in}");
}

#[test]
fn particles_live_at_most_60_frames_and_end_early_on_reaching_their_target() {
    let mut scene = IcosahedronScene::new(SEED);
    let mut previous = scene.particles().to_vec();
    let (mut expired, mut arrived, mut oldest) = (0, 0, 0);
    for _ in 0..10_000 {
        scene.step();
        for (before, now) in previous.iter().zip(scene.particles()) {
            if now.is_alive() {
                assert!(now.age() <= PARTICLE_LIFETIME_FRAMES, "age {}", now.age());
                oldest = oldest.max(now.age());
            }
            // A slot that was alive and is now dead (or reborn at age 1) was just recycled.
            let recycled = before.is_alive() && (!now.is_alive() || now.age() < before.age());
            if recycled && before.age() == PARTICLE_LIFETIME_FRAMES {
                expired += 1;
            } else if recycled {
                arrived += 1;
            }
        }
        previous.copy_from_slice(scene.particles());
    }
    assert_eq!(PARTICLE_LIFETIME_FRAMES, 60);
    assert_eq!(oldest, PARTICLE_LIFETIME_FRAMES);
    assert!(expired > 50, "{expired} expired");
    assert!(arrived > 50, "{arrived} arrived");
}

#[test]
fn particles_travel_along_spokes_between_the_core_and_the_shell() {
    let mut scene = IcosahedronScene::new(SEED);
    let mut last_radius = [0.0f32; icosahedron::PARTICLE_COUNT];
    for _ in 0..2_000 {
        scene.step();
        let buffer = scene.particle_vertices();
        for (i, particle) in scene.particles().iter().enumerate() {
            if !particle.is_alive() {
                continue;
            }
            let r = read_position(buffer, i).length();
            assert!(
                (CORE_RADIUS - 1e-4..=SHELL_RADIUS + 1e-4).contains(&r),
                "radius {r}"
            );
            if particle.age() > 1 {
                match particle.direction() {
                    SignalDirection::Outward => assert!(r > last_radius[i]),
                    SignalDirection::Inward => assert!(r < last_radius[i]),
                }
            }
            last_radius[i] = r;
        }
    }
}

#[test]
fn spawn_rates_match_10_and_5_percent_per_frame_with_a_free_slot() {
    let mut scene = IcosahedronScene::new(SEED);
    let frames = 200_000;
    let (mut chances_out, mut chances_in) = (0u64, 0u64);
    for _ in 0..frames {
        // Spawning happens before moving, so a frame offers a chance when the previous frame
        // left a slot free.
        chances_out += u64::from(scene.alive_count(SignalDirection::Outward) < MAX_OUTWARD);
        chances_in += u64::from(scene.alive_count(SignalDirection::Inward) < MAX_INWARD);
        scene.step();
    }
    let out_rate = scene.spawned_count(SignalDirection::Outward) as f64 / chances_out as f64;
    let in_rate = scene.spawned_count(SignalDirection::Inward) as f64 / chances_in as f64;
    // Standard errors are about 0.0007 and 0.0005; 0.004 is over five of them.
    assert!((out_rate - 0.10).abs() < 0.004, "outward rate {out_rate}");
    assert!((in_rate - 0.05).abs() < 0.004, "inward rate {in_rate}");
    assert_eq!((OUTWARD_SPAWN_CHANCE, INWARD_SPAWN_CHANCE), (0.10, 0.05));
}

#[test]
fn the_same_seed_replays_the_same_frames_and_another_seed_does_not() {
    let run = |seed| {
        let mut scene = IcosahedronScene::new(seed);
        for _ in 0..300 {
            scene.step();
        }
        scene.particle_vertices().to_vec()
    };
    assert_eq!(run(SEED), run(SEED));
    assert_ne!(run(SEED), run(SEED + 1));
}

#[test]
fn auto_rotation_turns_0_003_per_frame_until_a_drag_stops_it() {
    let mut scene = IcosahedronScene::new(SEED);
    let before = scene.shell_vertices().to_vec();
    for _ in 0..10 {
        scene.step();
    }
    assert!((scene.orbit().yaw() - 0.03).abs() < 1e-6);
    assert_ne!(
        scene.shell_vertices(),
        &before[..],
        "the shape did not move"
    );
    assert!(scene.orbit().is_auto_rotating());

    scene.drag(0.0, 0.0);
    assert!(!scene.orbit().is_auto_rotating());
    let yaw = scene.orbit().yaw();
    scene.step();
    let still = scene.shell_vertices().to_vec();
    for _ in 0..100 {
        scene.step();
    }
    assert_eq!(scene.orbit().yaw(), yaw);
    assert_eq!(
        scene.shell_vertices(),
        &still[..],
        "the shell kept turning after a drag"
    );
}

#[test]
fn dragging_100_pixels_turns_half_a_radian() {
    let mut scene = IcosahedronScene::new(SEED);
    scene.drag(100.0, 0.0);
    assert!((scene.orbit().yaw() - 0.5).abs() < 1e-6);
    assert_eq!(scene.orbit().pitch(), 0.0);
    scene.drag(0.0, -100.0);
    assert!((scene.orbit().pitch() + 0.5).abs() < 1e-6);
    // A vertex on the vertical axis is moved by pitch only: 0.5 rad towards the viewer or away.
    scene.step();
    let top = scene.orbit().rotation() * glam::Vec3::Y;
    assert!((top.y - 0.5f32.cos()).abs() < 1e-6);
}

#[test]
fn buffers_keep_their_address_and_length_across_frames() {
    let mut scene = IcosahedronScene::new(SEED);
    let (ptr, len) = (
        scene.particle_vertices().as_ptr(),
        scene.particle_vertices().len(),
    );
    let shell = scene.shell_vertices().as_ptr();
    for _ in 0..500 {
        scene.step();
        scene.drag(3.0, 1.0);
    }
    assert_eq!(scene.particle_vertices().as_ptr(), ptr);
    assert_eq!(scene.particle_vertices().len(), len);
    assert_eq!(scene.shell_vertices().as_ptr(), shell);
}

#[test]
fn the_tesseract_has_16_vertices_32_edges_and_24_square_faces() {
    let scene = HypercubeScene::new();
    assert_eq!(vertex_count(scene.vertices()), 16);
    let edges = edge_set(scene.edge_indices());
    assert_eq!((scene.edge_indices().len(), edges.len()), (64, 32));
    assert!(
        degrees(&edges, 16).iter().all(|&d| d == 4),
        "every vertex meets 4 edges"
    );
    let faces = scene.face_indices();
    assert_eq!(faces.len(), 24 * 2 * 3);
    // Each square is two triangles sharing a diagonal: two sides of each are tesseract edges.
    let mut squares = HashSet::new();
    for t in faces.chunks_exact(3) {
        let sides = [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]
            .iter()
            .filter(|(a, b)| edges.contains(&(*a.min(b), *a.max(b))))
            .count();
        assert_eq!(sides, 2, "triangle {t:?}");
    }
    for quad in faces.chunks_exact(6) {
        let mut corners: Vec<u16> = quad.to_vec();
        corners.sort_unstable();
        corners.dedup();
        assert_eq!(corners.len(), 4);
        squares.insert(corners);
    }
    assert_eq!(squares.len(), 24, "a square face is listed twice");
}

#[test]
fn tesseract_edges_stay_equal_in_4d_while_it_rotates() {
    let mut scene = HypercubeScene::new();
    for frame in 0..2_000 {
        let rotated = scene.rotated_4d();
        for pair in scene.edge_indices().chunks_exact(2) {
            let length = rotated[pair[0] as usize].distance(rotated[pair[1] as usize]);
            assert!(
                (length - 2.0 * HALF_SIZE).abs() < 1e-5,
                "frame {frame}: {length}"
            );
        }
        scene.step();
    }
}

#[test]
fn projection_scales_each_point_by_the_w_perspective() {
    let mut scene = HypercubeScene::new();
    for _ in 0..77 {
        scene.step();
    }
    for (i, p) in scene.rotated_4d().iter().enumerate() {
        let expected = p.truncate().length() * W_CAMERA_DISTANCE / (W_CAMERA_DISTANCE - p.w);
        let projected = read_position(scene.vertices(), i).length();
        assert!((projected - expected).abs() < 1e-5, "vertex {i}");
    }
}

#[test]
fn rotation_constants_drive_the_xw_yw_and_tilt_angles() {
    let mut scene = HypercubeScene::new();
    scene.step();
    assert!((scene.xw_angle() - 0.005).abs() < 1e-7);
    assert!((scene.yw_angle() - 0.0025).abs() < 1e-7);
    for _ in 1..40 {
        scene.step();
    }
    assert!((scene.xw_angle() - 40.0 * 0.005).abs() < 1e-5);
    assert!((scene.tilt() - TILT_AMPLITUDE * 1.0f32.sin()).abs() < 1e-5);
    assert_eq!(
        (ROTATION_STEP, TILT_PERIOD_FRAMES, SECONDARY_RATIO),
        (0.005, 40.0, 0.5)
    );
}

#[test]
fn radar_cubes_never_exceed_two_and_grow_exactly_0_05_per_frame() {
    let mut scene = HypercubeScene::new();
    let mut previous = *scene.radar_cubes();
    let (mut both_alive, mut recycled, mut largest) = (0, 0, 0.0f32);
    for _ in 0..10_000 {
        scene.step();
        let cubes = scene.radar_cubes();
        let alive = cubes.iter().filter(|c| c.is_alive()).count();
        assert!(alive <= MAX_RADAR_CUBES);
        both_alive += usize::from(alive == 2);
        for (before, now) in previous.iter().zip(cubes) {
            largest = largest.max(now.scale());
            assert!(now.scale() <= RADAR_MAX_SCALE + 1e-6);
            if before.is_alive() && now.is_alive() && now.scale() > 0.0 {
                assert!((now.scale() - before.scale() - RADAR_STEP).abs() < 1e-6);
            } else if before.is_alive() {
                recycled += 1;
            }
        }
        previous = *cubes;
    }
    assert_eq!((MAX_RADAR_CUBES, RADAR_STEP), (2, 0.05));
    assert!(
        both_alive > 5_000,
        "two pulses were rarely alive together: {both_alive}"
    );
    assert!(recycled > 100);
    assert!((largest - RADAR_MAX_SCALE).abs() < 1e-6);
}

#[test]
fn a_radar_cube_fades_as_it_grows_and_a_dead_one_is_invisible() {
    let mut scene = HypercubeScene::new();
    for _ in 0..10 {
        scene.step();
    }
    let buffer = scene.radar_vertices();
    assert_eq!(vertex_count(buffer), MAX_RADAR_CUBES * 8);
    for (c, cube) in scene.radar_cubes().iter().enumerate() {
        for corner in 0..8 {
            let a = alpha(buffer, c * 8 + corner);
            let expected = if cube.is_alive() {
                1.0 - cube.scale() / RADAR_MAX_SCALE
            } else {
                0.0
            };
            assert!((a - expected).abs() < 1e-6);
            let r = read_position(buffer, c * 8 + corner).length();
            assert!((r - cube.scale() * HALF_SIZE * 3f32.sqrt()).abs() < 1e-5);
        }
    }
    assert!(
        scene.radar_cubes().iter().any(|c| !c.is_alive()),
        "the second pulse is not due yet"
    );
}

#[test]
fn dragging_the_hypercube_stops_its_yaw_but_not_its_4d_turn() {
    let mut scene = HypercubeScene::new();
    scene.drag(100.0, 100.0);
    assert!((scene.orbit().yaw() - 0.5).abs() < 1e-6);
    assert!((scene.orbit().pitch() - 0.5).abs() < 1e-6);
    let xw = scene.xw_angle();
    for _ in 0..10 {
        scene.step();
    }
    assert!((scene.orbit().yaw() - 0.5).abs() < 1e-6);
    assert!(scene.xw_angle() > xw);
}

#[test]
fn nothing_leaves_the_bounding_radius_over_10_000_frames() {
    let mut ico = IcosahedronScene::new(SEED);
    let mut cube = HypercubeScene::new();
    for _ in 0..10_000 {
        ico.step();
        cube.step();
        for buffer in [
            ico.shell_vertices(),
            ico.particle_vertices(),
            ico.core_vertices(),
        ] {
            for i in 0..vertex_count(buffer) {
                assert!(read_position(buffer, i).length() <= icosahedron::BOUNDING_RADIUS + 1e-5);
            }
        }
        for buffer in [cube.vertices(), cube.radar_vertices()] {
            for i in 0..vertex_count(buffer) {
                assert!(read_position(buffer, i).length() <= hypercube::BOUNDING_RADIUS + 1e-5);
            }
        }
    }
}
