// The canonical route of a docs page, shared by the app and the build-time search index.

/** CLI pages live under /mg/cli/; every other page at /mg/<slug>. */
export function docsPath(slug: string): string {
  if (slug === "cli") return "/mg/cli/main";
  if (slug === "dmt" || slug === "lsd") return `/mg/cli/${slug}`;
  return `/mg/${slug}`;
}
