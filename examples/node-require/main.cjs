// Node, CommonJS: require("mg-core") works where Node can require() ES modules (22.12+); elsewhere it
// fails with a message that says how to import it. Either is a pass; anything else is a failure.
const wanted = 'mg-core is an ES module package. Use `import { ... } from "mg-core"`';
let core;
try {
  core = require("mg-core");
} catch (error) {
  if (!String(error.message).includes(wanted)) throw error;
  console.log(`require() refused with: ${error.message}`);
}
if (core) {
  import("../common/check.mjs").then(({ driveMachines }) => console.log(`require(): ${driveMachines(core)}`));
} else {
  // What the message says to do, from CommonJS.
  Promise.all([import("mg-core"), import("../common/check.mjs")]).then(([core, { driveMachines }]) =>
    console.log(`import() from CommonJS: ${driveMachines(core)}`),
  );
}
