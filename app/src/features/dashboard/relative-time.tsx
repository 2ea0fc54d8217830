// The account page's times: every exact time through one formatter (`formatWhen`, in the reader's
// locale, to the second), and a past moment as people say it ("5 minutes ago") with the exact time
// on hover and on keyboard focus, read out to screen readers. Pure presentation: the wording is
// the browser's own (Intl, in the reader's language), so it adds nothing to the wasm core.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** `iso` relative to `now`: "just now" under a minute, else the largest whole unit. */
export function relativeTo(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(seconds)) return iso;
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return words.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/**
 * The one formatter of the account page's times. Dates arrive as ISO text or unix seconds (or
 * milliseconds); shown in the reader's locale, raw if unreadable, undefined when absent.
 */
export function formatWhen(value: string | number | null | undefined): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  const date =
    typeof value === "number" ? new Date(value < 1e12 ? value * 1000 : value) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  const exact = formatWhen(iso) ?? iso;
  return (
    // Focusable so keyboard users see the exact time too; the tooltip is CSS (hover and focus).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a focus stop that reveals the exact time
    <time className="relative-time" dateTime={iso} tabIndex={0} data-exact={exact}>
      {relativeTo(iso, now)}
      <span className="visually-hidden"> ({exact})</span>
    </time>
  );
}
