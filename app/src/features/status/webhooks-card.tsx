// The operator view's webhooks (docs/status-operators.md, "Webhooks"): the live webhooks with a
// delete that asks first, a form to add one (its signing secret shown once, with a copy button and
// how receivers check it), and the delivery log. Shown inside the operator view only, so only to
// status operators; the server checks every call again.
import type { AddedWebhook, Delivery, DeliveryLog, Webhook, WebhookList } from "@common/http-types";
import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { Card } from "../../components/card";
import { ColumnHeads } from "../../components/column-heads";
import { requestRaw } from "../../lib/api-client";
import { Choices } from "./choices";
import { OperatorAction } from "./operator-action";
import { errorOf, type Loaded, useOperatorGet } from "./operator-answers";
import { Outcome } from "./operator-outcome";

const WEBHOOKS = "/api/status/webhooks";
const DELIVERIES = "/api/status/webhooks/deliveries";

export function WebhooksCard() {
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  const list = useOperatorGet<WebhookList>(WEBHOOKS, round);
  const log = useOperatorGet<DeliveryLog>(DELIVERIES, round);
  const [added, setAdded] = useState<AddedWebhook | null>(null);
  return (
    <Card id="webhooks-heading" title="Webhooks" className="webhooks">
      <p className="card__hint">
        Every incident and maintenance update, and every component the checks find down or back up,
        is posted to these addresses, signed, and retried for over an hour.
      </p>
      {added ? (
        <Secret added={added} onDone={() => setAdded(null)} />
      ) : (
        <OperatorAction id="add-webhook-heading" title="Add a webhook">
          {list.status === "loaded" ? (
            <AddWebhook
              list={list.answer}
              onAdded={(answer) => {
                setAdded(answer);
                reload();
              }}
            />
          ) : (
            <p className="card__hint">
              {list.status === "failed" ? list.message : "Loading the server's limits…"}
            </p>
          )}
        </OperatorAction>
      )}
      <h3 className="webhooks__heading">Webhooks</h3>
      {list.status === "loading" && <p className="card__hint">Loading webhooks…</p>}
      {list.status === "failed" && <p className="webhooks__error">{list.message}</p>}
      {list.status === "loaded" &&
        (list.answer.webhooks.length === 0 ? (
          <p className="card__hint">No webhooks yet.</p>
        ) : (
          <ul className="webhooks__list">
            {list.answer.webhooks.map((webhook) => (
              <WebhookItem
                key={webhook.id}
                webhook={webhook}
                formats={list.answer.formats}
                onDeleted={reload}
              />
            ))}
          </ul>
        ))}
      <div className="webhooks__log-head">
        <h3 className="webhooks__heading">Delivery log</h3>
        <button type="button" className="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <Deliveries log={log} />
    </Card>
  );
}

/** The form; its formats, their words and the lengths allowed are the server's (`list`). */
function AddWebhook({
  list,
  onAdded,
}: {
  list: WebhookList;
  onAdded: (added: AddedWebhook) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  // A refusal takes focus, as every operator form's outcome does (a success replaces the form by
  // the secret's panel, whose outcome line takes it).
  const outcome = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) outcome.current?.focus();
  }, [error]);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const value = (name: string) => {
      const element = form.elements.namedItem(name);
      return element && "value" in element ? String(element.value) : "";
    };
    setBusy(true);
    setError("");
    const body = { url: value("url"), format: value("format"), name: value("name") || null };
    const answer = await requestRaw(WEBHOOKS, { method: "POST", body, auth: true });
    setBusy(false);
    if (answer?.status === 201) {
      form.reset();
      onAdded(JSON.parse(answer.text) as AddedWebhook);
    } else {
      setError(answer ? errorOf(answer.status, answer.text) : "The server could not be reached.");
    }
  };
  return (
    <form className="operator__form" onSubmit={submit} aria-labelledby="add-webhook-heading">
      <label htmlFor="webhook-url">URL</label>
      <input
        id="webhook-url"
        name="url"
        type="url"
        required
        maxLength={list.max_url_chars}
        placeholder="https://hooks.example.com/…"
      />
      <label htmlFor="webhook-format">Format</label>
      <select id="webhook-format" name="format" defaultValue="json">
        <Choices choices={list.formats} />
      </select>
      <label htmlFor="webhook-name">Name (optional)</label>
      <input id="webhook-name" name="name" maxLength={list.max_name_chars} />
      <button type="submit" className="button button--primary" disabled={busy}>
        Add webhook
      </button>
      <Outcome message={error ? { ok: false, text: error } : null} outcome={outcome} />
    </form>
  );
}

/** The added webhook's secret, shown once. Its outcome line comes first and takes focus when the
 * panel replaces the form (the button that was pressed is gone): the next Tab reaches Copy secret. */
function Secret({ added, onDone }: { added: AddedWebhook; onDone: () => void }) {
  const [copied, setCopied] = useState("");
  const outcome = useRef<HTMLParagraphElement>(null);
  useEffect(() => outcome.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(added.secret);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is blocked here: select the secret and copy it.");
    }
  };
  return (
    <div className="webhooks__secret" data-testid="webhook-secret">
      <h3 className="webhooks__heading">{`Added ${added.webhook.name}: its signing secret`}</h3>
      <p ref={outcome} tabIndex={-1} className="operator__outcome" role="status">
        {`Webhook added: ${added.webhook.name}. Its signing secret is below, shown this once.`}
      </p>
      <p>
        Shown this once: keep it in your receiver's settings. Each delivery's{" "}
        <code>X-MG-Signature</code> is <code>sha256=</code> and the HMAC-SHA256 of{" "}
        <code>{"{X-MG-Timestamp}.{body}"}</code> under the secret's bytes (it is hex); drop a{" "}
        <code>X-MG-Delivery</code> id you have seen.
      </p>
      <code className="webhooks__secret-value">{added.secret}</code>
      <div className="webhooks__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          Copy secret
        </button>
        <button type="button" className="button button--primary" onClick={onDone}>
          Done
        </button>
      </div>
      <p className="operator__outcome" role="status">
        {copied}
      </p>
    </div>
  );
}

function WebhookItem({
  webhook,
  formats,
  onDeleted,
}: {
  webhook: Webhook;
  formats: WebhookList["formats"];
  onDeleted: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState("");
  const remove = async () => {
    const answer = await requestRaw(`${WEBHOOKS}/${webhook.id}`, { method: "DELETE", auth: true });
    if (answer?.status === 204) onDeleted();
    else
      setError(answer ? errorOf(answer.status, answer.text) : "The server could not be reached.");
  };
  const format = formats.find(([value]) => value === webhook.format)?.[1] ?? webhook.format;
  return (
    <li className="webhooks__item">
      <div className="webhooks__what">
        <strong>{webhook.name}</strong> <span className="webhooks__format">{format}</span>
        <span className="webhooks__url">{webhook.url}</span>
      </div>
      {asking ? (
        <div className="webhooks__actions">
          <button type="button" className="button button--primary" onClick={() => void remove()}>
            {`Delete ${webhook.name}`}
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            Keep
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button"
          onClick={() => setAsking(true)}
          aria-label={`Delete ${webhook.name}…`}
        >
          Delete…
        </button>
      )}
      {error && <p className="webhooks__error">{error}</p>}
    </li>
  );
}

const STATE_WORDS: Record<Delivery["state"], string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
  held: "Held (maintenance)",
};

function lastAnswer(delivery: Delivery): string {
  if (delivery.last_error) return delivery.last_error;
  return delivery.last_status === null ? "—" : `HTTP ${delivery.last_status}`;
}

function Deliveries({ log }: { log: Loaded<DeliveryLog> }) {
  if (log.status === "loading") return <p className="card__hint">Loading deliveries…</p>;
  if (log.status === "failed") return <p className="webhooks__error">{log.message}</p>;
  if (log.answer.deliveries.length === 0) return <p className="card__hint">No deliveries yet.</p>;
  return (
    // A wide table scrolls inside its own box on a narrow screen; the box takes the focus so a
    // keyboard can scroll it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable.
    <section className="webhooks__table" tabIndex={0} aria-label="Delivery log">
      <table data-testid="webhook-deliveries">
        <ColumnHeads
          columns={["Event", "Webhook", "State", "Attempts", "Last answer", "Updated"]}
        />
        <tbody>
          {log.answer.deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>{delivery.event}</td>
              <td>{delivery.webhook_name ?? "(deleted)"}</td>
              <td className={`webhooks__state webhooks__state--${delivery.state}`}>
                {STATE_WORDS[delivery.state]}
              </td>
              <td>{delivery.attempts}</td>
              <td>{lastAnswer(delivery)}</td>
              <td>
                <time dateTime={delivery.updated_at}>
                  {delivery.updated_at.slice(0, 19).replace("T", " ")}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="card__hint webhooks__kept">{`Kept ${log.answer.kept_days} days.`}</p>
    </section>
  );
}
