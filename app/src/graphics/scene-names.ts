// The widget names, apart from scenes.ts so importing them does not pull in the wasm classes.

export const SCENE_NAMES = ["icosahedron", "hypercube", "helix", "molecule"] as const;
export type SceneName = (typeof SCENE_NAMES)[number];
