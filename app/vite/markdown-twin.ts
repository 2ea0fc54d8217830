// A docs page's Markdown twin (served at its path plus `.md`, copied by "Copy page as Markdown" and
// joined into llms-full.txt): the title, the description and the body, with everything the page
// renders from components written out as plain Markdown (the CLI reference as tables and code
// blocks), so an agent reads what a person sees, without HTML or front matter.
import type { CliCatalogue, CliCommand, CliOption, CliToolId } from "../common/catalogue-types";
import { docsPath, paths, pathTo } from "../common/routes";
import { parseFrontMatter } from "./render-markdown";

/** Which tool's reference follows a page's prose (as in docs-content.tsx). */
export const referenceTool: Readonly<Record<string, CliToolId>> = {
  cli: "mg",
  dmt: "dmt",
  lsd: "lsd",
  esp: "esp",
};

/** The pages that also carry the command builder (as in docs-content.tsx). */
export const builderPages: ReadonlySet<string> = new Set(["cli", "dmt", "lsd"]);

/** The twin's path for a docs page: its canonical route plus `.md` (`/mg/cli/dmt.md`). */
export function twinPath(slug: string): string {
  return `${docsPath(slug)}.md`;
}

/**
 * Maps every route that shows a docs page (`/mg/cli/dmt`, and its alias `/mg/dmt`) to the page's
 * twin, so links inside twins lead to Markdown too.
 */
export function twinLinks(slugs: readonly string[]): Map<string, string> {
  const links = new Map<string, string>();
  for (const slug of slugs) {
    links.set(pathTo(paths.docsTab, { tab: slug }), twinPath(slug));
    links.set(docsPath(slug), twinPath(slug));
  }
  if (slugs.includes("cli")) links.set(pathTo(paths.docsTab, { tab: "cli" }), twinPath("cli"));
  return links;
}

/**
 * Points the Markdown links (`](/mg/flow#dns)`) at docs pages to their twins, keeping the fragment;
 * other links and anything inside code blocks stay as they are.
 */
export function rewriteDocsLinks(markdown: string, links: ReadonlyMap<string, string>): string {
  let inFence = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
      if (inFence) return line;
      return line.replace(
        /\]\((\/[^)\s#]*)(#[^)\s]*)?\)/g,
        (whole, path: string, hash?: string) => {
          const twin = links.get(path);
          return twin ? `](${twin}${hash ?? ""})` : whole;
        },
      );
    })
    .join("\n");
}

/** Text for one table cell: one line, with the column separator escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replaceAll("|", "\\|");
}

function code(text: string): string {
  return text.includes("`") ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function values(list: readonly string[] | undefined): string {
  return list && list.length > 0 ? list.map(code).join(", ") : "—";
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

function codeBlock(text: string, language = "sh"): string {
  return `\`\`\`${language}\n${text}\n\`\`\``;
}

function optionRow(option: CliOption): string[] {
  return [
    `${code(option.flag)}${option.required ? " (required)" : ""}`,
    option.alias ? code(option.alias) : "—",
    option.takesValue && option.valueName ? code(`<${option.valueName}>`) : "switch",
    values(option.allowed),
    values(option.default ? [option.default] : undefined),
    `${option.description}${option.exclusiveGroup ? " Use at most one of this group." : ""}`,
  ];
}

function constraintText(constraint: NonNullable<CliCommand["constraints"]>[number]): string {
  if (constraint.kind === "exactlyOne") return `Give exactly one of ${constraint.of.join(", ")}.`;
  return `${constraint.flag} can only be used together with ${constraint.requires}.`;
}

function commandMarkdown(catalogue: CliCatalogue, command: CliCommand, invocation: string) {
  const parts = [
    `### ${code(`${invocation} ${command.name}`)}`,
    command.summary,
    codeBlock(command.usage),
    command.description,
  ];
  if (command.arguments.length > 0) {
    parts.push(
      "#### Arguments",
      table(
        ["Argument", "Required", "Allowed values", "Description"],
        command.arguments.map((argument) => [
          code(`<${argument.name}>`),
          argument.required ? "yes" : "no",
          values(argument.allowed),
          argument.description,
        ]),
      ),
    );
  }
  if (command.options.length > 0) {
    parts.push(
      "#### Options",
      table(
        ["Flag", "Alias", "Value", "Allowed values", "Default", "Description"],
        command.options.map(optionRow),
      ),
    );
  }
  if (command.constraints && command.constraints.length > 0) {
    parts.push(command.constraints.map((rule) => `- ${constraintText(rule)}`).join("\n"));
  }
  parts.push(command.examples.length > 1 ? "#### Examples" : "#### Example");
  for (const example of command.examples)
    parts.push(example.explanation, codeBlock(example.command));
  if (command.confirmations.length > 0) {
    parts.push(
      "#### Asks before acting",
      command.confirmations.map((prompt) => `- ${prompt}`).join("\n"),
    );
  }
  if (command.notes.length > 0) {
    parts.push(
      ["> **Good to know**", ">", ...command.notes.map((note) => `> - ${note}`)].join("\n"),
    );
  }
  const related = command.seeAlso.flatMap((id) => {
    const other = catalogue.commands.find((candidate) => candidate.id === id);
    const tool = other && catalogue.tools.find((candidate) => candidate.id === other.tool);
    return other && tool
      ? [`[${code(`${tool.invocation} ${other.name}`)}](${tool.page}#${other.id})`]
      : [];
  });
  if (related.length > 0) parts.push(`See also: ${related.join(", ")}`);
  return parts.join("\n\n");
}

/** The command reference of one tool as Markdown: what cli-reference.tsx renders, as tables. */
export function referenceMarkdown(catalogue: CliCatalogue, toolId: CliToolId): string {
  const tool = catalogue.tools.find((candidate) => candidate.id === toolId);
  if (!tool) throw new Error(`cli-catalogue.json has no tool ${toolId}`);
  const help = tool.helpCommand
    ? ` In a terminal, ${code(tool.helpCommand)} prints the same list.`
    : "";
  return [
    "## Command reference",
    `${tool.summary} Every ${code(tool.invocation)} command, its arguments and options.${help}`,
    ...catalogue.commands
      .filter((command) => command.tool === toolId)
      .map((command) => commandMarkdown(catalogue, command, tool.invocation)),
  ].join("\n\n");
}

/** What stands for the page's interactive command builder in the twin. */
export function builderMarkdown(catalogue: CliCatalogue, toolId: CliToolId): string {
  const invocation =
    catalogue.tools.find((candidate) => candidate.id === toolId)?.invocation ?? `mg ${toolId}`;
  return [
    "## Command builder",
    `The web page has a form that builds a ${code(invocation)} command line and checks each value ` +
      "against the command reference below. In browsers with WebMCP (`navigator.modelContext`) the " +
      "page offers the same builder to agents as the tool `build_mg_command` " +
      "(input: `tool`, `command`, `arguments`, `options`; result: the command line).",
  ].join("\n\n");
}

export type TwinInput = {
  slug: string;
  /** The page's source: front matter and Markdown body. */
  source: string;
  /** Only needed by the pages with a CLI reference. */
  catalogue?: CliCatalogue;
  /** Docs routes to twin paths (twinLinks); links are left alone without it. */
  links?: ReadonlyMap<string, string>;
  file?: string;
};

/** The page's Markdown twin: `# Title`, the description, the body, the expanded components. */
export function renderTwin({ slug, source, catalogue, links, file }: TwinInput): string {
  const { data, body } = parseFrontMatter(source, file ?? slug);
  const parts = [`# ${data.title}`, `> ${data.description}`, body.trim()];
  const tool = referenceTool[slug];
  if (tool) {
    if (!catalogue) throw new Error(`${file ?? slug}: the twin needs the CLI catalogue`);
    if (builderPages.has(slug)) parts.push(builderMarkdown(catalogue, tool));
    parts.push(referenceMarkdown(catalogue, tool));
  }
  const markdown = `${parts.join("\n\n")}\n`;
  return links ? rewriteDocsLinks(markdown, links) : markdown;
}
