//! A double helix for the docs and Telekinesis pages: two spinning strands joined by rungs, with a
//! light pulse running up them.

use super::default_new::default_is_new;
use super::lanes::{sin4, Points4, LANES};
use super::orbit::{orbit_controls, wrap_angle, Orbit};
use super::vertex::VERTEX_STRIDE;
use glam::{Mat3, Vec3, Vec4};
use std::f32::consts::{PI, TAU};

/// Points along each strand.
pub const POINTS_PER_STRAND: usize = 48;
/// Vertices in total: strand A's points, then strand B's.
pub const VERTEX_COUNT: usize = 2 * POINTS_PER_STRAND;
/// Line segments along the two strands.
pub const STRAND_SEGMENT_COUNT: usize = 2 * (POINTS_PER_STRAND - 1);
/// A rung (base pair) joins the strands at every this-many points.
pub const RUNG_SPACING: usize = 3;
/// Rungs between the strands.
pub const RUNG_COUNT: usize = POINTS_PER_STRAND.div_ceil(RUNG_SPACING);
/// Distance of each strand from the axis.
pub const RADIUS: f32 = 0.8;
/// Length of the helix along its (vertical) axis, centred on the origin.
pub const HEIGHT: f32 = 4.0;
/// Full turns of each strand over the height.
pub const TURNS: f32 = 2.0;
/// Radians per frame the helix spins about its own axis while auto-rotating.
pub const SPIN_PER_FRAME: f32 = 0.01;
/// Radians per frame the light pulse's phase advances; it climbs about one point every 5 frames.
pub const PULSE_PER_FRAME: f32 = 0.08;
/// Radians of pulse phase between neighbouring points, so a few bright bands sit on the strands.
const PULSE_PER_POINT: f32 = 0.4;
/// sin and cos of the pulse phase between one group of four points and the next (4 × 0.4 rad).
const GROUP_STEP_SIN: f32 = 0.999_573_6;
const GROUP_STEP_COS: f32 = -0.029_199_522;

/// Every point lies within this distance of the origin: the end points at full radius.
pub const BOUNDING_RADIUS: f32 = 2.154_066; // sqrt(RADIUS² + (HEIGHT / 2)²)

/// The double helix scene. Draw [`vertices`](Self::vertices) with
/// [`strand_indices`](Self::strand_indices) and [`rung_indices`](Self::rung_indices) as
/// `gl.LINES` (and as `gl.POINTS` if you like beads); `a` carries the travelling pulse, `0.35..=1`.
#[derive(Debug, Clone)]
pub struct DoubleHelixScene {
    orbit: Orbit,
    pulse_phase: f32,
    /// Strand A's points then strand B's, four to a group.
    model: Points4,
    vertices: Box<[f32]>,
    strands: Box<[u16]>,
    rungs: Box<[u16]>,
}

default_is_new!(DoubleHelixScene);

impl DoubleHelixScene {
    /// Builds the helix, with its buffers already holding a drawable frame.
    pub fn new() -> Self {
        let mut model = Vec::with_capacity(VERTEX_COUNT);
        for strand_offset in [0.0, PI] {
            for i in 0..POINTS_PER_STRAND {
                let t = i as f32 / (POINTS_PER_STRAND - 1) as f32;
                let angle = t * TURNS * TAU + strand_offset;
                model.push(Vec3::new(
                    RADIUS * angle.cos(),
                    (t - 0.5) * HEIGHT,
                    RADIUS * angle.sin(),
                ));
            }
        }
        let mut strands = Vec::with_capacity(STRAND_SEGMENT_COUNT * 2);
        for start in [0, POINTS_PER_STRAND] {
            for i in start..start + POINTS_PER_STRAND - 1 {
                strands.extend([i as u16, (i + 1) as u16]);
            }
        }
        let mut rungs = Vec::with_capacity(RUNG_COUNT * 2);
        for i in (0..POINTS_PER_STRAND).step_by(RUNG_SPACING) {
            rungs.extend([i as u16, (i + POINTS_PER_STRAND) as u16]);
        }
        let mut scene = DoubleHelixScene {
            orbit: Orbit::new(SPIN_PER_FRAME),
            pulse_phase: 0.0,
            model: Points4::new(&model),
            vertices: vec![0.0; VERTEX_COUNT * VERTEX_STRIDE].into_boxed_slice(),
            strands: strands.into_boxed_slice(),
            rungs: rungs.into_boxed_slice(),
        };
        scene.write_buffers();
        scene
    }

    /// Advances one frame (spin and pulse) and rewrites the vertex buffer. Allocates nothing.
    pub fn step(&mut self) {
        self.orbit.advance();
        self.pulse_phase = wrap_angle(self.pulse_phase + PULSE_PER_FRAME);
        self.write_buffers();
    }

    orbit_controls!();

    /// Vertices, `x, y, z, a` × [`VERTEX_COUNT`]: strand A then strand B, bottom to top.
    pub fn vertices(&self) -> &[f32] {
        &self.vertices
    }

    /// Strand segments as index pairs ([`STRAND_SEGMENT_COUNT`]). Never changes.
    pub fn strand_indices(&self) -> &[u16] {
        &self.strands
    }

    /// Rungs as index pairs ([`RUNG_COUNT`]). Never changes.
    pub fn rung_indices(&self) -> &[u16] {
        &self.rungs
    }

    fn write_buffers(&mut self) {
        const GROUPS: usize = POINTS_PER_STRAND / LANES;
        let rotation: Mat3 = self.orbit.rotation();
        // sin(k·Δ − phase) for every point k: two four-lane sines for the first four points, then
        // each group is the previous one turned by 4Δ (a rotation of the (sin, cos) pairs), and
        // both strands share the values.
        let start = Vec4::new(0.0, 1.0, 2.0, 3.0) * PULSE_PER_POINT - Vec4::splat(self.pulse_phase);
        let mut s = sin4(start);
        let mut c = sin4(start + Vec4::splat(core::f32::consts::FRAC_PI_2));
        let (step_sin, step_cos) = (Vec4::splat(GROUP_STEP_SIN), Vec4::splat(GROUP_STEP_COS));
        let mut pulse = [Vec4::ZERO; GROUPS];
        for value in &mut pulse {
            *value = Vec4::splat(0.35) + (Vec4::splat(0.5) + s * 0.5) * 0.65;
            (s, c) = (s * step_cos + c * step_sin, c * step_cos - s * step_sin);
        }
        self.model
            .write_rotated(&rotation, |g| pulse[g % GROUPS], &mut self.vertices);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphics::read_position;

    #[test]
    fn the_helix_has_two_strands_of_48_points_joined_by_16_rungs() {
        let scene = DoubleHelixScene::new();
        assert_eq!(scene.vertices().len(), 96 * VERTEX_STRIDE);
        assert_eq!(scene.strand_indices().len(), 94 * 2);
        assert_eq!(scene.rung_indices().len(), 16 * 2);
        for rung in scene.rung_indices().chunks_exact(2) {
            assert_eq!(
                rung[1] as usize - rung[0] as usize,
                POINTS_PER_STRAND,
                "a rung joins facing points"
            );
        }
    }

    #[test]
    fn strands_stay_0_8_from_the_axis_while_spinning_and_rungs_cross_it() {
        let mut scene = DoubleHelixScene::new();
        for _ in 0..500 {
            scene.step();
            for i in 0..VERTEX_COUNT {
                let p = read_position(scene.vertices(), i);
                assert!((p.x.hypot(p.z) - RADIUS).abs() < 1e-5);
                assert!(p.length() <= BOUNDING_RADIUS + 1e-5);
            }
            for rung in scene.rung_indices().chunks_exact(2) {
                let a = read_position(scene.vertices(), rung[0] as usize);
                let b = read_position(scene.vertices(), rung[1] as usize);
                assert!(
                    (a + b).x.abs() < 1e-5 && (a + b).z.abs() < 1e-5,
                    "strands are opposite"
                );
            }
        }
    }

    #[test]
    fn the_pulse_follows_a_sine_along_each_strand() {
        let mut scene = DoubleHelixScene::new();
        for _ in 0..37 {
            scene.step();
        }
        for i in 0..VERTEX_COUNT {
            let along = (i % POINTS_PER_STRAND) as f32;
            let expected =
                0.35 + 0.65 * (0.5 + 0.5 * (along * PULSE_PER_POINT - scene.pulse_phase).sin());
            let a = scene.vertices()[i * VERTEX_STRIDE + 3];
            assert!((a - expected).abs() < 1e-4, "point {i}: {a} vs {expected}");
        }
    }

    #[test]
    fn the_group_step_is_four_points_of_pulse() {
        let (sin, cos) = (4.0 * PULSE_PER_POINT).sin_cos();
        assert!((sin - GROUP_STEP_SIN).abs() < 1e-7 && (cos - GROUP_STEP_COS).abs() < 1e-7);
    }

    #[test]
    fn the_pulse_moves_between_frames_and_a_drag_stops_the_spin() {
        let mut scene = DoubleHelixScene::new();
        let first = scene.vertices().to_vec();
        scene.step();
        assert_ne!(scene.vertices(), &first[..]);
        scene.drag(100.0, 0.0);
        assert!((scene.orbit().yaw() - (SPIN_PER_FRAME + 0.5)).abs() < 1e-6);
        scene.step();
        let yaw = scene.orbit().yaw();
        scene.step();
        assert_eq!(scene.orbit().yaw(), yaw);
    }
}
