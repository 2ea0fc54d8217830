// The command builder's pure logic: validating values against the CLI catalogue and assembling a
// POSIX-shell-quoted `mg ...` line.
//
// It stays in TypeScript rather than core-wasm on purpose: the wasm core is near its 40 KB gzip
// budget (docs/quality.md), and this code runs only on the three CLI pages, in the builder's chunk.
import type { CliArgument, CliCommand, CliOption } from "@common/catalogue-types";

/** Characters that never need quoting in a POSIX shell word (outside the command position). */
const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one word for a POSIX shell: plain words stay as they are, anything else goes in single
 * quotes, where nothing is special except the single quote itself, written as `'\''`.
 */
export function shellQuote(value: string): string {
  if (plainWord.test(value)) return value;
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** Builder field keys: `arg:<name>` for positional arguments, the flag itself for options. */
export function argumentKey(argument: CliArgument): string {
  return `arg:${argument.name}`;
}

/** What the form holds: text (or a chosen value) per value field, true/false per switch. */
export type BuilderValues = Record<string, string | boolean>;

/** The form a command starts with: empty values, switches off, enumerations at their default. */
export function initialValues(command: CliCommand): BuilderValues {
  const values: BuilderValues = {};
  for (const argument of command.arguments) values[argumentKey(argument)] = "";
  for (const option of command.options) {
    values[option.flag] = option.takesValue ? (option.default ?? "") : option.required === true;
  }
  return values;
}

// Control characters (line breaks, tabs, NUL...) cannot be typed into a terminal prompt as part of
// one argument, and a pasted line break would run the rest as a second command.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f]/;
const lineBreak = /[\r\n\u2028\u2029]/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const domainLabel = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/** Why `value` is not acceptable text for a command-line word, or undefined when it is. */
function textProblem(value: string): string | undefined {
  if (lineBreak.test(value)) return "Must be a single line: remove the line break.";
  if (controlCharacter.test(value)) return "Contains a control character (such as a tab).";
  if (value.trim() !== value) return "Remove the spaces at the start or end.";
  if (value.startsWith("-")) return "Cannot start with “-”: mg would read it as an option.";
  return undefined;
}

function domainProblem(value: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return "Leave out the scheme: write app.example.com, not https://app.example.com.";
  }
  if (value.includes("/")) return "A domain has no path: write app.example.com.";
  const labels = value.split(".");
  if (
    value.length > 253 ||
    labels.length < 2 ||
    !labels.every((label) => domainLabel.test(label))
  ) {
    return "Enter a domain such as app.example.com.";
  }
  return undefined;
}

/** Checks one option value against its catalogue type. Empty means "not given" and is checked elsewhere. */
export function optionValueProblem(option: CliOption, value: string): string | undefined {
  const text = textProblem(value);
  if (text) return text;
  switch (option.type) {
    case "enum":
      return option.allowed?.includes(value)
        ? undefined
        : `Choose one of ${(option.allowed ?? []).join(", ")}.`;
    case "port": {
      const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
      return port >= 1 && port <= 65535 ? undefined : "Enter a port number from 1 to 65535.";
    }
    case "email":
      return emailPattern.test(value)
        ? undefined
        : "Enter one e-mail address, like you@example.com.";
    case "domain":
      return domainProblem(value);
    default:
      return undefined;
  }
}

export function argumentValueProblem(argument: CliArgument, value: string): string | undefined {
  const text = textProblem(value);
  if (text) return text;
  if (argument.allowed && !argument.allowed.includes(value)) {
    return `Choose one of ${argument.allowed.join(", ")}.`;
  }
  return undefined;
}

export type BuildResult =
  | { ok: true; line: string; words: string[] }
  | { ok: false; errors: Record<string, string> };

function isGiven(command: CliCommand, values: BuilderValues, key: string): boolean {
  const value = values[key];
  const option = command.options.find((candidate) => candidate.flag === key);
  if (option && !option.takesValue) return value === true;
  return typeof value === "string" && value !== "";
}

/** Names a field the way the usage line does: `<name>` for arguments, the flag for options. */
function label(key: string): string {
  return key.startsWith("arg:") ? `<${key.slice(4)}>` : key;
}

/** Constraint names in the catalogue are bare argument names or flags; fields use `arg:` keys. */
function constraintKey(command: CliCommand, name: string): string {
  return command.arguments.some((argument) => argument.name === name) ? `arg:${name}` : name;
}

/**
 * Validates every field against the catalogue (types, required fields, exclusive groups and
 * constraints) and, when all is well, assembles the command line. Errors are keyed by field.
 */
export function buildCommand(
  invocation: string,
  command: CliCommand,
  values: BuilderValues,
): BuildResult {
  const errors: Record<string, string> = {};
  const fail = (key: string, message: string) => {
    errors[key] ??= message;
  };

  for (const argument of command.arguments) {
    const key = argumentKey(argument);
    const value = values[key];
    if (typeof value === "string" && value !== "") {
      const problem = argumentValueProblem(argument, value);
      if (problem) fail(key, problem);
    } else if (argument.required) {
      fail(key, `Required: fill in <${argument.name}>.`);
    }
  }

  const groups = new Map<string, string[]>();
  for (const option of command.options) {
    const value = values[option.flag];
    if (option.takesValue && typeof value === "string" && value !== "") {
      const problem = optionValueProblem(option, value);
      if (problem) fail(option.flag, problem);
    }
    if (option.required && !isGiven(command, values, option.flag)) {
      fail(
        option.flag,
        option.takesValue
          ? `Required: ${command.name} needs ${option.flag}.`
          : `Required: ${command.name} only runs with ${option.flag}.`,
      );
    }
    if (option.exclusiveGroup && isGiven(command, values, option.flag)) {
      groups.set(option.exclusiveGroup, [
        ...(groups.get(option.exclusiveGroup) ?? []),
        option.flag,
      ]);
    }
  }
  for (const [group, given] of groups) {
    if (given.length < 2) continue;
    const all = command.options.filter((option) => option.exclusiveGroup === group);
    const message = `Use only one of ${all.map((option) => option.flag).join(", ")}.`;
    for (const flag of given) fail(flag, message);
  }

  for (const constraint of command.constraints ?? []) {
    if (constraint.kind === "exactlyOne") {
      const keys = constraint.of.map((name) => constraintKey(command, name));
      const given = keys.filter((key) => isGiven(command, values, key));
      const names = keys.map(label).join(" or ");
      if (given.length === 0) fail(keys[0] ?? "", `Give ${names}.`);
      if (given.length > 1) for (const key of given) fail(key, `Give ${names}, not both.`);
    } else {
      const key = constraintKey(command, constraint.flag);
      const needed = constraintKey(command, constraint.requires);
      if (isGiven(command, values, key) && !isGiven(command, values, needed)) {
        fail(key, `${label(key)} only works together with ${label(needed)}.`);
      }
    }
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const words = [...invocation.split(" "), ...command.name.split(" ")];
  for (const argument of command.arguments) {
    const value = values[argumentKey(argument)];
    if (typeof value === "string" && value !== "") words.push(shellQuote(value));
  }
  for (const option of command.options) {
    const value = values[option.flag];
    if (!option.takesValue) {
      if (value === true) words.push(option.flag);
    } else if (typeof value === "string" && value !== "" && value !== option.default) {
      // The CLI's fixed default needs no flag; leaving it out keeps the line short.
      words.push(option.flag, shellQuote(value));
    }
  }
  return { ok: true, line: words.join(" "), words };
}
