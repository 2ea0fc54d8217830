// The server's render, written out (React Router's own needs @react-router/node in this folder's
// package.json, and the fixtures share examples/'s): streamed whole, loader data included, which
// the client's hydration waits for.
import { PassThrough, Readable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter } from "react-router";

export default function handleRequest(request, status, headers, context) {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(<ServerRouter context={context} url={request.url} />, {
      onAllReady() {
        const body = new PassThrough();
        headers.set("Content-Type", "text/html");
        resolve(new Response(Readable.toWeb(body), { status, headers }));
        pipe(body);
      },
      onShellError: reject,
    });
  });
}
