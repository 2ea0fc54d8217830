// /telekinesis: the showcase. The selected tab lives in the query string (?tab=lsd) so it can be
// linked and survives a reload; the overview, the default, keeps the address clean.
import { useSearchParams } from "react-router-dom";
import { usePageMeta } from "../../components/document-title";
import { EspPanel, IntegrationPanel, LsdPanel, OverviewPanel } from "./panels";
import { type TabSpec, Tabs } from "./tabs";
import "./telekinesis.css";
import { GraphicsWidget } from "../../graphics/graphics-widget";

const tabs = [
  { id: "overview", label: "Overview", panel: OverviewPanel },
  { id: "lsd", label: "LSD", panel: LsdPanel },
  { id: "integration", label: "Integration", panel: IntegrationPanel },
  { id: "esp", label: "ESP", panel: EspPanel },
] as const satisfies readonly TabSpec<string>[];

type TabId = (typeof tabs)[number]["id"];

function tabFrom(value: string | null): TabId {
  return tabs.find((tab) => tab.id === value)?.id ?? "overview";
}

export function TelekinesisPage() {
  usePageMeta(
    "Telekinesis",
    "Telekinesis, the event-driven task queue: serverless workers with LSD and static sites with ESP.",
  );
  const [params, setParams] = useSearchParams();
  const selected = tabFrom(params.get("tab"));
  const select = (id: TabId) => {
    const next = new URLSearchParams(params);
    if (id === "overview") next.delete("tab");
    else next.set("tab", id);
    setParams(next, { replace: true });
  };
  return (
    <main id="main" className="page telekinesis">
      <div className="page-intro">
        <div>
          <p className="eyebrow">Showcase</p>
          <h1>Telekinesis</h1>
          <p className="page__lead">
            Work that moves itself: an event-driven task queue, serverless workers deployed with
            LSD, and static sites published with ESP.
          </p>
        </div>
        <GraphicsWidget scene="molecule" size={200} className="page-intro__art" />
      </div>
      <Tabs label="Telekinesis topics" tabs={tabs} selected={selected} onSelect={select} />
    </main>
  );
}
