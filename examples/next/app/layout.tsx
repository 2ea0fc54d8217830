// The root layout (a server component): the stored theme applied before first paint by
// mg-core/react's `themeScript`, so the server's HTML never flashes the other theme.
import { themeScript } from "mg-core/react";
import type { ReactNode } from "react";

export const metadata = { title: "mg-core with Next.js" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The script sets data-theme on <html> before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of the package */}
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
