// @vitest-environment node
import { fileURLToPath } from "node:url";
import dmtCatalogue from "virtual:mg-cli-catalogue/dmt";
import { docsIndex } from "virtual:mg-docs-index";
import { describe, expect, it } from "vitest";
import configuration from "../src/content/docs/configuration.md";
import quickstart from "../src/content/docs/quickstart.md";
import { catalogueForTool, markdownPlugin } from "./markdown-plugin";
import { createSlugger, renderMarkdown } from "./render-markdown";

const docsDir = fileURLToPath(new URL("../src/content/docs", import.meta.url));

const sample = `---
title: Sample page
description: A page for the test.
order: 42
---

Intro with \`code\`.

## Set up: the *first* step

\`\`\`sh
mg dmt blastoff shop --instance-size t3.small
\`\`\`

## Set up: the first step

\`\`\`json
{ "name": "shop", "count": 2 }
\`\`\`

\`\`\`ini
[default]
region = eu-west-1
\`\`\`
`;

describe("renderMarkdown", () => {
  const page = renderMarkdown(sample);

  it("reads title, description and order from the front matter", () => {
    expect(page.title).toBe("Sample page");
    expect(page.description).toBe("A page for the test.");
    expect(page.order).toBe(42);
    expect(page.markdown).not.toContain("title: Sample page");
    expect(page.html).not.toContain("order: 42");
  });

  it("gives headings GitHub-style ids, numbering repeats, with an anchor link", () => {
    expect(page.headings).toEqual([
      { depth: 2, text: "Set up: the first step", id: "set-up-the-first-step" },
      { depth: 2, text: "Set up: the first step", id: "set-up-the-first-step-1" },
    ]);
    expect(page.html).toContain(
      '<h2 id="set-up-the-first-step">Set up: the <em>first</em> step</h2>',
    );
    expect(page.html).toContain('<a class="heading-anchor" href="#set-up-the-first-step-1">');
    expect(page.html).toContain("Section titled “Set up: the first step”");
  });

  it("highlights sh, json and ini with classes and adds a copy button", () => {
    expect(
      page.html.match(/<button type="button" class="code-block__copy" aria-label="Copy code"/g),
    ).toHaveLength(3);
    expect(page.html).toContain('class="hljs language-sh"');
    expect(page.html).toContain('<span class="hljs-attr">&quot;name&quot;</span>');
    expect(page.html).toContain('<span class="hljs-section">[default]</span>');
    expect(page.html).not.toContain("style=");
  });

  it("rejects a page without a title", () => {
    expect(() => renderMarkdown("---\norder: 1\ndescription: x\n---\nbody", "bad.md")).toThrow(
      /bad\.md: front matter needs a title/,
    );
  });

  it("slugs like GitHub", () => {
    const slug = createSlugger();
    expect(slug("1. Blastoff: create")).toBe("1-blastoff-create");
    expect(slug("What's `new`?")).toBe("whats-new");
  });
});

describe("markdown imports through the Vite plugin", () => {
  it("yields a rendered page with front matter and headings", () => {
    expect(quickstart.title).toBe("Quick Start");
    expect(quickstart.order).toBe(2);
    expect(quickstart.headings).toContainEqual({
      depth: 2,
      text: "Before you start",
      id: "before-you-start",
    });
    expect(quickstart.html).toContain('<h2 id="before-you-start">Before you start</h2>');
    expect(quickstart.html).toContain('aria-label="Copy code"');
  });

  it("keeps ids that other pages link to", () => {
    const ids = configuration.headings.map((heading) => heading.id);
    expect(ids).toEqual(
      expect.arrayContaining(["cloud-credentials", "git-credentials", "project-mode"]),
    );
  });

  it("lists every page's front matter in order in the virtual index", () => {
    expect(docsIndex.map((page) => page.slug)).toEqual([
      "overview",
      "quickstart",
      "flow",
      "configuration",
      "cli",
      "dmt",
      "lsd",
      "safety",
      "esp",
      "dream",
    ]);
  });
});

describe("markdownPlugin hooks", () => {
  const plugin = markdownPlugin({ docsDir });

  it("leaves ?raw imports of Markdown to Vite, renders ?import ones and serves ?markdown twins", () => {
    const transform = plugin.transform as (
      code: string,
      id: string,
    ) => { code: string } | undefined;
    expect(transform(sample, "/docs/sample.md?raw")).toBeUndefined();
    const page = transform(sample, "/docs/sample.md?import")?.code ?? "";
    expect(page).toMatch(/^export default \{ \.\.\.\{"title":"Sample page"/);
    // The Markdown body is not in the page's module but behind `?markdown`, its own chunk.
    expect(page).not.toContain("## Set up");
    expect(page).toContain('import("./sample.md?markdown")');
    const body = transform(sample, "/docs/sample.md?markdown&import")?.code ?? "";
    expect(body).toMatch(/^export default "/);
    // The twin: title and description first, then the body, without the front matter.
    const twin = JSON.parse(body.slice("export default ".length).replace(/;\n$/, "")) as string;
    expect(twin.startsWith("# Sample page\n\n> A page for the test.\n\nIntro with `code`.")).toBe(
      true,
    );
    expect(twin).toContain("## Set up");
    expect(twin).not.toContain("title: Sample page");
    expect(transform(sample, "/docs/sample.md?markdown&raw")).toBeUndefined();
  });
});

describe("per-tool catalogue modules", () => {
  it("hold one tool's commands plus the commands they link to", () => {
    const own = dmtCatalogue.commands.filter((command) => command.tool === "dmt");
    expect(own.map((command) => command.id)).toContain("dmt-blastoff");
    expect(own.length).toBeGreaterThan(10);
    // DMT's commands only point at each other, so no LSD or ESP command comes along.
    expect(dmtCatalogue.commands).toHaveLength(own.length);
    expect(dmtCatalogue.tools.map((tool) => tool.id)).toEqual(["mg", "dmt", "lsd", "esp"]);
  });

  it("keep commands of other tools that a see-also link points to", () => {
    const cut = catalogueForTool(
      {
        tools: [],
        commands: [
          { id: "mg-init", tool: "mg", seeAlso: ["dmt-blastoff"] },
          { id: "dmt-blastoff", tool: "dmt", seeAlso: [] },
          { id: "dmt-nuke", tool: "dmt", seeAlso: [] },
        ],
      },
      "mg",
    );
    expect(cut.commands.map((command) => command.id)).toEqual(["mg-init", "dmt-blastoff"]);
  });
});
