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

mod default_new;
pub mod helix;
pub mod hypercube;
pub mod icosahedron;
pub mod kernels;
mod lanes;
pub mod molecule;
pub mod orbit;
pub mod rng;
mod solids;
mod vertex;

pub use helix::DoubleHelixScene;
pub use hypercube::HypercubeScene;
pub use icosahedron::IcosahedronScene;
pub use molecule::MoleculeScene;
pub use orbit::Orbit;
pub use rng::SeededRng;
pub use vertex::{read_position, VERTEX_STRIDE};

// The widgets' colours are not here: spec 9 fixes one palette for both themes, and the renderer
// reads it from CSS custom properties (app/src/graphics/renderer.ts), so Rust never needs it.
