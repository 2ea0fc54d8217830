// Build-time rendering of a docs Markdown file into HTML, its front matter and its headings.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import ini from "highlight.js/lib/languages/ini";
import json from "highlight.js/lib/languages/json";
import MarkdownIt, { type Token } from "markdown-it";
import { parse as parseYaml } from "yaml";
import type { DocsFrontMatter, DocsHeading, RenderedMarkdown } from "../common/docs-types";

hljs.registerLanguage("bash", bash);
hljs.registerLanguage("json", json);
hljs.registerLanguage("ini", ini);

const frontMatterPattern = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** Splits `---` YAML front matter from the body and checks the fields every docs page needs. */
export function parseFrontMatter(
  source: string,
  file = "markdown",
): { data: DocsFrontMatter; body: string } {
  const match = frontMatterPattern.exec(source);
  if (!match) throw new Error(`${file}: missing --- front matter ---`);
  const data = (parseYaml(match[1] ?? "") ?? {}) as Record<string, unknown>;
  const { title, description, order } = data;
  if (typeof title !== "string" || title === "")
    throw new Error(`${file}: front matter needs a title`);
  if (typeof description !== "string") throw new Error(`${file}: front matter needs a description`);
  if (typeof order !== "number") throw new Error(`${file}: front matter needs a numeric order`);
  return { data: { title, description, order }, body: source.slice(match[0].length) };
}

/** GitHub's heading slug: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function createSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

const languageAliases: Record<string, string> = {
  sh: "bash",
  shell: "bash",
  bash: "bash",
  zsh: "bash",
  json: "json",
  ini: "ini",
  toml: "ini",
};

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });

function escapeHtml(text: string): string {
  return md.utils.escapeHtml(text);
}

/** Highlighted code wrapped with a label and a copy button that the docs page wires up. */
export function renderCodeBlock(code: string, info: string): string {
  const label = info.trim().split(/\s+/)[0] ?? "";
  const language = languageAliases[label.toLowerCase()];
  const body = language ? hljs.highlight(code, { language }).value : escapeHtml(code);
  const langClass = language ? ` language-${escapeHtml(label)}` : "";
  const caption = label ? `<span class="code-block__lang">${escapeHtml(label)}</span>` : "";
  return (
    `<div class="code-block">` +
    `<div class="code-block__bar">${caption}` +
    `<button type="button" class="code-block__copy" aria-label="Copy code" data-copy-code>Copy</button>` +
    `</div>` +
    `<pre class="hljs" tabindex="0"><code class="${`hljs${langClass}`}">${body}</code></pre>` +
    `</div>\n`
  );
}

md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx];
  if (!token) return "";
  return renderCodeBlock(token.content, token.info);
};

// Wide tables scroll on their own instead of widening the page; the wrapper is focusable so
// keyboard users can scroll it too.
md.renderer.rules.table_open = () => '<div class="table-scroll" tabindex="0"><table>\n';
md.renderer.rules.table_close = () => "</table></div>\n";

/** A heading's plain text (emphasis dropped, code kept), which its id is slugged from. */
export function headingText(inline: Token | undefined): string {
  return (inline?.children ?? [])
    .filter((child) => child.type === "text" || child.type === "code_inline")
    .map((child) => child.content)
    .join("");
}

/** Renders a page: headings get GitHub-style ids and an anchor link placed after the heading. */
export function renderMarkdown(source: string, file = "markdown"): RenderedMarkdown {
  const { data, body } = parseFrontMatter(source, file);
  const env = {};
  const tokens = md.parse(body, env);
  const slug = createSlugger();
  const headings: DocsHeading[] = [];
  let html = "";
  let start = 0;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    if (open?.type !== "heading_open") continue;
    const inline = tokens[i + 1];
    const close = tokens[i + 2];
    const text = headingText(inline);
    const id = slug(text);
    const depth = Number(open.tag.slice(1));
    headings.push({ depth, text, id });
    html += md.renderer.render(tokens.slice(start, i), md.options, env);
    const inner = md.renderer.render(tokens.slice(i + 1, i + 2), md.options, env);
    html +=
      `<div class="heading-wrapper heading-wrapper--${open.tag}">` +
      `<${open.tag} id="${escapeHtml(id)}">${inner}</${close?.tag ?? open.tag}>` +
      `<a class="heading-anchor" href="#${escapeHtml(id)}">` +
      `<span aria-hidden="true">#</span>` +
      `<span class="visually-hidden">Section titled “${escapeHtml(text)}”</span></a></div>\n`;
    start = i + 3;
    i += 2;
  }
  html += md.renderer.render(tokens.slice(start), md.options, env);
  return { ...data, html, headings, markdown: body };
}
