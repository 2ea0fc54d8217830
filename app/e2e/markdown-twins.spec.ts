import { type APIResponse, expect, test } from "@playwright/test";
import { docsPages } from "./pages";

// The files for agents as the real server answers them: each docs page's Markdown twin at its path
// plus `.md` (and for `Accept: text/markdown` on the page itself), the Link header that points there,
// llms.txt and llms-full.txt, sitemap.xml and robots.txt (with the site's address filled in). A docs
// page's <link rel="alternate"> to its twin is checked by the page sweep (pages.spec.ts).
const port = Number(process.env.E2E_PORT ?? 4173);
// The server's PUBLIC_URL default (start-server.sh sets none).
const site = `http://localhost:${port}`;

const twins = docsPages.map(({ path, title }) => ({ page: path, title }));

const markdownType = "text/markdown; charset=utf-8";

/** The body with code blocks and code spans taken out, where no HTML tag may remain. */
function prose(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
}

async function expectTwin(response: APIResponse, title: string) {
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe(markdownType);
  const body = await response.text();
  expect(body.startsWith(`# ${title}\n\n> `)).toBe(true);
  expect(prose(body)).not.toMatch(/<\/?[A-Za-z][\w-]*(\s[^>]*)?>/);
  return body;
}

for (const { page, title } of twins) {
  test(`${page}.md is the page's Markdown twin`, async ({ request }) => {
    await expectTwin(await request.get(`${page}.md`), title);
  });
}

test("the DMT twin carries the command reference as Markdown tables and code", async ({
  request,
}) => {
  const body = await expectTwin(await request.get("/mg/cli/dmt.md"), "DMT Commands");
  expect(body).toContain("### `mg dmt blastoff`");
  expect(body).toContain(
    "| `--instance-size` | `--dose` | `<size>` | `t2.micro`, `t2.small`, `t2.medium`, `t3.small`, `t3.medium` | `t2.micro` |",
  );
  expect(body).toContain("```sh\nmg dmt blastoff shop\n```");
  // The same file, compressed on the wire for clients that accept it.
  const brotli = await request.get("/mg/cli/dmt.md", { headers: { "Accept-Encoding": "br" } });
  expect(brotli.headers()["content-encoding"]).toBe("br");
  expect(await brotli.text()).toBe(body);
});

test("Accept: text/markdown on a docs page answers its twin; a browser still gets HTML", async ({
  request,
}) => {
  const twin = await (await request.get("/mg/cli/dmt.md")).text();
  const markdown = await request.get("/mg/cli/dmt", { headers: { Accept: "text/markdown" } });
  expect(markdown.status()).toBe(200);
  expect(markdown.headers()["content-type"]).toBe(markdownType);
  expect(await markdown.text()).toBe(twin);
  expect(markdown.headers().vary ?? "").toMatch(/accept/i);

  const html = await request.get("/mg/cli/dmt", {
    headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
  });
  expect(html.headers()["content-type"]).toMatch(/^text\/html/);
});

test("a docs page names its twin in a Link header", async ({ request }) => {
  const response = await request.get("/mg/cli/dmt");
  expect(response.headers().link).toContain(
    '</mg/cli/dmt.md>; rel="alternate"; type="text/markdown"',
  );
});

test("llms.txt links every docs page's twin, and llms-full.txt holds them all", async ({
  request,
}) => {
  const llms = await request.get("/llms.txt");
  expect(llms.status()).toBe(200);
  expect(llms.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  const links = [...(await llms.text()).matchAll(/\]\((\/mg\/[^)]*)\)/g)].map((m) => m[1]);
  expect(links.sort()).toEqual(twins.map(({ page }) => `${page}.md`).sort());
  for (const link of links) {
    const twin = await request.get(link ?? "");
    expect(twin.status(), link).toBe(200);
  }

  const full = await request.get("/llms-full.txt");
  expect(full.status()).toBe(200);
  expect(full.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  const text = await full.text();
  for (const { page, title } of twins) {
    expect(text).toContain(`Page: ${page} (Markdown: ${page}.md)\n\n# ${title}\n`);
  }
});

test("sitemap.xml lists every public page once; robots.txt allows all and names the sitemap", async ({
  request,
}) => {
  const sitemap = await request.get("/sitemap.xml");
  expect(sitemap.status()).toBe(200);
  expect(sitemap.headers()["content-type"]).toMatch(/^(application|text)\/xml/);
  const locs = [...(await sitemap.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
  const paths = locs.map((loc) => loc?.replace(/^(https?:\/\/[^/]+|__MG_SITE_URL__)/, ""));
  expect(paths).toEqual([
    "/",
    "/apotheosis",
    "/telekinesis",
    "/bench",
    ...twins.map(({ page }) => page),
  ]);

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toMatch(/^text\/plain/);
  expect(await robots.text()).toMatch(
    /^User-agent: \*\nAllow: \/\n\nSitemap: \S+\/sitemap\.xml\n$/,
  );
});

test("the server writes its own address into sitemap.xml and robots.txt", async ({ request }) => {
  const locs = [
    ...(await (await request.get("/sitemap.xml")).text()).matchAll(/<loc>([^<]*)<\/loc>/g),
  ];
  expect(locs.length).toBeGreaterThan(0);
  for (const [, loc] of locs) expect(loc?.startsWith(`${site}/`), loc).toBe(true);
  expect(await (await request.get("/robots.txt")).text()).toContain(`Sitemap: ${site}/sitemap.xml`);
});
