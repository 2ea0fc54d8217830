// Vite plugin: `*.md` imports become rendered docs pages; a virtual index lists every page's front
// matter; the build emits /llms.txt. No Markdown or highlighting code reaches the browser.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Plugin } from "vite";
import { parseFrontMatter, renderMarkdown } from "./render-markdown";

export const docsIndexId = "virtual:mg-docs-index";
const resolvedDocsIndexId = `\0${docsIndexId}`;
/** `virtual:mg-cli-catalogue/dmt`: the catalogue cut down to one tool, so a page loads only its own. */
export const catalogueIdPrefix = "virtual:mg-cli-catalogue/";

export type MarkdownPluginOptions = {
  /** Folder of the docs pages whose front matter forms the virtual index. */
  docsDir: string;
  /** Markdown file copied to `llms.txt` at the root of the build output. */
  llmsFile?: string;
  /** The CLI catalogue JSON that `virtual:mg-cli-catalogue/<tool>` modules are cut from. */
  catalogueFile?: string;
};

type CatalogueCommand = { id: string; tool: string; seeAlso?: string[] };
type Catalogue = { tools: unknown[]; commands: CatalogueCommand[] };

/** One tool's commands, plus the commands they point to under "see also" (for link labels). */
export function catalogueForTool(catalogue: Catalogue, tool: string): Catalogue {
  const own = catalogue.commands.filter((command) => command.tool === tool);
  const wanted = new Set(own.flatMap((command) => [command.id, ...(command.seeAlso ?? [])]));
  return {
    ...catalogue,
    commands: catalogue.commands.filter((command) => wanted.has(command.id)),
  };
}

export function readDocsIndex(docsDir: string) {
  return readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => {
      const file = join(docsDir, name);
      const { data } = parseFrontMatter(readFileSync(file, "utf8"), file);
      return { slug: name.slice(0, -3), ...data };
    })
    .sort((a, b) => a.order - b.order);
}

export function markdownPlugin(options: MarkdownPluginOptions): Plugin {
  return {
    name: "mg-markdown",
    enforce: "pre",
    resolveId(id) {
      if (id === docsIndexId || id.startsWith(catalogueIdPrefix)) return `\0${id}`;
      return undefined;
    },
    load(id) {
      const catalogueFile = options.catalogueFile;
      if (catalogueFile && id.startsWith(`\0${catalogueIdPrefix}`)) {
        this.addWatchFile(catalogueFile);
        const tool = id.slice(catalogueIdPrefix.length + 1);
        const catalogue = JSON.parse(readFileSync(catalogueFile, "utf8")) as Catalogue;
        return `export default ${JSON.stringify(catalogueForTool(catalogue, tool))};\n`;
      }
      if (id !== resolvedDocsIndexId) return undefined;
      for (const name of readdirSync(options.docsDir)) {
        this.addWatchFile(join(options.docsDir, name));
      }
      return `export const docsIndex = ${JSON.stringify(readDocsIndex(options.docsDir))};\n`;
    },
    transform(code, id) {
      // Plain imports only (the dev server marks them `?import`); `?raw` and `?url` keep Vite's own handling.
      // `?markdown` gives the page's Markdown body alone (for "Copy page as Markdown"): its own chunk,
      // fetched on that click, so the page's chunk carries the rendered HTML only.
      const [path, query] = id.split("?", 2);
      if (!path?.endsWith(".md")) return undefined;
      const params = new URLSearchParams(query ?? "");
      params.delete("import");
      const rest = [...params.keys()];
      if (rest.length === 1 && rest[0] === "markdown") {
        const { markdown } = renderMarkdown(code, id);
        return { code: `export default ${JSON.stringify(markdown)};\n`, map: null };
      }
      if (rest.length > 0) return undefined;
      const { markdown: _body, ...page } = renderMarkdown(code, id);
      const body = JSON.stringify(`./${basename(path)}?markdown`);
      return {
        code: `export default { ...${JSON.stringify(page)}, loadMarkdown: () => import(${body}).then((m) => m.default) };\n`,
        map: null,
      };
    },
    configureServer(server) {
      const llmsFile = options.llmsFile;
      if (!llmsFile) return;
      server.middlewares.use("/llms.txt", (_req, res) => {
        res.setHeader("Content-Type", "text/plain; charset=utf-8");
        res.end(readFileSync(llmsFile, "utf8"));
      });
    },
    generateBundle() {
      if (!options.llmsFile) return;
      this.emitFile({
        type: "asset",
        fileName: "llms.txt",
        source: readFileSync(options.llmsFile, "utf8"),
      });
    },
  };
}
