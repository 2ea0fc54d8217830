import { expect, test } from "@playwright/test";
import { docsPaths, missingPath, prerenderedPaths } from "./prerendered";

// Every prerendered page's own <title>, meta description, canonical URL, Open Graph
// and Twitter card tags, in the HTML the server sends (what crawlers and link previews read, with no
// JavaScript); docs pages also name their Markdown twin.

function attribute(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

function head(html: string): Record<string, string | undefined> {
  const part = html.slice(0, html.indexOf("</head>"));
  return {
    title: attribute(part, /<title>([^<]*)<\/title>/),
    description: attribute(part, /<meta name="description" content="([^"]*)"/),
    canonical: attribute(part, /<link rel="canonical" href="([^"]*)"/),
    ogTitle: attribute(part, /<meta property="og:title" content="([^"]*)"/),
    ogDescription: attribute(part, /<meta property="og:description" content="([^"]*)"/),
    ogUrl: attribute(part, /<meta property="og:url" content="([^"]*)"/),
    ogType: attribute(part, /<meta property="og:type" content="([^"]*)"/),
    ogSiteName: attribute(part, /<meta property="og:site_name" content="([^"]*)"/),
    twitterCard: attribute(part, /<meta name="twitter:card" content="([^"]*)"/),
    markdown: attribute(part, /<link rel="alternate" type="text\/markdown" href="([^"]*)"/),
  };
}

/** Aliases (/docs, /mg/cli, /mg/dmt, /mg/lsd) name the page they show as canonical. */
const aliases: Record<string, string> = {
  "/docs": "/mg/overview",
  "/mg/cli": "/mg/cli/main",
  "/mg/dmt": "/mg/cli/dmt",
  "/mg/lsd": "/mg/cli/lsd",
};

for (const path of prerenderedPaths) {
  test(`${path} has its own title, description, canonical, Open Graph and Twitter tags`, async ({
    request,
  }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    const tags = head(html);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(tags.title).toMatch(/ · mg$/);
    expect(tags.description?.length).toBeGreaterThan(20);
    // The server fills the site's address in: nothing of the build's placeholders is left.
    expect(html).not.toContain("__MG_");
    expect(tags.canonical).toMatch(/^https?:\/\/[^/]+\//);
    const canonicalPath = new URL(tags.canonical ?? "").pathname;
    expect(canonicalPath).toBe(aliases[path] ?? path);
    expect(tags.ogUrl).toBe(tags.canonical);
    expect(tags.ogTitle).toBe(tags.title);
    expect(tags.ogDescription).toBe(tags.description);
    expect(tags.ogSiteName).toBe("mg");
    expect(tags.ogType).toBe(docsPaths.includes(path) ? "article" : "website");
    expect(tags.twitterCard).toBe("summary");
    // X takes the card's title and description from Open Graph.
    if (docsPaths.includes(path)) {
      expect(tags.markdown).toBe(`${canonicalPath}.md`);
    } else {
      expect(tags.markdown).toBeUndefined();
    }
  });
}

test("pages that are not aliases of one another have titles and descriptions of their own", async ({
  request,
}) => {
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();
  for (const path of prerenderedPaths.filter((path) => !(path in aliases))) {
    const tags = head(await (await request.get(path)).text());
    expect(titles.get(tags.title ?? ""), `${path}: same title`).toBeUndefined();
    expect(descriptions.get(tags.description ?? ""), `${path}: same description`).toBeUndefined();
    titles.set(tags.title ?? "", path);
    descriptions.set(tags.description ?? "", path);
  }
});

test("the not-found page says so in its head and is not indexed", async ({ request }) => {
  const response = await request.get(missingPath);
  expect(response.status()).toBe(404);
  const html = await response.text();
  expect(head(html).title).toBe("Page not found · mg");
  expect(html).toContain('<meta name="robots" content="noindex" />');
  expect(head(html).canonical).toBeUndefined();
});
