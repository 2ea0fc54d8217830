// A route handler: the answer the Wisdom machine expects, checked on the server with the machine
// itself before it is sent.
import { WisdomMachine } from "mg-core";

const body = JSON.stringify({ wisdom: { quote: "Know thyself.", orator: "Socrates" } });

export function POST(): Response {
  const check = new WisdomMachine();
  try {
    check.click();
    check.answered(200, body, Date.now());
    if (check.snapshot().status !== "success") return new Response("bad answer", { status: 500 });
  } finally {
    check.free();
  }
  return new Response(body, { headers: { "content-type": "application/json" } });
}
