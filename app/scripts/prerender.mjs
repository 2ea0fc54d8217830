// The prerender (docs/rendering.md), run by `npm run build` after the client build
// (dist/) and the server bundle (dist-ssr/entry-server.mjs, `vite build --ssr`):
//   for every configuration variant the build chooses (common/variant.ts, `prerenderVariants`),
//     load a fresh copy of the server bundle with that variant's runtime config (`runtimeConfigOf`,
//     typed with the server's own struct: the fields are not described here),
//     render every public path, the frame of each sign-in route that has one (sanctified variants:
//     the page while the session is read, nothing personal in it) and the not-found page with
//     React's `prerender`,
//     put the markup into dist/index.html's #root and the page's head tags into its head;
//   write each distinct document once, as dist/pages/<first 16 hex of its SHA-256>.html, and the
//   manifest dist/pages.json (app/common/PRERENDER-CONTRACT.md) the server picks a page from per request.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadEnv } from "vite";
import { serverBundle } from "./catalogue.mjs";

const app = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(app, "dist");
const bundle = serverBundle;

const SITE_NAME = "mg";

// The VITE_* values the build was made with (the same reading as Vite's: .env files, then the
// environment), for pages.json's `build`.
const env = loadEnv("production", app, "VITE_");
const text = (value) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);
function flag(value) {
  const raw = text(value)?.toLowerCase();
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  return null;
}
const build = {
  sanctified: flag(env.VITE_SANCTIFIED),
  deploymentType: text(env.VITE_DEPLOYMENT_TYPE),
  deploymentFlags: text(env.VITE_DEPLOYMENT_FLAGS),
  deploymentId: text(env.VITE_DEPLOYMENT_ID),
};
const siteUrl = (text(env.VITE_SITE_URL) ?? "__MG_SITE_URL__").replace(/\/+$/, "");

const escapeHtml = (value) =>
  value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");

/** The head tags of one page (contract: title, description, canonical, Open Graph, Twitter card). */
function headTags({ meta, address, notFound, docs }) {
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const tags = [`<title>${title}</title>`, `<meta name="description" content="${description}" />`];
  if (notFound) {
    tags.push('<meta name="robots" content="noindex" />');
  } else {
    tags.push(`<link rel="canonical" href="${escapeHtml(siteUrl + address.canonical)}" />`);
  }
  tags.push(
    `<meta property="og:title" content="${title}" />`,
    `<meta property="og:description" content="${description}" />`,
    `<meta property="og:type" content="${docs ? "article" : "website"}" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
  );
  if (!notFound) {
    tags.push(`<meta property="og:url" content="${escapeHtml(siteUrl + address.canonical)}" />`);
  }
  // The card's title and description are the Open Graph ones (X reads og:title / og:description
  // when twitter:title / twitter:description are absent): the docs pages' first visit is near its budget.
  tags.push('<meta name="twitter:card" content="summary" />');
  if (address.markdown) {
    tags.push(
      `<link rel="alternate" type="text/markdown" href="${escapeHtml(address.markdown)}" />`,
    );
  }
  return tags.join("\n    ");
}

/** The scripts and stylesheets of manifest entry `id` and of everything it imports statically. */
function staticImports(manifest, id) {
  const js = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || js.has(chunk.file)) return;
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(id);
  return { js, css };
}

/**
 * The <link>s a page's own chunk needs in its HTML: its stylesheets (in the browser the chunk's loader
 * adds them; a prerendered page must carry them, or it paints unstyled until the script runs, and
 * never styled without JavaScript) and modulepreloads of its scripts (hydration waits for them).
 * `key` is the page's module (the catalogue's `pages.*.module`; none: the app chunk has the page).
 * Files index.html already links are left out.
 */
function chunkLinks(manifest, key) {
  if (!key) return "";
  const { js, css } = staticImports(manifest, key);
  const index = staticImports(manifest, "index.html");
  const shell = new Set([...index.js, ...index.css]);
  const links = [
    ...[...css]
      .filter((file) => !shell.has(file))
      .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...[...js]
      .filter((file) => !shell.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ];
  return links.join("\n    ");
}

/**
 * Puts the page's stylesheets into its HTML (`<style>`): a page that paints on arrival should not wait
 * for more round trips before its first paint (Lighthouse counts each as render-blocking). Each also
 * keeps a `disabled` link, which the browser never fetches, so Vite's chunk loader sees the stylesheet
 * as already there and does not download it again when a chunk that lists it loads.
 */
export function inlineStylesheets(page, readCss) {
  return page.replace(
    /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g,
    (_, file) =>
      `<style>${readCss(file)}</style>\n    <link rel="stylesheet" href="/${file}" disabled>`,
  );
}

/**
 * Holds back a click on one of the page's buttons until React has hydrated it, instead of losing it:
 * a prerendered button has no handler before then (a tap on the Docs menu while the scripts load did
 * nothing). The clicks are kept in order, at most 16, and `main.tsx` takes them once hydration has
 * committed (`window.__mgEarlyClicks()`, which also stops the holding) and clicks those buttons
 * again. Links are left alone: they work without scripts. Without JavaScript nothing of this runs.
 */
export const EARLY_CLICKS =
  `(function(){var q=[],d=document;function c(e){var t=e.target,b=t&&t.closest&&t.closest("#root button");` +
  `if(!b)return;e.preventDefault();e.stopImmediatePropagation();if(q.length<16)q.push(b)}` +
  `d.addEventListener("click",c,true);` +
  `window.__mgEarlyClicks=function(){d.removeEventListener("click",c,true);return q.splice(0)}})();`;

/**
 * Starts the app's scripts after the first paint instead of with the HTML: the page is readable as it
 * arrives, so its first paint must not share the connection with the scripts that only hydrate it
 * (React alone is 66 KB gzip, several round trips on a slow mobile link). The module script and the
 * modulepreloads leave the head; a small inline script (its hash goes in the CSP like the theme
 * script's) adds them back once the first frame has been painted, `PRELOADS_PER_TASK` links per
 * insertion and task, the module script with the last ones: the browser's work to start each
 * request (about 2 ms on this machine's CPU, 8 ms on a phone's) made one task of 120 ms on a phone
 * when all fifteen went in at once.
 */
/** How many modulepreload links `deferScripts`'s loader inserts per task. */
const PRELOADS_PER_TASK = 4;

export function deferScripts(page) {
  const preloads = [];
  let entry;
  let html = page.replace(
    /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g,
    (_, href) => {
      preloads.push(href);
      return "";
    },
  );
  html = html.replace(/\s*<script type="module" crossorigin src="([^"]+)"><\/script>/, (_, src) => {
    entry = src;
    return "";
  });
  if (!entry) throw new Error("prerender: index.html has no module script");
  const loader =
    `<script>${EARLY_CLICKS}requestAnimationFrame(function(){var u=${JSON.stringify(preloads)},i=0;` +
    `function n(){var f=document.createDocumentFragment();` +
    `u.slice(i,i+=${PRELOADS_PER_TASK}).forEach(function(h){var l=document.createElement("link");` +
    `l.rel="modulepreload";l.crossOrigin="";l.href=h;f.append(l)});` +
    `if(i>=u.length){var s=document.createElement("script");s.type="module";s.crossOrigin="";` +
    `s.src=${JSON.stringify(entry)};f.append(s)}document.head.append(f);if(i<u.length)setTimeout(n)}` +
    `setTimeout(n)})</script>`;
  return html.replace("</body>", () => `  ${loader}\n  </body>`);
}

/** dist/index.html with the page's head tags and its markup in #root. */
export function documentFor(template, { html, meta, address, notFound, links = "" }) {
  if (!meta) throw new Error(`prerender: ${address.canonical} set no title (usePageMeta)`);
  const head = headTags({ meta, address, notFound, docs: Boolean(address.markdown) });
  let page = template
    .replace(/<title>[^<]*<\/title>/, "")
    .replace(/<meta name="description"[^>]*>\s*/, "");
  if (!page.includes('<div id="root"></div>')) throw new Error("index.html has no empty #root");
  page = page.replace(/(<meta name="viewport"[^>]*>)/, `$1\n    ${head}`);
  if (links) page = page.replace("</head>", () => `  ${links}\n  </head>`);
  return page.replace('<div id="root"></div>', () => `<div id="root">${html}</div>`);
}

async function main() {
  const started = performance.now();
  // The shell's comments document its source; every prerendered page would carry them (about 0.4 KB
  // gzip, which the docs pages' first-visit budget does not have).
  const template = (await readFile(join(dist, "index.html"), "utf8")).replace(
    /\s*<!--[\s\S]*?-->/g,
    "",
  );
  const manifestFile = join(dist, ".vite", "manifest.json");
  const chunks = JSON.parse(await readFile(manifestFile, "utf8"));
  const css = new Map();
  const { readFileSync } = await import("node:fs");
  const readCss = (file) => {
    if (!css.has(file)) css.set(file, readFileSync(join(dist, file), "utf8").trim());
    return css.get(file);
  };
  // The variant list and each variant's runtime config come from the bundle (common/variant.ts),
  // loaded once without a config for them; each variant's key from its own copy of the bundle, as
  // the wasm core resolves that configuration (entry-server's currentVariantKey).
  // The page catalogue (app/common/routes.ts) comes from the bundle too.
  const { prerenderVariants, runtimeConfigOf, pageModule, redirects } = await import(
    `${bundle}?list`
  );
  const runtimeConfig = (variant) => JSON.stringify(runtimeConfigOf(variant));

  await rm(join(dist, "pages"), { recursive: true, force: true });
  await mkdir(join(dist, "pages"));
  const written = new Map();
  const store = async (document) => {
    const hash = createHash("sha256").update(document).digest("hex").slice(0, 16);
    const file = `pages/${hash}.html`;
    if (!written.has(file)) {
      written.set(file, document.length);
      await writeFile(join(dist, file), document);
    }
    return file;
  };

  const pages = {};
  const signedIn = {};
  const notFound = {};
  let renders = 0;
  for (const [index, variant] of prerenderVariants().entries()) {
    globalThis.__MG_PRERENDER_RUNTIME_CONFIG__ = runtimeConfig(variant);
    // A fresh copy of the bundle (its own URL): the app reads its configuration once, at load.
    const server = await import(`${bundle}?variant=${index}`);
    const key = server.currentVariantKey();
    if (pages["/"]?.[key]) throw new Error(`prerender: two variants have the key ${key}`);
    const prerendered = async (path) => {
      const rendered = await server.render(path);
      const address = server.pageAddress(path);
      const links = chunkLinks(chunks, pageModule(path));
      const page = documentFor(template, { ...rendered, address, links });
      renders += 1;
      return store(deferScripts(inlineStylesheets(page, readCss)));
    };
    for (const path of server.publicPaths()) {
      pages[path] ??= {};
      pages[path][key] = await prerendered(path);
    }
    for (const path of server.framePaths()) {
      signedIn[path] ??= {};
      signedIn[path][key] = await prerendered(path);
    }
    const missing = await server.render(server.NOT_FOUND_PATH);
    notFound[key] = await store(
      deferScripts(
        inlineStylesheets(
          documentFor(template, { ...missing, address: { canonical: "" }, notFound: true }),
          readCss,
        ),
      ),
    );
    renders += 1;
  }
  globalThis.__MG_PRERENDER_RUNTIME_CONFIG__ = undefined;

  const manifest = {
    version: 1,
    build,
    redirects: redirects(),
    pages,
    signedIn,
    notFound,
  };
  await writeFile(join(dist, "pages.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  // Build-internal: never served.
  await rm(join(dist, ".vite"), { recursive: true, force: true });
  const files = (await readdir(join(dist, "pages"))).length;
  const ms = Math.round(performance.now() - started);
  console.log(`prerender: ${renders} renders, ${files} distinct pages in dist/pages, ${ms} ms`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
