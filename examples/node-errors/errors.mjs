// The package's errors say what to do: a call before init() names the call to make and the class,
// a call on a freed object names the class and says it was freed, and free() twice, or
// [Symbol.dispose]() (what `using` calls) after free(), does nothing. Checked on the web build (before
// init), the Node ES entry, the inlined one and the CommonJS one.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

function throws(what, run, wanted) {
  try {
    run();
  } catch (error) {
    if (String(error.message).includes(wanted)) return `${what}: "${error.message}"`;
    throw new Error(`${what}: threw "${error.message}", wanted it to say "${wanted}"`);
  }
  throw new Error(`${what}: did not throw`);
}

const lines = [];
const web = await import("mg-core/web");
lines.push(
  throws("before init()", () => new web.ThemeMachine(), "mg-core: call `await init()` from 'mg-core/web' (or initialize() from 'mg-core/slim') before using ThemeMachine"),
  throws("a function before init()", () => web.maxNameChars(), "before using maxNameChars"),
);
const graphicsWeb = await import("mg-core/graphics/web");
lines.push(throws("graphics before init()", () => new graphicsWeb.HypercubeWidget(), "from 'mg-core/graphics/web'"));

const builds = {
  "mg-core (node)": await import("mg-core"),
  "mg-core/inline": await import("mg-core/inline"),
  'require("mg-core")': require("mg-core"),
};
for (const [build, { ThemeMachine, WisdomMachine }] of Object.entries(builds)) {
  const theme = new ThemeMachine("void");
  theme.free();
  lines.push(throws(`${build}: a method after free()`, () => theme.toggle(), "mg-core: this ThemeMachine was freed"));
  lines.push(throws(`${build}: a getter after free()`, () => theme.theme, "this ThemeMachine was freed"));
  theme.free();
  theme[Symbol.dispose]();
  const wisdom = new WisdomMachine();
  wisdom[Symbol.dispose]();
  wisdom.free();
  lines.push(`${build}: free() twice and [Symbol.dispose]() + free() do nothing`);
}
const { HypercubeWidget } = await import("mg-core/graphics");
const cube = new HypercubeWidget();
cube.free();
lines.push(throws("graphics after free()", () => cube.step(), "mg-core/graphics: this HypercubeWidget was freed"));
console.log(lines.join("\n"));
