// Draws one wasm scene with WebGL2: GL objects made once per build, vertex data re-uploaded per frame.

import { GlResources, parseHexColour } from "./gl";
import { type ColourRole, createScene, type DrawSpec, type SceneName, STRIDE } from "./scenes";
import { wasmMemory } from "./wasm";

const VERTEX_SHADER = `#version 300 es
layout(location = 0) in vec4 a_vertex;
uniform vec2 u_scale;
uniform float u_perspective;
uniform float u_pointPx;
uniform float u_radiusPx;
uniform bool u_radiusPoints;
uniform float u_opacity;
out float v_alpha;
void main() {
  vec3 p = a_vertex.xyz;
  // 'a' is an intensity, or an atom radius for radius points (then fully opaque).
  float intensity = u_radiusPoints ? 1.0 : a_vertex.w;
  if (intensity <= 0.0) {
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
    gl_PointSize = 0.0;
    v_alpha = 0.0;
    return;
  }
  float w = 1.0 - p.z * u_perspective;
  gl_Position = vec4(p.xy * u_scale, 0.0, w);
  gl_PointSize = (u_radiusPoints ? 2.0 * a_vertex.w * u_radiusPx : u_pointPx) / w;
  v_alpha = intensity * u_opacity;
}`;

const FRAGMENT_SHADER = `#version 300 es
precision mediump float;
uniform vec3 u_colour;
uniform bool u_points;
in float v_alpha;
out vec4 colour;
void main() {
  float alpha = v_alpha;
  if (u_points) {
    float d = length(gl_PointCoord - 0.5) * 2.0;
    if (d > 1.0) discard;
    alpha *= 1.0 - smoothstep(0.55, 1.0, d);
  }
  colour = vec4(u_colour * alpha, alpha);
}`;

/** Fallback colours if a custom property is missing: spec 9's fixed palette. */
const DEFAULT_COLOURS: Record<ColourRole, readonly [number, number, number]> = {
  primary: [0, 0.83, 1],
  secondary: [1, 0.42, 0.85],
  glow: [0.55, 0.36, 0.96],
};

type Draw = {
  spec: DrawSpec;
  vao: WebGLVertexArrayObject;
  count: number;
  mode: GLenum;
};

type Set = { buffer: WebGLBuffer; ptr: number; len: number; view: Float32Array; draws: Draw[] };

/** One build of a widget: the wasm scene and every GL object drawing it. Dispose and rebuild on
 * a theme change or a restored context. */
export class SceneRenderer {
  private readonly resources: GlResources;
  private readonly scene;
  private readonly program: WebGLProgram;
  private readonly sets: Set[] = [];
  private readonly colours: Record<ColourRole, readonly [number, number, number]>;
  private readonly uniforms: Record<string, WebGLUniformLocation | null> = {};
  private viewsOver: ArrayBufferLike | null = null;
  private pixelsPerUnit = 1;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    name: SceneName,
    seed: number,
    style: CSSStyleDeclaration,
  ) {
    this.resources = new GlResources(gl);
    this.scene = createScene(name, seed);
    const colour = (role: ColourRole) =>
      parseHexColour(style.getPropertyValue(`--graphics-${role}`), DEFAULT_COLOURS[role]);
    this.colours = {
      primary: colour("primary"),
      secondary: colour("secondary"),
      glow: colour("glow"),
    };
    try {
      this.program = this.resources.program(VERTEX_SHADER, FRAGMENT_SHADER);
      for (const uniform of [
        "u_scale",
        "u_perspective",
        "u_pointPx",
        "u_radiusPx",
        "u_radiusPoints",
        "u_opacity",
        "u_colour",
        "u_points",
      ]) {
        this.uniforms[uniform] = gl.getUniformLocation(this.program, uniform);
      }
      this.createBuffers();
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  /** GL objects alive in this build. */
  get liveObjects(): number {
    return this.resources.count;
  }

  drag(dx: number, dy: number): void {
    this.scene.drag(dx, dy);
  }

  /** Sets the viewport for a drawing buffer of `width` by `height` device pixels. */
  resize(width: number, height: number): void {
    const { gl } = this;
    gl.viewport(0, 0, width, height);
    const shortest = Math.min(width, height);
    const unit = 1 / this.scene.fitRadius;
    gl.useProgram(this.program);
    gl.uniform2f(
      this.uniforms.u_scale ?? null,
      (unit * shortest) / width,
      (unit * shortest) / height,
    );
    gl.uniform1f(this.uniforms.u_perspective ?? null, 0.25 / this.scene.fitRadius);
    this.pixelsPerUnit = shortest / 2 / this.scene.fitRadius;
    gl.uniform1f(this.uniforms.u_radiusPx ?? null, this.pixelsPerUnit);
  }

  /** Draws a frame, advancing the scene first when `advance` is set. */
  render(advance: boolean, devicePixelRatio: number): void {
    const { gl } = this;
    if (advance) this.scene.step();
    this.refreshViews();
    gl.clearColor(0, 0, 0, 0);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.useProgram(this.program);
    const u = this.uniforms;
    for (const set of this.sets) {
      gl.bindBuffer(gl.ARRAY_BUFFER, set.buffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, set.view);
      for (const draw of set.draws) {
        const { spec } = draw;
        const [r, g, b] = this.colours[spec.colour];
        gl.uniform3f(u.u_colour ?? null, r, g, b);
        gl.uniform1f(u.u_opacity ?? null, spec.opacity);
        gl.uniform1i(u.u_points ?? null, spec.mode === "points" ? 1 : 0);
        gl.uniform1i(u.u_radiusPoints ?? null, spec.pointSize === "radius" ? 1 : 0);
        gl.uniform1f(
          u.u_pointPx ?? null,
          typeof spec.pointSize === "number" ? spec.pointSize * devicePixelRatio : 0,
        );
        gl.bindVertexArray(draw.vao);
        if (spec.indices) gl.drawElements(draw.mode, draw.count, gl.UNSIGNED_SHORT, 0);
        else gl.drawArrays(draw.mode, 0, draw.count);
      }
    }
    gl.bindVertexArray(null);
  }

  /** Deletes every GL object of this build and frees the wasm scene. */
  dispose(): void {
    this.resources.disposeAll();
    this.scene.free();
    this.sets.length = 0;
  }

  /** The views are derived from `memory.buffer` every frame; they are rebuilt only when wasm
   * memory grew (a new buffer), so steady frames allocate nothing and a grown memory never
   * leaves a detached view behind. */
  private refreshViews(): void {
    const buffer = wasmMemory().buffer;
    if (buffer === this.viewsOver) return;
    for (const set of this.sets) set.view = new Float32Array(buffer, set.ptr, set.len);
    this.viewsOver = buffer;
  }

  private createBuffers(): void {
    const { gl } = this;
    const modes = { lines: gl.LINES, triangles: gl.TRIANGLES, points: gl.POINTS } as const;
    const memory = wasmMemory().buffer;
    for (const source of this.scene.sets) {
      const { ptr, len } = source.vertices();
      const view = new Float32Array(memory, ptr, len);
      const buffer = this.resources.buffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, view, gl.DYNAMIC_DRAW);
      const draws = source.draws.map((spec): Draw => {
        const vao = this.resources.vertexArray();
        gl.bindVertexArray(vao);
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.enableVertexAttribArray(0);
        gl.vertexAttribPointer(0, STRIDE, gl.FLOAT, false, STRIDE * 4, 0);
        let count = len / STRIDE;
        if (spec.indices) {
          const indices = spec.indices();
          const elements = this.resources.buffer();
          gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, elements);
          // Indices never change: uploaded once.
          gl.bufferData(
            gl.ELEMENT_ARRAY_BUFFER,
            new Uint16Array(memory, indices.ptr, indices.len),
            gl.STATIC_DRAW,
          );
          count = indices.len;
        }
        gl.bindVertexArray(null);
        return { spec, vao, count, mode: modes[spec.mode] };
      });
      this.sets.push({ buffer, ptr, len, view, draws });
    }
    this.viewsOver = memory;
  }
}
