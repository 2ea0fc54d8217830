// The route table of spec 2.1 lives in common/routes.ts, where the build reads it too.
export { docsDefaultPath, paths } from "../../common/routes";
