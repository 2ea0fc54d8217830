// A command-line code block rendered in React, with the same markup and copy button as build-time ones.
import type { ReactNode } from "react";

const tokenPattern = /("[^"]*"|'[^']*'|<[^>]+>|\[[^\]]+\]|\s+|[^\s]+)/g;

/** Colours a single shell command line with highlight.js class names, so one theme styles both. */
export function highlightCommand(command: string): ReactNode[] {
  const tokens = command.match(tokenPattern) ?? [];
  let seenWord = false;
  return tokens.map((token, index) => {
    const key = `${index}-${token}`;
    if (/^\s+$/.test(token)) return token;
    let className: string | undefined;
    if (!seenWord && token === "mg") className = "hljs-built_in";
    else if (token.startsWith('"') || token.startsWith("'")) className = "hljs-string";
    else if (token.startsWith("<") || token.startsWith("[")) className = "hljs-variable";
    else if (token.startsWith("-")) className = "hljs-attr";
    seenWord = true;
    return className ? (
      <span key={key} className={className}>
        {token}
      </span>
    ) : (
      token
    );
  });
}

export function CodeBlock({ code, label = "sh" }: { code: string; label?: string }) {
  return (
    <div className="code-block">
      <div className="code-block__bar">
        <span className="code-block__lang">{label}</span>
        <button type="button" className="code-block__copy" aria-label="Copy code" data-copy-code="">
          Copy
        </button>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long line scrolls, so keyboard users must reach it */}
      <pre className="hljs" tabIndex={0}>
        <code className="hljs language-sh">{highlightCommand(code)}</code>
      </pre>
    </div>
  );
}
