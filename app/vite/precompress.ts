// Writes Brotli (`.br`, quality 11) and gzip (`.gz`, level 9) copies beside every text file and
// .wasm of a build, which the server sends as they are to browsers that accept them (ServeDir's
// precompressed files): Brotli at its best made first visits 12-14% smaller on the wire than gzip
// (docs/performance.md), costs nothing per request, and every browser running this app accepts it.
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin, ResolvedConfig } from "vite";

/** What compresses: text and WebAssembly. Images and fonts here are already compressed. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|md|xml|wasm|map)$/;
/** Below this a compressed copy saves less than a packet. */
const MIN_BYTES = 1024;
/** The server injects the runtime configuration into index.html per request, so a copy would be stale. */
const SKIP = new Set(["index.html"]);

export type Precompressed = { file: string; bytes: number; br: number; gz: number };

async function* files(dir: string, prefix = ""): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* files(join(dir, entry.name), relative);
    else if (entry.isFile()) yield relative;
  }
}

/**
 * Compresses every eligible file under `dir` (see COMPRESSIBLE, MIN_BYTES, SKIP); a copy is kept
 * only when it is smaller than the file. Returns what it wrote.
 */
export async function precompressDir(dir: string): Promise<Precompressed[]> {
  const written: Precompressed[] = [];
  for await (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file) || SKIP.has(file)) continue;
    const path = join(dir, file);
    if ((await stat(path)).size < MIN_BYTES) continue;
    const body = await readFile(path);
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    const entry: Precompressed = { file, bytes: body.length, br: 0, gz: 0 };
    if (br.length < body.length) {
      await writeFile(`${path}.br`, br);
      entry.br = br.length;
    }
    if (gz.length < body.length) {
      await writeFile(`${path}.gz`, gz);
      entry.gz = gz.length;
    }
    if (entry.br || entry.gz) written.push(entry);
  }
  return written;
}

/** Runs precompressDir on the output directory once the build has written it. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "mg-precompress",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const written = await precompressDir(outDir);
      const total = (key: "bytes" | "br" | "gz") =>
        written.reduce((sum, entry) => sum + entry[key], 0);
      config.logger.info(
        `precompressed ${written.length} files: ${(total("bytes") / 1024).toFixed(1)} KB -> ` +
          `br ${(total("br") / 1024).toFixed(1)} KB, gzip ${(total("gz") / 1024).toFixed(1)} KB`,
      );
    },
  };
}
