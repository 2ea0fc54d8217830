// Types of src/content/cli-catalogue.json, as documented in src/content/catalogue.md.

export type CliToolId = "mg" | "dmt" | "lsd" | "esp";

export type CliTool = {
  id: CliToolId;
  name: string;
  invocation: string;
  summary: string;
  page: string;
  helpCommand?: string;
};

export type CliArgument = {
  name: string;
  required: boolean;
  allowed?: string[];
  description: string;
};

export type CliOption = {
  flag: string;
  alias?: string;
  takesValue: boolean;
  valueName?: string;
  type: "string" | "enum" | "port" | "email" | "domain" | "boolean";
  allowed?: string[];
  default?: string;
  required?: boolean;
  exclusiveGroup?: string;
  description: string;
};

export type CliConstraint =
  | { kind: "exactlyOne"; of: string[] }
  | { kind: "requires"; flag: string; requires: string };

export type CliCommand = {
  id: string;
  tool: CliToolId;
  name: string;
  usage: string;
  summary: string;
  description: string;
  arguments: CliArgument[];
  options: CliOption[];
  constraints?: CliConstraint[];
  examples: { command: string; explanation: string }[];
  confirmations: string[];
  notes: string[];
  seeAlso: string[];
};

export type CliCatalogue = {
  version: number;
  program: string;
  tools: CliTool[];
  commands: CliCommand[];
};
