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
        Why can one wasm call per operation lose to plain JavaScript? Each call across the boundary
        copies its arrays into wasm memory and its result back out, and that copying costs more than
        the dozen multiplications it wraps; batched or zero-copy calls pay it once for thousands of
        points, which is where wasm and SIMD win.
      </p>
    </section>
  );
}
