// A straightforward plain-JS port of the widgets' per-frame math (core-wasm/src/graphics), used
// only by the benches (the /bench page, app/bench/) to compare against the wasm path. Same buffers, same arithmetic;
// Math.random stands in for the seeded PCG32 (a JS author would not hand-roll 64-bit maths).

const STRIDE = 4;
const DRAG = 0.005;

function wrapAngle(angle) {
  if (angle >= -Math.PI && angle < Math.PI) return angle;
  const t = (angle + Math.PI) % (2 * Math.PI);
  return (t < 0 ? t + 2 * Math.PI : t) - Math.PI;
}

class Orbit {
  constructor(autoStep) {
    this.yaw = 0;
    this.pitch = 0;
    this.autoStep = autoStep;
    this.autoRotate = true;
  }
  drag(dx, dy) {
    this.yaw = wrapAngle(this.yaw + dx * DRAG);
    this.pitch = wrapAngle(this.pitch + dy * DRAG);
    this.autoRotate = false;
  }
  advance() {
    if (this.autoRotate) this.yaw = wrapAngle(this.yaw + this.autoStep);
  }
  /** Row-major 3x3: rotation about x by pitch times rotation about y by yaw. */
  rotation(extraPitch = 0) {
    const cy = Math.cos(this.yaw);
    const sy = Math.sin(this.yaw);
    const cx = Math.cos(this.pitch + extraPitch);
    const sx = Math.sin(this.pitch + extraPitch);
    return [cy, 0, sy, sx * sy, cx, -sx * cy, -cx * sy, sx, cx * cy];
  }
}

function rotate(m, p) {
  return {
    x: m[0] * p.x + m[1] * p.y + m[2] * p.z,
    y: m[3] * p.x + m[4] * p.y + m[5] * p.z,
    z: m[6] * p.x + m[7] * p.y + m[8] * p.z,
  };
}

function writeVertex(buffer, i, p, a) {
  const at = i * STRIDE;
  buffer[at] = p.x;
  buffer[at + 1] = p.y;
  buffer[at + 2] = p.z;
  buffer[at + 3] = a;
}

function normalize(p, length = 1) {
  const n = Math.hypot(p.x, p.y, p.z);
  return { x: (p.x / n) * length, y: (p.y / n) * length, z: (p.z / n) * length };
}

export class IcosahedronJs {
  constructor() {
    this.orbit = new Orbit(0.003);
    this.glowPhase = 0;
    const phi = (1 + Math.sqrt(5)) / 2;
    this.shell = [];
    for (const a of [-1, 1]) {
      for (const b of [-phi, phi]) {
        for (const p of [
          { x: 0, y: a, z: b },
          { x: a, y: b, z: 0 },
          { x: b, y: 0, z: a },
        ]) {
          this.shell.push(normalize(p, 1.5));
        }
      }
    }
    this.core = [{ x: 0, y: 0.5, z: 0 }];
    for (let band = 1; band < 8; band += 1) {
      const polar = (Math.PI * band) / 8;
      for (let s = 0; s < 12; s += 1) {
        const azimuth = (2 * Math.PI * s) / 12;
        this.core.push({
          x: 0.5 * Math.sin(polar) * Math.cos(azimuth),
          y: 0.5 * Math.cos(polar),
          z: 0.5 * Math.sin(polar) * Math.sin(azimuth),
        });
      }
    }
    this.core.push({ x: 0, y: -0.5, z: 0 });
    this.particles = [];
    for (let i = 0; i < 14; i += 1) {
      this.particles.push({ outward: i < 8, alive: false, age: 0, progress: 0, speed: 0 });
    }
    this.shellVertices = new Float32Array(this.shell.length * STRIDE);
    this.coreVertices = new Float32Array(this.core.length * STRIDE);
    this.particleVertices = new Float32Array(14 * STRIDE);
  }

  spawn(outward) {
    const particle = this.particles.find((p) => p.outward === outward && !p.alive);
    if (!particle) return;
    const vertex = this.shell[Math.floor(Math.random() * 12)];
    const corePoint = { x: vertex.x / 3, y: vertex.y / 3, z: vertex.z / 3 };
    particle.alive = true;
    particle.age = 0;
    particle.progress = 0;
    particle.speed = 1 / 80 + (1 / 40 - 1 / 80) * Math.random();
    particle.from = outward ? corePoint : vertex;
    particle.to = outward ? vertex : corePoint;
  }

  step() {
    this.orbit.advance();
    this.glowPhase = (this.glowPhase + 0.05) % (2 * Math.PI);
    if (Math.random() < 0.1) this.spawn(true);
    if (Math.random() < 0.05) this.spawn(false);
    for (const p of this.particles) {
      if (!p.alive) continue;
      p.age += 1;
      p.progress += p.speed;
      if (p.age > 60 || p.progress >= 1) p.alive = false;
    }
    const m = this.orbit.rotation();
    this.shell.forEach((p, i) => {
      writeVertex(this.shellVertices, i, rotate(m, p), 1);
    });
    const glow = 0.85 + 0.15 * Math.sin(this.glowPhase);
    this.core.forEach((p, i) => {
      writeVertex(this.coreVertices, i, rotate(m, p), glow);
    });
    this.particles.forEach((p, i) => {
      if (!p.alive) {
        writeVertex(this.particleVertices, i, { x: 0, y: 0, z: 0 }, 0);
        return;
      }
      const t = p.progress;
      const at = {
        x: p.from.x + (p.to.x - p.from.x) * t,
        y: p.from.y + (p.to.y - p.from.y) * t,
        z: p.from.z + (p.to.z - p.from.z) * t,
      };
      writeVertex(this.particleVertices, i, rotate(m, at), 0.3 + 0.7 * Math.sin(t * Math.PI));
    });
  }
}

export class HypercubeJs {
  constructor() {
    this.orbit = new Orbit(0.003);
    this.xw = 0;
    this.yw = 0;
    this.tiltPhase = 0;
    this.model = [];
    for (let i = 0; i < 16; i += 1) {
      const sign = (k) => ((i >> k) & 1 ? 0.6 : -0.6);
      this.model.push({ x: sign(0), y: sign(1), z: sign(2), w: sign(3) });
    }
    this.radar = [
      { alive: false, age: 0 },
      { alive: false, age: 0 },
    ];
    this.vertices = new Float32Array(16 * STRIDE);
    this.radarVertices = new Float32Array(2 * 8 * STRIDE);
  }

  step() {
    this.xw = wrapAngle(this.xw + 0.005);
    this.yw = wrapAngle(this.yw + 0.005 * 0.5);
    this.tiltPhase = (this.tiltPhase + 1 / 40) % (2 * Math.PI);
    this.orbit.advance();
    for (const cube of this.radar) {
      if (cube.alive) {
        cube.age += 1;
        if (cube.age > 50) cube.alive = false;
      }
    }
    const ages = this.radar.filter((c) => c.alive).map((c) => c.age);
    if (ages.length === 0 || Math.min(...ages) >= 25) {
      const free = this.radar.find((c) => !c.alive);
      if (free) {
        free.alive = true;
        free.age = 0;
      }
    }
    const m = this.orbit.rotation(0.35 * Math.sin(this.tiltPhase));
    const sxw = Math.sin(this.xw);
    const cxw = Math.cos(this.xw);
    const syw = Math.sin(this.yw);
    const cyw = Math.cos(this.yw);
    this.model.forEach((p, i) => {
      const x = p.x * cxw - p.w * sxw;
      const w1 = p.x * sxw + p.w * cxw;
      const y = p.y * cyw - w1 * syw;
      const w = p.y * syw + w1 * cyw;
      const perspective = 3 / (3 - w);
      const projected = rotate(m, { x: x * perspective, y: y * perspective, z: p.z * perspective });
      writeVertex(this.vertices, i, projected, 0.35 + 0.65 * ((w / 1.2 + 1) * 0.5));
    });
    this.radar.forEach((cube, c) => {
      const scale = cube.alive ? cube.age * 0.05 * 0.6 : 0;
      const intensity = cube.alive ? 1 - (cube.age * 0.05) / 2.5 : 0;
      for (let corner = 0; corner < 8; corner += 1) {
        const sign = (k) => ((corner >> k) & 1 ? 1 : -1);
        const p = { x: sign(0) * scale, y: sign(1) * scale, z: sign(2) * scale };
        writeVertex(this.radarVertices, c * 8 + corner, rotate(m, p), intensity);
      }
    });
  }
}

export class HelixJs {
  constructor() {
    this.orbit = new Orbit(0.01);
    this.pulsePhase = 0;
    this.model = [];
    for (const offset of [0, Math.PI]) {
      for (let i = 0; i < 48; i += 1) {
        const t = i / 47;
        const angle = t * 2 * 2 * Math.PI + offset;
        this.model.push({ x: 0.8 * Math.cos(angle), y: (t - 0.5) * 4, z: 0.8 * Math.sin(angle) });
      }
    }
    this.vertices = new Float32Array(96 * STRIDE);
  }

  step() {
    this.orbit.advance();
    this.pulsePhase = wrapAngle(this.pulsePhase + 0.08);
    const m = this.orbit.rotation();
    this.model.forEach((p, i) => {
      const along = i % 48;
      const a = 0.35 + 0.65 * (0.5 + 0.5 * Math.sin(along * 0.4 - this.pulsePhase));
      writeVertex(this.vertices, i, rotate(m, p), a);
    });
  }
}

export class MoleculeJs {
  constructor() {
    this.orbit = new Orbit(0.004);
    this.phase = 0;
    this.arms = [
      { x: 1, y: 1, z: 1 },
      { x: 1, y: -1, z: -1 },
      { x: -1, y: 1, z: -1 },
      { x: -1, y: -1, z: 1 },
    ].map((p) => normalize(p));
    // Any vector orthogonal to the arm, as glam's any_orthonormal_vector gives one.
    this.bends = this.arms.map((arm) => {
      const o = normalize({ x: arm.y, y: -arm.x, z: 0 });
      return normalize({ x: arm.x + o.x * 0.5, y: arm.y + o.y * 0.5, z: arm.z + o.z * 0.5 });
    });
    this.atoms = new Float32Array(9 * STRIDE);
  }

  step() {
    this.orbit.advance();
    this.phase = wrapAngle(this.phase + 0.06);
    const m = this.orbit.rotation();
    writeVertex(this.atoms, 0, { x: 0, y: 0, z: 0 }, 0.32);
    this.arms.forEach((arm, k) => {
      const stretch = 1 + 0.06 * Math.sin(this.phase + k * 1.3);
      const bend = this.bends[k];
      const neighbour = { x: arm.x * stretch, y: arm.y * stretch, z: arm.z * stretch };
      const end = {
        x: neighbour.x + bend.x * 0.6 * stretch,
        y: neighbour.y + bend.y * 0.6 * stretch,
        z: neighbour.z + bend.z * 0.6 * stretch,
      };
      writeVertex(this.atoms, 1 + k, rotate(m, neighbour), 0.22);
      writeVertex(this.atoms, 5 + k, rotate(m, end), 0.14);
    });
  }
}
