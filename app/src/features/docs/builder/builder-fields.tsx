// The command builder's fields: a catalogue argument, an option that takes a value, and a switch,
// each a labelled control with its description and its error, wired with aria-describedby.
import type { CliArgument, CliOption } from "@common/catalogue-types";
import type { ReactNode } from "react";

/** What every field gets from the form: its control's id, value and error, and how to change it. */
export type FieldProps = {
  fieldId: string;
  value: string | boolean | undefined;
  /** Shown only once the field was touched. */
  error: string | undefined;
  /** `touchNow`: a choice is complete at once, so its error shows at once too. */
  onChange: (value: string | boolean, touchNow?: boolean) => void;
  onBlur: () => void;
};

/** The ids of a field's hint and error, and the `aria-describedby` naming what is shown. */
function notesOf(fieldId: string, error: string | undefined) {
  const hintId = `${fieldId}-hint`;
  const errorId = `${fieldId}-error`;
  return { hintId, errorId, describedBy: error ? `${errorId} ${hintId}` : hintId };
}

/** A field's error (when it has one) and its description. */
function Notes({ fieldId, hint, error }: { fieldId: string; hint: string; error?: string }) {
  const { hintId, errorId } = notesOf(fieldId, error);
  return (
    <>
      {error ? (
        <p className="builder-field__error" id={errorId}>
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
      <p className="builder-field__hint" id={hintId}>
        {hint}
      </p>
    </>
  );
}

function Required({ required }: { required?: boolean }) {
  return required ? <span className="builder-field__required">required</span> : null;
}

type Control = { describedBy: string; invalid: boolean };

/** A label, the control, its error and its description. */
function Field({
  fieldId,
  label,
  hint,
  error,
  required,
  children,
}: {
  fieldId: string;
  label: ReactNode;
  hint: string;
  error: string | undefined;
  required?: boolean;
  children: (control: Control) => ReactNode;
}) {
  const { describedBy } = notesOf(fieldId, error);
  return (
    <div className={`builder-field${error ? " builder-field--invalid" : ""}`}>
      <label className="builder-field__label" htmlFor={fieldId}>
        {label}
        <Required required={required} />
      </label>
      {children({ describedBy, invalid: error !== undefined })}
      <Notes fieldId={fieldId} hint={hint} error={error} />
    </div>
  );
}

function TextControl({
  field,
  control,
  placeholder,
  inputMode,
}: {
  field: FieldProps;
  control: Control;
  placeholder: string;
  inputMode?: "numeric" | "email" | "url";
}) {
  return (
    <input
      id={field.fieldId}
      className="builder-input"
      type="text"
      autoComplete="off"
      autoCapitalize="off"
      spellCheck={false}
      inputMode={inputMode}
      aria-describedby={control.describedBy}
      aria-invalid={control.invalid || undefined}
      placeholder={placeholder}
      value={String(field.value ?? "")}
      onChange={(event) => field.onChange(event.target.value)}
      onBlur={field.onBlur}
    />
  );
}

function ChoiceControl({
  field,
  control,
  allowed,
  defaultValue,
}: {
  field: FieldProps;
  control: Control;
  allowed: readonly string[];
  defaultValue?: string;
}) {
  return (
    <select
      id={field.fieldId}
      className="builder-input"
      aria-describedby={control.describedBy}
      aria-invalid={control.invalid || undefined}
      value={String(field.value ?? "")}
      onChange={(event) => field.onChange(event.target.value, true)}
      onBlur={field.onBlur}
    >
      {defaultValue === undefined ? <option value="">Choose…</option> : null}
      {allowed.map((value) => (
        <option key={value} value={value}>
          {value === defaultValue ? `${value} (default)` : value}
        </option>
      ))}
    </select>
  );
}

export function ArgumentField({ argument, ...field }: FieldProps & { argument: CliArgument }) {
  return (
    <Field
      fieldId={field.fieldId}
      label={<code>{`<${argument.name}>`}</code>}
      hint={argument.description}
      error={field.error}
      required={argument.required}
    >
      {(control) =>
        argument.allowed ? (
          <ChoiceControl field={field} control={control} allowed={argument.allowed} />
        ) : (
          <TextControl field={field} control={control} placeholder={argument.name} />
        )
      }
    </Field>
  );
}

const INPUT_MODES: Partial<Record<CliOption["type"], "numeric" | "email" | "url">> = {
  port: "numeric",
  email: "email",
  domain: "url",
};

/** An option that takes a value: a choice for an enum, else a text input. */
export function ValueField({ option, ...field }: FieldProps & { option: CliOption }) {
  const hint =
    option.type === "enum" && option.default
      ? `${option.description} ${option.default} is the default, so choosing it leaves the option out.`
      : option.description;
  return (
    <Field
      fieldId={field.fieldId}
      label={
        <>
          <code>{option.flag}</code>
          {option.valueName ? (
            <span className="builder-field__value">{` <${option.valueName}>`}</span>
          ) : null}
        </>
      }
      hint={hint}
      error={field.error}
      required={option.required}
    >
      {(control) =>
        option.type === "enum" ? (
          <ChoiceControl
            field={field}
            control={control}
            allowed={option.allowed ?? []}
            defaultValue={option.default}
          />
        ) : (
          <TextControl
            field={field}
            control={control}
            placeholder={option.valueName ?? ""}
            inputMode={INPUT_MODES[option.type]}
          />
        )
      }
    </Field>
  );
}

/** An option without a value: a checkbox, its label beside it. */
export function SwitchField({ option, ...field }: FieldProps & { option: CliOption }) {
  const { describedBy } = notesOf(field.fieldId, field.error);
  return (
    <div className={`builder-switch${field.error ? " builder-field--invalid" : ""}`}>
      <input
        id={field.fieldId}
        type="checkbox"
        checked={field.value === true}
        aria-describedby={describedBy}
        aria-invalid={field.error ? true : undefined}
        onChange={(event) => field.onChange(event.target.checked, true)}
      />
      <div>
        <label htmlFor={field.fieldId}>
          <code>{option.flag}</code>
          <Required required={option.required} />
        </label>
        <Notes fieldId={field.fieldId} hint={option.description} error={field.error} />
      </div>
    </div>
  );
}
