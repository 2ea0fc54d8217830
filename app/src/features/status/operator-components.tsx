// "Set a component's status" in the operator view: a status set on a component by itself, without an
// incident (PATCH /api/status/components/{id}), or "As the checks measure" to clear it. The choices,
// their words and what each component has now come from the server's answer; the page shows the
// worse of this and what the checks measure (docs/status-operators.md, "Component statuses").
import type { ComponentCondition, OperatorView as OperatorInfo } from "@common/http-types";
import type { FormEvent } from "react";
import { Choices } from "./choices";
import { Outcome, usePost } from "./operator-outcome";

const MEASURED = "As the checks measure";

export function SetComponentStatus({
  info,
  onPosted,
}: {
  info: OperatorInfo;
  onPosted: () => void;
}) {
  const { message, busy, run, outcome } = usePost(onPosted);
  const words = (status: ComponentCondition | null) =>
    info.component_statuses.find(([value]) => value === status)?.[1] ?? MEASURED;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const id = (form.elements.namedItem("component") as HTMLSelectElement).value;
    const value = (form.elements.namedItem("status") as HTMLSelectElement).value;
    const status = (value || null) as ComponentCondition | null;
    const name = info.components.find(([known]) => known === id)?.[1] ?? id;
    await run(`/api/status/components/${id}`, { status }, `${name}: ${words(status)}.`, "PATCH");
  };
  return (
    <form className="operator__form" onSubmit={submit} aria-labelledby="component-status-heading">
      <ul className="operator__settings">
        {info.component_settings.map(([id, status]) => (
          <li key={id}>
            {info.components.find(([known]) => known === id)?.[1] ?? id}: {words(status)}
          </li>
        ))}
      </ul>
      <label htmlFor="setting-component">Component</label>
      <select id="setting-component" name="component">
        <Choices choices={info.components} />
      </select>
      <label htmlFor="setting-status">Status</label>
      <select id="setting-status" name="status" defaultValue="">
        <option value="">{MEASURED}</option>
        <Choices choices={info.component_statuses} />
      </select>
      <p className="card__hint">
        The page shows the worse of this and what the checks measure, until you set it again.
      </p>
      <button type="submit" className="button button--primary" disabled={busy}>
        Set status
      </button>
      <Outcome message={message} outcome={outcome} />
    </form>
  );
}
