// The graphics harness page (graphics.html): every widget in either theme, for tests and benches.

import { StrictMode, useState } from "react";
import { createRoot } from "react-dom/client";
import "../styles.css";
import { GraphicsWidget } from "./graphics-widget";
import { SCENE_NAMES } from "./scene-names";

function Harness() {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? "cosmic");
  const toggle = () => {
    const next = theme === "void" ? "cosmic" : "void";
    document.documentElement.dataset.theme = next;
    setTheme(next);
  };
  return (
    <main style={{ padding: 24 }}>
      <h1>Graphics harness</h1>
      <button type="button" className="button" onClick={toggle}>
        Theme: {theme}
      </button>
      <div style={{ display: "flex", flexWrap: "wrap", gap: 24, marginTop: 24 }}>
        {SCENE_NAMES.map((scene) => (
          <GraphicsWidget key={scene} scene={scene} />
        ))}
      </div>
    </main>
  );
}

const root = document.getElementById("root");
if (!root) throw new Error("graphics.html has no #root element");
const params = new URLSearchParams(location.search);
if (params.get("theme") === "void") document.documentElement.dataset.theme = "void";
createRoot(root).render(
  <StrictMode>
    <Harness />
  </StrictMode>,
);
