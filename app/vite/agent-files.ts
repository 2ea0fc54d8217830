// Vite plugin: the files agents and crawlers read, generated from the docs at build time: each docs
// page's Markdown twin (mg/<slug>.md, mg/cli/<subtab>.md), llms.txt (links to the twins),
// llms-full.txt (every twin in one file), sitemap.xml and robots.txt. `vite dev` serves the same.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin, ResolvedConfig } from "vite";
import type { CliCatalogue } from "../common/catalogue-types";
import {
  docsPath,
  pageAt,
  paths,
  pathTo,
  type RouteManifest,
  redirects,
  routeManifest,
} from "../common/routes";
import { readDocsIndex } from "./markdown-plugin";
import { renderTwin, rewriteDocsLinks, twinLinks, twinPath } from "./markdown-twin";

/** What the server replaces with its PUBLIC_URL (app/common/PRERENDER-CONTRACT.md), unless the build knows it. */
export const SITE_URL_PLACEHOLDER = "__MG_SITE_URL__";

export type AgentFilesOptions = {
  docsDir: string;
  catalogueFile: string;
  /** The source of llms.txt; its links to docs pages are pointed at the twins. */
  llmsFile: string;
};

/** A generated file: its path in the build output and its body. */
export type AgentFile = { fileName: string; source: string };

/**
 * The site origin the sitemap and robots.txt name: `VITE_SITE_URL` when the build sets it (an
 * http(s) origin, a trailing slash dropped), else the placeholder the server fills in.
 */
export function siteUrl(value: string | undefined): string {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return SITE_URL_PLACEHOLDER;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new Error(
      `VITE_SITE_URL must be an http(s) origin such as https://mg.example.com, got ${trimmed}`,
    );
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash) {
    throw new Error(
      `VITE_SITE_URL must be an http(s) origin such as https://mg.example.com, got ${trimmed}`,
    );
  }
  return url.origin;
}

/**
 * The paths a search engine should index: the public routes, without the redirects (`/mg`,
 * `/metagenesis`) and without the aliases that show a page living at another path (`/docs` is the
 * overview, `/mg/cli` the CLI overview, `/mg/dmt` the page at `/mg/cli/dmt`). Personal routes are
 * not public, so never here.
 */
export function sitemapPaths(manifest: RouteManifest): string[] {
  const aliases = new Set<string>([paths.docs, pathTo(paths.docsTab, { tab: "cli" })]);
  for (const path of manifest.public) {
    const page = pageAt(path);
    const slug = page?.name === "docsTab" ? page.params.tab : undefined;
    if (slug && docsPath(slug) !== path) aliases.add(path);
  }
  const away = redirects();
  const seen = new Set<string>();
  return manifest.public.filter((path) => {
    if (Object.hasOwn(away, path) || aliases.has(path) || seen.has(path)) return false;
    seen.add(path);
    return true;
  });
}

function xmlEscape(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

export function sitemapXml(pathsToList: readonly string[], origin: string): string {
  const urls = pathsToList.map(
    (path) => `  <url><loc>${xmlEscape(`${origin}${path}`)}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

export function robotsTxt(origin: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`;
}

/** Every file this plugin writes, read fresh from the content folder. */
export function agentFiles(options: AgentFilesOptions, origin: string): AgentFile[] {
  const catalogue = JSON.parse(readFileSync(options.catalogueFile, "utf8")) as CliCatalogue;
  const pages = readDocsIndex(options.docsDir);
  const slugs = pages.map((page) => page.slug);
  const links = twinLinks(slugs);
  const twins = pages.map(({ slug }) => {
    const file = join(options.docsDir, `${slug}.md`);
    const source = readFileSync(file, "utf8");
    return { slug, markdown: renderTwin({ slug, source, catalogue, links, file }) };
  });
  const full = [
    "# Metagenesis (mg): the complete docs",
    "> Every page of the mg docs as Markdown, in reading order. Each page starts after a `---` line " +
      "with its address; the same page alone is at that address.",
    ...twins.map(
      ({ slug, markdown }) =>
        `---\n\nPage: ${docsPath(slug)} (Markdown: ${twinPath(slug)})\n\n${markdown.trim()}`,
    ),
  ].join("\n\n");
  return [
    ...twins.map(({ slug, markdown }) => ({ fileName: twinPath(slug).slice(1), source: markdown })),
    {
      fileName: "llms.txt",
      source: rewriteDocsLinks(readFileSync(options.llmsFile, "utf8"), links),
    },
    { fileName: "llms-full.txt", source: `${full}\n` },
    { fileName: "sitemap.xml", source: sitemapXml(sitemapPaths(routeManifest(slugs)), origin) },
    { fileName: "robots.txt", source: robotsTxt(origin) },
  ];
}

const contentTypes: Record<string, string> = {
  md: "text/markdown; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml; charset=utf-8",
};

export function agentFilesPlugin(options: AgentFilesOptions): Plugin {
  let config: ResolvedConfig;
  return {
    name: "mg-agent-files",
    configResolved(resolved) {
      config = resolved;
    },
    configureServer(server) {
      // `vite dev`: the same files, rebuilt per request, so edits show on reload.
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? "").split("?")[0] ?? "";
        const file = agentFiles(options, siteUrl(config.env.VITE_SITE_URL)).find(
          (candidate) => `/${candidate.fileName}` === path,
        );
        if (!file) return next();
        res.setHeader("Content-Type", contentTypes[path.split(".").pop() ?? ""] ?? "text/plain");
        res.end(file.source);
      });
    },
    generateBundle() {
      for (const file of agentFiles(options, siteUrl(config.env.VITE_SITE_URL))) {
        this.emitFile({ type: "asset", fileName: file.fileName, source: file.source });
      }
    },
  };
}
