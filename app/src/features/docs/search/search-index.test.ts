// @vitest-environment node
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import serialisedIndex from "virtual:mg-search-index";
import { indexOptions, type SearchDocument } from "@common/search-options";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../../../vite/render-markdown";
import { buildSearchIndex, pageSections, searchDocuments } from "../../../../vite/search-index";
import { createSearch, makeExcerpt } from "./search-engine";

const docsDir = fileURLToPath(new URL("../../../content/docs", import.meta.url));
const catalogueFile = fileURLToPath(
  new URL("../../../content/cli-catalogue.json", import.meta.url),
);
const documents = searchDocuments(docsDir, catalogueFile);
const search = createSearch(MiniSearch.loadJSON<SearchDocument>(serialisedIndex, indexOptions));

describe("the build-time search index", () => {
  it("has an entry for every heading of every page, with the id the rendered page uses", () => {
    for (const name of readdirSync(docsDir).filter((file) => file.endsWith(".md"))) {
      const source = readFileSync(`${docsDir}/${name}`, "utf8");
      const rendered = renderMarkdown(source, name);
      const sections = pageSections(source, name.slice(0, -3), name);
      expect(sections.slice(1).map((section) => section.anchor)).toEqual(
        rendered.headings.map((heading) => heading.id),
      );
      expect(sections[0]).toMatchObject({ anchor: "", heading: rendered.title, kind: "page" });
    }
  });

  it("keeps a section's own text and none of the next section's", () => {
    const sections = pageSections(
      "---\ntitle: T\ndescription: D.\norder: 1\n---\nIntro words.\n\n## First *one*\n\nAlpha `code`.\n\n```sh\nmg dmt ssh shop\n```\n\n## Second\n\nBeta.\n",
      "sample",
    );
    expect(sections).toEqual([
      expect.objectContaining({ id: "/mg/sample", heading: "T", text: "D. Intro words." }),
      expect.objectContaining({
        id: "/mg/sample#first-one",
        heading: "First one",
        text: "Alpha code. mg dmt ssh shop",
      }),
      expect.objectContaining({ id: "/mg/sample#second", text: "Beta." }),
    ]);
  });

  it("puts CLI pages under /mg/cli/ and every catalogue command on its tool's page", () => {
    expect(documents.find((entry) => entry.id === "/mg/cli/dmt#things-to-know")).toBeTruthy();
    expect(documents.find((entry) => entry.id === "/mg/cli/dmt#dmt-blastoff")).toMatchObject({
      heading: "mg dmt blastoff",
      page: "DMT Commands",
      kind: "command",
    });
    const commands = documents.filter((entry) => entry.kind === "command");
    expect(commands).toHaveLength(28);
    expect(new Set(documents.map((entry) => entry.id)).size).toBe(documents.length);
  });

  it("is what the virtual module ships", () => {
    expect(JSON.parse(serialisedIndex)).toEqual(
      JSON.parse(JSON.stringify(buildSearchIndex(documents))),
    );
  });
});

describe("searching the shipped index", () => {
  it("finds a word of one section and links to its heading", () => {
    expect(search("propagation")).toEqual([
      expect.objectContaining({
        href: "/mg/quickstart#wait-for-dns",
        page: "Quick Start",
        heading: "Wait for DNS",
      }),
    ]);
    expect(search("mistyped").map((result) => result.href)).toEqual([
      "/mg/safety#typing-the-database-name",
    ]);
  });

  it("finds commands by flag, with a half-typed last word", () => {
    const hrefs = search("instance-si").map((result) => result.href);
    expect(hrefs).toContain("/mg/cli/dmt#dmt-blastoff");
    expect(search("local port")[0]?.href).toBe("/mg/cli/dmt#dmt-db");
  });

  it("returns nothing for an empty query or a word that is nowhere", () => {
    expect(search("   ")).toEqual([]);
    expect(search("zyxwvutsrq")).toEqual([]);
  });
});

describe("makeExcerpt", () => {
  it("cuts around the first match and marks every match", () => {
    const text = `${"lorem ipsum ".repeat(20)}the DNS record points at the instance; DNS again.`;
    const parts = makeExcerpt(text, ["dns"]);
    expect(parts[0]?.text.startsWith("…")).toBe(true);
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual(["DNS", "DNS"]);
    expect(parts.map((part) => part.text).join("").length).toBeLessThanOrEqual(155);
  });

  it("starts at the beginning when the match is early or there is none", () => {
    expect(makeExcerpt("Short text.", [])).toEqual([{ text: "Short text.", match: false }]);
    expect(makeExcerpt("Find me here.", ["find"])[0]).toEqual({ text: "Find", match: true });
  });
});
