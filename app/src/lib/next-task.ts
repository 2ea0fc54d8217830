/**
 * Resolves in a later task of the event loop, so the browser gets a turn (input, a frame) between
 * two pieces of work that would otherwise make one long task. A message to itself, as React's
 * scheduler yields: no timer (nothing clamps it to 4 ms, and a page's timers stay its own).
 */
export const nextTask = (): Promise<void> =>
  new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
