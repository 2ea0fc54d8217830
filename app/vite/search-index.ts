// Build-time docs search: every page is cut into heading sections, every CLI command becomes an
// entry, and MiniSearch indexes them in Node. The browser gets the finished index as its own chunk
// (`virtual:mg-search-index`), imported only when someone opens search.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt, { type Token } from "markdown-it";
import MiniSearch from "minisearch";
import type { Plugin } from "vite";
import type { CliCatalogue, CliCommand } from "../common/catalogue-types";
import { docsPath } from "../common/routes";
import { indexOptions, type SearchDocument } from "../common/search-options";
import { createSlugger, headingText, parseFrontMatter } from "./render-markdown";

export const searchIndexId = "virtual:mg-search-index";
const resolvedSearchIndexId = `\0${searchIndexId}`;

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The words a reader sees in one block token (inline text, code spans, code blocks). */
function blockText(token: Token): string {
  if (token.type === "inline") {
    return (token.children ?? [])
      .map((child) =>
        child.type === "softbreak" || child.type === "hardbreak" ? " " : child.content,
      )
      .join("");
  }
  if (token.type === "fence" || token.type === "code_block") return token.content;
  return "";
}

/**
 * Splits one Markdown page into its introduction and one entry per heading. Heading ids come from
 * the same slugger and heading text as the rendered page, so every anchor exists on the page.
 */
export function pageSections(source: string, slug: string, file = slug): SearchDocument[] {
  const { data, body } = parseFrontMatter(source, file);
  const path = docsPath(slug);
  const slugger = createSlugger();
  const intro: SearchDocument = {
    id: path,
    path,
    anchor: "",
    page: data.title,
    heading: data.title,
    text: data.description,
    kind: "page",
  };
  const sections = [intro];
  let current = intro;
  const tokens = md.parse(body, {});
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    if (token.type === "heading_open") {
      const heading = headingText(tokens[i + 1]);
      const anchor = slugger(heading);
      current = {
        id: `${path}#${anchor}`,
        path,
        anchor,
        page: data.title,
        heading,
        text: "",
        kind: "section",
      };
      sections.push(current);
      i += 2;
      continue;
    }
    const text = blockText(token);
    if (text) current.text += ` ${text}`;
  }
  return sections.map((section) => ({ ...section, text: collapse(section.text) }));
}

function commandText(command: CliCommand): string {
  const parts = [command.summary, command.usage, command.description];
  for (const argument of command.arguments) {
    parts.push(`<${argument.name}>`, ...(argument.allowed ?? []), argument.description);
  }
  for (const option of command.options) {
    parts.push(option.flag, option.alias ?? "", ...(option.allowed ?? []), option.description);
  }
  for (const example of command.examples) parts.push(example.command, example.explanation);
  parts.push(...command.confirmations, ...command.notes);
  return collapse(parts.join(" "));
}

/** One entry per command, on the page where the generated reference shows it. */
export function catalogueEntries(
  catalogue: CliCatalogue,
  pageTitles: ReadonlyMap<string, string>,
): SearchDocument[] {
  const entries: SearchDocument[] = [];
  for (const tool of catalogue.tools) {
    const page = pageTitles.get(tool.page) ?? tool.name;
    entries.push({
      id: `${tool.page}#command-reference`,
      path: tool.page,
      anchor: "command-reference",
      page,
      heading: "Command reference",
      text: collapse(`${tool.name}: ${tool.summary} Every ${tool.invocation} command.`),
      kind: "section",
    });
    for (const command of catalogue.commands.filter((candidate) => candidate.tool === tool.id)) {
      entries.push({
        id: `${tool.page}#${command.id}`,
        path: tool.page,
        anchor: command.id,
        page,
        heading: `${tool.invocation} ${command.name}`,
        text: commandText(command),
        kind: "command",
      });
    }
  }
  return entries;
}

/** Every searchable entry of the docs folder and the catalogue. */
export function searchDocuments(docsDir: string, catalogueFile: string): SearchDocument[] {
  const documents = readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .flatMap((name) =>
      pageSections(readFileSync(join(docsDir, name), "utf8"), name.slice(0, -3), name),
    );
  const pageTitles = new Map(
    documents.filter((entry) => entry.kind === "page").map((entry) => [entry.path, entry.page]),
  );
  const catalogue = JSON.parse(readFileSync(catalogueFile, "utf8")) as CliCatalogue;
  return [...documents, ...catalogueEntries(catalogue, pageTitles)];
}

export function buildSearchIndex(documents: SearchDocument[]): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>(indexOptions);
  index.addAll(documents);
  return index;
}

export function searchIndexPlugin(options: { docsDir: string; catalogueFile: string }): Plugin {
  return {
    name: "mg-search-index",
    resolveId(id) {
      return id === searchIndexId ? resolvedSearchIndexId : undefined;
    },
    load(id) {
      if (id !== resolvedSearchIndexId) return undefined;
      for (const name of readdirSync(options.docsDir)) {
        this.addWatchFile(join(options.docsDir, name));
      }
      this.addWatchFile(options.catalogueFile);
      const index = buildSearchIndex(searchDocuments(options.docsDir, options.catalogueFile));
      // A JSON string parses faster than the same data as a JS object literal.
      return `export default ${JSON.stringify(JSON.stringify(index))};\n`;
    },
  };
}
