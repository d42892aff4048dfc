// The app's own document streaming (same headers, same rendering path).
export { default } from "~/entry.server";
