// Jest's default (node) environment, CommonJS, no configuration: require("mg-core").
const { ThemeMachine, WisdomMachine } = require("mg-core");
const graphics = require("mg-core/graphics");

test("the machines and a graphics buffer", () => {
  const theme = new ThemeMachine(undefined);
  expect(theme.toggle()).toBe("void");
  theme.free();
  const wisdom = new WisdomMachine();
  wisdom.click();
  wisdom.answered(200, '{"wisdom":{"quote":"Know thyself.","orator":"Socrates"}}', 0);
  expect(wisdom.snapshot()).toMatchObject({ status: "success", quote: "Know thyself." });
  expect(wisdom.nextDeadline()).toBe(5000);
  expect(wisdom.tick(5000)).toBe(true);
  wisdom.free();
  const cube = new graphics.HypercubeWidget();
  cube.step();
  const vertices = new Float32Array(graphics.wasmMemory().buffer, cube.verticesPtr(), cube.verticesLen());
  expect(vertices.length).toBe(16 * graphics.vertexStride());
  cube.free();
});
