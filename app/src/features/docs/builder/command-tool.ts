// The command builder as a WebMCP tool (`build_mg_command`): an agent in the browser gives a tool, a
// command, its arguments and options, and gets the command line the builder's form would show, from
// the same catalogue and the same checks (command-line.ts). Its own small chunk, reached through the
// builder's and fetched only where the browser has `navigator.modelContext` (use-command-tool.ts).
import type { CliCatalogue, CliCommand, CliOption, CliToolId } from "@common/catalogue-types";
import type * as CommandLine from "./command-line";
import type { BuilderValues } from "./command-line";

export const commandToolName = "build_mg_command";

/** The tools that have a command builder (the three CLI pages). */
export const builderTools = ["mg", "dmt", "lsd"] as const satisfies readonly CliToolId[];
export type BuilderTool = (typeof builderTools)[number];

/** What WebMCP hands back to the agent: text content, flagged when it is an error. */
export type ToolResult = { content: { type: "text"; text: string }[]; isError?: boolean };

/** The part of the WebMCP draft's ModelContext this page uses; every member is checked before use. */
export type ModelContextLike = {
  registerTool?: (tool: ModelContextTool, options?: { signal?: AbortSignal }) => unknown;
  unregisterTool?: (name: string) => unknown;
  provideContext?: (context: { tools: ModelContextTool[] }) => unknown;
  clearContext?: () => unknown;
};

export type ModelContextTool = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
  execute: (input: unknown) => Promise<ToolResult>;
};

export type LoadCatalogue = (tool: BuilderTool) => Promise<CliCatalogue>;

/**
 * The form's own rules (command-line.ts), handed over by the builder's chunk: importing them here
 * would split them into a chunk of their own, one more request for every builder.
 */
export type CommandLineRules = Pick<
  typeof CommandLine,
  "argumentKey" | "buildCommand" | "initialValues"
>;

export type CommandToolSetup = { rules: CommandLineRules; loadCatalogue: LoadCatalogue };

const inputSchema = {
  type: "object",
  properties: {
    tool: {
      type: "string",
      enum: [...builderTools],
      description: "The tool: mg (top-level commands), dmt (EC2 apps) or lsd (serverless).",
    },
    command: {
      type: "string",
      description:
        "The command after the tool, as in the reference: blastoff, awake db, config set, list.",
    },
    arguments: {
      type: "object",
      description: 'Positional arguments by name, e.g. {"name": "shop"} or {"id": "a1b2"}.',
      additionalProperties: { type: "string" },
    },
    options: {
      type: "object",
      description:
        'Options by flag: a string for options that take a value ({"--instance-size": "t3.small"}), ' +
        'true or false for switches ({"--r53": true}). An alias (--dose) counts as its flag.',
      additionalProperties: { type: ["string", "boolean", "number"] },
    },
  },
  required: ["tool", "command"],
  additionalProperties: false,
} as const;

const ok = (text: string): ToolResult => ({ content: [{ type: "text", text }] });
const failure = (text: string): ToolResult => ({
  content: [{ type: "text", text }],
  isError: true,
});

function isBuilderTool(value: unknown): value is BuilderTool {
  return builderTools.some((tool) => tool === value);
}

function notAnObject(): ToolResult {
  return failure("The input must be an object: { tool, command, arguments, options }.");
}

function unknownTool(toolId: unknown): ToolResult {
  return failure(`Unknown tool ${JSON.stringify(toolId)}: use one of ${builderTools.join(", ")}.`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Finds an option by its flag or alias, with or without the leading dashes. */
function findOption(command: CliCommand, key: string): CliOption | undefined {
  const flag = key.startsWith("-") ? key : `--${key}`;
  return command.options.find((option) => option.flag === flag || option.alias === flag);
}

/** Why the line cannot be built, one problem per line, named as the usage line names them. */
function describeErrors(line: string, errors: Record<string, string>): string {
  const problems = Object.entries(errors).map(
    ([key, message]) => `${key.startsWith("arg:") ? `<${key.slice(4)}>` : key}: ${message}`,
  );
  return `No command line for ${line}:\n${problems.join("\n")}`;
}

/**
 * The command line for an agent's input: the form's starting values for the command, changed where
 * the input says, through the form's own buildCommand. Never throws; bad input gives an error result.
 */
export function buildFromToolInput(
  { argumentKey, buildCommand, initialValues }: CommandLineRules,
  catalogue: CliCatalogue,
  input: unknown,
): ToolResult {
  if (!isRecord(input)) return notAnObject();
  const { tool: toolId, command: name } = input;
  const tool = catalogue.tools.find((candidate) => candidate.id === toolId);
  if (!isBuilderTool(toolId) || !tool) return unknownTool(toolId);
  const commands = catalogue.commands.filter((candidate) => candidate.tool === tool.id);
  const wanted = typeof name === "string" ? name.trim().replace(/\s+/g, " ") : "";
  const command = commands.find(
    (candidate) =>
      candidate.name === wanted ||
      candidate.id === wanted ||
      `${tool.invocation} ${candidate.name}` === wanted,
  );
  if (!command) {
    return failure(
      `${tool.invocation} has no command ${JSON.stringify(name)}; its commands are: ` +
        `${commands.map((candidate) => candidate.name).join(", ")}.`,
    );
  }
  const line = `${tool.invocation} ${command.name}`;
  const values: BuilderValues = initialValues(command);
  const problems: string[] = [];

  const args = input.arguments ?? {};
  if (!isRecord(args)) problems.push("arguments must be an object of argument name to value.");
  else {
    for (const [key, value] of Object.entries(args)) {
      const argument = command.arguments.find(
        (candidate) => candidate.name === key.replace(/^<(.*)>$/, "$1"),
      );
      if (!argument) {
        const names = command.arguments.map((candidate) => `<${candidate.name}>`);
        problems.push(
          `${line} has no argument ${JSON.stringify(key)}` +
            (names.length > 0 ? `; it takes ${names.join(", ")}.` : "; it takes none."),
        );
      } else if (typeof value !== "string") {
        problems.push(`<${argument.name}> must be a string.`);
      } else values[argumentKey(argument)] = value;
    }
  }

  const options = input.options ?? {};
  if (!isRecord(options)) problems.push("options must be an object of flag to value.");
  else {
    for (const [key, value] of Object.entries(options)) {
      const option = findOption(command, key);
      if (!option) {
        const flags = command.options.map((candidate) => candidate.flag);
        problems.push(
          `${line} has no option ${key}` +
            (flags.length > 0 ? `; its options are ${flags.join(", ")}.` : "; it takes none."),
        );
      } else if (!option.takesValue) {
        if (typeof value === "boolean") values[option.flag] = value;
        else problems.push(`${option.flag} is a switch: give true or false.`);
      } else if (typeof value === "string" || typeof value === "number") {
        values[option.flag] = String(value);
      } else {
        problems.push(
          `${option.flag} takes a value <${option.valueName ?? "value"}>: give a string.`,
        );
      }
    }
  }
  if (problems.length > 0) return failure(`No command line for ${line}:\n${problems.join("\n")}`);

  const result = buildCommand(tool.invocation, command, values);
  return result.ok ? ok(result.line) : failure(describeErrors(line, result.errors));
}

/** The tool definition, reading the catalogue of whichever tool the input names. */
export function commandTool({ rules, loadCatalogue }: CommandToolSetup): ModelContextTool {
  return {
    name: commandToolName,
    description:
      "Builds a valid, shell-quoted mg command line (the command builder of the mg CLI docs): " +
      "give the tool (mg, dmt or lsd), the command, its arguments and options; it checks every " +
      "value against the CLI reference and returns the line to run, or what is wrong.",
    inputSchema,
    annotations: { readOnlyHint: true },
    async execute(input) {
      if (!isRecord(input)) return notAnObject();
      if (!isBuilderTool(input.tool)) return unknownTool(input.tool);
      try {
        return buildFromToolInput(rules, await loadCatalogue(input.tool), input);
      } catch {
        return failure("The mg command catalogue could not be loaded; try again.");
      }
    },
  };
}

/**
 * Registers the tool with the browser's model context and returns what unregisters it. Written for
 * the drafts seen so far: `registerTool(tool, { signal })` (unregistered by aborting), a
 * `registerTool` that returns `{ unregister() }`, `unregisterTool(name)`, or `provideContext`.
 * A browser that refuses the tool leaves the page as it is.
 */
export function registerCommandTool(
  context: ModelContextLike,
  setup: CommandToolSetup,
): () => void {
  const tool = commandTool(setup);
  const controller = new AbortController();
  const ignore = () => undefined;
  if (typeof context.registerTool === "function") {
    let handle: unknown;
    try {
      handle = context.registerTool(tool, { signal: controller.signal });
    } catch {
      return ignore;
    }
    const unregister = (registration: unknown) => {
      try {
        if (isRecord(registration) && typeof registration.unregister === "function") {
          registration.unregister();
        } else if (typeof context.unregisterTool === "function") {
          Promise.resolve(context.unregisterTool(commandToolName)).catch(ignore);
        }
      } catch {
        // Already gone: the abort removed it.
      }
    };
    if (isRecord(handle) && typeof handle.then === "function") {
      // Registration that answers with a promise; a rejected one must not surface as an unhandled error.
      const settled = Promise.resolve(handle).catch(ignore);
      return () => {
        controller.abort();
        void settled.then(unregister);
      };
    }
    return () => {
      controller.abort();
      unregister(handle);
    };
  }
  if (typeof context.provideContext === "function") {
    try {
      context.provideContext({ tools: [tool] });
    } catch {
      return ignore;
    }
    return () => {
      try {
        if (typeof context.clearContext === "function") context.clearContext();
        else context.provideContext?.({ tools: [] });
      } catch {
        // Nothing left to remove.
      }
    };
  }
  return ignore;
}
