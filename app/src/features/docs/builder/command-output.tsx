// The command builder's result: the built line, highlighted, with its copy button; or, while a field
// is missing or wrong, what is left to do.
import type { BuildResult } from "./command-line";

function CommandPreview({ words, prefixLength }: { words: string[]; prefixLength: number }) {
  return (
    <code className="hljs">
      {words.map((word, index) => {
        const className =
          index === 0
            ? "hljs-built_in"
            : index < prefixLength
              ? undefined
              : word.startsWith("--")
                ? "hljs-attr"
                : "hljs-string";
        return (
          <span key={index}>
            {index > 0 ? " " : null}
            <span className={`builder-output__word${className ? ` ${className}` : ""}`}>
              {word}
            </span>
          </span>
        );
      })}
    </code>
  );
}

function fieldLabel(key: string): string {
  return key.startsWith("arg:") ? `<${key.slice(4)}>` : key;
}

export function CommandOutput({
  result,
  prefixLength,
  copied,
  onCopy,
}: {
  result: BuildResult;
  /** Words of the tool's invocation and the command's name (not highlighted as values). */
  prefixLength: number;
  copied: boolean;
  onCopy: () => void;
}) {
  return (
    <div className="builder-output">
      <p className="builder-output__title">Your command</p>
      {result.ok ? (
        <div className="builder-output__line">
          {/* Wraps instead of scrolling, so the whole command is visible at any width. */}
          <pre className="hljs builder-output__code" data-testid="built-command">
            <CommandPreview words={result.words} prefixLength={prefixLength} />
          </pre>
          <button type="button" className="docs-button docs-button--primary" onClick={onCopy}>
            {copied ? "Copied" : "Copy command"}
          </button>
        </div>
      ) : (
        <div className="builder-output__pending">
          <p>No command yet. To get one:</p>
          <ul>
            {Object.entries(result.errors).map(([key, error]) => (
              <li key={key}>
                <code>{fieldLabel(key)}</code>: {error}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
