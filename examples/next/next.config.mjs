// Nothing about mg-core (whose server build has its .wasm inlined). `next build --webpack` traces
// every file the server could load, for deployments that copy node_modules: a third of the build's
// time here, and `next start` reads none of it.
export default { outputFileTracingExcludes: { "*": ["**/*"] } };
