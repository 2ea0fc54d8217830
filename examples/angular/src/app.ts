// The page of both applications: a component that owns a ThemeMachine in a signal and renders it,
// then the common check (the machines, a graphics buffer) and a click on the component's button,
// which Angular's change detection (zone.js's, or the signal's in a zoneless application) must
// carry to the DOM.
import {
  type ApplicationConfig,
  Component,
  DestroyRef,
  InjectionToken,
  afterNextRender,
  inject,
  provideBrowserGlobalErrorListeners,
  signal,
} from "@angular/core";
import { bootstrapApplication } from "@angular/platform-browser";
import { driveMachines, fillHypercube } from "../../common/check.mjs";
import { report } from "../../common/report.mjs";

interface Setup {
  core: typeof import("mg-core");
  graphics: typeof import("mg-core/graphics");
  /** Whether the application was built with zone.js (checked, so a lost polyfill fails). */
  zone: boolean;
}

const SETUP = new InjectionToken<Setup>("mg-core and how the application was built");

async function settle(what: string, test: () => boolean): Promise<void> {
  for (let tries = 0; tries < 100 && !test(); tries += 1) await new Promise((r) => setTimeout(r, 20));
  if (!test()) throw new Error(what);
}

@Component({
  selector: "app-root",
  template: `<button id="theme" type="button" (click)="toggle()">theme: {{ theme() }}</button>`,
})
class App {
  private readonly setup = inject(SETUP);
  private readonly machine = new this.setup.core.ThemeMachine(undefined);
  protected readonly theme = signal(this.machine.theme);

  constructor() {
    inject(DestroyRef).onDestroy(() => this.machine.free());
    afterNextRender(() => void report(() => this.check()));
  }

  protected toggle(): void {
    this.theme.set(this.machine.toggle());
  }

  private async check(): Promise<string[]> {
    const { core, graphics, zone } = this.setup;
    if ("Zone" in globalThis !== zone) throw new Error(`zone.js loaded: ${"Zone" in globalThis}, wanted ${zone}`);
    const button = document.querySelector<HTMLButtonElement>("#theme");
    if (button?.textContent !== "theme: cosmic") throw new Error(`rendered theme: ${button?.textContent}`);
    button.click();
    await settle(`the click did not reach the DOM: ${button.textContent}`, () => button.textContent === "theme: void");
    return [
      `angular (${zone ? "zone.js" : "zoneless"}): the component's ThemeMachine cosmic->void through a click`,
      driveMachines(core),
      fillHypercube(graphics),
    ];
  }
}

export function start(setup: Setup, providers: ApplicationConfig["providers"] = []): void {
  bootstrapApplication(App, {
    providers: [provideBrowserGlobalErrorListeners(), { provide: SETUP, useValue: setup }, ...providers],
  }).catch((error: unknown) => report(() => Promise.reject(error)));
}
