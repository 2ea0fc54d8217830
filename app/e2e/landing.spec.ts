import { expect, type Page, test } from "@playwright/test";
import type { WisdomAnswer, WisdomFailure } from "../common/http-types";
import { hydrated } from "./checks";

// The landing page against the real server. /api/wisdom, /health and /db-health are intercepted with
// page.route where a test needs a particular answer: the network is the boundary we control, everything
// behind it in the browser (React, the wasm machines) runs for real. The answers made up here have the
// server's types (common/http-types.ts, generated from its Rust types).

const wisdomButton = (page: Page) => page.getByRole("button", { name: /Wisdom|Asking/ });

test("shows the apotheosis deployment's texts and information", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apotheosis");
  await expect(page).toHaveTitle("Apotheosis · mg");
  await expect(page.getByText("Your full stack, live in your own cloud account")).toBeVisible();
  await expect(page.getByText(/One command, dmt blastoff/)).toBeVisible();
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    "content",
    /Your full stack, live in your own cloud account/,
  );

  const card = page.getByRole("region", { name: "Deployment Information" });
  await expect(card.getByText("Provisioning id")).toBeVisible();
  await expect(card.locator("code")).not.toBeEmpty();
  await expect(card.getByRole("definition").nth(1)).toHaveText("apotheosis");
  await expect(card.getByRole("definition").nth(2)).toHaveText("active");
  await expect(card.getByRole("definition").nth(3)).toHaveText("On");
  await expect(card.getByRole("definition").nth(4)).toHaveText(/^(On|Off)$/);
});

test.describe("the Wisdom button", () => {
  test("is disabled while asking, shows the quote and orator, and resets after 5 s", async ({
    page,
  }) => {
    await page.clock.install();
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("/api/wisdom", async (route) => {
      await answered;
      await route.fulfill({
        status: 200,
        contentType: "application/json",
        body: JSON.stringify({
          wisdom: { quote: "Know thyself.", orator: "Socrates" },
        } satisfies WisdomAnswer),
      });
    });
    await page.goto("/");
    await hydrated(page);
    await wisdomButton(page).click();
    await expect(page.getByRole("button", { name: "Asking…" })).toBeDisabled();
    release();
    const quote = page.getByTestId("wisdom-quote");
    await expect(quote).toContainText("Know thyself.");
    await expect(quote).toContainText("Socrates");
    await expect(page.getByRole("button", { name: "Wisdom" })).toBeEnabled();
    // The installed clock also flows in real time, so the checks keep a margin around 5 s; the exact
    // boundaries are asserted in src/lib/wasm/use-wisdom.test.tsx.
    await page.clock.runFor(2_500);
    await expect(quote).toBeVisible();
    await page.clock.runFor(3_000);
    await expect(quote).toHaveCount(0);
  });

  test("shows the server's error with its instructions", async ({ page }) => {
    await page.route("/api/wisdom", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({
          code: "wisdom_empty",
          error: "No wisdom yet",
          instructions: "Run the seed script on the server.",
          message: "relation wisdom is empty",
        } satisfies WisdomFailure),
      }),
    );
    await page.goto("/");
    await hydrated(page);
    await wisdomButton(page).click();
    const error = page.getByTestId("wisdom-error");
    await expect(error).toContainText("No wisdom yet");
    await expect(error).toContainText("Run the seed script on the server.");
  });

  test("says 'Failed to connect to API' when the network fails, and resets after 3 s", async ({
    page,
  }) => {
    await page.clock.install();
    await page.route("/api/wisdom", (route) => route.abort("failed"));
    await page.goto("/");
    await hydrated(page);
    await wisdomButton(page).click();
    const error = page.getByTestId("wisdom-error");
    await expect(error).toHaveText("Failed to connect to API");
    await page.clock.runFor(1_000);
    await expect(error).toBeVisible();
    await page.clock.runFor(2_500);
    await expect(error).toHaveCount(0);
  });
});

test.describe("the status cards", () => {
  test("report a healthy server and database from the real endpoints", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("card-frontend")).toContainText("Healthy");
    await expect(page.getByTestId("card-server")).toContainText("Healthy");
    await expect(page.getByTestId("card-database")).toContainText("Healthy");
    const telekinesis = page.getByTestId("card-telekinesis");
    await telekinesis.getByRole("link", { name: "Open Telekinesis" }).click();
    await expect(page).toHaveURL(/\/telekinesis$/);
  });

  test("read 'Checking' until the database answers", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("/db-health", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/");
    await expect(page.getByTestId("card-database")).toContainText("Checking");
    release();
    await expect(page.getByTestId("card-database")).toContainText("Healthy");
  });

  test("turn unhealthy on a 503 and recover at the next 30 s poll", async ({ page }) => {
    // The fake clock also drives requestAnimationFrame: 31 s of it would make the hero's widget draw
    // about 1,900 WebGL frames in software GL. Under reduced motion it draws one still frame.
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.clock.install();
    let status = 503;
    await page.route("/db-health", (route) =>
      route.fulfill({ status, contentType: "application/json", body: "{}" }),
    );
    await page.route("/health", (route) =>
      route.fulfill({ status, contentType: "application/json", body: "{}" }),
    );
    await page.goto("/");
    await expect(page.getByTestId("card-database")).toContainText("Unhealthy");
    await expect(page.getByTestId("card-server")).toContainText("Unhealthy");

    status = 200;
    // Margins as above; the exact 30 000 ms boundary is asserted in use-health.test.tsx.
    await page.clock.runFor(25_000);
    await expect(page.getByTestId("card-database")).toContainText("Unhealthy");
    await page.clock.runFor(6_000);
    await expect(page.getByTestId("card-database")).toContainText("Healthy");
    await expect(page.getByTestId("card-server")).toContainText("Healthy");
  });

  // Ethereal is a build-time deployment type (VITE_DEPLOYMENT_TYPE), not switchable at runtime in
  // this build; the disabled cards are covered by src/features/landing/status-cards.test.tsx and the
  // n/a health values by src/lib/wasm/use-health.test.tsx.
});

test.describe("the sign-in error notice", () => {
  const cases = [
    ["auth_failed", "the identity provider turned the request down"],
    ["no_code", "the provider sent no authorisation code back"],
    ["callback_error", "Something went wrong while finishing your sign-in"],
  ] as const;

  for (const [value, text] of cases) {
    test(`?error=${value} shows its fixed message and can be dismissed`, async ({ page }) => {
      await page.goto(`/?error=${value}`);
      const notice = page.getByRole("alert").filter({ hasText: "Sign-in failed." });
      await expect(notice).toContainText(text);
      await expect(notice).not.toContainText(value);
      await notice.getByRole("button", { name: "Dismiss" }).click();
      await expect(notice).toHaveCount(0);
      await expect(page).toHaveURL(/\/$/);
    });
  }

  for (const value of ["<script>alert(1)</script>", "unknown", "toString"]) {
    test(`?error=${value} shows nothing`, async ({ page }) => {
      await page.goto(`/?error=${encodeURIComponent(value)}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Apotheosis");
      await expect(page.getByTestId("error-notice")).toHaveCount(0);
      await expect(page.locator("main")).not.toContainText(value);
    });
  }
});
