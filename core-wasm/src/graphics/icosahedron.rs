//! Widget 1: a wireframe icosahedron around a glowing core, with signal particles between them.

use super::lanes::{sin4, write_group, Points4, Splat3, LANES};
use super::orbit::{orbit_controls, Orbit, AUTO_ROTATION_PER_FRAME};
use super::rng::SeededRng;
use super::solids::{icosahedron_topology, icosahedron_vertices, sphere_mesh};
/// The shell's and the core's mesh sizes are the meshes' own (`solids`).
pub use super::solids::{
    CORE_BANDS, CORE_SEGMENTS, CORE_TRIANGLE_COUNT, CORE_VERTEX_COUNT, SHELL_EDGE_COUNT,
    SHELL_FACE_COUNT, SHELL_VERTEX_COUNT,
};
use super::vertex::VERTEX_STRIDE;
use glam::{Mat3, Vec3, Vec4};
use std::f32::consts::{PI, TAU};

/// Radius of the wireframe shell (spec 2.9).
pub const SHELL_RADIUS: f32 = 1.5;
/// Radius of the glowing inner sphere (spec 2.9).
pub const CORE_RADIUS: f32 = 0.5;

/// At most this many outward particles are visible at once (spec 9).
pub const MAX_OUTWARD: usize = 8;
/// At most this many inward particles are visible at once (spec 9).
pub const MAX_INWARD: usize = 6;
/// Particle slots: outward ones first, then inward ones.
pub const PARTICLE_COUNT: usize = MAX_OUTWARD + MAX_INWARD;
/// Chance per frame that an outward particle is spawned, when a slot is free (spec 9).
pub const OUTWARD_SPAWN_CHANCE: f32 = 0.10;
/// Chance per frame that an inward particle is spawned, when a slot is free (spec 9).
pub const INWARD_SPAWN_CHANCE: f32 = 0.05;
/// A particle is visible for at most this many frames, then recycled (spec 9).
pub const PARTICLE_LIFETIME_FRAMES: u32 = 60;
/// Slowest particle speed, as a fraction of the core-to-shell path per frame: 80 frames to
/// arrive, so slow particles expire at 60 frames before reaching their target.
pub const PARTICLE_MIN_SPEED: f32 = 1.0 / 80.0;
/// Fastest particle speed: 40 frames to arrive, so fast particles end on reaching the target.
pub const PARTICLE_MAX_SPEED: f32 = 1.0 / 40.0;

/// Every point of the scene lies within this distance of the origin (the shell's radius).
pub const BOUNDING_RADIUS: f32 = SHELL_RADIUS;

/// Radians per frame of the core's glow pulse (a slow breathing, about 2 s at 60 fps).
const GLOW_PULSE_PER_FRAME: f32 = 0.05;

/// Which way a signal particle travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalDirection {
    /// From the core's surface out to a shell vertex.
    Outward,
    /// From a shell vertex in to the core's surface.
    Inward,
}

/// One signal particle slot; a dead slot is invisible and waits to be reused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SignalParticle {
    direction: SignalDirection,
    alive: bool,
    age: u32,
    progress: f32,
    speed: f32,
    from: Vec3,
    to: Vec3,
}

impl SignalParticle {
    const fn dead(direction: SignalDirection) -> Self {
        SignalParticle {
            direction,
            alive: false,
            age: 0,
            progress: 0.0,
            speed: 0.0,
            from: Vec3::ZERO,
            to: Vec3::ZERO,
        }
    }

    /// Whether the particle is visible this frame.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// Frames the particle has been visible, `1..=PARTICLE_LIFETIME_FRAMES` while alive.
    pub fn age(&self) -> u32 {
        self.age
    }

    /// Which way the particle travels.
    pub fn direction(&self) -> SignalDirection {
        self.direction
    }

    /// How far along its path it is, `0..1` while alive.
    pub fn progress(&self) -> f32 {
        self.progress
    }

    /// Model-space position (before the scene's rotation).
    fn position(&self) -> Vec3 {
        self.from.lerp(self.to, self.progress)
    }

    /// One frame of travel; the particle dies after its lifetime or on reaching its target.
    fn advance(&mut self) {
        if !self.alive {
            return;
        }
        self.age += 1;
        self.progress += self.speed;
        if self.age > PARTICLE_LIFETIME_FRAMES || self.progress >= 1.0 {
            *self = SignalParticle::dead(self.direction);
        }
    }
}

/// Widget 1's scene. Construct once, call [`step`](Self::step) every animation frame, then draw:
///
/// - [`shell_vertices`](Self::shell_vertices) with [`shell_edge_indices`](Self::shell_edge_indices)
///   as `gl.LINES` (and optionally [`shell_face_indices`](Self::shell_face_indices) as faint
///   `gl.TRIANGLES`);
/// - [`core_vertices`](Self::core_vertices) with [`core_triangle_indices`](Self::core_triangle_indices)
///   as `gl.TRIANGLES`; their `a` is the glow pulse, the same for every core vertex;
/// - [`particle_vertices`](Self::particle_vertices) as `gl.POINTS`, outward slots first
///   ([`MAX_OUTWARD`]) then inward ones; dead slots have `a == 0`.
#[derive(Debug, Clone)]
pub struct IcosahedronScene {
    orbit: Orbit,
    rng: SeededRng,
    glow_phase: f32,
    shell_model: [Vec3; SHELL_VERTEX_COUNT],
    shell_lanes: Points4,
    core_lanes: Points4,
    particles: [SignalParticle; PARTICLE_COUNT],
    spawned_outward: u64,
    spawned_inward: u64,
    shell_vertices: Box<[f32]>,
    shell_edges: Box<[u16]>,
    shell_faces: Box<[u16]>,
    core_vertices: Box<[f32]>,
    core_triangles: Box<[u16]>,
    particle_vertices: Box<[f32]>,
}

impl IcosahedronScene {
    /// Builds the scene; `seed` fixes the particle sequence (pass something time-based in the
    /// browser, a constant in tests).
    pub fn new(seed: u64) -> Self {
        let shell_model = icosahedron_vertices(SHELL_RADIUS);
        let (shell_edges, shell_faces) = icosahedron_topology(&shell_model);
        let (core_model, core_triangles) = sphere_mesh(CORE_RADIUS);
        let mut particles = [SignalParticle::dead(SignalDirection::Outward); PARTICLE_COUNT];
        for slot in &mut particles[MAX_OUTWARD..] {
            slot.direction = SignalDirection::Inward;
        }
        let mut scene = IcosahedronScene {
            orbit: Orbit::new(AUTO_ROTATION_PER_FRAME),
            rng: SeededRng::new(seed),
            glow_phase: 0.0,
            shell_model,
            shell_lanes: Points4::new(&shell_model),
            core_lanes: Points4::new(&core_model),
            particles,
            spawned_outward: 0,
            spawned_inward: 0,
            shell_vertices: vec![0.0; SHELL_VERTEX_COUNT * VERTEX_STRIDE].into_boxed_slice(),
            shell_edges,
            shell_faces,
            core_vertices: vec![0.0; CORE_VERTEX_COUNT * VERTEX_STRIDE].into_boxed_slice(),
            core_triangles,
            particle_vertices: vec![0.0; PARTICLE_COUNT * VERTEX_STRIDE].into_boxed_slice(),
        };
        // The buffers hold a drawable frame before the first step (reduced motion draws once).
        scene.write_buffers();
        scene
    }

    /// Advances one animation frame: auto-rotation, particle spawning and travel, glow; then
    /// rewrites every vertex buffer in place. Allocates nothing.
    pub fn step(&mut self) {
        self.orbit.advance();
        // A subtraction rather than `%`, which is a library call (fmodf) in wasm.
        self.glow_phase += GLOW_PULSE_PER_FRAME;
        if self.glow_phase >= TAU {
            self.glow_phase -= TAU;
        }
        // Spawn before moving, so a frame's spawn chance depends only on the slots left free by
        // the previous frame (which is what the spawn-rate test observes).
        if self.rng.chance(OUTWARD_SPAWN_CHANCE) && self.spawn(SignalDirection::Outward) {
            self.spawned_outward += 1;
        }
        if self.rng.chance(INWARD_SPAWN_CHANCE) && self.spawn(SignalDirection::Inward) {
            self.spawned_inward += 1;
        }
        for particle in &mut self.particles {
            particle.advance();
        }
        self.write_buffers();
    }

    orbit_controls!();

    /// Shell vertices, `x, y, z, a` × [`SHELL_VERTEX_COUNT`], rotated; `a` is 1.
    pub fn shell_vertices(&self) -> &[f32] {
        &self.shell_vertices
    }

    /// Shell edges as index pairs for `gl.LINES` ([`SHELL_EDGE_COUNT`] pairs). Never changes.
    pub fn shell_edge_indices(&self) -> &[u16] {
        &self.shell_edges
    }

    /// Shell faces as index triples for `gl.TRIANGLES` ([`SHELL_FACE_COUNT`]). Never changes.
    pub fn shell_face_indices(&self) -> &[u16] {
        &self.shell_faces
    }

    /// Core sphere vertices, `x, y, z, a` × [`CORE_VERTEX_COUNT`]; `a` is the glow, `0.7..=1`.
    pub fn core_vertices(&self) -> &[f32] {
        &self.core_vertices
    }

    /// Core sphere triangles as index triples ([`CORE_TRIANGLE_COUNT`]). Never changes.
    pub fn core_triangle_indices(&self) -> &[u16] {
        &self.core_triangles
    }

    /// Particle points, `x, y, z, a` × [`PARTICLE_COUNT`]; `a == 0` for a dead slot.
    pub fn particle_vertices(&self) -> &[f32] {
        &self.particle_vertices
    }

    /// The particle slots: [`MAX_OUTWARD`] outward ones, then [`MAX_INWARD`] inward ones.
    pub fn particles(&self) -> &[SignalParticle] {
        &self.particles
    }

    /// Live particles travelling `direction`.
    pub fn alive_count(&self, direction: SignalDirection) -> usize {
        self.particles
            .iter()
            .filter(|p| p.alive && p.direction == direction)
            .count()
    }

    /// Particles spawned so far travelling `direction` (for rate checks).
    pub fn spawned_count(&self, direction: SignalDirection) -> u64 {
        match direction {
            SignalDirection::Outward => self.spawned_outward,
            SignalDirection::Inward => self.spawned_inward,
        }
    }

    /// Starts a particle in the first free slot for `direction`; `false` when all are busy.
    fn spawn(&mut self, direction: SignalDirection) -> bool {
        let slots = match direction {
            SignalDirection::Outward => 0..MAX_OUTWARD,
            SignalDirection::Inward => MAX_OUTWARD..PARTICLE_COUNT,
        };
        let Some(slot) = slots.into_iter().find(|&i| !self.particles[i].alive) else {
            return false;
        };
        // Particles run along a spoke from the core to one shell vertex, so they visibly feed
        // the wireframe's corners.
        let vertex = self.shell_model[self.rng.index(SHELL_VERTEX_COUNT)];
        let core_point = vertex * (CORE_RADIUS / SHELL_RADIUS);
        let (from, to) = match direction {
            SignalDirection::Outward => (core_point, vertex),
            SignalDirection::Inward => (vertex, core_point),
        };
        self.particles[slot] = SignalParticle {
            direction,
            alive: true,
            age: 0,
            progress: 0.0,
            speed: self.rng.range(PARTICLE_MIN_SPEED, PARTICLE_MAX_SPEED),
            from,
            to,
        };
        true
    }

    fn write_buffers(&mut self) {
        let rotation: Mat3 = self.orbit.rotation();
        self.shell_lanes
            .write_rotated(&rotation, |_| Vec4::ONE, &mut self.shell_vertices);
        // One four-lane sine for each group of particle slots; the glow rides in the last group's
        // spare lane (there are 14 slots in 16 lanes).
        const GROUPS: usize = PARTICLE_COUNT.div_ceil(LANES);
        const GLOW_LANE: usize = GROUPS * LANES - 1;
        let mut lanes = [[0.0f32; GROUPS * LANES]; 5];
        let [xs, ys, zs, alive, angle] = &mut lanes;
        for (i, particle) in self.particles.iter().enumerate() {
            // A dead slot's ends are both the origin, so its position is too.
            let p = particle.position();
            (xs[i], ys[i], zs[i]) = (p.x, p.y, p.z);
            alive[i] = if particle.alive { 1.0 } else { 0.0 };
            angle[i] = particle.progress * PI;
        }
        angle[GLOW_LANE] = self.glow_phase;
        let lane =
            |values: &[f32; GROUPS * LANES], g: usize| Vec4::from_slice(&values[g * LANES..]);
        let splat = Splat3::new(&rotation);
        let mut glow = 0.0;
        for g in 0..GROUPS {
            let sine = sin4(lane(angle, g));
            // Brightness fades in at the start of the path and out at the end, never quite to
            // zero while alive, so a live particle is always drawn; a dead one has none.
            let intensity = lane(alive, g) * (Vec4::splat(0.3) + sine * 0.7);
            let position = splat.apply([lane(xs, g), lane(ys, g), lane(zs, g)]);
            write_group(&mut self.particle_vertices, g, position, intensity);
            glow = sine.w;
        }
        let glow = Vec4::splat(0.85 + 0.15 * glow);
        self.core_lanes
            .write_rotated(&rotation, |_| glow, &mut self.core_vertices);
    }
}
