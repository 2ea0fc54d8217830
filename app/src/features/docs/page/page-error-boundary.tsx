// Catches a docs page chunk that fails to load (offline, or a deploy replaced its hash) and says so.
import { Component, type ReactNode } from "react";

type Props = {
  children: ReactNode /** A new key (the next page) clears the error. */;
  resetKey: string;
};
type State = { failedKey: string | null };

export class PageErrorBoundary extends Component<Props, State> {
  state: State = { failedKey: null };

  static getDerivedStateFromError(): Partial<State> {
    return { failedKey: "pending" };
  }

  componentDidCatch() {
    this.setState({ failedKey: this.props.resetKey });
  }

  render() {
    const { failedKey } = this.state;
    if (failedKey === null || (failedKey !== "pending" && failedKey !== this.props.resetKey)) {
      return this.props.children;
    }
    return (
      <div className="docs-load-error" role="alert">
        <p>This page could not be loaded. Check your connection, then reload the page.</p>
        <button type="button" className="docs-button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
