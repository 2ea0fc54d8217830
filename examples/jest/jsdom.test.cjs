/**
 * @jest-environment jsdom
 */
// Jest's jsdom environment (the `browser` and `require` conditions), no configuration.
const { ThemeMachine, WisdomMachine } = require("mg-core");
const graphics = require("mg-core/graphics");

test("the machines and a graphics buffer under jsdom", () => {
  const theme = new ThemeMachine(window.localStorage.getItem(ThemeMachine.storageKey()));
  expect(theme.toggle()).toBe("void");
  theme.free();
  const wisdom = new WisdomMachine();
  wisdom.click();
  wisdom.answered(200, '{"wisdom":{"quote":"Know thyself.","orator":"Socrates"}}', 0);
  expect(wisdom.snapshot()).toMatchObject({ status: "success", quote: "Know thyself.", orator: "Socrates" });
  expect(wisdom.nextDeadline()).toBe(5000);
  wisdom.free();
  const cube = new graphics.HypercubeWidget();
  cube.step();
  expect(cube.verticesLen()).toBe(16 * graphics.vertexStride());
  cube.free();
});
