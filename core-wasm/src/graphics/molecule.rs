//! A small vibrating molecule for the status page: a tetrahedral centre, four neighbours and four
//! end atoms, joined by bonds.

use super::default_new::default_is_new;
use super::lanes::{sin4, write_group, Points4, Splat3};
use super::orbit::{orbit_controls, wrap_angle, Orbit};
use super::vertex::{write_vertex, VERTEX_STRIDE};
use glam::{Mat3, Vec3, Vec4};

/// Atoms: the centre, four neighbours, four end atoms.
pub const ATOM_COUNT: usize = 9;
/// Bonds: centre to each neighbour, each neighbour to its end atom.
pub const BOND_COUNT: usize = 8;
/// Rest length of a centre-to-neighbour bond.
pub const INNER_BOND: f32 = 1.0;
/// Rest length of a neighbour-to-end bond.
pub const OUTER_BOND: f32 = 0.6;
/// Radius of the centre atom, then of the neighbours, then of the end atoms.
pub const ATOM_RADII: [f32; 3] = [0.32, 0.22, 0.14];
/// Fraction by which bonds stretch and shrink as the molecule vibrates.
pub const VIBRATION_AMPLITUDE: f32 = 0.06;
/// Radians per frame of the vibration (about 1.7 s per period at 60 fps).
pub const VIBRATION_PER_FRAME: f32 = 0.06;
/// Radians of yaw per frame while auto-rotating.
pub const AUTO_ROTATION_PER_FRAME: f32 = 0.004;

/// Every atom centre lies within this distance of the origin (fully stretched bonds).
pub const BOUNDING_RADIUS: f32 = (INNER_BOND + OUTER_BOND) * (1.0 + VIBRATION_AMPLITUDE);

/// The molecule scene. Draw [`atom_vertices`](Self::atom_vertices) as `gl.POINTS` (here `a` is
/// the atom's radius in scene units, not an alpha) and [`bond_indices`](Self::bond_indices) into
/// the same buffer as `gl.LINES`.
#[derive(Debug, Clone)]
pub struct MoleculeScene {
    orbit: Orbit,
    phase: f32,
    /// Unit bond directions of the four neighbours (a regular tetrahedron), one per lane
    /// (`[xs, ys, zs]`).
    arm_lanes: [Vec4; 3],
    /// Unit directions from each neighbour to its end atom, one per lane: off the arm's line, so
    /// the shape is not a plain star.
    bend_lanes: [Vec4; 3],
    atoms: Box<[f32]>,
    bonds: Box<[u16]>,
}

default_is_new!(MoleculeScene);

impl MoleculeScene {
    /// Builds the molecule, with its buffers already holding a drawable frame.
    pub fn new() -> Self {
        let arms = [
            Vec3::new(1.0, 1.0, 1.0),
            Vec3::new(1.0, -1.0, -1.0),
            Vec3::new(-1.0, 1.0, -1.0),
            Vec3::new(-1.0, -1.0, 1.0),
        ]
        .map(Vec3::normalize);
        // Atom 0 is the centre, 1..=4 the neighbours, 5..=8 the end atom of each neighbour.
        let mut bonds = Vec::with_capacity(BOND_COUNT * 2);
        for arm in 1..=4u16 {
            bonds.extend([0, arm, arm, arm + 4]);
        }
        let bends = arms.map(|arm| (arm + arm.any_orthonormal_vector() * 0.5).normalize());
        let mut scene = MoleculeScene {
            orbit: Orbit::new(AUTO_ROTATION_PER_FRAME),
            phase: 0.0,
            arm_lanes: Points4::new(&arms).groups()[0],
            bend_lanes: Points4::new(&bends).groups()[0],
            atoms: vec![0.0; ATOM_COUNT * VERTEX_STRIDE].into_boxed_slice(),
            bonds: bonds.into_boxed_slice(),
        };
        // The centre atom never moves: written once, here.
        write_vertex(&mut scene.atoms, 0, Vec3::ZERO, ATOM_RADII[0]);
        scene.write_buffers();
        scene
    }

    /// Advances one frame (rotation and vibration) and rewrites the atom buffer. Allocates nothing.
    pub fn step(&mut self) {
        self.orbit.advance();
        self.phase = wrap_angle(self.phase + VIBRATION_PER_FRAME);
        self.write_buffers();
    }

    orbit_controls!();

    /// Atoms, `x, y, z, radius` × [`ATOM_COUNT`].
    pub fn atom_vertices(&self) -> &[f32] {
        &self.atoms
    }

    /// Bonds as index pairs into the atoms ([`BOND_COUNT`]). Never changes.
    pub fn bond_indices(&self) -> &[u16] {
        &self.bonds
    }

    fn write_buffers(&mut self) {
        let rotation: Mat3 = self.orbit.rotation();
        // The four arms at once, one per lane; each vibrates out of step with the others, as real
        // bond modes do.
        let stretch = Vec4::ONE
            + sin4(Vec4::splat(self.phase) + Vec4::new(0.0, 1.3, 2.6, 3.9)) * VIBRATION_AMPLITUDE;
        let [ax, ay, az] = self.arm_lanes;
        let [bx, by, bz] = self.bend_lanes;
        let inner = stretch * INNER_BOND;
        let outer = stretch * OUTER_BOND;
        let neighbours = [ax * inner, ay * inner, az * inner];
        let ends = [
            neighbours[0] + bx * outer,
            neighbours[1] + by * outer,
            neighbours[2] + bz * outer,
        ];
        let splat = Splat3::new(&rotation);
        // Atoms 1..=4 are the neighbours and 5..=8 their end atoms: groups of four from atom 1.
        let out = &mut self.atoms[VERTEX_STRIDE..];
        write_group(out, 0, splat.apply(neighbours), Vec4::splat(ATOM_RADII[1]));
        write_group(out, 1, splat.apply(ends), Vec4::splat(ATOM_RADII[2]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphics::read_position;

    fn bond_lengths(scene: &MoleculeScene) -> Vec<f32> {
        scene
            .bond_indices()
            .chunks_exact(2)
            .map(|b| {
                let atoms = scene.atom_vertices();
                read_position(atoms, b[0] as usize).distance(read_position(atoms, b[1] as usize))
            })
            .collect()
    }

    #[test]
    fn the_molecule_has_9_atoms_and_8_bonds_with_the_centre_bonded_4_times() {
        let scene = MoleculeScene::new();
        assert_eq!(scene.atom_vertices().len(), ATOM_COUNT * VERTEX_STRIDE);
        assert_eq!(scene.bond_indices().len(), BOND_COUNT * 2);
        let centre_bonds = scene
            .bond_indices()
            .chunks_exact(2)
            .filter(|b| b[0] == 0)
            .count();
        assert_eq!(centre_bonds, 4);
    }

    #[test]
    fn bonds_vibrate_within_six_percent_of_their_rest_length() {
        let mut scene = MoleculeScene::new();
        let (mut shortest, mut longest) = (f32::INFINITY, 0.0f32);
        for _ in 0..1_000 {
            scene.step();
            for (k, length) in bond_lengths(&scene).into_iter().enumerate() {
                let rest = if k % 2 == 0 { INNER_BOND } else { OUTER_BOND };
                let ratio = length / rest;
                assert!(
                    (ratio - 1.0).abs() <= VIBRATION_AMPLITUDE + 1e-5,
                    "bond {k}: {ratio}"
                );
                shortest = shortest.min(ratio);
                longest = longest.max(ratio);
            }
            for i in 0..ATOM_COUNT {
                assert!(read_position(scene.atom_vertices(), i).length() <= BOUNDING_RADIUS + 1e-5);
            }
        }
        assert!(
            longest - shortest > VIBRATION_AMPLITUDE,
            "the bonds hardly moved"
        );
    }

    #[test]
    fn the_fourth_component_is_the_atom_radius() {
        let scene = MoleculeScene::new();
        let radius = |i: usize| scene.atom_vertices()[i * VERTEX_STRIDE + 3];
        assert_eq!(radius(0), ATOM_RADII[0]);
        assert!((1..=4).all(|i| radius(i) == ATOM_RADII[1]));
        assert!((5..=8).all(|i| radius(i) == ATOM_RADII[2]));
    }
}
