// @vitest-environment node
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import type { CliCatalogue } from "../common/catalogue-types";
import {
  type AgentFile,
  agentFiles,
  agentFilesPlugin,
  SITE_URL_PLACEHOLDER,
  siteUrl,
} from "./agent-files";
import { referenceMarkdown, renderTwin } from "./markdown-twin";

const content = (path: string) => fileURLToPath(new URL(`../src/content/${path}`, import.meta.url));
const options = {
  docsDir: content("docs"),
  catalogueFile: content("cli-catalogue.json"),
  llmsFile: content("llms.md"),
};
const catalogue = JSON.parse(readFileSync(options.catalogueFile, "utf8")) as CliCatalogue;

const files = agentFiles(options, SITE_URL_PLACEHOLDER);
const byName = new Map(files.map((file) => [file.fileName, file.source]));
function file(name: string): string {
  const source = byName.get(name);
  if (source === undefined) throw new Error(`no ${name} among ${[...byName.keys()].join(", ")}`);
  return source;
}

describe("Markdown twins", () => {
  it("exist for every docs page at its route plus .md", () => {
    expect(files.filter((f) => f.fileName.endsWith(".md")).map((f) => f.fileName)).toEqual([
      "mg/overview.md",
      "mg/quickstart.md",
      "mg/flow.md",
      "mg/configuration.md",
      "mg/cli/main.md",
      "mg/cli/dmt.md",
      "mg/cli/lsd.md",
      "mg/safety.md",
      "mg/esp.md",
      "mg/dream.md",
    ]);
  });

  it("start with the title as H1 and the description, and carry no front matter or HTML tags", () => {
    for (const twin of files.filter((f) => f.fileName.endsWith(".md"))) {
      expect(twin.source, twin.fileName).toMatch(/^# [^\n]+\n\n> [^\n]+\n\n/);
      expect(twin.source, twin.fileName).not.toMatch(/^---$|^title:|^order:/m);
      // No component or HTML tags outside code: `<name>` placeholders only appear inside backticks.
      const outsideCode = twin.source.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
      expect(outsideCode, twin.fileName).not.toMatch(/<\/?[A-Za-z][\w-]*(\s[^>]*)?>/);
    }
    expect(file("mg/safety.md").startsWith("# Confirmations and safety\n\n> ")).toBe(true);
  });

  it("write the DMT reference out as Markdown tables and code blocks from the catalogue", () => {
    const dmt = file("mg/cli/dmt.md");
    expect(dmt).toContain("## Command reference");
    expect(dmt).toContain("### `mg dmt blastoff`");
    expect(dmt).toContain(
      "| Flag | Alias | Value | Allowed values | Default | Description |\n|---|---|---|---|---|---|",
    );
    const blastoff = catalogue.commands.find((command) => command.id === "dmt-blastoff");
    const size = blastoff?.options.find((option) => option.flag === "--instance-size");
    if (!blastoff || !size) throw new Error("catalogue lost dmt blastoff --instance-size");
    expect(dmt).toContain(
      `| \`--instance-size\` | \`--dose\` | \`<${size.valueName}>\` | ` +
        `${(size.allowed ?? []).map((value) => `\`${value}\``).join(", ")} | \`t2.micro\` | ${size.description} |`,
    );
    expect(dmt).toContain(`\`\`\`sh\n${blastoff.usage}\n\`\`\``);
    expect(dmt).toContain(`\`\`\`sh\n${blastoff.examples[0]?.command}\n\`\`\``);
    // nuke's rules are the builder's rules, listed under it.
    expect(dmt).toContain("- Give exactly one of name, --all.");
    // The prose comes first, the builder's stand-in, then the reference.
    expect(dmt.indexOf("## Things to know")).toBeLessThan(dmt.indexOf("## Command builder"));
    expect(dmt.indexOf("## Command builder")).toBeLessThan(dmt.indexOf("## Command reference"));
    expect(dmt).toContain("`build_mg_command`");
  });

  it("give the CLI overview the mg commands and ESP its reference, but no builder to ESP", () => {
    expect(file("mg/cli/main.md")).toContain("### `mg init`");
    expect(file("mg/esp.md")).toContain("### `mg esp manifest`");
    expect(file("mg/esp.md")).not.toContain("## Command builder");
    expect(file("mg/flow.md")).not.toContain("## Command reference");
  });

  it("escape a | in a table cell so the row keeps its columns", () => {
    const table = referenceMarkdown(
      {
        ...catalogue,
        commands: [
          {
            ...(catalogue.commands.find((command) => command.id === "dmt-ssh") as CliCommandLike),
            arguments: [{ name: "name", required: true, description: "a | b" }],
          },
        ],
      },
      "dmt",
    );
    expect(table).toContain("| `<name>` | yes | — | a \\| b |");
  });

  it("point links to other docs pages at their twins, keeping the fragment", () => {
    const cli = file("mg/cli/main.md");
    expect(cli).toContain("[DMT commands](/mg/cli/dmt.md)");
    expect(cli).toContain("[project mode](/mg/configuration.md#project-mode)");
    // A see-also link in the reference too.
    expect(file("mg/cli/dmt.md")).toMatch(/\]\(\/mg\/cli\/dmt\.md#dmt-deploy\)/);
    const twin = renderTwin({
      slug: "x",
      source:
        "---\ntitle: X\ndescription: d\norder: 1\n---\n[a](/mg/dmt) [b](/telekinesis)\n```sh\n[c](/mg/flow)\n```\n",
      links: new Map([
        ["/mg/dmt", "/mg/cli/dmt.md"],
        ["/mg/flow", "/mg/flow.md"],
      ]),
    });
    expect(twin).toContain("[a](/mg/cli/dmt.md) [b](/telekinesis)");
    expect(twin).toContain("[c](/mg/flow)\n```");
  });
});

describe("llms.txt and llms-full.txt", () => {
  it("llms.txt links every docs page by its twin, and each twin is in the build", () => {
    const links = [...file("llms.txt").matchAll(/\]\((\/[^)]*)\)/g)].map((match) => match[1] ?? "");
    const docs = links.filter((link) => link.startsWith("/mg/"));
    expect(docs.length).toBe(10);
    for (const link of links) {
      if (link.startsWith("/mg/")) expect(link).toMatch(/\.md$/);
      expect(byName.has(link.slice(1)), `${link} is built`).toBe(true);
    }
    expect(links).toContain("/llms-full.txt");
  });

  it("llms-full.txt holds every twin, in docs order, each after a separator naming its address", () => {
    const full = file("llms-full.txt");
    const twins = files.filter((f) => f.fileName.endsWith(".md"));
    let last = -1;
    for (const twin of twins) {
      const at = full.indexOf(
        `---\n\nPage: /${twin.fileName.slice(0, -3)} (Markdown: /${twin.fileName})\n\n${twin.source.trim()}`,
      );
      expect(at, twin.fileName).toBeGreaterThan(last);
      last = at;
    }
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("the sitemap lists every public page once, at its own path, without redirects, aliases or personal routes", () => {
    const locs = [...file("sitemap.xml").matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    const site = SITE_URL_PLACEHOLDER;
    expect(locs).toEqual([
      `${site}/`,
      `${site}/apotheosis`,
      `${site}/telekinesis`,
      `${site}/bench`,
      `${site}/mg/overview`,
      `${site}/mg/quickstart`,
      `${site}/mg/flow`,
      `${site}/mg/configuration`,
      `${site}/mg/safety`,
      `${site}/mg/esp`,
      `${site}/mg/dream`,
      `${site}/mg/cli/main`,
      `${site}/mg/cli/dmt`,
      `${site}/mg/cli/lsd`,
    ]);
    expect(file("sitemap.xml")).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/,
    );
  });

  it("robots.txt allows everything and names the sitemap", () => {
    expect(file("robots.txt")).toBe(
      `User-agent: *\nAllow: /\n\nSitemap: ${SITE_URL_PLACEHOLDER}/sitemap.xml\n`,
    );
  });

  it("VITE_SITE_URL replaces the placeholder; a value that is not an origin stops the build", () => {
    expect(siteUrl(undefined)).toBe("__MG_SITE_URL__");
    expect(siteUrl("  ")).toBe("__MG_SITE_URL__");
    expect(siteUrl("https://mg.example.com/")).toBe("https://mg.example.com");
    const built = agentFiles(options, siteUrl("https://mg.example.com"));
    const robots = built.find((f) => f.fileName === "robots.txt")?.source;
    expect(robots).toContain("Sitemap: https://mg.example.com/sitemap.xml");
    const sitemap = built.find((f) => f.fileName === "sitemap.xml")?.source ?? "";
    expect(sitemap).toContain("<loc>https://mg.example.com/mg/cli/dmt</loc>");
    expect(sitemap).not.toContain("__MG_SITE_URL__");
    for (const bad of ["mg.example.com", "ftp://mg.example.com", "https://mg.example.com/docs"]) {
      expect(() => siteUrl(bad), bad).toThrow(/VITE_SITE_URL must be an http\(s\) origin/);
    }
  });

  it("the plugin emits all of them into the build", () => {
    const emitFile = vi.fn();
    const plugin = agentFilesPlugin(options);
    (plugin.configResolved as unknown as (config: { env: Record<string, string> }) => void)({
      env: {},
    });
    (plugin.generateBundle as unknown as (this: { emitFile: typeof emitFile }) => void).call({
      emitFile,
    });
    const emitted = emitFile.mock.calls.map((call) => (call[0] as AgentFile).fileName);
    expect(emitted).toEqual(files.map((f) => f.fileName));
    expect(emitted).toEqual(
      expect.arrayContaining([
        "mg/cli/dmt.md",
        "llms.txt",
        "llms-full.txt",
        "sitemap.xml",
        "robots.txt",
      ]),
    );
  });

  it("vite dev serves the same files with their content types, and passes on other paths", () => {
    type Middleware = (
      req: { url?: string },
      res: { setHeader: (name: string, value: string) => void; end: (body: string) => void },
      next: () => void,
    ) => void;
    let middleware: Middleware | undefined;
    const plugin = agentFilesPlugin(options);
    (plugin.configResolved as unknown as (config: { env: Record<string, string> }) => void)({
      env: {},
    });
    (plugin.configureServer as unknown as (server: unknown) => void)({
      middlewares: { use: (fn: Middleware) => (middleware = fn) },
    });
    const get = (url: string) => {
      const headers: Record<string, string> = {};
      let body: string | undefined;
      let passed = false;
      middleware?.(
        { url },
        { setHeader: (name, value) => (headers[name] = value), end: (text) => (body = text) },
        () => (passed = true),
      );
      return { headers, body, passed };
    };
    const dmt = get("/mg/cli/dmt.md?x=1");
    expect(dmt.headers["Content-Type"]).toBe("text/markdown; charset=utf-8");
    expect(dmt.body).toBe(file("mg/cli/dmt.md"));
    expect(get("/llms-full.txt").headers["Content-Type"]).toBe("text/plain; charset=utf-8");
    expect(get("/sitemap.xml").body).toBe(file("sitemap.xml"));
    expect(get("/mg/cli/dmt").passed).toBe(true);
    expect(get("/mg/nope.md").passed).toBe(true);
  });
});

type CliCommandLike = CliCatalogue["commands"][number];
