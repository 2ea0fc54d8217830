//! The decorative widgets' geometry for the WebGL2 renderers: one handle per scene, buffers by pointer.
//!
//! Every buffer getter pair returns a byte offset into wasm memory (`xxxPtr`) and a length in
//! elements (`xxxLen`): vertex buffers are `f32` with 4 floats per vertex (`x, y, z, a`), index
//! buffers are `u16` (pairs for `gl.LINES`, triples for `gl.TRIANGLES`). Pointers and lengths
//! never change for the life of a handle, but `wasmMemory().buffer` is replaced whenever wasm
//! memory grows, so build the `Float32Array` view from `wasmMemory().buffer` each frame and
//! never keep it. Nothing here allocates after construction.

use wasm_bindgen::prelude::*;

use crate::graphics::{
    DoubleHelixScene, HypercubeScene, IcosahedronScene, MoleculeScene, VERTEX_STRIDE,
};

/// The module's `WebAssembly.Memory`, over which the buffer views are built.
#[wasm_bindgen(js_name = wasmMemory, unchecked_return_type = "WebAssembly.Memory")]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}

/// Floats per vertex in every vertex buffer: 4 (`x, y, z, a`).
#[wasm_bindgen(js_name = vertexStride)]
pub fn vertex_stride() -> u32 {
    VERTEX_STRIDE as u32
}

fn ptr<T>(slice: &[T]) -> u32 {
    slice.as_ptr() as usize as u32
}

fn len<T>(slice: &[T]) -> u32 {
    slice.len() as u32
}

/// Widget 1: a wireframe icosahedron (radius 1.5) around a glowing core (radius 0.5) with signal
/// particles. Draw the shell as `LINES` (edges) and faint `TRIANGLES` (faces), the core as
/// `TRIANGLES` and the particles as `POINTS`, skipping vertices whose `a` is 0.
#[wasm_bindgen]
#[derive(Debug)]
pub struct IcosahedronWidget {
    inner: IcosahedronScene,
}

#[wasm_bindgen]
impl IcosahedronWidget {
    /// `seed` fixes the particle sequence (time-based in the app, constant in tests).
    #[wasm_bindgen(constructor)]
    pub fn new(seed: u32) -> IcosahedronWidget {
        IcosahedronWidget {
            inner: IcosahedronScene::new(u64::from(seed)),
        }
    }

    /// One animation frame: rotation, particles, glow; rewrites the vertex buffers in place.
    pub fn step(&mut self) {
        self.inner.step();
    }

    /// A pointer drag of `dx` by `dy` CSS pixels (0.005 rad per pixel); stops auto-rotation.
    pub fn drag(&mut self, dx: f32, dy: f32) {
        self.inner.drag(dx, dy);
    }

    /// Shell vertices (`f32`, 12 × 4).
    #[wasm_bindgen(js_name = shellVerticesPtr)]
    pub fn shell_vertices_ptr(&self) -> u32 {
        ptr(self.inner.shell_vertices())
    }

    /// Floats in the shell vertex buffer.
    #[wasm_bindgen(js_name = shellVerticesLen)]
    pub fn shell_vertices_len(&self) -> u32 {
        len(self.inner.shell_vertices())
    }

    /// Shell edges (`u16` pairs, 30 edges). Never changes.
    #[wasm_bindgen(js_name = shellEdgesPtr)]
    pub fn shell_edges_ptr(&self) -> u32 {
        ptr(self.inner.shell_edge_indices())
    }

    /// Indices in the shell edge buffer.
    #[wasm_bindgen(js_name = shellEdgesLen)]
    pub fn shell_edges_len(&self) -> u32 {
        len(self.inner.shell_edge_indices())
    }

    /// Shell faces (`u16` triples, 20 faces). Never changes.
    #[wasm_bindgen(js_name = shellFacesPtr)]
    pub fn shell_faces_ptr(&self) -> u32 {
        ptr(self.inner.shell_face_indices())
    }

    /// Indices in the shell face buffer.
    #[wasm_bindgen(js_name = shellFacesLen)]
    pub fn shell_faces_len(&self) -> u32 {
        len(self.inner.shell_face_indices())
    }

    /// Core sphere vertices (`f32` × 4); `a` is the glow pulse.
    #[wasm_bindgen(js_name = coreVerticesPtr)]
    pub fn core_vertices_ptr(&self) -> u32 {
        ptr(self.inner.core_vertices())
    }

    /// Floats in the core vertex buffer.
    #[wasm_bindgen(js_name = coreVerticesLen)]
    pub fn core_vertices_len(&self) -> u32 {
        len(self.inner.core_vertices())
    }

    /// Core sphere triangles (`u16` triples). Never changes.
    #[wasm_bindgen(js_name = coreTrianglesPtr)]
    pub fn core_triangles_ptr(&self) -> u32 {
        ptr(self.inner.core_triangle_indices())
    }

    /// Indices in the core triangle buffer.
    #[wasm_bindgen(js_name = coreTrianglesLen)]
    pub fn core_triangles_len(&self) -> u32 {
        len(self.inner.core_triangle_indices())
    }

    /// Particle points (`f32`, 14 × 4: 8 outward then 6 inward); `a` is 0 for a dead slot.
    #[wasm_bindgen(js_name = particleVerticesPtr)]
    pub fn particle_vertices_ptr(&self) -> u32 {
        ptr(self.inner.particle_vertices())
    }

    /// Floats in the particle buffer.
    #[wasm_bindgen(js_name = particleVerticesLen)]
    pub fn particle_vertices_len(&self) -> u32 {
        len(self.inner.particle_vertices())
    }
}

/// Widget 2: a tesseract turning in 4D, projected to 3D, with radar cube pulses. Draw the
/// vertices with the edges as `LINES` and the faces as translucent `TRIANGLES`, and the radar
/// vertices with the radar edges as `LINES`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HypercubeWidget {
    inner: HypercubeScene,
}

impl Default for HypercubeWidget {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl HypercubeWidget {
    /// The tesseract at rest, its buffers already holding a drawable frame.
    #[wasm_bindgen(constructor)]
    pub fn new() -> HypercubeWidget {
        HypercubeWidget {
            inner: HypercubeScene::new(),
        }
    }

    /// One animation frame: 4D rotation, tilt, auto-yaw, radar pulses.
    pub fn step(&mut self) {
        self.inner.step();
    }

    /// A pointer drag of `dx` by `dy` CSS pixels; stops the 3D auto-yaw (the 4D turn goes on).
    pub fn drag(&mut self, dx: f32, dy: f32) {
        self.inner.drag(dx, dy);
    }

    /// Projected vertices (`f32`, 16 × 4).
    #[wasm_bindgen(js_name = verticesPtr)]
    pub fn vertices_ptr(&self) -> u32 {
        ptr(self.inner.vertices())
    }

    /// Floats in the vertex buffer.
    #[wasm_bindgen(js_name = verticesLen)]
    pub fn vertices_len(&self) -> u32 {
        len(self.inner.vertices())
    }

    /// Edges (`u16` pairs, 32 edges). Never changes.
    #[wasm_bindgen(js_name = edgesPtr)]
    pub fn edges_ptr(&self) -> u32 {
        ptr(self.inner.edge_indices())
    }

    /// Indices in the edge buffer.
    #[wasm_bindgen(js_name = edgesLen)]
    pub fn edges_len(&self) -> u32 {
        len(self.inner.edge_indices())
    }

    /// Faces (`u16` triples, 48 triangles). Never changes.
    #[wasm_bindgen(js_name = facesPtr)]
    pub fn faces_ptr(&self) -> u32 {
        ptr(self.inner.face_indices())
    }

    /// Indices in the face buffer.
    #[wasm_bindgen(js_name = facesLen)]
    pub fn faces_len(&self) -> u32 {
        len(self.inner.face_indices())
    }

    /// Radar cube corners (`f32`, 2 cubes × 8 × 4); `a` is 0 for a dead cube.
    #[wasm_bindgen(js_name = radarVerticesPtr)]
    pub fn radar_vertices_ptr(&self) -> u32 {
        ptr(self.inner.radar_vertices())
    }

    /// Floats in the radar vertex buffer.
    #[wasm_bindgen(js_name = radarVerticesLen)]
    pub fn radar_vertices_len(&self) -> u32 {
        len(self.inner.radar_vertices())
    }

    /// Radar cube edges (`u16` pairs). Never changes.
    #[wasm_bindgen(js_name = radarEdgesPtr)]
    pub fn radar_edges_ptr(&self) -> u32 {
        ptr(self.inner.radar_edge_indices())
    }

    /// Indices in the radar edge buffer.
    #[wasm_bindgen(js_name = radarEdgesLen)]
    pub fn radar_edges_len(&self) -> u32 {
        len(self.inner.radar_edge_indices())
    }
}

/// A double helix: draw the vertices with the strands and the rungs as `LINES`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HelixWidget {
    inner: DoubleHelixScene,
}

impl Default for HelixWidget {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl HelixWidget {
    /// The helix, its buffers already holding a drawable frame.
    #[wasm_bindgen(constructor)]
    pub fn new() -> HelixWidget {
        HelixWidget {
            inner: DoubleHelixScene::new(),
        }
    }

    /// One animation frame: spin and the travelling pulse.
    pub fn step(&mut self) {
        self.inner.step();
    }

    /// A pointer drag of `dx` by `dy` CSS pixels; stops the spin.
    pub fn drag(&mut self, dx: f32, dy: f32) {
        self.inner.drag(dx, dy);
    }

    /// Vertices (`f32`, 96 × 4): strand A then strand B.
    #[wasm_bindgen(js_name = verticesPtr)]
    pub fn vertices_ptr(&self) -> u32 {
        ptr(self.inner.vertices())
    }

    /// Floats in the vertex buffer.
    #[wasm_bindgen(js_name = verticesLen)]
    pub fn vertices_len(&self) -> u32 {
        len(self.inner.vertices())
    }

    /// Strand segments (`u16` pairs). Never changes.
    #[wasm_bindgen(js_name = strandsPtr)]
    pub fn strands_ptr(&self) -> u32 {
        ptr(self.inner.strand_indices())
    }

    /// Indices in the strand buffer.
    #[wasm_bindgen(js_name = strandsLen)]
    pub fn strands_len(&self) -> u32 {
        len(self.inner.strand_indices())
    }

    /// Rungs (`u16` pairs). Never changes.
    #[wasm_bindgen(js_name = rungsPtr)]
    pub fn rungs_ptr(&self) -> u32 {
        ptr(self.inner.rung_indices())
    }

    /// Indices in the rung buffer.
    #[wasm_bindgen(js_name = rungsLen)]
    pub fn rungs_len(&self) -> u32 {
        len(self.inner.rung_indices())
    }
}

/// A vibrating molecule: draw the atoms as `POINTS` (`a` is the atom radius in scene units)
/// and the bonds into the same buffer as `LINES`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct MoleculeWidget {
    inner: MoleculeScene,
}

impl Default for MoleculeWidget {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl MoleculeWidget {
    /// The molecule, its buffers already holding a drawable frame.
    #[wasm_bindgen(constructor)]
    pub fn new() -> MoleculeWidget {
        MoleculeWidget {
            inner: MoleculeScene::new(),
        }
    }

    /// One animation frame: rotation and vibration.
    pub fn step(&mut self) {
        self.inner.step();
    }

    /// A pointer drag of `dx` by `dy` CSS pixels; stops auto-rotation.
    pub fn drag(&mut self, dx: f32, dy: f32) {
        self.inner.drag(dx, dy);
    }

    /// Atoms (`f32`, 9 × 4: `x, y, z, radius`).
    #[wasm_bindgen(js_name = atomsPtr)]
    pub fn atoms_ptr(&self) -> u32 {
        ptr(self.inner.atom_vertices())
    }

    /// Floats in the atom buffer.
    #[wasm_bindgen(js_name = atomsLen)]
    pub fn atoms_len(&self) -> u32 {
        len(self.inner.atom_vertices())
    }

    /// Bonds (`u16` pairs). Never changes.
    #[wasm_bindgen(js_name = bondsPtr)]
    pub fn bonds_ptr(&self) -> u32 {
        ptr(self.inner.bond_indices())
    }

    /// Indices in the bond buffer.
    #[wasm_bindgen(js_name = bondsLen)]
    pub fn bonds_len(&self) -> u32 {
        len(self.inner.bond_indices())
    }
}
