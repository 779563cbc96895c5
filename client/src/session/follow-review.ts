/**
 * Issue 28 #3: a review on screen follows the session's `review` frames. When the version the socket heard
 * moves (another viewer added, removed or sent comments), the list is read again; only the latest answer is
 * applied (an older one arriving late is dropped), and a failed read leaves the list as it was.
 */
import { createEffect, on } from "solid-js";
import type { ReviewComment } from "../../../shared/review-message";

export function followReview(version: () => number, load: () => Promise<ReviewComment[]>, apply: (comments: ReviewComment[]) => void): void {
  let asked = 0;
  createEffect(
    on(
      version,
      () => {
        const n = ++asked;
        load().then(
          (comments) => {
            if (n === asked) apply(comments);
          },
          () => {},
        );
      },
      // The list was read when the view opened: only later moves read it again.
      { defer: true },
    ),
  );
}
