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

/// The `xxxPtr`/`xxxLen` getter pairs of a widget, one pair per slice of its scene:
/// `slice: jsPtrName rust_ptr_name "doc", jsLenName rust_len_name "doc";`. The docs are plain
/// strings with the leading space a `///` line has: wasm-bindgen copies a doc's literal into the
/// .d.ts as written, and a `///` passed through `macro_rules!` arrives as a raw string (`r"…"`).
macro_rules! buffer_getters {
    ($widget:ident { $(
        $slice:ident: $ptr_js:ident $ptr_fn:ident $ptr_doc:literal,
        $len_js:ident $len_fn:ident $len_doc:literal;
    )* }) => {
        #[wasm_bindgen]
        impl $widget {
            $(
                #[doc = $ptr_doc]
                #[wasm_bindgen(js_name = $ptr_js)]
                pub fn $ptr_fn(&self) -> u32 {
                    ptr(self.inner.$slice())
                }

                #[doc = $len_doc]
                #[wasm_bindgen(js_name = $len_js)]
                pub fn $len_fn(&self) -> u32 {
                    len(self.inner.$slice())
                }
            )*
        }
    };
}

/// A widget's constructor, `step` and `drag` over the scene it wraps (`inner`), and `Default`
/// when the constructor takes no arguments: `new(args) => scene, "doc"; step "doc"; drag "doc";`,
/// the docs plain strings as for `buffer_getters!`.
macro_rules! widget_controls {
    ($widget:ident { new() => $($rest:tt)* }) => {
        impl Default for $widget {
            fn default() -> Self {
                Self::new()
            }
        }

        widget_controls!(@impl $widget { new() => $($rest)* });
    };
    ($widget:ident { new($($arg:ident: $arg_ty:ty),+) => $($rest:tt)* }) => {
        widget_controls!(@impl $widget { new($($arg: $arg_ty),+) => $($rest)* });
    };
    (@impl $widget:ident {
        new($($arg:ident: $arg_ty:ty),*) => $scene:expr, $new_doc:literal;
        step $step_doc:literal;
        drag $drag_doc:literal;
    }) => {
        #[wasm_bindgen]
        impl $widget {
            #[doc = $new_doc]
            #[wasm_bindgen(constructor)]
            pub fn new($($arg: $arg_ty),*) -> $widget {
                $widget { inner: $scene }
            }

            #[doc = $step_doc]
            pub fn step(&mut self) {
                self.inner.step();
            }

            #[doc = $drag_doc]
            pub fn drag(&mut self, dx: f32, dy: f32) {
                self.inner.drag(dx, dy);
            }
        }
    };
}

/// Widget 1: a wireframe icosahedron (radius 1.5) around a glowing core (radius 0.5) with signal
/// particles. Draw the shell as `LINES` (edges) and faint `TRIANGLES` (faces), the core as
/// `TRIANGLES` and the particles as `POINTS`, skipping vertices whose `a` is 0.
#[wasm_bindgen]
#[derive(Debug)]
pub struct IcosahedronWidget {
    inner: IcosahedronScene,
}

widget_controls!(IcosahedronWidget {
    new(seed: u32) => IcosahedronScene::new(u64::from(seed)),
        " `seed` fixes the particle sequence (time-based in the app, constant in tests).";
    step " One animation frame: rotation, particles, glow; rewrites the vertex buffers in place.";
    drag " A pointer drag of `dx` by `dy` CSS pixels (0.005 rad per pixel); stops auto-rotation.";
});

buffer_getters!(IcosahedronWidget {
    shell_vertices:
        shellVerticesPtr shell_vertices_ptr " Shell vertices (`f32`, 12 × 4).",
        shellVerticesLen shell_vertices_len " Floats in the shell vertex buffer.";
    shell_edge_indices:
        shellEdgesPtr shell_edges_ptr " Shell edges (`u16` pairs, 30 edges). Never changes.",
        shellEdgesLen shell_edges_len " Indices in the shell edge buffer.";
    shell_face_indices:
        shellFacesPtr shell_faces_ptr " Shell faces (`u16` triples, 20 faces). Never changes.",
        shellFacesLen shell_faces_len " Indices in the shell face buffer.";
    core_vertices:
        coreVerticesPtr core_vertices_ptr
        " Core sphere vertices (`f32` × 4); `a` is the glow pulse.",
        coreVerticesLen core_vertices_len " Floats in the core vertex buffer.";
    core_triangle_indices:
        coreTrianglesPtr core_triangles_ptr
        " Core sphere triangles (`u16` triples). Never changes.",
        coreTrianglesLen core_triangles_len " Indices in the core triangle buffer.";
    particle_vertices:
        particleVerticesPtr particle_vertices_ptr
        " Particle points (`f32`, 14 × 4: 8 outward then 6 inward); `a` is 0 for a dead slot.",
        particleVerticesLen particle_vertices_len " Floats in the particle buffer.";
});

/// Widget 2: a tesseract turning in 4D, projected to 3D, with radar cube pulses. Draw the
/// vertices with the edges as `LINES` and the faces as translucent `TRIANGLES`, and the radar
/// vertices with the radar edges as `LINES`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HypercubeWidget {
    inner: HypercubeScene,
}

widget_controls!(HypercubeWidget {
    new() => HypercubeScene::new(),
        " The tesseract at rest, its buffers already holding a drawable frame.";
    step " One animation frame: 4D rotation, tilt, auto-yaw, radar pulses.";
    drag
        " A pointer drag of `dx` by `dy` CSS pixels; stops the 3D auto-yaw (the 4D turn goes on).";
});

buffer_getters!(HypercubeWidget {
    vertices:
        verticesPtr vertices_ptr " Projected vertices (`f32`, 16 × 4).",
        verticesLen vertices_len " Floats in the vertex buffer.";
    edge_indices:
        edgesPtr edges_ptr " Edges (`u16` pairs, 32 edges). Never changes.",
        edgesLen edges_len " Indices in the edge buffer.";
    face_indices:
        facesPtr faces_ptr " Faces (`u16` triples, 48 triangles). Never changes.",
        facesLen faces_len " Indices in the face buffer.";
    radar_vertices:
        radarVerticesPtr radar_vertices_ptr
        " Radar cube corners (`f32`, 2 cubes × 8 × 4); `a` is 0 for a dead cube.",
        radarVerticesLen radar_vertices_len " Floats in the radar vertex buffer.";
    radar_edge_indices:
        radarEdgesPtr radar_edges_ptr " Radar cube edges (`u16` pairs). Never changes.",
        radarEdgesLen radar_edges_len " Indices in the radar edge buffer.";
});

/// A double helix: draw the vertices with the strands and the rungs as `LINES`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct HelixWidget {
    inner: DoubleHelixScene,
}

widget_controls!(HelixWidget {
    new() => DoubleHelixScene::new(),
        " The helix, its buffers already holding a drawable frame.";
    step " One animation frame: spin and the travelling pulse.";
    drag " A pointer drag of `dx` by `dy` CSS pixels; stops the spin.";
});

buffer_getters!(HelixWidget {
    vertices:
        verticesPtr vertices_ptr " Vertices (`f32`, 96 × 4): strand A then strand B.",
        verticesLen vertices_len " Floats in the vertex buffer.";
    strand_indices:
        strandsPtr strands_ptr " Strand segments (`u16` pairs). Never changes.",
        strandsLen strands_len " Indices in the strand buffer.";
    rung_indices:
        rungsPtr rungs_ptr " Rungs (`u16` pairs). Never changes.",
        rungsLen rungs_len " Indices in the rung buffer.";
});

/// A vibrating molecule: draw the atoms as `POINTS` (`a` is the atom radius in scene units)
/// and the bonds into the same buffer as `LINES`.
#[wasm_bindgen]
#[derive(Debug)]
pub struct MoleculeWidget {
    inner: MoleculeScene,
}

widget_controls!(MoleculeWidget {
    new() => MoleculeScene::new(),
        " The molecule, its buffers already holding a drawable frame.";
    step " One animation frame: rotation and vibration.";
    drag " A pointer drag of `dx` by `dy` CSS pixels; stops auto-rotation.";
});

buffer_getters!(MoleculeWidget {
    atom_vertices:
        atomsPtr atoms_ptr " Atoms (`f32`, 9 × 4: `x, y, z, radius`).",
        atomsLen atoms_len " Floats in the atom buffer.";
    bond_indices:
        bondsPtr bonds_ptr " Bonds (`u16` pairs). Never changes.",
        bondsLen bonds_len " Indices in the bond buffer.";
});
