//! A tiny seeded PCG32 generator, so particle spawning is random on screen and reproducible in tests.

/// PCG-XSH-RR 32-bit generator (O'Neill 2014). Hand-written because it is ten lines and keeps
/// `getrandom` (and its wasm feature juggling) out of the bundle; quality is ample for sparkles.
#[derive(Debug, Clone)]
pub struct SeededRng {
    state: u64,
}

const MULTIPLIER: u64 = 6_364_136_223_846_793_005;
const INCREMENT: u64 = 1_442_695_040_888_963_407;

impl SeededRng {
    /// A generator whose whole sequence is fixed by `seed` (the same seed gives the same frames).
    pub fn new(seed: u64) -> Self {
        // The reference seeding: advance once, add the seed, advance again, so that small or
        // similar seeds still start far apart.
        let mut rng = SeededRng { state: 0 };
        rng.next_u32();
        rng.state = rng.state.wrapping_add(seed);
        rng.next_u32();
        rng
    }

    /// The next 32 uniformly distributed bits.
    pub fn next_u32(&mut self) -> u32 {
        let old = self.state;
        self.state = old.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT);
        let xorshifted = (((old >> 18) ^ old) >> 27) as u32;
        let rot = (old >> 59) as u32;
        xorshifted.rotate_right(rot)
    }

    /// A uniform float in `[0, 1)`, built from the top 24 bits so every value is exact in `f32`.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// `true` with probability `p` (one draw, whatever `p` is).
    pub fn chance(&mut self, p: f32) -> bool {
        self.next_f32() < p
    }

    /// A uniform float in `[low, high)`.
    pub fn range(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.next_f32()
    }

    /// A uniform index in `0..len` (`len` must be non-zero); the slight modulo bias is harmless
    /// for lengths this small.
    pub fn index(&mut self, len: usize) -> usize {
        self.next_u32() as usize % len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence_and_another_seed_does_not() {
        let mut a = SeededRng::new(7);
        let mut b = SeededRng::new(7);
        let mut c = SeededRng::new(8);
        let from_a: Vec<u32> = (0..16).map(|_| a.next_u32()).collect();
        let from_b: Vec<u32> = (0..16).map(|_| b.next_u32()).collect();
        let from_c: Vec<u32> = (0..16).map(|_| c.next_u32()).collect();
        assert_eq!(from_a, from_b);
        assert_ne!(from_a, from_c);
    }

    #[test]
    fn floats_stay_in_the_unit_interval_and_average_one_half() {
        let mut rng = SeededRng::new(1);
        let n = 100_000;
        let mut sum = 0.0f64;
        for _ in 0..n {
            let x = rng.next_f32();
            assert!((0.0..1.0).contains(&x));
            sum += f64::from(x);
        }
        let mean = sum / f64::from(n);
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    }
}
