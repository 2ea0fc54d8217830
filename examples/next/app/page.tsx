// A server component: the graphics run on the server (one hypercube frame, rendered into the HTML);
// the machines with state live in the client components below.
import { HypercubeWidget, wasmMemory } from "mg-core/graphics";
import { ThemeToggle } from "./theme-toggle";
import { Wisdom } from "./wisdom";

export const dynamic = "force-dynamic";

function serverFrame(): number {
  const cube = new HypercubeWidget();
  try {
    cube.step();
    const vertices = new Float32Array(wasmMemory().buffer, cube.verticesPtr(), cube.verticesLen());
    return vertices.filter(Number.isFinite).length;
  } finally {
    cube.free();
  }
}

export default function Page() {
  return (
    <main>
      <p id="server-frame">server hypercube: {serverFrame()} floats</p>
      <ThemeToggle />
      <Wisdom />
    </main>
  );
}
