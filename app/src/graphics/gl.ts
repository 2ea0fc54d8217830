// Small WebGL2 helpers shared by the widget renderers: tracked resource creation and shader linking.

type GlObject = WebGLBuffer | WebGLVertexArrayObject | WebGLShader | WebGLProgram;

/** Every GL object a renderer created, so a rebuild can delete them all and tests can count them. */
export class GlResources {
  private readonly live = new Set<GlObject>();

  constructor(readonly gl: WebGL2RenderingContext) {}

  /** GL objects created and not yet deleted. */
  get count(): number {
    return this.live.size;
  }

  buffer(): WebGLBuffer {
    return this.track(this.gl.createBuffer());
  }

  vertexArray(): WebGLVertexArrayObject {
    return this.track(this.gl.createVertexArray());
  }

  /** Compiles and links a program; the shaders are deleted once linked (the program keeps them). */
  program(vertexSource: string, fragmentSource: string): WebGLProgram {
    const { gl } = this;
    const program = this.track(gl.createProgram());
    const shaders = [
      this.shader(gl.VERTEX_SHADER, vertexSource),
      this.shader(gl.FRAGMENT_SHADER, fragmentSource),
    ];
    for (const shader of shaders) gl.attachShader(program, shader);
    gl.linkProgram(program);
    const linked = gl.getProgramParameter(program, gl.LINK_STATUS) as boolean;
    const log = linked ? "" : (gl.getProgramInfoLog(program) ?? "");
    for (const shader of shaders) this.release(shader);
    if (!linked && !gl.isContextLost()) throw new Error(`shader link failed: ${log}`);
    return program;
  }

  /** Deletes every object still alive (the context itself stays usable). */
  disposeAll(): void {
    for (const object of [...this.live]) this.release(object);
  }

  private shader(type: GLenum, source: string): WebGLShader {
    const { gl } = this;
    const shader = this.track(gl.createShader(type));
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS) && !gl.isContextLost()) {
      throw new Error(`shader compile failed: ${gl.getShaderInfoLog(shader) ?? ""}`);
    }
    return shader;
  }

  private track<T extends GlObject>(object: T | null): T {
    if (!object) throw new Error("WebGL object creation failed");
    this.live.add(object);
    return object;
  }

  private release(object: GlObject): void {
    const { gl } = this;
    if (object instanceof WebGLBuffer) gl.deleteBuffer(object);
    else if (object instanceof WebGLVertexArrayObject) gl.deleteVertexArray(object);
    else if (object instanceof WebGLShader) gl.deleteShader(object);
    else if (object instanceof WebGLProgram) gl.deleteProgram(object);
    this.live.delete(object);
  }
}

/** `#rrggbb` (or `#rgb`) to linear-ish 0..1 RGB; anything else gives `fallback`. */
export function parseHexColour(value: string, fallback: readonly [number, number, number]) {
  const hex = value.trim().replace(/^#/, "");
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return fallback;
  const channel = (i: number) => Number.parseInt(full.slice(i, i + 2), 16) / 255;
  return [channel(0), channel(2), channel(4)] as const;
}
