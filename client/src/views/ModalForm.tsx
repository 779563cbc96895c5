/**
 * A dialog that is one form: the Modal, its fields (children), and Cancel beside the submit button, which
 * reads `busyLabel` and is disabled while the action runs. Enter submits; `onSubmit` gets no event.
 */
import type { JSX } from "solid-js";
import { Modal } from "./Modal";

export function ModalForm(props: {
  title: string;
  testId?: string;
  danger?: boolean;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Skip the browser's own checks (the dialog says what is wrong itself). */
  novalidate?: boolean;
  /** Cancel takes the first focus (a destructive or yes/no dialog with no field to type in). */
  cancelFirst?: boolean;
  /** What it returns is not read (the dialog says what happened itself). */
  onSubmit: () => unknown;
  onClose: () => void;
  children: JSX.Element;
}) {
  return (
    <Modal title={props.title} onClose={props.onClose} testId={props.testId} danger={props.danger}>
      <form
        novalidate={props.novalidate}
        onSubmit={(e) => {
          e.preventDefault();
          void props.onSubmit();
        }}
      >
        {props.children}
        <div class="modal-actions">
          <button type="button" class="btn" data-autofocus={props.cancelFirst ? true : undefined} onClick={() => props.onClose()}>
            Cancel
          </button>
          <button type="submit" class={`btn ${props.danger ? "btn-danger" : "btn-primary"}`} disabled={props.busy}>
            {props.busy ? props.busyLabel : props.submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
