import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router-dom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DocsCliRoute, DocsPage, DocsTabRoute, isDocsTab } from "./docs-page";

afterEach(cleanup);

// The first import of a page transforms its Markdown, which can take a second under vitest.
const slow = { timeout: 15_000 };

// React 19 only retries a suspended `use` inside an awaited act, so rendering awaits one.
async function renderAt(path: string) {
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/mg/cli/:subtab" element={<DocsCliRoute />} />
          <Route path="/mg/:tab" element={<DocsTabRoute />} />
        </Routes>
      </MemoryRouter>,
    );
  });
}

function tabRow() {
  return within(screen.getByRole("navigation", { name: "Docs tabs" }));
}

// Role queries over a full reference page are slow in jsdom on a busy machine.
describe("DocsPage", { timeout: 15_000 }, () => {
  it("shows every tab but dmt, lsd, esp and dream, and marks the active one", async () => {
    await renderAt("/mg/quickstart");
    const links = tabRow().getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "Overview",
      "Quick Start",
      "Flow",
      "Configuration",
      "CLI",
      "Safety",
    ]);
    expect(links.find((link) => link.textContent === "CLI")?.getAttribute("href")).toBe(
      "/mg/cli/main",
    );
    const current = links.filter((link) => link.getAttribute("aria-current") === "page");
    expect(current.map((link) => link.textContent)).toEqual(["Quick Start"]);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Quick Start");
    expect(await screen.findByRole("heading", { name: "Before you start" }, slow)).toBeTruthy();
    expect(document.title).toBe("Quick Start · mg");
    expect(document.querySelector('meta[name="description"]')?.getAttribute("content")).toMatch(
      /^Set up the mg CLI/,
    );
  });

  it("shows the CLI sub-row and the generated DMT reference on /mg/cli/dmt", async () => {
    await renderAt("/mg/cli/dmt");
    const subRow = within(screen.getByRole("navigation", { name: "CLI sections" }));
    expect(subRow.getAllByRole("link").map((link) => link.getAttribute("href"))).toEqual([
      "/mg/cli/main",
      "/mg/cli/dmt",
      "/mg/cli/lsd",
    ]);
    expect(subRow.getByRole("link", { name: "DMT Commands" }).getAttribute("aria-current")).toBe(
      "page",
    );
    expect(tabRow().getByRole("link", { name: "CLI" }).getAttribute("aria-current")).toBe("page");
    expect(await screen.findByRole("heading", { name: "mg dmt blastoff" }, slow)).toBeTruthy();
    const toc = within(screen.getByRole("navigation", { name: "On this page" }));
    expect(toc.getByRole("link", { name: "mg dmt ssl" }).getAttribute("href")).toBe("#dmt-ssl");
  });

  it("shows a hero instead of the tab title on the overview", async () => {
    await renderAt("/mg/overview");
    expect(screen.getByRole("heading", { level: 1 }).textContent).not.toBe("Overview");
    expect(await screen.findByRole("link", { name: /Next\s*Quick Start/ }, slow)).toBeTruthy();
    expect(screen.queryByRole("link", { name: /Previous/ })).toBeNull();
  });

  it("links sidebar entries that have docs and marks the rest coming soon", async () => {
    await renderAt("/mg/flow");
    const sidebar = within(screen.getByRole("navigation", { name: "Docs sections" }));
    expect(sidebar.getByRole("link", { name: "DMT" }).getAttribute("href")).toBe("/mg/cli/dmt");
    expect(sidebar.getByRole("link", { name: "CLI Commands" }).getAttribute("href")).toBe(
      "/mg/cli/main",
    );
    expect(sidebar.queryByRole("link", { name: /Apotheosis/ })).toBeNull();
    expect(sidebar.getByText("Apotheosis").textContent).toContain("coming soon");
  });

  it("renders 'Page not found' for an unknown tab or subtab", async () => {
    await renderAt("/mg/nope");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Page not found");
    cleanup();
    render(
      <MemoryRouter>
        <DocsPage tab="cli" subtab="esp" />
      </MemoryRouter>,
    );
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Page not found");
    expect(isDocsTab("nope")).toBe(false);
    expect(isDocsTab("safety")).toBe(true);
  });

  it("copies a code block and announces it", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await renderAt("/mg/quickstart");
    await screen.findByRole("heading", { name: "Before you start" }, slow);
    const [button] = screen.getAllByRole("button", { name: "Copy code" });
    if (!button) throw new Error("no copy button");
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith("mg install-completion\n");
    expect(screen.getByRole("status").textContent).toBe("Copied");
    expect(button.textContent).toBe("Copied");
  });

  it("copies the whole page as Markdown", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    await renderAt("/mg/safety");
    const button = await screen.findByRole("button", { name: "Copy page as Markdown" }, slow);
    await act(async () => {
      fireEvent.click(button);
    });
    // The Markdown body is its own chunk, fetched on the click.
    await waitFor(() => expect(writeText).toHaveBeenCalled(), slow);
    const copied = String(writeText.mock.calls[0]?.[0]);
    expect(copied.startsWith("# Confirmations and safety\n\n")).toBe(true);
    // The page's Markdown twin: the description follows the title, as at /mg/safety.md.
    expect(copied.split("\n")[2]).toMatch(/^> \S/);
    expect(copied).toContain("## Running unattended");
    expect(screen.getByRole("status").textContent).toBe("Page copied as Markdown");
  });

  it("offers the command builder to WebMCP on the CLI pages only, and withdraws it on leaving", async () => {
    const registerTool = vi.fn();
    Object.defineProperty(navigator, "modelContext", {
      value: { registerTool },
      configurable: true,
    });
    try {
      await renderAt("/mg/flow");
      await screen.findByRole("heading", { name: /DMT/ }, slow);
      expect(registerTool).not.toHaveBeenCalled();
      cleanup();

      await renderAt("/mg/cli/dmt");
      await waitFor(() => expect(registerTool).toHaveBeenCalledTimes(1), slow);
      const [tool, options] = registerTool.mock.calls[0] as [
        { name: string; execute: (input: unknown) => Promise<{ content: { text: string }[] }> },
        { signal: AbortSignal },
      ];
      expect(tool.name).toBe("build_mg_command");
      const result = await tool.execute({
        tool: "dmt",
        command: "ssh",
        arguments: { name: "shop" },
      });
      expect(result.content[0]?.text).toBe("mg dmt ssh shop");
      expect(options.signal.aborted).toBe(false);
      cleanup();
      expect(options.signal.aborted).toBe(true);
    } finally {
      Reflect.deleteProperty(navigator, "modelContext");
    }
  });

  it("links the page's Markdown twin from the head, once, and drops it on leaving the docs", async () => {
    const alternates = () =>
      [...document.querySelectorAll('link[rel="alternate"][type="text/markdown"]')].map((link) =>
        link.getAttribute("href"),
      );
    await renderAt("/mg/dmt");
    await waitFor(() => expect(alternates()).toEqual(["/mg/cli/dmt.md"]), slow);
    cleanup();
    expect(alternates()).toEqual([]);
    // A prerendered page brings its own link: it is reused, not doubled.
    const prerendered = document.createElement("link");
    Object.assign(prerendered, { rel: "alternate", type: "text/markdown", href: "/mg/flow.md" });
    document.head.append(prerendered);
    await renderAt("/mg/safety");
    await waitFor(() => expect(alternates()).toEqual(["/mg/safety.md"]), slow);
    cleanup();
    await renderAt("/mg/nope");
    expect(alternates()).toEqual([]);
  });
});
