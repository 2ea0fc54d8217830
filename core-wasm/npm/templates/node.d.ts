// The same API as every other entry; the module is ready once imported.
export * from "../bundler/__NAME__.js";
