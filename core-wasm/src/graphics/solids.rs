//! Model-space meshes built once when a scene is constructed (never per frame).

use glam::Vec3;
use std::f32::consts::{PI, TAU};

/// Vertices of an icosahedron.
pub const SHELL_VERTEX_COUNT: usize = 12;
/// Edges of an icosahedron.
pub const SHELL_EDGE_COUNT: usize = 30;
/// Faces of an icosahedron (spec 2.9: 20 faces).
pub const SHELL_FACE_COUNT: usize = 20;

/// Latitude bands of the core sphere mesh (poles included as single vertices).
pub const CORE_BANDS: usize = 8;
/// Longitude segments of the core sphere mesh.
pub const CORE_SEGMENTS: usize = 12;
/// Vertices of the core sphere: two poles plus `CORE_BANDS - 1` rings of `CORE_SEGMENTS`.
pub const CORE_VERTEX_COUNT: usize = 2 + (CORE_BANDS - 1) * CORE_SEGMENTS;
/// Triangles of the core sphere: two fans at the poles plus two per quad in between.
pub const CORE_TRIANGLE_COUNT: usize = 2 * CORE_SEGMENTS + 2 * CORE_SEGMENTS * (CORE_BANDS - 2);

/// The 12 vertices of an icosahedron of circumradius `radius`: the cyclic permutations of
/// `(0, ±1, ±φ)`, scaled onto the sphere.
pub(crate) fn icosahedron_vertices(radius: f32) -> [Vec3; SHELL_VERTEX_COUNT] {
    let phi = (1.0 + 5.0f32.sqrt()) / 2.0;
    let mut vertices = [Vec3::ZERO; SHELL_VERTEX_COUNT];
    let mut i = 0;
    for a in [-1.0, 1.0] {
        for b in [-phi, phi] {
            for p in [
                Vec3::new(0.0, a, b),
                Vec3::new(a, b, 0.0),
                Vec3::new(b, 0.0, a),
            ] {
                vertices[i] = p.normalize() * radius;
                i += 1;
            }
        }
    }
    vertices
}

/// Edges (vertex pairs at the shortest distance) and faces (mutually adjacent triples), found
/// from the vertices rather than typed in, so they cannot disagree with them.
pub(crate) fn icosahedron_topology(
    vertices: &[Vec3; SHELL_VERTEX_COUNT],
) -> (Box<[u16]>, Box<[u16]>) {
    let shortest = (1..SHELL_VERTEX_COUNT)
        .map(|j| vertices[0].distance(vertices[j]))
        .fold(f32::INFINITY, f32::min);
    let adjacent = |i: usize, j: usize| (vertices[i].distance(vertices[j]) - shortest).abs() < 1e-3;
    let mut edges = Vec::with_capacity(SHELL_EDGE_COUNT * 2);
    let mut faces = Vec::with_capacity(SHELL_FACE_COUNT * 3);
    for i in 0..SHELL_VERTEX_COUNT {
        for j in i + 1..SHELL_VERTEX_COUNT {
            if !adjacent(i, j) {
                continue;
            }
            edges.extend([i as u16, j as u16]);
            for k in j + 1..SHELL_VERTEX_COUNT {
                if adjacent(i, k) && adjacent(j, k) {
                    faces.extend([i as u16, j as u16, k as u16]);
                }
            }
        }
    }
    (edges.into_boxed_slice(), faces.into_boxed_slice())
}

/// A latitude/longitude sphere: model-space points and triangle indices.
pub(crate) fn sphere_mesh(radius: f32) -> (Box<[Vec3]>, Box<[u16]>) {
    let mut points = Vec::with_capacity(CORE_VERTEX_COUNT);
    points.push(Vec3::Y * radius);
    for band in 1..CORE_BANDS {
        let polar = PI * band as f32 / CORE_BANDS as f32;
        for segment in 0..CORE_SEGMENTS {
            let azimuth = TAU * segment as f32 / CORE_SEGMENTS as f32;
            let direction = Vec3::new(
                polar.sin() * azimuth.cos(),
                polar.cos(),
                polar.sin() * azimuth.sin(),
            );
            points.push(direction * radius);
        }
    }
    points.push(-Vec3::Y * radius);

    let ring = |band: usize, segment: usize| {
        (1 + (band - 1) * CORE_SEGMENTS + segment % CORE_SEGMENTS) as u16
    };
    let south = (CORE_VERTEX_COUNT - 1) as u16;
    let mut triangles = Vec::with_capacity(CORE_TRIANGLE_COUNT * 3);
    for s in 0..CORE_SEGMENTS {
        triangles.extend([0, ring(1, s + 1), ring(1, s)]);
        triangles.extend([south, ring(CORE_BANDS - 1, s), ring(CORE_BANDS - 1, s + 1)]);
    }
    for band in 1..CORE_BANDS - 1 {
        for s in 0..CORE_SEGMENTS {
            let (a, b) = (ring(band, s), ring(band, s + 1));
            let (c, d) = (ring(band + 1, s), ring(band + 1, s + 1));
            triangles.extend([a, b, c, b, d, c]);
        }
    }
    (points.into_boxed_slice(), triangles.into_boxed_slice())
}
