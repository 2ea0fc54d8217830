//! The vertex layout every scene writes and the renderer reads: `x, y, z, a`, four floats a vertex.

/// Floats per vertex in every vertex buffer: `x, y, z, a`.
pub const VERTEX_STRIDE: usize = 4;

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
