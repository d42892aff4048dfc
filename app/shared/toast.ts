/** A toast as the page shows it. `celebrate`: a win of the player's own, shown (with JavaScript) as the celebration overlay. */
export type ToastType = "success" | "error" | "info";
export type ToastMessage = { id: string; title: string; description?: string; type: ToastType; celebrate?: boolean };

/** A toast an answer asks for; the id is given when it is sent, and the type defaults to success. */
export type NewToast = Omit<ToastMessage, "id" | "type"> & { type?: ToastType };
