// The import aliases of app code, for Vite, Vitest and the server bundle alike (tsconfig.json's
// `paths` name the same folders for the typechecker): `@/` is app/src/, `@common/` is app/common/.
// Build code (vite/) keeps relative imports: Vite loads its own configuration without aliases.
import { fileURLToPath } from "node:url";
import type { Alias } from "vite";

const folder = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

export const appAliases: Alias[] = [
  { find: /^@\//, replacement: folder("../src/") },
  { find: /^@common\//, replacement: folder("../common/") },
];

// mg-core is linked (a symlink to the built package, outside this folder), and mg-core/react imports
// React: resolved from the package's real path it would find no React (or a second copy), so React
// always resolves from this app.
export const appDedupe: string[] = ["react", "react-dom"];
