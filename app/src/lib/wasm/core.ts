// The only module that imports the wasm package; hooks get the classes from here.
export { ThemeMachine } from "mg-core";
