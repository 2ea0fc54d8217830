import type { CliCatalogue } from "@common/catalogue-types";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import rawCatalogue from "@/content/cli-catalogue.json";
import { highlightCommand } from "../page/code-block";
import { CliReference } from "./cli-reference";

const catalogue = rawCatalogue as CliCatalogue;
afterEach(cleanup);

const dmtCommands = catalogue.commands.filter((command) => command.tool === "dmt");

describe("CliReference", { timeout: 15_000 }, () => {
  it("renders every DMT command as a section whose heading id is the command id", () => {
    const { container } = render(<CliReference catalogue={catalogue} tool="dmt" />);
    expect(dmtCommands.length).toBeGreaterThan(10);
    for (const command of dmtCommands) {
      const heading = container.querySelector(`h3#${command.id}`);
      expect(heading?.textContent).toBe(`mg dmt ${command.name}`);
    }
    expect(container.querySelectorAll("section.cli-command")).toHaveLength(dmtCommands.length);
    expect(screen.queryByText("mg lsd drop")).toBeNull();
  });

  it("shows the instance size default and allowed values for blastoff", () => {
    const { container } = render(<CliReference catalogue={catalogue} tool="dmt" />);
    // Queried by id rather than by role: role queries over the whole reference are slow in jsdom.
    const blastoff = container.querySelector<HTMLElement>(
      'section[aria-labelledby="dmt-blastoff"]',
    );
    if (!blastoff) throw new Error("no blastoff section");
    const row = within(blastoff).getByRole("row", { name: /--instance-size/ });
    const cells = within(row).getAllByRole("cell");
    expect(cells[0]?.textContent).toBe("--dose");
    expect(cells[2]?.textContent).toBe("t2.micro, t2.small, t2.medium, t3.small, t3.medium");
    expect(cells[3]?.textContent).toBe("t2.micro");
  });

  it("renders examples as copyable code blocks", () => {
    const { container } = render(<CliReference catalogue={catalogue} tool="lsd" />);
    const drop = container.querySelector<HTMLElement>('section[aria-labelledby="lsd-drop"]');
    if (!drop) throw new Error("no drop section");
    const example = catalogue.commands.find((command) => command.id === "lsd-drop")?.examples[0];
    expect(example).toBeDefined();
    expect(
      within(drop).getAllByText((_, node) => node?.textContent === example?.command, {
        selector: "code",
      }),
    ).toHaveLength(1);
    expect(within(drop).getAllByRole("button", { name: "Copy code" }).length).toBeGreaterThan(1);
  });
});

describe("highlightCommand", () => {
  it("marks the program, flags and quoted values", () => {
    const { container } = render(
      <code>{highlightCommand('mg dmt ssl shop --email "a@example.com"')}</code>,
    );
    expect(container.querySelector(".hljs-built_in")?.textContent).toBe("mg");
    expect(container.querySelector(".hljs-attr")?.textContent).toBe("--email");
    expect(container.querySelector(".hljs-string")?.textContent).toBe('"a@example.com"');
    expect(container.textContent).toBe('mg dmt ssl shop --email "a@example.com"');
  });
});
