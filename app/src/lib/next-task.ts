/**
 * Resolves in a later task of the event loop, so the browser gets a turn (input, a frame) between
 * two pieces of work that would otherwise make one long task.
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
