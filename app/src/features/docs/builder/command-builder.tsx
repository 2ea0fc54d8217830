// The command builder on the CLI pages (its own lazy chunk): a form generated from the catalogue
// that validates each field and shows the exact, shell-quoted `mg ...` line to copy. The docs page
// renders the section around it (heading and introduction) and fetches this chunk only when the
// section nears the viewport, so a CLI page's first visit does not carry it.

import type { CliCatalogue, CliToolId } from "@common/catalogue-types";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { ArgumentField, type FieldProps, SwitchField, ValueField } from "./builder-fields";
import { argumentKey, type BuilderValues, buildCommand, initialValues } from "./command-line";
import { CommandOutput } from "./command-output";
import type { LoadCatalogue, ModelContextLike } from "./command-tool";
import "./command-builder.css";

// This chunk imports nothing at run time from the docs page's chunk (no shared helpers such as the
// page's copyText or HeadingAnchor): a module shared by both would be split into a third chunk that
// every docs page, builder or not, would then have to fetch.

async function writeClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** One group of fields, left out when it has none. */
function Group({
  legend,
  className,
  children,
}: {
  legend: string;
  className?: string;
  children: ReactNode[];
}) {
  if (children.length === 0) return null;
  return (
    <fieldset className={`builder__group${className ? ` ${className}` : ""}`}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

export function CommandBuilder({ catalogue, tool }: { catalogue: CliCatalogue; tool: CliToolId }) {
  const info = catalogue.tools.find((candidate) => candidate.id === tool);
  const commands = catalogue.commands.filter((command) => command.tool === tool);
  const [commandId, setCommandId] = useState(commands[0]?.id ?? "");
  const command = commands.find((candidate) => candidate.id === commandId) ?? commands[0];
  const [values, setValues] = useState<BuilderValues>(() =>
    command ? initialValues(command) : {},
  );
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState("");
  const [copied, setCopied] = useState(false);
  const resetTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const id = useId();

  useEffect(() => () => clearTimeout(resetTimer.current), []);

  if (!info || !command) return null;
  const invocation = info.invocation;
  const result = buildCommand(invocation, command, values);
  const errors = result.ok ? {} : result.errors;

  const touch = (key: string) =>
    setTouched((current) => (current.has(key) ? current : new Set(current).add(key)));
  /** The props of the field for `key` (an argument's key or an option's flag). */
  const field = (key: string): FieldProps => ({
    fieldId: `${id}-${key.replace(/[^a-z0-9]/gi, "")}`,
    value: values[key],
    error: touched.has(key) ? errors[key] : undefined,
    onChange: (value, touchNow = false) => {
      setValues((current) => ({ ...current, [key]: value }));
      if (touchNow) touch(key);
      setCopied(false);
    },
    onBlur: () => touch(key),
  });

  const pickCommand = (nextId: string) => {
    const next = commands.find((candidate) => candidate.id === nextId);
    if (!next) return;
    setCommandId(next.id);
    setValues(initialValues(next));
    setTouched(new Set());
    setCopied(false);
  };

  const copy = async () => {
    if (!result.ok) return;
    const ok = await writeClipboard(result.line);
    setCopied(ok);
    setAnnouncement(ok ? `Copied to the clipboard: ${result.line}` : "Copy failed");
    clearTimeout(resetTimer.current);
    resetTimer.current = setTimeout(() => {
      setCopied(false);
      setAnnouncement("");
    }, 3000);
  };

  const prefixLength = invocation.split(" ").length + command.name.split(" ").length;

  return (
    <>
      <form className="builder__form" onSubmit={(event) => event.preventDefault()} noValidate>
        <div className="builder-field builder-field--command">
          <label className="builder-field__label" htmlFor={`${id}-command`}>
            Command
          </label>
          <select
            id={`${id}-command`}
            className="builder-input"
            aria-describedby={`${id}-summary`}
            value={command.id}
            onChange={(event) => pickCommand(event.target.value)}
          >
            {commands.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {`${invocation} ${candidate.name}`}
              </option>
            ))}
          </select>
          <p className="builder-field__hint" id={`${id}-summary`}>
            {command.summary} <a href={`#${command.id}`}>Reference</a>
          </p>
        </div>
        <Group legend="Arguments">
          {command.arguments.map((argument) => (
            <ArgumentField
              key={argumentKey(argument)}
              argument={argument}
              {...field(argumentKey(argument))}
            />
          ))}
        </Group>
        <Group legend="Options">
          {command.options
            .filter((option) => option.takesValue)
            .map((option) => (
              <ValueField key={option.flag} option={option} {...field(option.flag)} />
            ))}
        </Group>
        <Group legend="Switches" className="builder__group--switches">
          {command.options
            .filter((option) => !option.takesValue)
            .map((option) => (
              <SwitchField key={option.flag} option={option} {...field(option.flag)} />
            ))}
        </Group>
        {command.arguments.length === 0 && command.options.length === 0 ? (
          <p className="builder__none">This command takes no arguments or options.</p>
        ) : null}
      </form>
      <CommandOutput result={result} prefixLength={prefixLength} copied={copied} onCopy={copy} />
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/**
 * The WebMCP tool (command-tool.ts): its own small chunk, fetched only by a browser with WebMCP, and
 * given this chunk's rules so the tool builds exactly what the form builds.
 */
export async function loadCommandTool() {
  const tool = await import("./command-tool");
  const rules = { argumentKey, buildCommand, initialValues };
  return {
    registerCommandTool: (context: ModelContextLike, loadCatalogue: LoadCatalogue) =>
      tool.registerCommandTool(context, { rules, loadCatalogue }),
  };
}
