// The /bench page's "This browser" panel: isolation, the timer's step and wasm SIMD, as measured.
import type { Environment } from "./use-bench";

export function BenchEnvironment({ env }: { env: Environment | null }) {
  return (
    <section className="bench__panel" aria-labelledby="bench-env">
      <h2 id="bench-env">This browser</h2>
      <dl className="bench__env">
        <div>
          <dt>Cross-origin isolated</dt>
          <dd data-testid="bench-isolated">
            {env ? (env.isolated ? "Yes" : "No: timings are coarse") : "Checking…"}
          </dd>
        </div>
        <div>
          <dt>Timer step</dt>
          <dd>{env ? `${env.timerStepUs.toFixed(1)} µs` : "Checking…"}</dd>
        </div>
        <div>
          <dt>Wasm SIMD</dt>
          <dd data-testid="bench-simd">
            {env
              ? env.simd
                ? "Supported: the widgets use the SIMD build"
                : "Not supported: the widgets use the scalar build"
              : "Checking…"}
          </dd>
        </div>
      </dl>
      <p className="bench__note">
        Why can one wasm call per operation lose to plain JavaScript? Not because of the call
        itself, which the results time on its own (“call with no arguments”) and working in place in
        wasm memory (“per op, in place”): a copying call also allocates wasm memory for its arrays,
        copies them in and its result out into a new array, and frees them. Batched or zero-copy
        calls pay that once for thousands of points, which is where wasm and SIMD win; the widgets
        keep their buffers in wasm memory and read them through views.
      </p>
    </section>
  );
}
