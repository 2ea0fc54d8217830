// The operator view of /apotheosis: shown only to a session the server accepts as a status operator
// (GET /api/status/operator answers 200; anyone else sees nothing of it). Five actions, each with
// labelled fields (keyboard and screen-reader friendly) behind its heading, which opens it
// (operator-action.tsx): open an incident, post an update (a final status resolves or completes),
// edit or delete a posted update (operator-corrections.tsx), schedule a maintenance window, and set
// a component's status without an incident (operator-components.tsx). The server validates everything; its message (in the page's
// words) is shown as it is, and focus moves to it after every submit. Every choice a form offers
// (statuses, impacts, component statuses, components) and its words come from the server's answer.
// Below it, the webhooks card (webhooks-card.tsx).
import type {
  ComponentCondition,
  NoticeKind,
  OperatorView as OperatorInfo,
} from "@common/http-types";
import { type FormEvent, type ReactNode, useCallback, useState } from "react";
import { useSession } from "../../lib/session/session-context";
import { Choices } from "./choices";
import { OperatorAction } from "./operator-action";
import { useOperatorGet } from "./operator-answers";
import { SetComponentStatus } from "./operator-components";
import { CorrectUpdates } from "./operator-corrections";
import { Outcome, usePost } from "./operator-outcome";
import { WebhooksCard } from "./webhooks-card";

/** `datetime-local` text read as UTC, as the server's RFC 3339. */
function utc(local: string): string {
  return local ? `${local}:00Z` : "";
}

export function OperatorView({ onPosted }: { onPosted: () => void }) {
  const session = useSession();
  const [version, setVersion] = useState(0);
  const signedIn = session.state.status === "signed-in";
  // `version` asks again after a post. Anyone the server does not accept as an operator (403,
  // 401) sees nothing of the view.
  const answer = useOperatorGet<OperatorInfo>("/api/status/operator", version, signedIn);
  const info = answer.status === "loaded" ? answer.answer : null;
  const posted = useCallback(() => {
    setVersion((v) => v + 1);
    onPosted();
  }, [onPosted]);
  if (!info) return null;
  return (
    <>
      <OperatorForms info={info} onPosted={posted} />
      <WebhooksCard />
    </>
  );
}

function OperatorForms({ info, onPosted }: FormProps) {
  return (
    <section
      className="card operator"
      aria-labelledby="operator-heading"
      data-testid="operator-view"
    >
      <h2 id="operator-heading" className="card__title">
        Operator view
      </h2>
      <p className="card__hint">
        Only status operators see this. What you post is public at once, on every instance within a
        round of checks.
      </p>
      <div className="operator__actions">
        <OperatorAction id="open-incident-heading" title="Open an incident">
          <OpenIncident info={info} onPosted={onPosted} />
        </OperatorAction>
        <OperatorAction id="post-update-heading" title={updateTitle(info)}>
          <PostUpdate info={info} onPosted={onPosted} />
        </OperatorAction>
        <OperatorAction id="correct-heading" title="Edit or delete a posted update">
          <CorrectUpdates info={info} onPosted={onPosted} />
        </OperatorAction>
        <OperatorAction id="schedule-heading" title="Schedule maintenance">
          <ScheduleWindow info={info} onPosted={onPosted} />
        </OperatorAction>
        <OperatorAction id="component-status-heading" title="Set a component's status">
          <SetComponentStatus info={info} onPosted={onPosted} />
        </OperatorAction>
      </div>
    </section>
  );
}

type FormProps = { info: OperatorInfo; onPosted: () => void };

/** "Post an update", with how many incidents and windows are open to post to. */
function updateTitle(info: OperatorInfo): string {
  const open = info.open_notices.length;
  return open === 0 ? "Post an update (nothing is open)" : `Post an update (${open} open)`;
}

/** The status an incident declares for its components: none (the checks' measure stands), or one
 * of the server's words. */
function ComponentStatusChoice({
  info,
  id,
  none,
}: {
  info: OperatorInfo;
  id: string;
  none: string;
}) {
  return (
    <>
      <label htmlFor={id}>Component status</label>
      <select id={id} name="component_status" defaultValue="">
        <option value="">{none}</option>
        <Choices choices={info.component_statuses} />
      </select>
    </>
  );
}

function Components({ info, prefix }: { info: OperatorInfo; prefix: string }) {
  return (
    <fieldset className="operator__components">
      <legend>Affected components</legend>
      {info.components.map(([id, name]) => (
        <label key={id} className="operator__check">
          <input type="checkbox" name="components" value={id} id={`${prefix}-${id}`} /> {name}
        </label>
      ))}
    </fieldset>
  );
}

/** A new notice's title, as long as the server allows. */
function TitleField({ info, id }: { info: OperatorInfo; id: string }) {
  return (
    <>
      <label htmlFor={id}>Title</label>
      <input id={id} name="title" required maxLength={info.limits.title_chars} />
    </>
  );
}

/** A form's ending: the text people see (Markdown, as `body`) and the button that posts it. */
function BodyAndSubmit({
  info,
  id,
  label,
  busy,
  children,
}: {
  info: OperatorInfo;
  id: string;
  label: string;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <label htmlFor={id}>{`${label} (Markdown)`}</label>
      <textarea id={id} name="body" required rows={3} maxLength={info.limits.body_chars} />
      <button type="submit" className="button button--primary" disabled={busy}>
        {children}
      </button>
    </>
  );
}

function checked(form: HTMLFormElement): string[] {
  return Array.from(form.querySelectorAll<HTMLInputElement>("input[name=components]:checked")).map(
    (input) => input.value,
  );
}

function field(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name);
  return element && "value" in element ? String(element.value) : "";
}

function OpenIncident({ info, onPosted }: FormProps) {
  const { message, busy, run, outcome } = usePost(onPosted);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const attach = field(form, "check_incident");
    const ok = await run(
      "/api/status/incidents",
      {
        title: field(form, "title"),
        impact: field(form, "impact"),
        components: checked(form),
        status: field(form, "status"),
        body: field(form, "body"),
        check_incident: attach || null,
        component_status: (field(form, "component_status") || null) as ComponentCondition | null,
      },
      `Incident opened: ${field(form, "title").trim()}.`,
    );
    if (ok) form.reset();
  };
  return (
    <form className="operator__form" onSubmit={submit} aria-labelledby="open-incident-heading">
      <TitleField info={info} id="incident-title" />
      <label htmlFor="incident-impact">Impact</label>
      <select id="incident-impact" name="impact" defaultValue="minor">
        <Choices choices={info.impacts} />
      </select>
      <Components info={info} prefix="incident" />
      <ComponentStatusChoice
        info={info}
        id="incident-component-status"
        none="As the checks measure"
      />
      <label htmlFor="incident-status">Status</label>
      <select id="incident-status" name="status" defaultValue="investigating">
        <Choices choices={info.incident_statuses.filter(([status]) => status !== "resolved")} />
      </select>
      {info.check_incidents.length > 0 && (
        <>
          <label htmlFor="incident-attach">Attach to the checks' incident</label>
          <select id="incident-attach" name="check_incident" defaultValue="">
            <option value="">None</option>
            {info.check_incidents.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </>
      )}
      <BodyAndSubmit info={info} id="incident-body" label="What people see" busy={busy}>
        Open incident
      </BodyAndSubmit>
      <Outcome message={message} outcome={outcome} />
    </form>
  );
}

function PostUpdate({ info, onPosted }: FormProps) {
  const { message, busy, run, outcome } = usePost(onPosted);
  const [target, setTarget] = useState("");
  const chosen = info.open_notices.find((n) => n.id === target) ?? info.open_notices[0];
  const kind: NoticeKind = chosen?.kind ?? "incident";
  const statuses = kind === "maintenance" ? info.window_statuses : info.incident_statuses;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!chosen) return;
    const form = event.currentTarget;
    const path = kind === "maintenance" ? "maintenances" : "incidents";
    const ok = await run(
      `/api/status/${path}/${chosen.id}/updates`,
      {
        status: field(form, "status"),
        body: field(form, "body"),
        component_status: (field(form, "component_status") || null) as ComponentCondition | null,
      },
      `Update posted to ${chosen.title}.`,
    );
    if (ok) form.reset();
  };
  return (
    <form className="operator__form" onSubmit={submit} aria-labelledby="post-update-heading">
      {chosen ? (
        <>
          <label htmlFor="update-target">Incident or window</label>
          <select id="update-target" value={chosen.id} onChange={(e) => setTarget(e.target.value)}>
            {info.open_notices.map((notice) => (
              <option key={notice.id} value={notice.id}>
                {notice.kind === "maintenance" ? "Maintenance: " : "Incident: "}
                {notice.title}
              </option>
            ))}
          </select>
          <label htmlFor="update-status">Status</label>
          <select id="update-status" name="status" key={kind}>
            <Choices choices={statuses} />
          </select>
          {kind === "incident" && (
            <ComponentStatusChoice
              info={info}
              id="update-component-status"
              none="Keep what is declared"
            />
          )}
          <BodyAndSubmit info={info} id="update-body" label="Update" busy={busy}>
            Post update
          </BodyAndSubmit>
        </>
      ) : (
        <p className="card__hint">Nothing is open.</p>
      )}
      <Outcome message={message} outcome={outcome} />
    </form>
  );
}

function ScheduleWindow({ info, onPosted }: FormProps) {
  const { message, busy, run, outcome } = usePost(onPosted);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const ok = await run(
      "/api/status/maintenances",
      {
        title: field(form, "title"),
        components: checked(form),
        starts_at: utc(field(form, "starts_at")),
        ends_at: utc(field(form, "ends_at")),
        body: field(form, "body"),
      },
      `Window scheduled: ${field(form, "title").trim()}.`,
    );
    if (ok) form.reset();
  };
  return (
    <form className="operator__form" onSubmit={submit} aria-labelledby="schedule-heading">
      <TitleField info={info} id="window-title" />
      <Components info={info} prefix="window" />
      <label htmlFor="window-start">Starts (UTC)</label>
      <input id="window-start" name="starts_at" type="datetime-local" required />
      <label htmlFor="window-end">Ends (UTC)</label>
      <input id="window-end" name="ends_at" type="datetime-local" required />
      <BodyAndSubmit info={info} id="window-body" label="What people see" busy={busy}>
        Schedule window
      </BodyAndSubmit>
      <Outcome message={message} outcome={outcome} />
    </form>
  );
}
