import dmtCatalogue from "virtual:mg-cli-catalogue/dmt";
import lsdCatalogue from "virtual:mg-cli-catalogue/lsd";
import mgCatalogue from "virtual:mg-cli-catalogue/mg";
import type { CliCatalogue } from "@common/catalogue-types";
import { act, cleanup, fireEvent, render, renderHook, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CommandBuilder } from "./command-builder";
import * as rules from "./command-line";
import {
  type BuilderTool,
  buildFromToolInput,
  commandTool,
  commandToolName,
  type ModelContextLike,
  type ModelContextTool,
  registerCommandTool,
  type ToolResult,
} from "./command-tool";
import { browserModelContext, useCommandTool } from "./use-command-tool";

afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, "modelContext");
});

const catalogues: Record<BuilderTool, CliCatalogue> = {
  mg: mgCatalogue,
  dmt: dmtCatalogue,
  lsd: lsdCatalogue,
};
const loadCatalogue = async (tool: BuilderTool) => catalogues[tool];
const setup = { rules, loadCatalogue };
const run = (input: unknown) => commandTool(setup).execute(input);
const text = (result: ToolResult) => result.content.map((part) => part.text).join("\n");

describe("build_mg_command", () => {
  it("returns exactly the line the builder's form shows for the same values", async () => {
    render(<CommandBuilder catalogue={dmtCatalogue} tool="dmt" />);
    fireEvent.change(screen.getByLabelText("<name>"), { target: { value: "Bob's shop" } });
    fireEvent.change(screen.getByLabelText(/^--domain/), { target: { value: "shop.example.com" } });
    fireEvent.change(screen.getByLabelText(/^--instance-size/), { target: { value: "t3.small" } });
    fireEvent.click(screen.getByLabelText("--r53"));
    const shown = screen.getByTestId("built-command").textContent;

    const result = await run({
      tool: "dmt",
      command: "blastoff",
      arguments: { name: "Bob's shop" },
      options: { "--domain": "shop.example.com", "--dose": "t3.small", r53: true },
    });
    expect(result).toEqual({ content: [{ type: "text", text: shown }] });
    expect(shown).toBe(
      "mg dmt blastoff 'Bob'\\''s shop' --domain shop.example.com --r53 --instance-size t3.small",
    );
  });

  it("builds commands of every builder tool, with the form's defaults", async () => {
    expect(text(await run({ tool: "mg", command: "init" }))).toBe("mg init --dream");
    expect(text(await run({ tool: "lsd", command: "list", options: { "--health": true } }))).toBe(
      "mg lsd list --health",
    );
    expect(text(await run({ tool: "dmt", command: "awake db" }))).toBe("mg dmt awake db");
    expect(
      text(
        await run({
          tool: "dmt",
          command: "db",
          arguments: { name: "shop" },
          options: { "--local-port": 5433 },
        }),
      ),
    ).toBe("mg dmt db shop --local-port 5433");
  });

  it("answers bad input with an error result naming the problem, and never throws", async () => {
    const cases: [unknown, RegExp][] = [
      [undefined, /must be an object/],
      ["dmt blastoff", /must be an object/],
      [{ tool: "esp", command: "manifest" }, /Unknown tool "esp": use one of mg, dmt, lsd/],
      [
        { tool: "dmt", command: "launch" },
        /mg dmt has no command "launch"; its commands are: blastoff, deploy/,
      ],
      [
        { tool: "dmt", command: "blastoff", options: { "--size": "t3.small" } },
        /mg dmt blastoff has no option --size; its options are --domain/,
      ],
      [
        { tool: "dmt", command: "blastoff", options: { "--r53": "yes" } },
        /--r53 is a switch: give true or false/,
      ],
      [
        { tool: "dmt", command: "blastoff", options: { "--instance-size": "huge" } },
        /--instance-size: Choose one of t2.micro, t2.small/,
      ],
      [
        { tool: "dmt", command: "blastoff", arguments: { id: "x" } },
        /has no argument "id"; it takes <name>/,
      ],
      [{ tool: "dmt", command: "show" }, /<name>: Required: fill in <name>/],
      [
        { tool: "dmt", command: "nuke", arguments: { name: "shop" }, options: { "--all": true } },
        /Give <name> or --all, not both/,
      ],
      [{ tool: "dmt", command: "blastoff", options: [] }, /options must be an object/],
    ];
    for (const [input, message] of cases) {
      const result = await run(input);
      expect(result.isError, JSON.stringify(input)).toBe(true);
      expect(text(result), JSON.stringify(input)).toMatch(message);
    }
    // The catalogue failing to load is an error result too.
    const broken = commandTool({
      rules,
      loadCatalogue: () => Promise.reject(new Error("offline")),
    });
    expect(await broken.execute({ tool: "dmt", command: "list" })).toMatchObject({ isError: true });
    expect(buildFromToolInput(rules, dmtCatalogue, null)).toMatchObject({ isError: true });
  });

  it("describes its input as JSON Schema with tool, command, arguments and options", () => {
    const tool = commandTool(setup);
    expect(tool.name).toBe("build_mg_command");
    expect(tool.inputSchema).toMatchObject({
      type: "object",
      required: ["tool", "command"],
      properties: { tool: { enum: ["mg", "dmt", "lsd"] } },
    });
    expect(Object.keys(tool.inputSchema.properties as object)).toEqual([
      "tool",
      "command",
      "arguments",
      "options",
    ]);
  });
});

describe("registerCommandTool", () => {
  it("registers with a signal and unregisters by aborting it (the current draft)", () => {
    const registerTool = vi.fn();
    const unregister = registerCommandTool({ registerTool }, setup);
    expect(registerTool).toHaveBeenCalledTimes(1);
    const [tool, options] = registerTool.mock.calls[0] as [
      ModelContextTool,
      { signal: AbortSignal },
    ];
    expect(tool.name).toBe(commandToolName);
    expect(options.signal.aborted).toBe(false);
    unregister();
    expect(options.signal.aborted).toBe(true);
  });

  it("uses the handle's unregister() or unregisterTool(name) where a draft has them", async () => {
    const handle = { unregister: vi.fn() };
    registerCommandTool({ registerTool: () => handle }, setup)();
    expect(handle.unregister).toHaveBeenCalledTimes(1);

    const unregisterTool = vi.fn();
    registerCommandTool(
      { registerTool: () => Promise.resolve(undefined), unregisterTool },
      setup,
    )();
    await vi.waitFor(() => expect(unregisterTool).toHaveBeenCalledWith("build_mg_command"));

    const provideContext = vi.fn();
    registerCommandTool({ provideContext }, setup)();
    expect(provideContext.mock.calls.map((call) => call[0].tools.length)).toEqual([1, 0]);
  });

  it("leaves the page alone when the browser refuses the tool", async () => {
    const refuse = () => {
      throw new DOMException("Duplicate tool", "InvalidStateError");
    };
    expect(() => registerCommandTool({ registerTool: refuse }, setup)()).not.toThrow();
    const rejected = registerCommandTool(
      { registerTool: () => Promise.reject(new Error("no")), unregisterTool: refuse },
      setup,
    );
    expect(() => rejected()).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});

describe("useCommandTool", () => {
  it("fetches nothing where the browser has no navigator.modelContext", () => {
    expect(browserModelContext()).toBeUndefined();
    const loadBuilder = vi.fn();
    renderHook(() => useCommandTool(true, loadBuilder));
    expect(loadBuilder).not.toHaveBeenCalled();
    // Nor with a modelContext that has no way to register a tool.
    Object.defineProperty(navigator, "modelContext", { value: {}, configurable: true });
    renderHook(() => useCommandTool(true, loadBuilder));
    expect(loadBuilder).not.toHaveBeenCalled();
  });

  it("registers while mounted on a CLI page, not when inactive, and unregisters on unmount", async () => {
    const registerTool = vi.fn();
    Object.defineProperty(navigator, "modelContext", {
      value: { registerTool },
      configurable: true,
    });
    renderHook(() => useCommandTool(false));
    await act(async () => {});
    expect(registerTool).not.toHaveBeenCalled();

    const { unmount } = renderHook(() => useCommandTool(true));
    await vi.waitFor(() => expect(registerTool).toHaveBeenCalledTimes(1));
    const [tool, options] = registerTool.mock.calls[0] as [
      ModelContextTool,
      { signal: AbortSignal },
    ];
    expect(
      text(await tool.execute({ tool: "lsd", command: "show", arguments: { id: "a1" } })),
    ).toBe("mg lsd show a1");
    unmount();
    expect(options.signal.aborted).toBe(true);
  });

  it("registers nothing when the page goes before the builder's chunk arrives", async () => {
    const registerTool = vi.fn();
    Object.defineProperty(navigator, "modelContext", {
      value: { registerTool },
      configurable: true,
    });
    let arrive: () => void = () => {};
    const loadBuilder = () =>
      new Promise<{
        loadCommandTool: () => Promise<{
          registerCommandTool: (context: ModelContextLike) => () => void;
        }>;
      }>((resolve) => {
        arrive = () =>
          resolve({
            loadCommandTool: async () => ({
              registerCommandTool: (context) => registerCommandTool(context, setup),
            }),
          });
      });
    const { unmount } = renderHook(() =>
      useCommandTool(true, loadBuilder as unknown as Parameters<typeof useCommandTool>[1]),
    );
    unmount();
    await act(async () => arrive());
    expect(registerTool).not.toHaveBeenCalled();
  });
});
