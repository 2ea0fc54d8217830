// The command builder's section of a CLI docs page: its heading and introduction, and the builder's
// form fetched when the section nears the viewport.

import type { CliCatalogue, CliToolId } from "@common/catalogue-types";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { loadCatalogue, loadCommandBuilder } from "../page/load-page";
import { HeadingAnchor } from "../reference/cli-reference";
import "./builder-section.css";

export const builderHeadingId = "command-builder";

export type BuilderModule = Awaited<ReturnType<typeof loadCommandBuilder>>;

/**
 * The command builder's section. The heading and introduction are the page's own; the form is the
 * builder's chunk, fetched when the section comes within 400 px of the viewport (it always
 * follows the page's prose), so a first visit that never scrolls there does not download it. A page
 * opened on a hash has it already (`preloaded`), so nothing above the target grows after landing.
 */
export function BuilderSection({
  catalogue,
  tool,
  preloaded,
  eager = false,
}: {
  /** Absent while the page's reference is adopted from its prerendered HTML: loaded with the form. */
  catalogue: CliCatalogue | undefined;
  tool: CliToolId;
  preloaded: BuilderModule | undefined;
  /** Fetch the form at once (a prerendered page opened on a hash), not when the section nears the screen. */
  eager?: boolean;
}) {
  const section = useRef<HTMLElement>(null);
  const [builder, setBuilder] = useState(preloaded);
  const [loadedCatalogue, setLoadedCatalogue] = useState(catalogue);
  const [failed, setFailed] = useState(false);
  // Where the content after the section was on screen when the form arrived, if the reader was
  // past the section (scrolled or jumped beyond it): see the layout effect below.
  const followingTop = useRef<number | null>(null);
  // Set by Try again: its button goes with the error, so focus moves into the form when it arrives.
  const focusOnArrival = useRef(false);
  // The catalogue's invocation (mg, mg dmt, mg lsd); the same rule when it is not loaded yet.
  const invocation =
    loadedCatalogue?.tools.find((candidate) => candidate.id === tool)?.invocation ??
    (tool === "mg" ? "mg" : `mg ${tool}`);

  useEffect(() => {
    const element = section.current;
    if ((builder && loadedCatalogue) || failed || !element) return;
    let live = true;
    const load = () => {
      Promise.all([loadCommandBuilder(), loadedCatalogue ?? loadCatalogue(tool)]).then(
        ([loaded, data]) => {
          if (!live) return;
          // The reader is past the section (its start is above the screen and mostly what follows
          // it is on screen): keep what follows in place. Otherwise the form grows downwards.
          const following = element.nextElementSibling;
          const box = element.getBoundingClientRect();
          followingTop.current =
            following && box.top < 0 && box.bottom < window.innerHeight / 2
              ? following.getBoundingClientRect().top
              : null;
          setLoadedCatalogue(data);
          setBuilder(loaded);
        },
        () => live && setFailed(true),
      );
    };
    if (eager || typeof IntersectionObserver === "undefined") {
      load();
      return () => {
        live = false;
      };
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => {
      live = false;
      observer.disconnect();
    };
  }, [builder, loadedCatalogue, failed, tool, eager]);

  // The form is taller than the placeholder. When the reader is past the section, what they are
  // looking at would move down by the difference. Browsers with scroll anchoring keep it in place
  // only when the section is wholly above the screen (not after a jump to the heading just below it,
  // where the section's end still shows under the site bar), and Safari never does; so the page
  // scrolls by however far it actually moved (0 where the browser has already done it).
  useLayoutEffect(() => {
    const before = followingTop.current;
    followingTop.current = null;
    if (builder && focusOnArrival.current) {
      focusOnArrival.current = false;
      section.current?.querySelector<HTMLElement>("select, input, button")?.focus();
    }
    const following = section.current?.nextElementSibling;
    if (!builder || before === null || !following) return;
    const moved = following.getBoundingClientRect().top - before;
    if (moved !== 0) window.scrollBy(0, moved);
  }, [builder]);

  return (
    <section className="builder" aria-labelledby={builderHeadingId} ref={section}>
      <div className="heading-wrapper heading-wrapper--h2">
        <h2 id={builderHeadingId}>Command builder</h2>
        <HeadingAnchor id={builderHeadingId} text="Command builder" />
      </div>
      <p>
        Pick a <code>{invocation}</code> command and fill in what it needs; the builder checks each
        value against the command reference and writes the exact line to paste into your terminal.
      </p>
      {builder && loadedCatalogue ? (
        <builder.CommandBuilder catalogue={loadedCatalogue} tool={tool} />
      ) : failed ? (
        <div className="builder__failed" role="alert">
          <p>The command builder could not be loaded. Check your connection, then try again.</p>
          <button
            type="button"
            className="docs-button"
            onClick={() => {
              focusOnArrival.current = true;
              setFailed(false);
            }}
          >
            Try again
          </button>
        </div>
      ) : (
        // Both texts are in the prerendered page; CSS shows the second one only where no script ran
        // (index.html's inline script sets data-platform): the builder is a form that needs one.
        <p className="builder__waiting">
          <span className="builder__waiting--script">Loading the command builder…</span>
          <span className="builder__waiting--no-script">
            The command builder needs JavaScript; the command reference below lists every command.
          </span>
        </p>
      )}
    </section>
  );
}
