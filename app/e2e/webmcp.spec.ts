import { expect, type Page, test } from "@playwright/test";

// WebMCP in the built app: with a stand-in for the browser's WebMCP (`navigator.modelContext`,
// installed before the app runs), the CLI pages register `build_mg_command` and withdraw it on
// leaving; without it, the tool's code is never fetched.

/** Installs a recording navigator.modelContext that follows the current draft (register with a signal). */
async function installModelContext(page: Page) {
  await page.addInitScript(() => {
    const tools = new Map<string, { execute: (input: unknown) => Promise<unknown> }>();
    const log: string[] = [];
    Object.defineProperty(navigator, "modelContext", {
      configurable: true,
      value: {
        registerTool(
          tool: { name: string; execute: (input: unknown) => Promise<unknown> },
          options?: { signal?: AbortSignal },
        ) {
          tools.set(tool.name, tool);
          log.push(`register ${tool.name}`);
          options?.signal?.addEventListener("abort", () => {
            tools.delete(tool.name);
            log.push(`unregister ${tool.name}`);
          });
        },
      },
    });
    Object.assign(window, {
      webmcpLog: log,
      callTool: (name: string, input: unknown) => tools.get(name)?.execute(input),
    });
  });
}

const toolChunk = (url: string) => /\/assets\/command-tool-[^/]*\.js$/.test(url);

test("a CLI page registers build_mg_command, which builds the form's line, and withdraws it on leaving", async ({
  page,
}) => {
  await installModelContext(page);
  await page.goto("/mg/cli/dmt");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("DMT Commands");
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { webmcpLog: string[] }).webmcpLog))
    .toEqual(["register build_mg_command"]);

  const call = (input: unknown) =>
    page.evaluate(
      (value) =>
        (
          window as unknown as { callTool: (name: string, input: unknown) => Promise<unknown> }
        ).callTool("build_mg_command", value),
      input,
    );
  expect(
    await call({
      tool: "dmt",
      command: "blastoff",
      arguments: { name: "shop" },
      options: { "--instance-size": "t3.small", "--r53": true },
    }),
  ).toEqual({
    content: [{ type: "text", text: "mg dmt blastoff shop --r53 --instance-size t3.small" }],
  });
  expect(await call({ tool: "dmt", command: "nuke" })).toMatchObject({ isError: true });

  await page
    .getByRole("navigation", { name: "Docs tabs" })
    .getByRole("link", { name: "Flow" })
    .click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flow");
  expect(
    await page.evaluate(() => (window as unknown as { webmcpLog: string[] }).webmcpLog),
  ).toEqual(["register build_mg_command", "unregister build_mg_command"]);
});

test("without navigator.modelContext the tool's code is never fetched, even with the builder open", async ({
  page,
}) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await page.goto("/mg/cli/dmt#command-builder");
  await expect(
    page.getByTestId("built-command").or(page.getByText("No command yet")),
  ).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(requested.some((url) => /\/assets\/command-builder-[^/]*\.js$/.test(url))).toBe(true);
  expect(requested.filter(toolChunk)).toEqual([]);
});

test("a page without the builder registers nothing", async ({ page }) => {
  await installModelContext(page);
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  await page.goto("/mg/flow");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Flow");
  await page.waitForLoadState("networkidle");
  expect(
    await page.evaluate(() => (window as unknown as { webmcpLog: string[] }).webmcpLog),
  ).toEqual([]);
  expect(requested.filter(toolChunk)).toEqual([]);
});
