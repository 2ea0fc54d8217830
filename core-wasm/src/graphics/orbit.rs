//! Drag-to-rotate and slow auto-rotation, shared by every scene (spec 4 "Graphics" and 9).

use super::lanes::sin_cos2;
use glam::{Mat3, Vec3};
use std::f32::consts::{PI, TAU};

/// Radians of rotation per pixel dragged (spec 9: 0.005 per pixel).
pub const DRAG_RADIANS_PER_PIXEL: f32 = 0.005;

/// Radians of yaw per frame while auto-rotating (spec 9: 0.003 per frame).
pub const AUTO_ROTATION_PER_FRAME: f32 = 0.003;

/// The orientation of a scene: yaw about the vertical axis, then pitch about the horizontal one.
///
/// A drag stops auto-rotation for good: once someone has turned the shape by hand it stays
/// where they left it (spec 4: "dragging stops auto-rotation"). The app may resume it with
/// [`Orbit::set_auto_rotate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Orbit {
    yaw: f32,
    pitch: f32,
    auto_step: f32,
    auto_rotate: bool,
}

impl Orbit {
    /// An orbit at rest that auto-rotates by `auto_step` radians of yaw per frame.
    pub const fn new(auto_step: f32) -> Self {
        Orbit {
            yaw: 0.0,
            pitch: 0.0,
            auto_step,
            auto_rotate: true,
        }
    }

    /// Applies a pointer move of `dx_px` by `dy_px` CSS pixels: horizontal movement turns the
    /// yaw, vertical movement the pitch, both at [`DRAG_RADIANS_PER_PIXEL`]; stops auto-rotation.
    pub fn drag(&mut self, dx_px: f32, dy_px: f32) {
        self.yaw = wrap_angle(self.yaw + dx_px * DRAG_RADIANS_PER_PIXEL);
        self.pitch = wrap_angle(self.pitch + dy_px * DRAG_RADIANS_PER_PIXEL);
        self.auto_rotate = false;
    }

    /// Turns auto-rotation on or off.
    pub fn set_auto_rotate(&mut self, on: bool) {
        self.auto_rotate = on;
    }

    /// Whether the orbit still turns by itself each frame.
    pub fn is_auto_rotating(&self) -> bool {
        self.auto_rotate
    }

    /// Advances one frame of auto-rotation, if it is on.
    pub fn advance(&mut self) {
        if self.auto_rotate {
            self.yaw = wrap_angle(self.yaw + self.auto_step);
        }
    }

    /// Current yaw in radians, in `[-π, π)`.
    pub fn yaw(&self) -> f32 {
        self.yaw
    }

    /// Current pitch in radians, in `[-π, π)`.
    pub fn pitch(&self) -> f32 {
        self.pitch
    }

    /// The rotation to apply to model-space points: yaw first, then pitch, so dragging up tilts
    /// the shape towards the viewer whatever its yaw.
    pub fn rotation(&self) -> Mat3 {
        // Mat3::from_rotation_x(pitch) * Mat3::from_rotation_y(yaw), multiplied out, with the four
        // sines and cosines from one four-lane sine.
        let [sy, cy, sp, cp] = sin_cos2(self.yaw, self.pitch).to_array();
        Mat3::from_cols(
            Vec3::new(cy, sp * sy, -cp * sy),
            Vec3::new(0.0, cp, sp),
            Vec3::new(sy, -sp * cy, cp * cy),
        )
    }
}

/// Keeps an angle in `[-π, π)` so hours of auto-rotation do not erode `f32` precision.
pub(crate) fn wrap_angle(angle: f32) -> f32 {
    // Only wrap when needed: shifting every angle by π would cost it low bits each frame.
    if (-PI..PI).contains(&angle) {
        angle
    } else {
        (angle + PI).rem_euclid(TAU) - PI
    }
}

/// The drag and orientation methods every scene has, over its `orbit: Orbit` field: one
/// `orbit_controls!();` inside the scene's `impl`.
macro_rules! orbit_controls {
    () => {
        /// Applies a pointer drag of `dx_px` by `dy_px` pixels (0.005 rad per pixel) and stops
        /// auto-rotation. The buffers change on the next [`step`](Self::step).
        pub fn drag(&mut self, dx_px: f32, dy_px: f32) {
            self.orbit.drag(dx_px, dy_px);
        }

        /// The scene's orientation (yaw, pitch, auto-rotation).
        pub fn orbit(&self) -> &$crate::graphics::orbit::Orbit {
            &self.orbit
        }

        /// Mutable orientation, e.g. to resume auto-rotation.
        pub fn orbit_mut(&mut self) -> &mut $crate::graphics::orbit::Orbit {
            &mut self.orbit
        }
    };
}
pub(crate) use orbit_controls;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drag_turns_0_005_radians_per_pixel_on_each_axis() {
        let mut orbit = Orbit::new(AUTO_ROTATION_PER_FRAME);
        orbit.drag(100.0, -40.0);
        assert!((orbit.yaw() - 0.5).abs() < 1e-6);
        assert!((orbit.pitch() + 0.2).abs() < 1e-6);
    }

    #[test]
    fn a_drag_stops_auto_rotation_until_it_is_turned_back_on() {
        let mut orbit = Orbit::new(AUTO_ROTATION_PER_FRAME);
        orbit.advance();
        assert!((orbit.yaw() - 0.003).abs() < 1e-7);
        orbit.drag(1.0, 0.0);
        let yaw = orbit.yaw();
        orbit.advance();
        assert_eq!(orbit.yaw(), yaw);
        orbit.set_auto_rotate(true);
        orbit.advance();
        assert!((orbit.yaw() - yaw - 0.003).abs() < 1e-6);
    }

    #[test]
    fn angles_wrap_into_one_turn_without_changing_the_rotation() {
        let mut orbit = Orbit::new(AUTO_ROTATION_PER_FRAME);
        orbit.drag(2_000.0, 0.0); // 10 rad
        assert!((-PI..PI).contains(&orbit.yaw()));
        let expected = Mat3::from_rotation_y(10.0);
        assert!(orbit.rotation().abs_diff_eq(expected, 1e-5));
    }
}
