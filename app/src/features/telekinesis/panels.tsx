// The four Telekinesis tab panels: mostly static explanations (spec 2.6), the lsd tab's demo counters.
import { docsDefaultPath, docsPath, paths } from "@common/routes";
import { Link } from "react-router-dom";
import { useTelekinesisCounters } from "../../lib/wasm/use-telekinesis-counters";

function Command({ children }: { children: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <pre className="tk-code" tabIndex={0}>
      <code>{children}</code>
    </pre>
  );
}

export function OverviewPanel() {
  return (
    <>
      <h2>An event-driven task queue</h2>
      <p>
        Telekinesis moves work out of the request that asked for it. A web request that would
        otherwise wait on a slow job, such as resizing an image, sending a batch of emails or
        calling a flaky partner API, drops a message on a queue and answers at once. Workers pick
        the message up, do the job and record the result. Nobody waits, and a burst of traffic
        becomes a longer queue instead of a slower site.
      </p>
      <ol className="tk-flow" aria-label="How a task travels">
        <li>
          <strong>Producer</strong>
          <span>Your app or a schedule sends a small message: what to do, with which data.</span>
        </li>
        <li>
          <strong>Queue</strong>
          <span>Holds messages durably until a worker is free; nothing is lost on a restart.</span>
        </li>
        <li>
          <strong>Worker</strong>
          <span>A serverless function started for each batch; more messages, more workers.</span>
        </li>
        <li>
          <strong>Result</strong>
          <span>Written to the edge database, where your app reads it back.</span>
        </li>
      </ol>
      <h3>What the queue takes care of</h3>
      <ul className="tk-points">
        <li>
          <strong>Retries.</strong> A worker that fails leaves the message on the queue; it comes
          back after a visibility timeout and is tried again.
        </li>
        <li>
          <strong>Dead letters.</strong> After a fixed number of failed attempts a message is set
          aside for inspection instead of blocking the queue forever.
        </li>
        <li>
          <strong>Schedules.</strong> Recurring jobs are just messages that a scheduler sends on a
          timetable, so they share the same workers, retries and logs.
        </li>
        <li>
          <strong>At-least-once delivery.</strong> A message can arrive twice, so workers are
          written to be idempotent: doing the same job twice leaves the same result.
        </li>
      </ul>
    </>
  );
}

export function LsdPanel() {
  return (
    <>
      <h2>LSD: the serverless pieces</h2>
      <p>
        LSD deploys Telekinesis into your own AWS account. There is no server to size or patch:
        every piece scales on demand and costs nothing while idle.
      </p>
      <dl className="tk-pieces">
        <div>
          <dt>Lambda functions</dt>
          <dd>The workers. Each one runs your handler for a batch of messages and then stops.</dd>
        </div>
        <div>
          <dt>Queue</dt>
          <dd>The buffer between producers and workers, with retries and a dead-letter queue.</dd>
        </div>
        <div>
          <dt>Scheduler</dt>
          <dd>Cron-like rules that send messages on a timetable: nightly reports, hourly syncs.</dd>
        </div>
        <div>
          <dt>Edge database</dt>
          <dd>Key-value storage replicated close to your users, for results and task state.</dd>
        </div>
      </dl>
      <DemoCounters />
      <h3>Deploy it</h3>
      <p>
        <code>mg lsd drop</code> creates a deployment and prints its id; the other commands take
        that id.
      </p>
      <Command>{"mg lsd drop jobs\nmg lsd health lsd-7f3a2c\nmg lsd logs lsd-7f3a2c"}</Command>
      <p>
        Every command is in the <Link to={docsPath("lsd")}>LSD command reference</Link>.
      </p>
    </>
  );
}

function DemoCounters() {
  const { counters, label } = useTelekinesisCounters();
  const items = [
    ["Functions deployed", counters?.functionsDeployed],
    ["Invocations per minute", counters?.invocationsPerMinute],
    ["Messages queued", counters?.messagesQueued],
    ["Average latency", counters ? `${counters.avgLatencyMs} ms` : undefined],
  ] as const;
  return (
    <section className="tk-demo" aria-labelledby="tk-demo-heading">
      <div className="tk-demo__head">
        <h3 id="tk-demo-heading">LSD at a glance</h3>
        <span className="tk-demo__badge" data-testid="demo-label">
          {label}
        </span>
      </div>
      <p className="tk-demo__note">
        These numbers are generated in your browser every 3 seconds to show what the dashboard looks
        like. They are not measurements of a real deployment.
      </p>
      <dl className="tk-demo__grid" data-testid="demo-counters">
        {items.map(([name, value]) => (
          <div key={name} className="tk-demo__item">
            <dt>{name}</dt>
            <dd>{value ?? "—"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function IntegrationPanel() {
  return (
    <>
      <h2>Sending work from your app</h2>
      <p>
        An Apotheosis deployment (React, Express and PostgreSQL on your own machine) hands slow work
        to Telekinesis with one HTTP call from its server. The queue's address is given to the build
        as <code>VITE_TELEKINESIS_QUEUE_URL</code>; when it is set, the landing page's Telekinesis
        card and the <Link to={paths.status}>status page</Link> report the queue too.
      </p>
      <Command>
        {`// In an Express route: answer now, let a worker do the job.
app.post("/api/reports", async (req, res) => {
  await fetch(process.env.TELEKINESIS_QUEUE_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ task: "build-report", userId: req.user.id }),
  });
  res.status(202).json({ queued: true });
});`}
      </Command>
      <h3>Good habits</h3>
      <ul className="tk-points">
        <li>
          <strong>Keep messages small.</strong> Send ids, not files; the worker fetches what it
          needs.
        </li>
        <li>
          <strong>Answer 202 Accepted.</strong> The request was taken, not finished; show progress
          by reading the result back.
        </li>
        <li>
          <strong>Make handlers idempotent.</strong> Use the task id as a key so a retried message
          does not do the work twice.
        </li>
      </ul>
    </>
  );
}

export function EspPanel() {
  return (
    <>
      <h2>ESP: static sites behind a CDN</h2>
      <p>
        Not everything needs a server. ESP publishes a built site (HTML, CSS, JavaScript and assets)
        to object storage in your AWS account and puts a CDN in front of it, so pages are served
        from a location close to each visitor.
      </p>
      <ul className="tk-points">
        <li>
          <strong>Object storage</strong> holds the files; there is no process to crash or patch.
        </li>
        <li>
          <strong>The CDN</strong> caches them at the edge and terminates HTTPS for your domain.
        </li>
        <li>
          <strong>Hashed asset names</strong> can be cached for a year; the HTML stays short-lived
          so a new release shows up at once.
        </li>
        <li>
          <strong>Pair it with LSD</strong> when a static site needs a little backend: a form that
          queues an email, a nightly rebuild on a schedule.
        </li>
      </ul>
      <p>Build the site, then from the project directory:</p>
      <Command>mg esp manifest</Command>
      <p>
        More in the <Link to={docsDefaultPath}>documentation</Link>.
      </p>
    </>
  );
}
