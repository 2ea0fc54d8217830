//! Batched kernels of the graphics math, for the browser bench page (`/bench`): the operations the
//! widgets are made of, over buffers of many matrices or points, so a page can time glam's scalar and
//! `simd128` code paths against JavaScript libraries on the same data.
//!
//! Layouts are those of WebGL and gl-matrix: a matrix is 16 `f32` in column-major order, a point is
//! 4 `f32` (`x, y, z, w`), a quaternion is 4 `f32` (`x, y, z, w`). Every function works on as many
//! whole items as all its slices hold and leaves the rest of `out` untouched.

use glam::{Mat4, Quat, Vec4};

const MAT: usize = 16;
const VEC: usize = 4;

/// `out[i] = a[i] * b[i]` for every whole matrix pair.
pub fn mat4_mul_batch(a: &[f32], b: &[f32], out: &mut [f32]) {
    for ((a, b), out) in a
        .chunks_exact(MAT)
        .zip(b.chunks_exact(MAT))
        .zip(out.chunks_exact_mut(MAT))
    {
        let product = Mat4::from_cols_slice(a) * Mat4::from_cols_slice(b);
        product.write_cols_to_slice(out);
    }
}

/// `out[i] = m * points[i]`: one matrix applied to every point.
pub fn mat4_mul_vec4_batch(m: &[f32], points: &[f32], out: &mut [f32]) {
    let Some(m) = m.get(..MAT) else { return };
    transform_points(&Mat4::from_cols_slice(m), points, out);
}

/// `out[i] = q * points[i]` (the `x, y, z` of each point rotated by the unit quaternion `q`; `w`
/// copied through).
///
/// The quaternion becomes a rotation matrix once per batch (its last row and column those of the
/// identity, so `w` passes through), then every point is one matrix-vector product: 9
/// multiplications and 6 additions instead of the quaternion sandwich's 18 and 12, and in the
/// `simd128` build one four-lane multiply-add per column.
pub fn quat_rotate_batch(q: &[f32], points: &[f32], out: &mut [f32]) {
    let Some(q) = q.get(..VEC) else { return };
    let m = Mat4::from_quat(Quat::from_slice(q));
    transform_points(&m, points, out);
}

/// `out[i] = m * points[i]` over whole points, the loop both point kernels share.
#[inline(always)]
fn transform_points(m: &Mat4, points: &[f32], out: &mut [f32]) {
    for (p, out) in points.chunks_exact(VEC).zip(out.chunks_exact_mut(VEC)) {
        (*m * Vec4::from_slice(p)).write_to_slice(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &[f32], b: &[f32]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5)
    }

    #[test]
    fn mat4_mul_batch_matches_glam_per_pair_and_keeps_the_tail() {
        let a: Vec<f32> = (0..32).map(|i| i as f32 * 0.25).collect();
        let b: Vec<f32> = (0..32).map(|i| 1.0 - i as f32 * 0.125).collect();
        let mut out = vec![7.0; 40];
        mat4_mul_batch(&a, &b, &mut out);
        for i in 0..2 {
            let r = i * 16..(i + 1) * 16;
            let expected =
                Mat4::from_cols_slice(&a[r.clone()]) * Mat4::from_cols_slice(&b[r.clone()]);
            assert!(close(&out[r], &expected.to_cols_array()));
        }
        assert_eq!(&out[32..], &[7.0; 8]);
    }

    #[test]
    fn mat4_mul_vec4_batch_translates_points() {
        let m = Mat4::from_translation(glam::Vec3::new(1.0, 2.0, 3.0)).to_cols_array();
        let points = [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0];
        let mut out = [0.0; 8];
        mat4_mul_vec4_batch(&m, &points, &mut out);
        assert!(close(&out, &[1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 0.0]));
    }

    #[test]
    fn quat_rotate_batch_turns_x_into_y_about_z() {
        let q = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
        let points = [1.0, 0.0, 0.0, 5.0];
        let mut out = [0.0; 4];
        quat_rotate_batch(&q.to_array(), &points, &mut out);
        assert!(close(&out, &[0.0, 1.0, 0.0, 5.0]));
    }

    #[test]
    fn quat_rotate_batch_matches_the_quaternion_sandwich_and_keeps_w() {
        let q = Quat::from_xyzw(0.3, -0.5, 0.2, 0.8).normalize();
        let points: Vec<f32> = (0..40).map(|i| (i as f32 * 0.37).sin() * 3.0).collect();
        let mut out = [0.0; 40];
        quat_rotate_batch(&q.to_array(), &points, &mut out);
        for (p, o) in points.chunks_exact(4).zip(out.chunks_exact(4)) {
            let want = q * glam::Vec3::from_slice(p);
            assert!(close(&o[..3], &want.to_array()), "{o:?} vs {want}");
            assert_eq!(o[3], p[3]);
        }
    }

    #[test]
    fn short_inputs_do_nothing() {
        let mut out = [3.0; 4];
        mat4_mul_vec4_batch(&[1.0; 15], &[1.0; 4], &mut out);
        quat_rotate_batch(&[1.0; 3], &[1.0; 4], &mut out);
        assert_eq!(out, [3.0; 4]);
    }
}
