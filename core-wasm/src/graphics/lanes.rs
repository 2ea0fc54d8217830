//! Four lanes at a time: the scenes' per-frame math on glam's `Vec4` and `Mat4`, which the `simd128`
//! build compiles to one wasm SIMD instruction per operation and the scalar build to four plain ones
//! (the same code, so both builds compute the same figures and the same tests cover both).
//!
//! Two pieces:
//! - [`sin4`]: the sine of four angles at once (a frame's trigonometry: the orbit's yaw and pitch,
//!   bond stretches, particle brightness), a polynomial instead of four calls of `f32::sin`;
//! - [`Points4`]: model points stored as a structure of arrays (four `x`, four `y`, four `z`),
//!   rotated four at a time and written out as `x, y, z, a` vertices.

use super::vertex::VERTEX_STRIDE;
use glam::{Mat3, Mat4, Vec3, Vec4};

/// Points in a group: one per lane.
pub(crate) const LANES: usize = 4;

/// `sin` of four angles at once, within 3e-7 of `f32::sin` for `|x| < 1000`.
///
/// Cody and Waite's reduction by π/2 (π/2 split in three parts, so `x − j·π/2` stays exact), then
/// the minimax polynomials of Cephes' `sinf`/`cosf` on `[−π/4, π/4]`, the quadrant choosing which.
pub(crate) fn sin4(x: Vec4) -> Vec4 {
    const PIO2_1: f32 = 1.570_312_5;
    const PIO2_2: f32 = 4.837_513e-4;
    const PIO2_3: f32 = 7.549_79e-8;
    // floor(v + 0.5) rather than round(): one wasm instruction in both builds (round is a libm call).
    let j = (x * core::f32::consts::FRAC_2_PI + Vec4::splat(0.5)).floor();
    let r = x - j * PIO2_1 - j * PIO2_2 - j * PIO2_3;
    let r2 = r * r;
    let sin_r = r + r
        * r2
        * (Vec4::splat(-1.666_665_5e-1)
            + r2 * (Vec4::splat(8.332_161e-3) + r2 * Vec4::splat(-1.951_529_6e-4)));
    let cos_r = Vec4::ONE - r2 * 0.5
        + r2 * r2
            * (Vec4::splat(4.166_664_6e-2)
                + r2 * (Vec4::splat(-1.388_731_6e-3) + r2 * Vec4::splat(2.443_315_7e-5)));
    // Quadrant j mod 4 (also for negative j): sin r, cos r, −sin r, −cos r.
    let quadrant = j - (j * 0.25).floor() * 4.0;
    let odd = (quadrant - (quadrant * 0.5).floor() * 2.0).cmpeq(Vec4::ONE);
    let value = Vec4::select(odd, cos_r, sin_r);
    Vec4::select(quadrant.cmpge(Vec4::splat(2.0)), -value, value)
}

/// `(sin a, cos a, sin b, cos b)` in one [`sin4`].
pub(crate) fn sin_cos2(a: f32, b: f32) -> Vec4 {
    use core::f32::consts::FRAC_PI_2;
    sin4(Vec4::new(a, a + FRAC_PI_2, b, b + FRAC_PI_2))
}

/// A rotation's nine entries, each splatted across the four lanes (hoisted out of a group loop).
#[derive(Clone, Copy)]
pub(crate) struct Splat3 {
    cols: [[Vec4; 3]; 3],
}

impl Splat3 {
    pub(crate) fn new(m: &Mat3) -> Self {
        let splat = |c: Vec3| [Vec4::splat(c.x), Vec4::splat(c.y), Vec4::splat(c.z)];
        Splat3 {
            cols: [splat(m.x_axis), splat(m.y_axis), splat(m.z_axis)],
        }
    }

    /// Four points rotated, as `[xs, ys, zs]`.
    #[inline(always)]
    pub(crate) fn apply(&self, [x, y, z]: [Vec4; 3]) -> [Vec4; 3] {
        let [c0, c1, c2] = &self.cols;
        [
            x * c0[0] + y * c1[0] + z * c2[0],
            x * c0[1] + y * c1[1] + z * c2[1],
            x * c0[2] + y * c1[2] + z * c2[2],
        ]
    }
}

/// Writes four vertices `x, y, z, a` (lanes of `xyz` and `a`) at group `group` of a vertex buffer;
/// a last group that the buffer holds only partly writes the vertices that fit.
#[inline(always)]
pub(crate) fn write_group(out: &mut [f32], group: usize, [x, y, z]: [Vec4; 3], a: Vec4) {
    // The transpose turns four lanes of each coordinate into four interleaved vertices.
    let vertices = Mat4::from_cols(x, y, z, a).transpose();
    let at = group * LANES * VERTEX_STRIDE;
    if let Some(whole) = out.get_mut(at..at + LANES * VERTEX_STRIDE) {
        // A vertex per store: one `v128.store` each in the simd128 build. (glam's
        // `write_cols_to_slice` writes the sixteen floats one by one, which there costs an
        // `extract_lane` and a store each: as much as the whole scalar build's write.)
        whole[..4].copy_from_slice(&vertices.x_axis.to_array());
        whole[4..8].copy_from_slice(&vertices.y_axis.to_array());
        whole[8..12].copy_from_slice(&vertices.z_axis.to_array());
        whole[12..].copy_from_slice(&vertices.w_axis.to_array());
    } else if let Some(tail) = out.get_mut(at..) {
        let floats = vertices.to_cols_array();
        tail.copy_from_slice(&floats[..tail.len()]);
    }
}

/// Model points as a structure of arrays, four to a group (`[xs, ys, zs]`), the last group padded
/// with the origin.
#[derive(Debug, Clone)]
pub(crate) struct Points4 {
    groups: Box<[[Vec4; 3]]>,
}

impl Points4 {
    pub(crate) fn new(points: &[Vec3]) -> Self {
        let groups = points
            .chunks(LANES)
            .map(|chunk| {
                let lane = |f: fn(&Vec3) -> f32| {
                    let mut values = [0.0; LANES];
                    for (value, p) in values.iter_mut().zip(chunk) {
                        *value = f(p);
                    }
                    Vec4::from_array(values)
                };
                [lane(|p| p.x), lane(|p| p.y), lane(|p| p.z)]
            })
            .collect();
        Points4 { groups }
    }

    /// The groups, `[xs, ys, zs]` each.
    pub(crate) fn groups(&self) -> &[[Vec4; 3]] {
        &self.groups
    }

    /// Rotates every point by `rotation` and writes it into `out` as `x, y, z, a`, where the four
    /// `a` of group `g` are `alpha(g)`. `out` holds the points' vertices (4 floats each).
    #[inline]
    pub(crate) fn write_rotated(
        &self,
        rotation: &Mat3,
        alpha: impl Fn(usize) -> Vec4,
        out: &mut [f32],
    ) {
        let rotation = Splat3::new(rotation);
        for (g, &group) in self.groups.iter().enumerate() {
            write_group(out, g, rotation.apply(group), alpha(g));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin4_matches_the_sine_over_many_turns_both_signs() {
        let mut worst = 0.0f32;
        for i in -200_000..200_000 {
            let x = i as f32 * 0.003_1;
            let got = sin4(Vec4::new(x, -x, x + 0.5, x * 0.25));
            let want = Vec4::new(x.sin(), (-x).sin(), (x + 0.5).sin(), (x * 0.25).sin());
            worst = worst.max((got - want).abs().max_element());
        }
        assert!(worst < 3e-7, "worst error {worst}");
    }

    #[test]
    fn sin_cos2_gives_both_angles_sine_and_cosine() {
        for &(a, b) in &[(0.0, 1.0), (-3.1, 3.1), (0.7, -2.2), (9.5, -12.0)] {
            let v = sin_cos2(a, b);
            let want = Vec4::new(a.sin(), a.cos(), b.sin(), b.cos());
            assert!(v.abs_diff_eq(want, 1e-6), "{v} vs {want}");
        }
    }

    #[test]
    fn points_rotate_like_mat3_times_vec3_and_the_tail_is_kept() {
        let points: Vec<Vec3> = (0..7)
            .map(|i| Vec3::new(i as f32, 1.0 - i as f32 * 0.5, 0.25 * i as f32))
            .collect();
        let soa = Points4::new(&points);
        assert_eq!(soa.groups().len(), 2);
        let rotation = Mat3::from_rotation_x(0.4) * Mat3::from_rotation_y(-1.1);
        let mut out = [9.0; 7 * VERTEX_STRIDE + 3];
        soa.write_rotated(
            &rotation,
            |g| Vec4::splat(g as f32 + 0.5),
            &mut out[..7 * VERTEX_STRIDE],
        );
        for (i, &p) in points.iter().enumerate() {
            let want = rotation * p;
            let got = Vec3::from_slice(&out[i * 4..]);
            assert!(got.abs_diff_eq(want, 1e-5), "point {i}: {got} vs {want}");
            assert_eq!(out[i * 4 + 3], (i / 4) as f32 + 0.5);
        }
        assert_eq!(&out[7 * VERTEX_STRIDE..], &[9.0; 3]);
    }
}
