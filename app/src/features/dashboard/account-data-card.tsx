// "Your data": download everything mg-web stores about the person (POST /api/auth/export, its format
// in docs/data-export.md), or delete the mg-web account after a confirmation that says what goes and
// that the identity provider's account is separate (POST /api/auth/delete-account).

import type { DataExport, DeleteAnswer } from "@common/http-types";
import { paths } from "@common/routes";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { Card } from "../../components/card";
import { apiCall } from "../../lib/api-client";
import { useSession } from "../../lib/session/session-context";
import { ConfirmDialog } from "./confirm-dialog";
import { messageOf } from "./use-answer";

/** The name the downloaded file is saved under. */
export const EXPORT_FILE_NAME = "mg-web-data.json";

/** Saves `text` as a file through a temporary link (the answer needs the bearer token to fetch). */
function saveFile(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Its buttons wait for `signedIn` (the page's frame has no session to ask with). */
export function AccountDataCard({ signedIn }: { signedIn: boolean }) {
  const [exportState, setExportState] = useState<{ busy: boolean; message?: string; ok?: boolean }>(
    { busy: false },
  );
  const [confirming, setConfirming] = useState(false);

  const download = async () => {
    setExportState({ busy: true, message: "Preparing your data..." });
    try {
      const data = await apiCall<DataExport>("/api/auth/export", { method: "POST", auth: true });
      saveFile(`${JSON.stringify(data, null, 2)}\n`, EXPORT_FILE_NAME);
      setExportState({ busy: false, ok: true, message: `Downloaded ${EXPORT_FILE_NAME}.` });
    } catch (error) {
      setExportState({ busy: false, ok: false, message: messageOf(error) });
    }
  };

  return (
    <Card id="data-title" title="Your data" className="dashboard__card">
      <p className="card__hint">
        Download a JSON file of everything mg-web stores about you: your profile and your sessions
        with their times. Or delete your mg-web account and all of it.
      </p>
      <div className="dashboard__actions">
        <button
          type="button"
          className="button"
          disabled={!signedIn || exportState.busy}
          onClick={() => void download()}
        >
          Download my data
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={!signedIn}
          onClick={() => setConfirming(true)}
        >
          Delete my mg-web account
        </button>
      </div>
      <p
        role="status"
        className={`account-data__result${exportState.ok === false ? " dashboard__error" : ""}`}
      >
        {exportState.message}
      </p>
      {confirming && <DeleteDialog onClose={() => setConfirming(false)} />}
    </Card>
  );
}

function DeleteDialog({ onClose }: { onClose: () => void }) {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const confirm = async () => {
    setBusy(true);
    setFailure(undefined);
    const remove = () =>
      apiCall<DeleteAnswer>("/api/auth/delete-account", {
        method: "POST",
        auth: true,
        body: { confirm: true },
      });
    try {
      if (session.deleteAccount) await session.deleteAccount(remove);
      else {
        await remove();
        await session.logout();
      }
    } catch (error) {
      setBusy(false);
      setFailure(messageOf(error));
      return;
    }
    navigate(paths.landing);
  };

  return (
    <ConfirmDialog
      title="Delete your mg-web account?"
      confirm="Delete my account"
      busyLabel="Deleting..."
      busy={busy}
      failure={failure}
      onConfirm={() => void confirm()}
      onClose={onClose}
    >
      <p>This deletes, for good:</p>
      <ul>
        <li>your mg-web profile: display name, e-mail, login provider and dates;</li>
        <li>
          every session: every sign-in your browsers and devices hold is refused from then on.
        </li>
      </ul>
      <p>
        Your account with the identity provider (the service you sign in with) is separate and
        stays. Signing in again later starts a new, empty mg-web account, and so may, on its own, a
        browser marked "Can sign back in on its own" in your session list.
      </p>
    </ConfirmDialog>
  );
}
