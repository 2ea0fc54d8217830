// The site's footer; on a server that runs its identity emulator on purpose (IDENTITY_EMULATOR=on)
// it also says, visibly, that anyone can sign in there.
import { paths } from "@common/routes";
import { useState } from "react";
import { type InjectedConfig, readRuntimeConfig } from "../config/runtime-config";

export function SiteFooter({
  readConfig = readRuntimeConfig,
}: {
  readConfig?: () => InjectedConfig;
}) {
  // Read in the first render: the build prerenders the emulator's pages as their own variant
  // (`emulator-*`, common/variant.ts), so the marker is in the HTML from the start and never appears
  // after paint. Without sign-in (sanctified off) nobody signs in anywhere, so there is no marker.
  const [emulator] = useState(() => {
    const config = readConfig();
    return config.identityEmulator === true && config.sanctified !== false;
  });
  return (
    <footer className="site-footer">
      <p>mg · deploy full-stack apps, functions and static sites into your own cloud account.</p>
      {/* A plain link, never a client-side navigation: the bench is sent cross-origin isolated
          (`pages.bench.isolated`), which only a document the server sends can be. Its text is
          short: the footer is on every page's first visit. */}
      <p>
        <a href={paths.bench}>Graphics bench</a>
      </p>
      {emulator && (
        <p className="site-footer__emulator">
          <strong>Local identity emulator</strong>: sign-in on this server is simulated; anyone can
          sign in as any e-mail address. Not for production.
        </p>
      )}
    </footer>
  );
}
