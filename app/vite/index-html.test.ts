// @vitest-environment node
// The page head announces the server's incident feed, so feed readers find it
// from any page of the site.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const html = readFileSync(fileURLToPath(new URL("../index.html", import.meta.url)), "utf8");
const head = html.slice(html.indexOf("<head>"), html.indexOf("</head>"));

describe("index.html head", () => {
  it("links the Atom feed of incidents", () => {
    const link = head.match(/<link rel="alternate" type="application\/atom\+xml"[^>]*>/)?.[0] ?? "";
    expect(link).toContain('href="/status/feed.atom"');
    expect(link).toContain('title="mg-web status: incidents"');
  });
});
