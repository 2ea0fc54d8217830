// @vitest-environment node
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { precompressDir } from "./precompress";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function build(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mg-precompress-"));
  dirs.push(dir);
  await mkdir(join(dir, "assets"));
  for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
  return dir;
}

describe("precompressDir", () => {
  it("writes Brotli and gzip copies that decode to the file, beside text and wasm files", async () => {
    const script =
      "export function wisdom() { return 'Simplicity is prerequisite for reliability.'; }\n";
    const js = script.repeat(100);
    // A wasm-like body: the magic number, then repetitive bytes.
    const wasm = Buffer.concat([
      Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
      Buffer.alloc(4096, 7),
    ]);
    const dir = await build({
      "assets/app-1.js": js,
      "assets/core-2.wasm": wasm,
      "llms.txt": js,
      "overview.md": js,
    });

    const written = await precompressDir(dir);

    expect(written.map((entry) => entry.file).sort()).toEqual([
      "assets/app-1.js",
      "assets/core-2.wasm",
      "llms.txt",
      "overview.md",
    ]);
    const br = await readFile(join(dir, "assets/app-1.js.br"));
    const gz = await readFile(join(dir, "assets/app-1.js.gz"));
    expect(brotliDecompressSync(br).toString()).toBe(js);
    expect(gunzipSync(gz).toString()).toBe(js);
    // Brotli at quality 11 beats gzip -9 on text.
    expect(br.length).toBeLessThan(gz.length);
    expect(brotliDecompressSync(await readFile(join(dir, "assets/core-2.wasm.br")))).toEqual(wasm);
  });

  it("leaves out index.html, small files and formats that are compressed already", async () => {
    const big = "<p>page</p>\n".repeat(400);
    const dir = await build({
      "index.html": big,
      "graphics.html": big,
      "assets/tiny-3.js": "export {};\n",
      "assets/photo-4.png": Buffer.alloc(8192, 1),
    });

    await precompressDir(dir);

    const names = [...(await readdir(dir)), ...(await readdir(join(dir, "assets")))].sort();
    expect(names).toEqual([
      "assets",
      "graphics.html",
      "graphics.html.br",
      "graphics.html.gz",
      "index.html",
      "photo-4.png",
      "tiny-3.js",
    ]);
  });

  it("keeps no copy that would be larger than the file", async () => {
    // Random bytes do not compress: both copies come out larger, so neither is kept.
    const dir = await build({ "assets/noise-5.js": randomBytes(4096) });
    expect(await precompressDir(dir)).toEqual([]);
    expect(await readdir(join(dir, "assets"))).toEqual(["noise-5.js"]);
  });
});
