import { useParams } from "react-router-dom";
import { useDocumentTitle } from "../../components/document-title";

/** Stand-in for a screen that later issues build; titled by its route. */
export function PlaceholderPage({ title, note }: { title: string; note: string }) {
  const params = useParams();
  const detail = params.subtab ?? params.tab;
  const heading = detail ? `${title}: ${detail}` : title;
  useDocumentTitle(heading);
  return (
    <main id="main" className="page">
      <h1>{heading}</h1>
      <p className="page__lead">{note}</p>
    </main>
  );
}
