// The /bench page's three kernels in plain JavaScript, and the inputs every implementation of them
// is measured on: the loops a developer writes by hand over flat Float32Arrays (column-major).
import { quat } from "gl-matrix";

/** `n` values in [-1, 1), the same for a seed on every run and in every implementation. */
function random(n: number, seed: number): Float32Array {
  // A small LCG.
  const out = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i += 1) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = (s / 2 ** 32) * 2 - 1;
  }
  return out;
}

export function jsMat4Mul(
  a: Float32Array,
  b: Float32Array,
  out: Float32Array,
  count: number,
): void {
  for (let m = 0; m < count; m += 1) {
    const o = m * 16;
    for (let c = 0; c < 4; c += 1) {
      const b0 = b[o + c * 4] as number;
      const b1 = b[o + c * 4 + 1] as number;
      const b2 = b[o + c * 4 + 2] as number;
      const b3 = b[o + c * 4 + 3] as number;
      for (let r = 0; r < 4; r += 1) {
        out[o + c * 4 + r] =
          (a[o + r] as number) * b0 +
          (a[o + 4 + r] as number) * b1 +
          (a[o + 8 + r] as number) * b2 +
          (a[o + 12 + r] as number) * b3;
      }
    }
  }
}

export function jsMat4Vec4(
  m: Float32Array,
  p: Float32Array,
  out: Float32Array,
  count: number,
): void {
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = m as unknown as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  for (let i = 0; i < count * 4; i += 4) {
    const x = p[i] as number;
    const y = p[i + 1] as number;
    const z = p[i + 2] as number;
    const w = p[i + 3] as number;
    out[i] = m0 * x + m4 * y + m8 * z + m12 * w;
    out[i + 1] = m1 * x + m5 * y + m9 * z + m13 * w;
    out[i + 2] = m2 * x + m6 * y + m10 * z + m14 * w;
    out[i + 3] = m3 * x + m7 * y + m11 * z + m15 * w;
  }
}

export function jsQuatRotate(
  q: Float32Array,
  p: Float32Array,
  out: Float32Array,
  count: number,
): void {
  const qx = q[0] as number;
  const qy = q[1] as number;
  const qz = q[2] as number;
  const qw = q[3] as number;
  for (let i = 0; i < count * 4; i += 4) {
    const x = p[i] as number;
    const y = p[i + 1] as number;
    const z = p[i + 2] as number;
    // v + 2w(q x v) + 2 q x (q x v)
    const tx = 2 * (qy * z - qz * y);
    const ty = 2 * (qz * x - qx * z);
    const tz = 2 * (qx * y - qy * x);
    out[i] = x + qw * tx + (qy * tz - qz * ty);
    out[i + 1] = y + qw * ty + (qz * tx - qx * tz);
    out[i + 2] = z + qw * tz + (qx * ty - qy * tx);
    out[i + 3] = p[i + 3] as number;
  }
}

/** gl-matrix as its documentation shows it: one small typed array per matrix or vector. */
export function split(flat: Float32Array, width: number): Float32Array[] {
  const items: Float32Array[] = [];
  for (let i = 0; i + width <= flat.length; i += width) items.push(flat.slice(i, i + width));
  return items;
}

/** A checksum of a result (every 7th value), so that no run is optimised away. */
export const sum = (array: Float32Array): number => {
  let total = 0;
  for (let i = 0; i < array.length; i += 7) total += array[i] as number;
  return total;
};

/** The inputs of a run: `matrices` matrix pairs, `points` points, one matrix and one rotation. */
export function kernelInputs(points: number, matrices: number) {
  const a = random(matrices * 16, 1);
  return {
    a,
    b: random(matrices * 16, 2),
    p: random(points * 4, 3),
    m: a.slice(0, 16),
    q: new Float32Array(quat.normalize(quat.create(), quat.fromValues(0.3, -0.5, 0.2, 0.8))),
    outM: new Float32Array(matrices * 16),
    outP: new Float32Array(points * 4),
  };
}
