import { expect, type Page, test } from "@playwright/test";
import {
  axeViolations,
  eachThemeAndWidth,
  horizontalOverflow,
  lookAt,
  twoFrames,
  untilSettled,
} from "./checks";

// The command builder on the CLI pages: inputs generated from the catalogue, validation tied to
// each field, POSIX quoting, and a copy button announced to screen readers.

/** Element screenshots scroll the page; the fixed site bar would be painted over the builder. */
const hideFixedBar = ".sanctified-nav { visibility: hidden; }";

function builder(page: Page) {
  return page.getByRole("region", { name: "Command builder" });
}

function builtCommand(page: Page) {
  return builder(page).getByTestId("built-command");
}

/** Opens a CLI page and scrolls to the builder, whose form is fetched as its section nears the screen. */
async function openBuilder(page: Page, path = "/mg/cli/dmt") {
  await page.goto(path);
  await builder(page).scrollIntoViewIfNeeded();
  await expect(builder(page).getByLabel("Command", { exact: true })).toBeVisible();
}

/** The builder's chunk (its code and its CSS), and its code alone. */
const BUILDER_CHUNK = /\/assets\/command-builder-[\w-]+\.(js|css)$/;
const BUILDER_CHUNK_JS = /\/assets\/command-builder-[\w-]+\.js$/;

/** Records the URLs of the builder chunk's requests. */
function builderRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (BUILDER_CHUNK.test(request.url())) urls.push(request.url());
  });
  return urls;
}

test("builds blastoff with a domain and an instance size from the catalogue", async ({ page }) => {
  await openBuilder(page);
  const form = builder(page);
  await expect(form.getByLabel("Command", { exact: true })).toHaveValue("dmt-blastoff");
  await expect(builtCommand(page)).toHaveText("mg dmt blastoff");

  // Enumerations are a select with the default marked; switches are checkboxes.
  const size = form.getByLabel("--instance-size");
  await expect(size.locator("option")).toHaveText([
    "t2.micro (default)",
    "t2.small",
    "t2.medium",
    "t3.small",
    "t3.medium",
  ]);
  await expect(form.getByRole("checkbox", { name: "--r53" })).not.toBeChecked();

  await form.getByLabel("<name>").fill("my-app");
  await form.getByLabel("--domain").fill("example.com");
  await size.selectOption("t3.small");
  await expect(builtCommand(page)).toHaveText(
    "mg dmt blastoff my-app --domain example.com --instance-size t3.small",
  );

  await form.getByRole("checkbox", { name: "--r53" }).check();
  await expect(builtCommand(page)).toHaveText(
    "mg dmt blastoff my-app --domain example.com --r53 --instance-size t3.small",
  );
});

test("quotes a value with a space and a single quote for the shell", async ({ page }) => {
  await openBuilder(page);
  await builder(page).getByLabel("<name>").fill("shop");
  await builder(page).getByLabel("--branch").fill("Bob's fix");
  await expect(builtCommand(page)).toHaveText("mg dmt blastoff shop --branch 'Bob'\\''s fix'");
});

test("an invalid value shows an error tied to its field and offers no command", async ({
  page,
}) => {
  await openBuilder(page);
  const domain = builder(page).getByLabel("--domain");
  await domain.fill("https://example.com");
  await domain.press("Tab");

  const message = "Leave out the scheme: write app.example.com, not https://app.example.com.";
  await expect(domain).toHaveAttribute("aria-invalid", "true");
  // The error comes first in the field's description, before the catalogue's explanation.
  await expect(domain).toHaveAccessibleDescription(
    `${message} Custom domain to serve the app on, for example app.example.com.`,
  );
  const describedBy = (await domain.getAttribute("aria-describedby")) ?? "";
  const errorId = describedBy.split(" ")[0] ?? "";
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText(`⚠ ${message}`);
  await expect(builtCommand(page)).toHaveCount(0);
  await expect(builder(page).getByRole("button", { name: "Copy command" })).toHaveCount(0);
  await expect(builder(page).getByText("No command yet.")).toBeVisible();

  await domain.fill("example.com");
  await expect(domain).not.toHaveAttribute("aria-invalid", "true");
  await expect(builtCommand(page)).toHaveText("mg dmt blastoff --domain example.com");
});

test("a missing required argument is named and blocks the command", async ({ page }) => {
  await openBuilder(page);
  await builder(page).getByLabel("Command", { exact: true }).selectOption("dmt-show");
  await expect(builtCommand(page)).toHaveCount(0);
  await expect(builder(page).getByText("No command yet.")).toBeVisible();

  const name = builder(page).getByLabel("<name>");
  await name.focus();
  await name.blur();
  await expect(name).toHaveAccessibleDescription("Required: fill in <name>. Deployment to show.");
  await expect(builder(page).getByRole("button", { name: "Copy command" })).toHaveCount(0);

  await name.fill("shop");
  await expect(builtCommand(page)).toHaveText("mg dmt show shop");
});

test("catalogue rules across fields: nuke takes a name or --all, not both", async ({ page }) => {
  await openBuilder(page);
  await builder(page).getByLabel("Command", { exact: true }).selectOption("dmt-nuke");
  await builder(page).getByLabel("<name>").fill("shop");
  await expect(builtCommand(page)).toHaveText("mg dmt nuke shop");
  await builder(page).getByRole("checkbox", { name: "--all" }).check();
  await expect(builder(page).getByRole("checkbox", { name: "--all" })).toHaveAccessibleDescription(
    /Give <name> or --all, not both\./,
  );
  await expect(builtCommand(page)).toHaveCount(0);
  await builder(page).getByLabel("<name>").fill("");
  await builder(page).getByRole("checkbox", { name: "--non-interactive" }).check();
  await expect(builtCommand(page)).toHaveText("mg dmt nuke --all --non-interactive");
});

test("Copy command writes the line to the clipboard and announces it", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await openBuilder(page);
  await builder(page).getByLabel("<name>").fill("my app");
  const copy = builder(page).getByRole("button", { name: /^(Copy command|Copied)$/ });
  await copy.click();
  await expect(builder(page).getByRole("status")).toHaveText(
    "Copied to the clipboard: mg dmt blastoff 'my app'",
  );
  await expect(copy).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    "mg dmt blastoff 'my app'",
  );
});

test("each CLI page builds its own tool's commands", async ({ page }) => {
  await openBuilder(page, "/mg/cli/main");
  await expect(builtCommand(page)).toHaveText("mg init --dream");
  const picker = builder(page).getByLabel("Command", { exact: true });
  await expect(picker.locator("option")).toHaveText([
    "mg init",
    "mg install-completion",
    "mg config set",
  ]);
  await picker.selectOption("mg-config-set");
  await builder(page).getByLabel("<key>").selectOption("git.username");
  await builder(page).getByLabel("<value>").fill("Ann O'Neil");
  await expect(builtCommand(page)).toHaveText("mg config set git.username 'Ann O'\\''Neil'");

  await openBuilder(page, "/mg/cli/lsd");
  await builder(page).getByLabel("Command", { exact: true }).selectOption("lsd-list");
  await builder(page).getByRole("checkbox", { name: "--health" }).check();
  await builder(page).getByRole("checkbox", { name: "--archived" }).check();
  await expect(builtCommand(page)).toHaveCount(0);
  await expect(
    builder(page).getByRole("checkbox", { name: "--archived" }),
  ).toHaveAccessibleDescription(/Use only one of --health, --archived, --deleting\./);
});

test("the builder is its own chunk, fetched on CLI pages only", async ({ page }) => {
  const chunks = builderRequests(page);
  await page.goto("/mg/overview");
  await expect(page.getByRole("navigation", { name: "Previous and next pages" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(chunks).toEqual([]);
  await expect(builder(page)).toHaveCount(0);

  await page
    .getByRole("navigation", { name: "Docs tabs" })
    .getByRole("link", { name: "CLI" })
    .click();
  await expect(builder(page)).toBeVisible();
  await builder(page).scrollIntoViewIfNeeded();
  await expect(builder(page).getByLabel("Command", { exact: true })).toBeVisible();
  expect(chunks.some((url) => url.endsWith(".js"))).toBe(true);
  // Listed in the page's contents.
  await expect(
    page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "Command builder" }),
  ).toHaveAttribute("href", "#command-builder");
});

for (const width of [412, 1280]) {
  test(`at ${width} px a CLI page's first visit leaves the builder's code until the reader nears it`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: width > 900 ? 800 : 823 });
    const chunks = builderRequests(page);
    await page.goto("/mg/cli/dmt");
    // The reference below the builder has rendered, so the page is complete without it.
    await expect(page.locator("#dmt-blastoff")).toBeAttached();
    await page.waitForLoadState("networkidle");
    expect(chunks).toEqual([]);
    // Its section, heading and place in the contents are there already.
    await expect(builder(page).getByRole("heading", { name: "Command builder" })).toBeAttached();
    await expect(builder(page).getByText("Loading the command builder…")).toBeAttached();

    await page.mouse.wheel(0, 900);
    await expect(builder(page).getByLabel("Command", { exact: true })).toBeAttached();
    expect(chunks.filter((url) => url.endsWith(".js"))).toHaveLength(1);
  });
}

test("keyboard only: Tab reaches the builder's heading, its form is there, and Tab goes on into it", async ({
  page,
}) => {
  await page.goto("/mg/cli/dmt");
  await expect(page.locator("#dmt-blastoff")).toBeAttached();
  const anchor = builder(page).getByRole("link", { name: "Section titled “Command builder”" });
  const focused = () => anchor.evaluate((element) => element === document.activeElement);
  for (let presses = 0; presses < 300 && !(await focused()); presses++) {
    await page.keyboard.press("Tab");
  }
  await expect(anchor).toBeFocused();
  const picker = builder(page).getByLabel("Command", { exact: true });
  await expect(picker).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(picker).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(picker).toHaveValue("dmt-deploy");
});

test("opened on a reference hash below the builder, the page lands on that heading and stays", async ({
  page,
}) => {
  await page.goto("/mg/cli/dmt#dmt-deploy");
  const target = page.locator("#dmt-deploy");
  await expect(builder(page).getByLabel("Command", { exact: true })).toBeAttached();
  await untilSettled(page);
  const top = await target.evaluate((element) => element.getBoundingClientRect().top);
  // Below the fixed site bar, at the top of the screen: nothing above it grew after landing.
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(200);
});

// Safari has no scroll anchoring; turning it off in Chromium shows what its readers would see.
for (const anchoring of ["auto", "none"] as const) {
  test(`a jump to the heading after the unloaded builder stays there when the form arrives (overflow-anchor: ${anchoring})`, async ({
    page,
  }) => {
    await page.goto("/mg/cli/dmt");
    await page.addStyleTag({ content: `html, body { overflow-anchor: ${anchoring}; }` });
    await expect(page.locator("#dmt-blastoff")).toBeAttached();
    await expect(builder(page).getByText("Loading the command builder…")).toBeAttached();
    // Slow the form down so the jump surely happens before it arrives.
    await page.route(BUILDER_CHUNK_JS, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.fallback();
    });

    await page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "Command reference" })
      .click();
    await expect(builder(page).getByLabel("Command", { exact: true })).toBeAttached();
    // The form is laid out and the browser has anchored (or not) the scroll position.
    await twoFrames(page);
    const top = await page
      .locator("#command-reference")
      .evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(200);
  });
}

test("a builder chunk that fails to load says so, and Try again loads it", async ({ page }) => {
  let fail = true;
  await page.route(BUILDER_CHUNK_JS, (route) =>
    fail ? route.abort("internetdisconnected") : route.fallback(),
  );
  await page.goto("/mg/cli/dmt");
  await builder(page).scrollIntoViewIfNeeded();
  const alert = builder(page).getByRole("alert");
  await expect(alert).toContainText("The command builder could not be loaded.");

  fail = false;
  await alert.getByRole("button", { name: "Try again" }).click();
  // The button is gone with the error; focus goes on into the form rather than back to the page.
  await expect(builder(page).getByLabel("Command", { exact: true })).toBeFocused();
  await expect(builder(page).getByRole("alert")).toHaveCount(0);
});

// One load; the width and the theme change in place. axe over a long docs page takes a while on a
// shared two-core machine.
test("the builder in both themes at 1280 and 375 px has no axe violations", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openBuilder(page);
  await builder(page).getByLabel("<name>").fill("my-app");
  await builder(page).getByLabel("--domain").fill("example.com");
  await builder(page).getByLabel("--instance-size").selectOption("t3.small");
  await builder(page).getByLabel("--email").fill("ops at example");
  await builder(page).getByLabel("--email").press("Tab");
  await expect(builder(page).getByLabel("--email")).toHaveAttribute("aria-invalid", "true");
  const widths = [
    { width: 1280, height: 900 },
    { width: 375, height: 740 },
  ];
  await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly }) => {
    expect(await axeViolations(page, { include: "section.builder", themeOnly }), suffix).toEqual(
      [],
    );
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await lookAt(builder(page), `docs-builder-invalid-${suffix}`, { style: hideFixedBar });
  });

  await builder(page).getByLabel("--email").fill("ops@example.com");
  await expect(builtCommand(page)).toBeVisible();
  await eachThemeAndWidth(page, widths, async ({ suffix, themeOnly }) => {
    expect(await axeViolations(page, { include: "section.builder", themeOnly }), suffix).toEqual(
      [],
    );
    await lookAt(builder(page), `docs-builder-${suffix}`, { style: hideFixedBar });
  });
});
