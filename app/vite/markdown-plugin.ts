// Vite plugin: `*.md` imports become rendered docs pages (and `*.md?markdown` their Markdown twins);
// a virtual index lists every page's front matter. No Markdown or highlighting code reaches the
// browser. llms.txt and the served twins are agent-files.ts's.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Plugin } from "vite";
import type { CliCatalogue } from "../common/catalogue-types";
import { renderTwin, twinLinks } from "./markdown-twin";
import { parseFrontMatter, renderMarkdown } from "./render-markdown";

export const docsIndexId = "virtual:mg-docs-index";
const resolvedDocsIndexId = `\0${docsIndexId}`;
/** `virtual:mg-cli-catalogue/dmt`: the catalogue cut down to one tool, so a page loads only its own. */
export const catalogueIdPrefix = "virtual:mg-cli-catalogue/";

export type MarkdownPluginOptions = {
  /** Folder of the docs pages whose front matter forms the virtual index. */
  docsDir: string;
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
      // `?markdown` gives the page's Markdown twin (for "Copy page as Markdown"): its own chunk,
      // fetched on that click, so the page's chunk carries the rendered HTML only.
      const [path, query] = id.split("?", 2);
      if (!path?.endsWith(".md")) return undefined;
      const params = new URLSearchParams(query ?? "");
      params.delete("import");
      const rest = [...params.keys()];
      if (rest.length === 1 && rest[0] === "markdown") {
        // The page's Markdown twin, the very text served at its path plus `.md` (agent-files.ts).
        const slug = basename(path, ".md");
        const catalogue = options.catalogueFile
          ? (JSON.parse(readFileSync(options.catalogueFile, "utf8")) as CliCatalogue)
          : undefined;
        if (options.catalogueFile) this.addWatchFile(options.catalogueFile);
        const links = twinLinks(readDocsIndex(options.docsDir).map((page) => page.slug));
        const twin = renderTwin({ slug, source: code, catalogue, links, file: path });
        return { code: `export default ${JSON.stringify(twin)};\n`, map: null };
      }
      if (rest.length > 0) return undefined;
      const { markdown: _body, ...page } = renderMarkdown(code, id);
      const body = JSON.stringify(`./${basename(path)}?markdown`);
      return {
        code: `export default { ...${JSON.stringify(page)}, loadMarkdown: () => import(${body}).then((m) => m.default) };\n`,
        map: null,
      };
    },
  };
}
