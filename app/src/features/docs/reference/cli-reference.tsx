// The CLI reference of one tool, generated from cli-catalogue.json so tables never drift from it.

import type { CliCatalogue, CliCommand, CliOption, CliToolId } from "@common/catalogue-types";
import type { ReactNode } from "react";
import { ColumnHeads } from "../../../components/column-heads";
import { CodeBlock } from "../page/code-block";
import "./cli-reference.css";

export const referenceHeadingId = "command-reference";

export function commandLine(invocation: string, command: CliCommand): string {
  return `${invocation} ${command.name}`;
}

export function HeadingAnchor({ id, text }: { id: string; text: string }) {
  return (
    <a className="heading-anchor" href={`#${id}`}>
      <span aria-hidden="true">#</span>
      <span className="visually-hidden">Section titled “{text}”</span>
    </a>
  );
}

function Values({ values }: { values?: string[] }) {
  if (!values || values.length === 0) return <span className="cli-table__none">—</span>;
  return (
    <>
      {values.map((value, index) => (
        <span key={value}>
          {index > 0 ? ", " : null}
          <code>{value}</code>
        </span>
      ))}
    </>
  );
}

/** A reference table that scrolls sideways on narrow screens: its column heads, then its rows. */
function CliTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the wide table scrolls on narrow screens
    <div className="table-scroll" tabIndex={0}>
      <table className="cli-table">
        <ColumnHeads columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function OptionsTable({ options }: { options: CliOption[] }) {
  return (
    <CliTable columns={["Flag", "Alias", "Value", "Allowed values", "Default", "Description"]}>
      {options.map((option) => (
        <tr key={option.flag}>
          <th scope="row">
            <code>{option.flag}</code>
            {option.required ? <span className="cli-table__tag">required</span> : null}
          </th>
          <td>{option.alias ? <code>{option.alias}</code> : <Values />}</td>
          <td>
            {option.takesValue && option.valueName ? (
              <code>{`<${option.valueName}>`}</code>
            ) : (
              <span className="cli-table__none">switch</span>
            )}
          </td>
          <td>
            <Values values={option.allowed} />
          </td>
          <td>
            <Values values={option.default ? [option.default] : undefined} />
          </td>
          <td>
            {option.description}
            {option.exclusiveGroup ? (
              <span className="cli-table__note"> Use at most one of this group.</span>
            ) : null}
          </td>
        </tr>
      ))}
    </CliTable>
  );
}

function ArgumentsTable({ command }: { command: CliCommand }) {
  return (
    <CliTable columns={["Argument", "Required", "Allowed values", "Description"]}>
      {command.arguments.map((argument) => (
        <tr key={argument.name}>
          <th scope="row">
            <code>{`<${argument.name}>`}</code>
          </th>
          <td>{argument.required ? "yes" : "no"}</td>
          <td>
            <Values values={argument.allowed} />
          </td>
          <td>{argument.description}</td>
        </tr>
      ))}
    </CliTable>
  );
}

function constraintText(constraint: NonNullable<CliCommand["constraints"]>[number]): string {
  if (constraint.kind === "exactlyOne") return `Give exactly one of ${constraint.of.join(", ")}.`;
  return `${constraint.flag} can only be used together with ${constraint.requires}.`;
}

function CommandSection({
  catalogue,
  command,
  invocation,
}: {
  catalogue: CliCatalogue;
  command: CliCommand;
  invocation: string;
}) {
  const title = commandLine(invocation, command);
  const related = command.seeAlso
    .map((id) => catalogue.commands.find((candidate) => candidate.id === id))
    .filter((candidate): candidate is CliCommand => candidate !== undefined);
  return (
    <section className="cli-command" aria-labelledby={command.id}>
      <div className="heading-wrapper heading-wrapper--h3">
        <h3 id={command.id}>
          <code>{title}</code>
        </h3>
        <HeadingAnchor id={command.id} text={title} />
      </div>
      <p className="cli-command__summary">{command.summary}</p>
      <CodeBlock code={command.usage} label="usage" />
      <p>{command.description}</p>
      {command.arguments.length > 0 ? (
        <>
          <h4>Arguments</h4>
          <ArgumentsTable command={command} />
        </>
      ) : null}
      {command.options.length > 0 ? (
        <>
          <h4>Options</h4>
          <OptionsTable options={command.options} />
        </>
      ) : null}
      {command.constraints && command.constraints.length > 0 ? (
        <ul className="cli-command__rules">
          {command.constraints.map((constraint) => (
            <li key={constraintText(constraint)}>{constraintText(constraint)}</li>
          ))}
        </ul>
      ) : null}
      <h4>{command.examples.length > 1 ? "Examples" : "Example"}</h4>
      {command.examples.map((example) => (
        <div key={example.command} className="cli-command__example">
          <p>{example.explanation}</p>
          <CodeBlock code={example.command} />
        </div>
      ))}
      {command.confirmations.length > 0 ? (
        <>
          <h4>Asks before acting</h4>
          <ul>
            {command.confirmations.map((prompt) => (
              <li key={prompt}>{prompt}</li>
            ))}
          </ul>
        </>
      ) : null}
      {command.notes.length > 0 ? (
        <div className="callout">
          <p className="callout__title">Good to know</p>
          <ul>
            {command.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {related.length > 0 ? (
        <p className="cli-command__see-also">
          See also:{" "}
          {related.map((other, index) => {
            const tool = catalogue.tools.find((candidate) => candidate.id === other.tool);
            const href = `${tool?.page ?? ""}#${other.id}`;
            return (
              <span key={other.id}>
                {index > 0 ? ", " : null}
                <a href={href}>
                  <code>{tool ? commandLine(tool.invocation, other) : other.name}</code>
                </a>
              </span>
            );
          })}
        </p>
      ) : null}
    </section>
  );
}

/** Headings the reference adds to a page, for its table of contents. */
export function referenceHeadings(catalogue: CliCatalogue, toolId: CliToolId) {
  const tool = catalogue.tools.find((candidate) => candidate.id === toolId);
  const invocation = tool?.invocation ?? toolId;
  return [
    { depth: 2, text: "Command reference", id: referenceHeadingId },
    ...catalogue.commands
      .filter((command) => command.tool === toolId)
      .map((command) => ({ depth: 3, text: commandLine(invocation, command), id: command.id })),
  ];
}

export function CliReference({ catalogue, tool }: { catalogue: CliCatalogue; tool: CliToolId }) {
  const info = catalogue.tools.find((candidate) => candidate.id === tool);
  if (!info) return null;
  const commands = catalogue.commands.filter((command) => command.tool === tool);
  return (
    <section className="cli-reference" aria-labelledby={referenceHeadingId}>
      <div className="heading-wrapper heading-wrapper--h2">
        <h2 id={referenceHeadingId}>Command reference</h2>
        <HeadingAnchor id={referenceHeadingId} text="Command reference" />
      </div>
      <p>
        {info.summary} Every <code>{info.invocation}</code> command, its arguments and options.
        {info.helpCommand ? (
          <>
            {" "}
            In a terminal, <code>{info.helpCommand}</code> prints the same list.
          </>
        ) : null}
      </p>
      {commands.map((command) => (
        <CommandSection
          key={command.id}
          catalogue={catalogue}
          command={command}
          invocation={info.invocation}
        />
      ))}
    </section>
  );
}
