import { enterFromCard } from "~/services/raffles/game-actions.server";
import { CARD_ANSWER, type CardEntryAnswer } from "~/shared/card-answer";
import { requireSessionToken } from "./auth.server";
import { enteredToast } from "./game-toasts";
import { uuidParam } from "./http.server";
import { pageAction } from "./page-action.server";

/**
 * A raffle card's "Enter" (regular or quick). A plain form, with JavaScript off, goes back to
 * the page with the spec's toast (`pageAction`). A hydrated card asks for the answer as data
 * (`CARD_ANSWER`): on success it gets the toast, the player's tickets in the raffle and their
 * coins, and the page's loaders are not run again (ADR 093); a refusal answers as the plain
 * form's does, so that the page shows what changed (signed out, paused, closed).
 */
export async function cardEntry(request: Request, id: string | undefined, kind: "regular" | "quick", back: string): Promise<Response | CardEntryAnswer> {
  const form = await request.formData().catch(() => null);
  const asked = form?.get(CARD_ANSWER.name) === CARD_ANSWER.value;
  let answer: Awaited<ReturnType<typeof enterFromCard>> | undefined;
  const response = await pageAction(
    request,
    // The session is checked by the entry itself, in its transaction (enterFromCard).
    async () => {
      answer = await enterFromCard(await requireSessionToken(request), uuidParam(id), kind);
      return asked ? null : enteredToast(answer.entered, kind);
    },
    { failureTitle: "Entry Failed", back },
  );
  if (!asked || !answer) return response;
  return { ...answer.card, toast: { type: "success", ...enteredToast(answer.entered, kind) } };
}
