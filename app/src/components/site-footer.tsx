// The site's footer; on a server that runs its identity emulator on purpose (IDENTITY_EMULATOR=on)
// it also says, visibly, that anyone can sign in there.
import { useEffect, useState } from "react";
import { type RuntimeConfig, readRuntimeConfig } from "../config/runtime-config";

export function SiteFooter({
  readConfig = readRuntimeConfig,
}: {
  readConfig?: () => RuntimeConfig;
}) {
  const [emulator, setEmulator] = useState(false);
  // Read after hydration: the prerendered HTML carries no runtime config, so the first render
  // must not depend on it.
  useEffect(() => setEmulator(readConfig().identityEmulator === true), [readConfig]);
  return (
    <footer className="site-footer">
      <p>mg · deploy full-stack apps, functions and static sites into your own cloud account.</p>
      {emulator && (
        <p className="site-footer__emulator">
          <strong>Local identity emulator</strong>: sign-in on this server is simulated; anyone can
          sign in as any e-mail address. Not for production.
        </p>
      )}
    </footer>
  );
}
