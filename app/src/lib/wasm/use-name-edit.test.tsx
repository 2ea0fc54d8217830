import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { advance, fakeClockWithToken } from "@/testing/clock";
import { mockFetch } from "@/testing/network";
import { useNameEdit } from "./use-name-edit";

// Real wasm NameEditMachine; only fetch (the network boundary) is mocked.
describe("useNameEdit", () => {
  fakeClockWithToken("session-token");

  async function editing(draft: string) {
    const hook = renderHook(() => useNameEdit("Ada"));
    await advance(0);
    act(() => hook.result.current.edit());
    act(() => hook.result.current.input(draft));
    return hook;
  }

  it("refuses a blank name with 'Name cannot be empty' and sends nothing", async () => {
    const calls = mockFetch({});
    const { result } = await editing("   ");
    act(() => result.current.key("Enter"));
    expect(result.current.snapshot.notice?.text).toBe("Name cannot be empty");
    expect(result.current.snapshot.mode).toBe("editing");
    expect(calls).toHaveLength(0);
    await advance(4_999);
    expect(result.current.snapshot.notice?.text).toBe("Name cannot be empty");
    await advance(1);
    expect(result.current.snapshot.notice).toBeNull();
  });

  it("refuses an invisible name as empty and a bidi override with its own message, sending nothing", async () => {
    const calls = mockFetch({});
    const invisible = await editing("\u200B\uFEFF\u2060");
    act(() => invisible.result.current.key("Enter"));
    expect(invisible.result.current.snapshot.notice?.text).toBe("Name cannot be empty");
    const steering = await editing("Ada\u202Eecalevol");
    act(() => steering.result.current.key("Enter"));
    expect(steering.result.current.snapshot.notice?.text).toBe(
      "Name cannot contain text-direction override or isolate characters",
    );
    expect(steering.result.current.snapshot.mode).toBe("editing");
    expect(calls).toHaveLength(0);
  });

  it("Enter saves the trimmed name with the bearer token; the success message clears at 3 000 ms", async () => {
    const calls = mockFetch({
      "/api/auth/update-profile": { status: 200, body: { data: { name: "Grace" } } },
    });
    const { result } = await editing("  Grace  ");
    act(() => result.current.key("Enter"));
    expect(result.current.snapshot.mode).toBe("saving");
    await advance(0);
    expect(calls[0]).toMatchObject({
      method: "POST",
      body: { name: "Grace" },
      authorization: "Bearer session-token",
    });
    expect(result.current.snapshot).toMatchObject({ mode: "view", name: "Grace" });
    expect(result.current.snapshot.notice?.kind).toBe("success");
    await advance(2_999);
    expect(result.current.snapshot.notice).not.toBeNull();
    await advance(1);
    expect(result.current.snapshot.notice).toBeNull();
  });

  it("shows the server's error for 5 s", async () => {
    mockFetch({
      "/api/auth/update-profile": {
        status: 400,
        body: { error: "Name is too long", code: "invalid_name" },
      },
    });
    const { result } = await editing("Grace");
    act(() => result.current.save());
    await advance(0);
    expect(result.current.snapshot.notice).toEqual({ kind: "error", text: "Name is too long" });
    expect(result.current.snapshot.mode).toBe("editing");
    await advance(4_999);
    expect(result.current.snapshot.notice?.text).toBe("Name is too long");
    await advance(1);
    expect(result.current.snapshot.notice).toBeNull();
  });

  it("shows the API client's network message when the server is unreachable", async () => {
    mockFetch({ "/api/auth/update-profile": "network" });
    const { result } = await editing("Grace");
    act(() => result.current.save());
    await advance(0);
    expect(result.current.snapshot.notice?.text).toBe(
      "Network error - please check your connection",
    );
  });

  it("says 'Failed to update name' when the failure has no message", async () => {
    mockFetch({ "/api/auth/update-profile": { status: 200, body: "{broken" } });
    const { result } = await editing("Grace");
    act(() => result.current.save());
    await advance(0);
    expect(result.current.snapshot.notice?.text).toBe("Failed to update name");
  });

  it("Escape cancels and keeps the stored name", async () => {
    mockFetch({});
    const { result } = await editing("Grace");
    act(() => result.current.key("Escape"));
    expect(result.current.snapshot).toMatchObject({ mode: "view", name: "Ada", draft: "" });
  });
});
