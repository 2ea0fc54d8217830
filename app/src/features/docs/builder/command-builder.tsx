// The command builder on the CLI pages (its own lazy chunk): a form generated from the catalogue
// that validates each field and shows the exact, shell-quoted `mg ...` line to copy. The docs page
// renders the section around it (heading and introduction) and fetches this chunk only when the
// section nears the viewport, so a CLI page's first visit does not carry it.

import type { CliArgument, CliCatalogue, CliOption, CliToolId } from "@common/catalogue-types";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import {
  argumentKey,
  type BuilderValues,
  type BuildResult,
  buildCommand,
  initialValues,
} from "./command-line";
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

type FieldProps = {
  fieldId: string;
  label: ReactNode;
  hint: string;
  error: string | undefined;
  required?: boolean;
  children: (describedBy: string, invalid: boolean) => ReactNode;
};

/** A label, the control, its description and its error, wired with aria-describedby. */
function Field({ fieldId, label, hint, error, required, children }: FieldProps) {
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  const describedBy = error ? `${errorId} ${hintId}` : hintId;
  return (
    <div className={`builder-field${error ? " builder-field--invalid" : ""}`}>
      <label className="builder-field__label" htmlFor={fieldId}>
        {label}
        {required ? <span className="builder-field__required">required</span> : null}
      </label>
      {children(describedBy, error !== undefined)}
      {error ? (
        <p className="builder-field__error" id={errorId}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
      <p className="builder-field__hint" id={hintId}>
        {hint}
      </p>
    </div>
  );
}

function CommandPreview({ words, prefixLength }: { words: string[]; prefixLength: number }) {
  return (
    <code className="hljs">
      {words.map((word, index) => {
        const className =
          index === 0
            ? "hljs-built_in"
            : index < prefixLength
              ? undefined
              : word.startsWith("--")
                ? "hljs-attr"
                : "hljs-string";
        return (
          <span key={index}>
            {index > 0 ? " " : null}
            <span className={`builder-output__word${className ? ` ${className}` : ""}`}>
              {word}
            </span>
          </span>
        );
      })}
    </code>
  );
}

function fieldLabel(key: string): string {
  return key.startsWith("arg:") ? `<${key.slice(4)}>` : key;
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
  const result: BuildResult = buildCommand(invocation, command, values);
  const errors = result.ok ? {} : result.errors;
  const shown = (key: string) => (touched.has(key) ? errors[key] : undefined);
  const fieldId = (key: string) => `${id}-${key.replace(/[^a-z0-9]/gi, "")}`;

  const touch = (key: string) =>
    setTouched((current) => (current.has(key) ? current : new Set(current).add(key)));
  const change = (key: string, value: string | boolean, touchNow = false) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (touchNow) touch(key);
    setCopied(false);
  };

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

  const textInput =
    (key: string, hint: string, extra: { inputMode?: "numeric" | "email" | "url" }) =>
    (describedBy: string, invalid: boolean) => (
      <input
        id={fieldId(key)}
        className="builder-input"
        type="text"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        inputMode={extra.inputMode}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        placeholder={hint}
        value={String(values[key] ?? "")}
        onChange={(event) => change(key, event.target.value)}
        onBlur={() => touch(key)}
      />
    );

  const choice =
    (key: string, allowed: string[], defaultValue?: string) =>
    (describedBy: string, invalid: boolean) => (
      <select
        id={fieldId(key)}
        className="builder-input"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        value={String(values[key] ?? "")}
        onChange={(event) => change(key, event.target.value, true)}
        onBlur={() => touch(key)}
      >
        {defaultValue === undefined ? <option value="">Choose…</option> : null}
        {allowed.map((value) => (
          <option key={value} value={value}>
            {value === defaultValue ? `${value} (default)` : value}
          </option>
        ))}
      </select>
    );

  const argumentField = (argument: CliArgument) => {
    const key = argumentKey(argument);
    return (
      <Field
        key={key}
        fieldId={fieldId(key)}
        label={<code>{`<${argument.name}>`}</code>}
        hint={argument.description}
        error={shown(key)}
        required={argument.required}
      >
        {argument.allowed ? choice(key, argument.allowed) : textInput(key, argument.name, {})}
      </Field>
    );
  };

  const valueField = (option: CliOption) => {
    const key = option.flag;
    const inputMode =
      option.type === "port"
        ? "numeric"
        : option.type === "email"
          ? "email"
          : option.type === "domain"
            ? "url"
            : undefined;
    const hint =
      option.type === "enum" && option.default
        ? `${option.description} ${option.default} is the default, so choosing it leaves the option out.`
        : option.description;
    return (
      <Field
        key={key}
        fieldId={fieldId(key)}
        label={
          <>
            <code>{option.flag}</code>
            {option.valueName ? (
              <span className="builder-field__value">{` <${option.valueName}>`}</span>
            ) : null}
          </>
        }
        hint={hint}
        error={shown(key)}
        required={option.required}
      >
        {option.type === "enum"
          ? choice(key, option.allowed ?? [], option.default)
          : textInput(key, option.valueName ?? "", { inputMode })}
      </Field>
    );
  };

  const switchField = (option: CliOption) => {
    const key = option.flag;
    const error = shown(key);
    const hintId = `${fieldId(key)}-hint`;
    const errorId = `${fieldId(key)}-error`;
    return (
      <div key={key} className={`builder-switch${error ? " builder-field--invalid" : ""}`}>
        <input
          id={fieldId(key)}
          type="checkbox"
          checked={values[key] === true}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          aria-invalid={error ? true : undefined}
          onChange={(event) => change(key, event.target.checked, true)}
        />
        <div>
          <label htmlFor={fieldId(key)}>
            <code>{option.flag}</code>
            {option.required ? <span className="builder-field__required">required</span> : null}
          </label>
          {error ? (
            <p className="builder-field__error" id={errorId}>
              <span aria-hidden="true">⚠ </span>
              {error}
            </p>
          ) : null}
          <p className="builder-field__hint" id={hintId}>
            {option.description}
          </p>
        </div>
      </div>
    );
  };

  const valueOptions = command.options.filter((option) => option.takesValue);
  const switches = command.options.filter((option) => !option.takesValue);
  const problems = Object.keys(errors);
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
        {command.arguments.length > 0 ? (
          <fieldset className="builder__group">
            <legend>Arguments</legend>
            {command.arguments.map(argumentField)}
          </fieldset>
        ) : null}
        {valueOptions.length > 0 ? (
          <fieldset className="builder__group">
            <legend>Options</legend>
            {valueOptions.map(valueField)}
          </fieldset>
        ) : null}
        {switches.length > 0 ? (
          <fieldset className="builder__group builder__group--switches">
            <legend>Switches</legend>
            {switches.map(switchField)}
          </fieldset>
        ) : null}
        {command.arguments.length === 0 && command.options.length === 0 ? (
          <p className="builder__none">This command takes no arguments or options.</p>
        ) : null}
      </form>
      <div className="builder-output">
        <p className="builder-output__title">Your command</p>
        {result.ok ? (
          <div className="builder-output__line">
            {/* Wraps instead of scrolling, so the whole command is visible at any width. */}
            <pre className="hljs builder-output__code" data-testid="built-command">
              <CommandPreview words={result.words} prefixLength={prefixLength} />
            </pre>
            <button type="button" className="docs-button docs-button--primary" onClick={copy}>
              {copied ? "Copied" : "Copy command"}
            </button>
          </div>
        ) : (
          <div className="builder-output__pending">
            <p>No command yet. To get one:</p>
            <ul>
              {problems.map((key) => (
                <li key={key}>
                  <code>{fieldLabel(key)}</code>: {errors[key]}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
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
