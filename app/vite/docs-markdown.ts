// The docs plugins configured for this app's content folder, shared by vite and vitest configs.
import { fileURLToPath } from "node:url";
import { agentFilesPlugin } from "./agent-files";
import { markdownPlugin } from "./markdown-plugin";
import { routeManifestPlugin } from "./route-manifest";
import { searchIndexPlugin } from "./search-index";

const content = (path: string) => fileURLToPath(new URL(`../src/content/${path}`, import.meta.url));

export function docsMarkdown() {
  return [
    markdownPlugin({ docsDir: content("docs"), catalogueFile: content("cli-catalogue.json") }),
    searchIndexPlugin({ docsDir: content("docs"), catalogueFile: content("cli-catalogue.json") }),
    routeManifestPlugin({ docsDir: content("docs") }),
    agentFilesPlugin({
      docsDir: content("docs"),
      catalogueFile: content("cli-catalogue.json"),
      llmsFile: content("llms.md"),
    }),
  ];
}
