// mg-core/react: React bindings for the machines of every mg-core entry. Nothing here imports a
// .wasm: the caller passes the classes (from "mg-core", "mg-core/web", "mg-core/status", ...), so this
// module runs on a server, in a test, and in a bundle that loads the wasm later.
//
// A machine store owns at most one machine at a time: made when the component mounts (or at its
// first use, for a machine whose wasm a page may never load), freed when it unmounts, so StrictMode's
// mount, unmount, mount makes and frees one machine per mount. After each event it re-reads the
// machine's snapshot and keeps one timer at the machine's `nextDeadline()`. React reads the snapshot
// through `useSyncExternalStore`: the first render, the server's render and hydration all read the
// same initial snapshot (`getServerSnapshot`), so server-rendered HTML always hydrates.
import { useCallback, useEffect, useState, useSyncExternalStore } from "react";

// A closure rather than a class: closure variables minify to single letters where fields keep names.
export function machineStore(first) {
  const initial = first.initial();
  let snapshot = initial;
  let machine = null;
  let mounted = false;
  // What the snapshot was read at: the machine's version (undefined: nothing read yet from the
  // machine owned now), or the snapshot's JSON.
  let key = first.version ? undefined : JSON.stringify(initial);
  let timer;
  const listeners = new Set();

  /** Re-reads what the machine says changed; true when the snapshot was replaced. */
  const refresh = (owned) => {
    const { version, read } = store.spec;
    if (version) {
      const next = version(owned);
      if (next === key) return false;
      const previous = key === undefined ? undefined : snapshot;
      key = next;
      snapshot = read(owned, previous);
      return true;
    }
    const next = read(owned, snapshot);
    const json = JSON.stringify(next);
    if (json === key) return false;
    key = json;
    snapshot = next;
    return true;
  };

  const store = {
    spec: first,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    getServerSnapshot: () => initial,
    mount: () => {
      mounted = true;
      if (!store.spec.onDemand) store.open();
      return () => {
        mounted = false;
        clearTimeout(timer);
        timer = undefined;
        const owned = machine;
        machine = null;
        owned?.free();
      };
    },
    open: () => {
      if (!mounted) return null;
      if (!machine) {
        const made = store.spec.create();
        machine = made;
        if (store.spec.version) key = undefined;
        store.spec.start?.(made, store);
        store.sync();
      }
      return machine;
    },
    act: (event) => {
      const owned = store.open();
      return owned ? store.answer(owned, event) : undefined;
    },
    answer: (owned, event) => {
      if (machine !== owned) return undefined;
      const result = event(owned);
      store.sync();
      return result;
    },
    sync: () => {
      const owned = machine;
      if (!owned) return;
      if (refresh(owned)) for (const listener of listeners) listener();
      clearTimeout(timer);
      timer = undefined;
      const at = owned.nextDeadline?.();
      if (at === undefined) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          if (machine !== owned) return;
          store.spec.due?.(owned, Date.now(), store);
          store.sync();
        },
        Math.max(0, at - Date.now()),
      );
    },
  };
  return store;
}

export function useMachineStore(spec, deps = []) {
  // A plain object (no wasm) made once per component; the machine itself is made by the effect.
  const [store] = useState(() => machineStore(spec));
  store.spec = spec;
  // `deps`: what the caller says re-makes the machine (its constructor's arguments).
  useEffect(() => store.mount(), [store, ...deps]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getServerSnapshot);
  return { snapshot, store };
}

export function readOnce(machine, read) {
  try {
    return read(machine);
  } finally {
    machine.free();
  }
}

// The theme. The wasm cannot load before first paint, so the page applies the stored theme with this
// one line of JavaScript, inline in the <head> (ThemeMachine's reading rule: only "void" is void); the
// machine owns the theme from then on. The matrix runs it against the machine for every stored value.
export const themeScript =
  'try{document.documentElement.dataset.theme=localStorage.getItem("theme")==="void"?"void":"cosmic"}catch(e){}';

function readStored(key) {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    // Storage can be blocked (privacy settings); the theme then lives for this page only.
    return undefined;
  }
}

function apply(key, theme) {
  document.documentElement.dataset.theme = theme;
  try {
    window.localStorage.setItem(key, theme);
  } catch {
    // See readStored.
  }
}

// A page may hold several useTheme hooks (a header's toggle and a menu's): a toggle in one tells the
// others through this event on window, as the `storage` event tells the other tabs.
const THEME_EVENT = "mg-core:theme";

export function useTheme(ThemeMachine) {
  const key = ThemeMachine.storageKey();
  const { snapshot: theme, store } = useMachineStore({
    create: () => new ThemeMachine(readStored(key)),
    read: (machine) => machine.theme,
    initial: () => undefined,
    // What is stored now, which another tab may have changed since the <head> script read it.
    start: (machine) => {
      document.documentElement.dataset.theme = machine.theme;
    },
  });
  useEffect(() => {
    const follow = (stored) => {
      const next = store.act((machine) => machine.sync(stored ?? undefined));
      if (next) document.documentElement.dataset.theme = next;
    };
    const onStorage = (event) => {
      if (event.key === key) follow(event.newValue);
    };
    const onPage = (event) => {
      if (event.detail?.key === key) follow(event.detail.theme);
    };
    window.addEventListener("storage", onStorage);
    window.addEventListener(THEME_EVENT, onPage);
    return () => {
      window.removeEventListener("storage", onStorage);
      window.removeEventListener(THEME_EVENT, onPage);
    };
  }, [store, key]);
  const toggle = useCallback(() => {
    const next = store.act((machine) => machine.toggle());
    if (next) {
      apply(key, next);
      window.dispatchEvent(new CustomEvent(THEME_EVENT, { detail: { key, theme: next } }));
    }
  }, [store, key]);
  return { theme, toggle };
}
