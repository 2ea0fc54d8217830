// The route table of spec 2.1 lives in shared/routes.ts, where the build reads it too.
export { docsDefaultPath, paths } from "../../shared/routes";
