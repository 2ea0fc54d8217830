import { render, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { GraphicsWidget } from "./graphics-widget";

describe("GraphicsWidget", () => {
  it("reserves its box at once and hides itself from assistive technology", () => {
    const { container } = render(<GraphicsWidget scene="hypercube" size={180} />);
    const box = container.querySelector<HTMLElement>(".graphics-widget");
    expect(box?.getAttribute("aria-hidden")).toBe("true");
    expect(box?.style.width).toBe("180px");
    expect(box?.style.height).toBe("180px");
    expect(box?.dataset.scene).toBe("hypercube");
    expect(box?.querySelector("canvas")).not.toBeNull();
  });

  it("defaults to a 250 px box", () => {
    const { container } = render(<GraphicsWidget scene="icosahedron" />);
    expect(container.querySelector<HTMLElement>(".graphics-widget")?.style.width).toBe("250px");
  });

  it("falls back to the static picture without WebGL2, without throwing", async () => {
    const getContext = vi
      .spyOn(HTMLCanvasElement.prototype, "getContext")
      .mockReturnValue(null as never);
    const { container } = render(<GraphicsWidget scene="molecule" />);
    const box = container.querySelector<HTMLElement>(".graphics-widget");
    await waitFor(() => expect(box?.dataset.graphics).toBe("fallback"), { timeout: 5_000 });
    expect(getContext).toHaveBeenCalledWith("webgl2", expect.anything());
  });
});
