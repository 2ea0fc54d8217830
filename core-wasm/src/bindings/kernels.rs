//! The batched kernels (`src/graphics/kernels.rs`) in the three call shapes the bench page times:
//! - per operation: `mat4Mul(a, b)` and friends, one call across the boundary per matrix or point,
//!   each copying its `Float32Array`s in and its result out;
//! - per batch: `mat4MulBatch(a, b, out)` and friends, one call for the whole batch, still copying
//!   the arrays in and `out` back;
//! - zero-copy: a [`KernelBuffers`] owns its buffers in wasm memory; JavaScript writes the inputs
//!   through `Float32Array` views at `aPtr()` / `bPtr()` and reads the results at `outPtr()`, and a
//!   call passes only a count.
//!
//! Layouts: matrices are 16 `f32` column-major, points and quaternions 4 `f32`.

use wasm_bindgen::prelude::*;

use crate::graphics::kernels::{mat4_mul_batch, mat4_mul_vec4_batch, quat_rotate_batch};

/// The per-operation shape of a batch kernel: its `len` floats for one input.
fn one(len: usize, kernel: impl FnOnce(&mut [f32])) -> Vec<f32> {
    let mut out = vec![0.0; len];
    kernel(&mut out);
    out
}

/// `a * b` for one pair of matrices (per-operation shape).
#[wasm_bindgen(js_name = mat4Mul)]
pub fn mat4_mul(a: &[f32], b: &[f32]) -> Vec<f32> {
    one(16, |out| mat4_mul_batch(a, b, out))
}

/// `m * v` for one point (per-operation shape).
#[wasm_bindgen(js_name = mat4MulVec4)]
pub fn mat4_mul_vec4(m: &[f32], v: &[f32]) -> Vec<f32> {
    one(4, |out| mat4_mul_vec4_batch(m, v, out))
}

/// `q * v` for one point (per-operation shape).
#[wasm_bindgen(js_name = quatRotate)]
pub fn quat_rotate(q: &[f32], v: &[f32]) -> Vec<f32> {
    one(4, |out| quat_rotate_batch(q, v, out))
}

/// `out[i] = a[i] * b[i]` for every whole matrix pair (per-batch shape; `out` is copied back).
#[wasm_bindgen(js_name = mat4MulBatch)]
pub fn mat4_mul_batch_copy(a: &[f32], b: &[f32], out: &mut [f32]) {
    mat4_mul_batch(a, b, out);
}

/// `out[i] = m * points[i]` (per-batch shape).
#[wasm_bindgen(js_name = mat4MulVec4Batch)]
pub fn mat4_mul_vec4_batch_copy(m: &[f32], points: &[f32], out: &mut [f32]) {
    mat4_mul_vec4_batch(m, points, out);
}

/// `out[i] = q * points[i]` (per-batch shape).
#[wasm_bindgen(js_name = quatRotateBatch)]
pub fn quat_rotate_batch_copy(q: &[f32], points: &[f32], out: &mut [f32]) {
    quat_rotate_batch(q, points, out);
}

/// Three `f32` buffers in wasm memory (`a`, `b`, `out`) of `16 × capacity` floats each, for the
/// zero-copy shape. Build the views from `wasmMemory().buffer` after construction (it may grow
/// memory) and never keep them across another allocation.
#[wasm_bindgen]
#[derive(Debug)]
pub struct KernelBuffers {
    a: Vec<f32>,
    b: Vec<f32>,
    out: Vec<f32>,
}

#[wasm_bindgen]
impl KernelBuffers {
    /// Room for `capacity` matrices (or `4 × capacity` points) in each buffer, zero-filled.
    #[wasm_bindgen(constructor)]
    pub fn new(capacity: u32) -> KernelBuffers {
        let floats = capacity as usize * 16;
        KernelBuffers {
            a: vec![0.0; floats],
            b: vec![0.0; floats],
            out: vec![0.0; floats],
        }
    }

    /// Byte offset of buffer `a` in wasm memory.
    #[wasm_bindgen(js_name = aPtr)]
    pub fn a_ptr(&self) -> u32 {
        self.a.as_ptr() as usize as u32
    }

    /// Byte offset of buffer `b`.
    #[wasm_bindgen(js_name = bPtr)]
    pub fn b_ptr(&self) -> u32 {
        self.b.as_ptr() as usize as u32
    }

    /// Byte offset of buffer `out`.
    #[wasm_bindgen(js_name = outPtr)]
    pub fn out_ptr(&self) -> u32 {
        self.out.as_ptr() as usize as u32
    }

    /// Floats in each buffer.
    pub fn len(&self) -> u32 {
        self.a.len() as u32
    }

    /// Whether the buffers hold nothing (capacity 0).
    #[wasm_bindgen(js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.a.is_empty()
    }

    /// `out[i] = a[i] * b[i]` for the first `count` matrix pairs.
    #[wasm_bindgen(js_name = mat4Mul)]
    pub fn mat4_mul(&mut self, count: u32) {
        let n = (count as usize * 16).min(self.a.len());
        mat4_mul_batch(&self.a[..n], &self.b[..n], &mut self.out[..n]);
    }

    /// `out[i] = m * b[i]` for the first `count` points, `m` the first matrix of `a`.
    #[wasm_bindgen(js_name = mat4MulVec4)]
    pub fn mat4_mul_vec4(&mut self, count: u32) {
        let n = (count as usize * 4).min(self.b.len());
        mat4_mul_vec4_batch(&self.a, &self.b[..n], &mut self.out[..n]);
    }

    /// `out[i] = q * b[i]` for the first `count` points, `q` the first four floats of `a`.
    #[wasm_bindgen(js_name = quatRotate)]
    pub fn quat_rotate(&mut self, count: u32) {
        let n = (count as usize * 4).min(self.b.len());
        quat_rotate_batch(&self.a, &self.b[..n], &mut self.out[..n]);
    }
}
