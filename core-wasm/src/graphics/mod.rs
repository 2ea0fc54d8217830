//! Geometry of the decorative WebGL2 widgets (spec 2.9, 4 and 9), computed in plain Rust with glam.
//!
//! Each scene owns preallocated buffers sized at construction and rewrites them in place on
//! every [`step`](IcosahedronScene::step); nothing allocates per frame (asserted by
//! `tests/no_alloc.rs`). The renderers upload the buffers as they are and draw them with a fixed
//! camera: rotation, particles and projection from 4D are already applied here.
//!
//! Buffer layout shared by every scene, so one shader program fits them all:
//! - vertex buffers are `f32` with a stride of [`VERTEX_STRIDE`] = 4: `x, y, z, a`, where `a`
//!   is a per-vertex intensity (alpha) in `0..=1`, except for molecule atoms where it is the
//!   atom radius; a vertex with `a == 0` is invisible and must not be drawn;
//! - index buffers are `u16` into the matching vertex buffer: pairs for `gl.LINES`, triples for
//!   `gl.TRIANGLES`. They never change after construction, so they can be uploaded once;
//! - every slice keeps its address and length for the life of the scene, so the bindings can
//!   expose `as_ptr()` and `len()` and JS can view them as a `Float32Array`/`Uint16Array`.

pub mod helix;
pub mod hypercube;
pub mod icosahedron;
pub mod molecule;
pub mod orbit;
pub mod rng;
mod solids;

pub use helix::DoubleHelixScene;
pub use hypercube::HypercubeScene;
pub use icosahedron::IcosahedronScene;
pub use molecule::MoleculeScene;
pub use orbit::Orbit;
pub use rng::SeededRng;

use crate::theme::Theme;

/// Floats per vertex in every vertex buffer: `x, y, z, a`.
pub const VERTEX_STRIDE: usize = 4;

/// An RGB colour with components in `0..=1`.
pub type Rgb = [f32; 3];

/// Colours of the widgets. The spec fixes them and makes them identical for cosmic and void.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// Wireframe lines: the icosahedron shell and the hypercube edges.
    pub wire: Rgb,
    /// The glowing core sphere and the translucent hypercube faces.
    pub glow: Rgb,
    /// Outward signal particles, radar pulses and helix strands.
    pub signal: Rgb,
    /// Inward signal particles, helix rungs and molecule bonds.
    pub accent: Rgb,
}

impl Palette {
    /// The one palette both themes use.
    pub const FIXED: Palette = Palette {
        wire: [0.0, 0.83, 1.0],
        glow: [0.55, 0.36, 0.96],
        signal: [0.0, 1.0, 0.8],
        accent: [1.0, 0.42, 0.85],
    };

    /// The palette for a theme; the same for every theme (spec 9), kept as a function so the
    /// renderers do not change if the themes ever diverge.
    pub fn for_theme(_theme: Theme) -> Palette {
        Palette::FIXED
    }
}

/// Writes one `x, y, z, a` vertex at index `i` of a vertex buffer.
#[inline]
pub(crate) fn write_vertex(buffer: &mut [f32], i: usize, p: glam::Vec3, a: f32) {
    let at = i * VERTEX_STRIDE;
    // One slice copy: a single bounds check per vertex instead of four.
    buffer[at..at + VERTEX_STRIDE].copy_from_slice(&[p.x, p.y, p.z, a]);
}

/// Reads the position of vertex `i` back from a vertex buffer (tests and callers that check
/// what the renderer will see).
#[inline]
pub fn read_position(buffer: &[f32], i: usize) -> glam::Vec3 {
    let at = i * VERTEX_STRIDE;
    glam::Vec3::new(buffer[at], buffer[at + 1], buffer[at + 2])
}
