//! Widget 2: a tesseract rotating in 4D, projected to 3D, with translucent faces and radar cube pulses.

use super::default_new::default_is_new;
use super::lanes::{sin4, sin_cos2, write_group, Points4, Splat3, LANES};
use super::orbit::{orbit_controls, wrap_angle, Orbit, AUTO_ROTATION_PER_FRAME};
use super::vertex::VERTEX_STRIDE;
use glam::{Mat3, Mat4, Vec3, Vec4};
use std::f32::consts::{FRAC_PI_2, TAU};

/// Vertices of a tesseract (spec 2.9: 16).
pub const VERTEX_COUNT: usize = 16;
/// Edges of a tesseract: vertex pairs differing in one coordinate.
pub const EDGE_COUNT: usize = 32;
/// Square faces of a tesseract: 6 coordinate planes × 4 positions of the other two axes.
pub const FACE_COUNT: usize = 24;
/// Triangles drawn for the translucent faces, two per square.
pub const FACE_TRIANGLE_COUNT: usize = FACE_COUNT * 2;

/// Half the edge length in 4D: every coordinate is ±`HALF_SIZE` before rotation.
pub const HALF_SIZE: f32 = 0.6;
/// Distance of the 4D eye from the origin along w. A point is projected to 3D by scaling its
/// `x, y, z` by `W_CAMERA_DISTANCE / (W_CAMERA_DISTANCE - w)`: the half nearer in w grows, the
/// farther half shrinks, which is what makes the inner cube appear.
pub const W_CAMERA_DISTANCE: f32 = 3.0;

/// Rotation speed constant 0.005 (spec 9): radians per frame added to the XW-plane angle, the
/// main 4D turn that carries the inner cube outward through the outer one.
pub const ROTATION_STEP: f32 = 0.005;
/// Rotation speed constant 0.5 (spec 9): the YW-plane angle turns at this fraction of the XW
/// angle, so the two 4D rotations drift against each other and the motion never looks looped.
pub const SECONDARY_RATIO: f32 = 0.5;
/// Rotation speed constant 40 (spec 9): frames per radian of the slow 3D tilt wobble about the
/// horizontal axis; one full wobble takes 2π × 40 ≈ 251 frames (about 4 s at 60 fps).
pub const TILT_PERIOD_FRAMES: f32 = 40.0;
/// Largest angle of the tilt wobble, in radians.
pub const TILT_AMPLITUDE: f32 = 0.35;

/// At most this many radar cubes are alive at once (spec 9).
pub const MAX_RADAR_CUBES: usize = 2;
/// Scale added to a radar cube every frame (spec 9: 0.05 per frame).
pub const RADAR_STEP: f32 = 0.05;
/// Frames a radar cube lives: its scale runs from 0 to `RADAR_STEP × RADAR_LIFETIME_FRAMES`.
pub const RADAR_LIFETIME_FRAMES: u32 = 50;
/// The largest scale a radar cube reaches before it is recycled.
pub const RADAR_MAX_SCALE: f32 = RADAR_STEP * RADAR_LIFETIME_FRAMES as f32;
/// Vertices of one radar cube.
pub const RADAR_VERTICES_PER_CUBE: usize = 8;
/// Edges of one radar cube.
pub const RADAR_EDGES_PER_CUBE: usize = 12;

/// Every point of the scene lies within this distance of the origin: a radar cube's corner at
/// its largest (`RADAR_MAX_SCALE × HALF_SIZE × √3`), which is beyond the projected tesseract
/// (at most `2·HALF_SIZE · D / (D − 2·HALF_SIZE)` = 2.0).
pub const BOUNDING_RADIUS: f32 = RADAR_MAX_SCALE * HALF_SIZE * 1.732_051;

/// One radar pulse slot: a cube that grows from nothing, fades, and is recycled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RadarCube {
    alive: bool,
    age: u32,
}

impl RadarCube {
    /// Whether the cube is drawn this frame.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// The cube's scale: `RADAR_STEP` × frames since it started, exactly.
    pub fn scale(&self) -> f32 {
        if self.alive {
            // From the integer age rather than summed floats, so every step is exactly 0.05.
            self.age as f32 * RADAR_STEP
        } else {
            0.0
        }
    }

    fn intensity(&self) -> f32 {
        if self.alive {
            1.0 - self.scale() / RADAR_MAX_SCALE
        } else {
            0.0
        }
    }
}

/// Widget 2's scene. Construct once, call [`step`](Self::step) every frame, then draw:
///
/// - [`vertices`](Self::vertices) (projected to 3D; `a` is a depth cue from w, `0.35..=1`) with
///   [`edge_indices`](Self::edge_indices) as `gl.LINES` and [`face_indices`](Self::face_indices)
///   as translucent `gl.TRIANGLES` (multiply `a` by a low face opacity, blend, no depth write);
/// - [`radar_vertices`](Self::radar_vertices) with [`radar_edge_indices`](Self::radar_edge_indices)
///   as `gl.LINES`; a dead cube's vertices have `a == 0`.
#[derive(Debug, Clone)]
pub struct HypercubeScene {
    orbit: Orbit,
    xw_angle: f32,
    yw_angle: f32,
    tilt_phase: f32,
    /// `sin(tilt_phase)` and the sine of the next frame's phase, each computed in a spare lane of
    /// the frame before (so a frame's trigonometry is two four-lane sines and no `sinf` call).
    tilt_sine: f32,
    next_tilt_sine: f32,
    /// The 16 vertices as four groups of `[xs, ys, zs, ws]`.
    model: [[Vec4; 4]; VERTEX_COUNT / LANES],
    /// The vertices after the 4D rotation, in the same groups.
    rotated: [[Vec4; 4]; VERTEX_COUNT / LANES],
    /// The 8 corners of a radar cube of scale 1.
    radar_corners: Points4,
    radar: [RadarCube; MAX_RADAR_CUBES],
    vertices: Box<[f32]>,
    edges: Box<[u16]>,
    faces: Box<[u16]>,
    radar_vertices: Box<[f32]>,
    radar_edges: Box<[u16]>,
}

default_is_new!(HypercubeScene);

impl HypercubeScene {
    /// Builds the scene at rest, with its buffers already holding a drawable frame.
    pub fn new() -> Self {
        let mut model = [Vec4::ZERO; VERTEX_COUNT];
        for (i, vertex) in model.iter_mut().enumerate() {
            // Bit k of the index picks the sign of coordinate k.
            let sign = |k: usize| {
                if i >> k & 1 == 1 {
                    HALF_SIZE
                } else {
                    -HALF_SIZE
                }
            };
            *vertex = Vec4::new(sign(0), sign(1), sign(2), sign(3));
        }
        let mut lanes = [[Vec4::ZERO; 4]; VERTEX_COUNT / LANES];
        for (group, points) in lanes.iter_mut().zip(model.chunks_exact(LANES)) {
            let m = Mat4::from_cols(points[0], points[1], points[2], points[3]).transpose();
            *group = [m.x_axis, m.y_axis, m.z_axis, m.w_axis];
        }
        let corners: Vec<Vec3> = (0..RADAR_VERTICES_PER_CUBE)
            .map(|corner| {
                let sign = |k: usize| if corner >> k & 1 == 1 { 1.0 } else { -1.0 };
                Vec3::new(sign(0), sign(1), sign(2))
            })
            .collect();
        let mut scene = HypercubeScene {
            orbit: Orbit::new(AUTO_ROTATION_PER_FRAME),
            xw_angle: 0.0,
            yw_angle: 0.0,
            tilt_phase: 0.0,
            tilt_sine: 0.0,
            next_tilt_sine: 0.0,
            model: lanes,
            rotated: lanes,
            radar_corners: Points4::new(&corners),
            radar: [RadarCube::default(); MAX_RADAR_CUBES],
            vertices: vec![0.0; VERTEX_COUNT * VERTEX_STRIDE].into_boxed_slice(),
            edges: tesseract_edges(),
            faces: tesseract_faces(),
            radar_vertices: vec![0.0; MAX_RADAR_CUBES * RADAR_VERTICES_PER_CUBE * VERTEX_STRIDE]
                .into_boxed_slice(),
            radar_edges: radar_edges(),
        };
        scene.write_buffers();
        scene
    }

    /// Advances one frame: the 4D rotation (XW by [`ROTATION_STEP`], YW at
    /// [`SECONDARY_RATIO`] of it), the tilt wobble, auto-yaw and the radar pulses; then
    /// rewrites the vertex buffers in place. Allocates nothing. A drag stops only the 3D
    /// auto-yaw: the 4D rotation goes on, since it is what the shape is about.
    pub fn step(&mut self) {
        self.xw_angle = wrap_angle(self.xw_angle + ROTATION_STEP);
        self.yw_angle = wrap_angle(self.yw_angle + ROTATION_STEP * SECONDARY_RATIO);
        self.tilt_phase = next_tilt_phase(self.tilt_phase);
        self.tilt_sine = self.next_tilt_sine;
        self.orbit.advance();
        self.step_radar();
        self.write_buffers();
    }

    orbit_controls!();

    /// The XW-plane angle in radians.
    pub fn xw_angle(&self) -> f32 {
        self.xw_angle
    }

    /// The YW-plane angle in radians.
    pub fn yw_angle(&self) -> f32 {
        self.yw_angle
    }

    /// The current tilt about the horizontal axis, in radians.
    pub fn tilt(&self) -> f32 {
        TILT_AMPLITUDE * self.tilt_phase.sin()
    }

    /// The 16 vertices after the 4D rotation and before projection.
    pub fn rotated_4d(&self) -> [Vec4; VERTEX_COUNT] {
        let mut points = [Vec4::ZERO; VERTEX_COUNT];
        for (out, &[x, y, z, w]) in points.chunks_exact_mut(LANES).zip(&self.rotated) {
            let m = Mat4::from_cols(x, y, z, w).transpose();
            out.copy_from_slice(&[m.x_axis, m.y_axis, m.z_axis, m.w_axis]);
        }
        points
    }

    /// Projected vertices, `x, y, z, a` × [`VERTEX_COUNT`]; `a` is brighter for points nearer in w.
    pub fn vertices(&self) -> &[f32] {
        &self.vertices
    }

    /// Edges as index pairs for `gl.LINES` ([`EDGE_COUNT`] pairs). Never changes.
    pub fn edge_indices(&self) -> &[u16] {
        &self.edges
    }

    /// Faces as index triples for `gl.TRIANGLES` ([`FACE_TRIANGLE_COUNT`]). Never changes.
    pub fn face_indices(&self) -> &[u16] {
        &self.faces
    }

    /// Radar cube corners, `x, y, z, a` × 8 per cube × [`MAX_RADAR_CUBES`]; `a` fades from 1
    /// to 0 as the cube grows, and is 0 for a dead cube.
    pub fn radar_vertices(&self) -> &[f32] {
        &self.radar_vertices
    }

    /// Radar cube edges as index pairs into [`radar_vertices`](Self::radar_vertices). Never changes.
    pub fn radar_edge_indices(&self) -> &[u16] {
        &self.radar_edges
    }

    /// The radar cube slots.
    pub fn radar_cubes(&self) -> &[RadarCube; MAX_RADAR_CUBES] {
        &self.radar
    }

    /// Grows live pulses and starts a new one when a slot is free and the youngest pulse is
    /// halfway out, so two pulses ripple evenly spaced.
    fn step_radar(&mut self) {
        for cube in &mut self.radar {
            if cube.alive {
                cube.age += 1;
                if cube.age > RADAR_LIFETIME_FRAMES {
                    *cube = RadarCube::default();
                }
            }
        }
        let youngest = self.radar.iter().filter(|c| c.alive).map(|c| c.age).min();
        let spacing = RADAR_LIFETIME_FRAMES / MAX_RADAR_CUBES as u32;
        if youngest.is_none_or(|age| age >= spacing) {
            if let Some(free) = self.radar.iter_mut().find(|c| !c.alive) {
                *free = RadarCube {
                    alive: true,
                    age: 0,
                };
            }
        }
    }

    fn write_buffers(&mut self) {
        let [sin_xw, cos_xw, sin_yw, cos_yw] = sin_cos2(self.xw_angle, self.yw_angle).to_array();
        let tilt = TILT_AMPLITUDE * self.tilt_sine;
        let [sin_tilt, cos_tilt, next_sine, _] = sin4(Vec4::new(
            tilt,
            tilt + FRAC_PI_2,
            next_tilt_phase(self.tilt_phase),
            0.0,
        ))
        .to_array();
        self.next_tilt_sine = next_sine;
        // orbit × Mat3::from_rotation_x(tilt), multiplied out: the tilt keeps x and turns y and z.
        let orbit = self.orbit.rotation();
        let rotation = Mat3::from_cols(
            orbit.x_axis,
            orbit.y_axis * cos_tilt + orbit.z_axis * sin_tilt,
            orbit.z_axis * cos_tilt - orbit.y_axis * sin_tilt,
        );
        let splat = Splat3::new(&rotation);
        let (sin_xw, cos_xw) = (Vec4::splat(sin_xw), Vec4::splat(cos_xw));
        let (sin_yw, cos_yw) = (Vec4::splat(sin_yw), Vec4::splat(cos_yw));
        for (g, &[px, py, pz, pw]) in self.model.iter().enumerate() {
            // XW rotation, then YW rotation of the result, four vertices at a time.
            let (x, w) = (px * cos_xw - pw * sin_xw, px * sin_xw + pw * cos_xw);
            let (y, w) = (py * cos_yw - w * sin_yw, py * sin_yw + w * cos_yw);
            self.rotated[g] = [x, y, pz, w];
            let perspective = Vec4::splat(W_CAMERA_DISTANCE) / (Vec4::splat(W_CAMERA_DISTANCE) - w);
            let projected = splat.apply([x * perspective, y * perspective, pz * perspective]);
            // w spans ±2·HALF_SIZE; map it to 0.35..1 so the near cell reads brighter.
            let depth = (w * (1.0 / (2.0 * HALF_SIZE)) + Vec4::ONE) * 0.5;
            write_group(
                &mut self.vertices,
                g,
                projected,
                Vec4::splat(0.35) + depth * 0.65,
            );
        }
        let per_cube = RADAR_VERTICES_PER_CUBE * VERTEX_STRIDE;
        for (cube, out) in self
            .radar
            .iter()
            .zip(self.radar_vertices.chunks_exact_mut(per_cube))
        {
            let scaled = rotation * (cube.scale() * HALF_SIZE);
            let intensity = Vec4::splat(cube.intensity());
            self.radar_corners
                .write_rotated(&scaled, |_| intensity, out);
        }
    }
}

/// The tilt wobble's phase one frame on: a subtraction rather than `%`, which is a library call
/// (fmodf) in wasm.
fn next_tilt_phase(phase: f32) -> f32 {
    let next = phase + 1.0 / TILT_PERIOD_FRAMES;
    if next >= TAU {
        next - TAU
    } else {
        next
    }
}

/// Vertex pairs whose indices differ in exactly one bit, i.e. in one coordinate.
fn tesseract_edges() -> Box<[u16]> {
    let mut edges = Vec::with_capacity(EDGE_COUNT * 2);
    for i in 0..VERTEX_COUNT as u16 {
        for bit in 0..4 {
            let j = i ^ (1 << bit);
            if i < j {
                edges.extend([i, j]);
            }
        }
    }
    edges.into_boxed_slice()
}

/// Two triangles for each square: axes `a < b` vary, the other two bits are fixed.
fn tesseract_faces() -> Box<[u16]> {
    let mut faces = Vec::with_capacity(FACE_TRIANGLE_COUNT * 3);
    for a in 0..4u16 {
        for b in a + 1..4 {
            for base in 0..VERTEX_COUNT as u16 {
                if base & (1 << a | 1 << b) != 0 {
                    continue;
                }
                let (v00, v10) = (base, base | 1 << a);
                let (v01, v11) = (base | 1 << b, base | 1 << a | 1 << b);
                faces.extend([v00, v10, v11, v00, v11, v01]);
            }
        }
    }
    faces.into_boxed_slice()
}

/// The 12 edges of each radar cube, offset into that cube's 8 vertices.
fn radar_edges() -> Box<[u16]> {
    let mut edges = Vec::with_capacity(MAX_RADAR_CUBES * RADAR_EDGES_PER_CUBE * 2);
    for cube in 0..MAX_RADAR_CUBES as u16 {
        let offset = cube * RADAR_VERTICES_PER_CUBE as u16;
        for i in 0..RADAR_VERTICES_PER_CUBE as u16 {
            for bit in 0..3 {
                let j = i ^ (1 << bit);
                if i < j {
                    edges.extend([offset + i, offset + j]);
                }
            }
        }
    }
    edges.into_boxed_slice()
}
