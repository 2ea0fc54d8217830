// Whether the app is hydrating a prerendered page right now (main.tsx says when it starts and the app
// says when its first commit is done). A render that would differ from the server's during hydration
// (say, from the URL's hash, which the server never sees) asks this and takes the server's path.

let hydrating = false;

export function startHydration(): void {
  hydrating = true;
}

export function endHydration(): void {
  hydrating = false;
}

export function isHydrating(): boolean {
  return hydrating;
}
