/** "99.98%" (up to two decimals, no trailing zeros), or undefined without a figure. */
export function formatUptime(uptime: number | null | undefined): string | undefined {
  if (uptime === null || uptime === undefined || !Number.isFinite(uptime)) return undefined;
  // Floor, not round: 99.996% must not read as a perfect 100%.
  const floored = Math.floor(uptime * 100) / 100;
  return `${Number(floored.toFixed(2))}%`;
}
